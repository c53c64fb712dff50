// Undo and redo for the launch (grid and block) and the occupancy explorer's inputs: each change the
// user makes, or a lesson link makes, is one step holding the inputs before and after it. Typing into
// one field merges into one step until the focus moves ("Block 96 -> 128", not "1", "12", "128").
// Undoing applies the earlier inputs to the launch bar, the explorer and every figure at once.
#pragma once

#include "launch/launch_geometry.h"
#include "occupancy/occupancy.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

class QUndoStack;

namespace warpscope::app {

struct InputSnapshot {
    launch::LaunchShape launch;
    QString arch;                       // the explorer's GPU preset, "sm_90"
    occupancy::OccupancyInput explorer;
    bool operator==(const InputSnapshot&) const = default;
};

QStringList changedInputs(const InputSnapshot& before, const InputSnapshot& after); // "Grid", "Block", "GPU", ...
QString describeInputChange(const InputSnapshot& before, const InputSnapshot& after); // "Block 96 → 128"

class InputHistory : public QObject {
    Q_OBJECT
public:
    using Apply = std::function<void(const InputSnapshot&)>;
    InputHistory(const InputSnapshot& initial, Apply apply, QObject* parent = nullptr);

    // The inputs are now `now`: a new step (or merged into the step being typed). Nothing while an
    // undo or redo applies its inputs, or when nothing changed. `text` names the step ("Lesson Link");
    // empty: described from what changed.
    void record(const InputSnapshot& now, const QString& text = {});
    void closeMerge();                  // the next change is a step of its own
    void reset(const InputSnapshot& now); // no steps; `now` is where undo stops
    void reapplyCurrent();              // puts the last recorded inputs back (over unapplied typing)
    bool applying() const { return m_applying; }
    const InputSnapshot& current() const { return m_current; }
    QUndoStack* stack() const { return m_stack; }

private:
    friend class InputChange;
    void applySnapshot(const InputSnapshot& snapshot);

    QUndoStack* m_stack = nullptr;
    Apply m_apply;
    InputSnapshot m_current;
    int m_mergeSerial = 0;              // steps recorded under one serial may merge
    bool m_applying = false;
};

} // namespace warpscope::app
