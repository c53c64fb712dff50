// What a learner of desktop tools expects from Help (issue 14, section 4): Help > Keyboard Shortcuts
// lists every key of every action and shortcut in the window, collected at run time (an action added
// later is listed too), with what it does and where it works; no two window-wide keys clash; F1 opens
// help for the view in focus, naming what it shows and opening the lesson that explains it.
#include "gui_test_support.h"
#include "execution/execution_panel.h"
#include "models/models_dock.h"
#include "occupancy/occupancy_panel.h"
#include "precision/quant/quant_panel.h"
#include "profile/profile_panel.h"
#include "profile/profile_views.h"
#include "study/quiz_panel.h"
#include "study/study_dock.h"
#include "window/application_setup.h"
#include "window/main_window.h"
#include "window/shortcut_list.h"
#include "window/view_help.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QPushButton>
#include <QSet>
#include <QShortcut>
#include <QStandardPaths>
#include <QTest>
#include <QTextBrowser>
#include <QTreeWidget>

using namespace warpscope;
using warpscope::app::HelpTopic;
using warpscope::app::MainWindow;

namespace {

using warpscope::gui_test::saveShot;

// Every (description, key) row of the dialog, keyed by the key's text, each with its group.
struct Row {
    QString where, what, keys;
};

QList<Row> dialogRows(const app::ShortcutsDialog& dialog)
{
    QList<Row> rows;
    const QTreeWidget* tree = dialog.tree();
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        for (int j = 0; j < tree->topLevelItem(i)->childCount(); ++j) {
            const QTreeWidgetItem* item = tree->topLevelItem(i)->child(j);
            rows.push_back({tree->topLevelItem(i)->text(0), item->text(0), item->text(1)});
        }
    return rows;
}

QString keysOf(const QList<QKeySequence>& keys)
{
    QStringList texts;
    for (const QKeySequence& key : keys)
        texts << key.toString(QKeySequence::NativeText);
    return texts.join(QStringLiteral(", "));
}

const Row* findRow(const QList<Row>& rows, const QString& keys, const QString& whereContains)
{
    for (const Row& row : rows)
        if (row.keys == keys && row.where.contains(whereContains))
            return &row;
    return nullptr;
}

struct ShownWindow {
    ShownWindow()
    {
        window.resize(1600, 1000);
        window.show();
        QTest::qWaitForWindowExposed(&window);
    }
    MainWindow window{{.restoreSettings = false}};
};

} // namespace

class HelpTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    // Every QAction and QShortcut in the window with a key is a row of the dialog, with that key,
    // and a description that is not empty.
    void theShortcutListHasEveryActionWithAKey()
    {
        ShownWindow shown;
        MainWindow& window = shown.window;
        window.showShortcuts();
        QVERIFY(window.shortcutsDialog() != nullptr);
        QVERIFY(window.shortcutsDialog()->isVisible());
        const QList<Row> rows = dialogRows(*window.shortcutsDialog());
        saveShot(*window.shortcutsDialog(), QStringLiteral("help-shortcuts"));

        // Independently: every action and shortcut object under the window that has a key.
        QSet<const QObject*> objects;
        QList<QPair<QString, QString>> expected; // (key text, action text or "")
        QList<QAction*> actions = window.findChildren<QAction*>();
        for (QWidget* widget : window.findChildren<QWidget*>())
            actions += widget->actions();
        for (QAction* action : actions)
            if (!action->shortcuts().isEmpty() && !objects.contains(action)) {
                objects.insert(action);
                expected.push_back({keysOf(action->shortcuts()), action->text()});
            }
        for (QShortcut* shortcut : window.findChildren<QShortcut*>())
            if (!shortcut->keys().isEmpty() && !objects.contains(shortcut)) {
                objects.insert(shortcut);
                expected.push_back({keysOf(shortcut->keys()), QString()});
            }
        QVERIFY(expected.size() >= 40); // the menus alone have more than 30
        QCOMPARE(rows.size(), expected.size());
        for (const auto& [keys, text] : expected) {
            bool listed = false;
            for (const Row& row : rows)
                listed = listed || row.keys == keys;
            QVERIFY2(listed, qPrintable(QStringLiteral("%1 (%2) is not listed").arg(keys, text)));
        }
        for (const Row& row : rows) {
            QVERIFY2(!row.what.isEmpty(), qPrintable(QStringLiteral("%1 in %2 has no description").arg(row.keys, row.where)));
            QVERIFY2(!row.where.isEmpty(), qPrintable(row.keys));
        }

        // A few by hand: a menu entry, a submenu-free view key, and a view's key that works wherever the
        // focus is while the view is shown (the Execution view's step keys).
        const QString open = QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText);
        const Row* openRow = findRow(rows, open, QStringLiteral("File menu"));
        QVERIFY(openRow != nullptr);
        QCOMPARE(openRow->what, QStringLiteral("Open Session"));
        const Row* f11 = findRow(rows, QStringLiteral("F11"), QStringLiteral("Execution"));
        QVERIFY(f11 != nullptr);
        QCOMPARE(f11->what, QStringLiteral("One warp-instruction")); // the tool tip without "(F11)"
        QVERIFY(!f11->where.contains(QStringLiteral("while it has the focus")));
        const Row* f1 = findRow(rows, QStringLiteral("F1"), QStringLiteral("Help menu"));
        QVERIFY(f1 != nullptr);
        QCOMPARE(f1->what, QStringLiteral("Help for This View"));
        // A QShortcut has no text: the flashcards' Space is named by the button that says "(Space)".
        const Row* space = findRow(rows, QStringLiteral("Space"), QStringLiteral("Study"));
        QVERIFY(space != nullptr);
        QCOMPARE(space->what, QStringLiteral("Show Answer"));
        const Row* compile = findRow(rows, QStringLiteral("Ctrl+Return, Ctrl+Enter"), QStringLiteral("Execution"));
        QVERIFY(compile != nullptr);

        // The filter keeps the rows that mention what is typed.
        window.shortcutsDialog()->filter()->setText(QStringLiteral("F11"));
        int withF11 = 0;
        for (const Row& row : rows)
            withF11 += row.keys.contains(QStringLiteral("F11"), Qt::CaseInsensitive) ||
                       row.what.contains(QStringLiteral("F11"), Qt::CaseInsensitive) ||
                       row.where.contains(QStringLiteral("F11"), Qt::CaseInsensitive);
        QCOMPARE(window.shortcutsDialog()->visibleShortcutCount(), withF11);
        QCOMPARE(withF11, 2); // F11 and Shift+F11
        window.shortcutsDialog()->filter()->clear();
        QCOMPARE(window.shortcutsDialog()->visibleShortcutCount(), static_cast<int>(rows.size()));
    }

    // The list is collected when asked, so an action added after the window was built is in it.
    void anActionAddedLaterIsListed()
    {
        ShownWindow shown;
        auto* extra = new QAction(QStringLiteral("Something new"), shown.window.occupancyPanel());
        extra->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_J));
        extra->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        shown.window.occupancyPanel()->addAction(extra);
        bool found = false;
        for (const app::ShortcutEntry& entry : shown.window.shortcutEntries())
            if (entry.source == extra) {
                found = true;
                QCOMPARE(entry.what, QStringLiteral("Something new"));
                QCOMPARE(entry.where, QStringLiteral("Occupancy explorer (while it has the focus)"));
            }
        QVERIFY(found);
    }

    // Two window-wide actions on one key would make Qt fire neither ("ambiguous shortcut").
    void windowWideKeysAreUnique()
    {
        ShownWindow shown;
        QMap<QString, QString> owner;
        for (const app::ShortcutEntry& entry : shown.window.shortcutEntries()) {
            if (entry.where.contains(QStringLiteral("while it has the focus")))
                continue;
            for (const QKeySequence& key : entry.keys) {
                const QString text = key.toString(QKeySequence::PortableText);
                QVERIFY2(!owner.contains(text), qPrintable(QStringLiteral("%1: %2 and %3").arg(text, owner.value(text), entry.what)));
                owner.insert(text, entry.what);
            }
        }
    }

    // The view a widget belongs to decides the help; each named lesson exists.
    void helpFollowsTheViewInFocus()
    {
        ShownWindow shown;
        MainWindow& window = shown.window;
        for (int t = static_cast<int>(HelpTopic::Lessons); t <= static_cast<int>(HelpTopic::AllReduce); ++t) {
            const app::ViewHelp help = app::viewHelp(static_cast<HelpTopic>(t));
            QVERIFY2(!help.view.isEmpty() && !help.text.isEmpty(), qPrintable(QString::number(t)));
            // What to try first, in sentences of its own (not a repeat of what the view shows).
            QVERIFY2(help.tryFirst.size() > 40 && help.tryFirst.endsWith(QLatin1Char('.')) && !help.text.contains(help.tryFirst),
                     qPrintable(help.view + QStringLiteral(": ") + help.tryFirst));
            if (!help.lessonId.isEmpty())
                QVERIFY2(window.lessons().find(help.lessonId) != nullptr, qPrintable(help.lessonId));
        }
        QCOMPARE(window.helpTopicFor(window.occupancyPanel()), HelpTopic::Occupancy);
        QCOMPARE(window.viewHelpFor(window.occupancyPanel()).lessonId, QStringLiteral("occupancy"));
        QCOMPARE(window.helpTopicFor(window.findChild<QTextBrowser*>()), HelpTopic::Lessons);
        QCOMPARE(window.helpTopicFor(window.canvasWidget()), HelpTopic::Hierarchy);
        window.showCanvasView(app::CanvasView::Placement);
        QCOMPARE(window.helpTopicFor(window.canvasWidget()), HelpTopic::Placement);
        QCOMPARE(window.helpTopicFor(nullptr), HelpTopic::Placement); // nothing focused: the view shown
        QCOMPARE(window.helpTopicFor(window.executionPanel()), HelpTopic::Execution);
        window.executionPanel()->showMemoryView(true);
        QCOMPARE(window.viewHelpFor(window.executionPanel()).lessonId, QStringLiteral("memory"));
        window.executionPanel()->showMemoryView(false);
        window.profilePanel()->views()->showTab(viz::ProfileViews::Tab::Roofline);
        QCOMPARE(window.viewHelpFor(window.profilePanel()).lessonId, QStringLiteral("roofline"));
        window.focusPrecisionLab(app::PrecisionLabTab::Quantization);
        QCOMPARE(window.helpTopicFor(window.quantPanel()), HelpTopic::Quantization);
        window.focusModels(viz::ModelsTab::AllReduce);
        QCOMPARE(window.viewHelpFor(window.modelsDock()).lessonId, QStringLiteral("multi-gpu"));
        // Practice names the lesson of the question on screen.
        window.focusStudy(app::StudyTab::Quiz);
        window.studyDock()->quiz()->showQuestion(QStringLiteral("occupancy.percent"), 1);
        QCOMPARE(window.helpTopicFor(window.studyDock()->quiz()), HelpTopic::Study);
        QCOMPARE(window.viewHelpFor(window.studyDock()->quiz()).lessonId, QStringLiteral("occupancy"));
    }

    // F1 in the occupancy explorer: the help names the explorer and opens its lesson.
    void f1OpensHelpForTheFocusedView()
    {
        ShownWindow shown;
        MainWindow& window = shown.window;
        window.focusOccupancy();
        auto* field = window.occupancyPanel()->findChild<QLineEdit*>();
        QVERIFY(field != nullptr);
        field->setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(field));
        QTest::keyClick(field, Qt::Key_F1);
        QTRY_VERIFY(window.viewHelpDialog() != nullptr && window.viewHelpDialog()->isVisible());
        QDialog* dialog = window.viewHelpDialog();
        QVERIFY(dialog->windowTitle().contains(QStringLiteral("Occupancy explorer")));
        const auto* text = dialog->findChild<QLabel*>(QStringLiteral("viewHelpText"));
        QVERIFY(text != nullptr);
        QCOMPARE(text->text(), app::viewHelp(HelpTopic::Occupancy).text);
        const auto* tryFirst = dialog->findChild<QLabel*>(QStringLiteral("viewHelpTryFirst"));
        QVERIFY(tryFirst != nullptr);
        QCOMPARE(tryFirst->text(), app::viewHelp(HelpTopic::Occupancy).tryFirst);
        const auto* explained = dialog->findChild<QLabel*>(QStringLiteral("viewHelpExplainedIn"));
        QVERIFY(explained != nullptr);
        QCOMPARE(explained->text(), QStringLiteral("The lesson \u201cOccupancy\u201d."));
        saveShot(*dialog, QStringLiteral("help-f1-occupancy"));
        auto* lesson = dialog->findChild<QPushButton*>(QStringLiteral("viewHelpLesson"));
        QVERIFY(lesson != nullptr);
        QVERIFY(lesson->text().contains(QStringLiteral("Occupancy")));
        QCOMPARE(window.currentLessonId(), QStringLiteral("hierarchy"));
        lesson->click();
        QCOMPARE(window.currentLessonId(), QStringLiteral("occupancy"));
        QTRY_VERIFY(window.viewHelpDialog() == nullptr || !window.viewHelpDialog()->isVisible());

        // F1 no longer opens About: the About entry has no key.
        for (const app::ShortcutEntry& entry : window.shortcutEntries())
            QVERIFY(!entry.what.contains(QStringLiteral("About")));
    }
};

QTEST_MAIN(HelpTest)
#include "help_test.moc"
