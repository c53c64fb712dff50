#include "window/view_help.h"

namespace warpscope::app {

ViewHelp viewHelp(HelpTopic topic)
{
    auto help = [topic](const char* view, const char* text, const char* lesson, const char* tryFirst) {
        return ViewHelp{topic, QString::fromUtf8(view), QString::fromUtf8(text), QString::fromUtf8(lesson),
                        QString::fromUtf8(tryFirst)};
    };
    switch (topic) {
    case HelpTopic::Lessons:
        return help("Lessons",
                    "The lessons, one per topic, in the order they build on each other. A link in a lesson "
                    "(warpscope:...) sets up the figure it talks about in the view beside it. Ctrl+PgUp and "
                    "Ctrl+PgDown move to the previous and next lesson; Ctrl+K searches every lesson.",
                    "",
                    "Open “Threads, warps, blocks and grids” and click its first link; scroll to a section and watch "
                    "its figure set itself up. View > Pin Layout (Ctrl+Shift+L) keeps your own arrangement.");
    case HelpTopic::Hierarchy:
        return help("Hierarchy",
                    "One launch as the GPU sees it: the grid's blocks, each block's warps, each warp's 32 lanes. "
                    "Each row inside a block is one warp; lanes alternate in shade with threadIdx.y + "
                    "threadIdx.z, so the rows of a 2-D block show where they fall in a warp. Crossed lanes are "
                    "idle: the block's last warp is partial, yet it still takes a whole warp slot. Set the grid "
                    "and block in the bar above (Ctrl+L, Ctrl+Z to undo); hover a lane for its indices, click to select it.",
                    "hierarchy",
                    "Type 100 in Block and press Enter: the block's last warp has 4 lanes and 28 crossed, idle ones. "
                    "Then hover a lane of it.");
    case HelpTopic::Placement:
        return help("Placement on SMs",
                    "The launch's blocks handed to the SMs of the chosen GPU, wave by wave: as many blocks per SM "
                    "as the occupancy explorer computes, then the next wave. The last wave's empty slots are idle "
                    "SMs. The order blocks go to SMs is a model, as the overlay says.",
                    "hierarchy",
                    "Set the grid to 529 blocks of 512 threads on sm_90 (Ctrl+L): the second wave holds one block, "
                    "and 131 SMs wait for it.");
    case HelpTopic::Execution:
        return help("Execution: step through a kernel",
                    "The simulator runs one block of a demo kernel, or the CUDA C++ you type, warp by warp, and "
                    "records it; then you step forwards and backwards by instruction (F11), source line (F10), "
                    "barrier (F9), memory access (F8), divergence (F7) or hazard (F6), Shift going back. The "
                    "canvas shows the warps, their active masks, the reconvergence stack, registers and the "
                    "current memory access; Ctrl+Shift+M switches it to the memory hierarchy.",
                    "stepping",
                    "Open divergence_odd_even, follow warp 1 and press F7 (next divergence): the mask splits into "
                    "0x55555555 and 0xaaaaaaaa, and the stack shows who runs first.");
    case HelpTopic::ExecutionMemory:
        return help("Memory hierarchy (Execution view)",
                    "One SM, its L1/shared memory, the L2 and DRAM with their capacities and latencies, and the "
                    "current instruction's 32-byte sectors travelling to the level that served them; under it the "
                    "launch's bytes per level, beside an open profile session's, and the latency-hiding "
                    "timeline. Ctrl+Shift+M goes back to the warps.",
                    "memory",
                    "Step to copy_strided's first load with F8: 8 sectors for 128 bytes requested. Compare "
                    "copy_coalesced, which needs 4.");
    case HelpTopic::Details:
        return help("Details",
                    "The launch in numbers (blocks, warps, threads, blocks per SM and waves) and the lane selected "
                    "in the hierarchy: its blockIdx, threadIdx, global thread id, warp and lane.",
                    "hierarchy",
                    "Click a lane in the hierarchy: its blockIdx, threadIdx, global id, warp and lane appear here.");
    case HelpTopic::Occupancy:
        return help("Occupancy explorer",
                    "Theoretical occupancy for a GPU preset, a block size, registers per thread, shared memory "
                    "and barriers, computed as the CUDA toolkit's occupancy calculator does, with every limiter "
                    "and what would raise it. The plots show how occupancy moves as one input varies. A field "
                    "with a bad value is marked with its allowed range and the figure keeps the last valid "
                    "inputs. Edit > Undo (Ctrl+Z) and Redo (Ctrl+Shift+Z) step through the changes, with the launch.",
                    "occupancy",
                    "On sm_90 with 96 threads per block, raise the registers per thread from 32 to 40: occupancy "
                    "falls from 98.44 % to 75 %. Read the limiter line, then try the change it suggests.");
    case HelpTopic::ProfileMetrics:
        return help("Profile: metrics",
                    "Every value the profiler measured for each kernel, with its ncu metric name, in sections: time "
                    "and clocks, memory, compute, occupancy. Type in the filter box to keep the rows whose name, ncu "
                    "name or section holds the text; hover a row for what it measures (the ncu name in full) and a "
                    "value for its exact figure. Sessions "
                    "recorded on an NVIDIA H200 open from File > Open Recorded Session without a GPU.",
                    "memory",
                    "File > Open Recorded Session > the H200's demo kernels, then type ‘dram’ in the filter box.");
    case HelpTopic::ProfileBandwidth:
        return help("Profile: bandwidth",
                    "Each kernel's DRAM and L2 bandwidth as bars against the bandwidth the probe measured on the "
                    "same GPU, with the datasheet figure dashed, and what the ratio means.",
                    "memory",
                    "Open the H200's copy ladder (File > Open Recorded Session) and compare copy_strided's bar with "
                    "copy_coalesced's.");
    case HelpTopic::ProfileRoofline:
        return help("Profile: roofline",
                    "The hierarchical roofline: each kernel's FP32 FLOP/s against its FLOP per byte moved at L1, "
                    "L2 and DRAM, under each level's bandwidth roof and the FP32 roof. Kernels or levels without "
                    "a point are listed under the plot with the reason.",
                    "roofline",
                    "Open the H200's matmul ladder and find the rung that moves right, towards the ridge, as the "
                    "tiling removes DRAM traffic.");
    case HelpTopic::ProfilePrediction:
        return help("Profile: predicted vs measured",
                    "What the simulator predicted for the same kernel and launch (sectors per request, shared "
                    "wavefronts and bank conflicts, branch uniformity, FP32 work, occupancy) beside what the "
                    "GPU's counters measured; where they differ by design the row says why.",
                    "stepping",
                    "Open the H200's demo kernels and read the rows marked as differing by design: each says why PTX "
                    "and SASS part.");
    case HelpTopic::ProfileSession:
        return help("Profile: session",
                    "Where the session came from: the GPU, its clocks, driver and CUDA versions, how it was "
                    "measured, the ceilings and memory ladder measured on it, the kernels and their launches, "
                    "and every problem the probe or the reader reported.",
                    "memory",
                    "Check the clocks and the driver of a recorded session before you compare its times with "
                    "another.");
    case HelpTopic::Formats:
        return help("Number formats",
                    "One value stored in every format at once (FP32, TF32, FP16, BF16, FP8, INT8, UINT8, INT4) "
                    "with what each keeps and loses, and inside one format a toggle per bit, its decoded value, "
                    "its neighbours and its range.",
                    "precision",
                    "Type 0.1 as the value: FP16 keeps 0.0999755859375 and BF16 0.10009765625. Then toggle FP16's "
                    "top exponent bit.");
    case HelpTopic::MixedPrecision:
        return help("Mixed-precision trainer",
                    "A small model trained side by side in FP32, FP16 without and with loss scaling, and BF16: "
                    "the loss curves, the loss scale with its skipped steps, and where the gradients fall against "
                    "FP16's range.",
                    "precision",
                    "Run FP32, FP16 and BF16 for 1000 steps: FP16 without loss scaling ends at a higher loss; the "
                    "histogram shows why.");
    case HelpTopic::Quantization:
        return help("Quantization lab",
                    "Values quantized to INT8, INT4 or FP8 with a scheme, a granularity and a calibrator: the "
                    "histogram with the quantization grid and clip bounds, the error, SQNR per format and "
                    "calibrator, and the model's accuracy after post-training quantization.",
                    "quantization",
                    "Quantize the Gaussian data to INT4 with the max calibrator, then switch to mse and watch the "
                    "SQNR rise.");
    case HelpTopic::Sparsity:
        return help("2:4 sparsity",
                    "The model pruned to 2 of every 4 weights and fine-tuned: one layer's pattern with its "
                    "metadata, the bytes saved, and the accuracy before pruning, after it and after the "
                    "fine-tune.",
                    "quantization",
                    "Look at layer 1's pattern: every group of 4 keeps 2 weights, and 2 bits per kept weight say "
                    "which.");
    case HelpTopic::Study:
        return help("Study",
                    "Practice questions whose numbers the engine draws and grades, flashcards that come back "
                    "when they are due, and an advisor that says which topic to study next. Each question names the "
                    "lesson that explains it (Open the Lesson).",
                    "",
                    "Start a practice quiz (Ctrl+Shift+Q) on the lesson you just read; a wrong answer shows the "
                    "worked steps.");
    case HelpTopic::Streams:
        return help("Performance models: streams",
                    "Copy and compute overlapped across CUDA streams: the serial timeline against the chunked "
                    "one, per copy engine, with the speedup.",
                    "streams",
                    "With copies of 4 ms, a 6 ms kernel and two copy engines (the streams lesson's example), raise "
                    "chunks from 1 to 4: 14 ms becomes 8 ms. Then try one engine.");
    case HelpTopic::Pipeline:
        return help("Performance models: pipeline",
                    "The GPipe schedule for P stages and M micro-batches, with the idle bubble shaded and its "
                    "share beside (P-1)/(M+P-1).",
                    "multi-gpu",
                    "With 4 stages, raise the micro-batches from 1 to 16 and watch the shaded bubble shrink.");
    case HelpTopic::MemoryBudget:
        return help("Performance models: memory budget",
                    "The memory one GPU needs to train a model (weights, gradients, optimizer states, "
                    "activations) with ZeRO stages, against the capacities of A100, H100 and H200.",
                    "training-memory",
                    "Train a 7e9-parameter model with Adam in mixed precision on one GPU, then set ZeRO stage 3 over "
                    "8 GPUs.");
    case HelpTopic::AllReduce:
        return help("Performance models: all-reduce",
                    "The ring all-reduce step by step: each GPU's chunks, how many contributions each holds, the "
                    "transfers of the step, and its time over each link.",
                    "multi-gpu",
                    "Step through 4 GPUs with Play: after 3 steps each GPU holds one chunk summed from all four.");
    }
    return help("Warpscope", "", "", "");
}

} // namespace warpscope::app
