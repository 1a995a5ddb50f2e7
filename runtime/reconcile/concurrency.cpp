#include "runtime/reconcile/concurrency.h"

#include <algorithm>

namespace mkq::reconcile {

ConcurrencyLimit::ConcurrencyLimit(int ceiling) : ceiling_(std::max(1, ceiling)), limit_(ceiling_), since_cut_(ceiling_) {
  report_.ceiling = report_.lowest = report_.final = ceiling_;
}

void ConcurrencyLimit::acquire() {
  std::unique_lock<std::mutex> lock(mutex_);
  room_.wait(lock, [this] { return in_flight_ < limit_; });
  ++in_flight_;
}

void ConcurrencyLimit::release(Call call) {
  bool more_room = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    --in_flight_;
    if (call != Call::NotSent) more_room = learn(call == Call::Shed);
  }
  room_.notify_one();
  if (more_room) room_.notify_one();
}

bool ConcurrencyLimit::learn(bool shed) {
  ++report_.calls;
  ++since_cut_;
  if (shed) {
    ++report_.shed;
    clean_ = 0;
    // One cut per window: the 429s of calls that were in flight together are
    // one signal, not one each.
    if (since_cut_ >= limit_ && limit_ > 1) {
      limit_ /= 2;
      since_cut_ = 0;
      ++report_.cuts;
      report_.lowest = std::min(report_.lowest, limit_);
    }
    report_.final = limit_;
    return false;
  }
  if (++clean_ < limit_ || limit_ == ceiling_) return false;
  ++limit_;
  clean_ = 0;
  report_.final = limit_;
  return true;
}

int ConcurrencyLimit::limit() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return limit_;
}

ConcurrencyReport ConcurrencyLimit::report() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return report_;
}

}  // namespace mkq::reconcile
