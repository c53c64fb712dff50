// Help > Keyboard Shortcuts: every QAction and QShortcut under the window that has a key, collected
// when the dialog opens (never a hand-written list, so it cannot fall behind the menus and panels),
// grouped by where it works: a menu, or a view while it has the focus.
#pragma once

#include <QDialog>
#include <QKeySequence>
#include <QList>
#include <QString>

#include <functional>
#include <vector>

class QLineEdit;
class QObject;
class QTreeWidget;
class QWidget;

namespace warpscope::app {

struct ShortcutEntry {
    QString where;               // "File menu", "View menu", "Execution view (while it has the focus)"
    QString what;                // what the key does, from the action's text or tool tip
    QList<QKeySequence> keys;
    const QObject* source = nullptr; // the QAction or QShortcut
    QString keyText() const;     // "Ctrl+O", or "Ctrl+Return, Ctrl+Enter"
};

// The name of the view a widget belongs to ("Execution view"), for keys that work only there.
using ViewNameOf = std::function<QString(const QWidget* widget)>;

// Every action and shortcut under `window` with at least one key, in menu order, then by view.
std::vector<ShortcutEntry> collectShortcuts(const QWidget* window, const ViewNameOf& viewNameOf);

class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    ShortcutsDialog(const std::vector<ShortcutEntry>& entries, QWidget* parent = nullptr);

    QTreeWidget* tree() const { return m_tree; }
    QLineEdit* filter() const { return m_filter; }
    int visibleShortcutCount() const; // rows the filter leaves

private:
    void applyFilter(const QString& text);

    QLineEdit* m_filter = nullptr;
    QTreeWidget* m_tree = nullptr;
};

} // namespace warpscope::app
