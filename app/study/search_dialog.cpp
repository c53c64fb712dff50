#include "study/search_dialog.h"

#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QVBoxLayout>

namespace warpscope::app {

SearchDialog::SearchDialog(std::vector<SearchEntry> entries, QWidget* parent) : QDialog(parent), m_entries(std::move(entries))
{
    setWindowTitle(QStringLiteral("Search Lessons, Cards and Questions"));
    resize(560, 420);
    auto* layout = new QVBoxLayout(this);
    m_query = new QLineEdit(this);
    m_query->setPlaceholderText(QStringLiteral("Type words, e.g. bank conflict, loss scale, occupancy"));
    m_query->setClearButtonEnabled(true);
    layout->addWidget(m_query);
    m_list = new QListWidget(this);
    m_list->setWordWrap(true);
    layout->addWidget(m_list, 1);
    auto* hint = new QLabel(QStringLiteral("Enter opens the selected result; Esc closes."), this);
    layout->addWidget(hint);
    connect(m_query, &QLineEdit::textChanged, this, &SearchDialog::filter);
    connect(m_query, &QLineEdit::returnPressed, this, [this] { activate(std::max(0, m_list->currentRow())); });
    connect(m_list, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) { activate(m_list->row(item)); });
    filter();
}

void SearchDialog::setQuery(const QString& query) { m_query->setText(query); }

int SearchDialog::resultCount() const { return static_cast<int>(m_shown.size()); }

const SearchEntry* SearchDialog::result(int row) const
{
    return row >= 0 && row < resultCount() ? &m_entries[static_cast<std::size_t>(m_shown[static_cast<std::size_t>(row)])] : nullptr;
}

void SearchDialog::filter()
{
    const QStringList words = m_query->text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    m_list->clear();
    m_shown.clear();
    // Every word must appear (case-insensitive); titles that match rank first.
    std::vector<int> titleHits, textHits;
    for (int i = 0; i < static_cast<int>(m_entries.size()); ++i) {
        const SearchEntry& e = m_entries[static_cast<std::size_t>(i)];
        bool all = true, inTitle = true;
        for (const QString& word : words) {
            const bool title = e.title.contains(word, Qt::CaseInsensitive);
            inTitle = inTitle && title;
            if (!title && !e.text.contains(word, Qt::CaseInsensitive) && !e.key.contains(word, Qt::CaseInsensitive)) {
                all = false;
                break;
            }
        }
        if (all)
            (inTitle ? titleHits : textHits).push_back(i);
    }
    m_shown = titleHits;
    m_shown.insert(m_shown.end(), textHits.begin(), textHits.end());
    for (int index : m_shown) {
        const SearchEntry& e = m_entries[static_cast<std::size_t>(index)];
        const QString kind = e.kind == SearchEntry::Kind::Lesson ? QStringLiteral("Lesson")
                             : e.kind == SearchEntry::Kind::Card ? QStringLiteral("Card")
                                                                 : QStringLiteral("Quiz");
        m_list->addItem(QStringLiteral("%1: %2").arg(kind, e.title));
    }
    if (!m_shown.empty())
        m_list->setCurrentRow(0);
}

void SearchDialog::activate(int row)
{
    if (const SearchEntry* entry = result(row)) {
        emit chosen(*entry);
        accept();
    }
}

} // namespace warpscope::app
