// Search (Ctrl+K) over every lesson (title and text), flashcard and quiz question; Enter jumps to the
// place: the lesson, the card in the Flashcards tab, or the question in the Quiz tab.
#pragma once

#include <QDialog>
#include <QString>

#include <vector>

class QLineEdit;
class QListWidget;

namespace warpscope::app {

struct SearchEntry {
    enum class Kind { Lesson, Card, Question } kind = Kind::Lesson;
    QString key;      // lesson id, card id or question id
    QString title;    // what the list shows
    QString text;     // what is searched besides the title
};

class SearchDialog : public QDialog {
    Q_OBJECT
public:
    SearchDialog(std::vector<SearchEntry> entries, QWidget* parent = nullptr);

    void setQuery(const QString& query);
    int resultCount() const;
    const SearchEntry* result(int row) const;
    void activate(int row);

signals:
    void chosen(const SearchEntry& entry);

private:
    void filter();

    std::vector<SearchEntry> m_entries;
    std::vector<int> m_shown;
    QLineEdit* m_query = nullptr;
    QListWidget* m_list = nullptr;
};

} // namespace warpscope::app
