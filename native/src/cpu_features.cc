#include "cpu_features.h"

#include <cstdlib>
#include <cstring>

namespace lab {

Isa detected_isa() {
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
  // __builtin_cpu_supports also checks that the OS saves the wide registers (XCR0).
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return Isa::kAvx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Isa::kAvx2;
#endif
  return Isa::kGeneric;
}

Isa active_isa() {
  static Isa cached = [] {
    Isa best = detected_isa();
    const char* env = std::getenv("LAB_NATIVE_ISA");
    if (!env) return best;
    Isa want = best;
    if (!std::strcmp(env, "generic")) want = Isa::kGeneric;
    else if (!std::strcmp(env, "avx2")) want = Isa::kAvx2;
    else if (!std::strcmp(env, "avx512")) want = Isa::kAvx512;
    return (int)want < (int)best ? want : best;  // can only lower, never enable unsupported code
  }();
  return cached;
}

const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::kAvx512: return "avx512f";
    case Isa::kAvx2: return "avx2+fma";
    default: return generic_flavor();
  }
}

const char* generic_flavor() {
#if defined(__aarch64__) || defined(__ARM_NEON)
  return "neon";
#elif defined(__x86_64__) && defined(__GNUC__)
  return "sse2";
#else
  return "scalar";
#endif
}

}  // namespace lab
