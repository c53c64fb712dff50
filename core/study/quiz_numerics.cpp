// Questions on number formats, mixed precision, quantization and sparsity. Stored values come from
// the bit-exact format code, loss scales from the GradScaler that follows PyTorch's, grids from the
// quantizer, and sparse storage from the 2:4 compressor.
#include "study/quiz_bank.h"

#include "numerics/grad_scaler.h"
#include "numerics/number_format.h"
#include "numerics/quant_theory.h"
#include "numerics/quantizer.h"
#include "numerics/sparsity.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::study::bank {
namespace {

using numerics::Format;
using std::to_string;

std::string formatName(Format format) { return std::string(numerics::formatInfo(format).name); }

// Half the gap from `stored` to its upper neighbour: an answer closer than that names `stored`.
double halfGapAbove(Format format, double stored)
{
    const std::uint32_t bits = numerics::encode(format, std::fabs(stored));
    const auto up = numerics::nextUp(format, bits);
    const double above = up ? numerics::decode(format, *up) : std::fabs(stored) * 2;
    return std::fabs(above - std::fabs(stored)) / 2;
}

// "What does FORMAT store for x": right when the answer names the stored value, not the input.
QuizItem storedValue(QuizRng& rng, Format format, const std::vector<double>& values)
{
    const double x = rng.pick(values);
    const double stored = numerics::roundTo(format, x);
    QuizItem item;
    item.prompt = "What value does " + formatName(format) + " store for " + formatNumber(x, 8) +
                  " (round to nearest, ties to even)? Give enough digits to tell it from its neighbours.";
    double tolerance = halfGapAbove(format, stored) * 0.999;
    if (stored != x)
        tolerance = std::min(tolerance, std::fabs(x - stored) / 2);
    setNumber(item, stored, tolerance, "");
    item.expectedText = formatNumber(stored, 12) + " (" + numerics::hexBits(format, numerics::encode(format, x)) + ")";
    item.explanation = formatName(format) + " keeps " + to_string(numerics::formatInfo(format).mantissaBits) + " mantissa bits, so " +
                       formatNumber(x, 8) + " becomes " + formatNumber(stored, 12) + ", an error of " + formatNumber(stored - x, 3) + ".";
    item.figureLink = "warpscope:formats?format=" + std::string(numerics::formatInfo(format).key) + "&value=" + linkNumber(x);
    item.source = "numerics::roundTo (bit-exact, IEEE 754 / OCP OFP8)";
    return item;
}

QuizItem fp16Stored(QuizRng& rng)
{
    return storedValue(rng, Format::FP16, {0.1, 0.2, 0.3, 0.7, 3.14159, 1000.1, 2049, 4097, 65519, 1e-5, 3e-8, 2.5e-8});
}

QuizItem bf16Stored(QuizRng& rng) { return storedValue(rng, Format::BF16, {0.1, 0.3, 3.14159, 257, 1000.1, 65519, 1e-5, 1e-30}); }

QuizItem e4m3Stored(QuizRng& rng) { return storedValue(rng, Format::FP8E4M3, {0.3, 3.14159, 17, 100, 300, 450, 0.01}); }

const std::vector<Format>& floatFormats()
{
    static const std::vector<Format> formats = {Format::FP32, Format::TF32, Format::FP16, Format::BF16, Format::FP8E4M3, Format::FP8E5M2};
    return formats;
}

QuizItem maxFinite(QuizRng& rng)
{
    const Format format = rng.pick(floatFormats());
    const double max = numerics::maxFinite(format);
    QuizItem item;
    item.prompt = "What is the largest finite value of " + formatName(format) + "? (Four significant digits are enough.)";
    setNumber(item, max, max * 5e-4, "");
    item.explanation = "All exponent bits but the reserved pattern and a full mantissa give " + formatNumber(max, 6) +
                       (format == Format::BF16 ? " (0x7F7F); 3.4e38 already rounds to inf." :
                        format == Format::FP8E4M3 ? ": E4M3 has no infinity and keeps S.1111.111 for NaN." : ".");
    item.figureLink = "warpscope:formats?format=" + std::string(numerics::formatInfo(format).key) + "&value=" + linkNumber(max);
    item.source = "numerics::maxFinite";
    return item;
}

QuizItem spacingAtOne(QuizRng& rng)
{
    const Format format = rng.pick(floatFormats());
    const std::uint32_t one = numerics::encode(format, 1.0);
    const double gap = numerics::decode(format, *numerics::nextUp(format, one)) - 1.0;
    QuizItem item;
    item.prompt = "What is the gap between 1 and the next larger " + formatName(format) + " value (machine epsilon)?";
    setNumber(item, gap, gap * 1e-3, "");
    item.explanation = "2^-" + to_string(numerics::formatInfo(format).mantissaBits) + " = " + formatNumber(gap, 6) +
                       ": one unit in the last of its " + to_string(numerics::formatInfo(format).mantissaBits) + " mantissa bits.";
    item.figureLink = "warpscope:formats?format=" + std::string(numerics::formatInfo(format).key) + "&value=1";
    item.source = "numerics::nextUp";
    return item;
}

QuizItem minSubnormal(QuizRng& rng)
{
    const Format format = rng.pick(std::vector<Format>{Format::FP16, Format::BF16, Format::FP8E4M3, Format::FP8E5M2});
    const double value = numerics::minSubnormal(format);
    const numerics::FormatInfo& info = numerics::formatInfo(format);
    QuizItem item;
    item.prompt = "What is the smallest positive (subnormal) value of " + formatName(format) + "?";
    setNumber(item, value, value * 5e-3, "");
    item.explanation = "Subnormals have exponent 1 - bias = " + to_string(1 - info.bias) + " and no leading 1: the smallest is 2^(" +
                       to_string(1 - info.bias) + " - " + to_string(info.mantissaBits) + ") = 2^" + to_string(1 - info.bias - info.mantissaBits) +
                       " = " + formatNumber(value, 4) + ".";
    item.figureLink = "warpscope:formats?format=" + std::string(info.key) + "&value=" + linkNumber(value);
    item.source = "numerics::minSubnormal";
    return item;
}

QuizItem overflowThreshold(QuizRng& rng)
{
    const bool fp16 = rng.uniform(0, 1) == 0;
    const Format format = fp16 ? Format::FP16 : Format::FP8E4M3;
    const std::vector<double> candidates = fp16 ? std::vector<double>{65504, 65519, 65520, 65535} : std::vector<double>{448, 450, 464, 465};
    double first = 0;
    for (double c : candidates)
        if (!std::isfinite(numerics::roundTo(format, c))) {
            first = c;
            break;
        }
    std::vector<std::string> wrong;
    for (double c : candidates)
        if (c != first)
            wrong.push_back(formatNumber(c));
    QuizItem item;
    item.prompt = "Cast to " + formatName(format) + " as PyTorch does (no saturation), which is the smallest of these values that becomes " +
                  (fp16 ? "infinity" : "NaN") + "?";
    setChoices(item, rng, formatNumber(first), wrong);
    item.explanation = fp16 ? "Values round to 65504 until they reach the midpoint 65520 between 65504 and the next step (65536): 65519 still "
                              "rounds down, 65520 goes to inf."
                            : "E4M3's largest value is 448 and the next step would be 480; 464 is the midpoint and ties to the even 448, "
                              "so only values above 464 become NaN.";
    item.figureLink = "warpscope:formats?format=" + std::string(numerics::formatInfo(format).key) + "&value=" + linkNumber(first);
    item.source = "numerics::roundTo";
    return item;
}

QuizItem bf16NoScaling(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "Why does BF16 training usually need no loss scaling, while FP16 does?";
    setChoices(item, rng, "BF16 has FP32's 8 exponent bits, so it has nearly FP32's range and small gradients do not underflow",
               {"BF16 keeps more mantissa bits than FP16", "BF16 values are rounded up, never down",
                "Converting FP32 to BF16 keeps the top 16 bits, which is exact"});
    item.explanation = "Range comes from the exponent: BF16's smallest normal is FP32's, about 1.2e-38 (its subnormals stop near 9.2e-41), "
                       "while FP16's stops at 6.1e-5 (subnormals to 6e-8). BF16 has fewer mantissa bits than FP16 (7 against 10).";
    item.figureLink = "warpscope:formats?format=bf16&value=1e-30";
    item.source = "numerics::formatInfo; Micikevicius et al., Mixed Precision Training, 2018";
    return item;
}

QuizItem exponentBits(QuizRng& rng)
{
    const Format format = rng.pick(floatFormats());
    const numerics::FormatInfo& info = numerics::formatInfo(format);
    QuizItem item;
    item.prompt = "How many exponent bits does " + formatName(format) + " have?";
    setNumber(item, info.exponentBits, 0, "bits");
    item.explanation = std::string(info.name) + ": 1 sign bit, " + to_string(info.exponentBits) + " exponent bits (bias " + to_string(info.bias) +
                       ") and " + to_string(info.mantissaBits) + " mantissa bits.";
    item.figureLink = "warpscope:formats?format=" + std::string(info.key) + "&value=1";
    item.source = "numerics::formatInfo (" + std::string(info.source) + ")";
    return item;
}

QuizItem integerCast(QuizRng& rng)
{
    const Format format = rng.pick(std::vector<Format>{Format::UINT8, Format::INT8, Format::INT4});
    const double x = rng.pick(std::vector<double>{-1, 300, 127.5, 3.7, -200, 2.5, 9});
    const double stored = numerics::roundTo(format, x);
    QuizItem item;
    item.prompt = "What does " + formatName(format) + " store for " + formatNumber(x) + " (round to nearest even, saturating)?";
    setNumber(item, stored, 0, "");
    const numerics::FormatInfo& info = numerics::formatInfo(format);
    item.explanation = "The range is " + to_string(info.intMin) + ".." + to_string(info.intMax) + ": " + formatNumber(x) + " becomes " +
                       formatNumber(stored) + (stored != std::nearbyint(x) ? " (clamped to the range)." : ".");
    item.figureLink = "warpscope:formats?format=" + std::string(info.key) + "&value=" + linkNumber(x);
    item.source = "numerics::roundTo";
    return item;
}

// --- mixed precision --------------------------------------------------------------------------

QuizItem scaleAfter(QuizRng& rng)
{
    numerics::GradScalerOptions options;
    options.growthInterval = rng.pick(std::vector<int>{2, 3, 4, 5, 10});
    numerics::GradScaler scaler(options);
    const int before = rng.uniform(0, 25), after = rng.uniform(0, 25);
    const int overflows = rng.uniform(0, 2);
    for (int i = 0; i < before; ++i)
        scaler.update(false);
    for (int i = 0; i < overflows; ++i)
        scaler.update(true);
    for (int i = 0; i < after; ++i)
        scaler.update(false);
    QuizItem item;
    item.prompt = "A GradScaler starts at 65536 with growth_interval " + to_string(options.growthInterval) + " (growth 2, backoff 0.5). It sees " +
                  to_string(before) + " clean steps, then " + to_string(overflows) + " step" + (overflows == 1 ? "" : "s") +
                  " with an inf gradient, then " + to_string(after) + " clean steps. What is the scale now?";
    setNumber(item, scaler.scale(), 0, "");
    item.explanation = "Each run of " + to_string(options.growthInterval) + " clean steps doubles the scale; an inf halves it and resets "
                       "the count of clean steps. The result is " + formatNumber(scaler.scale()) + ".";
    item.figureLink = "warpscope:amp?modes=fp32,fp16-dynamic&steps=1000&growth=20&seed=1";
    item.source = "numerics::GradScaler (follows PyTorch's _amp_update_scale_)";
    return item;
}

QuizItem unscaledGradient(QuizRng& rng)
{
    return storedValue(rng, Format::FP16, {1e-8, 2.5e-8, 3e-8, 4e-8, 1e-7, 7e-5, 6e-5});
}

QuizItem onInf(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "What does PyTorch's GradScaler do when a step's gradients contain inf or NaN?";
    setChoices(item, rng, "It skips the optimizer step and halves the scale",
               {"It clips the gradients to 65504 and steps", "It doubles the scale and retries the step", "It stops training with an error"});
    item.explanation = "scaler.step() skips optimizer.step() when unscale_ found a non-finite gradient, and scaler.update() multiplies the "
                       "scale by backoff_factor (0.5).";
    item.figureLink = "warpscope:amp?modes=fp32,fp16-dynamic&steps=1000&growth=20&seed=1";
    item.source = "numerics::GradScaler; PyTorch torch/amp/grad_scaler.py";
    return item;
}

QuizItem scalerDefaults(QuizRng& rng)
{
    const numerics::GradScalerOptions defaults;
    const bool interval = rng.uniform(0, 1) == 0;
    QuizItem item;
    item.prompt = interval ? "What is PyTorch GradScaler's default growth_interval (clean steps before the scale doubles)?"
                           : "What is PyTorch GradScaler's default init_scale?";
    setNumber(item, interval ? defaults.growthInterval : defaults.initScale, 0, interval ? "steps" : "");
    item.explanation = "init_scale = 2^16 = 65536, growth_factor = 2, backoff_factor = 0.5, growth_interval = 2000.";
    item.source = "numerics::GradScalerOptions; PyTorch torch/amp/grad_scaler.py";
    return item;
}

QuizItem stepsToOverflow(QuizRng& rng)
{
    numerics::GradScalerOptions options;
    options.growthInterval = rng.pick(std::vector<int>{10, 20, 25, 50});
    const double largest = rng.pick(std::vector<double>{0.5, 0.05, 0.01, 2e-3});
    numerics::GradScaler scaler(options);
    int step = 0;
    while (step < 100000 && std::isfinite(numerics::roundTo(Format::FP16, largest * scaler.scale()))) {
        scaler.update(false);
        ++step;
    }
    QuizItem item;
    item.prompt = "The largest gradient is always " + formatNumber(largest) + ". A GradScaler starts at 65536 with growth_interval " +
                  to_string(options.growthInterval) + ". At which step (counting from 0) does the scaled gradient first overflow FP16?";
    setNumber(item, step, 0, "");
    item.explanation = "The scale doubles every " + to_string(options.growthInterval) + " clean steps; the scaled gradient overflows once it "
                       "reaches 65520, at scale " + formatNumber(scaler.scale()) + ", step " + to_string(step) + ". PyTorch's default "
                       "interval of 2000 would take 2000 steps per doubling.";
    item.figureLink = "warpscope:amp?modes=fp32,fp16-dynamic&steps=1000&growth=20&seed=1";
    item.source = "numerics::GradScaler and numerics::roundTo";
    return item;
}

// --- quantization -----------------------------------------------------------------------------

QuizItem int8Scale(QuizRng& rng)
{
    const double clip = rng.pick(std::vector<double>{1.0, 2.54, 3.81, 6.35, 0.127, 12.7});
    const numerics::QuantParams params = numerics::quantParams({-clip, clip}, Format::INT8, numerics::QuantScheme::Symmetric);
    QuizItem item;
    item.prompt = "Symmetric INT8 quantization with a clip of " + formatNumber(clip) + ": what is the scale (the value of one integer step)?";
    setNumber(item, params.scale, params.scale * 1e-3, "");
    item.explanation = "scale = clip / 127 = " + formatNumber(params.scale, 6) + " (the narrow grid -127..127 keeps zero exact and the grid symmetric).";
    item.figureLink = "warpscope:quant?dist=gaussian&format=int8&scheme=symmetric&granularity=tensor&calib=max&n=100000&seed=1";
    item.source = "numerics::quantParams";
    return item;
}

QuizItem fakeQuant(QuizRng& rng)
{
    const double clip = rng.pick(std::vector<double>{1.0, 2.0, 4.0});
    const Format format = rng.pick(std::vector<Format>{Format::INT8, Format::INT4});
    const double x = rng.pick(std::vector<double>{0.3, -0.77, 1.234, 0.05, 5.0});
    const numerics::QuantParams params = numerics::quantParams({-clip, clip}, format, numerics::QuantScheme::Symmetric);
    const double result = numerics::fakeQuantize(x, params, format);
    QuizItem item;
    item.prompt = "Symmetric " + formatName(format) + " with clip " + formatNumber(clip) + ": what does " + formatNumber(x) +
                  " become after quantizing and dequantizing?";
    setNumber(item, result, std::max(params.scale * 1e-3, 1e-9), "");
    item.explanation = "q = clamp(round(x / s), " + to_string(params.qMin) + ", " + to_string(params.qMax) + ") with s = " + formatNumber(params.scale, 5) +
                       "; x' = q s = " + formatNumber(result, 6) + ".";
    item.figureLink = "warpscope:quant?dist=gaussian&format=" + std::string(numerics::formatInfo(format).key) +
                      "&scheme=symmetric&granularity=tensor&calib=max&n=100000&seed=1";
    item.source = "numerics::fakeQuantize";
    return item;
}

QuizItem zeroPoint(QuizRng& rng)
{
    const double low = -rng.pick(std::vector<double>{0.5, 1, 0.2, 3}), high = rng.pick(std::vector<double>{2, 6, 1, 10});
    const numerics::QuantParams params = numerics::quantParams({low, high}, Format::INT8, numerics::QuantScheme::Asymmetric);
    QuizItem item;
    item.prompt = "Asymmetric 8-bit quantization (codes 0..255) of values in [" + formatNumber(low) + ", " + formatNumber(high) +
                  "]: what is the zero point (the code that stands for 0)?";
    setNumber(item, static_cast<double>(params.zeroPoint), 0, "");
    item.explanation = "scale = (high - low) / 255 = " + formatNumber(params.scale, 5) + "; zero point = round(-low / scale) = " +
                       to_string(params.zeroPoint) + ".";
    item.figureLink = "warpscope:quant?dist=mlp-activations&format=int8&scheme=asymmetric&granularity=tensor&calib=max&layer=1";
    item.source = "numerics::quantParams";
    return item;
}

QuizItem gaussianSqnr(QuizRng& rng)
{
    const int bits = rng.pick(std::vector<int>{4, 8});
    const double clip = numerics::gaussianMseOptimalClip(bits);
    const double sqnr = 10 * std::log10(1.0 / numerics::gaussianQuantMse(bits, clip));
    QuizItem item;
    item.prompt = "Unit-variance Gaussian values, symmetric " + to_string(bits) + "-bit quantization with the MSE-optimal clip (" +
                  formatNumber(clip, 4) + " sigma). Predict the SQNR in dB.";
    setNumber(item, sqnr, 0.1, "dB");
    item.explanation = "SQNR = 10 log10(signal / noise) = 10 log10(1 / MSE) = " + formatNumber(sqnr, 4) + " dB.";
    item.figureLink = "warpscope:quant?dist=gaussian&format=int" + to_string(bits) + "&scheme=symmetric&granularity=tensor&calib=mse&n=100000&seed=1";
    item.source = "numerics::gaussianQuantMse (exact integral over the Gaussian)";
    return item;
}

QuizItem decibelsPerBit(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "For a signal that fills the grid, what does one more bit of a uniform quantizer add to the SQNR?";
    setChoices(item, rng, "About 6.02 dB: the step halves, the noise power falls by 4",
               {"About 3 dB", "About 10 dB", "Nothing once the clip is fixed"});
    item.explanation = "Noise power is step^2 / 12; halving the step divides it by 4, and 10 log10 4 = 6.02 dB.";
    item.source = "Widrow and Kollar, Quantization Noise, 2008";
    return item;
}

QuizItem outliers(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "A few activation channels of a large language model have values 100 times larger than the rest. What keeps INT8 accurate?";
    setChoices(item, rng, "Finer scales (per channel or per group), or keeping the outlier channels in 16-bit as LLM.int8() does",
               {"A larger per-tensor clip", "Asymmetric quantization of the whole tensor", "Fewer bits"});
    item.explanation = "One scale per tensor stretches the grid over the outliers and leaves a few levels for everything else; "
                       "LLM.int8() (Dettmers et al. 2022) multiplies outlier features in FP16, GPTQ and AWQ quantize weights per group.";
    item.figureLink = "warpscope:quant?dist=outliers&format=int8&scheme=symmetric&granularity=tensor&calib=max&n=100000&seed=1";
    item.source = "Dettmers et al., LLM.int8(), 2022; Frantar et al., GPTQ, 2023; Lin et al., AWQ, 2024";
    return item;
}

// --- sparsity ---------------------------------------------------------------------------------

QuizItem sparseBytes(QuizRng& rng)
{
    const int rows = rng.pick(std::vector<int>{8, 16, 32, 64});
    const int columns = rng.pick(std::vector<int>{16, 32, 64});
    std::vector<float> weights(static_cast<std::size_t>(rows * columns));
    for (float& w : weights)
        w = static_cast<float>(rng.uniform(-1000, 1000)) / 1000.0f;
    const numerics::SparseStorage storage = numerics::fp16Storage(numerics::pruneTwoFour(weights, rows, columns));
    QuizItem item;
    item.prompt = "A " + to_string(rows) + " x " + to_string(columns) + " FP16 weight matrix is pruned to 2:4 and compressed. How many bytes "
                  "does it take (kept values plus 2-bit metadata)?";
    setNumber(item, static_cast<double>(storage.compressedBytes()), 0, "bytes");
    item.explanation = "Half the values stay: " + to_string(storage.valueBytes) + " bytes; each kept value has a 2-bit index: " +
                       to_string(storage.metadataBytes) + " bytes. " + to_string(storage.compressedBytes()) + " of " + to_string(storage.denseBytes) +
                       " dense bytes (9/16).";
    item.figureLink = "warpscope:sparsity?layer=1";
    item.source = "numerics::fp16Storage (NVIDIA A100 whitepaper, Sparse Tensor Cores)";
    return item;
}

QuizItem tf32Sparsity(QuizRng& rng)
{
    QuizItem item;
    item.prompt = "Sparse Tensor Cores use 2:4 sparsity for FP16, BF16 and INT8. What pattern do they use for TF32?";
    setChoices(item, rng, "1:2 (one of every two values kept)", {"2:4 as well", "4:8", "TF32 has no sparse mode"});
    item.explanation = "TF32 elements are 32 bits wide; their structured pattern keeps one of every two, 1:2, where the 16-bit and 8-bit "
                       "types keep two of every four.";
    item.figureLink = "warpscope:sparsity?layer=1";
    item.source = "cuSPARSELt documentation: structured sparsity patterns (TF32: 1:2)";
    return item;
}

QuizItem mxScale(QuizRng& rng)
{
    // OCP MX v1.0: a block's E8M0 scale is 2^(floor(log2(amax)) - emax), emax the exponent of the
    // element format's largest power of two (E2M1: 4 = 2^2; E4M3: 256 = 2^8).
    const double amax = rng.pick(std::vector<double>{0.3, 1.7, 5.3, 13, 100, 2500});
    const bool fp4 = rng.uniform(0, 1) == 1;
    const int emax = fp4 ? 2 : 8;
    const int exponent = static_cast<int>(std::floor(std::log2(amax))) - emax;
    QuizItem item;
    item.prompt = "An MX block of " + std::string(fp4 ? "E2M1 (FP4)" : "FP8 E4M3") + " elements has largest magnitude " + formatNumber(amax) +
                  ". Its shared E8M0 scale is 2^k. What is k?";
    setNumber(item, exponent, 0, "");
    item.explanation = "k = floor(log2(" + formatNumber(amax) + ")) - " + std::to_string(emax) + " = " +
                       std::to_string(static_cast<int>(std::floor(std::log2(amax)))) + " - " + std::to_string(emax) + " = " +
                       std::to_string(exponent) + ": the largest element then lies between " + (fp4 ? "4 and 8" : "256 and 512") +
                       " times the scale, and values above the format's largest (" + (fp4 ? "6" : "448") + ") clamp.";
    item.source = "OCP Microscaling Formats (MX) Specification v1.0 (2023): the scale rule";
    item.lessonLink = "warpscope:lesson?id=microscaling";
    return item;
}

QuizItem blockBits(QuizRng& rng)
{
    struct Block { const char* name; int elementBits, blockSize, scaleBits; };
    const Block block = rng.pick(std::vector<Block>{{"MXFP8", 8, 32, 8}, {"MXFP6", 6, 32, 8}, {"MXFP4", 4, 32, 8}, {"NVFP4", 4, 16, 8}});
    const double bits = block.elementBits + static_cast<double>(block.scaleBits) / block.blockSize;
    QuizItem item;
    item.prompt = std::string(block.name) + " stores " + std::to_string(block.elementBits) + "-bit elements in blocks of " +
                  std::to_string(block.blockSize) + " that share one " + std::to_string(block.scaleBits) +
                  "-bit scale. How many bits does each element cost, counting its share of the scale?";
    setNumber(item, bits, 0, "bits");
    item.explanation = std::to_string(block.elementBits) + " + " + std::to_string(block.scaleBits) + "/" + std::to_string(block.blockSize) +
                       " = " + formatNumber(bits) + " bits" +
                       (std::string(block.name) == "NVFP4" ? "; its one FP32 scale per tensor adds nothing per element." : ".");
    item.source = "OCP MX Specification v1.0 (32-element blocks, E8M0 scale); NVIDIA, Introducing NVFP4 (16-element blocks, E4M3 scale), 2025";
    item.lessonLink = "warpscope:lesson?id=microscaling";
    return item;
}

} // namespace

void addNumericsQuestions(std::vector<Question>& bank)
{
    using K = QuestionKind;
    const std::vector<Question> questions = {
        {"formats.fp16-stored", "formats", K::Predict, "The FP16 value stored", true, fp16Stored},
        {"formats.bf16-stored", "formats", K::Predict, "The BF16 value stored", true, bf16Stored},
        {"formats.e4m3-stored", "formats", K::Predict, "The FP8 E4M3 value stored", true, e4m3Stored},
        {"formats.max-finite", "formats", K::Numeric, "The largest finite value", true, maxFinite},
        {"formats.epsilon", "formats", K::Numeric, "The gap above 1", true, spacingAtOne},
        {"formats.min-subnormal", "formats", K::Numeric, "The smallest subnormal", true, minSubnormal},
        {"formats.overflow", "formats", K::Choice, "Where overflow starts", true, overflowThreshold},
        {"formats.exponent-bits", "formats", K::Numeric, "Exponent bits", true, exponentBits},
        {"formats.integer-cast", "formats", K::Numeric, "Casting to an integer format", true, integerCast},
        {"mixed-precision.bf16-no-scaling", "mixed-precision", K::Choice, "Why BF16 needs no loss scaling", false, bf16NoScaling},
        {"mixed-precision.scale-after", "mixed-precision", K::Numeric, "The loss scale after some steps", true, scaleAfter},
        {"mixed-precision.gradient-underflow", "mixed-precision", K::Predict, "A small gradient in FP16", true, unscaledGradient},
        {"mixed-precision.on-inf", "mixed-precision", K::Choice, "What GradScaler does on inf", false, onInf},
        {"mixed-precision.defaults", "mixed-precision", K::Numeric, "GradScaler's defaults", true, scalerDefaults},
        {"mixed-precision.first-overflow", "mixed-precision", K::Predict, "When the growing scale first overflows", true, stepsToOverflow},
        {"quantization.int8-scale", "quantization", K::Numeric, "The scale of symmetric INT8", true, int8Scale},
        {"quantization.fake-quantize", "quantization", K::Predict, "A value after quantization", true, fakeQuant},
        {"quantization.zero-point", "quantization", K::Numeric, "The zero point of asymmetric INT8", true, zeroPoint},
        {"quantization.gaussian-sqnr", "quantization", K::Predict, "SQNR of a Gaussian", true, gaussianSqnr},
        {"quantization.db-per-bit", "quantization", K::Choice, "What one more bit buys", false, decibelsPerBit},
        {"quantization.outliers", "quantization", K::Choice, "Handling activation outliers", false, outliers},
        {"microscaling.mx-scale", "microscaling", K::Numeric, "An MX block's power-of-two scale", true, mxScale},
        {"microscaling.block-bits", "microscaling", K::Numeric, "Bits per element of a block-scaled format", true, blockBits},
        {"sparsity.bytes", "sparsity", K::Numeric, "Bytes of a 2:4-compressed matrix", true, sparseBytes},
        {"sparsity.tf32", "sparsity", K::Choice, "The TF32 sparsity pattern", false, tf32Sparsity},
    };
    bank.insert(bank.end(), questions.begin(), questions.end());
}

} // namespace warpscope::study::bank
