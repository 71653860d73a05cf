#include "thread_pool.h"

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define LAB_PAUSE() _mm_pause()
#elif defined(__aarch64__)
#define LAB_PAUSE() __asm__ __volatile__("yield")
#else
#define LAB_PAUSE() ((void)0)
#endif

namespace lab {
namespace {

// Job state lives in one 64-bit word: [job id:16][task count:24][next index:24].
// A worker claims a task by CAS on that word, so a worker that wakes late can never
// claim a task of a job that already finished or run it with a newer job's function.
constexpr int kIdxBits = 24;
constexpr unsigned long long kIdxMask = (1ull << kIdxBits) - 1;
constexpr long kMaxTasks = (long)kIdxMask;

inline unsigned long long pack(unsigned long long id, unsigned long long cnt, unsigned long long idx) {
  return (id << (2 * kIdxBits)) | (cnt << kIdxBits) | idx;
}

struct Pool {
  int threads = 1;
  std::mutex mu;     // guards sleepers / the condition variable
  std::mutex busy;   // held by the thread whose job the pool is running
  std::condition_variable cv;
  std::atomic<unsigned long long> word{0};
  std::atomic<long> done{0};
  std::atomic<TaskFn> fn{nullptr};
  std::atomic<void*> ctx{nullptr};
  int sleepers = 0;  // guarded by mu
  unsigned long long job_id = 0;

  Pool() {
    unsigned hc = std::thread::hardware_concurrency();
    int n = hc ? (int)hc : 1;
    if (const char* env = std::getenv("LAB_NATIVE_THREADS")) {
      int v = std::atoi(env);
      if (v > 0) n = v;
    }
    if (n > 64) n = 64;
    threads = n;
    for (int i = 1; i < n; i++) std::thread([this, i] { loop(i); }).detach();  // live for the process
  }

  void work(int tid) {
    for (;;) {
      unsigned long long v = word.load(std::memory_order_acquire);
      unsigned long long cnt = (v >> kIdxBits) & kIdxMask, idx = v & kIdxMask;
      if (idx >= cnt) return;
      TaskFn f = fn.load(std::memory_order_relaxed);
      void* c = ctx.load(std::memory_order_relaxed);
      if (!word.compare_exchange_weak(v, v + 1, std::memory_order_acq_rel)) continue;
      f(c, (long)idx, tid);
      done.fetch_add(1, std::memory_order_release);
    }
  }

  static unsigned long long id_of(unsigned long long v) { return v >> (2 * kIdxBits); }

  void loop(int tid) {
    unsigned long long seen = 0;
    for (;;) {
      // Spin briefly (kernels arrive back to back during training, ~0.1 ms apart), then
      // sleep: the machine is shared, so an idle worker must not keep a core busy.
      int spins = 0;
      while (id_of(word.load(std::memory_order_acquire)) == seen) {
        if (++spins < 4000) {
          LAB_PAUSE();
          continue;
        }
        std::unique_lock<std::mutex> lock(mu);
        sleepers++;
        cv.wait(lock, [&] { return id_of(word.load(std::memory_order_acquire)) != seen; });
        sleepers--;
      }
      seen = id_of(word.load(std::memory_order_acquire));
      work(tid);
    }
  }

  void run(long n, TaskFn f, void* c) {
    fn.store(f, std::memory_order_relaxed);
    ctx.store(c, std::memory_order_relaxed);
    done.store(0, std::memory_order_relaxed);
    job_id = (job_id + 1) & 0xffff;
    if (job_id == 0) job_id = 1;  // 0 is the id workers start out having "seen"
    word.store(pack(job_id, (unsigned long long)n, 0), std::memory_order_release);
    bool wake;
    {
      std::lock_guard<std::mutex> lock(mu);
      wake = sleepers > 0;
    }
    if (wake) cv.notify_all();
    work(0);
    // A worker may have been preempted while holding the last task (other processes share
    // the cores); yielding lets it run if it was descheduled onto our core.
    for (int spins = 0; done.load(std::memory_order_acquire) < n; spins++) {
      if (spins < 2000) LAB_PAUSE();
      else std::this_thread::yield();
    }
  }
};

Pool& pool() {
  static Pool* p = new Pool();  // never destroyed: detached workers reference it
  return *p;
}

}  // namespace

int pool_threads() { return pool().threads; }

void parallel_for(long n, TaskFn fn, void* ctx) {
  if (n <= 0) return;
  Pool& p = pool();
  if (n == 1 || p.threads == 1) {
    for (long t = 0; t < n; t++) fn(ctx, t, 0);
    return;
  }
  // One job at a time: a second JS thread (worker_threads) calling in while the pool is
  // busy just runs its work itself instead of corrupting the shared job word.
  std::unique_lock<std::mutex> busy(p.busy, std::try_to_lock);
  if (!busy.owns_lock() || n > kMaxTasks) {
    for (long t = 0; t < n; t++) fn(ctx, t, 0);
    return;
  }
  p.run(n, fn, ctx);
}

void parallel_for_cost(long n, double cost_per_task, TaskFn fn, void* ctx) {
  // Below ~1M flop-equivalents (~50-100 us on one core) a second thread gains less than
  // the hand-off risks: on a busy machine a worker can be descheduled mid-task and the
  // caller then waits for it.
  if (n * cost_per_task < 1000000.0) {
    for (long t = 0; t < n; t++) fn(ctx, t, 0);
    return;
  }
  parallel_for(n, fn, ctx);
}

}  // namespace lab
