// The range of a number format on a log scale of |value|: where values flush to zero, the subnormal
// and normal ranges, and where they overflow (to inf, to NaN, or saturating), with the landmarks
// labelled and the current value marked. The scale and regions (FormatRange) are plain data, kept
// apart from the painting.
#pragma once

#include "numerics/number_format.h"

#include <QWidget>

#include <string>
#include <vector>

namespace warpscope::viz {

struct RangeLandmark {
    std::string name; // "min subnormal", "min normal", "max"; integers: "step", "max"
    double value = 0; // from numerics: minSubnormal, minNormal, maxFinite (integers: 1, intMax)
};

enum class RangeRegionKind { ToZero, Subnormal, Normal, Integers, Overflow };

struct RangeRegion {
    RangeRegionKind kind = RangeRegionKind::Normal;
    double from = 0, to = 0;  // magnitudes; the outer regions run to the ends of the bar
    std::string label;        // short, drawn inside the bar when it fits
    std::string explanation;  // a sentence with the exact thresholds, for the tooltip
};

struct FormatRange {
    numerics::Format format = numerics::Format::FP16;
    double log2Min = 0, log2Max = 0; // the bar spans 2^log2Min .. 2^log2Max
    std::vector<RangeLandmark> landmarks;
    std::vector<RangeRegion> regions; // left to right

    // x of a magnitude on a bar from `left` to `right` (clamped to the ends; 0 at the left end).
    double xFor(double magnitude, double left, double right) const;
    double magnitudeAt(double x, double left, double right) const;
    const RangeRegion* regionAt(double magnitude) const;
    const RangeLandmark* landmark(const std::string& name) const;
};

// The landmarks and regions of a format; rounding thresholds (half a step past the maximum, half the
// smallest subnormal) come from numerics' own neighbours and landmarks.
FormatRange formatRange(numerics::Format format, numerics::Overflow overflow);

class FormatRangeBar : public QWidget {
    Q_OBJECT
public:
    explicit FormatRangeBar(QWidget* parent = nullptr);

    void setFormat(numerics::Format format, numerics::Overflow overflow);
    void setValue(double value); // the marked value (NaN: no marker)
    const FormatRange& range() const { return m_range; }
    double value() const { return m_value; }
    QRectF barRect() const; // where the bar is drawn, in widget coordinates

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override; // tooltips: the region and magnitude under the mouse

private:
    FormatRange m_range;
    double m_value = 0;
};

} // namespace warpscope::viz
