// The GPipe schedule drawn by the Pipeline tab (Huang et al., "GPipe", NeurIPS 2019; Narayanan et
// al., "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM", SC 2021,
// section 2.2.1), laid out from its rules alone: every stage runs the forward pass of micro-batches
// 1..M in order, then their backward passes in reverse order (M..1); a forward on stage s waits for
// the same micro-batch's forward on stage s-1, a backward for the same micro-batch's backward on
// stage s+1. A forward takes 1 time unit and a backward 2, as the papers draw them. The idle time
// this leaves on the stages is the pipeline bubble; nothing here uses the closed form (P-1)/(M+P-1),
// so tests can check the layout against it. Qt-free.
#pragma once

#include <vector>

namespace warpscope::viz {

inline constexpr int kPipelineForwardUnits = 1;
inline constexpr int kPipelineBackwardUnits = 2;
inline constexpr int kPipelineMaxStages = 16;        // as the pipeline link allows
inline constexpr int kPipelineMaxMicrobatches = 64;

struct PipelineOp {
    int stage = 0;           // 0 .. P-1 (stage 0 holds the first layers)
    int microbatch = 1;      // 1 .. M, as the papers number them
    bool backward = false;
    int start = 0, end = 0;  // time units
};

struct PipelineIdle {
    int stage = 0;
    int start = 0, end = 0;  // a gap in the stage's row: the bubble
};

struct PipelineSchedule {
    int stages = 0, microbatches = 0;
    std::vector<PipelineOp> ops;    // per stage in its run order, stage by stage
    std::vector<PipelineIdle> idle; // every gap in [0, makespan), stage by stage
    int makespan = 0;               // the batch's time: the last op's end
    int busyUnits() const;          // summed over the stages
    int idleUnits() const;          // stages x makespan - busyUnits
    double idleShare() const;       // idleUnits / (stages x makespan): the bubble fraction
};

// Throws InputError for stages outside 1..16 or micro-batches outside 1..64.
PipelineSchedule gpipeSchedule(int stages, int microbatches);

} // namespace warpscope::viz
