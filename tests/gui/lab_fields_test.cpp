// The precision lab's fields handle bad input as the launch and explorer fields do (issue 14,
// section 2): checked as typed; an out-of-range or garbage value is marked under its own field with
// that field's range, in the links' message style; nothing typed is clamped or rewritten; counts take
// "100,000" and the links' units (64K, 1M); the figures keep the last valid inputs and say so; a rule
// across fields (rows dividing n) is marked on the field; Run waits for valid fields.
#include "gui_test_support.h"
#include "common/validated_field.h"
#include "precision/amp/amp_panel.h"
#include "precision/quant/quant_panel.h"
#include "precision/sparsity/sparsity_panel.h"
#include "window/application_setup.h"

#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

#include <memory>

using namespace warpscope;
using warpscope::gui_test::fieldOf;
using warpscope::viz::ValidatedField;

namespace {

constexpr int kWorkTimeoutMs = 60000;

// "what: value is out of range (allowed: a..b)" or "what: 'text' is not ... (allowed: ...)", as the
// launch and explorer fields say it (tests/gui/input_fields_test.cpp).
const QRegularExpression kMessageStyle(QStringLiteral("^[a-z .+-]+: .+ \\(.*allowed: .+\\)$"));

// Pastes `text` over the field's text in one edit and presses Enter, which applies a valid value.
void typeInto(ValidatedField* field, const QString& text)
{
    QLineEdit* edit = field->lineEdit();
    edit->setFocus();
    edit->selectAll();
    edit->insert(text);
    QTest::keyClick(edit, Qt::Key_Return);
}

using warpscope::gui_test::saveShot;

bool marked(ValidatedField* field)
{
    return !field->errorText().isEmpty() && field->lineEdit()->styleSheet().contains(QStringLiteral("border")) &&
           field->messageLabel()->isVisibleTo(field);
}

} // namespace

class LabFieldsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    // Each field: out of range and garbage marked in place with its own range, the text as typed.
    void everyFieldMarksBadValuesWithItsRange_data()
    {
        QTest::addColumn<QString>("panel");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("outOfRange");
        QTest::addColumn<QString>("range");
        QTest::newRow("amp steps") << "amp" << "ampSteps" << "200000" << "allowed: 1..100,000";
        QTest::newRow("amp seed") << "amp" << "ampSeed" << "-1" << "allowed: 0..2,147,483,647";
        QTest::newRow("amp growth") << "amp" << "ampGrowth" << "0" << "allowed: 1..1,000,000";
        QTest::newRow("amp scale") << "amp" << "ampScale" << "0.5" << "allowed: 1 to 3e38";
        QTest::newRow("sparsity fine-tune") << "sparsity" << "sparsityFineTune" << "20000" << "allowed: 0..10,000";
        QTest::newRow("sparsity seed") << "sparsity" << "sparsitySeed" << "3000000000" << "allowed: 0..2,147,483,647";
        QTest::newRow("quant n") << "quant" << "quantCount" << "20M" << "allowed: 16..10,000,000";
        QTest::newRow("quant seed") << "quant" << "quantSeed" << "-5" << "allowed: 0..2,147,483,647";
        QTest::newRow("quant rows") << "quant" << "quantRows" << "0" << "allowed: 1..1,000,000";
        QTest::newRow("quant percentile") << "quant" << "quantPercentile" << "101" << "allowed: 0.0001 to 100 %";
    }

    void everyFieldMarksBadValuesWithItsRange()
    {
        QFETCH(QString, panel);
        QFETCH(QString, field);
        QFETCH(QString, outOfRange);
        QFETCH(QString, range);
        std::unique_ptr<QWidget> owner;
        if (panel == QLatin1String("amp"))
            owner = std::make_unique<viz::AmpPanel>();
        else if (panel == QLatin1String("sparsity"))
            owner = std::make_unique<viz::SparsityPanel>();
        else
            owner = std::make_unique<viz::QuantPanel>();
        owner->show(); // the quantization lab computes once shown: its fields are tested on live figures
        ValidatedField* f = fieldOf(owner.get(), field.toLatin1().constData());
        f->setVisible(true);
        const QString before = f->text();
        for (const QString& bad : {outOfRange, QStringLiteral("abc")}) {
            typeInto(f, bad);
            QVERIFY2(!f->valid(), qPrintable(bad));
            QVERIFY2(marked(f), qPrintable(bad));
            QCOMPARE(f->text(), bad); // never clamped or rewritten
            QVERIFY2(kMessageStyle.match(f->errorText()).hasMatch(), qPrintable(f->errorText()));
            QVERIFY2(f->errorText().contains(range), qPrintable(f->errorText()));
        }
        typeInto(f, before);
        QVERIFY(f->valid());
        QVERIFY(f->errorText().isEmpty());
    }

    // Counts take thousands separators and the links' units; a separator out of place is garbage.
    void countsTakeSeparatorsAndUnits()
    {
        viz::QuantPanel panel;
        ValidatedField* n = fieldOf(&panel, "quantCount");
        typeInto(n, QStringLiteral("64K"));
        QCOMPARE(n->value(), std::optional<std::int64_t>(65536));
        typeInto(n, QStringLiteral("1M"));
        QCOMPARE(n->value(), std::optional<std::int64_t>(1048576));
        typeInto(n, QStringLiteral("250,000"));
        QCOMPARE(n->value(), std::optional<std::int64_t>(250000));
        typeInto(n, QStringLiteral("25,00,00"));
        QVERIFY(!n->valid());
        QVERIFY(n->errorText().contains(QStringLiteral("'25,00,00' is not an integer")));
        viz::AmpPanel amp;
        ValidatedField* steps = fieldOf(&amp, "ampSteps");
        typeInto(steps, QStringLiteral("2K"));
        QCOMPARE(amp.request().steps, 2048);
        ValidatedField* scale = fieldOf(&amp, "ampScale");
        typeInto(scale, QStringLiteral("6.5e4"));
        QCOMPARE(amp.request().staticScale, 65000.0f);
        ValidatedField* seed = fieldOf(&amp, "ampSeed");
        typeInto(seed, QStringLiteral("4K")); // a seed is a number, not a count: no units
        QVERIFY(!seed->valid());
    }

    // Quantization: a bad field keeps the figures on the last valid inputs and says which; two bad
    // fields are both named; rows that do not divide n are marked on Rows.
    void quantizationKeepsTheFiguresAndSaysSo()
    {
        viz::QuantPanel panel;
        panel.resize(1400, 900);
        panel.show();
        QTRY_VERIFY_WITH_TIMEOUT(panel.result() != nullptr && !panel.busy(), kWorkTimeoutMs);
        const auto shown = panel.result();
        QCOMPARE(shown->request.count, std::size_t{100000});
        ValidatedField* n = fieldOf(&panel, "quantCount");
        ValidatedField* seed = fieldOf(&panel, "quantSeed");
        typeInto(n, QStringLiteral("5"));
        typeInto(seed, QStringLiteral("x"));
        QVERIFY(marked(n) && marked(seed));
        QVERIFY(!panel.busy());
        QCOMPARE(panel.result(), shown); // not recomputed
        const QString status = panel.statusText();
        QVERIFY2(status.contains(QStringLiteral("The figures show n = 100,000, seed 1, rows 1")), qPrintable(status));
        QVERIFY(status.contains(n->errorText()) && status.contains(seed->errorText()));
        QCOMPARE(panel.request().count, std::size_t{100000}); // the last valid value, not the marked text
        saveShot(panel, QStringLiteral("lab-quant-marked"));

        typeInto(seed, QStringLiteral("1"));
        typeInto(n, QStringLiteral("1000"));
        QTRY_VERIFY_WITH_TIMEOUT(!panel.busy() && panel.result() != shown, kWorkTimeoutMs);
        QCOMPARE(panel.result()->request.count, std::size_t{1000});
        ValidatedField* rows = fieldOf(&panel, "quantRows");
        typeInto(rows, QStringLiteral("3"));
        QVERIFY(rows->valid());               // 3 is a fine number of rows...
        QVERIFY(marked(rows));                // ...but does not divide n
        QVERIFY(rows->errorText().contains(QStringLiteral("3 does not divide n 1,000")));
        QVERIFY(kMessageStyle.match(rows->errorText()).hasMatch());
        QCOMPARE(panel.result()->request.rows, std::size_t{1});
        typeInto(rows, QStringLiteral("4"));
        QVERIFY(!marked(rows));
        QTRY_VERIFY_WITH_TIMEOUT(!panel.busy() && panel.result()->request.rows == 4, kWorkTimeoutMs);
    }

    // The slice is checked against the slices the shown result has.
    void theSliceIsCheckedAgainstTheResult()
    {
        viz::QuantPanel panel;
        panel.show();
        viz::QuantLabRequest request = panel.request();
        request.count = 4096;
        request.rows = 64;
        request.config.granularity = numerics::Granularity::Channel;
        panel.setRequest(request);
        QTRY_VERIFY_WITH_TIMEOUT(panel.result() != nullptr && !panel.busy() && panel.result()->result.slices.size() == 64,
                                 kWorkTimeoutMs);
        ValidatedField* slice = fieldOf(&panel, "quantSlice");
        typeInto(slice, QStringLiteral("65"));
        QVERIFY(marked(slice));
        QVERIFY2(slice->errorText().contains(QStringLiteral("allowed: 1..64")), qPrintable(slice->errorText()));
        QCOMPARE(slice->text(), QStringLiteral("65"));
    }

    // Training: Run waits while a field is marked, and the status names every marked field.
    void trainingWaitsForValidFields()
    {
        viz::AmpPanel panel;
        ValidatedField* steps = fieldOf(&panel, "ampSteps");
        ValidatedField* growth = fieldOf(&panel, "ampGrowth");
        typeInto(steps, QStringLiteral("0"));
        typeInto(growth, QStringLiteral("lots"));
        QVERIFY(!panel.runButton()->isEnabled());
        QVERIFY(panel.statusText().contains(steps->errorText()) && panel.statusText().contains(growth->errorText()));
        panel.resize(900, 700);
        panel.show();
        saveShot(panel, QStringLiteral("lab-amp-marked"));
        panel.run();
        QVERIFY(!panel.busy()); // refused
        QCOMPARE(panel.request().steps, 1000);
        typeInto(steps, QStringLiteral("50"));
        typeInto(growth, QStringLiteral("20"));
        QVERIFY(panel.runButton()->isEnabled());
        QVERIFY(!panel.statusText().contains(QStringLiteral("marked")));
        QCOMPARE(panel.request().steps, 50);
    }
};

QTEST_MAIN(LabFieldsTest)
#include "lab_fields_test.moc"
