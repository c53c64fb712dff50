// The Profile form: what to profile (a demo kernel, a whole demo ladder, or a .cu/.ptx file and its
// entry), optional launch overrides (grid, block, shared memory, argument specs), the metric set,
// timed runs, device, and the hang timeout. It turns its fields into a ProbeRequest.
#pragma once

#include "profile/probe_request.h"

#include <QWidget>

class QComboBox;
class QLineEdit;
class QSpinBox;
class QStackedWidget;

namespace warpscope::app {

class ProfileForm : public QWidget {
    Q_OBJECT
public:
    explicit ProfileForm(QWidget* parent = nullptr);

    ProbeRequest request() const;
    void setRequest(const ProbeRequest& request);
    int hangTimeoutSeconds() const;
    void setHangTimeoutSeconds(int seconds);

signals:
    void profileRequested();                // Return in a field
    void hangTimeoutChanged(int seconds);

private:
    void updatePlaceholders();

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
    QSpinBox* m_runs = nullptr;
    QSpinBox* m_device = nullptr;
    QSpinBox* m_hangTimeout = nullptr;
    QLineEdit* m_remote = nullptr;
};

} // namespace warpscope::app
