#include "formats/format_explainer.h"

#include "formats/format_decimal.h"

#include <QStringList>

#include <cmath>

namespace warpscope::viz {

using numerics::Format;

namespace {

QString fromStd(const std::string& text) { return QString::fromStdString(text); }

QString binaryDigits(std::uint32_t value, int width)
{
    QString digits;
    for (int i = width - 1; i >= 0; --i)
        digits += ((value >> i) & 1u) ? QLatin1Char('1') : QLatin1Char('0');
    return digits;
}

QString power(const QString& base, const QString& exponent)
{
    return base + QStringLiteral("<sup>") + exponent + QStringLiteral("</sup>");
}

// "2<sup>-10</sup> = 0.0009765625" for a power of two, the exact decimal otherwise.
QString spacingText(double gap)
{
    const std::string powerText = powerOfTwoText(gap);
    const QString decimal = displayedValue(gap, 28).toHtmlEscaped();
    if (powerText.empty())
        return decimal;
    return power(QStringLiteral("2"), fromStd(powerText.substr(2))) + QStringLiteral(" = ") + decimal;
}

QString minusSign(const QString& text)
{
    QString out = text;
    if (out.startsWith(QLatin1Char('-')))
        out.replace(0, 1, QStringLiteral("−"));
    return out;
}

} // namespace

PatternFields patternFields(Format format, std::uint32_t bits)
{
    const numerics::FormatInfo& info = numerics::formatInfo(format);
    const std::uint32_t raw = bits >> info.storageShift;
    PatternFields fields;
    fields.negative = ((raw >> (info.exponentBits + info.mantissaBits)) & 1u) != 0;
    fields.exponent = (raw >> info.mantissaBits) & ((1u << info.exponentBits) - 1);
    fields.mantissa = raw & ((1u << info.mantissaBits) - 1);
    return fields;
}

QString displayedValue(double value, int maxChars)
{
    return fromStd(compactDecimal(value, static_cast<std::size_t>(maxChars)));
}

QString formulaHtml(Format format, std::uint32_t bits)
{
    const numerics::FormatInfo& info = numerics::formatInfo(format);
    const double value = numerics::decode(format, bits);
    const QString shown = QStringLiteral("<b>%1</b>").arg(minusSign(displayedValue(value)).toHtmlEscaped());

    if (!info.isFloat) {
        const int width = info.bits;
        const std::uint32_t pattern = bits & ((1u << width) - 1);
        QStringList terms;
        for (int i = width - 1; i >= 0; --i) {
            if (((pattern >> i) & 1u) == 0)
                continue;
            const long long weight = 1LL << i;
            const bool signBit = info.intMin < 0 && i == width - 1;
            terms << (signBit ? QStringLiteral("−%1").arg(weight) : QString::number(weight));
        }
        const QString reading = info.intMin < 0
            ? QStringLiteral("Two's complement: the top bit weighs −%1, the others %2 down to 1.").arg(1LL << (width - 1)).arg(1LL << (width - 2))
            : QStringLiteral("Unsigned: bit <i>i</i> weighs 2<sup><i>i</i></sup>.");
        QString sum = terms.isEmpty() ? QStringLiteral("no bit set") : terms.join(QStringLiteral(" + "));
        sum.replace(QStringLiteral("+ −"), QStringLiteral("− "));
        return reading + QStringLiteral("<br>") + sum + QStringLiteral(" = ") + shown;
    }

    const PatternFields f = patternFields(format, bits);
    const int e = info.exponentBits, m = info.mantissaBits;
    const QString signText = QStringLiteral("sign <b>%1</b> → %2").arg(f.negative ? 1 : 0).arg(f.negative ? QStringLiteral("−") : QStringLiteral("+"));
    const QString expDigits = binaryDigits(f.exponent, e), manDigits = binaryDigits(f.mantissa, m);

    if (std::isnan(value)) {
        if (!info.hasInfinity)
            return QStringLiteral("Exponent %1 with mantissa %2: the only NaN pattern of %3 (S.%1.%2). It has no infinity: "
                                  "exponent %1 with any other mantissa is a normal number, up to %4.")
                .arg(expDigits, manDigits, fromStd(std::string(info.name.substr(0, info.name.find(" (")))),
                     fromStd(exactDecimal(numerics::maxFinite(format))));
        return QStringLiteral("Exponent all ones (%1) with a mantissa that is not zero: <b>NaN</b>, not a number.").arg(expDigits);
    }
    if (std::isinf(value))
        return QStringLiteral("%1 · exponent all ones (%2), mantissa zero: <b>%3infinity</b>.")
            .arg(signText, expDigits, f.negative ? QStringLiteral("−") : QStringLiteral("+"));
    if (value == 0)
        return QStringLiteral("%1 · exponent and mantissa all zeros: <b>%2</b>. (+0 and −0 compare equal.)")
            .arg(signText, f.negative ? QStringLiteral("−0") : QStringLiteral("+0"));

    const QString signPower = power(QStringLiteral("(−1)"), QString::number(f.negative ? 1 : 0));
    const QString fraction = QStringLiteral("%1/%2").arg(f.mantissa).arg(1LL << m);
    if (f.exponent == 0) {
        // Subnormal: the exponent is fixed at its smallest, 1 - bias, and there is no implicit 1.
        const int scale = 1 - info.bias;
        const double significand = std::ldexp(static_cast<double>(f.mantissa), -m);
        const QString line1 = QStringLiteral("%1 · exponent <b>%2</b>: subnormal, the scale stays at 2<sup>1 − %3</sup> = %4 "
                                             "and there is no implicit 1 · mantissa 0.<b>%5</b><sub>2</sub> = %6")
                                  .arg(signText, expDigits).arg(info.bias)
                                  .arg(power(QStringLiteral("2"), minusSign(QString::number(scale))), manDigits, fraction);
        const QString line2 = QStringLiteral("%1 × %2 × %3 = %4")
                                  .arg(signPower, power(QStringLiteral("2"), minusSign(QString::number(scale))),
                                       fromStd(exactDecimal(significand)), shown);
        return line1 + QStringLiteral("<br>") + line2;
    }
    const int unbiased = static_cast<int>(f.exponent) - info.bias;
    const double significand = 1.0 + std::ldexp(static_cast<double>(f.mantissa), -m);
    const QString line1 = QStringLiteral("%1 · exponent <b>%2</b><sub>2</sub> = %3, minus the bias %4 = %5 · "
                                         "mantissa 1.<b>%6</b><sub>2</sub> = 1 + %7 (the leading 1 is implicit)")
                              .arg(signText, expDigits).arg(f.exponent).arg(info.bias)
                              .arg(minusSign(QString::number(unbiased)), manDigits, fraction);
    const QString line2 = QStringLiteral("%1 × %2 × %3 = %4")
                              .arg(signPower,
                                   power(QStringLiteral("2"), QStringLiteral("%1 − %2").arg(f.exponent).arg(info.bias)),
                                   fromStd(exactDecimal(significand)), shown);
    return line1 + QStringLiteral("<br>") + line2;
}

QString ulpHtml(Format format, std::uint32_t bits)
{
    const numerics::FormatInfo& info = numerics::formatInfo(format);
    const double value = numerics::decode(format, bits);
    if (std::isnan(value))
        return QStringLiteral("NaN has no neighbours and no spacing.");
    if (std::isinf(value))
        return QStringLiteral("Infinity is not a finite value: no spacing. One step toward zero is the largest finite value.");
    const auto up = numerics::nextUp(format, bits);
    const auto down = numerics::nextDown(format, bits);
    if (!info.isFloat)
        return QStringLiteral("Integers: a step of 1 everywhere, so the relative step shrinks as the value grows.");
    const double gapUp = up ? numerics::decode(format, *up) - value : 0;
    const double gapDown = down ? value - numerics::decode(format, *down) : 0;
    QString text;
    if (up && down && gapUp == gapDown)
        text = QStringLiteral("One ULP (the gap to either neighbour): %1").arg(spacingText(gapUp));
    else
        text = QStringLiteral("Gap up: %1 · gap down: %2")
                   .arg(up ? spacingText(gapUp) : QStringLiteral("none (the largest finite value)"),
                        down ? spacingText(gapDown) : QStringLiteral("none (the lowest finite value)"));
    if (up && down && gapUp != gapDown && !powerOfTwoText(value).empty())
        text += QStringLiteral(" (the spacing changes at a power of two)");
    if (value != 0) {
        const double gap = value > 0 ? (up ? gapUp : gapDown) : (down ? gapDown : gapUp);
        text += QStringLiteral(" · relative to the value: %1").arg(fromStd(shortDecimal(gap / std::abs(value), 3)));
    }
    return text;
}

} // namespace warpscope::viz
