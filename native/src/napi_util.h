// Minimal helpers over node_api.h (the node-addon-api C++ wrapper is not available here).
#pragma once
#include <node_api.h>

#include <cstddef>

namespace lab {

// Throws a JS Error and returns false when a N-API call fails.
bool check(napi_env env, napi_status st, const char* what);

// Zero-copy view of a Float32Array argument; false (with a pending JS error) otherwise.
bool arg_f32(napi_env env, napi_value v, float** data, size_t* len, const char* name);
// Reads a shape descriptor passed as an Int32Array into `out` (at most `cap` values).
bool arg_i32s(napi_env env, napi_value v, long* out, size_t cap, size_t* len, const char* name);
bool arg_i64(napi_env env, napi_value v, long* out, const char* name);
bool arg_f64(napi_env env, napi_value v, double* out, const char* name);
bool arg_bool(napi_env env, napi_value v, bool* out, const char* name);
// Reads exactly n arguments; throws a TypeError on a count mismatch.
bool get_args(napi_env env, napi_callback_info info, size_t n, napi_value* argv);
bool throw_range(napi_env env, const char* msg);

}  // namespace lab
