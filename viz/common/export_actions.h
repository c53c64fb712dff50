// Exporting what a panel shows: every table as CSV (RFC 4180, UTF-8) and every figure as PNG, SVG
// or PDF, from the widget's context menu. The text and the bytes come from plain functions, so tests
// and `warpscope screenshot` use them without dialogs; files are written atomically (QSaveFile), so a
// failed write says why and leaves the earlier file as it was.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <utility>

class QAbstractItemModel;
class QAbstractItemView;
class QAction;
class QWidget;

namespace warpscope::viz {

enum class FigureFormat { Png, Svg, Pdf };

inline constexpr double kFigurePngScale = 2.0; // PNG pixels per logical pixel: sharp on high-DPI screens and in print

// Every row and column of `model` with its horizontal header as the first line; a tree gets a
// leading "Section" column holding the path of first-column texts above each row, parents included.
QString tableCsv(const QAbstractItemModel& model);
// What `view` shows: its model less the rows and columns it hides (a filter), with the vertical
// header as a first column when the view shows one that holds more than row numbers.
QString tableCsv(const QAbstractItemView& view);
// One CSV field: quoted when it holds a comma, a quote, CR or LF, with quotes doubled (RFC 4180).
QString csvField(const QString& text);
// One CSV record: the fields quoted as csvField quotes them, joined by commas, ended by CRLF.
QString csvRecord(const QStringList& fields);

// The format a file name asks for, from its suffix (case-insensitive): .png, .svg, .pdf.
std::optional<FigureFormat> figureFormatForPath(const QString& path);
// `figure` rendered at its size: PNG at kFigurePngScale, SVG and PDF as vectors where the widget
// paints vectors (QCustomPlot through its own vector path). OpenGL canvases are drawn from their
// framebuffer. Empty when the widget has no area.
QByteArray renderFigure(QWidget& figure, FigureFormat format, const QString& title = {});

// Writes `bytes` to `path` through QSaveFile. nullopt on success, else "cannot write PATH: why".
std::optional<QString> writeFileAtomically(const QString& path, const QByteArray& bytes);
// tableCsv(view) to `path`; renderFigure to `path` in the format of its suffix (an unknown suffix is
// refused with the allowed ones). nullopt on success, else the reason.
std::optional<QString> saveTableCsv(const QAbstractItemView& view, const QString& path);
std::optional<QString> saveFigure(QWidget& figure, const QString& path, const QString& title = {});

// Context-menu actions "Save Table as CSV…" and "Copy as CSV" on `view` (objectNames
// "exportTableCsv", "copyTableCsv"); `defaultName` is the file name the dialog offers, without suffix.
void installTableExport(QAbstractItemView* view, const QString& defaultName);

struct CsvExportActions {          // what the two actions of installCsvExport are called
    QString saveText, copyText;    // "Save Statistics as CSV…", "Copy Statistics as CSV"
    QString saveName, copyName;    // their objectNames
    QString defaultName;           // the file name the dialog offers, without suffix
};
// Context-menu actions on `widget` that save csv() to a file the user picks (atomically; a failed
// write says why and keeps the old file) and copy it to the clipboard: for CSV that is not a view's
// model (installTableExport is this with tableCsv). Returns the save and copy actions.
std::pair<QAction*, QAction*> installCsvExport(QWidget* widget, const CsvExportActions& names, std::function<QString()> csv);

// Context-menu action "Save Figure As…" on `figure` (objectName "exportFigure"): PNG, SVG or PDF.
void installFigureExport(QWidget* figure, const QString& defaultName);

} // namespace warpscope::viz
