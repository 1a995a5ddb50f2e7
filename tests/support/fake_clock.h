// The clock port (base/clock.h) under a test's control: it says the time it
// was last set to until it is set or advanced again. Thread-safe.
#pragma once

#include <atomic>
#include <chrono>

#include "base/clock.h"

namespace mkq::testing {

class FakeClock final : public base::Clock {
 public:
  explicit FakeClock(std::chrono::system_clock::time_point at = {}) : at_(at) {}
  std::chrono::system_clock::time_point now() const override { return at_.load(); }
  void set(std::chrono::system_clock::time_point at) { at_.store(at); }
  void advance(std::chrono::system_clock::duration by) { at_.store(at_.load() + by); }

 private:
  std::atomic<std::chrono::system_clock::time_point> at_;
};

}  // namespace mkq::testing
