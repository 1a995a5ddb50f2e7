// The system clock (see clock.h).
#include "base/clock.h"

namespace mkq::base {

namespace {

class SystemClock final : public Clock {
 public:
  std::chrono::system_clock::time_point now() const override { return std::chrono::system_clock::now(); }
};

}  // namespace

const Clock& system_clock() {
  static const SystemClock clock;
  return clock;
}

}  // namespace mkq::base
