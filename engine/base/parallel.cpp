#include "engine/base/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

namespace gputco {

int default_thread_count(int cap) {
  const unsigned cores = std::thread::hardware_concurrency();  // 0 when unknown
  return std::clamp(static_cast<int>(std::min(cores, 1024u)), 1, std::max(cap, 1));
}

void parallel_for(std::size_t count, int threads,
                  const std::function<void(std::size_t index, int thread)>& body) {
  if (count == 0) return;
  const auto n_threads = static_cast<int>(
      std::clamp<std::size_t>(static_cast<std::size_t>(std::max(threads, 1)), 1, count));
  if (n_threads == 1) {
    for (std::size_t i = 0; i < count; ++i) body(i, 0);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  std::exception_ptr error;
  std::size_t error_index = std::numeric_limits<std::size_t>::max();
  const auto work = [&](int thread) {
    for (;;) {
      if (failed.load(std::memory_order_relaxed)) return;
      const std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= count) return;
      try {
        body(i, thread);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(error_mutex);
        if (i < error_index) {
          error_index = i;
          error = std::current_exception();
        }
        failed.store(true, std::memory_order_relaxed);
        return;
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(n_threads - 1));
  try {
    for (int t = 1; t < n_threads; ++t) pool.emplace_back(work, t);
  } catch (...) {
    // A thread that could not start: the ones started still finish the work with this one.
  }
  work(0);
  for (auto& thread : pool) thread.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace gputco
