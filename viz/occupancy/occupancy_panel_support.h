// Helpers the occupancy explorer's two files share: occupancy_panel.cpp (results, plots, hover) and
// occupancy_panel_layout.cpp (building and arranging its widgets). Not for other views.
#pragma once

#include "occupancy/occupancy_sweep.h"

#include <QSharedPointer>
#include <QString>

#include <cstdint>
#include <string_view>
#include <vector>

class QCPAxisTickerFixed;
class QCustomPlot;
class QMouseEvent;

namespace warpscope::viz::occupancy_panel_support {

QString toQString(std::string_view text);
QString carveoutText(std::int64_t percent);                 // "default" for the driver's choice (-1)
QSharedPointer<QCPAxisTickerFixed> fixedTicker(double step); // ticks at multiples of step
// The sweep point nearest to the mouse along x; nullptr when outside the axis rect or empty.
const occupancy::SweepPoint* pointUnderMouse(QCustomPlot* plot, const std::vector<occupancy::SweepPoint>& points,
                                             double xScale, QMouseEvent* event);

} // namespace warpscope::viz::occupancy_panel_support
