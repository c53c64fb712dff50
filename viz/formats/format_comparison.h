// The words for what storing a value in a number format did (numerics/stored_value.h classifies it):
// the comparison table of the format explorer. Qt-free.
#pragma once

#include "numerics/stored_value.h"

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::viz {

// What storing did (numerics/stored_value.h): the explorer's table uses the core's classification.
using numerics::StoredValue;
using numerics::StoreOutcome;
using numerics::storeIn;
using numerics::storeInEveryFormat;

// "rounded to nearest (ties to even)", "overflow to infinity", ...: short, for a table cell.
std::string outcomeText(const StoredValue& stored);
// A sentence on what the outcome means for this format, for a tooltip.
std::string outcomeExplanation(const StoredValue& stored);

} // namespace warpscope::viz
