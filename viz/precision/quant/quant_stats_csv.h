// The quantization tab's statistics as CSV (RFC 4180, a header row "quantity,value,unit"): the
// configuration the numbers come from (source, n, seed, rows or layer, shape, format, scheme,
// granularity, calibrator, the slice shown), then SQNR, MSE, max |error|, clipped, and the shown
// slice's clip range, scale and zero point, each at full precision (17 significant digits, which
// read back as the same double) as the engine computed them, not as the panel rounds them.
#pragma once

#include "precision/quant/quant_panel.h"

#include <QString>

namespace warpscope::viz {

QString quantStatsCsv(const QuantLabResult& result);

} // namespace warpscope::viz
