// One register-tiled micro-kernel per instruction set, compiled from gemm_kernel.inc with
// per-function target attributes, so only the one chosen at run time ever executes.
#pragma once

namespace lab {

struct GemmIsa {
  const char* name;
  int mr, nr;      // register tile: mr rows of packed A times nr columns of packed B
  int kc, mc, nc;  // cache blocking: kc-deep slices, mc x kc A block (L2), kc x nc B block
  // C[mc x nc] (+)= packedA (mc x kc, mr-row strips) * packedB (kc x nc, nr-column strips).
  // Overwrites C when !accumulate (first k-slice), adds to it afterwards.
  void (*macro)(long mc, long nc, long kc, const float* pa, const float* pb, float* c, long ldc,
                bool accumulate);
};

const GemmIsa* gemm_isa_generic();
#if defined(__x86_64__) && defined(__GNUC__)
const GemmIsa* gemm_isa_avx2();
const GemmIsa* gemm_isa_avx512();
#endif

}  // namespace lab
