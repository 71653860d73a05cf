// GEMM driver: packing (which also absorbs transposes), cache blocking and threading.
// The arithmetic lives in the per-ISA micro-kernels (gemm_kernel.inc).
#include "gemm.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

#include "cpu_features.h"
#include "gemm_isa.h"
#include "thread_pool.h"

namespace lab {
namespace {

const GemmIsa* pick_isa() {
#if defined(__x86_64__) && defined(__GNUC__)
  switch (active_isa()) {
    case Isa::kAvx512: return gemm_isa_avx512();
    case Isa::kAvx2: return gemm_isa_avx2();
    default: break;
  }
#endif
  return gemm_isa_generic();
}

// Per-thread packing buffers, grown on demand and kept: allocation per call would cost
// more than packing small matrices. thread_local (not indexed by pool slot) because
// several JS threads (worker_threads) may each call in as the pool's "caller".
struct Scratch {
  float* p = nullptr;
  size_t cap = 0;
  float* get(size_t n) {
    if (n > cap) {
      std::free(p);
      size_t bytes = ((n * sizeof(float) + 63) / 64) * 64;
      p = static_cast<float*>(std::aligned_alloc(64, bytes));
      cap = n;
    }
    return p;
  }
  ~Scratch() { std::free(p); }
};
thread_local Scratch t_pack_a, t_pack_b;

// Packs rows [0, m) x depth [0, kc) of a matrix whose element (i, k) is src[i*rs + k*cs]
// into strips of `mr` rows, k-major inside a strip (dst[strip][k][i]); pads with zeros.
// Used for A (rows = M) and, with rows = N, for B (element (k, j) read as (j, k)).
void pack(float* dst, const float* src, long m, long kc, long rs, long cs, int mr) {
  for (long i0 = 0; i0 < m; i0 += mr) {
    int rows = m - i0 < mr ? (int)(m - i0) : mr;
    float* d = dst + i0 * kc;
    const float* s = src + i0 * rs;
    if (rs == 1) {
      // Rows are contiguous per k: copy runs of `rows` floats.
      for (long k = 0; k < kc; k++) {
        std::memcpy(d + k * mr, s + k * cs, rows * sizeof(float));
        for (int i = rows; i < mr; i++) d[k * mr + i] = 0.f;
      }
    } else {
      for (int i = 0; i < rows; i++) {
        const float* si = s + i * rs;
        if (cs == 1)
          for (long k = 0; k < kc; k++) d[k * mr + i] = si[k];
        else
          for (long k = 0; k < kc; k++) d[k * mr + i] = si[k * cs];
      }
      for (int i = rows; i < mr; i++)
        for (long k = 0; k < kc; k++) d[k * mr + i] = 0.f;
    }
  }
}

struct Job {
  const GemmIsa* isa;
  const float *A, *B;
  float* C;
  long M, N, K, batchA, batchB;
  long rsA, csA, rsB, csB;  // op(A)(i,k) = A[i*rsA + k*csA]; op(B)(k,j) = B[k*rsB + j*csB]
  long mc, nc, tilesM, tilesN;
  // When set, every B was packed up front (see sgemm_batched): batch item bb, k-block at
  // k0, strip at column j lives at prepacked + bb*K*npad + k0*npad + j*kc.
  float* prepacked;
  long npad;
};

// Packs all of op(B) for one (batch item, k-block): tasks of the pre-pass.
void prepack_task(void* p, long t, int) {
  const Job& j = *static_cast<const Job*>(p);
  long kblocks = (j.K + j.isa->kc - 1) / j.isa->kc;
  long bb = t / kblocks, k0 = (t % kblocks) * j.isa->kc;
  long kc = j.K - k0 < j.isa->kc ? j.K - k0 : j.isa->kc;
  pack(j.prepacked + bb * j.K * j.npad + k0 * j.npad, j.B + bb * j.K * j.N + k0 * j.rsB, j.N, kc,
       j.csB, j.rsB, j.isa->nr);
}

Scratch g_prepacked;     // shared pre-packed B, guarded by g_prepack_mu
std::mutex g_prepack_mu;  // try-locked: a concurrent JS thread packs per task instead

void run_task(void* p, long t, int) {
  const Job& j = *static_cast<const Job*>(p);
  const GemmIsa& isa = *j.isa;
  long per_batch = j.tilesM * j.tilesN;
  long b = t / per_batch, r = t % per_batch;
  long i0 = (r / j.tilesN) * j.mc, j0 = (r % j.tilesN) * j.nc;
  long m = j.M - i0 < j.mc ? j.M - i0 : j.mc;
  long n = j.N - j0 < j.nc ? j.N - j0 : j.nc;
  const float* A = j.A + (b % j.batchA) * j.M * j.K + i0 * j.rsA;
  const float* B = j.B + (b % j.batchB) * j.K * j.N + j0 * j.csB;
  float* C = j.C + b * j.M * j.N + i0 * j.N + j0;
  if (j.K == 0) {
    for (long i = 0; i < m; i++) std::memset(C + i * j.N, 0, n * sizeof(float));
    return;
  }
  long kc_max = j.K < isa.kc ? j.K : isa.kc;
  float* pa = t_pack_a.get(((m + isa.mr - 1) / isa.mr) * isa.mr * kc_max);
  float* pb = j.prepacked ? nullptr : t_pack_b.get(((n + isa.nr - 1) / isa.nr) * isa.nr * kc_max);
  for (long k0 = 0; k0 < j.K; k0 += isa.kc) {
    long kc = j.K - k0 < isa.kc ? j.K - k0 : isa.kc;
    if (j.prepacked)
      pb = j.prepacked + (b % j.batchB) * j.K * j.npad + k0 * j.npad + j0 * kc;
    else
      pack(pb, B + k0 * j.rsB, n, kc, j.csB, j.rsB, isa.nr);
    pack(pa, A + k0 * j.csA, m, kc, j.rsA, j.csA, isa.mr);
    isa.macro(m, n, kc, pa, pb, C, j.N, k0 > 0);
  }
}

long ceil_div(long a, long b) { return (a + b - 1) / b; }
long round_up(long a, long b) { return ceil_div(a, b) * b; }

}  // namespace

void sgemm_batched(const float* A, const float* B, float* C, long batch, long batchA, long batchB,
                   long M, long N, long K, bool transA, bool transB) {
  if (batch <= 0 || M <= 0 || N <= 0) return;
  static const GemmIsa* isa = pick_isa();
  Job j;
  j.isa = isa;
  j.A = A;
  j.B = B;
  j.C = C;
  j.M = M;
  j.N = N;
  j.K = K;
  j.batchA = batchA > 0 ? batchA : 1;
  j.batchB = batchB > 0 ? batchB : 1;
  j.rsA = transA ? 1 : K;
  j.csA = transA ? M : 1;
  j.rsB = transB ? 1 : N;
  j.csB = transB ? K : 1;
  j.mc = M < isa->mc ? round_up(M, isa->mr) : isa->mc;
  j.nc = N < isa->nc ? round_up(N, isa->nr) : isa->nc;
  // Enough tasks to keep every core busy with some slack for imbalance: split the larger
  // block dimension until there are ~3 tasks per thread (more tasks repack more panels).
  int threads = pool_threads();
  for (int guard = 0; guard < 16; guard++) {
    long tasks = batch * ceil_div(M, j.mc) * ceil_div(N, j.nc);
    if (threads == 1 || tasks >= 3L * threads) break;
    bool can_m = j.mc > isa->mr, can_n = j.nc > isa->nr;
    if (!can_m && !can_n) break;
    if (can_m && (!can_n || j.mc * 2 >= j.nc)) j.mc = round_up(j.mc / 2, isa->mr);
    else j.nc = round_up(j.nc / 2, isa->nr);
  }
  j.tilesM = ceil_div(M, j.mc);
  j.tilesN = ceil_div(N, j.nc);
  long tasks = batch * j.tilesM * j.tilesN;
  double flops_per_task = 2.0 * M * N * (K > 0 ? K : 1) / (double)(j.tilesM * j.tilesN);
  // With several row blocks, every task would repack the same B panel; pack each B once
  // instead (training shapes like 512x128 @ 128x512 spend ~25% in redundant packing).
  // The shared buffer is try-locked; a concurrent caller (another JS thread) packs per task.
  j.prepacked = nullptr;
  j.npad = round_up(N, isa->nr);
  size_t need = (size_t)j.batchB * K * j.npad;
  std::unique_lock<std::mutex> own(g_prepack_mu, std::try_to_lock);
  if (j.tilesM > 1 && K > 0 && own.owns_lock() && need <= (size_t)16 << 20) {
    j.prepacked = g_prepacked.get(need);
    long kblocks = ceil_div(K, isa->kc);
    parallel_for_cost(j.batchB * kblocks, (double)K * N / kblocks, prepack_task, &j);
  }
  parallel_for_cost(tasks, flops_per_task / 8.0, run_task, &j);
}

const char* gemm_isa_name() {
  static const GemmIsa* isa = pick_isa();
  return isa->name;
}

}  // namespace lab
