// `mkq controller manifests` (cmd_controller_manifests.h): compile the policy,
// build the install objects, print them as YAML documents separated by
// "---", each with its notes as comments. Diagnostics and errors go to
// stderr; on an error nothing is printed and the exit code is 1.
#include "cli/cmd_controller_manifests.h"

#include <cstdio>
#include <iterator>
#include <string>

#include <fmt/format.h>

#include "base/print.h"
#include "cli/compile.h"
#include "cli/terminal_ui.h"
#include "compiler/kueue/yaml_emit.h"
#include "runtime/install/manifests.h"

namespace mkq::cli {
namespace {

std::string render(const install::Manifests& manifests) {
  std::string out;
  for (const install::Manifest& manifest : manifests.documents) {
    out += "---\n";
    for (const std::string& note : manifest.notes) fmt::format_to(std::back_inserter(out), "# {}\n", note);
    out += kueue::to_yaml(manifest.document);
  }
  return out;
}

}  // namespace

ControllerManifestsCommand::ControllerManifestsCommand(CLI::App& app) {
  CLI::App* controller = nullptr;
  for (CLI::App* sub : app.get_subcommands([](CLI::App* s) { return s->get_name() == "controller"; })) controller = sub;
  if (controller == nullptr) {
    controller = app.add_subcommand("controller", "The reconcile loop in the manager cluster (docs/controller.md)");
    controller->require_subcommand(1);
  }
  manifests_cmd_ = controller->add_subcommand(
      "manifests", "Print what runs the controller on the manager: Namespace, RBAC, policy, Deployment (YAML)");
  manifests_cmd_->add_option("POLICY", path_, "A .mkq file or a directory of them (default: .)");
  manifests_cmd_->add_option("--namespace", namespace_name_, "Where the controller runs (default: mkq-system)")
      ->type_name("NS");
  manifests_cmd_->add_option("--image", image_, "The controller's container image (default: mkq:" MKQ_VERSION ")")
      ->type_name("IMG");
}

std::optional<int> ControllerManifestsCommand::run(const GlobalOptions& global) {
  if (!*manifests_cmd_) return std::nullopt;
  const Compilation compiled = compile(path_, CompileTo::Objects, global);
  print_diagnostics(compiled, global);
  if (!compiled.ok() || !compiled.state) return 1;
  auto options = install::options_from(compiled, path_);
  if (!options) {
    error_line(options.error().message);
    return 1;
  }
  options.value().namespace_name = namespace_name_;
  options.value().image = image_.empty() ? std::string("mkq:") + MKQ_VERSION : image_;
  options.value().version = MKQ_VERSION;
  const auto manifests = install::controller_manifests(options.value());
  if (!manifests) {
    error_line(manifests.error().message);
    return 1;
  }
  for (const std::string& warning : manifests.value().warnings) base::print(stderr, "mkq: warning: {}\n", warning);
  const std::string text = render(manifests.value());
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}

}  // namespace mkq::cli
