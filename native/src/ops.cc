#include "ops.h"

#include <cmath>
#include <cstring>

#include "thread_pool.h"

namespace lab {
namespace {

// Elements per task. Elementwise kernels are memory-bound: one core nearly saturates
// bandwidth for the tensors of a small transformer, so they only split when large.
constexpr long kGrain = 65536;

// exp for 4 floats at a time (SSE2 on x86-64, NEON on arm64: both baseline), Cephes
// polynomial, ~1 ulp. std::exp is scalar and was most of Softmax's time.
#if defined(__GNUC__)
typedef float v4f __attribute__((vector_size(16)));
typedef int v4i __attribute__((vector_size(16)));

inline v4f splat4(float x) { return x - v4f{}; }  // x - 0 == x for every x, so this folds

inline v4f exp4(v4f x) {
  const v4f in = x;
  // Clamp to the finite range; written so NaN passes through (comparisons are false).
  x = x > splat4(88.72283905206835f) ? splat4(88.72283905206835f) : x;
  x = x < splat4(-87.3365447504f) ? splat4(-87.3365447504f) : x;
  v4f fx = x * splat4(1.44269504088896341f) + splat4(0.5f);
  v4i n = __builtin_convertvector(fx, v4i);  // truncates toward zero...
  v4f fn = __builtin_convertvector(n, v4f);
  v4i below = fn > fx;                       // ...so step down where that rounded up
  n += below;                                // (true lanes are -1)
  fn = __builtin_convertvector(n, v4f);
  x = x - fn * splat4(0.693359375f) - fn * splat4(-2.12194440e-4f);
  v4f z = x * x;
  v4f y = splat4(1.9875691500E-4f);
  y = y * x + splat4(1.3981999507E-3f);
  y = y * x + splat4(8.3334519073E-3f);
  y = y * x + splat4(4.1665795894E-2f);
  y = y * x + splat4(1.6666665459E-1f);
  y = y * x + splat4(5.0000001201E-1f);
  y = y * z + x + splat4(1.0f);
  // 2^n built from exponent bits; n reaches 128 near the top of the range, which has no
  // exponent encoding, so those lanes use 2^127 * 2.
  v4i big = n > 127;
  v4i bits = ((big ? v4i{} + 127 : n) + 127) << 23;
  v4f pow2n;
  __builtin_memcpy(&pow2n, &bits, sizeof pow2n);
  v4f r = y * pow2n;
  r = big ? r * splat4(2.f) : r;
  // Match std::exp at the ends of the range: overflow to inf, underflow to 0.
  r = in > splat4(88.72283905206835f) ? splat4(INFINITY) : r;
  r = in < splat4(-87.3365447504f) ? splat4(0.f) : r;
  return r;
}

// out[i] = exp(x[i] - shift); returns the sum of the outputs.
inline float exp_shifted(const float* x, float* o, long n, float shift) {
  long i = 0;
  v4f acc = v4f{};
  const v4f sh = splat4(shift);
  for (; i + 4 <= n; i += 4) {
    v4f v;
    __builtin_memcpy(&v, x + i, sizeof v);
    v = exp4(v - sh);
    __builtin_memcpy(o + i, &v, sizeof v);
    acc += v;
  }
  float sum = acc[0] + acc[1] + acc[2] + acc[3];
  for (; i < n; i++) sum += (o[i] = std::exp(x[i] - shift));
  return sum;
}
#else
inline float exp_shifted(const float* x, float* o, long n, float shift) {
  float sum = 0.f;
  for (long i = 0; i < n; i++) sum += (o[i] = std::exp(x[i] - shift));
  return sum;
}
#endif

// Largest of x[0..n), four lanes at a time (the scalar ternary loop does not vectorise).
inline float max_of(const float* x, long n) {
  float m = -INFINITY;
  long i = 0;
#if defined(__GNUC__)
  v4f acc = splat4(-INFINITY);
  for (; i + 4 <= n; i += 4) {
    v4f v;
    __builtin_memcpy(&v, x + i, sizeof v);
    acc = v > acc ? v : acc;
  }
  for (int l = 0; l < 4; l++) m = acc[l] > m ? acc[l] : m;
#endif
  for (; i < n; i++) m = x[i] > m ? x[i] : m;
  return m;
}

// Softmax of x[0..n) into out[0..n), zeros in out[n..cols): the columns a causal row does not see
// get exactly what exp(-1e9 - max) gives them in the masked softmax, without computing it.
inline void softmax_row(const float* x, float* out, long n, long cols) {
  const float inv = 1.f / exp_shifted(x, out, n, max_of(x, n));
  for (long c = 0; c < n; c++) out[c] *= inv;
  for (long c = n; c < cols; c++) out[c] = 0.f;
}

template <int OP>
inline float apply(float x, float y) {
  if (OP == kAdd) return x + y;
  if (OP == kSub) return x - y;
  if (OP == kMul) return x * y;
  if (OP == kDiv) return x / y;
  float d = x - y;  // kSquaredDiff
  return d * d;
}

// One contiguous output run; the (1,1), (1,0), (0,1) stride cases are split out so the
// compiler vectorises them (they are almost all calls).
template <int OP>
void run_binary(long n, const float* __restrict a, long sa, const float* __restrict b, long sb,
                float* __restrict o) {
  if (sa == 1 && sb == 1) {
    for (long i = 0; i < n; i++) o[i] = apply<OP>(a[i], b[i]);
  } else if (sa == 1 && sb == 0) {
    const float y = *b;
    for (long i = 0; i < n; i++) o[i] = apply<OP>(a[i], y);
  } else if (sa == 0 && sb == 1) {
    const float x = *a;
    for (long i = 0; i < n; i++) o[i] = apply<OP>(x, b[i]);
  } else {
    for (long i = 0; i < n; i++) o[i] = apply<OP>(a[i * sa], b[i * sb]);
  }
}

void run_copy(long n, const float* __restrict a, long sa, const float*, long, float* __restrict o) {
  if (sa == 1) std::memcpy(o, a, n * sizeof(float));
  else if (sa == 0) for (long i = 0; i < n; i++) o[i] = *a;
  else for (long i = 0; i < n; i++) o[i] = a[i * sa];
}

typedef void (*RunFn)(long, const float*, long, const float*, long, float*);

struct StridedJob {
  RunFn fn;
  const float *a, *b;
  float* out;
  const Strided* s;
  long total, grain;
};

// Output elements [e0, e1): walk rows of the innermost dim with an odometer over the
// outer dims, so any task boundary works and the work splits evenly.
void strided_task(void* p, long t, int) {
  const StridedJob& j = *static_cast<const StridedJob*>(p);
  const Strided& s = *j.s;
  long e0 = t * j.grain, e1 = e0 + j.grain < j.total ? e0 + j.grain : j.total;
  const int r = s.rank;
  const long n = s.shape[r - 1];
  long row = e0 / n, col = e0 % n;
  long idx[8];
  long oa = 0, ob = 0;
  for (int d = r - 2; d >= 0; d--) {
    idx[d] = row % s.shape[d];
    row /= s.shape[d];
    oa += idx[d] * s.sa[d];
    ob += idx[d] * s.sb[d];
  }
  while (e0 < e1) {
    long len = n - col < e1 - e0 ? n - col : e1 - e0;
    j.fn(len, j.a + oa + col * s.sa[r - 1], s.sa[r - 1], j.b + ob + col * s.sb[r - 1], s.sb[r - 1],
         j.out + e0);
    e0 += len;
    col = 0;
    for (int d = r - 2; d >= 0; d--) {  // odometer step to the next row
      oa += s.sa[d];
      ob += s.sb[d];
      if (++idx[d] < s.shape[d]) break;
      oa -= idx[d] * s.sa[d];
      ob -= idx[d] * s.sb[d];
      idx[d] = 0;
    }
  }
}

void run_strided(RunFn fn, const float* a, const float* b, float* out, const Strided& s) {
  long total = 1;
  for (int d = 0; d < s.rank; d++) total *= s.shape[d];
  if (total == 0) return;
  StridedJob j{fn, a, b ? b : a, out, &s, total, kGrain};
  long tasks = (total + kGrain - 1) / kGrain;
  parallel_for_cost(tasks, (double)kGrain, strided_task, &j);
}

inline float unary(int op, float x, float alpha) {
  switch (op) {
    case kRelu: return x < 0.f ? 0.f : x;  // NaN passes through, as in TF.js
    case kStep: return std::isnan(x) ? x : (x > 0.f ? 1.f : alpha);
    case kExp: return std::exp(x);
    case kNeg: return -x;
    case kSquare: return x * x;
    case kRsqrt: return 1.f / std::sqrt(x);
    case kSqrt: return std::sqrt(x);
    case kSigmoid: return 1.f / (1.f + std::exp(-x));
    default: return std::log(x);  // kLog
  }
}

struct UnaryJob {
  int op;
  const float* x;
  float* out;
  long n;
  float alpha;
};

void unary_task(void* p, long t, int) {
  const UnaryJob& j = *static_cast<const UnaryJob*>(p);
  long e0 = t * kGrain, e1 = e0 + kGrain < j.n ? e0 + kGrain : j.n;
  const float* __restrict x = j.x;
  float* __restrict o = j.out;
  switch (j.op) {  // the cheap ones get their own loops so they vectorise
    case kRelu: for (long i = e0; i < e1; i++) o[i] = x[i] < 0.f ? 0.f : x[i]; break;
    case kNeg: for (long i = e0; i < e1; i++) o[i] = -x[i]; break;
    case kSquare: for (long i = e0; i < e1; i++) o[i] = x[i] * x[i]; break;
    case kSqrt: for (long i = e0; i < e1; i++) o[i] = std::sqrt(x[i]); break;  // no errno: vectorises
    case kRsqrt: for (long i = e0; i < e1; i++) o[i] = 1.f / std::sqrt(x[i]); break;
    case kExp: exp_shifted(x + e0, o + e0, e1 - e0, 0.f); break;
    case kStep: {
      const float alpha = j.alpha;
      for (long i = e0; i < e1; i++) o[i] = x[i] != x[i] ? x[i] : (x[i] > 0.f ? 1.f : alpha);
      break;
    }
    default: for (long i = e0; i < e1; i++) o[i] = unary(j.op, x[i], j.alpha);
  }
}

struct ReduceJob {
  int op;
  const float* x;
  float* out;
  long outer, red, inner, inner_chunk, chunks, rows_per_task;
};

// Task = one outer index and one chunk of the inner dim.
void reduce_task(void* p, long t, int) {
  const ReduceJob& j = *static_cast<const ReduceJob*>(p);
  if (j.inner == 1) {
    // Contiguous rows, several per task. Sum in double (the cpu backend sums in JS doubles).
    long r0 = t * j.rows_per_task, r1 = r0 + j.rows_per_task < j.outer ? r0 + j.rows_per_task : j.outer;
    for (long o = r0; o < r1; o++) {
      const float* x = j.x + o * j.red;
      if (j.op == kMax) {
        float m = j.red ? x[0] : -INFINITY;
        for (long r = 1; r < j.red; r++) m = (x[r] > m || std::isnan(x[r])) ? x[r] : m;
        j.out[o] = m;
      } else {
        double s = 0;
        for (long r = 0; r < j.red; r++) s += x[r];
        j.out[o] = (float)(j.op == kMean ? s / (double)j.red : s);
      }
    }
    return;
  }
  long o = t / j.chunks, c = t % j.chunks;
  long i0 = c * j.inner_chunk, i1 = i0 + j.inner_chunk < j.inner ? i0 + j.inner_chunk : j.inner;
  const float* x = j.x + o * j.red * j.inner;
  float* out = j.out + o * j.inner;
  float* __restrict acc = out;
  if (j.op == kMax) {
    for (long i = i0; i < i1; i++) acc[i] = j.red ? x[i] : -INFINITY;
    for (long r = 1; r < j.red; r++) {
      const float* row = x + r * j.inner;
      for (long i = i0; i < i1; i++) acc[i] = (row[i] > acc[i] || std::isnan(row[i])) ? row[i] : acc[i];
    }
    return;
  }
  for (long i = i0; i < i1; i++) acc[i] = 0.f;
  for (long r = 0; r < j.red; r++) {
    const float* __restrict row = x + r * j.inner;
    for (long i = i0; i < i1; i++) acc[i] += row[i];
  }
  if (j.op == kMean) {
    const float inv = 1.f / (float)j.red;
    for (long i = i0; i < i1; i++) acc[i] *= inv;
  }
}

// Runs row(r) for each row r of a [rows, cols] array, the rows split across the pool in runs of
// about kGrain elements; cost_per_element weighs whether waking the pool pays.
template <typename RowFn>
void parallel_rows(long rows, long cols, double cost_per_element, const RowFn& row) {
  if (rows <= 0 || cols <= 0) return;
  long per = kGrain / cols;
  if (per < 1) per = 1;
  struct Job {
    const RowFn* row;
    long rows, per;
  } j{&row, rows, per};
  TaskFn task = [](void* p, long t, int) {
    const Job& j = *static_cast<const Job*>(p);
    long r0 = t * j.per, r1 = r0 + j.per < j.rows ? r0 + j.per : j.rows;
    for (long r = r0; r < r1; r++) (*j.row)(r);
  };
  parallel_for_cost((rows + per - 1) / per, (double)per * cols * cost_per_element, task, &j);
}

}  // namespace

void binary_op(int op, const float* a, const float* b, float* out, const Strided& s) {
  static const RunFn fns[] = {run_binary<kAdd>, run_binary<kSub>, run_binary<kMul>,
                              run_binary<kDiv>, run_binary<kSquaredDiff>};
  run_strided(fns[op], a, b, out, s);
}

void strided_copy(const float* a, float* out, const Strided& s) { run_strided(run_copy, a, nullptr, out, s); }

void unary_op(int op, const float* x, float* out, long n, float alpha) {
  UnaryJob j{op, x, out, n, alpha};
  long tasks = (n + kGrain - 1) / kGrain;
  double cost = (op == kExp || op == kLog || op == kSigmoid) ? kGrain * 8.0 : kGrain;
  parallel_for_cost(tasks, cost, unary_task, &j);
}

void reduce_op(int op, const float* x, float* out, long outer, long red, long inner) {
  if (outer <= 0 || inner <= 0) return;
  ReduceJob j{op, x, out, outer, red, inner, inner, 1, 1};
  if (inner == 1) {
    j.rows_per_task = red > 0 && red < kGrain ? kGrain / red : 1;
    long tasks = (outer + j.rows_per_task - 1) / j.rows_per_task;
    parallel_for_cost(tasks, (double)j.rows_per_task * (red > 0 ? red : 1), reduce_task, &j);
    return;
  }
  // Split a wide inner dim too, so column sums (bias gradients) also use every core.
  if (inner > 1 && outer < 4 * pool_threads()) {
    long chunk = (inner + 4 * pool_threads() - 1) / (4 * pool_threads());
    chunk = ((chunk + 15) / 16) * 16;
    j.inner_chunk = chunk;
    j.chunks = (inner + chunk - 1) / chunk;
  }
  parallel_for_cost(outer * j.chunks, (double)red * inner / j.chunks, reduce_task, &j);
}

void softmax_rows(const float* x, float* out, long rows, long cols) {
  parallel_rows(rows, cols, 10, [=](long r) { softmax_row(x + r * cols, out + r * cols, cols, cols); });
}

void causal_softmax_rows(const float* x, float* out, long blocks, long lq, long lk, long past) {
  parallel_rows(blocks * lq, lk, 10, [=](long r) {
    long seen = past + r % lq + 1;
    softmax_row(x + r * lk, out + r * lk, seen < lk ? seen : lk, lk);
  });
}

void softmax_grad_rows(const float* y, const float* dy, float* dx, long rows, long cols) {
  parallel_rows(rows, cols, 3, [=](long r) {
    const float* __restrict yr = y + r * cols;
    const float* __restrict dyr = dy + r * cols;
    float* __restrict dxr = dx + r * cols;
    float dot = 0.f;
    for (long c = 0; c < cols; c++) dot += dyr[c] * yr[c];
    for (long c = 0; c < cols; c++) dxr[c] = yr[c] * (dyr[c] - dot);
  });
}

struct AdamJob {
  const float *p, *g, *m, *v;
  float *po, *mo, *vo;
  long n;
  AdamParams a;
};

void adam_task(void* ctx, long t, int) {
  const AdamJob& j = *static_cast<const AdamJob*>(ctx);
  long e0 = t * kGrain, e1 = e0 + kGrain < j.n ? e0 + kGrain : j.n;
  const AdamParams a = j.a;
  for (long i = e0; i < e1; i++) {
    float g = j.g[i] * a.grad_scale;
    float m = a.b1 * j.m[i] + (1.f - a.b1) * g;
    float v = a.b2 * j.v[i] + (1.f - a.b2) * g * g;
    float update = (m / a.c1) / (std::sqrt(v / a.c2) + a.eps) + a.wd * j.p[i];
    j.po[i] = j.p[i] - a.lr * update;
    j.mo[i] = m;
    j.vo[i] = v;
  }
}

void adamw(const float* p, const float* g, const float* m, const float* v, float* p_out, float* m_out,
           float* v_out, long n, const AdamParams& a) {
  AdamJob j{p, g, m, v, p_out, m_out, v_out, n, a};
  long tasks = (n + kGrain - 1) / kGrain;
  parallel_for_cost(tasks, kGrain * 4.0, adam_task, &j);
}

}  // namespace lab
