#include "execution/code_view.h"

#include <QAction>
#include <QCoreApplication>
#include <QEvent>
#include <QFont>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QKeySequence>
#include <QList>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QPalette>
#include <QPoint>
#include <QPointF>
#include <QPolygonF>
#include <QRect>
#include <QRectF>
#include <QRegularExpression>
#include <QRegularExpressionMatch>
#include <QRegularExpressionMatchIterator>
#include <QResizeEvent>
#include <QScrollBar>
#include <QSize>
#include <QStringList>
#include <QSyntaxHighlighter>
#include <QTextBlock>
#include <QTextCharFormat>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextEdit>
#include <QTextFormat>
#include <QTextOption>
#include <QToolTip>
#include <QWheelEvent>
#include <QtGlobal>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>
#include <vector>

namespace warpscope::viz {

namespace {

QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t), float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

// A whole-word alternation built from a space-separated list.
QRegularExpression words(const char* list)
{
    const QStringList split = QString::fromLatin1(list).split(u' ', Qt::SkipEmptyParts);
    return QRegularExpression(QStringLiteral("\\b(?:%1)\\b").arg(split.join(u'|')));
}

// VS Code's Light+/Dark+ hues: chosen by their designers for contrast on white and on #1e1e1e.
struct SyntaxFormats {
    QTextCharFormat keyword, type, cuda, builtin, number, string, comment, preprocessor;
    QTextCharFormat directive, opcode, registerName, label, predicate;
};

SyntaxFormats syntaxFormats(bool dark)
{
    const auto make = [dark](const char* light, const char* onDark, bool bold = false, bool italic = false) {
        QTextCharFormat format;
        format.setForeground(QColor(dark ? onDark : light));
        format.setFontWeight(bold ? QFont::Bold : QFont::Normal);
        format.setFontItalic(italic);
        return format;
    };
    return {make("#0000ff", "#569cd6"), make("#267f99", "#4ec9b0"), make("#af00db", "#c586c0", true),
            make("#795e26", "#dcdcaa"), make("#098658", "#b5cea8"), make("#a31515", "#ce9178"),
            make("#008000", "#6a9955", false, true), make("#7a3e9d", "#9b9b9b"), make("#af00db", "#c586c0"),
            make("#0000ff", "#569cd6", true), make("#001080", "#9cdcfe"), make("#b35900", "#e5a45a", true),
            make("#cd3131", "#f48771", true)};
}

// Later rules paint over earlier ones; strings and comments are scanned last and win.
struct SyntaxRule {
    QRegularExpression pattern;
    QTextCharFormat SyntaxFormats::*format;
    int group = 0;
};

const std::vector<SyntaxRule>& cudaRules()
{
    static const std::vector<SyntaxRule> rules{
        {words("alignas alignof asm auto break case catch class concept const consteval constexpr constinit "
               "const_cast continue co_await co_return co_yield decltype default delete do dynamic_cast else enum "
               "explicit export extern false for friend goto if inline mutable namespace new noexcept nullptr operator "
               "private protected public register reinterpret_cast requires return sizeof static static_assert "
               "static_cast struct switch template this thread_local throw true try typedef typeid typename union "
               "using virtual volatile while"), &SyntaxFormats::keyword},
        {words("bool char char8_t char16_t char32_t double float int long short signed unsigned void wchar_t size_t "
               "ptrdiff_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t uintptr_t dim3 half __half "
               "__half2 __nv_bfloat16 __nv_bfloat162 char2 char4 uchar2 uchar4 short2 int2 int3 int4 uint2 uint3 uint4 "
               "long2 ulong2 float2 float3 float4 double2 cudaError_t cudaStream_t"), &SyntaxFormats::type},
        {words("__global__ __device__ __host__ __shared__ __constant__ __managed__ __restrict__ __forceinline__ "
               "__noinline__ __launch_bounds__ __grid_constant__ __syncthreads __syncwarp __threadfence "
               "__threadfence_block __threadfence_system __shfl_sync __shfl_up_sync __shfl_down_sync __shfl_xor_sync "
               "__ballot_sync __any_sync __all_sync __activemask __ldg __popc __clz __ffs atomicAdd atomicSub "
               "atomicMax atomicMin atomicCAS atomicExch atomicAnd atomicOr atomicXor"), &SyntaxFormats::cuda},
        {words("threadIdx blockIdx blockDim gridDim warpSize"), &SyntaxFormats::builtin},
        {QRegularExpression(QStringLiteral(R"((?<![\w.])(?:0[xX][\da-fA-F']+|\d[\d']*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[uUlLfF]*)")),
         &SyntaxFormats::number},
        {QRegularExpression(QStringLiteral(R"(^\s*#.*)")), &SyntaxFormats::preprocessor},
    };
    return rules;
}

// PTX ISA, "Instruction Statements": [label:] [@{!}pred] opcode{.modifier} operands;
const std::vector<SyntaxRule>& ptxRules()
{
    static const std::vector<SyntaxRule> rules{
        {QRegularExpression(QStringLiteral(R"((?<![\w$.])\.[A-Za-z_]\w*)")), &SyntaxFormats::directive},
        {QRegularExpression(QStringLiteral(R"((?:^|[;{:])\s*(?:@!?%\w+\s+)?([A-Za-z_][\w.]*))")), &SyntaxFormats::opcode, 1},
        {QRegularExpression(QStringLiteral(R"((?<![\w$%.])-?(?:0[xXfFdD][\da-fA-F]+|\d+(?:\.\d+)?)U?\b)")), &SyntaxFormats::number},
        {QRegularExpression(QStringLiteral(R"(%\w+(?:\.[xyzw])?)")), &SyntaxFormats::registerName},
        {QRegularExpression(QStringLiteral(R"(%(?:tid|ntid|ctaid|nctaid|laneid|warpid|nwarpid|smid|nsmid|gridid|)"
                                           R"(lanemask_\w\w|clock|clock64|globaltimer|\w*smem_size|\w*cluster\w*)\b(?:\.[xyzw])?)")),
         &SyntaxFormats::builtin},
        {QRegularExpression(QStringLiteral(R"(^\s*[A-Za-z_$][\w$]*:|\$[\w$]+)")), &SyntaxFormats::label},
        {QRegularExpression(QStringLiteral(R"(@!?%\w+)")), &SyntaxFormats::predicate},
    };
    return rules;
}

} // namespace

// One highlighter for both languages: they differ only in their rules.
class CodeHighlighter : public QSyntaxHighlighter {
public:
    CodeHighlighter(const std::vector<SyntaxRule>& rules, QTextDocument* document)
        : QSyntaxHighlighter(document), m_rules(rules) {}
    void setDark(bool dark)
    {
        m_formats = syntaxFormats(dark);
        rehighlight();
    }

protected:
    void highlightBlock(const QString& text) override
    {
        for (const SyntaxRule& rule : m_rules)
            for (auto it = rule.pattern.globalMatch(text); it.hasNext();) {
                const QRegularExpressionMatch match = it.next();
                setFormat(int(match.capturedStart(rule.group)), int(match.capturedLength(rule.group)), m_formats.*rule.format);
            }
        // One left-to-right pass so that "//" inside a string, or a quote inside a comment, is not misread.
        static const QRegularExpression lexical(QStringLiteral(R"("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|//.*|/\*)"));
        const int n = int(text.size());
        int i = 0;
        setCurrentBlockState(0);
        if (previousBlockState() == InBlockComment)
            i = blockComment(text, 0, 0);
        while (i < n) {
            const QRegularExpressionMatch match = lexical.match(text, i);
            if (!match.hasMatch())
                break;
            const int start = int(match.capturedStart());
            if (match.captured().startsWith(QLatin1String("/*"))) {
                i = blockComment(text, start, 2);
                continue;
            }
            const bool comment = match.captured().startsWith(QLatin1String("//"));
            setFormat(start, int(match.capturedLength()), comment ? m_formats.comment : m_formats.string);
            i = int(match.capturedEnd());
        }
    }

private:
    static constexpr int InBlockComment = 1;
    // Formats a /* comment from `start`; returns where scanning resumes.
    int blockComment(const QString& text, int start, int openLength)
    {
        const int end = int(text.indexOf(QLatin1String("*/"), start + openLength));
        const int stop = end < 0 ? int(text.size()) : end + 2;
        setFormat(start, stop - start, m_formats.comment);
        if (end < 0)
            setCurrentBlockState(InBlockComment);
        return stop;
    }

    const std::vector<SyntaxRule>& m_rules;
    SyntaxFormats m_formats = syntaxFormats(false);
};

namespace {

QColor currentLineTint(const QPalette& palette, bool dark)
{
    QColor tint = palette.color(QPalette::Highlight);
    tint.setAlpha(dark ? 70 : 45); // low enough that selections and syntax colours still show through
    return tint;
}

QColor markerColor(bool error, bool dark)
{
    if (error)
        return dark ? QColor(241, 76, 76) : QColor(211, 47, 47);
    return dark ? QColor(204, 167, 0) : QColor(191, 120, 0);
}

bool isCompileKey(const QKeyEvent* event)
{
    return (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) && (event->modifiers() & Qt::ControlModifier);
}

} // namespace

// The classic Qt code-editor gutter: a plain child that the view paints and answers for.
class CodeGutter : public QWidget {
public:
    explicit CodeGutter(CodeView* view) : QWidget(view), m_view(view) {}
    QSize sizeHint() const override { return {width(), 0}; }

protected:
    void paintEvent(QPaintEvent* event) override { m_view->paintGutter(event); }
    void wheelEvent(QWheelEvent* event) override { QCoreApplication::sendEvent(m_view->viewport(), event); }
    void mousePressEvent(QMouseEvent* event) override
    {
        if (const int line = m_view->lineAtY(event->position().toPoint().y()); line > 0 && event->button() == Qt::LeftButton)
            emit m_view->lineClicked(line);
    }
    bool event(QEvent* event) override
    {
        if (event->type() != QEvent::ToolTip)
            return QWidget::event(event);
        const auto* help = static_cast<QHelpEvent*>(event);
        if (const int line = m_view->lineAtY(help->pos().y()); line > 0)
            QToolTip::showText(help->globalPos(), m_view->gutterToolTip(line), this);
        else
            QToolTip::hideText();
        return true;
    }

private:
    CodeView* m_view;
};

CodeGutterLayout codeGutterLayout(int lineCount, int digitAdvance)
{
    int digits = 1;
    for (int n = std::max(1, lineCount); n >= 10; n /= 10)
        ++digits;
    CodeGutterLayout layout;
    layout.markerX = 1;
    layout.numberX = layout.markerX + layout.markerWidth + 2;
    layout.numberWidth = std::max(2, digits) * digitAdvance;
    layout.heatX = layout.numberX + layout.numberWidth + 4;
    layout.width = layout.heatX + layout.heatWidth + 3;
    return layout;
}

QColor codeHeatColor(double value, bool darkPalette)
{
    const double t = std::isnan(value) ? 0.0 : std::clamp(value, 0.0, 1.0);
    // Material orange 400/600 to red 400/700: saturated enough to stand out on white and on near-black.
    QColor color = darkPalette ? mix(QColor(255, 167, 38), QColor(239, 83, 80), t) : mix(QColor(251, 140, 0), QColor(211, 47, 47), t);
    color.setAlphaF(float(t));
    return color;
}

CodeView::CodeView(Language language, QWidget* parent) : QPlainTextEdit(parent), m_gutter(new CodeGutter(this))
{
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setWordWrapMode(QTextOption::NoWrap);
    m_highlighter = new CodeHighlighter(language == Language::Cuda ? cudaRules() : ptxRules(), document());
    m_gutter->setAccessibleName(tr("Line numbers, heat and diagnostics"));
    connect(this, &QPlainTextEdit::blockCountChanged, this, &CodeView::updateGutterWidth);
    connect(this, &QPlainTextEdit::updateRequest, this, &CodeView::updateGutterArea);
    setEditable(false);
    applyTabStops();
    applyPalette();
    updateGutterWidth();
    if (language == Language::Cuda) {
        // The key itself reaches keyPressEvent (event() claims it before the panel's shortcuts); the
        // action names it for Help > Keyboard Shortcuts and compiles when triggered from there.
        auto* compile = new QAction(tr("Compile the playground with NVRTC"), this);
        compile->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
        compile->setShortcutContext(Qt::WidgetShortcut);
        connect(compile, &QAction::triggered, this, [this] {
            if (!isReadOnly())
                emit compileRequested();
        });
        addAction(compile);
    }
}

void CodeView::setCode(const QString& text)
{
    m_heat.clear();
    m_markers.clear();
    setPlainText(text);
    setCurrentLine(m_currentLine); // drops it when the new text is shorter
}

void CodeView::setCurrentLine(int line)
{
    m_currentLine = line > 0 && line <= blockCount() ? line : 0;
    refreshExtraSelections();
    m_gutter->update();
    if (m_currentLine == 0)
        return;
    const QRectF geometry = blockBoundingGeometry(document()->findBlockByNumber(m_currentLine - 1)).translated(contentOffset());
    if (geometry.top() >= 0 && geometry.bottom() <= viewport()->height())
        return;
    // Without wrapping each block is one layout line, and the scroll bar counts layout lines.
    const int visibleLines = viewport()->height() / std::max(1, fontMetrics().lineSpacing());
    verticalScrollBar()->setValue(m_currentLine - 1 - visibleLines / 2);
}

void CodeView::setHeat(std::map<int, LineHeat> heat)
{
    m_heat = std::move(heat);
    m_gutter->update();
}

void CodeView::setMarkers(std::vector<Marker> markers)
{
    m_markers = std::move(markers);
    refreshExtraSelections();
    m_gutter->update();
}

void CodeView::setEditable(bool editable)
{
    setReadOnly(!editable);
    // A read-only listing keeps a keyboard caret so screen readers and arrow keys can walk it.
    if (!editable)
        setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
}

bool CodeView::event(QEvent* event)
{
    // While editable, Ctrl+Enter compiles, and the ends of the document are the editor's, not the
    // stepper's window-wide Ctrl+Home / Ctrl+End.
    if (event->type() == QEvent::ShortcutOverride && !isReadOnly()) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (isCompileKey(key) || key->matches(QKeySequence::MoveToStartOfDocument) ||
            key->matches(QKeySequence::MoveToEndOfDocument) || key->matches(QKeySequence::SelectStartOfDocument) ||
            key->matches(QKeySequence::SelectEndOfDocument)) {
            event->accept();
            return true;
        }
    }
    return QPlainTextEdit::event(event);
}

bool CodeView::viewportEvent(QEvent* event)
{
    if (event->type() != QEvent::ToolTip)
        return QPlainTextEdit::viewportEvent(event);
    const auto* help = static_cast<QHelpEvent*>(event);
    const QStringList rows = markerRows(lineAtY(help->pos().y()), cursorForPosition(help->pos()).positionInBlock() + 1);
    if (rows.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), rows.join(QStringLiteral("<br>")), viewport());
    return true;
}

void CodeView::changeEvent(QEvent* event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
    } else if (event->type() == QEvent::FontChange) {
        applyTabStops();
        updateGutterWidth();
    }
}

void CodeView::resizeEvent(QResizeEvent* event)
{
    QPlainTextEdit::resizeEvent(event);
    const QRect contents = contentsRect();
    m_gutter->setGeometry(QRect(contents.left(), contents.top(), m_gutter->width(), contents.height()));
}

void CodeView::keyPressEvent(QKeyEvent* event)
{
    if (!isReadOnly() && isCompileKey(event)) {
        event->accept();
        emit compileRequested();
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

void CodeView::mousePressEvent(QMouseEvent* event)
{
    QPlainTextEdit::mousePressEvent(event);
    if (const int line = lineAtY(event->position().toPoint().y()); line > 0 && event->button() == Qt::LeftButton)
        emit lineClicked(line);
}

void CodeView::updateGutterWidth()
{
    const int width = codeGutterLayout(blockCount(), digitAdvance()).width;
    setViewportMargins(width, 0, 0, 0);
    const QRect contents = contentsRect();
    m_gutter->setGeometry(QRect(contents.left(), contents.top(), width, contents.height()));
    m_gutter->update();
}

void CodeView::updateGutterArea(const QRect& rect, int dy)
{
    if (dy != 0)
        m_gutter->scroll(0, dy);
    else
        m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
}

void CodeView::refreshExtraSelections()
{
    QList<QTextEdit::ExtraSelection> selections;
    if (const QTextBlock block = document()->findBlockByNumber(m_currentLine - 1); m_currentLine > 0 && block.isValid()) {
        QTextEdit::ExtraSelection current;
        current.format.setBackground(currentLineTint(palette(), m_dark));
        current.format.setProperty(QTextFormat::FullWidthSelection, true);
        current.cursor = QTextCursor(block);
        selections << current;
    }
    for (const Marker& marker : m_markers) {
        const QTextBlock block = document()->findBlockByNumber(marker.line - 1);
        const int length = block.isValid() ? block.length() - 1 : 0; // length() counts the separator
        if (length <= 0)
            continue; // an empty line still gets its gutter icon
        QTextEdit::ExtraSelection underline;
        underline.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        underline.format.setUnderlineColor(markerColor(marker.error, m_dark));
        underline.cursor = QTextCursor(block);
        underline.cursor.setPosition(block.position() + std::clamp(marker.column - 1, 0, length - 1));
        underline.cursor.setPosition(block.position() + length, QTextCursor::KeepAnchor);
        selections << underline;
    }
    setExtraSelections(selections);
}

void CodeView::applyPalette()
{
    m_dark = palette().color(QPalette::Base).lightness() < 128;
    m_highlighter->setDark(m_dark);
    refreshExtraSelections();
    m_gutter->update();
}

void CodeView::applyTabStops() { setTabStopDistance(QFontMetricsF(font()).horizontalAdvance(u' ') * 4); }

int CodeView::lineAtY(int y) const
{
    QTextBlock block = firstVisibleBlock();
    qreal top = blockBoundingGeometry(block).translated(contentOffset()).top();
    for (; block.isValid() && top <= y; block = block.next()) {
        const qreal bottom = top + blockBoundingRect(block).height();
        if (y < bottom && block.isVisible())
            return block.blockNumber() + 1;
        top = bottom;
    }
    return 0;
}

int CodeView::digitAdvance() const
{
    QFont bold = font(); // the current line's number is bold, and bold digits may be wider
    bold.setBold(true);
    return std::max(QFontMetrics(font()).horizontalAdvance(u'9'), QFontMetrics(bold).horizontalAdvance(u'9'));
}

QStringList CodeView::markerRows(int line, int column) const
{
    QStringList rows;
    for (const Marker& marker : m_markers)
        if (line > 0 && marker.line == line && column >= marker.column)
            rows << QStringLiteral("<b>%1</b> %2").arg(marker.error ? tr("Error:") : tr("Warning:"), marker.message.toHtmlEscaped());
    return rows;
}

QString CodeView::gutterToolTip(int line) const
{
    QStringList rows{QStringLiteral("<b>%1</b>").arg(tr("Line %1").arg(line))};
    if (const auto heat = m_heat.find(line); heat != m_heat.end()) {
        const QString label = m_heatLabel.isEmpty() ? tr("Heat") : m_heatLabel;
        const QString text = heat->second.tooltip.isEmpty() ? tr("%1% of the hottest line").arg(qRound(heat->second.value * 100))
                                                            : heat->second.tooltip;
        rows << QStringLiteral("<i>%1:</i> %2").arg(label.toHtmlEscaped(), text.toHtmlEscaped());
    }
    return (rows + markerRows(line, std::numeric_limits<int>::max())).join(QStringLiteral("<br>"));
}

void CodeView::paintGutter(QPaintEvent* event)
{
    QPainter painter(m_gutter);
    painter.setRenderHint(QPainter::Antialiasing);
    const QColor base = palette().color(QPalette::Base);
    const QColor text = palette().color(QPalette::Text);
    painter.fillRect(event->rect(), mix(base, text, 0.05));
    const CodeGutterLayout layout = codeGutterLayout(blockCount(), digitAdvance());
    std::map<int, bool> markerIsError; // one icon per line; an error outranks a warning
    for (const Marker& marker : m_markers)
        markerIsError[marker.line] = markerIsError[marker.line] || marker.error;
    QFont bold = font();
    bold.setBold(true);

    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    for (; block.isValid() && top <= event->rect().bottom(); block = block.next()) {
        const int height = qRound(blockBoundingRect(block).height());
        const int line = block.blockNumber() + 1;
        if (block.isVisible() && top + height >= event->rect().top()) {
            const bool current = line == m_currentLine;
            if (current)
                painter.fillRect(QRect(0, top, m_gutter->width(), height), currentLineTint(palette(), m_dark));
            if (const auto heat = m_heat.find(line); heat != m_heat.end())
                painter.fillRect(QRect(layout.heatX, top, layout.heatWidth, height), codeHeatColor(heat->second.value, m_dark));
            if (const auto marker = markerIsError.find(line); marker != markerIsError.end()) {
                const double r = std::min(8.0, height - 2.0) / 2;
                const QPointF c(layout.markerX + layout.markerWidth / 2.0, top + height / 2.0);
                painter.setPen(Qt::NoPen);
                painter.setBrush(markerColor(marker->second, m_dark));
                if (marker->second) // shape as well as colour, for colour-blind readers
                    painter.drawEllipse(c, r, r);
                else
                    painter.drawPolygon(QPolygonF{{c.x(), c.y() - r}, {c.x() + r, c.y() + r}, {c.x() - r, c.y() + r}});
            }
            painter.setFont(current ? bold : font());
            painter.setPen(current ? text : mix(text, base, 0.5));
            painter.drawText(QRect(layout.numberX, top, layout.numberWidth, height), Qt::AlignRight | Qt::AlignVCenter,
                             QString::number(line));
        }
        top += height;
    }
}

} // namespace warpscope::viz
