#include "window/input_history.h"

#include "util/parse.h"

#include <QScopedValueRollback>
#include <QUndoCommand>
#include <QUndoStack>

#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

namespace warpscope::app {
namespace {

QString dimText(const launch::Dim3& dim) { return QString::fromStdString(launch::formatDim3(dim)); }

QString bytesText(std::size_t bytes) { return QString::fromStdString(warpscope::formatBytes(bytes)); }

QString carveoutText(int percent) { return percent < 0 ? QStringLiteral("default") : QStringLiteral("%1 %").arg(percent); }

struct Field {
    const char* name;
    std::function<QString(const InputSnapshot&)> text;
};

// Each input the history tracks, with how it is written. The explorer's block size is the launch's
// thread count (the window keeps them in step), so "Block" covers both.
const std::vector<Field>& fields()
{
    static const std::vector<Field> all = {
        {"Grid", [](const InputSnapshot& s) { return dimText(s.launch.grid); }},
        {"Block", [](const InputSnapshot& s) {
             return s.launch.threadsPerBlock() == s.explorer.threadsPerBlock
                        ? dimText(s.launch.block)
                        : QStringLiteral("%1 (explorer %2)").arg(dimText(s.launch.block)).arg(s.explorer.threadsPerBlock);
         }},
        {"GPU", [](const InputSnapshot& s) { return s.arch; }},
        {"Registers", [](const InputSnapshot& s) { return QString::number(s.explorer.registersPerThread); }},
        {"Static shared", [](const InputSnapshot& s) { return bytesText(s.explorer.staticSharedBytes); }},
        {"Dynamic shared", [](const InputSnapshot& s) { return bytesText(s.explorer.dynamicSharedBytes); }},
        {"Carveout", [](const InputSnapshot& s) { return carveoutText(s.explorer.carveoutPercent); }},
        {"Barriers", [](const InputSnapshot& s) { return QString::number(s.explorer.barriersPerBlock); }},
    };
    return all;
}

} // namespace

QStringList changedInputs(const InputSnapshot& before, const InputSnapshot& after)
{
    QStringList names;
    for (const Field& field : fields())
        if (field.text(before) != field.text(after))
            names << QString::fromLatin1(field.name);
    return names;
}

QString describeInputChange(const InputSnapshot& before, const InputSnapshot& after)
{
    const QStringList names = changedInputs(before, after);
    if (names.size() != 1)
        return names.join(QStringLiteral(", "));
    for (const Field& field : fields())
        if (names.front() == QLatin1String(field.name))
            return QStringLiteral("%1 %2 \u2192 %3").arg(names.front(), field.text(before), field.text(after));
    return names.front();
}

// One step: the inputs before and after. Pushing it does not apply it (the change has happened).
class InputChange : public QUndoCommand {
public:
    InputChange(InputHistory* history, InputSnapshot before, InputSnapshot after, QString text, int serial)
        : m_history(history), m_before(std::move(before)), m_after(std::move(after)), m_named(!text.isEmpty()),
          m_fields(changedInputs(m_before, m_after)), m_serial(serial)
    {
        setText(m_named ? QStringLiteral("%1: %2").arg(text, describeInputChange(m_before, m_after))
                        : describeInputChange(m_before, m_after));
    }

    int id() const override { return 1; }

    void undo() override { m_history->applySnapshot(m_before); }

    void redo() override
    {
        if (m_pushed)
            m_history->applySnapshot(m_after);
        m_pushed = true;
    }

    // Typing into one field: the same inputs change again under the same serial.
    bool mergeWith(const QUndoCommand* other) override
    {
        const auto* next = static_cast<const InputChange*>(other);
        if (m_named || next->m_named || next->m_serial != m_serial || next->m_fields != m_fields)
            return false;
        m_after = next->m_after;
        setText(describeInputChange(m_before, m_after));
        setObsolete(m_before == m_after); // typed back to where it started: no step
        return true;
    }

private:
    InputHistory* m_history;
    InputSnapshot m_before, m_after;
    bool m_named;
    QStringList m_fields;
    int m_serial;
    bool m_pushed = false;
};

InputHistory::InputHistory(const InputSnapshot& initial, Apply apply, QObject* parent)
    : QObject(parent), m_stack(new QUndoStack(this)), m_apply(std::move(apply)), m_current(initial)
{
    m_stack->setUndoLimit(500);
}

void InputHistory::record(const InputSnapshot& now, const QString& text)
{
    if (m_applying || now == m_current)
        return;
    InputSnapshot before = std::exchange(m_current, now);
    m_stack->push(new InputChange(this, std::move(before), now, text, m_mergeSerial));
    if (!text.isEmpty())
        closeMerge();
}

void InputHistory::closeMerge() { ++m_mergeSerial; }

void InputHistory::reset(const InputSnapshot& now)
{
    m_stack->clear();
    m_current = now;
    closeMerge();
}

void InputHistory::reapplyCurrent() { applySnapshot(m_current); }

void InputHistory::applySnapshot(const InputSnapshot& snapshot)
{
    const QScopedValueRollback guard(m_applying, true);
    m_current = snapshot;
    closeMerge(); // a change after an undo is a new step, never merged into the one undone
    m_apply(snapshot);
}

} // namespace warpscope::app
