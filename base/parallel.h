// Work spread over threads: each thread takes the next item left as it ends
// one, so no item waits for a slow one before it.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace mkq::base {

// Calls each(0) ... each(count - 1) on up to `parallelism` threads (on the
// calling thread alone when that is one); the first exception thrown is
// thrown again here once all have ended.
template <typename Each>
void run_parallel(std::size_t count, int parallelism, Each each) {
  const std::size_t threads = std::min<std::size_t>(count, static_cast<std::size_t>(std::max(1, parallelism)));
  if (threads <= 1) {
    for (std::size_t i = 0; i < count; ++i) each(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::mutex failed_mutex;
  std::exception_ptr failed;
  const auto worker = [&] {
    for (std::size_t i = next++; i < count; i = next++) {
      try {
        each(i);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failed_mutex);
        if (!failed) failed = std::current_exception();
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (std::size_t t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (std::thread& thread : pool) thread.join();
  if (failed) std::rethrow_exception(failed);
}

}  // namespace mkq::base
