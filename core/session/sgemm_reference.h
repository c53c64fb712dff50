// cuBLAS SGEMM as the matrix-multiply ladder's reference rung (issue 11): the probe measures it at
// the ladder's n in the same session (the ceilings record's reference_sgemm_*), and each matmul rung
// is read as a share of it. A rung's rate is the GEMM rate, 2 n^3 FLOP over the median of its timed
// runs, so it compares with cuBLAS's 2 n^3 over its time at the same n. Qt-free: the session page, the
// roofline and `warpscope session show` share it.
#pragma once

#include <limits>
#include <string>
#include <vector>

namespace warpscope::session {

struct Session;

inline constexpr const char* kMatmulLadder = "matmul"; // the ladder whose rungs are read against cuBLAS

struct SgemmReference {
    bool measured = false;             // a rate and an n are in the session
    double flopsPerSecond = 0;         // 2 n^3 over cuBLAS's time (the probe's best of its runs)
    int n = 0;
    std::string method;                // how it was measured, or why it was not, in the probe's words; "" when the session does not say
    std::string status;                // for people: the rate and n, or "not measured: ..." (never a number the session lacks)
};

// The session's reference. `measured` is false for a session without one (recorded before the probe
// measured it, libcublas missing, or no matmul rung run).
SgemmReference sgemmReference(const Session& session);
// Whether the session has a matmul rung or says something about the reference: where the views
// mention the reference at all (a copy-ladder session says nothing of cuBLAS).
bool mentionsSgemmReference(const Session& session);

struct RungAgainstReference {
    std::string kernel;
    int rung = 0;                      // position in the ladder (manifest order)
    int n = 0;                         // its "n" argument; 0 when it has none
    double durationSeconds = std::numeric_limits<double>::quiet_NaN(); // median of the timed runs
    double flopsPerSecond = std::numeric_limits<double>::quiet_NaN();  // 2 n^3 / duration
    double share = std::numeric_limits<double>::quiet_NaN();           // of the reference's rate; NaN when not comparable
    std::string why;                   // when share is NaN: why there is none
};

// Every matmul rung of the session in rung order, with its rate and share of the reference.
std::vector<RungAgainstReference> matmulRungsAgainstReference(const Session& session);
// The rung's "n" argument ("n=i32:4096" or "n=4096"); 0 when it has none or it is not a positive integer.
int matrixSizeArgument(const std::vector<std::string>& args);

} // namespace warpscope::session
