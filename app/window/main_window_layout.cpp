// Layout details of the window that keep text readable at 1280 x 800, split from main_window.cpp:
// the Details dock sized to its two lines and foldable to its title; dock tabs that show their
// whole titles (scroll arrows instead of "P…"); lesson code blocks that wrap instead of scrolling.
#include "window/main_window.h"

#include <QApplication>
#include <QDockWidget>
#include <QEvent>
#include <QFont>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QTabBar>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCharFormat>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextOption>
#include <QTimer>
#include <QToolButton>

#include <algorithm>

namespace warpscope::app {

void MainWindow::buildDetailsTitleBar()
{
    // A title bar with a fold arrow: folded, the dock keeps only this line.
    auto* bar = new QWidget(m_detailsDock);
    bar->setObjectName(QStringLiteral("detailsTitleBar"));
    auto* layout = new QHBoxLayout(bar);
    layout->setContentsMargins(4, 1, 4, 1);
    layout->setSpacing(4);
    m_detailsFold = new QToolButton(bar);
    m_detailsFold->setObjectName(QStringLiteral("detailsFold"));
    m_detailsFold->setAutoRaise(true);
    m_detailsFold->setArrowType(Qt::DownArrow);
    m_detailsFold->setToolTip(QStringLiteral("Fold the details to this line; click again to show them"));
    auto* title = new QLabel(m_detailsDock->windowTitle(), bar);
    auto* close = new QToolButton(bar);
    close->setAutoRaise(true);
    close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    close->setToolTip(QStringLiteral("Close the details (View > Details brings them back)"));
    layout->addWidget(m_detailsFold);
    layout->addWidget(title);
    layout->addStretch(1);
    layout->addWidget(close);
    m_detailsDock->setTitleBarWidget(bar);
    connect(m_detailsFold, &QToolButton::clicked, this, [this] { setDetailsFolded(!detailsFolded()); });
    connect(close, &QToolButton::clicked, m_detailsDock, &QDockWidget::close);
}

int MainWindow::detailsHeight() const
{
    // Its text at the dock's width (two lines at most widths), under the title bar.
    const int width = std::max(200, m_detailsDock->width() - 4);
    const QWidget* bar = m_detailsDock->titleBarWidget();
    return (bar ? bar->sizeHint().height() : 0) + m_details->heightForWidth(width) + 4;
}

void MainWindow::setDetailsFolded(bool folded)
{
    m_details->setVisible(!folded);
    m_detailsFold->setArrowType(folded ? Qt::RightArrow : Qt::DownArrow);
    if (folded) {
        m_detailsDock->setMaximumHeight(m_detailsDock->titleBarWidget()->sizeHint().height() + 2);
    } else {
        m_detailsDock->setMaximumHeight(QWIDGETSIZE_MAX);
        resizeDocks({m_detailsDock}, {detailsHeight()}, Qt::Vertical);
    }
}

bool MainWindow::detailsFolded() const { return m_details->isHidden(); }

void MainWindow::keepDockTabsReadable()
{
    // QMainWindow makes the tab bars of tabified docks itself, eliding their titles to fit ("P…",
    // "S…"); whole titles with scroll arrows when they do not all fit read better.
    for (QTabBar* bar : findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly)) {
        bar->setElideMode(Qt::ElideNone);
        bar->setUsesScrollButtons(true);
        bar->setExpanding(false);
    }
}

void MainWindow::wrapLessonCode()
{
    // Markdown code blocks are set as non-breaking lines: a long one made the whole lesson scroll
    // sideways in a narrow panel. They wrap like the text (anywhere, when a token is too long),
    // one point smaller than the text.
    QTextDocument* document = m_lessonView->document();
    QTextCursor cursor(document);
    cursor.beginEditBlock();
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        QTextBlockFormat format = block.blockFormat();
        if (!format.nonBreakableLines())
            continue;
        format.setNonBreakableLines(false);
        cursor.setPosition(block.position());
        cursor.setBlockFormat(format);
        cursor.setPosition(block.position() + block.length() - 1, QTextCursor::KeepAnchor);
        QTextCharFormat smaller;
        smaller.setFontPointSize(std::max(7.0, m_lessonView->font().pointSizeF() - 1.0));
        cursor.mergeCharFormat(smaller);
    }
    cursor.endEditBlock();
}

} // namespace warpscope::app
