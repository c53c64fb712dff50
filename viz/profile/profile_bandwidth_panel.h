// The bandwidth panel: per kernel, the DRAM and L2 bandwidth it achieved as bars against the DRAM
// bandwidth the probe measured on the same GPU (the theoretical value marked dashed), with the
// numbers and a sentence on what the ratio means.
#pragma once

#include <QString>
#include <QWidget>

#include <string>
#include <vector>

class QLabel;
class QVBoxLayout;

namespace warpscope::session {
struct Session;
}

namespace warpscope::viz {

struct BandwidthBar {
    QString level;               // "DRAM" or "L2"
    double achieved = 0;         // bytes/s; NaN when not measured
    double reference = 0;        // bytes/s the ratio is taken against: the measured DRAM peak (0 = none)
    double theoretical = 0;      // bytes/s, the dashed marker (0 = none)
    double baseline = 0;         // the baseline session's achieved value; NaN when there is none
    QString caption;             // the numbers, as shown above the bar
};

struct BandwidthKernel {
    std::string kernel;
    QString label;
    std::vector<BandwidthBar> bars; // empty when the kernel has no counter metrics
    QString meaning;                // what the ratio means for this kernel
};

std::vector<BandwidthKernel> bandwidthModel(const session::Session& current, const session::Session* baseline);

class ProfileBandwidthPanel : public QWidget {
    Q_OBJECT
public:
    explicit ProfileBandwidthPanel(QWidget* parent = nullptr);
    void setSession(const session::Session& current, const session::Session* baseline);
    const std::vector<BandwidthKernel>& model() const { return m_model; }
    QString headerText() const;

private:
    QLabel* m_header = nullptr;
    QWidget* m_rows = nullptr;
    QVBoxLayout* m_rowsLayout = nullptr;
    std::vector<BandwidthKernel> m_model;
};

} // namespace warpscope::viz
