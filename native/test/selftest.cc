// Node-free self-test of the kernels against naive references, for checking other
// architectures (e.g. arm64 NEON under qemu-user) where the addon cannot be loaded:
//   aarch64-linux-gnu-g++ -std=c++17 -O3 -ffp-contract=fast -static -pthread -I../src
//     selftest.cc ../src/{gemm,gemm_isa,cpu_features,thread_pool,ops}.cc -o selftest
//   qemu-aarch64 ./selftest          (LAB_NATIVE_ISA=generic|avx2 to pick an x86 path)
#include <cmath>
#include <cstdio>
#include <vector>

#include "gemm.h"
#include "ops.h"

static unsigned s = 12345;
static float rnd() {
  s = s * 1103515245u + 12345u;
  return ((s >> 8) & 0xffff) / 65536.0f - 0.5f;
}

int main() {
  int bad = 0;
  const long shapes[][4] = {{1, 1, 1, 1}, {1, 3, 5, 7}, {2, 67, 129, 33}, {1, 13, 40, 300}, {3, 25, 70, 9}, {1, 150, 260, 270}};
  for (auto& sh : shapes) {
    long B = sh[0], M = sh[1], N = sh[2], K = sh[3];
    for (int tA = 0; tA < 2; tA++)
      for (int tB = 0; tB < 2; tB++) {
        std::vector<float> a(B * M * K), b(B * K * N), c(B * M * N);
        for (auto& v : a) v = rnd();
        for (auto& v : b) v = rnd();
        lab::sgemm_batched(a.data(), b.data(), c.data(), B, B, B, M, N, K, tA, tB);
        double maxerr = 0;
        for (long q = 0; q < B; q++)
          for (long i = 0; i < M; i++)
            for (long j = 0; j < N; j++) {
              double ref = 0;
              for (long k = 0; k < K; k++)
                ref += (double)(tA ? a[q * M * K + k * M + i] : a[q * M * K + i * K + k]) *
                       (tB ? b[q * K * N + j * K + k] : b[q * K * N + k * N + j]);
              maxerr = std::fmax(maxerr, std::fabs(ref - c[q * M * N + i * N + j]));
            }
        if (!(maxerr < 1e-4)) {
          std::printf("FAIL gemm %ldx%ldx%ldx%ld tA=%d tB=%d err=%g\n", B, M, N, K, tA, tB, maxerr);
          bad++;
        }
      }
  }
  // Broadcast binary op: [3,1,5] * [4,1] -> [3,4,5].
  {
    std::vector<float> a(15), b(4), o(60);
    for (auto& v : a) v = rnd();
    for (auto& v : b) v = rnd();
    lab::Strided st{3, {3, 4, 5}, {5, 0, 1}, {0, 1, 0}};
    lab::binary_op(lab::kMul, a.data(), b.data(), o.data(), st);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 4; j++)
        for (int k = 0; k < 5; k++)
          if (o[i * 20 + j * 5 + k] != a[i * 5 + k] * b[j]) { bad++; std::printf("FAIL binary\n"); i = 3; j = 4; break; }
  }
  // Softmax rows sum to one; reductions.
  {
    std::vector<float> x(7 * 33), y(7 * 33), r(7);
    for (auto& v : x) v = 4 * rnd();
    lab::softmax_rows(x.data(), y.data(), 7, 33);
    lab::reduce_op(lab::kSum, y.data(), r.data(), 7, 33, 1);
    for (float v : r)
      if (std::fabs(v - 1.f) > 1e-5f) { bad++; std::printf("FAIL softmax/sum %g\n", v); break; }
  }
  std::printf("%s: %s\n", bad ? "FAILED" : "ok", lab::gemm_isa_name());
  return bad ? 1 : 0;
}
