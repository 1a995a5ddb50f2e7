// Apply progress on stderr: on a terminal one line per cluster, redrawn in
// place; otherwise one plain line per finished object (and per object waited
// for). After an interrupt (`interrupt` set) the lines are drawn anew below the
// interrupt's notice instead of over it.
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/reconcile/apply.h"
#include "runtime/reconcile/plan.h"

namespace mkq::cli {

class ProgressPrinter {
 public:
  ProgressPrinter(const reconcile::Plan& plan, bool terminal, const std::atomic<bool>* interrupt);
  void on_event(const reconcile::ProgressEvent& event);
  void finish(const reconcile::ApplyReport& report);

 private:
  struct Line {
    int total = 0, done = 0, failed = 0;
    std::string current;
  };
  void redraw();

  bool terminal_;
  const std::atomic<bool>* interrupt_;
  bool drawn_ = false;
  bool redrawn_after_interrupt_ = false;
  std::mutex mutex_;
  std::vector<std::string> order_;
  std::map<std::string, Line> lines_;
};

}  // namespace mkq::cli
