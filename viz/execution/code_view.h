// CodeView: the kernel stepper's listing (CUDA C++ or PTX) and the playground's editor. A gutter
// beside the text shows line numbers, a heat column (one launch counter per line) and compiler
// diagnostics; the stepper's current line is tinted. Colours come from the palette's lightness so
// light and dark themes both read, and are re-chosen when the palette changes.
#pragma once

#include <QColor>
#include <QPlainTextEdit>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <map>
#include <vector>

class QEvent;
class QKeyEvent;
class QMouseEvent;
class QPaintEvent;
class QRect;
class QResizeEvent;

namespace warpscope::viz {

class CodeGutter;
class CodeHighlighter;

// The gutter's columns in px from its left edge; plain numbers so the layout is testable unpainted.
struct CodeGutterLayout {
    int markerX = 0, markerWidth = 12; // diagnostic icon
    int numberX = 0, numberWidth = 0;  // right-aligned line number
    int heatX = 0, heatWidth = 10;     // heat cell
    int width = 0;                     // the whole gutter, including the gap before the text
};
CodeGutterLayout codeGutterLayout(int lineCount, int digitAdvance); // room for at least 2 digits
QColor codeHeatColor(double value, bool darkPalette);                // transparent at 0, orange-red at 1

class CodeView : public QPlainTextEdit {
    Q_OBJECT
public:
    enum class Language { Cuda, Ptx };
    struct LineHeat {
        double value = 0; // 0..1, the colour only (normalised, so not worth showing as a number)
        QString tooltip;  // the raw figure for the gutter tooltip: "8.0 sectors per request"
    };
    struct Marker {
        int line = 0;      // 1-based
        int column = 0;    // 1-based; 0 underlines the whole line
        QString message;   // shown in the gutter and text tooltips
        bool error = true; // false: a warning (amber triangle instead of a red dot)
    };

    explicit CodeView(Language language, QWidget* parent = nullptr);

    void setCode(const QString& text);                                // replaces the text, clears heat and markers
    void setCurrentLine(int line);                                    // 1-based, 0 for none; centred when off screen
    int currentLine() const { return m_currentLine; }                 // 0 when none
    void setHeat(std::map<int, LineHeat> heat);                       // keyed by 1-based line
    LineHeat heatAt(int line) const                                   // a line's heat; value 0 and no tooltip when none
    {
        const auto found = m_heat.find(line);
        return found == m_heat.end() ? LineHeat{} : found->second;
    }
    void setHeatLabel(const QString& label) { m_heatLabel = label; }  // "sectors/request": names the heat in tooltips
    void setMarkers(std::vector<Marker> markers);                     // replaces the diagnostics
    const std::vector<Marker>& markers() const { return m_markers; }  // as given to setMarkers
    void setEditable(bool editable);                                  // false: read-only, still keyboard-navigable

signals:
    void lineClicked(int line);                                       // 1-based; a left click in gutter or text
    void compileRequested();                                          // Ctrl+Enter or Ctrl+Return while editable

protected:
    bool event(QEvent* event) override;                               // claims Ctrl+Enter, Ctrl+Home/End while editable
    bool viewportEvent(QEvent* event) override;                       // diagnostic tooltips over underlined text
    void changeEvent(QEvent* event) override;                         // palette (light/dark) and font changes
    void resizeEvent(QResizeEvent* event) override;                   // keeps the gutter beside the viewport
    void keyPressEvent(QKeyEvent* event) override;                    // Ctrl+Enter asks to compile
    void mousePressEvent(QMouseEvent* event) override;                // emits lineClicked

private:
    friend class CodeGutter;

    void updateGutterWidth();
    void updateGutterArea(const QRect& rect, int dy);
    void refreshExtraSelections();
    void applyPalette();
    void applyTabStops();
    int lineAtY(int y) const;                           // viewport y to a 1-based line, 0 below the text
    int digitAdvance() const;
    QStringList markerRows(int line, int column) const; // tooltip rows for markers at or before `column`
    QString gutterToolTip(int line) const;
    void paintGutter(QPaintEvent* event);

    CodeGutter* m_gutter = nullptr;
    CodeHighlighter* m_highlighter = nullptr; // owned by the document
    int m_currentLine = 0;
    std::map<int, LineHeat> m_heat;
    QString m_heatLabel;
    std::vector<Marker> m_markers;
    bool m_dark = false;
};

} // namespace warpscope::viz
