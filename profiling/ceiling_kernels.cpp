#include "ceiling_kernels.h"

#include <sstream>

namespace warpscope::probe {

std::string fmaPeakPtx()
{
    std::ostringstream p;
    p << ".version 7.0\n.target sm_70\n.address_size 64\n\n"
      << ".visible .entry " << kFmaPeakEntry << "(\n  .param .u64 out,\n  .param .u32 iterations\n)\n{\n"
      << "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .f32 %a<" << kFmaChains << ">;\n"
      << "  .reg .f32 %m;\n  .reg .f32 %c;\n  .reg .f32 %s;\n  .reg .b64 %rd<4>;\n\n"
      << "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n"
      << "  mad.lo.s32 %r4, %r2, %r3, %r1;\n"
      << "  mov.f32 %m, 0f3F7FFFEF;\n"   // 0.999999
      << "  mov.f32 %c, 0f358637BD;\n";  // 0.000001
    for (int i = 0; i < kFmaChains; ++i)
        p << "  cvt.rn.f32.u32 %a" << i << ", %r1;\n  add.f32 %a" << i << ", %a" << i << ", 0f3F800000;\n"
          << (i > 0 ? "  mul.f32 %a" + std::to_string(i) + ", %a" + std::to_string(i) + ", 0f3F000000;\n" : "");
    p << "  ld.param.u32 %r5, [iterations];\n  setp.eq.u32 %p1, %r5, 0;\n  @%p1 bra DONE;\n"
      << "LOOP:\n";
    for (int u = 0; u < kFmaUnroll; ++u)
        for (int i = 0; i < kFmaChains; ++i)
            p << "  fma.rn.f32 %a" << i << ", %a" << i << ", %m, %c;\n";
    p << "  sub.u32 %r5, %r5, 1;\n  setp.ne.u32 %p1, %r5, 0;\n  @%p1 bra LOOP;\n"
      << "DONE:\n  mov.f32 %s, %a0;\n";
    for (int i = 1; i < kFmaChains; ++i)
        p << "  add.f32 %s, %s, %a" << i << ";\n";
    p << "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd2, %rd1;\n  mul.wide.u32 %rd3, %r4, 4;\n"
      << "  add.u64 %rd2, %rd2, %rd3;\n  st.global.f32 [%rd2], %s;\n  ret;\n}\n";
    return p.str();
}

std::uint64_t fmaPeakFlops(std::uint64_t threads, std::uint32_t iterations)
{
    return threads * iterations * static_cast<std::uint64_t>(kFmaChains) * kFmaUnroll * 2;
}

std::string atomicContentionPtx()
{
    std::ostringstream p;
    p << ".version 7.0\n.target sm_70\n.address_size 64\n\n"
      << ".visible .entry " << kAtomicContentionEntry << "(\n  .param .u64 counter,\n  .param .u32 iterations\n)\n{\n"
      << "  .reg .pred %p<2>;\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<3>;\n\n"
      << "  ld.param.u64 %rd1, [counter];\n  cvta.to.global.u64 %rd2, %rd1;\n"
      << "  ld.param.u32 %r1, [iterations];\n  setp.eq.u32 %p1, %r1, 0;\n  @%p1 bra DONE;\n"
      << "LOOP:\n  red.global.add.u32 [%rd2], 1;\n"
      << "  sub.u32 %r1, %r1, 1;\n  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra LOOP;\n"
      << "DONE:\n  ret;\n}\n";
    return p.str();
}

} // namespace warpscope::probe
