// The number-format explorer: one typed value stored in every format at once (FP32, TF32, FP16,
// BF16, FP8 E4M3/E5M2, INT8, UINT8, INT4: value kept, bits, error, what happened), and inside one
// format: a toggle per bit, the hex pattern, the decoded value with its class and formula, its
// neighbours one ULP away and the format's range on a log scale. Every number is computed by
// core/numerics (number_format.h).
#pragma once

#include "numerics/number_format.h"
#include "formats/format_comparison.h"

#include <QString>
#include <QWidget>

#include <cstdint>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace warpscope::viz {

class BitPatternWidget;
class FormatRangeBar;
class ValidatedField;

class FormatExplorerPanel : public QWidget {
    Q_OBJECT
public:
    // Starts with 0.1 compared and FP16 explored.
    explicit FormatExplorerPanel(QWidget* parent = nullptr);

    // --- inside one format
    void setFormat(numerics::Format format); // the explored value re-encoded in the new format
    numerics::Format format() const { return m_format; }
    void setBits(std::uint32_t bits);        // as numerics::encode gives them; bits past the format are dropped
    std::uint32_t bits() const { return m_bits; }
    bool stepUp();                           // to numerics::nextUp; false when there is none
    bool stepDown();

    // --- one value in every format
    // Shows the text in the value field, compares its value at once and explores its encoding in the
    // current format; false (nothing changes, the message is shown) when it is not a number. Text
    // typed in the field is checked as typed but applied only on Enter, on leaving the field or after
    // a pause (ValidatedField), so typing 1e-8 never compares 1 or fails on 1e- on the way.
    bool setComparedText(const QString& text);
    double comparedValue() const { return m_comparedValue; }
    void setSaturate(bool saturate);         // overflow as CUDA's __NV_SATFINITE instead of PyTorch's inf/NaN
    bool saturate() const { return m_saturate; }
    numerics::Overflow overflow() const;
    const std::vector<StoredValue>& comparison() const { return m_comparison; }

    // What the panel shows, as plain text (for tests); neighbourText: "1.0009765625 0x3C01".
    QString hexText() const;
    QString valueText() const;
    QString classText() const;
    QString formulaText() const;
    QString neighbourText(bool up) const;
    QString ulpText() const;
    QString inputErrorText() const;

    QTableWidget* comparisonTable() const { return m_table; }
    BitPatternWidget* bitPattern() const { return m_bitPattern; }
    FormatRangeBar* rangeBar() const { return m_rangeBar; }
    QLineEdit* valueEdit() const;
    ValidatedField* valueField() const { return m_valueField; }

protected:
    void changeEvent(QEvent* event) override; // restyle on a light/dark palette switch
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* buildComparison();
    QWidget* buildExplorer();
    void applyTypedValue(double value); // a typed value, confirmed (Enter, leaving the field, a pause)
    void compareValue(double value);
    void refreshComparison();
    void fitTableHeight();
    void refreshExplorer();
    void selectTableRow();
    void setInputError(const QString& message);
    void applyHexText();

    numerics::Format m_format = numerics::Format::FP16;
    std::uint32_t m_bits = 0;
    double m_exploredValue = 0;  // what a change of format re-encodes: typed or decoded
    bool m_exploredIsTyped = true; // the explored pattern is the typed value's: overflow mode changes it
    double m_comparedValue = 0.1;
    bool m_saturate = false;
    std::vector<StoredValue> m_comparison;

    ValidatedField* m_valueField = nullptr;
    QCheckBox* m_saturateBox = nullptr;
    QLabel* m_overflowNote = nullptr;
    QLabel* m_inputError = nullptr;
    QTableWidget* m_table = nullptr;
    QLabel* m_tableNote = nullptr;

    QComboBox* m_formatCombo = nullptr;
    QLabel* m_formatInfo = nullptr;
    BitPatternWidget* m_bitPattern = nullptr;
    QLineEdit* m_hexEdit = nullptr;
    QLabel* m_fieldsLabel = nullptr;
    QLabel* m_valueLabel = nullptr;
    QLabel* m_classLabel = nullptr;
    QLabel* m_formulaLabel = nullptr;
    QLabel* m_downLabel = nullptr;
    QLabel* m_upLabel = nullptr;
    QPushButton* m_downButton = nullptr;
    QPushButton* m_upButton = nullptr;
    QLabel* m_ulpLabel = nullptr;
    FormatRangeBar* m_rangeBar = nullptr;
    QLabel* m_rangeCaption = nullptr;
};

} // namespace warpscope::viz
