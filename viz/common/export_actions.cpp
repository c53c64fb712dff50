#include "common/export_actions.h"

#include <qcustomplot.h>

#include <QAbstractItemModel>
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QImage>
#include <QImageWriter>
#include <QListView>
#include <QMarginsF>
#include <QMessageBox>
#include <QModelIndex>
#include <QOpenGLWidget>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QStandardPaths>
#include <QStringList>
#include <QSvgGenerator>
#include <QTableView>
#include <QTreeView>

#include <functional>
#include <optional>
#include <utility>

namespace warpscope::viz {

namespace {

// Which rows and columns of a model a CSV holds, and whether it starts with the row headers.
struct CsvShape {
    std::function<bool(int column)> columnShown = [](int) { return true; };
    std::function<bool(int row, const QModelIndex& parent)> rowShown = [](int, const QModelIndex&) { return true; };
    bool rowHeaders = false;
};

bool isTree(const QAbstractItemModel& model)
{
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.hasChildren(model.index(r, 0)))
            return true;
    return false;
}

QString displayText(const QAbstractItemModel& model, const QModelIndex& index)
{
    return model.data(index, Qt::DisplayRole).toString();
}

// Rows of a table widget whose vertical header only numbers them add nothing to a CSV.
bool rowHeadersNameRows(const QAbstractItemModel& model)
{
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.headerData(r, Qt::Vertical, Qt::DisplayRole).toString() != QString::number(r + 1))
            return true;
    return false;
}

void appendLine(QString& csv, const QStringList& fields)
{
    csv += csvRecord(fields);
}

void appendRows(QString& csv, const QAbstractItemModel& model, const QModelIndex& parent, const QString& section,
                bool tree, const CsvShape& shape)
{
    for (int r = 0; r < model.rowCount(parent); ++r) {
        if (!shape.rowShown(r, parent))
            continue;
        QStringList fields;
        if (tree)
            fields.append(section);
        if (shape.rowHeaders)
            fields.append(model.headerData(r, Qt::Vertical, Qt::DisplayRole).toString());
        for (int c = 0; c < model.columnCount(parent); ++c)
            if (shape.columnShown(c))
                fields.append(displayText(model, model.index(r, c, parent)));
        appendLine(csv, fields);
        const QModelIndex first = model.index(r, 0, parent);
        if (tree && model.hasChildren(first)) {
            const QString name = displayText(model, first);
            appendRows(csv, model, first, section.isEmpty() ? name : section + QLatin1String(" / ") + name, tree, shape);
        }
    }
}

QString csvOf(const QAbstractItemModel& model, const CsvShape& shape)
{
    const bool tree = isTree(model);
    QStringList header;
    if (tree)
        header.append(QObject::tr("Section"));
    if (shape.rowHeaders)
        header.append(QString());
    for (int c = 0; c < model.columnCount(); ++c)
        if (shape.columnShown(c))
            header.append(model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
    QString csv;
    appendLine(csv, header);
    appendRows(csv, model, QModelIndex(), QString(), tree, shape);
    return csv;
}

// The part of `widget` that `figure` shows, in the figure's coordinates: empty when the widget or one
// of its parents up to the figure is hidden, clipped by every parent (a scroll area's viewport).
QRect shownRect(const QWidget& widget, const QWidget& figure)
{
    QRect shown(widget.mapTo(&figure, QPoint()), widget.size());
    for (const QWidget* w = &widget; w != &figure; w = w->parentWidget()) {
        if (w == nullptr || w->isHidden())
            return {};
        if (w != &widget)
            shown &= QRect(w->mapTo(&figure, QPoint()), w->size());
    }
    return shown & figure.rect();
}

void paintFigure(QCPPainter& painter, QWidget& figure, bool vectorized)
{
    if (auto* plot = qobject_cast<QCustomPlot*>(&figure)) {
        // QCustomPlot paints cached pixmaps on screen; toPainter draws its layers afresh, as vectors.
        if (vectorized) {
            painter.setMode(QCPPainter::pmVectorized);
            painter.setMode(QCPPainter::pmNoCaching);
        }
        plot->toPainter(&painter, figure.width(), figure.height());
        return;
    }
    figure.render(&painter, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
    // Plots inside a larger figure (a panel, the window) paint a cached pixmap: draw them again as vectors.
    for (QCustomPlot* plot : figure.findChildren<QCustomPlot*>()) {
        const QRect shown = shownRect(*plot, figure);
        if (shown.isEmpty())
            continue;
        painter.save();
        painter.setClipRect(shown);
        painter.translate(plot->mapTo(&figure, QPoint()));
        paintFigure(painter, *plot, vectorized);
        painter.restore();
    }
    // An OpenGL canvas draws into its own framebuffer, which render() need not reach: draw that on top.
    QList<QOpenGLWidget*> canvases = figure.findChildren<QOpenGLWidget*>();
    if (auto* self = qobject_cast<QOpenGLWidget*>(&figure))
        canvases.prepend(self);
    for (QOpenGLWidget* canvas : canvases) {
        if (!canvas->isVisible())
            continue;
        const QImage frame = canvas->grabFramebuffer();
        if (!frame.isNull())
            painter.drawImage(QRect(canvas->mapTo(&figure, QPoint()), canvas->size()), frame);
    }
}

QString lastFolder()
{
    static const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return documents.isEmpty() ? QDir::homePath() : documents;
}

QString& rememberedFolder()
{
    static QString folder = lastFolder();
    return folder;
}

} // namespace

QString csvField(const QString& text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')) &&
        !text.contains(QLatin1Char('\r')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString csvRecord(const QStringList& fields)
{
    QStringList quoted;
    quoted.reserve(fields.size());
    for (const QString& field : fields)
        quoted.append(csvField(field));
    return quoted.join(QLatin1Char(',')) + QLatin1String("\r\n"); // RFC 4180 ends records with CRLF
}

QString tableCsv(const QAbstractItemModel& model)
{
    return csvOf(model, CsvShape{});
}

QString tableCsv(const QAbstractItemView& view)
{
    const QAbstractItemModel* model = view.model();
    if (!model)
        return {};
    CsvShape shape;
    if (const auto* table = qobject_cast<const QTableView*>(&view)) {
        shape.columnShown = [table](int c) { return !table->isColumnHidden(c); };
        shape.rowShown = [table](int r, const QModelIndex&) { return !table->isRowHidden(r); };
        shape.rowHeaders = !table->verticalHeader()->isHidden() && rowHeadersNameRows(*model);
    } else if (const auto* tree = qobject_cast<const QTreeView*>(&view)) {
        shape.columnShown = [tree](int c) { return !tree->isColumnHidden(c); };
        shape.rowShown = [tree](int r, const QModelIndex& parent) { return !tree->isRowHidden(r, parent); };
    } else if (const auto* list = qobject_cast<const QListView*>(&view)) {
        shape.rowShown = [list](int r, const QModelIndex&) { return !list->isRowHidden(r); };
    }
    return csvOf(*model, shape);
}

std::optional<FigureFormat> figureFormatForPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return FigureFormat::Png;
    if (suffix == QLatin1String("svg"))
        return FigureFormat::Svg;
    if (suffix == QLatin1String("pdf"))
        return FigureFormat::Pdf;
    return std::nullopt;
}

QByteArray renderFigure(QWidget& figure, FigureFormat format, const QString& title)
{
    const QSize size = figure.size();
    if (size.isEmpty())
        return {};
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    // Vector outputs take the widget's own DPI, so point-sized fonts keep their size against its pixels.
    const int dpi = figure.logicalDpiX() > 0 ? figure.logicalDpiX() : 96;
    switch (format) {
    case FigureFormat::Png: {
        QImage image(size * kFigurePngScale, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(kFigurePngScale);
        image.fill(figure.palette().color(QPalette::Window));
        {
            QCPPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            paintFigure(painter, figure, false);
        }
        QImageWriter writer(&buffer, "png");
        if (!title.isEmpty())
            writer.setText(QStringLiteral("Title"), title);
        if (!writer.write(image))
            return {};
        break;
    }
    case FigureFormat::Svg: {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(), size));
        svg.setResolution(dpi);
        svg.setTitle(title);
        svg.setDescription(QStringLiteral("Warpscope figure"));
        QCPPainter painter(&svg);
        paintFigure(painter, figure, true);
        break;
    }
    case FigureFormat::Pdf: {
        QPdfWriter pdf(&buffer);
        pdf.setCreator(QStringLiteral("Warpscope"));
        pdf.setTitle(title);
        pdf.setResolution(dpi);
        pdf.setPageMargins(QMarginsF());
        pdf.setPageSize(QPageSize(QSizeF(size.width() * 72.0 / dpi, size.height() * 72.0 / dpi), QPageSize::Point,
                                  QString(), QPageSize::ExactMatch));
        QCPPainter painter(&pdf);
        paintFigure(painter, figure, true);
        break;
    }
    }
    buffer.close();
    return bytes;
}

std::optional<QString> writeFileAtomically(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    if (file.write(bytes) != bytes.size()) {
        const QString why = file.errorString();
        file.cancelWriting();
        return QStringLiteral("cannot write %1: %2").arg(path, why);
    }
    if (!file.commit())
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    return std::nullopt;
}

std::optional<QString> saveTableCsv(const QAbstractItemView& view, const QString& path)
{
    return writeFileAtomically(path, tableCsv(view).toUtf8());
}

std::optional<QString> saveFigure(QWidget& figure, const QString& path, const QString& title)
{
    const auto format = figureFormatForPath(path);
    if (!format)
        return QStringLiteral("cannot save %1: unknown figure format '.%2' (allowed: .png, .svg, .pdf)")
            .arg(path, QFileInfo(path).suffix());
    const QByteArray bytes = renderFigure(figure, *format, title);
    if (bytes.isEmpty())
        return QStringLiteral("cannot save %1: the figure has no area to draw").arg(path);
    return writeFileAtomically(path, bytes);
}

std::pair<QAction*, QAction*> installCsvExport(QWidget* widget, const CsvExportActions& names, std::function<QString()> csv)
{
    auto* save = new QAction(names.saveText, widget);
    save->setObjectName(names.saveName);
    QString title = names.saveText;
    title.remove(QChar(0x2026)); // the dialog's title: the action without its ellipsis
    QObject::connect(save, &QAction::triggered, widget, [widget, title, defaultName = names.defaultName, csv] {
        const QString path = QFileDialog::getSaveFileName(widget, title,
                                                          QDir(rememberedFolder()).filePath(defaultName + QLatin1String(".csv")),
                                                          QObject::tr("CSV table (*.csv)"));
        if (path.isEmpty())
            return;
        rememberedFolder() = QFileInfo(path).absolutePath();
        if (const auto error = writeFileAtomically(path, csv().toUtf8()))
            QMessageBox::warning(widget, title, *error);
    });
    auto* copy = new QAction(names.copyText, widget);
    copy->setObjectName(names.copyName);
    QObject::connect(copy, &QAction::triggered, widget, [csv] { QApplication::clipboard()->setText(csv()); });
    widget->addAction(save);
    widget->addAction(copy);
    widget->setContextMenuPolicy(Qt::ActionsContextMenu);
    return {save, copy};
}

void installTableExport(QAbstractItemView* view, const QString& defaultName)
{
    installCsvExport(view,
                     {QObject::tr("Save Table as CSV\u2026"), QObject::tr("Copy as CSV"), QStringLiteral("exportTableCsv"),
                      QStringLiteral("copyTableCsv"), defaultName},
                     [view] { return tableCsv(*view); });
}

void installFigureExport(QWidget* figure, const QString& defaultName)
{
    auto* save = new QAction(QObject::tr("Save Figure As\u2026"), figure);
    save->setObjectName(QStringLiteral("exportFigure"));
    QObject::connect(save, &QAction::triggered, figure, [figure, defaultName] {
        const QString png = QObject::tr("PNG image (*.png)"), svg = QObject::tr("SVG drawing (*.svg)"),
                      pdf = QObject::tr("PDF document (*.pdf)");
        QString filter = png;
        QString path = QFileDialog::getSaveFileName(figure, QObject::tr("Save Figure As"),
                                                    QDir(rememberedFolder()).filePath(defaultName + QLatin1String(".png")),
                                                    QStringList{png, svg, pdf}.join(QLatin1String(";;")), &filter);
        if (path.isEmpty())
            return;
        if (QFileInfo(path).suffix().isEmpty()) // the chosen filter names the format
            path += filter == svg ? QLatin1String(".svg") : filter == pdf ? QLatin1String(".pdf") : QLatin1String(".png");
        rememberedFolder() = QFileInfo(path).absolutePath();
        if (const auto error = saveFigure(*figure, path, defaultName))
            QMessageBox::warning(figure, QObject::tr("Save Figure As"), *error);
    });
    figure->addAction(save);
    figure->setContextMenuPolicy(Qt::ActionsContextMenu);
}

} // namespace warpscope::viz
