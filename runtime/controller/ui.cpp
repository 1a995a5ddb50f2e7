#include "runtime/controller/ui.h"

#include <sstream>
#include <thread>

namespace mkq::controller {

namespace {

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
  std::istringstream text(diag::render_text(diagnostics, compilation.sources));
  for (std::string line; std::getline(text, line);) log_.line(line);
  if (!compilation.ok()) errors_.push_back("the policy does not compile");
}

void ControllerUi::error(const std::string& text) {
  errors_.push_back(text);
  log_.error(text);
}

void ControllerUi::output(const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) log_.line(line);
}

void ControllerUi::show_plan(const reconcile::Plan& plan) {
  plan_seconds_ = seconds_since(started_);
  const reconcile::PlanSummary s = plan.summary();
  log_.line("plan: " + std::to_string(s.add) + " to add, " + std::to_string(s.change) + " to change, " +
            std::to_string(s.destroy) + " to destroy, " + std::to_string(s.release) + " to release" +
            (s.unreachable_clusters > 0
                 ? ", " + std::to_string(s.unreachable_clusters) + " clusters unreachable"
                 : ""));
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
