// Single-precision matrix multiply for TF.js BatchMatMul / _FusedMatMul.
#pragma once

namespace lab {

// For b in [0, batch): C[b] = op(A[b % batchA]) * op(B[b % batchB]), all row-major and dense.
// op(A) is M x K (A is stored K x M when transA); op(B) is K x N (stored N x K when transB).
// The modulo matches TF.js's own batch broadcasting (one side's batch is 1 or equal).
void sgemm_batched(const float* A, const float* B, float* C, long batch, long batchA, long batchB,
                   long M, long N, long K, bool transA, bool transB);

// Name of the micro-kernel in use ("avx512f", "avx2+fma", "sse2", "neon", "scalar").
const char* gemm_isa_name();

}  // namespace lab
