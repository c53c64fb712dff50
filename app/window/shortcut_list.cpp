#include "window/shortcut_list.h"

#include <QAbstractButton>
#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSet>
#include <QShortcut>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <map>

namespace warpscope::app {
namespace {

QString withoutMnemonic(QString text)
{
    text.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
    return text;
}

// "Play or pause (F5): one step" -> "Play or pause: one step": the key is in its own column.
QString withoutKeyMention(QString text, const QList<QKeySequence>& keys)
{
    static const QRegularExpression parenthesis(QStringLiteral("\\s*\\(([^()]*)\\)"));
    QRegularExpressionMatchIterator it = parenthesis.globalMatch(text);
    QList<QRegularExpressionMatch> drop;
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        for (const QKeySequence& key : keys)
            if (match.captured(1).contains(key.toString(QKeySequence::NativeText), Qt::CaseInsensitive) ||
                match.captured(1).contains(key.toString(QKeySequence::PortableText), Qt::CaseInsensitive)) {
                drop.prepend(match);
                break;
            }
    }
    for (const QRegularExpressionMatch& match : drop)
        text.remove(match.capturedStart(), match.capturedLength());
    return text.trimmed();
}

bool localContext(Qt::ShortcutContext context)
{
    return context == Qt::WidgetShortcut || context == Qt::WidgetWithChildrenShortcut;
}

QString localWhere(const QString& view, Qt::ShortcutContext context)
{
    return localContext(context) ? QStringLiteral("%1 (while it has the focus)").arg(view) : view;
}

QString actionDescription(const QAction* action, bool inMenu)
{
    const QString text = withoutMnemonic(action->text()).trimmed();
    const QString tip = action->toolTip().trimmed();
    // A tool button's text is short ("> line"); its tool tip says what it does. A menu entry's text
    // is the description; its tool tip adds detail.
    QString what = !inMenu && !tip.isEmpty() && tip != text ? tip : text;
    if (what.isEmpty())
        what = tip;
    what = withoutKeyMention(what, action->shortcuts());
    if (what.endsWith(QStringLiteral("...")))
        what.chop(3);
    return what;
}

// A QShortcut has no text: its what's-this, or the button under the same parent that names its key.
QString shortcutDescription(const QShortcut* shortcut)
{
    if (!shortcut->whatsThis().isEmpty())
        return withoutKeyMention(shortcut->whatsThis(), shortcut->keys());
    const auto* parent = qobject_cast<const QWidget*>(shortcut->parent());
    if (parent == nullptr)
        return {};
    for (const QKeySequence& key : shortcut->keys()) {
        const QString name = key.toString(QKeySequence::NativeText);
        const QRegularExpression word(QStringLiteral("(^|[^\\w+])%1($|[^\\w+])").arg(QRegularExpression::escape(name)));
        for (const QAbstractButton* button : parent->findChildren<QAbstractButton*>())
            if (word.match(button->toolTip()).hasMatch() || word.match(withoutMnemonic(button->text())).hasMatch())
                return withoutKeyMention(withoutMnemonic(button->text()), shortcut->keys());
    }
    return {};
}

// Walked from the menu bar down, so a submenu's entries are named by their path ("File > Open
// Recorded Session"); a menu's own associations would also lead through the menu bar's overflow menu.
void collectMenu(const QMenu* menu, const QString& path, QSet<const QObject*>& seen, std::vector<ShortcutEntry>& out)
{
    for (QAction* action : menu->actions()) {
        if (action->isSeparator())
            continue;
        if (action->menu() != nullptr) {
            collectMenu(action->menu(), path + QStringLiteral(" > ") + withoutMnemonic(action->menu()->title()), seen, out);
            continue;
        }
        if (seen.contains(action))
            continue;
        seen.insert(action);
        if (action->shortcuts().isEmpty())
            continue;
        out.push_back({QStringLiteral("%1 menu").arg(path), actionDescription(action, true), action->shortcuts(), action});
    }
}

} // namespace

QString ShortcutEntry::keyText() const
{
    QStringList texts;
    for (const QKeySequence& key : keys)
        texts << key.toString(QKeySequence::NativeText);
    return texts.join(QStringLiteral(", "));
}

std::vector<ShortcutEntry> collectShortcuts(const QWidget* window, const ViewNameOf& viewNameOf)
{
    std::vector<ShortcutEntry> entries;
    QSet<const QObject*> seen;
    if (const QMenuBar* bar = window->findChild<QMenuBar*>())
        for (QAction* top : bar->actions())
            if (top->menu() != nullptr)
                collectMenu(top->menu(), withoutMnemonic(top->menu()->title()), seen, entries);

    // Actions outside the menus: children of the window, and actions added to any widget under it.
    QList<QAction*> actions = window->findChildren<QAction*>();
    for (const QWidget* widget : window->findChildren<QWidget*>())
        actions += widget->actions();
    std::vector<ShortcutEntry> local;
    for (QAction* action : actions) {
        if (seen.contains(action) || action->isSeparator())
            continue;
        seen.insert(action);
        if (action->shortcuts().isEmpty())
            continue;
        const QWidget* owner = qobject_cast<const QWidget*>(action->parent());
        bool inMenu = false;
        for (QObject* object : action->associatedObjects()) {
            if (auto* menu = qobject_cast<QMenu*>(object)) { // a menu not on the menu bar (a context menu)
                inMenu = true;
                if (owner == nullptr)
                    owner = menu;
            } else if (owner == nullptr) {
                owner = qobject_cast<const QWidget*>(object);
            }
        }
        local.push_back({localWhere(viewNameOf(owner), action->shortcutContext()), actionDescription(action, inMenu),
                         action->shortcuts(), action});
    }
    for (const QShortcut* shortcut : window->findChildren<QShortcut*>()) {
        if (shortcut->keys().isEmpty())
            continue;
        local.push_back({localWhere(viewNameOf(qobject_cast<const QWidget*>(shortcut->parent())), shortcut->context()),
                         shortcutDescription(shortcut), shortcut->keys(), shortcut});
    }
    // Views in the order they first appear, so one view's keys stay together.
    std::vector<QString> order;
    std::map<QString, std::vector<ShortcutEntry>> byView;
    for (ShortcutEntry& entry : local) {
        if (!byView.count(entry.where))
            order.push_back(entry.where);
        byView[entry.where].push_back(std::move(entry));
    }
    for (const QString& where : order)
        for (ShortcutEntry& entry : byView[where])
            entries.push_back(std::move(entry));
    return entries;
}

ShortcutsDialog::ShortcutsDialog(const std::vector<ShortcutEntry>& entries, QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    auto* note = new QLabel(tr("Every key the window's menus and views answer to. Keys marked \u201cwhile it has the "
                               "focus\u201d work once you have clicked into that view."),
                            this);
    note->setWordWrap(true);
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("shortcutsFilter"));
    m_filter->setPlaceholderText(tr("Filter by action, key or view"));
    m_filter->setClearButtonEnabled(true);
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("shortcutsTree"));
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Action"), tr("Keys")});
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setWordWrap(false);
    QTreeWidgetItem* group = nullptr;
    for (const ShortcutEntry& entry : entries) {
        if (group == nullptr || group->text(0) != entry.where) {
            group = new QTreeWidgetItem(m_tree, {entry.where});
            group->setFirstColumnSpanned(true);
            QFont bold = group->font(0);
            bold.setBold(true);
            group->setFont(0, bold);
            group->setFlags(Qt::ItemIsEnabled);
        }
        auto* item = new QTreeWidgetItem(group, {entry.what, entry.keyText()});
        item->setToolTip(0, entry.what);
    }
    m_tree->expandAll();
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_filter, &QLineEdit::textChanged, this, &ShortcutsDialog::applyFilter);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(note);
    layout->addWidget(m_filter);
    layout->addWidget(m_tree, 1);
    layout->addWidget(buttons);
    resize(620, 560);
}

void ShortcutsDialog::applyFilter(const QString& text)
{
    const QString needle = text.trimmed();
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* group = m_tree->topLevelItem(i);
        const bool groupMatches = group->text(0).contains(needle, Qt::CaseInsensitive);
        int shown = 0;
        for (int j = 0; j < group->childCount(); ++j) {
            QTreeWidgetItem* item = group->child(j);
            const bool match = needle.isEmpty() || groupMatches || item->text(0).contains(needle, Qt::CaseInsensitive) ||
                               item->text(1).contains(needle, Qt::CaseInsensitive);
            item->setHidden(!match);
            shown += match ? 1 : 0;
        }
        group->setHidden(shown == 0);
    }
}

int ShortcutsDialog::visibleShortcutCount() const
{
    int count = 0;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i)
        for (int j = 0; j < m_tree->topLevelItem(i)->childCount(); ++j)
            count += m_tree->topLevelItem(i)->isHidden() || m_tree->topLevelItem(i)->child(j)->isHidden() ? 0 : 1;
    return count;
}

} // namespace warpscope::app
