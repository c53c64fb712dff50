// Internal to core/numerics: the MLP's layer kernels, templated on a rounding policy from
// half_rounding.h. They model a Tensor Core GEMM in reduced precision: the inputs arrive already in
// the format, products are accumulated in FP32 (in a fixed order: the sum runs over the reduction
// index first to last, so results are reproducible), and each output is rounded to the format once.
// Inner loops run over contiguous outputs, which compilers vectorise without reordering any sum.
#pragma once

#include "numerics/mlp.h"

#include <algorithm>
#include <cstddef>

namespace warpscope::numerics::mlp_kernels {

// Row helpers. Each runs its work in blocks of 8 with restrict pointers so that GCC's default -O2
// vectoriser (the "very cheap" cost model, which wants a known trip count and no alias checks) turns
// them into SIMD; every element is still computed on its own, in the same order: vectorising changes
// nothing in the results.

// dst[k] += a * src[k]
inline void addScaled(float* __restrict dst, const float* __restrict src, float a, int n)
{
    int k = 0;
    for (; k + 8 <= n; k += 8)
        for (int j = 0; j < 8; ++j)
            dst[k + j] += a * src[k + j];
    for (; k < n; ++k)
        dst[k] += a * src[k];
}

// dst[k] += src[k]
inline void addRow(float* __restrict dst, const float* __restrict src, int n)
{
    int k = 0;
    for (; k + 8 <= n; k += 8)
        for (int j = 0; j < 8; ++j)
            dst[k + j] += src[k + j];
    for (; k < n; ++k)
        dst[k] += src[k];
}

// dst[k] = round(dst[k] + add[k])
template <class Round>
void addAndRound(float* __restrict dst, const float* __restrict add, int n, Round round)
{
    int k = 0;
    for (; k + 8 <= n; k += 8)
        for (int j = 0; j < 8; ++j)
            dst[k + j] = round(dst[k + j] + add[k + j]);
    for (; k < n; ++k)
        dst[k] = round(dst[k] + add[k]);
}

// dst[k] = round(src[k])
template <class Round>
void roundCopy(float* __restrict dst, const float* __restrict src, std::size_t n, Round round)
{
    std::size_t k = 0;
    for (; k + 8 <= n; k += 8)
        for (std::size_t j = 0; j < 8; ++j)
            dst[k + j] = round(src[k + j]);
    for (; k < n; ++k)
        dst[k] = round(src[k]);
}

// values[k] = round(values[k])
template <class Round>
void roundInPlace(float* __restrict values, std::size_t n, Round round)
{
    std::size_t k = 0;
    for (; k + 8 <= n; k += 8)
        for (std::size_t j = 0; j < 8; ++j)
            values[k + j] = round(values[k + j]);
    for (; k < n; ++k)
        values[k] = round(values[k]);
}

// weightsT[i][o] = weights[o][i]
inline void transpose(const float* weights, int outputs, int inputs, float* weightsT)
{
    for (int o = 0; o < outputs; ++o)
        for (int i = 0; i < inputs; ++i)
            weightsT[static_cast<std::size_t>(i) * outputs + o] = weights[static_cast<std::size_t>(o) * inputs + i];
}

// out[b][o] = round(sum_i in[b][i] * weightsT[i][o] + bias[o]): bias added in FP32 before the one
// rounding, as cuBLASLt's bias epilogue does.
template <class Round>
void linearForward(const float* in, int batch, int inputs, const float* weightsT, const float* bias, int outputs,
                   float* out, Round round)
{
    for (int b = 0; b < batch; ++b) {
        float* row = out + static_cast<std::size_t>(b) * outputs;
        const float* x = in + static_cast<std::size_t>(b) * inputs;
        std::fill(row, row + outputs, 0.0f);
        for (int i = 0; i < inputs; ++i)
            addScaled(row, weightsT + static_cast<std::size_t>(i) * outputs, x[i], outputs);
        addAndRound(row, bias, outputs, round);
    }
}

// ReLU in place; NaN stays NaN (as torch.relu), so a poisoned model shows NaN rather than zeros.
inline void reluInPlace(float* __restrict values, std::size_t count)
{
    for (std::size_t k = 0; k < count; ++k)
        values[k] = values[k] < 0.0f ? 0.0f : values[k];
}

// dWeights[o][i] = round(sum_b dOut[b][o] * in[b][i]) and dBias[o] = round(sum_b dOut[b][o]),
// summed over the batch first to last.
template <class Round>
void linearWeightGrad(const float* dOut, const float* in, int batch, int inputs, int outputs, float* dWeights,
                      float* dBias, Round round)
{
    const std::size_t count = static_cast<std::size_t>(outputs) * inputs;
    std::fill(dWeights, dWeights + count, 0.0f);
    std::fill(dBias, dBias + outputs, 0.0f);
    for (int b = 0; b < batch; ++b) {
        const float* g = dOut + static_cast<std::size_t>(b) * outputs;
        const float* x = in + static_cast<std::size_t>(b) * inputs;
        for (int o = 0; o < outputs; ++o)
            addScaled(dWeights + static_cast<std::size_t>(o) * inputs, x, g[o], inputs);
        addRow(dBias, g, outputs);
    }
    roundInPlace(dWeights, count, round);
    roundInPlace(dBias, static_cast<std::size_t>(outputs), round);
}

// dIn[b][i] = round(sum_o dOut[b][o] * weights[o][i]), then the ReLU's backward: zero where the
// layer's input (the previous ReLU's output) was not positive, as torch's threshold_backward.
template <class Round>
void linearInputGrad(const float* dOut, int batch, int outputs, const float* weights, int inputs,
                     const float* reluOutput, float* dIn, Round round)
{
    for (int b = 0; b < batch; ++b) {
        float* row = dIn + static_cast<std::size_t>(b) * inputs;
        const float* g = dOut + static_cast<std::size_t>(b) * outputs;
        const float* a = reluOutput + static_cast<std::size_t>(b) * inputs;
        std::fill(row, row + inputs, 0.0f);
        for (int o = 0; o < outputs; ++o)
            addScaled(row, weights + static_cast<std::size_t>(o) * inputs, g[o], inputs);
        roundInPlace(row, static_cast<std::size_t>(inputs), round);
        for (int i = 0; i < inputs; ++i)
            row[i] = a[i] > 0.0f ? row[i] : 0.0f;
    }
}

// Softmax cross-entropy of one sample in FP32 (autocast runs it in FP32 whatever the logits' format):
// writes the probabilities, returns -log p[label]. The max is subtracted first, as log_softmax does.
inline float softmaxCrossEntropy(const float* logits, int classes, int label, float* probabilities)
{
    float largest = logits[0];
    for (int c = 1; c < classes; ++c)
        largest = logits[c] > largest ? logits[c] : largest;
    float sum = 0.0f;
    for (int c = 0; c < classes; ++c) {
        probabilities[c] = portableExpf(logits[c] - largest);
        sum += probabilities[c];
    }
    for (int c = 0; c < classes; ++c)
        probabilities[c] /= sum;
    return portableLogf(sum) - (logits[label] - largest);
}

} // namespace warpscope::numerics::mlp_kernels
