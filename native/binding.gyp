{
  # One addon, compiled for the architecture's baseline ISA. AVX2 / AVX-512 code is selected
  # per function with target attributes and dispatched at run time -- never -march=native,
  # so the built file runs on any x86-64 / arm64 CPU.
  "targets": [
    {
      "target_name": "lab_native",
      "sources": [
        "src/addon.cc",
        "src/napi_util.cc",
        "src/cpu_features.cc",
        "src/thread_pool.cc",
        "src/gemm.cc",
        "src/gemm_isa.cc",
        "src/ops.cc"
      ],
      "cflags_cc": ["-std=c++17", "-O3", "-fno-math-errno", "-ffp-contract=fast"],
      "cflags_cc!": ["-fno-exceptions", "-O2", "-O0"],
      "ldflags": ["-pthread"],
      "defines": ["NAPI_VERSION=8"],
      "xcode_settings": {
        "OTHER_CPLUSPLUSFLAGS": ["-std=c++17", "-O3", "-ffp-contract=fast"],
        "MACOSX_DEPLOYMENT_TARGET": "11.0"
      }
    }
  ]
}
