// Runtime CPU feature dispatch. The addon is compiled for the baseline ISA of the
// target (x86-64 SSE2 / arm64 NEON); faster paths are picked here at load time, so one
// binary is correct on every CPU of its architecture.
#pragma once

namespace lab {

enum class Isa { kGeneric = 0, kAvx2 = 1, kAvx512 = 2 };

// Best ISA this CPU and OS support, lowered by LAB_NATIVE_ISA=generic|avx2 (for tests).
Isa active_isa();
// The best the CPU supports, ignoring the override.
Isa detected_isa();
const char* isa_name(Isa isa);
// What the generic path is on this architecture ("neon", "sse2", "scalar").
const char* generic_flavor();

}  // namespace lab
