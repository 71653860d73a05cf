#include "napi_util.h"

#include <cstdio>

namespace lab {

bool check(napi_env env, napi_status st, const char* what) {
  if (st == napi_ok) return true;
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (!pending) napi_throw_error(env, nullptr, what);
  return false;
}

bool arg_f32(napi_env env, napi_value v, float** data, size_t* len, const char* name) {
  bool is_ta = false;
  napi_is_typedarray(env, v, &is_ta);
  char msg[128];
  if (!is_ta) {
    std::snprintf(msg, sizeof msg, "%s must be a Float32Array", name);
    napi_throw_type_error(env, nullptr, msg);
    return false;
  }
  napi_typedarray_type type;
  void* ptr = nullptr;
  if (!check(env, napi_get_typedarray_info(env, v, &type, len, &ptr, nullptr, nullptr), name))
    return false;
  if (type != napi_float32_array) {
    std::snprintf(msg, sizeof msg, "%s must be a Float32Array", name);
    napi_throw_type_error(env, nullptr, msg);
    return false;
  }
  *data = static_cast<float*>(ptr);
  return true;
}

bool arg_i32s(napi_env env, napi_value v, long* out, size_t cap, size_t* len, const char* name) {
  bool is_ta = false;
  napi_is_typedarray(env, v, &is_ta);
  napi_typedarray_type type = napi_int8_array;
  void* ptr = nullptr;
  if (is_ta && !check(env, napi_get_typedarray_info(env, v, &type, len, &ptr, nullptr, nullptr), name))
    return false;
  if (!is_ta || type != napi_int32_array || *len > cap) {
    char msg[128];
    std::snprintf(msg, sizeof msg, "%s must be an Int32Array of at most %zu values", name, cap);
    napi_throw_type_error(env, nullptr, msg);
    return false;
  }
  const int32_t* p = static_cast<const int32_t*>(ptr);
  for (size_t i = 0; i < *len; i++) out[i] = p[i];
  return true;
}

bool arg_i64(napi_env env, napi_value v, long* out, const char* name) {
  int64_t x = 0;
  if (!check(env, napi_get_value_int64(env, v, &x), name)) return false;
  *out = (long)x;
  return true;
}

bool arg_f64(napi_env env, napi_value v, double* out, const char* name) {
  return check(env, napi_get_value_double(env, v, out), name);
}

bool arg_bool(napi_env env, napi_value v, bool* out, const char* name) {
  return check(env, napi_get_value_bool(env, v, out), name);
}

bool get_args(napi_env env, napi_callback_info info, size_t n, napi_value* argv) {
  size_t argc = n;
  if (!check(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr), "arguments"))
    return false;
  if (argc != n) {
    napi_throw_type_error(env, nullptr, "wrong number of arguments");
    return false;
  }
  return true;
}

bool throw_range(napi_env env, const char* msg) {
  napi_throw_range_error(env, nullptr, msg);
  return false;
}

}  // namespace lab
