// One value stored in a number format: the bits, the value kept, the error, and what happened to it
// (exact, rounded, pushed into the subnormals, flushed to zero, overflow to infinity or NaN,
// saturated). The format explorer's table and `warpscope numerics convert` both report this.
#pragma once

#include "numerics/number_format.h"

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::numerics {

enum class StoreOutcome : std::uint8_t {
    Exact,            // the format holds the value itself
    Rounded,          // to the nearest representable value, ties to even
    RoundedSubnormal, // rounded into the subnormal range: fewer significant bits
    FlushedToZero,    // non-zero, but at most half the smallest subnormal: stored as (signed) zero
    OverflowInfinity, // past the largest finite value: infinity (PyTorch's cast)
    OverflowNaN,      // past the largest finite value in a format without infinity (E4M3): NaN
    Saturated,        // past the largest finite value (or infinite): clamped to the end of the range on
                      // its side (__NV_SATFINITE; integers always clamp: UINT8 -1 becomes 0)
    InfinityKept,     // infinity in, infinity out
    NaNKept,          // NaN in, NaN out
    NaNToZero,        // NaN into an integer format: 0
};

struct StoredValue {
    Format format = Format::FP32;
    std::uint32_t bits = 0;  // as numerics::encode returns them (TF32: its FP32 word)
    double stored = 0;       // numerics::decode(format, bits)
    double error = 0;        // stored - value: inf when an overflow made it infinite, NaN when undefined
    double relativeError = 0; // |error| / |value|; NaN for a zero or non-finite value
    StoreOutcome outcome = StoreOutcome::Exact;
};

StoredValue storeIn(Format format, double value, Overflow overflow);
// Every format of numerics::allFormats(), in its order (FP32, TF32, FP16, BF16, FP8 E4M3, FP8 E5M2,
// INT8, UINT8, INT4).
std::vector<StoredValue> storeInEveryFormat(double value, Overflow overflow);


// A few words for the outcome ("rounded", "overflow to infinity", ...). A saturation names the end of
// the range it clamped to: "saturated to the smallest value, 0" for UINT8 -1, not "the largest".
std::string storeOutcomeWords(const StoredValue& stored);

} // namespace warpscope::numerics
