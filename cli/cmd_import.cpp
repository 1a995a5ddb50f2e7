// `mkq import`: flags in, the policy and its findings out.
#include "cli/cmd_import.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <map>

#include <fmt/format.h>

#include "base/files.h"
#include "base/print.h"
#include "cli/run_options.h"
#include "cli/terminal_ui.h"
#include "runtime/importer/adopt.h"
#include "runtime/importer/importer.h"
#include "runtime/operation/session.h"

namespace mkq::cli {
namespace {

namespace fs = std::filesystem;

// NAME=VALUE pairs of --worker, by name; false (printed) when one is malformed.
bool worker_sources(const std::vector<std::string>& given, std::map<std::string, std::string>* out) {
  return std::ranges::all_of(given, [out](const std::string& pair) {
    const std::size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == pair.size()) {
      error_line(fmt::format("--worker takes NAME=FILE (or NAME=CONTEXT with --context), not \"{}\"", pair));
      return false;
    }
    (*out)[pair.substr(0, eq)] = pair.substr(eq + 1);
    return true;
  });
}

// Where the policy goes: PATH itself for a .mkq file, else PATH/policy.mkq.
fs::path policy_file(const std::string& output) {
  const fs::path path(output);
  return path.extension() == ".mkq" ? path : path / "policy.mkq";
}

// The policy into a file that must be new: never over one, even one that
// appears while it is written.
bool write_new_file(const fs::path& path, const std::string& text) {
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  base::FileWrite options;
  options.create_new = true;
  const base::Result<void> written = base::write_file(path, text, options);
  if (written) return true;
  if (written.error().reason == base::kFileExists) {
    error_line(fmt::format("{} exists: mkq import writes a new policy, never over one (remove it or choose another -o)",
                           path.string()));
  } else {
    error_line(fmt::format("cannot write {}", path.string()));
  }
  return false;
}

void print_findings(const importer::Imported& imported) {
  for (const importer::Finding& finding : imported.findings) {
    const bool note = finding.kind == importer::Finding::Kind::Note;
    base::print(stderr, "mkq: {}: {}\n", note ? "note" : "warning", importer::describe(finding));
  }
}

}  // namespace

ImportCommand::ImportCommand(CLI::App& app, const ClusterCommands& clusters) {
  cmd_ = app.add_subcommand("import",
                            "Write a policy from Kueue YAML files or live clusters; --adopt makes their "
                            "objects the policy's");
  cmd_->add_option("FILE", files_,
                   "Kueue YAML files holding the manager's objects (without: read --context live)");
  cmd_->add_option(
          "--worker", workers_,
          "A worker's own objects: NAME=FILE (repeatable), or NAME=CONTEXT when reading live (default: a "
          "context of the worker's name)")
      ->type_name("NAME=SOURCE");
  cmd_->add_option("--context", context_, "Read the manager live through this kubeconfig context");
  cmd_->add_option("--manager", manager_,
                   "The manager's name in the policy (default: the context, or \"manager\")");
  cmd_->add_option("-o,--output", output_,
                   "Write the policy to this .mkq file, or DIR/policy.mkq (default: print it)");
  cmd_->add_option(
          "--credentials", credentials_,
          "How the policy gets each worker's kubeconfig: serviceaccount (mkq issues tokens; default for "
          "files) or kubeconfig (the Secret's current kubeconfig from an environment variable; default live)")
      ->check(CLI::IsMember({"serviceaccount", "kubeconfig"}));
  cmd_->add_flag(
      "--adopt", adopt_,
      "Record the objects read as this policy's (live, with -o): the next plan shows no changes and "
      "destroy releases them");
  clusters.add_runtime_options(cmd_, runtime_);
}

// The flags that go together; false (printed) when they do not.
bool ImportCommand::consistent(bool live) const {
  if (live && context_.empty()) {
    error_line("name Kueue YAML files to import, or --context CONTEXT to read a live manager");
    return false;
  }
  if (!live && !context_.empty()) {
    error_line("--context reads a live manager; it does not go with FILEs");
    return false;
  }
  if (adopt_ && (!live || output_.empty())) {
    error_line("--adopt records live objects in the policy's state: it needs --context and -o");
    return false;
  }
  return true;
}

// The objects read, from files or live; notes about workers not read in `notes`.
std::optional<importer::Snapshot> ImportCommand::read(const std::map<std::string, std::string>& workers,
                                                      std::vector<std::string>& notes) const {
  if (files_.empty()) {
    importer::ContextRequest request{runtime_.kubeconfig, context_, manager_, workers};
    request.insecure_skip_tls_verify = runtime_.insecure_skip_tls_verify;
    request.request_timeout = runtime_.request_timeout;
    if (runtime_.sandbox) {  // the sandbox of the policy to be written (it must be running)
      const std::string policy = output_.empty() ? "." : policy_file(output_).string();
      request.kubeconfig = (operation::sandbox_dir_for(policy, runtime_) / "kubeconfig").string();
    }
    base::Result<importer::LiveImport> live = importer::read_contexts(request);
    if (!live) {
      error_line(base::render(live.error()));
      return std::nullopt;
    }
    notes = std::move(live.value().notes);
    return std::move(live.value().snapshot);
  }
  std::map<std::string, std::vector<std::string>> worker_files;
  for (const auto& [name, file] : workers) worker_files[name].push_back(file);
  base::Result<importer::Snapshot> read =
      importer::read_files(manager_.empty() ? "manager" : manager_, files_, worker_files);
  if (!read) {
    error_line(base::render(read.error()));
    return std::nullopt;
  }
  return std::move(read).value();
}

// --adopt of the policy written to `file`: the exit code.
int ImportCommand::adopt(const fs::path& file, std::size_t represented, const GlobalOptions& global) const {
  operation::ApplyRequest request;
  if (!run_options(file.string(), runtime_, global, &request)) return 1;
  TerminalUi ui(global);
  operation::KubeconfigResolver resolver;
  const importer::AdoptResult adopted = importer::adopt(request, resolver, ui);
  if (!adopted.refused.empty()) {
    error_line(fmt::format(
        "--adopt: the plan does more than adopt what exists, so nothing was changed (the policy is written; `mkq "
        "plan {}` shows it):",
        file.string()));
    for (const std::string& line : adopted.refused) base::print(stderr, "  {}\n", line);
    return 1;
  }
  if (adopted.apply.stop != operation::Stop::None) return 1;
  if (adopted.apply.report && !adopted.apply.report->success()) return 1;
  base::print(stderr, "mkq: adopted {} objects; the state records them as existing before mkq\n", represented);
  return 0;
}

std::optional<int> ImportCommand::run(const GlobalOptions& global) {
  if (!*cmd_) return std::nullopt;
  std::map<std::string, std::string> workers;
  if (!worker_sources(workers_, &workers)) return 1;
  const bool live = files_.empty();
  if (!consistent(live)) return 1;
  std::vector<std::string> notes;
  const std::optional<importer::Snapshot> snapshot = read(workers, notes);
  if (!snapshot) return 1;
  importer::WriteOptions write;
  write.manager = snapshot->clusters.front().name;
  const std::string style = credentials_.empty() ? (live ? "kubeconfig" : "serviceaccount") : credentials_;
  write.credentials =
      style == "kubeconfig" ? importer::Credentials::Kubeconfig : importer::Credentials::ServiceAccount;
  write.header = live ? fmt::format("Imported by mkq import from context {}", context_) : "Imported by mkq import";
  base::Result<importer::Imported> imported = importer::import_policy(*snapshot, write);
  if (!imported) {
    error_line(base::render(imported.error()));
    return 1;
  }
  for (const std::string& note : notes) base::print(stderr, "mkq: note: {}\n", note);
  print_findings(imported.value());
  if (output_.empty()) {
    base::print("{}", imported.value().policy);
    return 0;
  }
  const fs::path file = policy_file(output_);
  if (!write_new_file(file, imported.value().policy)) return 1;
  std::size_t read_count = 0;
  for (const importer::ClusterSource& c : snapshot->clusters) read_count += c.objects.size();
  base::print(stderr, "mkq: wrote {} ({} objects read, {} as they are)\n", file.string(), read_count,
              imported.value().represented.size());
  return adopt_ ? adopt(file, imported.value().represented.size(), global) : 0;
}

}  // namespace mkq::cli
