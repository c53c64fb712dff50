// Internal to the quiz: how the topic files add their questions, and the helpers they share.
#pragma once

#include "gpu/gpu_preset.h"
#include "study/quiz.h"

#include <string>
#include <vector>

namespace warpscope::study::bank {

void addExecutionQuestions(std::vector<Question>& bank); // hierarchy, occupancy, waves, divergence, latency, streams
void addMemoryQuestions(std::vector<Question>& bank);    // coalescing, shared memory, reduction, roofline, tensor cores
void addNumericsQuestions(std::vector<Question>& bank);  // formats, mixed precision, quantization, sparsity
void addTrainingQuestions(std::vector<Question>& bank);  // training memory, multi-GPU, inference
void addSecondCurriculumQuestions(std::vector<Question>& bank); // CUDA graphs, FSDP, serving, fusion, Tensor Cores, MX, Blackwell

// Fills a multiple-choice item: the correct text and the wrong ones, shuffled by `rng`.
void setChoices(QuizItem& item, QuizRng& rng, const std::string& correct, const std::vector<std::string>& wrong);

// Sets a numeric answer: expected value, tolerance, unit and the text shown.
void setNumber(QuizItem& item, double expected, double tolerance, const std::string& unit);

// One of the GPU presets, drawn by `rng`; and its label, "H100 SXM (sm_90)".
gpu::GpuPreset randomPreset(QuizRng& rng);
std::string presetLabel(const gpu::GpuPreset& preset);

std::string percent(double share, int significant = 4); // 0.75 -> "75 %"

// A value as a warpscope: link writes it: the shortest decimal that reads back as the same double,
// with no thousands separators ("65504", "0.1", "3.3895313892515355e+38").
std::string linkNumber(double value);

} // namespace warpscope::study::bank
