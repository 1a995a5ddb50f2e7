#include "runtime/controller/ui.h"

#include <iterator>
#include <string_view>
#include <thread>

#include <fmt/format.h>

namespace mkq::controller {

namespace {

// Each line of `text` (without its newline) to the log, as std::getline would split it.
void log_lines(Log& log, std::string_view text) {
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    log.line(std::string(text.substr(0, end)));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The executor reads one token (reconcile::ApplyOptions::cancel): this one
// turns true, for the span of one apply, once either source does -- at once
// when one already has, else within kRelayEvery.
class EitherCancellation final : public operation::Cancellation {
 public:
  static constexpr std::chrono::milliseconds kRelayEvery{20};

  EitherCancellation(const std::atomic<bool>* first, const std::atomic<bool>* second)
      : first_(first), second_(second) {
    if (relay()) return;
    watching_ = std::thread([this] {
      while (!done_.load() && !relay()) std::this_thread::sleep_for(kRelayEvery);
    });
  }
  ~EitherCancellation() override {
    done_.store(true);
    if (watching_.joinable()) watching_.join();
  }
  EitherCancellation(const EitherCancellation&) = delete;
  EitherCancellation& operator=(const EitherCancellation&) = delete;

  const std::atomic<bool>* token() const override { return &cancelled_; }

 private:
  // True (and the token set) once a source reads true.
  bool relay() {
    if ((first_ != nullptr && first_->load()) || (second_ != nullptr && second_->load())) cancelled_.store(true);
    return cancelled_.load();
  }

  const std::atomic<bool>* first_;
  const std::atomic<bool>* second_;
  std::atomic<bool> cancelled_{false};
  std::atomic<bool> done_{false};
  std::thread watching_;
};

}  // namespace

void ControllerUi::compiled(const operation::Compilation& compilation) {
  const auto diagnostics = compilation.diagnostics.sorted(compilation.sources);
  if (diagnostics.empty()) return;
  log_lines(log_, diag::render_text(diagnostics, compilation.sources));
  if (!compilation.ok()) errors_.push_back("the policy does not compile");
}

void ControllerUi::error(const std::string& text) {
  errors_.push_back(text);
  log_.error(text);
}

void ControllerUi::output(const std::string& text) {
  log_lines(log_, text);
}

void ControllerUi::show_plan(const reconcile::Plan& plan) {
  plan_seconds_ = seconds_since(started_);
  const reconcile::PlanSummary s = plan.summary();
  std::string line = fmt::format("plan: {} to add, {} to change, {} to destroy, {} to release", s.add, s.change,
                                 s.destroy, s.release);
  if (s.unreachable_clusters > 0) fmt::format_to(std::back_inserter(line), ", {} clusters unreachable", s.unreachable_clusters);
  log_.line(line);
}

std::unique_ptr<operation::Cancellation> ControllerUi::begin_apply(const reconcile::Plan&) {
  apply_started_ = std::chrono::steady_clock::now();
  if (lost_ == nullptr && stop_ == nullptr) return nullptr;
  return std::make_unique<EitherCancellation>(lost_, stop_);
}

void ControllerUi::progress(const reconcile::ProgressEvent& event) {
  using Phase = reconcile::ProgressEvent::Phase;
  if (event.phase == Phase::Done)
    log_.line(std::string(reconcile::action_name(event.action)) + " " + event.ref.address());
  if (event.phase == Phase::Failed) log_.line("failed: " + event.ref.address() + ": " + event.message);
}

void ControllerUi::end_apply(const reconcile::ApplyReport&) {
  apply_seconds_ = seconds_since(apply_started_);
}

}  // namespace mkq::controller
