#include "runtime/controller/ui.h"

#include <sstream>

namespace mkq::controller {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

class LeadershipCancellation final : public operation::Cancellation {
 public:
  explicit LeadershipCancellation(const std::atomic<bool>* lost) : lost_(lost) {}
  const std::atomic<bool>* token() const override { return lost_; }

 private:
  const std::atomic<bool>* lost_;
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
  if (lost_ == nullptr) return nullptr;
  return std::make_unique<LeadershipCancellation>(lost_);
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
