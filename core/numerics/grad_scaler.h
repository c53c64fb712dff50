// Dynamic loss scaling as PyTorch's GradScaler does it (torch/amp/grad_scaler.py, and the CPU kernels
// _amp_foreach_non_finite_check_and_unscale_cpu_kernel and _amp_update_scale_cpu_kernel in
// aten/src/ATen/native/cpu/AmpGradScalerKernels.cpp). One training iteration, in PyTorch's order:
//   1. scaled = loss * scale                      scaler.scale(loss): the scale is an FP32 tensor
//   2. backward of `scaled`                      gradients come out multiplied by the scale
//   3. inv = float(1 / double(scale))            unscale_: the reciprocal taken in FP64
//      found_inf = any gradient not finite;      every gradient checked, then multiplied by inv
//      g = g * inv                                in FP32 (left alone when inv == 1)
//   4. optimizer.step() only if !found_inf        scaler.step: a skipped step leaves the weights
//   5. update(found_inf):                         scaler.update -> _amp_update_scale_
//        found_inf: scale *= backoff_factor, growth tracker = 0
//        else:      tracker + 1; when it reaches growth_interval, scale *= growth_factor (kept only
//                   if still finite in FP32) and the tracker returns to 0
#pragma once

#include <cstdint>
#include <span>

namespace warpscope::numerics {

struct GradScalerOptions {
    float initScale = 65536.0f;  // 2^16, PyTorch's default init_scale
    double growthFactor = 2.0;   // growth_factor
    double backoffFactor = 0.5;  // backoff_factor
    int growthInterval = 2000;   // growth_interval: clean steps in a row before the scale grows
};

class GradScaler {
public:
    // Throws std::invalid_argument as PyTorch asserts: growth factor > 1, backoff < 1, interval >= 1.
    explicit GradScaler(const GradScalerOptions& options = {});

    float scale() const { return m_scale; }                // the current scale (FP32, as PyTorch keeps it)
    int growthTracker() const { return m_growthTracker; }  // consecutive clean steps since the last change
    float inverseScale() const;                            // float(1.0 / double(scale)), as unscale_ computes it

    // Step 3: unscales the gradients in place; returns true if any was inf or NaN (they are still
    // multiplied, as PyTorch does: the step that follows is skipped anyway).
    bool unscale(std::span<float> gradients) const;

    // Step 5, after the (possibly skipped) optimizer step.
    void update(bool foundInf);

private:
    GradScalerOptions m_options;
    float m_scale;
    int m_growthTracker = 0;
};

} // namespace warpscope::numerics
