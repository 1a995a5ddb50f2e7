#include "cli/terminal_ui.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>

#include <fmt/format.h>

#include "base/print.h"
#include "cli/compile.h"
#include "cli/interrupt.h"

namespace mkq::cli {

namespace {

// The interrupt handlers as the apply's cancellation, for as long as it runs.
class InterruptCancellation : public operation::Cancellation {
 public:
  const std::atomic<bool>* token() const override { return scope_.token(); }

 private:
  InterruptScope scope_;
};

}  // namespace

void error_line(const std::string& message) { base::print(stderr, "mkq: error: {}\n", message); }

TerminalUi::TerminalUi(const GlobalOptions& global, PlanFormat format) : global_(global), format_(format) {}

void TerminalUi::compiled(const operation::Compilation& compilation) {
  print_timings(compilation, global_);
  print_diagnostics(compilation, global_);
}

// The first line of every run: where it goes. "mkq: target: kubeconfig
// /home/a/.kube/config (~/.kube/config): manager -> context kind-manager, ..."
void TerminalUi::target(const operation::TargetChoice& choice) {
  if (choice.sandbox) {
    base::print(stderr, "mkq: target: the sandbox at {}{}\n", choice.sandbox_dir,
                choice.sandbox_asked ? "" : " (no --kubeconfig, KUBECONFIG or ~/.kube/config)");
    return;
  }
  constexpr std::size_t kListed = 8;
  std::string line;
  auto out = std::back_inserter(line);
  fmt::format_to(out, "mkq: target: {}:",
                 choice.common_kubeconfig.empty() ? "the policy's kubeconfigs" : choice.common_kubeconfig);
  const auto& routes = choice.routes;
  for (std::size_t i = 0; i < routes.size() && i < kListed; ++i) {
    fmt::format_to(out, "{}{} -> context {}", i == 0 ? " " : ", ", routes[i].cluster, routes[i].context);
    if (!routes[i].own_file.empty()) fmt::format_to(out, " in {}", routes[i].own_file);
  }
  if (routes.size() > kListed) fmt::format_to(out, ", and {} more", routes.size() - kListed);
  base::print(stderr, "{}\n", line);
}

void TerminalUi::notice(const std::string& text) { base::print(stderr, "mkq: {}\n", text); }

void TerminalUi::error(const std::string& text) { error_line(text); }

void TerminalUi::output(const std::string& text) { base::print(stderr, "{}", text); }

namespace {

// One cluster's regime, e.g. "mkq: worker1: server announces API Priority and
// Fairness; no client-side rate limit".
void print_pacing(const operation::Timing::Pacing& pacing) {
  const std::string limit = fmt::format("{:.6g} requests/s, bursts of {}", pacing.qps, pacing.burst);
  std::string line;
  switch (pacing.regime) {
    case kube::RateRegime::ServerFairness:
      line = "server announces API Priority and Fairness; no client-side rate limit";
      break;
    case kube::RateRegime::ClientLimit:
      line = "server does not announce API Priority and Fairness; client-side limit " + limit;
      break;
    case kube::RateRegime::Explicit:
      line = "client-side limit " + limit + " as --qps/--burst ask" +
             (pacing.priority_and_fairness ? " (the server announces API Priority and Fairness)" : "");
      break;
  }
  base::print(stderr, "mkq: {}: {}\n", pacing.cluster, line);
}

// One cluster's changes at once over an apply, e.g. "mkq: worker1: up to 16
// changes at once; the server turned none away" (reconcile/concurrency.h).
void print_concurrency(const operation::Timing::Concurrency& cluster) {
  const reconcile::ConcurrencyReport& limit = cluster.limit;
  if (cluster.throttled == 0 && limit.cuts == 0) {
    base::print(stderr, "mkq: {}: up to {} changes at once; the server turned none away\n", cluster.cluster,
                limit.ceiling);
    return;
  }
  base::print(stderr,
              "mkq: {}: the server answered 429 {} {} (each tried again): changes at once cut {} {} from {}, to {} "
              "at the lowest, {} at the end\n",
              cluster.cluster, cluster.throttled, cluster.throttled == 1 ? "time" : "times", limit.cuts,
              limit.cuts == 1 ? "time" : "times", limit.ceiling, limit.lowest, limit.final);
}

}  // namespace

void TerminalUi::timing(const operation::Timing& timing) {
  if (!global_.verbose) return;
  std::fflush(stdout);  // what the run printed before comes first (print_timing)
  switch (timing.step) {
    case operation::Timing::Step::Refresh:
      base::print(stderr, "mkq: refresh  {:8.1f} ms ({} LISTs, {} requests in all)\n", timing.milliseconds,
                  timing.lists, timing.requests);
      for (const operation::Timing::Pacing& pacing : timing.pacing) print_pacing(pacing);
      break;
    case operation::Timing::Step::Apply:
      base::print(stderr, "mkq: {:<7} {:8.1f} ms ({} requests, {} retried, {} TLS connections in all)\n",
                  timing.command, timing.milliseconds, timing.requests, timing.retries, timing.connections);
      for (const operation::Timing::Concurrency& cluster : timing.concurrency) print_concurrency(cluster);
      break;
    case operation::Timing::Step::Status:
      base::print(stderr, "mkq: status   {:8.1f} ms ({} LISTs)\n", timing.milliseconds, timing.lists);
      break;
  }
}

void TerminalUi::show_plan(const reconcile::Plan& plan) {
  std::string text;
  switch (format_) {
    case PlanFormat::Text: text = reconcile::render_text(plan, global_.color); break;
    case PlanFormat::Markdown: text = reconcile::render_markdown(plan); break;
    case PlanFormat::Json: text = reconcile::render_json(plan).dump(2) + "\n"; break;
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

bool TerminalUi::confirm(const reconcile::Plan& plan) {
  if (isatty(STDIN_FILENO) != 1) {
    error_line(fmt::format("{} asks for confirmation and there is no terminal to ask on: run it with --auto-approve",
                           plan.kind == reconcile::PlanKind::Destroy ? "destroy" : "apply"));
    return false;
  }
  base::print(stderr, "\nDo you want to perform these actions? Only 'yes' will be accepted: ");
  std::string answer;
  if (!std::getline(std::cin, answer) || answer != "yes") {
    base::print(stderr, "mkq: cancelled, nothing was changed\n");
    return false;
  }
  return true;
}

std::unique_ptr<operation::Cancellation> TerminalUi::begin_apply(const reconcile::Plan& plan) {
  auto cancellation = std::make_unique<InterruptCancellation>();
  printer_ = std::make_unique<ProgressPrinter>(plan, isatty(STDERR_FILENO) == 1, cancellation->token());
  return cancellation;
}

void TerminalUi::progress(const reconcile::ProgressEvent& event) {
  if (printer_) printer_->on_event(event);
}

void TerminalUi::end_apply(const reconcile::ApplyReport& report) {
  if (printer_) printer_->finish(report);
  printer_.reset();
}

void TerminalUi::status_poll(std::size_t active, std::size_t total) {
  base::print(stderr, "mkq: waiting: {} of {} objects Active\n", active, total);
}

}  // namespace mkq::cli
