#include "formats/format_explorer_panel.h"

#include "common/export_actions.h"
#include "common/validated_field.h"
#include "common/wrap_anywhere_delegate.h"
#include "formats/format_bit_toggles.h"
#include "formats/format_decimal.h"
#include "formats/format_explainer.h"
#include "formats/format_range_bar.h"
#include "util/input_error.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QTextDocument>
#include <QTextLayout>
#include <QTextOption>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <string>
#include <optional>

namespace warpscope::viz {

using numerics::Format;
using numerics::FormatInfo;

namespace {

enum Column { FormatColumn, StoredColumn, BitsColumn, ErrorColumn, RelativeColumn, OutcomeColumn, ColumnCount };

QString fromStd(std::string_view text) { return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())); }

QString shortName(Format format)
{
    const std::string_view name = numerics::formatInfo(format).name;
    return fromStd(name.substr(0, name.find(" (")));
}

bool darkTheme(const QPalette& palette) { return palette.color(QPalette::Window).lightness() < 128; }

QColor outcomeColor(StoreOutcome outcome, const QPalette& palette)
{
    const bool dark = darkTheme(palette);
    switch (outcome) {
    case StoreOutcome::Exact: return dark ? QColor(0x7c, 0xd0, 0x80) : QColor(0x2e, 0x7d, 0x32);
    case StoreOutcome::RoundedSubnormal:
    case StoreOutcome::FlushedToZero: return dark ? QColor(0xff, 0xb7, 0x4d) : QColor(0xb2, 0x5b, 0x00);
    case StoreOutcome::OverflowInfinity:
    case StoreOutcome::OverflowNaN:
    case StoreOutcome::NaNToZero: return dark ? QColor(0xff, 0x80, 0x80) : QColor(0xc6, 0x28, 0x28);
    case StoreOutcome::Saturated: return dark ? QColor(0xd0, 0xa0, 0xe0) : QColor(0x6a, 0x1b, 0x9a);
    default: return palette.color(QPalette::Text);
    }
}

QColor classColor(numerics::ValueClass kind, const QPalette& palette)
{
    const bool dark = darkTheme(palette);
    switch (kind) {
    case numerics::ValueClass::Normal: return dark ? QColor(0x7c, 0xd0, 0x80) : QColor(0x2e, 0x7d, 0x32);
    case numerics::ValueClass::Subnormal: return dark ? QColor(0xff, 0xb7, 0x4d) : QColor(0xb2, 0x5b, 0x00);
    case numerics::ValueClass::Infinity:
    case numerics::ValueClass::NaN: return dark ? QColor(0xff, 0x80, 0x80) : QColor(0xc6, 0x28, 0x28);
    case numerics::ValueClass::Integer: return dark ? QColor(0xd0, 0xa0, 0xe0) : QColor(0x6a, 0x1b, 0x9a);
    case numerics::ValueClass::Zero: break;
    }
    return palette.color(QPalette::Text);
}

// "+2.44e-5", "0", "inf", "—": a signed error, three significant digits.
QString errorText(double error)
{
    if (std::isnan(error))
        return QStringLiteral("—");
    if (std::isinf(error))
        return error > 0 ? QStringLiteral("+∞") : QStringLiteral("−∞");
    if (error == 0)
        return QStringLiteral("0");
    const QString text = fromStd(shortDecimal(std::abs(error), 3));
    return (error > 0 ? QStringLiteral("+") : QStringLiteral("−")) + text;
}

QString relativeText(double relative)
{
    if (std::isnan(relative))
        return QStringLiteral("—");
    if (std::isinf(relative))
        return QStringLiteral("∞");
    return relative == 0 ? QStringLiteral("0") : fromStd(shortDecimal(relative, 3));
}

QString plainText(const QString& html)
{
    QTextDocument document;
    document.setHtml(html);
    return document.toPlainText();
}

QLabel* sectionTitle(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    QFont font = label->font();
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() + 1.5);
    label->setFont(font);
    return label;
}

QString formatSummary(Format format)
{
    const FormatInfo& info = numerics::formatInfo(format);
    if (!info.isFloat)
        return QStringLiteral("%1 bits, whole numbers %2..%3 · %4")
            .arg(info.bits).arg(info.intMin).arg(info.intMax).arg(fromStd(info.source));
    QString text = QStringLiteral("1 sign, %1 exponent, %2 mantissa bits · bias %3")
                       .arg(info.exponentBits).arg(info.mantissaBits).arg(info.bias);
    if (info.storageShift > 0)
        text += QStringLiteral(" · held in the top %1 bits of an FP32 word (the low %2 are ignored)")
                    .arg(info.bits).arg(info.storageShift);
    if (!info.hasInfinity)
        text += QStringLiteral(" · no infinity");
    return text;
}

} // namespace

FormatExplorerPanel::FormatExplorerPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("FormatExplorerPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(10);
    layout->addWidget(buildComparison());
    auto* line = new QFrame(this);
    line->setFrameShape(QFrame::HLine);
    line->setFrameShadow(QFrame::Sunken);
    layout->addWidget(line);
    layout->addWidget(buildExplorer());
    layout->addStretch(1);

    m_valueField->setText(QStringLiteral("0.1"));
    m_exploredValue = m_comparedValue;
    m_bits = numerics::encode(m_format, m_exploredValue, overflow());
    refreshComparison();
    refreshExplorer();
}

numerics::Overflow FormatExplorerPanel::overflow() const
{
    return m_saturate ? numerics::Overflow::Saturate : numerics::Overflow::Ieee;
}

QWidget* FormatExplorerPanel::buildComparison()
{
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    layout->addWidget(sectionTitle(tr("One value in every format"), box));

    auto* row = new QHBoxLayout;
    auto* caption = new QLabel(tr("V&alue"), box);
    // Checked as typed (the message in the row under it), applied on Enter, on leaving the field or
    // after a pause, as every typed value in the app.
    m_valueField = new ValidatedField(QStringLiteral("comparedValue"), {}, box);
    m_valueField->setRealParser([](const QString& text) {
        std::string error;
        const auto value = parseTypedValue(text.toStdString(), &error);
        if (!value)
            throw InputError(error);
        return *value;
    });
    m_valueField->setShowsMessage(false);
    m_valueField->lineEdit()->setPlaceholderText(tr("a decimal: 0.1, 1e-8, 70000, 3.14159"));
    m_valueField->setToolTip(tr("Any decimal (also inf, -inf, nan). It is read as the nearest double (FP64), "
                                "then rounded to each format, ties to even. Enter applies it."));
    m_valueField->lineEdit()->setToolTip(m_valueField->toolTip());
    m_valueField->setMinimumWidth(120);
    m_valueField->setMaximumWidth(260);
    caption->setBuddy(m_valueField->lineEdit());
    m_saturateBox = new QCheckBox(tr("&Saturate on overflow (__NV_SATFINITE)"), box);
    m_saturateBox->setObjectName(QStringLiteral("saturate"));
    m_saturateBox->setToolTip(tr("Off: overflow as PyTorch's casts do (FP16, BF16, TF32, E5M2 to inf; E4M3, which has "
                                 "no infinity, to NaN). On: clamp to the largest finite value, as CUDA's "
                                 "__NV_SATFINITE conversions do. Integers always clamp."));
    row->addWidget(caption);
    row->addWidget(m_valueField);
    row->addSpacing(12);
    row->addWidget(m_saturateBox);
    row->addStretch(1);
    layout->addLayout(row);
    m_overflowNote = new QLabel(box);
    m_overflowNote->setWordWrap(true);
    layout->addWidget(m_overflowNote);

    m_inputError = new QLabel(box);
    m_inputError->setWordWrap(true);
    m_inputError->hide();
    layout->addWidget(m_inputError);

    m_table = new QTableWidget(static_cast<int>(numerics::allFormats().size()), ColumnCount, box);
    m_table->setObjectName(QStringLiteral("formatComparison"));
    installTableExport(m_table, QStringLiteral("format-comparison"));
    m_table->setHorizontalHeaderLabels({tr("Format"), tr("Stored value"), tr("Bits"), tr("Error"), tr("Rel. error"),
                                        tr("What happened")});
    m_table->horizontalHeaderItem(StoredColumn)->setToolTip(tr("The typed value rounded to the format (hover a value for its exact decimal)"));
    m_table->horizontalHeaderItem(BitsColumn)->setToolTip(tr("The stored pattern in hex"));
    m_table->horizontalHeaderItem(ErrorColumn)->setToolTip(tr("stored − typed value"));
    m_table->horizontalHeaderItem(RelativeColumn)->setToolTip(tr("|stored − typed| / |typed|"));
    m_table->horizontalHeaderItem(OutcomeColumn)->setToolTip(tr("What storing did to the value: exact, rounded, overflow, underflow…"));
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // In a narrow dock the long stored values and outcomes break into lines (fitTableHeight): the
    // table never scrolls sideways and no text is cut.
    m_table->setWordWrap(true);
    m_table->setTextElideMode(Qt::ElideNone);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed); // sized by fitTableHeight
    m_table->setItemDelegateForColumn(StoredColumn, new WrapAnywhereDelegate(m_table));
    m_table->horizontalHeader()->setSectionResizeMode(OutcomeColumn, QHeaderView::Stretch);
    m_table->setToolTip(tr("Click a row to look inside that format below."));
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (int r = 0; r < m_table->rowCount(); ++r) {
        const FormatInfo& info = numerics::allFormats()[static_cast<std::size_t>(r)];
        for (int c = 0; c < ColumnCount; ++c) {
            auto* item = new QTableWidgetItem;
            if (c == StoredColumn || c == BitsColumn || c == ErrorColumn || c == RelativeColumn)
                item->setFont(fixed);
            m_table->setItem(r, c, item);
        }
        QTableWidgetItem* name = m_table->item(r, FormatColumn);
        name->setText(shortName(info.format));
        name->setToolTip(fromStd(info.name) + QStringLiteral("\n") + fromStd(info.source));
        QFont nameFont = name->font();
        nameFont.setBold(info.isFloat); // the float formats are the comparison learners come for
        name->setFont(nameFont);
    }
    layout->addWidget(m_table);
    m_table->installEventFilter(this); // its height follows its width (a horizontal scroll bar when narrow)

    m_tableNote = new QLabel(tr("Error: stored minus typed value (the typed value read as a double, FP64). Integer "
                                "formats hold whole numbers: quantizers scale values first. Click a row to look inside."),
                             box);
    m_tableNote->setWordWrap(true);
    QFont noteFont = m_tableNote->font();
    noteFont.setPointSizeF(noteFont.pointSizeF() - 0.5);
    m_tableNote->setFont(noteFont);
    layout->addWidget(m_tableNote);

    connect(m_valueField, &ValidatedField::textChecked, this, [this] { setInputError(m_valueField->errorText()); });
    connect(m_valueField, &ValidatedField::realValueEdited, this, &FormatExplorerPanel::applyTypedValue);
    connect(m_saturateBox, &QCheckBox::toggled, this, &FormatExplorerPanel::setSaturate);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, [this] {
        const auto rows = m_table->selectionModel()->selectedRows();
        if (rows.isEmpty())
            return;
        const Format format = numerics::allFormats()[static_cast<std::size_t>(rows.front().row())].format;
        if (format == m_format)
            return;
        // The row's own stored value: the typed one, in that format.
        m_exploredValue = m_comparedValue;
        m_exploredIsTyped = true;
        setFormat(format);
    });
    return box;
}

QWidget* FormatExplorerPanel::buildExplorer()
{
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);

    auto* titleRow = new QHBoxLayout;
    titleRow->addWidget(sectionTitle(tr("Inside one format"), box));
    titleRow->addSpacing(12);
    auto* formatCaption = new QLabel(tr("Fo&rmat"), box);
    m_formatCombo = new QComboBox(box);
    m_formatCombo->setObjectName(QStringLiteral("formatChoice"));
    for (const FormatInfo& info : numerics::allFormats())
        m_formatCombo->addItem(fromStd(info.name), QString(fromStd(info.key)));
    formatCaption->setBuddy(m_formatCombo);
    // Full names when there is room, shortened in a narrow dock (an explicit minimum below the
    // content width lets the layout shrink it).
    m_formatCombo->setMinimumWidth(120);
    titleRow->addWidget(formatCaption);
    titleRow->addWidget(m_formatCombo);
    titleRow->addStretch(1);
    layout->addLayout(titleRow);
    m_formatInfo = new QLabel(box);
    m_formatInfo->setWordWrap(true);
    layout->addWidget(m_formatInfo);

    m_bitPattern = new BitPatternWidget(box);
    m_bitPattern->setObjectName(QStringLiteral("bitPattern"));
    layout->addWidget(m_bitPattern);

    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(10);
    grid->setVerticalSpacing(6);
    grid->setColumnStretch(1, 1);
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    auto rowCaption = [&](const QString& text, int row) {
        auto* label = new QLabel(text, box);
        // One-line rows centre their caption; rows that wrap keep it on their first line.
        label->setAlignment(Qt::AlignLeft | (row <= 1 ? Qt::AlignVCenter : Qt::AlignTop));
        grid->addWidget(label, row, 0);
        return label;
    };

    QLabel* bitsCaption = rowCaption(tr("B&its"), 0);
    auto* bitsRow = new QHBoxLayout;
    m_hexEdit = new QLineEdit(box);
    m_hexEdit->setObjectName(QStringLiteral("hexPattern"));
    m_hexEdit->setFont(fixed);
    m_hexEdit->setMaximumWidth(130);
    m_hexEdit->setToolTip(tr("The pattern in hex; type one and press Enter to set it"));
    bitsCaption->setBuddy(m_hexEdit);
    m_fieldsLabel = new QLabel(box);
    m_fieldsLabel->setFont(fixed);
    m_fieldsLabel->setWordWrap(true); // FP32's 34 characters wrap at the field spaces in a narrow dock
    m_fieldsLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    bitsRow->addWidget(m_hexEdit);
    bitsRow->addSpacing(8);
    bitsRow->addWidget(m_fieldsLabel, 1);
    grid->addLayout(bitsRow, 0, 1);

    rowCaption(tr("Value"), 1);
    auto* valueRow = new QHBoxLayout;
    m_valueLabel = new QLabel(box);
    m_valueLabel->setObjectName(QStringLiteral("decodedValue"));
    QFont valueFont = m_valueLabel->font();
    valueFont.setBold(true);
    valueFont.setPointSizeF(valueFont.pointSizeF() + 2);
    m_valueLabel->setFont(valueFont);
    m_valueLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_classLabel = new QLabel(box);
    m_classLabel->setObjectName(QStringLiteral("valueClass"));
    valueRow->addWidget(m_valueLabel);
    valueRow->addSpacing(10);
    valueRow->addWidget(m_classLabel);
    valueRow->addStretch(1);
    grid->addLayout(valueRow, 1, 1);

    rowCaption(tr("Reading"), 2);
    m_formulaLabel = new QLabel(box);
    m_formulaLabel->setObjectName(QStringLiteral("formula"));
    m_formulaLabel->setWordWrap(true);
    m_formulaLabel->setTextFormat(Qt::RichText);
    m_formulaLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    grid->addWidget(m_formulaLabel, 2, 1);

    rowCaption(tr("Neighbours"), 3);
    auto* neighbours = new QGridLayout;
    neighbours->setHorizontalSpacing(8);
    m_downButton = new QPushButton(tr("◀ Step &down"), box);
    m_upButton = new QPushButton(tr("Step &up ▶"), box);
    m_downButton->setObjectName(QStringLiteral("stepDown"));
    m_upButton->setObjectName(QStringLiteral("stepUp"));
    m_downButton->setToolTip(tr("Go to the next value down: one ULP toward −infinity"));
    m_upButton->setToolTip(tr("Go to the next value up: one ULP toward +infinity"));
    m_downLabel = new QLabel(box);
    m_upLabel = new QLabel(box);
    for (QLabel* label : {m_downLabel, m_upLabel}) {
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        label->setWordWrap(true);
    }
    neighbours->addWidget(m_downButton, 0, 0);
    neighbours->addWidget(m_downLabel, 0, 1);
    neighbours->addWidget(m_upButton, 1, 0);
    neighbours->addWidget(m_upLabel, 1, 1);
    neighbours->setColumnStretch(1, 1);
    grid->addLayout(neighbours, 3, 1);

    rowCaption(tr("Spacing"), 4);
    m_ulpLabel = new QLabel(box);
    m_ulpLabel->setWordWrap(true);
    m_ulpLabel->setTextFormat(Qt::RichText);
    grid->addWidget(m_ulpLabel, 4, 1);
    layout->addLayout(grid);

    auto* compare = new QPushButton(tr("&Compare this value in every format"), box);
    compare->setObjectName(QStringLiteral("compareThisValue"));
    compare->setToolTip(tr("Put this exact value into the comparison above"));
    auto* compareRow = new QHBoxLayout;
    compareRow->addWidget(compare);
    compareRow->addStretch(1);
    layout->addLayout(compareRow);

    m_rangeCaption = new QLabel(box);
    m_rangeCaption->setWordWrap(true);
    layout->addSpacing(4);
    layout->addWidget(m_rangeCaption);
    m_rangeBar = new FormatRangeBar(box);
    m_rangeBar->setObjectName(QStringLiteral("rangeBar"));
    installFigureExport(m_rangeBar, QStringLiteral("format-range"));
    layout->addWidget(m_rangeBar);

    connect(m_formatCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            setFormat(numerics::allFormats()[static_cast<std::size_t>(index)].format);
    });
    connect(m_bitPattern, &BitPatternWidget::bitsChanged, this, &FormatExplorerPanel::setBits);
    connect(m_hexEdit, &QLineEdit::returnPressed, this, &FormatExplorerPanel::applyHexText);
    connect(m_downButton, &QPushButton::clicked, this, &FormatExplorerPanel::stepDown);
    connect(m_upButton, &QPushButton::clicked, this, &FormatExplorerPanel::stepUp);
    connect(compare, &QPushButton::clicked, this, [this] {
        const double value = numerics::decode(m_format, m_bits);
        setComparedText(QString::fromStdString(exactDecimal(value)));
    });
    return box;
}

void FormatExplorerPanel::setFormat(Format format)
{
    // Keep the explored value (typed, or decoded from the bits) and store it in the new format.
    if (format != m_format) {
        m_format = format;
        m_bitPattern->setFormat(format);
    }
    m_bits = numerics::encode(format, m_exploredValue, overflow());
    refreshExplorer();
}

void FormatExplorerPanel::setBits(std::uint32_t bits)
{
    const FormatInfo& info = numerics::formatInfo(m_format);
    const int width = patternWidth(m_format);
    const std::uint32_t mask = (width >= 32 ? 0xFFFFFFFFu : ((1u << width) - 1)) << info.storageShift;
    m_bits = bits & mask;
    m_exploredValue = numerics::decode(m_format, m_bits);
    m_exploredIsTyped = false;
    refreshExplorer();
}

bool FormatExplorerPanel::stepUp()
{
    const auto next = numerics::nextUp(m_format, m_bits);
    if (next)
        setBits(*next);
    return next.has_value();
}

bool FormatExplorerPanel::stepDown()
{
    const auto next = numerics::nextDown(m_format, m_bits);
    if (next)
        setBits(*next);
    return next.has_value();
}

bool FormatExplorerPanel::setComparedText(const QString& text)
{
    m_valueField->setText(text); // checks it: the message, if any, is shown through textChecked
    const std::optional<double> value = m_valueField->realValue();
    if (!value)
        return false;
    compareValue(*value);
    return true;
}

void FormatExplorerPanel::compareValue(double value)
{
    m_comparedValue = value;
    m_exploredValue = value;
    m_exploredIsTyped = true;
    refreshComparison();
    setFormat(m_format);
}

void FormatExplorerPanel::applyTypedValue(double value)
{
    // The same value typed again ("0.10" for 0.1) keeps a pattern set bit by bit in the explorer.
    if (value == m_comparedValue && std::signbit(value) == std::signbit(m_comparedValue))
        return;
    compareValue(value);
}

void FormatExplorerPanel::setSaturate(bool saturate)
{
    if (m_saturateBox->isChecked() != saturate) {
        const QSignalBlocker blocker(m_saturateBox);
        m_saturateBox->setChecked(saturate);
    }
    m_saturate = saturate;
    refreshComparison();
    // A pattern stored from the typed value follows the mode; one set bit by bit stays as it is.
    if (m_exploredIsTyped)
        setFormat(m_format);
    else
        refreshExplorer();
}

void FormatExplorerPanel::setInputError(const QString& message)
{
    m_inputError->setText(message);
    m_inputError->setVisible(!message.isEmpty());
    const QColor color = darkTheme(palette()) ? QColor(0xff, 0x80, 0x80) : QColor(0xc6, 0x28, 0x28);
    m_inputError->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(color.name()));
}

void FormatExplorerPanel::applyHexText()
{
    QString text = m_hexEdit->text().trimmed();
    if (text.startsWith(QLatin1String("0x"), Qt::CaseInsensitive))
        text = text.mid(2);
    bool ok = false;
    const qulonglong pattern = text.toULongLong(&ok, 16);
    const FormatInfo& info = numerics::formatInfo(m_format);
    const int width = info.storageShift > 0 ? 32 : info.bits;
    if (!ok || text.isEmpty() || pattern >= (1ULL << width)) {
        m_hexEdit->setToolTip(tr("'%1' is not a %2-bit pattern in hex (for example %3)")
                                  .arg(m_hexEdit->text()).arg(width).arg(fromStd(numerics::hexBits(m_format, m_bits))));
        m_hexEdit->setStyleSheet(QStringLiteral("QLineEdit { border: 1px solid #c62828; }"));
        return;
    }
    m_hexEdit->setStyleSheet(QString());
    m_hexEdit->setToolTip(tr("The pattern in hex; type one and press Enter to set it"));
    setBits(static_cast<std::uint32_t>(pattern));
}

void FormatExplorerPanel::refreshComparison()
{
    m_comparison = storeInEveryFormat(m_comparedValue, overflow());
    const QPalette& pal = palette();
    for (int r = 0; r < static_cast<int>(m_comparison.size()); ++r) {
        const StoredValue& row = m_comparison[static_cast<std::size_t>(r)];
        QTableWidgetItem* storedItem = m_table->item(r, StoredColumn);
        storedItem->setText(fromStd(compactDecimal(row.stored, 30)));
        storedItem->setToolTip(tr("Exactly %1").arg(fromStd(exactDecimal(row.stored))));
        QTableWidgetItem* bitsItem = m_table->item(r, BitsColumn);
        bitsItem->setText(fromStd(numerics::hexBits(row.format, row.bits)));
        bitsItem->setToolTip(numerics::formatInfo(row.format).isFloat
                                 ? tr("sign exponent mantissa: %1").arg(fromStd(numerics::fieldBits(row.format, row.bits)))
                                 : fromStd(numerics::fieldBits(row.format, row.bits)));
        m_table->item(r, ErrorColumn)->setText(errorText(row.error));
        m_table->item(r, ErrorColumn)->setToolTip(tr("stored − typed = %1").arg(fromStd(shortDecimal(row.error, 17))));
        m_table->item(r, RelativeColumn)->setText(relativeText(row.relativeError));
        QTableWidgetItem* outcome = m_table->item(r, OutcomeColumn);
        outcome->setText(fromStd(outcomeText(row)));
        outcome->setToolTip(fromStd(outcomeExplanation(row)));
        outcome->setForeground(outcomeColor(row.outcome, pal));
    }
    m_overflowNote->setText(m_saturate
                                ? tr("Overflow clamps to the largest finite value, as CUDA's __NV_SATFINITE conversions do.")
                                : tr("Overflow as PyTorch's casts: FP16, BF16, TF32 and E5M2 to inf; E4M3, which has no "
                                     "infinity, to NaN. Integers always clamp."));
    fitTableHeight();
}

void FormatExplorerPanel::fitTableHeight()
{
    // The columns share the table's width: format, bits and errors at their contents; the stored
    // value whole when it fits, else in lines (the exact decimal wraps anywhere); the outcome the
    // rest, at least its longest word. Then every row at its lines' height, and the table as tall as
    // its rows: no inner scrolling (the table is the figure).
    QHeaderView* header = m_table->horizontalHeader();
    const int available = m_table->width() - 2 * m_table->frameWidth();
    auto contents = [&](int column, const QFontMetrics& metrics, bool byWord) {
        int widest = header->sectionSizeHint(column);
        for (int r = 0; r < m_table->rowCount(); ++r) {
            const QString text = m_table->item(r, column)->text();
            if (!byWord) {
                widest = std::max(widest, metrics.horizontalAdvance(text) + 12);
                continue;
            }
            for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts))
                widest = std::max(widest, metrics.horizontalAdvance(word) + 12);
        }
        return widest;
    };
    const QFontMetrics fixed(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    QFont bold = m_table->font();
    bold.setBold(true); // the floating-point formats' names
    header->resizeSection(FormatColumn, contents(FormatColumn, QFontMetrics(bold), false));
    for (int c : {BitsColumn, ErrorColumn, RelativeColumn})
        header->resizeSection(c, contents(c, fixed, false));
    int others = 0;
    for (int c : {FormatColumn, BitsColumn, ErrorColumn, RelativeColumn})
        others += header->sectionSize(c);
    const int storedWhole = contents(StoredColumn, fixed, false);
    const int outcomeWord = contents(OutcomeColumn, m_table->fontMetrics(), true);
    const int storedLeast = std::max(header->sectionSizeHint(StoredColumn), fixed.horizontalAdvance(QLatin1Char('0')) * 10 + 12);
    header->resizeSection(StoredColumn, std::clamp(available - others - outcomeWord, std::min(storedLeast, storedWhole), storedWhole));
    // Each row as tall as its most wrapped cell, laid out as its delegate lays out text (the stored
    // value breaks anywhere, the rest at spaces), in a little less than the cell's width to be safe.
    for (int r = 0; r < m_table->rowCount(); ++r) {
        qreal tallest = m_table->fontMetrics().height();
        for (int c = 0; c < ColumnCount; ++c) {
            const QTableWidgetItem* item = m_table->item(r, c);
            QTextLayout layout(item->text(), item->font());
            QTextOption option;
            option.setWrapMode(c == StoredColumn ? QTextOption::WrapAnywhere : QTextOption::WrapAtWordBoundaryOrAnywhere);
            layout.setTextOption(option);
            layout.beginLayout();
            qreal lines = 0;
            for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
                line.setLineWidth(std::max(8, header->sectionSize(c) - 10));
                lines += line.height();
            }
            layout.endLayout();
            tallest = std::max(tallest, lines);
        }
        m_table->setRowHeight(r, static_cast<int>(std::ceil(tallest)) + 6);
    }
    int height = header->height() + 2 * m_table->frameWidth();
    for (int r = 0; r < m_table->rowCount(); ++r)
        height += m_table->rowHeight(r);
    if (m_table->height() != height)
        m_table->setFixedHeight(height);
}

bool FormatExplorerPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_table && event->type() == QEvent::Resize)
        fitTableHeight();
    return QWidget::eventFilter(watched, event);
}

void FormatExplorerPanel::selectTableRow()
{
    const int row = static_cast<int>(m_format);
    const QSignalBlocker blocker(m_table);
    m_table->selectRow(row);
}

void FormatExplorerPanel::refreshExplorer()
{
    const FormatInfo& info = numerics::formatInfo(m_format);
    {
        const QSignalBlocker blocker(m_formatCombo);
        m_formatCombo->setCurrentIndex(static_cast<int>(m_format));
    }
    selectTableRow();
    m_formatInfo->setText(formatSummary(m_format));
    m_bitPattern->setBits(m_bits);

    const double value = numerics::decode(m_format, m_bits);
    m_hexEdit->setText(fromStd(numerics::hexBits(m_format, m_bits)));
    m_hexEdit->setStyleSheet(QString());
    m_fieldsLabel->setText(fromStd(numerics::fieldBits(m_format, m_bits)));
    m_valueLabel->setText(displayedValue(value));
    m_valueLabel->setToolTip(tr("Exactly %1").arg(fromStd(exactDecimal(value))));
    const numerics::ValueClass kind = numerics::classify(m_format, m_bits);
    const QColor kindColor = classColor(kind, palette());
    m_classLabel->setText(fromStd(numerics::valueClassName(kind)));
    m_classLabel->setStyleSheet(QStringLiteral("QLabel { color: %1; border: 1px solid %1; border-radius: 3px; padding: 1px 6px; }")
                                    .arg(kindColor.name()));
    m_formulaLabel->setText(formulaHtml(m_format, m_bits));

    const auto up = numerics::nextUp(m_format, m_bits);
    const auto down = numerics::nextDown(m_format, m_bits);
    auto neighbour = [&](const std::optional<std::uint32_t>& bits, bool isUp) {
        if (!bits) {
            if (std::isnan(value))
                return tr("none: NaN has no neighbours");
            if (std::isinf(value))
                return isUp == (value > 0) ? tr("none past infinity") : QString();
            return isUp ? tr("none: the largest finite value (beyond it: %1)")
                              .arg(m_saturate || !info.isFloat ? tr("saturation") : info.hasInfinity ? tr("overflow to inf") : tr("overflow to NaN"))
                        : tr("none: the lowest finite value");
        }
        return QStringLiteral("%1&nbsp;&nbsp;&nbsp;<span style='font-family:monospace'>%2</span>")
            .arg(displayedValue(numerics::decode(m_format, *bits)).toHtmlEscaped(), fromStd(numerics::hexBits(m_format, *bits)));
    };
    m_downLabel->setText(neighbour(down, false));
    m_upLabel->setText(neighbour(up, true));
    m_downButton->setEnabled(down.has_value());
    m_upButton->setEnabled(up.has_value());
    m_ulpLabel->setText(ulpHtml(m_format, m_bits));

    m_rangeBar->setFormat(m_format, overflow());
    m_rangeBar->setValue(value);
    m_rangeCaption->setText(tr("Range of |value| in %1, log scale (▲ the value above; hover for the exact thresholds)")
                                .arg(shortName(m_format)));
}

void FormatExplorerPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && m_rangeBar != nullptr) {
        refreshComparison();
        refreshExplorer();
    }
}

QString FormatExplorerPanel::hexText() const { return m_hexEdit->text(); }
QString FormatExplorerPanel::valueText() const { return m_valueLabel->text(); }
QString FormatExplorerPanel::classText() const { return m_classLabel->text(); }
QString FormatExplorerPanel::formulaText() const { return plainText(m_formulaLabel->text()); }
QString FormatExplorerPanel::neighbourText(bool up) const
{
    return plainText((up ? m_upLabel : m_downLabel)->text()).simplified();
}
QString FormatExplorerPanel::ulpText() const { return plainText(m_ulpLabel->text()); }
QLineEdit* FormatExplorerPanel::valueEdit() const { return m_valueField->lineEdit(); }

QString FormatExplorerPanel::inputErrorText() const { return m_inputError->isHidden() ? QString() : m_inputError->text(); }

} // namespace warpscope::viz
