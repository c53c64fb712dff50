#include "common/validated_field.h"

#include "util/input_error.h"
#include "util/input_wording.h"
#include "util/parse.h"

#include <QEvent>
#include <QFocusEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPalette>
#include <QRegularExpression>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <limits>
#include <string>
#include <utility>

namespace warpscope::viz {
namespace {

QColor errorColor(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < 128 ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc6, 0x28, 0x28);
}

} // namespace

ValidatedField::ValidatedField(const QString& objectName, Parser parser, QWidget* parent)
    : QWidget(parent), m_parser(std::move(parser))
{
    setObjectName(objectName);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(1);
    m_edit = new QLineEdit(this);
    m_edit->setObjectName(objectName + QStringLiteral("Edit"));
    m_edit->installEventFilter(this);
    m_message = new QLabel(this);
    m_message->setObjectName(objectName + QStringLiteral("Message"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->hide();
    layout->addWidget(m_edit);
    layout->addWidget(m_message);
    setFocusProxy(m_edit);
    m_pause = new QTimer(this);
    m_pause->setSingleShot(true);
    m_pause->setInterval(kApplyPauseMs);
    connect(m_pause, &QTimer::timeout, this, &ValidatedField::applyPending);
    connect(m_edit, &QLineEdit::textEdited, this, &ValidatedField::typed);
    // Enter applies what was typed without waiting.
    // returnPressed comes before editingFinished and before an owner's own Enter handler (connected
    // after this), which then sees the value applied.
    // Leaving the field (Tab, a click elsewhere) is seen in eventFilter: not when the window itself goes (closing, another
    // application), when the owner may be half destroyed and the pause applies the value anyway.
    connect(m_edit, &QLineEdit::returnPressed, this, &ValidatedField::applyPending);
}

void ValidatedField::setStepping(std::int64_t step, std::int64_t minimum, std::int64_t maximum)
{
    m_step = std::max<std::int64_t>(1, step);
    m_minimum = minimum;
    m_maximum = maximum;
}

void ValidatedField::setParser(Parser parser)
{
    m_parser = std::move(parser);
    check(false);
}

void ValidatedField::setRealParser(RealParser parser)
{
    m_realParser = std::move(parser);
    m_maximum = m_minimum; // no stepping
    check(false);
}

void ValidatedField::setRealValue(double value)
{
    QString text = QString::number(value, 'g', 17);
    for (int precision = 6; precision < 17; ++precision) // the shortest text that reads back as the value
        if (QString::number(value, 'g', precision).toDouble() == value) {
            text = QString::number(value, 'g', precision);
            break;
        }
    m_pause->stop(); // the program's value replaces what was being typed
    m_pending = false;
    m_edit->setText(text);
    m_externalError.clear();
    check(false);
}

void ValidatedField::setValue(std::int64_t value)
{
    m_pause->stop();
    m_pending = false;
    m_edit->setText(m_formatter ? m_formatter(value) : QString::number(value));
    m_externalError.clear();
    check(false);
}

void ValidatedField::setText(const QString& text)
{
    m_pause->stop();
    m_pending = false;
    m_edit->setText(text);
    m_externalError.clear();
    check(false);
}

void ValidatedField::setTextAsTyped(const QString& text)
{
    m_pause->stop();
    m_pending = false;
    m_edit->setText(text);
    check(true);
}

void ValidatedField::typed()
{
    // Checked and marked at once; applied when typing pauses, on Enter or on leaving the field.
    m_pending = true;
    check(false);
    m_pause->start(); // restarted by each key
}

void ValidatedField::applyPending()
{
    m_pause->stop();
    if (!m_pending)
        return;
    m_pending = false;
    emitEdited();
}

void ValidatedField::setShowsMessage(bool shows)
{
    m_showsMessage = shows;
    showState();
}

QString ValidatedField::text() const { return m_edit->text(); }

QString ValidatedField::errorText() const { return m_parseError.isEmpty() ? m_externalError : m_parseError; }

void ValidatedField::setExternalError(const QString& message)
{
    if (message == m_externalError)
        return;
    const bool wasValid = valid() && m_externalError.isEmpty();
    m_externalError = message;
    showState();
    const bool nowValid = valid() && m_externalError.isEmpty();
    if (wasValid != nowValid)
        emit validityChanged(nowValid);
}

void ValidatedField::check(bool apply)
{
    const bool wasValid = valid() && m_externalError.isEmpty();
    const std::optional<std::int64_t> before = m_value;
    const std::optional<double> beforeReal = m_real;
    try {
        if (m_realParser)
            m_real = m_realParser(m_edit->text());
        else
            m_value = m_parser(m_edit->text());
        m_parseError.clear();
    } catch (const InputError& error) {
        m_value.reset();
        m_real.reset();
        m_parseError = QString::fromUtf8(error.what());
    }
    // A new value may resolve a mark made elsewhere (the owner checks again and marks it if not).
    if (m_value != before || m_real != beforeReal)
        m_externalError.clear();
    showState();
    const bool nowValid = valid() && m_externalError.isEmpty();
    if (wasValid != nowValid)
        emit validityChanged(nowValid);
    emit textChecked();
    if (apply)
        emitEdited();
}

void ValidatedField::emitEdited()
{
    if (m_realParser && m_real)
        emit realValueEdited(*m_real);
    else if (!m_realParser && m_value)
        emit valueEdited(*m_value);
}

void ValidatedField::showState()
{
    const QString message = errorText();
    m_message->setText(message);
    m_message->setVisible(m_showsMessage && !message.isEmpty());
    const QColor color = errorColor(palette());
    m_message->setStyleSheet(QStringLiteral("color: %1;").arg(color.name()));
    m_edit->setStyleSheet(message.isEmpty() ? QString()
                                            : QStringLiteral("QLineEdit { border: 2px solid %1; border-radius: 2px; }")
                                                  .arg(color.name()));
    m_edit->setToolTip(message.isEmpty() ? toolTip() : message);
    m_edit->setAccessibleDescription(message);
}

bool ValidatedField::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_edit && event->type() == QEvent::FocusOut && m_pending) {
        const Qt::FocusReason reason = static_cast<QFocusEvent*>(event)->reason();
        if (reason != Qt::ActiveWindowFocusReason && reason != Qt::PopupFocusReason && window()->isVisible())
            applyPending();
    }
    if (watched == m_edit && event->type() == QEvent::KeyPress && m_maximum > m_minimum) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const int direction = key->key() == Qt::Key_Up ? 1 : key->key() == Qt::Key_Down ? -1 : 0;
        if (direction != 0 && m_value) {
            // To the next multiple of the step (100 -> 128 with step 32), inside the range: an explicit
            // request, unlike typing, so it may move the value.
            const std::int64_t current = std::clamp(*m_value, m_minimum, m_maximum);
            const std::int64_t base = direction > 0 ? current / m_step : (current + m_step - 1) / m_step;
            const std::int64_t next = std::clamp((base + direction) * m_step, m_minimum, m_maximum);
            if (next != *m_value) {
                // A whole value, asked for explicitly: applied at once, with anything typed before it.
                m_pause->stop();
                m_pending = false;
                m_edit->setText(m_formatter ? m_formatter(next) : QString::number(next));
                check(true);
            }
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void ValidatedField::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && m_message != nullptr)
        showState();
}

ValidatedField::Parser countParser(QString what, std::int64_t min, std::int64_t max, bool units)
{
    return [what = what.toStdString(), min, max, units](const QString& typed) -> std::int64_t {
        const std::string range = withThousands(min) + ".." + withThousands(max) +
                                  (units ? ", or with K = 1024, M = 1024 K" : "");
        QString text = typed.trimmed();
        std::int64_t multiplier = 1;
        if (units && (text.endsWith(QLatin1Char('K')) || text.endsWith(QLatin1Char('k')))) {
            multiplier = 1024;
            text.chop(1);
        } else if (units && (text.endsWith(QLatin1Char('M')) || text.endsWith(QLatin1Char('m')))) {
            multiplier = 1024 * 1024;
            text.chop(1);
        }
        // Thousands separators only in their places: "100,000", not "1,00,0".
        static const QRegularExpression grouped(QStringLiteral("^[+-]?\\d{1,3}(,\\d{3})+$"));
        if (grouped.match(text).hasMatch())
            text.remove(QLatin1Char(','));
        // A minus sign makes a number below the range, not garbage: "-5 is out of range", as parseInteger says.
        static const QRegularExpression digits(QStringLiteral("^[+-]?\\d+$"));
        if (!digits.match(text).hasMatch())
            throw InputError(notAValueMessage(what, typed.toStdString(), "an integer", range));
        bool ok = false;
        const qlonglong number = text.toLongLong(&ok);
        const bool overflow = !ok || number > std::numeric_limits<std::int64_t>::max() / multiplier ||
                              number < std::numeric_limits<std::int64_t>::min() / multiplier;
        const std::int64_t value = overflow ? 0 : number * multiplier;
        if (overflow || value < min || value > max)
            throw InputError(outOfRangeMessage(what, typed.toStdString(), range));
        return value;
    };
}

double parseRealInRange(const QString& typed, const QString& what, double min, double max, const QString& rangeText)
{
    const std::string text = typed.toStdString();
    double value = 0;
    try {
        value = parseReal(text, "");
    } catch (const InputError&) {
        // A decimal beyond a double (1e999) is a number out of range; anything else is not a number.
        const std::string clean = trimmedInput(text);
        char* end = nullptr;
        std::strtod(clean.c_str(), &end);
        if (clean.empty() || end != clean.c_str() + clean.size())
            throw InputError(notAValueMessage(what.toStdString(), text, "a number", rangeText.toStdString()));
        throw InputError(outOfRangeMessage(what.toStdString(), text, rangeText.toStdString()));
    }
    if (!(value >= min && value <= max)) // NaN fails too
        throw InputError(outOfRangeMessage(what.toStdString(), text, rangeText.toStdString()));
    return value;
}

ValidatedField::RealParser realParser(QString what, double min, double max, QString rangeText)
{
    return [what, min, max, rangeText](const QString& typed) { return parseRealInRange(typed, what, min, max, rangeText); };
}

} // namespace warpscope::viz
