// Instantiates the micro-kernel for each instruction set. Only the AVX2 / AVX-512 ones
// carry target attributes; the choice among them happens at run time (cpu_features.cc),
// so the binary never needs -march=native and runs on any CPU of its architecture.
#include "cpu_features.h"
#include "gemm_isa.h"

namespace lab {

// Baseline: SSE2 on x86-64, NEON on arm64 (32 vector registers: a taller tile fits),
// plain scalar code elsewhere (the vector type is lowered by the compiler).
#define KNS k_generic
#define KTARGET
#define KVEC_BYTES 16
#if defined(__aarch64__)
#define KMR 8
#define KNV 3
#else
#define KMR 6
#define KNV 2
#endif
#define KKC 256
#define KMC 120
#define KNC 1024
#define KNAME generic_flavor()
#include "gemm_kernel.inc"
#undef KNS
#undef KTARGET
#undef KVEC_BYTES
#undef KMR
#undef KNV
#undef KKC
#undef KMC
#undef KNC
#undef KNAME

const GemmIsa* gemm_isa_generic() { return &k_generic::isa; }

#if defined(__x86_64__) && defined(__GNUC__)
// AVX2 + FMA: 16 ymm registers -> 6 x 16 tile (12 accumulators, 2 B vectors, 1 broadcast).
#define KNS k_avx2
#define KTARGET __attribute__((target("avx2,fma")))
#define KVEC_BYTES 32
#define KMR 6
#define KNV 2
#define KKC 256
#define KMC 120
#define KNC 1024
#define KNAME "avx2+fma"
#include "gemm_kernel.inc"
#undef KNS
#undef KTARGET
#undef KVEC_BYTES
#undef KMR
#undef KNV
#undef KKC
#undef KMC
#undef KNC
#undef KNAME

// AVX-512F: 32 zmm registers -> 12 x 32 tile (24 accumulators, 2 B vectors, 1 broadcast).
#define KNS k_avx512
#define KTARGET __attribute__((target("avx512f,avx2,fma")))
#define KVEC_BYTES 64
#define KMR 12
#define KNV 2
#define KKC 256
#define KMC 144
#define KNC 1024
#define KNAME "avx512f"
#include "gemm_kernel.inc"

const GemmIsa* gemm_isa_avx2() { return &k_avx2::isa; }
const GemmIsa* gemm_isa_avx512() { return &k_avx512::isa; }
#endif

}  // namespace lab
