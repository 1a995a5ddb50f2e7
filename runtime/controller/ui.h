// The operations' Ui port as the controller implements it: nobody to ask, so
// every plan is carried out as far as the run's ChangeSelection allows;
// what a run says goes to the log; what it took is measured for /metrics;
// and an apply stops starting changes the moment this replica stops leading
// or the controller is told to stop (SIGTERM), as `mkq apply` does on its
// first interrupt: the changes in flight finish and the state is written.
#pragma once

#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "runtime/controller/controller.h"
#include "runtime/operation/ui.h"

namespace mkq::controller {

class ControllerUi final : public operation::Ui {
 public:
  // `lost` (null: never) reads true once this replica may no longer apply;
  // `stop` (null: never) once the controller is to end.
  ControllerUi(Log& log, const std::atomic<bool>* lost, const std::atomic<bool>* stop = nullptr)
      : log_(log), lost_(lost), stop_(stop) {}

  void compiled(const operation::Compilation& compilation) override;
  void target(const operation::TargetChoice&) override {}
  void notice(const std::string& text) override { log_.line(text); }
  void error(const std::string& text) override;
  void output(const std::string& text) override;
  void timing(const operation::Timing&) override {}
  void show_plan(const reconcile::Plan& plan) override;
  bool confirm(const reconcile::Plan&) override { return true; }
  std::unique_ptr<operation::Cancellation> begin_apply(const reconcile::Plan& plan) override;
  void progress(const reconcile::ProgressEvent& event) override;
  void end_apply(const reconcile::ApplyReport& report) override;
  void status_poll(std::size_t, std::size_t) override {}

  // Every error the run reported, in order.
  const std::vector<std::string>& errors() const { return errors_; }
  // Seconds from construction to the plan, and from the apply's start to its end.
  std::optional<double> plan_seconds() const { return plan_seconds_; }
  std::optional<double> apply_seconds() const { return apply_seconds_; }

 private:
  Log& log_;
  const std::atomic<bool>* lost_;
  const std::atomic<bool>* stop_;
  std::vector<std::string> errors_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point apply_started_;
  std::optional<double> plan_seconds_, apply_seconds_;
};

}  // namespace mkq::controller
