// The clock port: every decision that depends on the time of day (credential
// expiry and rotation, the time written into the state, the lock and a
// Deployment's restartedAt) asks a Clock, so tests can move time. Durations
// and deadlines use std::chrono::steady_clock directly: they measure, they
// never decide on the calendar.
#pragma once

#include <chrono>

namespace mkq::base {

class Clock {
 public:
  virtual ~Clock() = default;
  // Now, on the calendar. Safe to call from several threads at once.
  virtual std::chrono::system_clock::time_point now() const = 0;
};

// The machine's wall clock (std::chrono::system_clock): the clock of the
// shipped binary unless its composition root chooses a fixed one.
const Clock& system_clock();

// A clock that always says one time. The CLI's composition root builds one
// from MKQ_NOW (docs/apply.md); unit tests use testing::FakeClock.
class FixedClock final : public Clock {
 public:
  explicit FixedClock(std::chrono::system_clock::time_point at) : at_(at) {}
  std::chrono::system_clock::time_point now() const override { return at_; }

 private:
  std::chrono::system_clock::time_point at_;
};

}  // namespace mkq::base
