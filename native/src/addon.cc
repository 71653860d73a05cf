// N-API entry points. Arguments are Float32Arrays owned by JS (TF.js tensor storage);
// kernels read and write them in place, no copies. Shapes are validated here so a bad
// call throws instead of reading out of bounds.
#include <node_api.h>

#include "cpu_features.h"
#include "gemm.h"
#include "napi_util.h"
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

napi_value Init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"matmul", nullptr, Matmul, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"info", nullptr, Info, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}

}  // namespace
}  // namespace lab

NAPI_MODULE(NODE_GYP_MODULE_NAME, lab::Init)
