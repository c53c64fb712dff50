// Copy/compute overlap with CUDA streams, as a model: the work is split into `chunks` equal pieces,
// each copied to the device, computed on and copied back, each piece in its own stream. A copy
// engine moves one transfer at a time, in the order transfers were issued (breadth-first: every
// host-to-device copy, then every kernel, then every device-to-host copy, as the CUDA Best Practices
// Guide's "Overlapping Transfers and Device Computation" issues them); the GPU runs one of these
// kernels at a time (each is assumed to fill it). With two copy engines, one per direction, the three
// stages run as a pipeline and, for equal chunks, the total is
//     (a + c + d) / n + (n - 1) x max(a, c, d) / n
// for host-to-device time a, kernel time c, device-to-host time d and n chunks. With one copy engine
// both directions queue on it. Times are the user's inputs; nothing here is measured.
#pragma once

#include <vector>

namespace warpscope::perf {

enum class StreamStageKind { HostToDevice, Kernel, DeviceToHost };

struct StreamOverlapInput {
    double hostToDeviceSeconds = 0; // the whole transfer, before splitting
    double kernelSeconds = 0;
    double deviceToHostSeconds = 0;
    int chunks = 1;                 // 1..1024
    int copyEngines = 2;            // 1 (both directions share one) or 2 (one per direction)
};

struct StreamStage {
    int chunk = 0;                  // = its stream
    StreamStageKind kind = StreamStageKind::HostToDevice;
    int engine = 0;                 // 0: first copy engine, 1: second copy engine, 2: the SMs
    double start = 0, end = 0;      // seconds from the first issue
};

struct StreamTimeline {
    std::vector<StreamStage> stages; // in issue order
    double serialSeconds = 0;        // one stream, no overlap: a + c + d
    double overlappedSeconds = 0;    // the last stage's end
    double speedup() const { return overlappedSeconds > 0 ? serialSeconds / overlappedSeconds : 0; }
};

// Throws InputError for negative times, chunks outside 1..1024 or engines other than 1 and 2.
StreamTimeline planStreams(const StreamOverlapInput& input);

// The closed form above for two copy engines (the model's total when copyEngines == 2).
double pipelinedSeconds(double hostToDevice, double kernel, double deviceToHost, int chunks);

} // namespace warpscope::perf
