// The number-format explorer, offscreen: bit toggles (mouse and keyboard) change the value as
// computed here by hand, the neighbours are one ULP away, the comparison table stores 0.1, 1e-8 and
// 70000 in every format with the bits worked out below, a typed value is checked as typed and applied
// only on Enter or a pause (never a prefix on the way), saturation clamps what PyTorch's casts send
// to inf or NaN, the range bar's landmarks are the format's own, and links and `warpscope
// screenshot --view formats` set the panel up (a bad link gives one clear message).
#include "gui_test_support.h"
#include "links/view_link.h"
#include "numerics/number_format.h"
#include "formats/format_bit_toggles.h"
#include "formats/format_comparison.h"
#include "formats/format_decimal.h"
#include "formats/format_explorer_panel.h"
#include "formats/format_range_bar.h"
#include "common/validated_field.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QDockWidget>
#include <QHeaderView>
#include <QImage>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QSet>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <cmath>

using namespace warpscope;
using numerics::Format;
using viz::FormatExplorerPanel;

namespace {

// The table's row for a format and the text of a column, found by the header's label.
QString cell(const FormatExplorerPanel& panel, Format format, const QString& column)
{
    QTableWidget* table = panel.comparisonTable();
    for (int c = 0; c < table->columnCount(); ++c)
        if (table->horizontalHeaderItem(c)->text() == column)
            return table->item(static_cast<int>(format), c)->text();
    return QStringLiteral("<no column %1>").arg(column);
}

const viz::StoredValue& stored(const FormatExplorerPanel& panel, Format format)
{
    return panel.comparison().at(static_cast<std::size_t>(format));
}

int distinctColours(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y) & 0xF0F0F0);
    return static_cast<int>(colours.size());
}

using warpscope::gui_test::saveShot;

struct ShownPanel {
    ShownPanel()
    {
        panel.resize(900, 1000);
        panel.show();
    }
    FormatExplorerPanel panel;
};

} // namespace

class FormatsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    void togglingBitsChangesTheValue()
    {
        ShownPanel shown;
        FormatExplorerPanel& panel = shown.panel;
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.setFormat(Format::FP16);
        // FP16 0x3C00 = 0 01111 0000000000: exponent 15 - bias 15 = 0, mantissa 1.0 -> 1.
        panel.setBits(0x3C00);
        QCOMPARE(panel.hexText(), QStringLiteral("0x3C00"));
        QCOMPARE(panel.valueText(), QStringLiteral("1"));
        QCOMPARE(panel.classText(), QStringLiteral("normal"));
        viz::BitPatternWidget* bits = panel.bitPattern();
        QCOMPARE(bits->toggleCount(), 16);
        QCOMPARE(viz::bitFieldOf(Format::FP16, 15), viz::BitField::Sign);
        QCOMPARE(viz::bitFieldOf(Format::FP16, 10), viz::BitField::Exponent);
        QCOMPARE(viz::bitFieldOf(Format::FP16, 9), viz::BitField::Mantissa);
        QVERIFY(bits->toggle(10)->isChecked() && !bits->toggle(9)->isChecked());

        // The lowest mantissa bit weighs 2^-10: 1 + 2^-10 = 1.0009765625 exactly.
        QTest::mouseClick(bits->toggle(0), Qt::LeftButton);
        QCOMPARE(panel.bits(), 0x3C01u);
        QCOMPARE(panel.hexText(), QStringLiteral("0x3C01"));
        QCOMPARE(panel.valueText(), QStringLiteral("1.0009765625"));
        QCOMPARE(numerics::decode(Format::FP16, panel.bits()), 1.0 + std::ldexp(1.0, -10));
        QVERIFY2(panel.formulaText().contains(QStringLiteral("1 + 1/1024")), qPrintable(panel.formulaText()));
        QVERIFY(panel.formulaText().contains(QStringLiteral("minus the bias 15 = 0")));

        // The sign bit: -1.0009765625.
        QTest::mouseClick(bits->toggle(15), Qt::LeftButton);
        QCOMPARE(panel.bits(), 0xBC01u);
        QCOMPARE(panel.valueText(), QStringLiteral("-1.0009765625"));

        // Keyboard: Space flips the focused bit; Left moves to the more significant neighbour.
        bits->focusBit(0);
        QVERIFY(bits->toggle(0)->hasFocus());
        QTest::keyClick(bits->toggle(0), Qt::Key_Space);
        QCOMPARE(panel.bits(), 0xBC00u);
        QTest::keyClick(bits->toggle(0), Qt::Key_Left);
        QVERIFY(bits->toggle(1)->hasFocus());
        QTest::keyClick(bits->toggle(1), Qt::Key_Space);
        QCOMPARE(panel.bits(), 0xBC02u); // -(1 + 2/1024)
        QCOMPARE(panel.valueText(), QStringLiteral("-1.001953125"));
        QTest::keyClick(bits->toggle(1), Qt::Key_Home);
        QVERIFY(bits->toggle(15)->hasFocus());

        // The smallest subnormal, 0x0001 = 2^-24 = 5.9604644775390625e-8 (exact: 17 digits).
        panel.setBits(0x0001);
        QCOMPARE(panel.valueText(), QStringLiteral("5.9604644775390625e-8"));
        QCOMPARE(panel.classText(), QStringLiteral("subnormal"));
        QVERIFY(panel.formulaText().contains(QStringLiteral("no implicit 1")));
        panel.setBits(0x7C00);
        QCOMPARE(panel.classText(), QStringLiteral("infinity"));
        panel.setBits(0x8000);
        QCOMPARE(panel.valueText(), QStringLiteral("-0"));
        QCOMPARE(panel.classText(), QStringLiteral("zero"));

        // E4M3: 0x7E = 0 1111 110: 2^(15 - 7) x 1.75 = 448, its largest value; 0x7F is its only NaN.
        panel.setFormat(Format::FP8E4M3);
        QCOMPARE(panel.bitPattern()->toggleCount(), 8);
        panel.setBits(0x7E);
        QCOMPARE(panel.valueText(), QStringLiteral("448"));
        QCOMPARE(panel.classText(), QStringLiteral("normal"));
        QVERIFY(panel.formulaText().contains(QStringLiteral("× 1.75 = 448")));
        QTest::mouseClick(panel.bitPattern()->toggle(0), Qt::LeftButton);
        QCOMPARE(panel.bits(), 0x7Fu);
        QCOMPARE(panel.valueText(), QStringLiteral("NaN"));
        QCOMPARE(panel.classText(), QStringLiteral("NaN"));
        QVERIFY(panel.formulaText().contains(QStringLiteral("only NaN")));

        // TF32: 19 toggles, numbered as the top bits of the FP32 word; bit 13 is its lowest mantissa bit.
        panel.setFormat(Format::TF32);
        panel.setBits(0x3F800000);
        QCOMPARE(panel.bitPattern()->toggleCount(), 19);
        QTest::mouseClick(panel.bitPattern()->toggle(0), Qt::LeftButton);
        QCOMPARE(panel.bits(), 0x3F802000u);
        QCOMPARE(panel.valueText(), QStringLiteral("1.0009765625"));

        // INT8 two's complement: 0x81 = -128 + 1.
        panel.setFormat(Format::INT8);
        panel.setBits(0x81);
        QCOMPARE(panel.valueText(), QStringLiteral("-127"));
        QVERIFY2(panel.formulaText().contains(QStringLiteral("−128 + 1 = −127")), qPrintable(panel.formulaText()));
        saveShot(panel, QStringLiteral("formats-int8"));
    }

    void neighboursAreOneUlpAway()
    {
        ShownPanel shown;
        FormatExplorerPanel& panel = shown.panel;
        panel.setFormat(Format::FP16);
        panel.setBits(0x3C00);
        // Above 1 the step is 2^-10; below it 2^-11 (the exponent drops by one).
        QCOMPARE(panel.neighbourText(true), QStringLiteral("1.0009765625 0x3C01"));
        QCOMPARE(panel.neighbourText(false), QStringLiteral("0.99951171875 0x3BFF"));
        QVERIFY2(panel.ulpText().contains(QStringLiteral("0.0009765625")) && panel.ulpText().contains(QStringLiteral("0.00048828125")),
                 qPrintable(panel.ulpText()));
        auto* up = panel.findChild<QPushButton*>(QStringLiteral("stepUp"));
        auto* down = panel.findChild<QPushButton*>(QStringLiteral("stepDown"));
        QVERIFY(up && down);
        QTest::mouseClick(up, Qt::LeftButton);
        QCOMPARE(panel.bits(), 0x3C01u);
        QTest::mouseClick(down, Qt::LeftButton);
        QTest::mouseClick(down, Qt::LeftButton);
        QCOMPARE(panel.bits(), 0x3BFFu);
        // The largest finite value has no neighbour above.
        panel.setBits(0x7BFF);
        QVERIFY(!up->isEnabled());
        QVERIFY(!panel.stepUp());
        QVERIFY(panel.neighbourText(true).contains(QStringLiteral("largest finite")));
        QVERIFY(panel.stepDown());
        QCOMPARE(panel.bits(), 0x7BFEu);
        // Across zero: +0 -> the smallest subnormal, 2^-24.
        panel.setBits(0x0000);
        QVERIFY(panel.stepUp());
        QCOMPARE(panel.bits(), 0x0001u);
    }

    void comparisonTableStoresPointOneInEveryFormat()
    {
        ShownPanel shown;
        FormatExplorerPanel& panel = shown.panel;
        QVERIFY(panel.setComparedText(QStringLiteral("0.1")));
        // By hand: 0.1 = 1.6 x 2^-4.
        // FP16: exponent -4 + 15 = 11 = 01011; mantissa 0.6 x 2^10 = 614.4 -> 614 = 10 0110 0110;
        //   0 01011 1001100110 = 0x2E66 = 1638 x 2^-14 = 0.0999755859375.
        // BF16: exponent -4 + 127 = 123 = 01111011; mantissa 0.6 x 2^7 = 76.8 -> 77 = 1001101;
        //   0 01111011 1001101 = 0x3DCD = 205 x 2^-11 = 0.10009765625.
        // FP32: the well-known 0x3DCCCCCD = 13421773 x 2^-27 = 0.100000001490116119384765625.
        // TF32: FP32's exponent, FP16's 10 mantissa bits (614): 0x3DCCC000 = 0.0999755859375.
        // E4M3: 1.6 x 8 = 12.8 -> 13 = 1.625 x 2^-4: exponent 3 = 0011, mantissa 101: 0x1D = 0.1015625.
        // E5M2: 1.6 x 4 = 6.4 -> 6 = 1.5 x 2^-4: exponent 11 = 01011, mantissa 10: 0x2E = 0.09375.
        QCOMPARE(cell(panel, Format::FP16, QStringLiteral("Bits")), QStringLiteral("0x2E66"));
        QCOMPARE(cell(panel, Format::FP16, QStringLiteral("Stored value")), QStringLiteral("0.0999755859375"));
        QCOMPARE(cell(panel, Format::BF16, QStringLiteral("Bits")), QStringLiteral("0x3DCD"));
        QCOMPARE(cell(panel, Format::BF16, QStringLiteral("Stored value")), QStringLiteral("0.10009765625"));
        QCOMPARE(cell(panel, Format::FP32, QStringLiteral("Bits")), QStringLiteral("0x3DCCCCCD"));
        QCOMPARE(cell(panel, Format::FP32, QStringLiteral("Stored value")), QStringLiteral("0.100000001490116119384765625"));
        QCOMPARE(cell(panel, Format::TF32, QStringLiteral("Bits")), QStringLiteral("0x3DCCC000"));
        QCOMPARE(cell(panel, Format::FP8E4M3, QStringLiteral("Bits")), QStringLiteral("0x1D"));
        QCOMPARE(cell(panel, Format::FP8E4M3, QStringLiteral("Stored value")), QStringLiteral("0.1015625"));
        QCOMPARE(cell(panel, Format::FP8E5M2, QStringLiteral("Bits")), QStringLiteral("0x2E"));
        QCOMPARE(cell(panel, Format::FP8E5M2, QStringLiteral("Stored value")), QStringLiteral("0.09375"));
        QCOMPARE(cell(panel, Format::INT8, QStringLiteral("Stored value")), QStringLiteral("0"));
        // Errors: FP16 0.0999755859375 - 0.1 = -2.44140625e-5 (the double 0.1 differs from 1/10 by
        // 5.6e-18, far below the digits shown); relative 2.44e-4.
        QCOMPARE(cell(panel, Format::FP16, QStringLiteral("Error")), QStringLiteral("−2.44e-5"));
        QCOMPARE(cell(panel, Format::FP16, QStringLiteral("Rel. error")), QStringLiteral("2.44e-4"));
        QCOMPARE(cell(panel, Format::BF16, QStringLiteral("Error")), QStringLiteral("+9.77e-5"));
        QCOMPARE(cell(panel, Format::FP16, QStringLiteral("What happened")), QStringLiteral("rounded"));
        QVERIFY(std::abs(stored(panel, Format::FP16).error - (0.0999755859375 - 0.1)) == 0.0);
        // The explorer shows the typed value's FP16 pattern.
        QCOMPARE(panel.format(), Format::FP16);
        QCOMPARE(panel.bits(), 0x2E66u);
        // Clicking the BF16 row looks inside BF16.
        QTableWidget* table = panel.comparisonTable();
        const QRect bf16Row = table->visualItemRect(table->item(static_cast<int>(Format::BF16), 0));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, bf16Row.center());
        QCOMPARE(panel.format(), Format::BF16);
        QCOMPARE(panel.bits(), 0x3DCDu);
        QCOMPARE(panel.valueText(), QStringLiteral("0.10009765625"));
        saveShot(panel, QStringLiteral("formats-point-one"));

        // 1e-8 is below half FP16's smallest subnormal (2^-25 = 2.98e-8): flushed to zero; BF16
        // keeps FP32's range and rounds it as a normal number.
        QVERIFY(panel.setComparedText(QStringLiteral("1e-8")));
        QCOMPARE(stored(panel, Format::FP16).outcome, viz::StoreOutcome::FlushedToZero);
        QCOMPARE(cell(panel, Format::FP16, QStringLiteral("What happened")), QStringLiteral("underflow: flushed to 0"));
        QCOMPARE(cell(panel, Format::FP16, QStringLiteral("Rel. error")), QStringLiteral("1"));
        QCOMPARE(stored(panel, Format::BF16).outcome, viz::StoreOutcome::Rounded);
        QCOMPARE(stored(panel, Format::FP8E5M2).outcome, viz::StoreOutcome::FlushedToZero);
        // 1e-6 lands in FP16's subnormals: 1e-6 / 2^-24 = 16.78 -> 17 x 2^-24.
        QVERIFY(panel.setComparedText(QStringLiteral("1e-6")));
        QCOMPARE(stored(panel, Format::FP16).outcome, viz::StoreOutcome::RoundedSubnormal);
        QCOMPARE(stored(panel, Format::FP16).bits, 0x0011u);
        // Exact values are exact.
        QVERIFY(panel.setComparedText(QStringLiteral("-2.5")));
        QCOMPARE(cell(panel, Format::FP8E5M2, QStringLiteral("What happened")), QStringLiteral("exact"));
        QCOMPARE(cell(panel, Format::FP8E5M2, QStringLiteral("Error")), QStringLiteral("0"));
        QCOMPARE(cell(panel, Format::INT8, QStringLiteral("Stored value")), QStringLiteral("-2")); // ties to even

        // Not a number: a message, and the table keeps its value.
        QVERIFY(!panel.setComparedText(QStringLiteral("abc")));
        QVERIFY2(panel.inputErrorText().contains(QStringLiteral("'abc' is not a number")), qPrintable(panel.inputErrorText()));
        QCOMPARE(panel.comparedValue(), -2.5);
        QVERIFY(!panel.setComparedText(QStringLiteral("1e999")));
        QVERIFY2(panel.inputErrorText().startsWith(QStringLiteral("Value: 1e999 is out of range (allowed: a decimal such as 0.1")),
                 qPrintable(panel.inputErrorText()));
        QCOMPARE(panel.comparedValue(), -2.5);
        QVERIFY(panel.setComparedText(QStringLiteral("3.14159")));
        QVERIFY(panel.inputErrorText().isEmpty());
    }

    void typingAValueUpdatesTheTable()
    {
        ShownPanel shown;
        FormatExplorerPanel& panel = shown.panel;
        QLineEdit* edit = panel.valueEdit();
        edit->setFocus();
        edit->selectAll();
        QTest::keyClicks(edit, QStringLiteral("65504"));
        QCOMPARE(panel.comparedValue(), 0.1); // typed, not applied yet
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(panel.comparedValue(), 65504.0);
        QCOMPARE(cell(panel, Format::FP16, QStringLiteral("Bits")), QStringLiteral("0x7BFF"));
        // Half-typed text is marked as typed, in the shared wording; Enter on it applies nothing.
        edit->selectAll();
        QTest::keyClicks(edit, QStringLiteral("1e-"));
        QVERIFY2(panel.inputErrorText().startsWith(QStringLiteral("Value: '1e-' is not a number (allowed: a decimal such as 0.1")),
                 qPrintable(panel.inputErrorText()));
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(panel.comparedValue(), 65504.0);
        QVERIFY(!panel.inputErrorText().isEmpty());
        // A pause in typing applies a good value without Enter.
        QTest::keyClicks(edit, QStringLiteral("3"));
        QVERIFY(panel.inputErrorText().isEmpty());
        QCOMPARE(panel.comparedValue(), 65504.0);
        QTRY_COMPARE_WITH_TIMEOUT(panel.comparedValue(), 1e-3, 3 * viz::ValidatedField::kApplyPauseMs);
        // 1e-3 in FP32: 0x3A83126F (Python: struct.pack('<f', 1e-3)).
        QCOMPARE(cell(panel, Format::FP32, QStringLiteral("Bits")), QStringLiteral("0x3A83126F"));
        // The explorer's value goes back into the comparison with one button.
        panel.setFormat(Format::FP8E4M3);
        panel.setBits(0x7E);
        QTest::mouseClick(panel.findChild<QPushButton*>(QStringLiteral("compareThisValue")), Qt::LeftButton);
        QCOMPARE(edit->text(), QStringLiteral("448"));
        QCOMPARE(panel.comparedValue(), 448.0);
    }

    void typingNeverAppliesAPrefix()
    {
        // Typing 1e-8 at a steady pace (each key well inside the pause) passes through "1", a number,
        // and "1e" and "1e-", which are not: the table keeps 0.1 all the way, and Enter applies 1e-8.
        ShownPanel shown;
        FormatExplorerPanel& panel = shown.panel;
        QLineEdit* edit = panel.valueEdit();
        // 0.1 and 1e-8 in FP32 (Python: struct.pack('<f', x)).
        const QString before = QStringLiteral("0x3DCCCCCD");
        QCOMPARE(cell(panel, Format::FP32, QStringLiteral("Bits")), before);
        edit->setFocus();
        edit->selectAll();
        const QString typed = QStringLiteral("1e-8");
        for (int i = 0; i < typed.size(); ++i) {
            QTest::keyClick(edit, typed.at(i).toLatin1());
            QTest::qWait(viz::ValidatedField::kApplyPauseMs / 4);
            const QString sofar = typed.left(i + 1);
            QCOMPARE(edit->text(), sofar);
            QVERIFY2(panel.comparedValue() == 0.1, qPrintable(sofar));
            QCOMPARE(cell(panel, Format::FP32, QStringLiteral("Bits")), before);
            // Checked as typed: "1e" and "1e-" are marked at once, "1" and "1e-8" are not.
            const bool bad = sofar == QStringLiteral("1e") || sofar == QStringLiteral("1e-");
            QVERIFY2(panel.inputErrorText().isEmpty() != bad, qPrintable(sofar + QStringLiteral(": ") + panel.inputErrorText()));
        }
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(panel.comparedValue(), 1e-8);
        QCOMPARE(cell(panel, Format::FP32, QStringLiteral("Bits")), QStringLiteral("0x322BCC77"));
        // The program's text (links, the neighbours' buttons) applies at once.
        QVERIFY(panel.setComparedText(QStringLiteral("0.1")));
        QCOMPARE(cell(panel, Format::FP32, QStringLiteral("Bits")), before);
    }

    void overflowGoesToInfOrSaturates()
    {
        ShownPanel shown;
        FormatExplorerPanel& panel = shown.panel;
        QVERIFY(panel.setComparedText(QStringLiteral("70000")));
        // FP16's max is 65504; 70000 is past 65520 (max + half a step of 32): inf, 0x7C00.
        QCOMPARE(cell(panel, Format::FP16, QStringLiteral("Bits")), QStringLiteral("0x7C00"));
        QCOMPARE(cell(panel, Format::FP16, QStringLiteral("Stored value")), QStringLiteral("inf"));
        QCOMPARE(cell(panel, Format::FP16, QStringLiteral("What happened")), QStringLiteral("overflow → inf"));
        QCOMPARE(cell(panel, Format::FP16, QStringLiteral("Rel. error")), QStringLiteral("∞"));
        // E4M3 has no infinity: NaN (0x7F). E5M2 (max 57344): inf (0x7C). BF16 keeps FP32's range:
        // 70000 = 136.72 x 2^9 -> 137 x 512 = 70144.
        QCOMPARE(cell(panel, Format::FP8E4M3, QStringLiteral("Bits")), QStringLiteral("0x7F"));
        QCOMPARE(cell(panel, Format::FP8E4M3, QStringLiteral("What happened")), QStringLiteral("overflow → NaN"));
        QCOMPARE(cell(panel, Format::FP8E5M2, QStringLiteral("Bits")), QStringLiteral("0x7C"));
        QCOMPARE(cell(panel, Format::BF16, QStringLiteral("Stored value")), QStringLiteral("70144"));
        QCOMPARE(cell(panel, Format::FP32, QStringLiteral("What happened")), QStringLiteral("exact"));
        QCOMPARE(cell(panel, Format::INT8, QStringLiteral("What happened")), QStringLiteral("saturated to 127"));
        QCOMPARE(panel.bits(), 0x7C00u);
        QCOMPARE(panel.classText(), QStringLiteral("infinity"));

        // With saturation (the checkbox, as a user clicks it): every float clamps to its max.
        auto* box = panel.findChild<QCheckBox*>(QStringLiteral("saturate"));
        QVERIFY(box);
        QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(8, box->height() / 2));
        QVERIFY(panel.saturate());
        QCOMPARE(cell(panel, Format::FP16, QStringLiteral("Bits")), QStringLiteral("0x7BFF"));
        QCOMPARE(cell(panel, Format::FP16, QStringLiteral("Stored value")), QStringLiteral("65504"));
        QCOMPARE(cell(panel, Format::FP16, QStringLiteral("What happened")), QStringLiteral("saturated to 65504"));
        QCOMPARE(cell(panel, Format::FP16, QStringLiteral("Error")), QStringLiteral("−4496"));
        QCOMPARE(cell(panel, Format::FP8E4M3, QStringLiteral("Bits")), QStringLiteral("0x7E"));
        QCOMPARE(cell(panel, Format::FP8E4M3, QStringLiteral("Stored value")), QStringLiteral("448"));
        QCOMPARE(cell(panel, Format::FP8E5M2, QStringLiteral("Stored value")), QStringLiteral("57344"));
        QCOMPARE(stored(panel, Format::BF16).outcome, viz::StoreOutcome::Rounded); // in range: unchanged
        // The explored FP16 pattern came from the typed value: it follows the mode.
        QCOMPARE(panel.bits(), 0x7BFFu);
        QVERIFY(panel.rangeBar()->range().regions.back().label.find("max") != std::string::npos);

        // 65519 rounds down to 65504 in either mode: that is rounding, not saturation.
        QVERIFY(panel.setComparedText(QStringLiteral("65519")));
        QCOMPARE(cell(panel, Format::FP16, QStringLiteral("What happened")), QStringLiteral("rounded"));
        box->click();
        QVERIFY(!panel.saturate());
        QCOMPARE(cell(panel, Format::FP16, QStringLiteral("What happened")), QStringLiteral("rounded"));
        QVERIFY(panel.setComparedText(QStringLiteral("65520")));
        QCOMPARE(cell(panel, Format::FP16, QStringLiteral("Bits")), QStringLiteral("0x7C00"));

        // Infinity and NaN typed in.
        QVERIFY(panel.setComparedText(QStringLiteral("-inf")));
        QCOMPARE(cell(panel, Format::FP16, QStringLiteral("What happened")), QStringLiteral("infinity kept"));
        QCOMPARE(cell(panel, Format::FP8E4M3, QStringLiteral("What happened")), QStringLiteral("overflow → NaN"));
        QVERIFY(panel.setComparedText(QStringLiteral("nan")));
        QCOMPARE(cell(panel, Format::BF16, QStringLiteral("What happened")), QStringLiteral("NaN kept"));
        QCOMPARE(cell(panel, Format::INT8, QStringLiteral("What happened")), QStringLiteral("NaN → 0"));
    }

    void rangeBarLandmarksAreTheFormats()
    {
        ShownPanel shown;
        FormatExplorerPanel& panel = shown.panel;
        for (const numerics::FormatInfo& info : numerics::allFormats()) {
            panel.setFormat(info.format);
            const viz::FormatRange& range = panel.rangeBar()->range();
            QCOMPARE(range.format, info.format);
            QVERIFY(range.log2Min < range.log2Max);
            const char* key = info.key.data();
            if (info.isFloat) {
                QVERIFY2(range.landmark("min subnormal") && range.landmark("min normal") && range.landmark("max"), key);
                QCOMPARE(range.landmark("min subnormal")->value, numerics::minSubnormal(info.format));
                QCOMPARE(range.landmark("min normal")->value, numerics::minNormal(info.format));
                QCOMPARE(range.landmark("max")->value, numerics::maxFinite(info.format));
                // Regions in order: to zero, subnormal, normal, overflow; half the smallest subnormal
                // rounds to zero, half a step past the max overflows.
                QCOMPARE(range.regions.size(), std::size_t{4});
                QCOMPARE(range.regions[0].kind, viz::RangeRegionKind::ToZero);
                QCOMPARE(range.regions[0].to, numerics::minSubnormal(info.format) / 2);
                QCOMPARE(range.regions[1].kind, viz::RangeRegionKind::Subnormal);
                QCOMPARE(range.regions[1].to, numerics::minNormal(info.format));
                QCOMPARE(range.regions[3].kind, viz::RangeRegionKind::Overflow);
                QVERIFY2(range.regions[3].from > numerics::maxFinite(info.format), key);
                // The thresholds really are where encode starts to overflow.
                QVERIFY(std::isfinite(numerics::roundTo(info.format, std::nextafter(range.regions[3].from, 0.0))) ||
                        !info.hasInfinity);
                QVERIFY2(!std::isfinite(numerics::roundTo(info.format, std::nextafter(range.regions[3].from, INFINITY))), key);
                QCOMPARE(numerics::roundTo(info.format, range.regions[0].to), 0.0);
                QVERIFY(numerics::roundTo(info.format, std::nextafter(range.regions[0].to, 1.0)) > 0);
            } else {
                QCOMPARE(range.landmark("max")->value, static_cast<double>(info.intMax));
                QCOMPARE(range.landmark("step")->value, 1.0);
            }
            // The marker is the explored value, and the scale is monotonic.
            QCOMPARE(panel.rangeBar()->value(), numerics::decode(info.format, panel.bits()));
            const QRectF bar = panel.rangeBar()->barRect();
            const double a = range.xFor(range.landmarks.front().value, bar.left(), bar.right());
            const double b = range.xFor(range.landmarks.back().value, bar.left(), bar.right());
            QVERIFY2(bar.left() < a && a < b && b < bar.right(), key);
        }
        // Hand-checked: FP16 overflows from 65520, E4M3 from 464 (448 + 16), E5M2 from 61440.
        QCOMPARE(viz::formatRange(Format::FP16, numerics::Overflow::Ieee).regions[3].from, 65520.0);
        QCOMPARE(viz::formatRange(Format::FP8E4M3, numerics::Overflow::Ieee).regions[3].from, 464.0);
        QCOMPARE(viz::formatRange(Format::FP8E5M2, numerics::Overflow::Ieee).regions[3].from, 61440.0);
        QCOMPARE(viz::formatRange(Format::FP16, numerics::Overflow::Ieee).landmark("min subnormal")->value, std::ldexp(1.0, -24));
        panel.setFormat(Format::FP8E4M3);
        panel.setBits(0x7E);
        saveShot(*panel.rangeBar(), QStringLiteral("formats-range-e4m3"));
        const QImage image = panel.rangeBar()->grab().toImage();
        QVERIFY(distinctColours(image) >= 8);
    }

    void exactDecimalsAreExact()
    {
        QCOMPARE(QString::fromStdString(viz::exactDecimal(0.1)), QStringLiteral("0.1000000000000000055511151231257827021181583404541015625"));
        QCOMPARE(QString::fromStdString(viz::exactDecimal(65504)), QStringLiteral("65504"));
        // 2^-149 = 5^149 / 10^149: 5^149 has 105 digits, all of them shown.
        const QString tiny = QString::fromStdString(viz::exactDecimal(std::ldexp(1.0, -149)));
        QVERIFY(tiny.startsWith(QStringLiteral("1.40129846432481707092")) && tiny.endsWith(QStringLiteral("8203125e-45")));
        QCOMPARE(tiny.section(QLatin1Char('e'), 0, 0).remove(QLatin1Char('.')).size(), qsizetype(105));
        QCOMPARE(QString::fromStdString(viz::exactDecimal(-0.0)), QStringLiteral("-0"));
        QCOMPARE(QString::fromStdString(viz::exactDecimal(3.4028234663852886e38)), QStringLiteral("3.4028234663852885981170418348451692544e38"));
        QCOMPARE(QString::fromStdString(viz::compactDecimal(std::ldexp(1.0, -149), 30)), QStringLiteral("1.4012984643248171…e-45"));
        QCOMPARE(QString::fromStdString(viz::powerOfTwoText(std::ldexp(1.0, -14))), QStringLiteral("2^-14"));
    }

    void darkPaletteKeepsTheColoursReadable()
    {
        ShownPanel shown;
        FormatExplorerPanel& panel = shown.panel;
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
        dark.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
        dark.setColor(QPalette::ButtonText, QColor(0xe8, 0xe8, 0xe8));
        dark.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
        panel.setPalette(dark);
        QVERIFY(panel.setComparedText(QStringLiteral("70000")));
        // Each field colour stands out from the dark base (WCAG contrast ratio of at least 4.5).
        auto luminance = [](const QColor& c) {
            auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
            return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
        };
        const double base = luminance(dark.color(QPalette::Base));
        for (viz::BitField field : {viz::BitField::Sign, viz::BitField::Exponent, viz::BitField::Mantissa, viz::BitField::IntegerValue}) {
            const double ratio = (luminance(viz::bitFieldColor(field, panel.palette())) + 0.05) / (base + 0.05);
            QVERIFY2(ratio >= 4.5, qPrintable(QString::number(ratio)));
        }
        saveShot(panel, QStringLiteral("formats-dark"));
    }

    void windowHasTheDockAndShortcut()
    {
        app::MainWindow window({.restoreSettings = false, .pinnedLayout = true}); // the docks as arranged
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("FormatsDock"));
        QVERIFY(dock);
        QCOMPARE(dock->windowTitle(), QStringLiteral("Number Formats"));
        QVERIFY(window.tabifiedDockWidgets(dock).contains(window.findChild<QDockWidget*>(QStringLiteral("ProfileDock"))));
        QVERIFY(window.tabifiedDockWidgets(dock).contains(window.findChild<QDockWidget*>(QStringLiteral("OccupancyDock"))));
        QAction* action = nullptr;
        for (QAction* menu : window.menuBar()->actions())
            if (menu->menu())
                for (QAction* item : menu->menu()->actions())
                    if (item->text().remove(QLatin1Char('&')) == QStringLiteral("Number Format Explorer"))
                        action = item;
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_5));
        QVERIFY(window.formatExplorer()->visibleRegion().isEmpty()); // the Occupancy tab is in front
        action->trigger();
        QTest::qWait(50);
        QVERIFY(!window.formatExplorer()->visibleRegion().isEmpty());
        QVERIFY(dock->width() >= 480);
        saveShot(window, QStringLiteral("formats-window"));
    }

    void linksSetThePanelUp()
    {
        app::MainWindow window({.restoreSettings = false});
        window.resize(1600, 1000);
        window.show();
        FormatExplorerPanel* panel = window.formatExplorer();
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:formats?format=fp16&value=0.1"))).has_value());
        QCOMPARE(panel->format(), Format::FP16);
        QCOMPARE(panel->comparedValue(), 0.1);
        QCOMPARE(panel->valueEdit()->text(), QStringLiteral("0.1"));
        QCOMPARE(panel->bits(), 0x2E66u);
        QVERIFY(!panel->visibleRegion().isEmpty()); // the link brings the dock to the front

        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:formats?format=fp8e4m3&bits=0x7E"))));
        QCOMPARE(panel->format(), Format::FP8E4M3);
        QCOMPARE(panel->valueText(), QStringLiteral("448"));
        QCOMPARE(panel->comparedValue(), 0.1); // left out: kept

        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:formats?value=70000&format=fp16&saturate=1"))));
        QCOMPARE(panel->bits(), 0x7BFFu);
        QVERIFY(panel->saturate());
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:formats?saturate=0"))));
        QCOMPARE(panel->bits(), 0x7C00u);
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:formats?format=tf32&bits=3F802000"))));
        QCOMPARE(panel->valueText(), QStringLiteral("1.0009765625"));
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:formats?format=int4&value=-9"))));
        QCOMPARE(panel->valueText(), QStringLiteral("-8"));
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:formats"))));
        // The other views are untouched by a formats link, and still work.
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:hierarchy?grid=2&block=64"))));
        QCOMPARE(panel->format(), Format::INT4);
    }

    void badLinksGiveOneClearMessage()
    {
        app::MainWindow window({.restoreSettings = false});
        window.show();
        FormatExplorerPanel* panel = window.formatExplorer();
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:formats?format=bf16&value=3"))));
        const struct {
            const char* link;
            const char* says;
        } bad[] = {
            {"warpscope:formats?format=fp64", "format: unknown format 'fp64' (allowed: fp32, tf32, fp16, bf16, fp8e4m3, fp8e5m2, int8, uint8, int4)"},
            {"warpscope:formats?value=abc", "value: 'abc' is not a number"},
            {"warpscope:formats?value=1e999", "value: 1e999 is beyond the range of a double"},
            {"warpscope:formats?format=fp16&bits=0x1FFFF", "bits: 0x1FFFF is wider than 16 bits (allowed for fp16: 0x0..0xFFFF)"},
            {"warpscope:formats?format=fp8e4m3&bits=0xZZ", "bits: '0xZZ' is not a bit pattern in hex"},
            {"warpscope:formats?bits=0x3C00", "bits: needs format= too"},
            {"warpscope:formats?format=tf32&bits=0x3F800001", "sets some of the low 13 bits"},
            {"warpscope:formats?saturate=2", "saturate: 2 is out of range (allowed: 0..1)"},
            {"warpscope:formats?format=fp16&colour=red", "unknown key 'colour' for formats (allowed: format, value, bits, saturate)"},
            {"warpscope:formats?format=fp16&format=bf16", "'format' is given twice"},
            {"warpscope:formats?value=", "'value' has no value"},
        };
        for (const auto& [link, says] : bad) {
            const auto message = window.openLink(QUrl(QString::fromLatin1(link)));
            QVERIFY2(message.has_value(), link);
            QVERIFY2(message->contains(QString::fromUtf8(says)), qPrintable(*message));
            QVERIFY2(message->startsWith(QStringLiteral("link '") + QString::fromLatin1(link) + QStringLiteral("': ")), qPrintable(*message));
            QVERIFY2(!message->contains(QLatin1Char('\n')), qPrintable(*message)); // one line
            QCOMPARE(window.lastMessage(), *message);
            // Nothing changed.
            QCOMPARE(panel->format(), Format::BF16);
            QCOMPARE(panel->comparedValue(), 3.0);
            QCOMPARE(panel->bits(), 0x4040u);
            QVERIFY(!panel->saturate());
        }
        // The unknown-view message lists formats among the views.
        const auto unknown = window.openLink(QUrl(QStringLiteral("warpscope:format?format=fp16")));
        QVERIFY(unknown && unknown->contains(QStringLiteral("formats")));
        // A good link clears the message.
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:formats?format=fp16"))));
        QVERIFY(window.lastMessage().isEmpty());
    }

    void screenshotCommandShowsTheFormats()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("formats.png"));
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(WARPSCOPE_BINARY),
                      {QStringLiteral("screenshot"), QStringLiteral("--out"), out, QStringLiteral("--view"), QStringLiteral("formats"),
                       QStringLiteral("--link"), QStringLiteral("warpscope:formats?format=bf16&value=70000&saturate=1"),
                       QStringLiteral("--size"), QStringLiteral("1400x900")});
        QVERIFY(process.waitForFinished(60000));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        const QImage image(out);
        QCOMPARE(image.size(), QSize(1400, 900));
        QVERIFY(distinctColours(image) >= 40);
        const QString shots = qEnvironmentVariable("WARPSCOPE_GUI_TEST_SHOTS");
        if (!shots.isEmpty())
            image.save(QDir(shots).filePath(QStringLiteral("formats-screenshot.png")));

        // A bad link is bad input, found before any window opens: exit 2 and one line that names the problem.
        process.start(QStringLiteral(WARPSCOPE_BINARY),
                      {QStringLiteral("screenshot"), QStringLiteral("--out"), out, QStringLiteral("--view"), QStringLiteral("formats"),
                       QStringLiteral("--link"), QStringLiteral("warpscope:formats?format=fp12")});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 2);
        const QString error = QString::fromLocal8Bit(process.readAllStandardError()).trimmed();
        QVERIFY2(error.contains(QStringLiteral("unknown format 'fp12'")), qPrintable(error));
        QVERIFY2(!error.contains(QLatin1Char('\n')), qPrintable(error));
    }
};

QTEST_MAIN(FormatsTest)
#include "formats_test.moc"
