// One way to handle typed input in every launch and explorer field: the text is checked as it is
// typed by the field's own parser (the same one the links and the command line use), a bad value is
// marked in place at once with the parser's message, which names the field's own range, and nothing
// the user typed is ever truncated, clamped or rewritten. A typed value is applied (valueEdited) only
// on Enter, on leaving the field, or after a pause in typing (kApplyPauseMs), never per keystroke:
// typing 2000 must not first apply 200, nor 100000,7000 first 100000,7. Up/Down step a valid value by
// the field's step and apply it at once; text set by the program applies at once too.
#pragma once

#include <QString>
#include <QWidget>

#include <cstdint>
#include <functional>
#include <optional>

class QLabel;
class QLineEdit;
class QTimer;

namespace warpscope::viz {

class ValidatedField : public QWidget {
    Q_OBJECT
public:
    // Reads the text or throws InputError with the message shown under the field.
    using Parser = std::function<std::int64_t(const QString& text)>;
    // The same for a field that holds a real number (a loss scale, a percentile): setRealParser.
    using RealParser = std::function<double(const QString& text)>;
    // Writes a value as the field shows it ("96", "32K"); plain digits when not set.
    using Formatter = std::function<QString(std::int64_t value)>;

    // How long typing must pause before a typed value is applied: long enough for the next key of a
    // number being typed (about 200 ms apart), short enough to feel like it follows the typing.
    static constexpr int kApplyPauseMs = 600;

    ValidatedField(const QString& objectName, Parser parser, QWidget* parent = nullptr);

    void setFormatter(Formatter formatter) { m_formatter = std::move(formatter); }
    // Up/Down move to the next multiple of `step` inside [minimum, maximum]; typing is never limited.
    void setStepping(std::int64_t step, std::int64_t minimum, std::int64_t maximum);
    void setParser(Parser parser); // a new range (another GPU preset): the text is checked again
    // Makes this a field of real numbers: value() is then empty, realValue() holds the number, and
    // realValueEdited is emitted instead of valueEdited. Up/Down do not step it.
    void setRealParser(RealParser parser);
    void setRealValue(double value); // shows the shortest text that reads back as `value`, and checks it

    // Shows `value` (formatted) without emitting valueEdited, and checks it.
    void setValue(std::int64_t value);
    // Shows text (a launch's "4,2") without emitting valueEdited, and checks it.
    void setText(const QString& text);
    // Shows text as given, checks it and applies it at once as if typed and confirmed (links that carry text).
    void setTextAsTyped(const QString& text);
    // Checks the text again without applying it: the parser reads other fields that have changed.
    void recheck() { check(false); }
    // Applies typed text now if some is waiting for the pause (Enter does this).
    void applyPending();
    bool hasPendingEdit() const { return m_pending; } // typed text not applied yet (the pause has not passed)

    std::optional<std::int64_t> value() const { return m_value; } // nullopt while the text is invalid
    std::optional<double> realValue() const { return m_real; }    // a real field's number, nullopt while invalid
    bool valid() const { return m_realParser ? m_real.has_value() : m_value.has_value(); }
    QString errorText() const;                                     // empty while valid
    QString text() const;
    QLineEdit* lineEdit() const { return m_edit; }
    QLabel* messageLabel() const { return m_message; }

    // Off: the message is not shown under the field, for an owner that shows it in a row of its own
    // (the launch bar, where a field is too narrow for a sentence). The field is still marked.
    void setShowsMessage(bool shows);

    // Marks the field invalid for a reason found outside it (static + dynamic over the opt-in limit),
    // or clears such a mark with an empty message. The value stays as typed.
    void setExternalError(const QString& message);

signals:
    void valueEdited(qint64 value);     // apply: a valid value typed and confirmed (Enter, focus out, pause) or stepped
    void realValueEdited(double value); // the same, for a real field
    void validityChanged(bool valid);   // the text turned valid or invalid (at once, as typed)
    void textChecked();                 // the text was checked (each keystroke): owners rebuild their error lines

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override; // restyles the mark on a palette switch

private:
    void check(bool apply); // apply: emit valueEdited too, when valid
    void typed();
    void emitEdited();
    void showState();

    QLineEdit* m_edit = nullptr;
    QLabel* m_message = nullptr;
    QTimer* m_pause = nullptr;
    bool m_pending = false;
    Parser m_parser;
    RealParser m_realParser;
    Formatter m_formatter;
    std::int64_t m_step = 1, m_minimum = 0, m_maximum = 0;
    std::optional<std::int64_t> m_value;
    std::optional<double> m_real;
    QString m_parseError;
    QString m_externalError;
    bool m_showsMessage = true;
};

// Parsers in the links' style for fields that count things: an integer in [min, max], written plainly,
// with thousands separators ("100,000") or with the links' units K (1024) and M (1024 K) when `units`;
// the message names `what` and the range ("n: 20M is out of range (allowed: 16..10,000,000 ...)"),
// worded as every field words it (util/input_wording.h).
ValidatedField::Parser countParser(QString what, std::int64_t min, std::int64_t max, bool units = true);
// A real number in [min, max] ("1e5", "65536"); the message names `what` and the range as `rangeText`.
ValidatedField::RealParser realParser(QString what, double min, double max, QString rangeText);
// The same, read once: for a field whose value the owner reads from its text.
double parseRealInRange(const QString& typed, const QString& what, double min, double max, const QString& rangeText);

} // namespace warpscope::viz
