// N-API entry points. Arguments are Float32Arrays owned by JS (TF.js tensor storage);
// kernels read and write them in place, no copies. Shapes are validated here so a bad
// call throws instead of reading out of bounds.
#include <node_api.h>

#include <cstdlib>
#include <cstring>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "cpu_features.h"
#include "gemm.h"
#include "napi_util.h"
#include "ops.h"
#include "thread_pool.h"

namespace lab {
namespace {

// matmul(a, b, out, batch, batchA, batchB, M, N, K, transA, transB)
napi_value Matmul(napi_env env, napi_callback_info info) {
  napi_value argv[11];
  if (!get_args(env, info, 11, argv)) return nullptr;
  float *a, *b, *c;
  size_t la, lb, lc;
  long batch, batchA, batchB, M, N, K;
  bool tA, tB;
  if (!arg_f32(env, argv[0], &a, &la, "a") || !arg_f32(env, argv[1], &b, &lb, "b") ||
      !arg_f32(env, argv[2], &c, &lc, "out") || !arg_i64(env, argv[3], &batch, "batch") ||
      !arg_i64(env, argv[4], &batchA, "batchA") || !arg_i64(env, argv[5], &batchB, "batchB") ||
      !arg_i64(env, argv[6], &M, "M") || !arg_i64(env, argv[7], &N, "N") ||
      !arg_i64(env, argv[8], &K, "K") || !arg_bool(env, argv[9], &tA, "transA") ||
      !arg_bool(env, argv[10], &tB, "transB"))
    return nullptr;
  if (batch < 0 || batchA < 1 || batchB < 1 || M < 0 || N < 0 || K < 0)
    return throw_range(env, "matmul: negative size"), nullptr;
  if ((size_t)(batchA * M * K) > la || (size_t)(batchB * K * N) > lb ||
      (size_t)(batch * M * N) > lc)
    return throw_range(env, "matmul: array too small for the given shape"), nullptr;
  sgemm_batched(a, b, c, batch, batchA, batchB, M, N, K, tA, tB);
  return nullptr;
}

// Parses [rank, shape[rank], sa[rank], (sb[rank])] and checks every input offset is in bounds.
bool parse_strided(napi_env env, napi_value v, int inputs, Strided* s, size_t la, size_t lb, size_t lo) {
  long raw[1 + 3 * 8];
  size_t n = 0;
  if (!arg_i32s(env, v, raw, sizeof raw / sizeof raw[0], &n, "dims")) return false;
  long rank = n ? raw[0] : 0;
  if (rank < 1 || rank > 8 || n != (size_t)(1 + (1 + inputs) * rank)) return throw_range(env, "dims: bad rank");
  s->rank = (int)rank;
  long total = 1, maxa = 0, maxb = 0;
  for (long d = 0; d < rank; d++) {
    s->shape[d] = raw[1 + d];
    s->sa[d] = raw[1 + rank + d];
    s->sb[d] = inputs == 2 ? raw[1 + 2 * rank + d] : 0;
    if (s->shape[d] < 0 || s->sa[d] < 0 || s->sb[d] < 0) return throw_range(env, "dims: negative");
    total *= s->shape[d];
    if (s->shape[d] > 0) {
      maxa += (s->shape[d] - 1) * s->sa[d];
      maxb += (s->shape[d] - 1) * s->sb[d];
    }
  }
  if (total == 0) return true;
  if ((size_t)total > lo || (size_t)maxa >= la || (inputs == 2 && (size_t)maxb >= lb))
    return throw_range(env, "dims: out of bounds for the given arrays");
  return true;
}

// binary(op, a, b, out, dims): out = a (op) b with broadcasting described by dims.
napi_value Binary(napi_env env, napi_callback_info info) {
  napi_value argv[5];
  if (!get_args(env, info, 5, argv)) return nullptr;
  long op;
  float *a, *b, *o;
  size_t la, lb, lo;
  Strided s;
  if (!arg_i64(env, argv[0], &op, "op") || !arg_f32(env, argv[1], &a, &la, "a") ||
      !arg_f32(env, argv[2], &b, &lb, "b") || !arg_f32(env, argv[3], &o, &lo, "out") ||
      !parse_strided(env, argv[4], 2, &s, la, lb, lo))
    return nullptr;
  if (op < kAdd || op > kSquaredDiff) return throw_range(env, "binary: unknown op"), nullptr;
  binary_op((int)op, a, b, o, s);
  return nullptr;
}

// stridedCopy(a, out, dims): transposes and other strided gathers.
napi_value Copy(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  if (!get_args(env, info, 3, argv)) return nullptr;
  float *a, *o;
  size_t la, lo;
  Strided s;
  if (!arg_f32(env, argv[0], &a, &la, "a") || !arg_f32(env, argv[1], &o, &lo, "out") ||
      !parse_strided(env, argv[2], 1, &s, la, 0, lo))
    return nullptr;
  strided_copy(a, o, s);
  return nullptr;
}

// unary(op, x, out, alpha)
napi_value Unary(napi_env env, napi_callback_info info) {
  napi_value argv[4];
  if (!get_args(env, info, 4, argv)) return nullptr;
  long op;
  float *x, *o;
  size_t lx, lo;
  double alpha;
  if (!arg_i64(env, argv[0], &op, "op") || !arg_f32(env, argv[1], &x, &lx, "x") ||
      !arg_f32(env, argv[2], &o, &lo, "out") || !arg_f64(env, argv[3], &alpha, "alpha"))
    return nullptr;
  if (op < kRelu || op > kSigmoid) return throw_range(env, "unary: unknown op"), nullptr;
  if (lo < lx) return throw_range(env, "unary: out too small"), nullptr;
  unary_op((int)op, x, o, (long)lx, (float)alpha);
  return nullptr;
}

// adamw(p, g, m, v, pOut, mOut, vOut, lr, b1, b2, eps, c1, c2, wd, gradScale)
napi_value AdamW(napi_env env, napi_callback_info info) {
  napi_value argv[15];
  if (!get_args(env, info, 15, argv)) return nullptr;
  float* arr[7];
  size_t len[7];
  const char* names[7] = {"p", "g", "m", "v", "pOut", "mOut", "vOut"};
  for (int i = 0; i < 7; i++)
    if (!arg_f32(env, argv[i], &arr[i], &len[i], names[i])) return nullptr;
  double h[8];
  const char* hnames[8] = {"lr", "b1", "b2", "eps", "c1", "c2", "wd", "gradScale"};
  for (int i = 0; i < 8; i++)
    if (!arg_f64(env, argv[7 + i], &h[i], hnames[i])) return nullptr;
  for (int i = 1; i < 7; i++)
    if (len[i] != len[0]) return throw_range(env, "adamw: arrays differ in length"), nullptr;
  AdamParams a{(float)h[0], (float)h[1], (float)h[2], (float)h[3], (float)h[4], (float)h[5], (float)h[6], (float)h[7]};
  adamw(arr[0], arr[1], arr[2], arr[3], arr[4], arr[5], arr[6], (long)len[0], a);
  return nullptr;
}

// reduce(op, x, out, outer, red, inner)
napi_value Reduce(napi_env env, napi_callback_info info) {
  napi_value argv[6];
  if (!get_args(env, info, 6, argv)) return nullptr;
  long op, outer, red, inner;
  float *x, *o;
  size_t lx, lo;
  if (!arg_i64(env, argv[0], &op, "op") || !arg_f32(env, argv[1], &x, &lx, "x") ||
      !arg_f32(env, argv[2], &o, &lo, "out") || !arg_i64(env, argv[3], &outer, "outer") ||
      !arg_i64(env, argv[4], &red, "red") || !arg_i64(env, argv[5], &inner, "inner"))
    return nullptr;
  if (op < kSum || op > kMean) return throw_range(env, "reduce: unknown op"), nullptr;
  if (outer < 0 || red < 0 || inner < 0 || (size_t)(outer * red * inner) > lx || (size_t)(outer * inner) > lo)
    return throw_range(env, "reduce: bad shape"), nullptr;
  reduce_op((int)op, x, o, outer, red, inner);
  return nullptr;
}

// softmax(x, out, rows, cols)
napi_value Softmax(napi_env env, napi_callback_info info) {
  napi_value argv[4];
  if (!get_args(env, info, 4, argv)) return nullptr;
  long rows, cols;
  float *x, *o;
  size_t lx, lo;
  if (!arg_f32(env, argv[0], &x, &lx, "x") || !arg_f32(env, argv[1], &o, &lo, "out") ||
      !arg_i64(env, argv[2], &rows, "rows") || !arg_i64(env, argv[3], &cols, "cols"))
    return nullptr;
  if (rows < 0 || cols < 0 || (size_t)(rows * cols) > lx || (size_t)(rows * cols) > lo)
    return throw_range(env, "softmax: bad shape"), nullptr;
  softmax_rows(x, o, rows, cols);
  return nullptr;
}

// causalSoftmax(x, out, blocks, lq, lk, past)
napi_value CausalSoftmax(napi_env env, napi_callback_info info) {
  napi_value argv[6];
  if (!get_args(env, info, 6, argv)) return nullptr;
  long blocks, lq, lk, past;
  float *x, *o;
  size_t lx, lo;
  if (!arg_f32(env, argv[0], &x, &lx, "x") || !arg_f32(env, argv[1], &o, &lo, "out") ||
      !arg_i64(env, argv[2], &blocks, "blocks") || !arg_i64(env, argv[3], &lq, "lq") ||
      !arg_i64(env, argv[4], &lk, "lk") || !arg_i64(env, argv[5], &past, "past"))
    return nullptr;
  if (blocks < 0 || lq < 0 || lk < 0 || past < 0 || (size_t)(blocks * lq * lk) > lx || (size_t)(blocks * lq * lk) > lo)
    return throw_range(env, "causalSoftmax: bad shape"), nullptr;
  causal_softmax_rows(x, o, blocks, lq, lk, past);
  return nullptr;
}

// softmaxGrad(y, dy, dx, rows, cols)
napi_value SoftmaxGrad(napi_env env, napi_callback_info info) {
  napi_value argv[5];
  if (!get_args(env, info, 5, argv)) return nullptr;
  long rows, cols;
  float *y, *dy, *dx;
  size_t ly, ldy, ldx;
  if (!arg_f32(env, argv[0], &y, &ly, "y") || !arg_f32(env, argv[1], &dy, &ldy, "dy") ||
      !arg_f32(env, argv[2], &dx, &ldx, "dx") || !arg_i64(env, argv[3], &rows, "rows") ||
      !arg_i64(env, argv[4], &cols, "cols"))
    return nullptr;
  size_t n = (size_t)(rows * cols);
  if (rows < 0 || cols < 0 || n > ly || n > ldy || n > ldx)
    return throw_range(env, "softmaxGrad: bad shape"), nullptr;
  softmax_grad_rows(y, dy, dx, rows, cols);
  return nullptr;
}

napi_value set_str(napi_env env, napi_value obj, const char* key, const char* val) {
  napi_value v;
  napi_create_string_utf8(env, val, NAPI_AUTO_LENGTH, &v);
  napi_set_named_property(env, obj, key, v);
  return obj;
}

// info() -> { isa, detectedIsa, threads, arch }: what the dispatcher chose and why.
napi_value Info(napi_env env, napi_callback_info) {
  napi_value obj, threads;
  napi_create_object(env, &obj);
  set_str(env, obj, "isa", gemm_isa_name());
  set_str(env, obj, "detectedIsa", isa_name(detected_isa()));
#if defined(__x86_64__)
  set_str(env, obj, "arch", "x64");
#elif defined(__aarch64__)
  set_str(env, obj, "arch", "arm64");
#else
  set_str(env, obj, "arch", "other");
#endif
  napi_create_int32(env, pool_threads(), &threads);
  napi_set_named_property(env, obj, "threads", threads);
  return obj;
}

// Every kernel output is a new Float32Array. glibc serves blocks over 128 KiB with a fresh
// mmap and unmaps them on free, so each output page-faults in again: measured 65 us vs
// 17 us for a 256 KiB multiply. Keeping freed blocks up to 32 MiB in the heap fixes that
// (the process holds on to up to 128 MiB of freed memory). LAB_NATIVE_MALLOC_TUNING=0
// leaves malloc alone.
void tune_malloc() {
#if defined(__GLIBC__)
  const char* env = std::getenv("LAB_NATIVE_MALLOC_TUNING");
  if (env && !std::strcmp(env, "0")) return;
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 128 << 20);
#endif
}

napi_value Init(napi_env env, napi_value exports) {
  static bool tuned = false;
  if (!tuned) {
    tune_malloc();
    tuned = true;
  }
  napi_property_descriptor props[] = {
      {"matmul", nullptr, Matmul, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"info", nullptr, Info, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"binary", nullptr, Binary, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"stridedCopy", nullptr, Copy, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"unary", nullptr, Unary, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"reduce", nullptr, Reduce, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"softmax", nullptr, Softmax, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"softmaxGrad", nullptr, SoftmaxGrad, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"causalSoftmax", nullptr, CausalSoftmax, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"adamw", nullptr, AdamW, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}

}  // namespace
}  // namespace lab

NAPI_MODULE(NODE_GYP_MODULE_NAME, lab::Init)
