#include "cli/progress.h"

#include <cstdio>
#include <iterator>

#include <fmt/format.h>

#include "base/print.h"
#include "base/style.h"

namespace mkq::cli {

namespace {

// CLUSTER/KIND/[NS/]NAME -> "KIND [NS/]NAME"
std::string describe(const std::string& address) {
  const std::size_t first = address.find('/');
  if (first == std::string::npos) return address;
  const std::size_t second = address.find('/', first + 1);
  if (second == std::string::npos) return address.substr(first + 1);
  return address.substr(first + 1, second - first - 1) + " " + address.substr(second + 1);
}

const char* verb_ing(reconcile::Action action) {
  switch (action) {
    case reconcile::Action::Create: return "creating";
    case reconcile::Action::Update: return "updating";
    case reconcile::Action::Delete: return "deleting";
    case reconcile::Action::Replace: return "replacing";
    case reconcile::Action::Release: return "releasing";
    case reconcile::Action::NoOp: break;
  }
  return "checking";
}

const char* past(reconcile::Action action) {
  switch (action) {
    case reconcile::Action::Create: return "created";
    case reconcile::Action::Update: return "updated";
    case reconcile::Action::Delete: return "deleted";
    case reconcile::Action::Replace: return "replaced";
    case reconcile::Action::Release: return "released";
    case reconcile::Action::NoOp: break;
  }
  return "unchanged";
}

}  // namespace

ProgressPrinter::ProgressPrinter(const reconcile::Plan& plan, bool terminal, const std::atomic<bool>* interrupt)
    : terminal_(terminal && plan.has_changes()), interrupt_(interrupt) {
  for (const reconcile::ClusterPlan& cluster : plan.clusters) {
    Line line;
    for (const reconcile::Change& change : cluster.changes) {
      if (change.action != reconcile::Action::NoOp) ++line.total;
      if (change.action != reconcile::Action::NoOp && change.restart && change.restart->enabled) ++line.total;
    }
    if (line.total == 0) continue;
    order_.push_back(cluster.cluster);
    lines_[cluster.cluster] = line;
  }
}

void ProgressPrinter::on_event(const reconcile::ProgressEvent& event) {
  std::lock_guard<std::mutex> lock(mutex_);
  using Phase = reconcile::ProgressEvent::Phase;
  Line& line = lines_[event.ref.cluster];
  const std::string object = describe(event.ref.address());
  switch (event.phase) {
    case Phase::Started:  // a restart says what it does ("restarting"), a change by its action
      line.current = (event.message.empty() ? std::string(verb_ing(event.action)) : event.message) + " " + object;
      break;
    case Phase::Done: {
      ++line.done;
      const std::string done = event.message.empty() ? past(event.action) : event.message;
      line.current = object + " " + done;
      if (!terminal_) base::print(stderr, "{}: {} {}\n", event.ref.cluster, object, done);
      break;
    }
    case Phase::Failed:
      ++line.done;
      ++line.failed;
      line.current = object + " failed";
      if (!terminal_) {
        base::print(stderr, "{}: {} failed: {}\n", event.ref.cluster, object, event.message);
      }
      break;
    case Phase::Waiting:
      line.current = "waiting for " + object + ": " + event.message;
      if (!terminal_) base::print(stderr, "{}: waiting for {}: {}\n", event.ref.cluster, object, event.message);
      break;
    case Phase::Ready:
      line.current = object + " Active";
      if (!terminal_) base::print(stderr, "{}: {} is Active\n", event.ref.cluster, object);
      break;
  }
  if (terminal_) redraw();
}

void ProgressPrinter::finish(const reconcile::ApplyReport& report) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (terminal_ && drawn_) {
    for (auto& [name, line] : lines_) {
      line.current = report.interrupted ? "interrupted" : line.failed ? "done with failures" : "done";
    }
    redraw();
  }
}

void ProgressPrinter::redraw() {
  if (interrupt_ != nullptr && interrupt_->load() && !redrawn_after_interrupt_) {
    redrawn_after_interrupt_ = true;
    drawn_ = false;  // the notice is below the lines: start anew under it
  }
  // The whole frame in one write: the cursor back over the lines drawn last, then each line anew.
  std::string frame;
  auto out = std::back_inserter(frame);
  if (drawn_) fmt::format_to(out, "{}", base::CursorUp{order_.size()});
  std::string text;
  for (const std::string& name : order_) {
    const Line& line = lines_[name];
    text.clear();
    fmt::format_to(std::back_inserter(text), "{}  {}/{}", name, line.done, line.total);
    if (line.failed) fmt::format_to(std::back_inserter(text), " ({} failed)", line.failed);
    text += "  ";
    text += line.current;
    if (text.size() > 110) text.replace(107, std::string::npos, "...");
    fmt::format_to(out, "{}{}\n", base::kEraseLine, text);
  }
  std::fwrite(frame.data(), 1, frame.size(), stderr);
  drawn_ = true;
}

}  // namespace mkq::cli
