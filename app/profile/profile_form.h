// The Profile form: what to profile (a demo kernel, a whole demo ladder, or a .cu/.ptx file and its
// entry), optional launch overrides (grid, block, shared memory, argument specs), the metric set,
// timed runs, device, the virtual architecture a .cu file is compiled for, and the hang timeout. It turns its fields into a ProbeRequest. It follows the
// session that is open: its ladder, or its kernel with the launch that was measured. Runs, Device,
// Compute and Hang timeout are checked as typed: a bad value is marked with the field's own range in a line
// under the form, kept as typed, and Profile waits until every field is valid.
#pragma once

#include "profile/probe_request.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;
class QToolButton;

namespace warpscope::session {
struct Session;
}

namespace warpscope::viz {
class ValidatedField;
}

namespace warpscope::app {

class ProfileForm : public QWidget {
    Q_OBJECT
public:
    explicit ProfileForm(QWidget* parent = nullptr);

    ProbeRequest request() const;
    void setRequest(const ProbeRequest& request);
    int hangTimeoutSeconds() const; // the field's value, or its last valid one while it is marked
    void setHangTimeoutSeconds(int seconds);
    // Every marked field's message, one per line; empty when Profile can run the form's request.
    QString fieldErrors() const;

    // Shows what `session` measured, so Profile runs it again: the ladder when every kernel is a rung
    // of one ladder (with the argument specs they all share), else `kernel` (the session's first when
    // empty) with the grid, block, shared memory and arguments it ran with; a kernel from a file by
    // its path and entry, and Compute by the architecture its record names (empty for a demo kernel).
    // Picking another kernel or kind clears the launch fields filled this way.
    void followSession(const session::Session& session, const QString& kernel = {});
    QString followNote() const; // "Following the open session: ...", empty when not following

signals:
    void profileRequested();                // Return in a field
    void hangTimeoutChanged(int seconds);   // typed or stepped to a valid value
    void fieldErrorsChanged();              // a field turned valid or invalid

private:
    void updatePlaceholders();
    void showFieldErrors();
    void targetPicked(); // the user chose another kernel, ladder or kind
    bool computeApplies() const; // the target is a .cu file, which NVRTC compiles
    void updateCompute();        // enables Compute for a .cu file only

    QComboBox* m_kind = nullptr;
    QStackedWidget* m_targetStack = nullptr;
    QComboBox* m_kernel = nullptr;
    QComboBox* m_ladder = nullptr;
    QLineEdit* m_file = nullptr;
    QLineEdit* m_entry = nullptr;
    QLineEdit* m_grid = nullptr;
    QLineEdit* m_block = nullptr;
    QLineEdit* m_smem = nullptr;
    QLineEdit* m_args = nullptr;
    QComboBox* m_metrics = nullptr;
    viz::ValidatedField* m_runs = nullptr;        // empty or 0: the probe's default
    viz::ValidatedField* m_device = nullptr;      // empty: 0
    viz::ValidatedField* m_hangTimeout = nullptr; // seconds; takes 180 s, 3 min, 1 h
    viz::ValidatedField* m_compute = nullptr;     // compute_XX; empty: the default, compute_75
    QToolButton* m_computeChoices = nullptr;      // the architectures NVRTC knows, to pick one
    int m_lastValidHangTimeout = 180;
    QLabel* m_fieldErrors = nullptr;    // the marked fields' messages, under the form's rows
    QLabel* m_followLabel = nullptr;    // what of the open session the fields show
    bool m_following = false;           // followSession is setting the fields
    bool m_followed = false;            // the launch fields hold the open session's launch
    QLineEdit* m_remote = nullptr;
};

} // namespace warpscope::app
