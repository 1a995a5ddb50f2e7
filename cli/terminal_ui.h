// The operations' UI port on a terminal (runtime/operation/ui.h): messages on
// stderr as "mkq: ..." and "mkq: error: ...", the plan on stdout in the
// format asked for, the confirmation prompt, progress lines, and SIGINT and
// SIGTERM turned into the apply's cancellation (cli/interrupt.h).
#pragma once

#include <memory>

#include "cli/commands.h"
#include "cli/progress.h"
#include "runtime/operation/ui.h"

namespace mkq::cli {

class TerminalUi : public operation::Ui {
 public:
  TerminalUi(const GlobalOptions& global, PlanFormat format = PlanFormat::Text);

  void compiled(const operation::Compilation& compilation) override;
  void target(const operation::TargetChoice& choice) override;
  void notice(const std::string& text) override;
  void error(const std::string& text) override;
  void output(const std::string& text) override;
  void timing(const operation::Timing& timing) override;
  void show_plan(const reconcile::Plan& plan) override;
  bool confirm(const reconcile::Plan& plan) override;
  std::unique_ptr<operation::Cancellation> begin_apply(const reconcile::Plan& plan) override;
  void progress(const reconcile::ProgressEvent& event) override;
  void end_apply(const reconcile::ApplyReport& report) override;
  void status_poll(std::size_t active, std::size_t total) override;

 private:
  GlobalOptions global_;
  PlanFormat format_;
  std::unique_ptr<ProgressPrinter> printer_;  // during an apply
};

// "mkq: error: MESSAGE" on stderr.
void error_line(const std::string& message);

}  // namespace mkq::cli
