// The flashcard deck: key facts and numbers of every topic, each with its source or the engine call
// that computes it, and a memory hook where one helps. The "key numbers" cards correct the sheets
// learners pass around (shared memory is ~30 cycles on Volta to Hopper, not ~5): their numbers come
// from the GPU presets, the format code, the training models, or cited measurements, and a session
// with a measured memory ladder replaces the published latencies with the learner's own GPU's.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace warpscope::session {
struct HierarchyRecord;
}

namespace warpscope::study {

struct Card {
    std::string id;        // "latency.shared"
    std::string topic;     // a quiz topic key
    std::string front;     // the question side
    std::string back;      // the answer, with the number
    std::string source;    // where the number comes from, or the command that computes it
    std::string hook;      // a memory hook, or ""
    bool keyNumber = false; // part of the key numbers set
    bool measured = false;  // the back comes from the learner's own GPU
};

// The deck, built from the engine's numbers.
const std::vector<Card>& deck();

// The deck with the latency cards replaced by a measured memory ladder (shared, L1, L2, DRAM) where
// the record has them; `gpuName` labels the measurement ("NVIDIA H200").
std::vector<Card> deckWithMeasurements(const session::HierarchyRecord& ladder, std::string_view gpuName);

const Card* findCard(const std::vector<Card>& cards, std::string_view id);

} // namespace warpscope::study
