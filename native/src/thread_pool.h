// A small persistent thread pool. Training calls hundreds of kernels per step,
// so spawning threads per call (tens of microseconds each) would dominate small ops.
#pragma once
#include <cstddef>

namespace lab {

// Body of a parallel loop: runs task `task` (0..n-1) on worker `tid` (0..threads-1).
typedef void (*TaskFn)(void* ctx, long task, int tid);

// Number of threads (including the caller) that parallel_for may use.
int pool_threads();
// Runs fn(ctx, t, tid) for t in [0, n). The caller participates; returns when all are done.
// Not reentrant: kernels call it only from the JS thread.
void parallel_for(long n, TaskFn fn, void* ctx);
// Same, but stays on the calling thread when the work is too small to amortise a wake-up.
void parallel_for_cost(long n, double cost_per_task, TaskFn fn, void* ctx);

}  // namespace lab
