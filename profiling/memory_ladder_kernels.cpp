#include "memory_ladder_kernels.h"

#include <algorithm>
#include <random>
#include <sstream>
#include <stdexcept>

namespace warpscope::probe {

namespace {

const char* kHeader = ".version 7.0\n.target sm_70\n.address_size 64\n\n";

// The clocks are read only after the last load's value has been used, so the timed span holds
// every link of the chase and nothing of the warm-up.
void chaseGlobal(std::ostringstream& p, const char* entry, const char* cacheOp)
{
    p << ".visible .entry " << entry << "(\n  .param .u64 chain,\n  .param .u32 warm,\n  .param .u32 steps,\n"
      << "  .param .u64 out\n)\n{\n"
      << "  .reg .pred %p<3>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<10>;\n"
      << "  ld.param.u64 %rd1, [chain];\n  cvta.to.global.u64 %rd1, %rd1;\n"
      << "  ld.param.u32 %r1, [warm];\n  ld.param.u32 %r2, [steps];\n"
      << "  ld.param.u64 %rd2, [out];\n  cvta.to.global.u64 %rd2, %rd2;\n"
      << "  mov.u64 %rd3, 0;\n  setp.eq.u32 %p1, %r1, 0;\n  @%p1 bra WARM_DONE;\n"
      << "WARM:\n  add.u64 %rd4, %rd1, %rd3;\n  ld.global." << cacheOp << ".u64 %rd3, [%rd4];\n"
      << "  sub.u32 %r1, %r1, 1;\n  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra WARM;\n"
      << "WARM_DONE:\n  add.u64 %rd4, %rd1, %rd3;\n"
      << "  mov.u64 %rd5, %clock64;\n  mov.u64 %rd6, %globaltimer;\n"
      << "  setp.eq.u32 %p2, %r2, 0;\n  @%p2 bra TIMED_DONE;\n"
      << "CHASE:\n  ld.global." << cacheOp << ".u64 %rd3, [%rd4];\n  add.u64 %rd4, %rd1, %rd3;\n"
      << "  sub.u32 %r2, %r2, 1;\n  setp.ne.u32 %p2, %r2, 0;\n  @%p2 bra CHASE;\n"
      << "TIMED_DONE:\n  mov.u64 %rd7, %clock64;\n  mov.u64 %rd8, %globaltimer;\n"
      << "  sub.u64 %rd7, %rd7, %rd5;\n  sub.u64 %rd8, %rd8, %rd6;\n"
      << "  st.global.u64 [%rd2], %rd7;\n  st.global.u64 [%rd2+8], %rd8;\n  st.global.u64 [%rd2+16], %rd3;\n"
      << "  ret;\n}\n\n";
}

void chaseShared(std::ostringstream& p)
{
    p << ".visible .entry " << kChaseSharedEntry << "(\n  .param .u64 chain,\n  .param .u32 nodes,\n"
      << "  .param .u32 warm,\n  .param .u32 steps,\n  .param .u64 out\n)\n{\n"
      << "  .reg .pred %p<3>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<10>;\n"
      << "  .shared .align 8 .b8 chase_nodes[8192];\n"
      << "  ld.param.u64 %rd1, [chain];\n  cvta.to.global.u64 %rd1, %rd1;\n"
      << "  ld.param.u32 %r1, [nodes];\n  ld.param.u32 %r2, [warm];\n  ld.param.u32 %r3, [steps];\n"
      << "  ld.param.u64 %rd2, [out];\n  cvta.to.global.u64 %rd2, %rd2;\n"
      << "  mov.u32 %r4, chase_nodes;\n  mov.u32 %r5, 0;\n"
      << "COPY:\n  setp.ge.u32 %p1, %r5, %r1;\n  @%p1 bra COPIED;\n"
      << "  mul.wide.u32 %rd3, %r5, 4;\n  add.u64 %rd4, %rd1, %rd3;\n  ld.global.u32 %r6, [%rd4];\n"
      << "  shl.b32 %r7, %r5, 2;\n  add.u32 %r8, %r4, %r7;\n  st.shared.u32 [%r8], %r6;\n"
      << "  add.u32 %r5, %r5, 1;\n  bra COPY;\n"
      << "COPIED:\n  mov.u32 %r9, 0;\n  setp.eq.u32 %p1, %r2, 0;\n  @%p1 bra WARM_DONE;\n"
      << "WARM:\n  add.u32 %r8, %r4, %r9;\n  ld.shared.u32 %r9, [%r8];\n"
      << "  sub.u32 %r2, %r2, 1;\n  setp.ne.u32 %p1, %r2, 0;\n  @%p1 bra WARM;\n"
      << "WARM_DONE:\n  add.u32 %r8, %r4, %r9;\n"
      << "  mov.u64 %rd5, %clock64;\n  mov.u64 %rd6, %globaltimer;\n"
      << "  setp.eq.u32 %p2, %r3, 0;\n  @%p2 bra TIMED_DONE;\n"
      << "CHASE:\n  ld.shared.u32 %r9, [%r8];\n  add.u32 %r8, %r4, %r9;\n"
      << "  sub.u32 %r3, %r3, 1;\n  setp.ne.u32 %p2, %r3, 0;\n  @%p2 bra CHASE;\n"
      << "TIMED_DONE:\n  mov.u64 %rd7, %clock64;\n  mov.u64 %rd8, %globaltimer;\n"
      << "  sub.u64 %rd7, %rd7, %rd5;\n  sub.u64 %rd8, %rd8, %rd6;\n  cvt.u64.u32 %rd9, %r9;\n"
      << "  st.global.u64 [%rd2], %rd7;\n  st.global.u64 [%rd2+8], %rd8;\n  st.global.u64 [%rd2+16], %rd9;\n"
      << "  ret;\n}\n\n";
}

// Sums the four floats of a vector load into %f1, in order.
const char* kAddVector = "  add.f32 %f1, %f1, %f2;\n  add.f32 %f1, %f1, %f3;\n"
                         "  add.f32 %f1, %f1, %f4;\n  add.f32 %f1, %f1, %f5;\n";

void readGlobal(std::ostringstream& p, const char* entry, const char* cacheOp)
{
    p << ".visible .entry " << entry << "(\n  .param .u64 data,\n  .param .u64 vectors,\n"
      << "  .param .u32 repeats,\n  .param .u64 out\n)\n{\n"
      << "  .reg .pred %p<3>;\n  .reg .b32 %r<8>;\n  .reg .f32 %f<6>;\n  .reg .b64 %rd<12>;\n"
      << "  ld.param.u64 %rd1, [data];\n  cvta.to.global.u64 %rd1, %rd1;\n"
      << "  ld.param.u64 %rd2, [vectors];\n  ld.param.u32 %r1, [repeats];\n"
      << "  ld.param.u64 %rd3, [out];\n  cvta.to.global.u64 %rd3, %rd3;\n"
      << "  mov.u32 %r2, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n  mov.u32 %r5, %nctaid.x;\n"
      << "  mul.wide.u32 %rd4, %r3, %r4;\n  cvt.u64.u32 %rd5, %r2;\n  add.u64 %rd4, %rd4, %rd5;\n"
      << "  mul.wide.u32 %rd6, %r4, %r5;\n  mov.f32 %f1, 0f00000000;\n"
      << "  setp.eq.u32 %p1, %r1, 0;\n  @%p1 bra DONE;\n"
      << "REPEAT:\n  mov.u64 %rd7, %rd4;\n  setp.ge.u64 %p2, %rd7, %rd2;\n  @%p2 bra NEXT;\n"
      << "LOOP:\n  shl.b64 %rd8, %rd7, 4;\n  add.u64 %rd9, %rd1, %rd8;\n"
      << "  ld.global." << cacheOp << ".v4.f32 {%f2, %f3, %f4, %f5}, [%rd9];\n" << kAddVector
      << "  add.u64 %rd7, %rd7, %rd6;\n  setp.lt.u64 %p2, %rd7, %rd2;\n  @%p2 bra LOOP;\n"
      << "NEXT:\n  sub.u32 %r1, %r1, 1;\n  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra REPEAT;\n"
      << "DONE:\n  shl.b64 %rd10, %rd4, 2;\n  add.u64 %rd10, %rd3, %rd10;\n  st.global.f32 [%rd10], %f1;\n"
      << "  ret;\n}\n\n";
}

void readL1(std::ostringstream& p)
{
    p << ".visible .entry " << kReadL1Entry << "(\n  .param .u64 data,\n  .param .u32 vectors,\n"
      << "  .param .u32 repeats,\n  .param .u64 out\n)\n{\n"
      << "  .reg .pred %p<3>;\n  .reg .b32 %r<10>;\n  .reg .f32 %f<6>;\n  .reg .b64 %rd<12>;\n"
      << "  ld.param.u64 %rd1, [data];\n  cvta.to.global.u64 %rd1, %rd1;\n"
      << "  ld.param.u32 %r6, [vectors];\n  ld.param.u32 %r1, [repeats];\n"
      << "  ld.param.u64 %rd3, [out];\n  cvta.to.global.u64 %rd3, %rd3;\n"
      << "  mov.u32 %r2, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n"
      << "  mov.f32 %f1, 0f00000000;\n  setp.eq.u32 %p1, %r1, 0;\n  @%p1 bra DONE;\n"
      << "REPEAT:\n  mov.u32 %r7, %r2;\n  setp.ge.u32 %p2, %r7, %r6;\n  @%p2 bra NEXT;\n"
      << "LOOP:\n  mul.wide.u32 %rd8, %r7, 16;\n  add.u64 %rd9, %rd1, %rd8;\n"
      << "  ld.global.ca.v4.f32 {%f2, %f3, %f4, %f5}, [%rd9];\n" << kAddVector
      << "  add.u32 %r7, %r7, %r4;\n  setp.lt.u32 %p2, %r7, %r6;\n  @%p2 bra LOOP;\n"
      << "NEXT:\n  sub.u32 %r1, %r1, 1;\n  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra REPEAT;\n"
      << "DONE:\n  mad.lo.u32 %r8, %r3, %r4, %r2;\n  mul.wide.u32 %rd10, %r8, 4;\n  add.u64 %rd10, %rd3, %rd10;\n"
      << "  st.global.f32 [%rd10], %f1;\n  ret;\n}\n\n";
}

void readShared(std::ostringstream& p)
{
    const std::uint32_t words = kSharedReadBytes / 4, vectors = kSharedReadBytes / 16;
    p << ".visible .entry " << kReadSharedEntry << "(\n  .param .u32 repeats,\n  .param .u64 out\n)\n{\n"
      << "  .reg .pred %p<3>;\n  .reg .b32 %r<12>;\n  .reg .f32 %f<6>;\n  .reg .b64 %rd<6>;\n"
      << "  .shared .align 16 .b8 read_tile[" << kSharedReadBytes << "];\n"
      << "  ld.param.u32 %r1, [repeats];\n  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n"
      << "  mov.u32 %r2, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n  mov.u32 %r5, read_tile;\n"
      << "  mov.u32 %r6, %r2;\n"
      << "FILL:\n  setp.ge.u32 %p1, %r6, " << words << ";\n  @%p1 bra FILLED;\n"
      << "  and.b32 %r7, %r6, 255;\n  cvt.rn.f32.u32 %f2, %r7;\n"
      << "  shl.b32 %r8, %r6, 2;\n  add.u32 %r8, %r5, %r8;\n  st.shared.f32 [%r8], %f2;\n"
      << "  add.u32 %r6, %r6, %r4;\n  bra FILL;\n"
      << "FILLED:\n  bar.sync 0;\n  mov.f32 %f1, 0f00000000;\n  setp.eq.u32 %p1, %r1, 0;\n  @%p1 bra DONE;\n"
      << "REPEAT:\n  mov.u32 %r6, %r2;\n  setp.ge.u32 %p2, %r6, " << vectors << ";\n  @%p2 bra NEXT;\n"
      << "LOOP:\n  shl.b32 %r8, %r6, 4;\n  add.u32 %r8, %r5, %r8;\n"
      << "  ld.shared.v4.f32 {%f2, %f3, %f4, %f5}, [%r8];\n" << kAddVector
      << "  add.u32 %r6, %r6, %r4;\n  setp.lt.u32 %p2, %r6, " << vectors << ";\n  @%p2 bra LOOP;\n"
      << "NEXT:\n  sub.u32 %r1, %r1, 1;\n  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra REPEAT;\n"
      << "DONE:\n  mad.lo.u32 %r9, %r3, %r4, %r2;\n  mul.wide.u32 %rd2, %r9, 4;\n  add.u64 %rd2, %rd1, %rd2;\n"
      << "  st.global.f32 [%rd2], %f1;\n  ret;\n}\n\n";
}

} // namespace

std::string memoryLadderPtx()
{
    std::ostringstream p;
    p << kHeader;
    chaseGlobal(p, kChaseCaEntry, "ca");
    chaseGlobal(p, kChaseCgEntry, "cg");
    chaseShared(p);
    readGlobal(p, kReadCaEntry, "ca");
    readGlobal(p, kReadCgEntry, "cg");
    readL1(p);
    readShared(p);
    return p.str();
}

std::vector<ChainNode> pointerChain(std::uint64_t footprint, std::uint64_t stride, std::uint32_t seed,
                                    std::uint64_t pageBytes)
{
    if (stride == 0 || stride % 4 != 0)
        throw std::invalid_argument("a chain's stride must be a positive multiple of 4 bytes");
    if (footprint < 2 * stride)
        throw std::invalid_argument("a chain needs at least two nodes");
    const std::uint64_t count = footprint / stride;
    std::vector<std::uint64_t> order(count);
    for (std::uint64_t i = 0; i < count; ++i)
        order[i] = i * stride;
    std::mt19937_64 random(seed);
    if (pageBytes == 0 || pageBytes <= stride) {
        std::shuffle(order.begin() + 1, order.end(), random); // offset 0 stays first
    } else {
        const std::uint64_t perPage = pageBytes / stride;
        for (std::uint64_t first = 0; first < count; first += perPage) {
            const std::uint64_t last = std::min(count, first + perPage);
            std::shuffle(order.begin() + static_cast<std::ptrdiff_t>(first == 0 ? 1 : first),
                         order.begin() + static_cast<std::ptrdiff_t>(last), random);
        }
    }
    std::vector<ChainNode> chain(count);
    for (std::uint64_t i = 0; i < count; ++i)
        chain[i] = {order[i], order[(i + 1) % count]};
    return chain;
}

std::uint64_t walkChain(const std::vector<ChainNode>& chain, std::uint64_t links)
{
    if (chain.empty())
        return 0;
    // The chain is a single cycle in order of `chain`, starting at offset 0.
    return chain[links % chain.size()].offset;
}

} // namespace warpscope::probe
