#include "cli/session.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <system_error>

#include "cli/hints.h"
#include "compiler/diag/diagnostic.h"
#include "compiler/kueue/crds.h"
#include "compiler/kueue/policy_name.h"
#include "sandbox/daemon.h"

namespace mkq::cli {

namespace {

namespace fs = std::filesystem;
namespace model = sema::model;

// The directory a policy PATH's relative paths are relative to.
fs::path policy_dir(const std::string& policy_path) {
  std::error_code ec;
  const fs::path path = fs::absolute(policy_path, ec);
  return fs::is_directory(path, ec) ? path : path.parent_path();
}

struct ClusterSpec {
  std::string name;
  kueue::ClusterRole role = kueue::ClusterRole::Worker;
  bool in_policy = true;   // false: only the inventory names it (its objects are to be pruned)
  std::string context;
  std::string kubeconfig;  // the policy's own kubeconfig path for this cluster ("" : the common one)
};

// The clusters to connect to: the policy's and `extra`, without the excluded ones.
std::vector<ClusterSpec> cluster_specs(const model::Policy& policy, const std::vector<std::string>& extra,
                                       const std::vector<std::string>& excluded) {
  std::vector<ClusterSpec> specs;
  const auto spec_of = [](const std::string& name, kueue::ClusterRole role, const model::Connection& connection) {
    ClusterSpec spec{name, role, true, connection.context.value, ""};
    if (spec.context.empty()) spec.context = name;
    if (connection.kubeconfig) spec.kubeconfig = connection.kubeconfig->value;
    return spec;
  };
  specs.push_back(spec_of(policy.manager.name, kueue::ClusterRole::Manager, policy.manager.connection));
  for (const model::Worker& worker : policy.workers) {
    specs.push_back(spec_of(worker.name, kueue::ClusterRole::Worker, worker.connection));
  }
  for (const std::string& name : extra) specs.push_back({name, kueue::ClusterRole::Worker, false, name, ""});
  std::erase_if(specs, [&](const ClusterSpec& spec) {
    return std::find(excluded.begin(), excluded.end(), spec.name) != excluded.end();
  });
  return specs;
}

// A path as the user would type it: relative to the working directory when it
// lies below it, else absolute.
std::string shown(const fs::path& path) {
  std::error_code ec;
  const fs::path relative = fs::relative(path, fs::current_path(ec), ec);
  if (ec || relative.empty() || *relative.begin() == "..") return path.string();
  return relative.string();
}

// Starts the sandbox with the policy's clusters unless it runs with all of them.
bool ensure_sandbox(const std::vector<ClusterSpec>& specs, const fs::path& dir, bool verbose) {
  std::vector<std::string> wanted;
  for (const ClusterSpec& spec : specs) wanted.push_back(spec.name);
  const std::vector<std::string> running = sandbox::running_clusters(dir);
  if (!running.empty()) {
    for (const std::string& name : wanted) {
      if (std::find(running.begin(), running.end(), name) == running.end()) {
        std::string list;
        for (const std::string& r : running) list += (list.empty() ? "" : ", ") + r;
        std::fprintf(stderr,
                     "mkq: error: the sandbox at %s serves %s, not the policy's cluster %s: stop it with `mkq sandbox "
                     "down --dir %s` (its objects are kept) and run again\n",
                     shown(dir).c_str(), list.c_str(), name.c_str(), shell_word(shown(dir)).c_str());
        return false;
      }
    }
    return true;
  }
  sandbox::SandboxOptions options;
  options.dir = dir;
  options.clusters = wanted;
  for (const kueue::Json& crd : kueue::kueue_crds()) options.builtin_crds.push_back(nlohmann::json::parse(crd.dump()));
  std::ostringstream out;
  std::fprintf(stderr, "mkq: starting the sandbox at %s with clusters", shown(dir).c_str());
  for (const std::string& name : wanted) std::fprintf(stderr, " %s", name.c_str());
  std::fputs("\n", stderr);
  const int code = sandbox::sandbox_up(options, out, std::cerr);
  if (verbose) std::fputs(out.str().c_str(), stderr);
  return code == 0;
}

// Names the cluster of a spec for messages: `the policy's worker "w1"`.
std::string spec_name(const ClusterSpec& spec) {
  if (!spec.in_policy) return "cluster \"" + spec.name + "\" (in the state, no longer in the policy)";
  return std::string("the policy's ") + (spec.role == kueue::ClusterRole::Manager ? "manager" : "worker") + " \"" +
         spec.name + "\"";
}

// "kubeconfig /a (KUBECONFIG)" or, for a cluster's own file, "kubeconfig /p";
// with `skipped`, the KUBECONFIG entries that do not exist too.
std::string kubeconfig_named(const kube::Kubeconfig& config, bool skipped = false) {
  std::string how = config.named_by;
  for (const fs::path& file : skipped ? config.skipped : std::vector<fs::path>{}) {
    how += (how.empty() ? "" : "; ") + std::string("skipped ") + file.string() + ": does not exist";
  }
  return "kubeconfig " + kube::files_list(config) + (how.empty() ? "" : " (" + how + ")");
}

// Why a spec's context cannot be used, or "" when it resolves (then *endpoint is set).
std::string context_problem(const ClusterSpec& spec, const kube::Kubeconfig& config, const RuntimeOptions& options,
                            const std::string& policy_path, kube::Endpoint* endpoint) {
  if (config.contexts.count(spec.context) == 0) {
    std::vector<std::string> names;
    for (const auto& [name, entry] : config.contexts) names.push_back(name);
    std::string list;
    for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
    std::string text = spec_name(spec) + " is reached through context \"" + spec.context + "\", which " +
                       kubeconfig_named(config) + " does not have";
    if (const auto match = diag::closest_match(spec.context, names)) text += "; did you mean '" + *match + "'?";
    text += " (its contexts: " + (list.empty() ? std::string("none") : list) + ")";
    if (!spec.in_policy) {
      text += "; to go on without it, forget its objects with `" +
              state_command("state rm", policy_path, options.state_path, {"--cluster", spec.name}) +
              "` or leave them as they are with --exclude-cluster " + shell_word(spec.name);
    }
    return text;
  }
  std::string error;
  std::optional<kube::Endpoint> resolved =
      kube::resolve_context(config, spec.context, options.insecure_skip_tls_verify, &error);
  if (!resolved) return spec_name(spec) + ": " + error;
  *endpoint = std::move(*resolved);
  return "";
}

// The common kubeconfig: --kubeconfig, KUBECONFIG or ~/.kube/config. False
// (message printed) when one is named and cannot be read; *common empty when
// none is named at all.
bool load_common(const RuntimeOptions& options, std::optional<kube::Kubeconfig>* common) {
  kube::LoadOptions load;
  load.explicit_file = options.kubeconfig;
  std::string error;
  bool found_none = false;
  *common = kube::load_kubeconfig(load, &error, &found_none);
  if (*common || found_none) return true;
  std::fprintf(stderr, "mkq: error: %s\n", error.c_str());
  return false;
}

// The first line of every run: where it goes. "mkq: target: kubeconfig
// /home/a/.kube/config (~/.kube/config): manager -> context kind-manager, ..."
void print_kubeconfig_target(const std::vector<ClusterSpec>& specs, const std::vector<std::string>& files,
                             const kube::Kubeconfig* common) {
  constexpr std::size_t kListed = 8;
  std::string line = "mkq: target: ";
  if (common != nullptr) {
    line += kubeconfig_named(*common, true);
  } else {
    line += "the policy's kubeconfigs";
  }
  line += ":";
  for (std::size_t i = 0; i < specs.size() && i < kListed; ++i) {
    line += std::string(i == 0 ? " " : ", ") + specs[i].name + " -> context " + specs[i].context;
    if (!files[i].empty()) line += " in " + files[i];
  }
  if (specs.size() > kListed) line += ", and " + std::to_string(specs.size() - kListed) + " more";
  std::fprintf(stderr, "%s\n", line.c_str());
}

// Where each cluster's context is looked up. Not copied or moved once filled:
// `of` points into `common` and `own`.
struct Kubeconfigs {
  std::optional<kube::Kubeconfig> common;       // --kubeconfig / KUBECONFIG / ~/.kube/config, or the sandbox's
  std::map<std::string, kube::Kubeconfig> own;  // the clusters' own, by absolute path
  std::vector<const kube::Kubeconfig*> of;      // per spec; null: none
  std::vector<std::string> own_file;            // per spec: its own file as shown; "" for the common one
};

// The sandbox as the target: says so first, starts it when needed, and reads its kubeconfig.
bool open_sandbox(const std::vector<ClusterSpec>& specs, const fs::path& dir, bool asked, bool verbose,
                  Kubeconfigs& kubeconfigs) {
  std::fprintf(stderr, "mkq: target: the sandbox at %s%s\n", shown(dir).c_str(),
               asked ? "" : " (no --kubeconfig, KUBECONFIG or ~/.kube/config)");
  if (!ensure_sandbox(specs, dir, verbose)) return false;
  kube::LoadOptions load;
  load.explicit_file = dir / "kubeconfig";
  load.explicit_named_by = "the sandbox";
  std::string error;
  kubeconfigs.common = kube::load_kubeconfig(load, &error);
  if (!kubeconfigs.common) {
    std::fprintf(stderr, "mkq: error: the sandbox's kubeconfig: %s\n", error.c_str());
    return false;
  }
  kubeconfigs.of.assign(specs.size(), &*kubeconfigs.common);
  kubeconfigs.own_file.assign(specs.size(), "");
  return true;
}

// Each spec's kubeconfig: its own (`kubeconfig = "PATH"`, relative to the
// policy), else the common one. False (every problem printed) when a cluster's
// own file cannot be read.
bool load_own_kubeconfigs(const std::vector<ClusterSpec>& specs, const fs::path& base, Kubeconfigs& kubeconfigs) {
  kubeconfigs.of.assign(specs.size(), kubeconfigs.common ? &*kubeconfigs.common : nullptr);
  kubeconfigs.own_file.assign(specs.size(), "");
  bool ok = true;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const ClusterSpec& spec = specs[i];
    if (spec.kubeconfig.empty()) continue;
    const fs::path path = fs::path(spec.kubeconfig).is_absolute() ? fs::path(spec.kubeconfig) : base / spec.kubeconfig;
    auto it = kubeconfigs.own.find(path.string());
    if (it == kubeconfigs.own.end()) {
      kube::LoadOptions load;
      load.explicit_file = path;
      load.explicit_named_by = "kubeconfig = \"" + spec.kubeconfig + "\" of " + spec_name(spec);
      std::string error;
      std::optional<kube::Kubeconfig> loaded = kube::load_kubeconfig(load, &error);
      if (!loaded) {
        std::fprintf(stderr, "mkq: error: %s\n", error.c_str());
        ok = false;
        continue;
      }
      loaded->named_by.clear();  // messages and the target line name the file only
      it = kubeconfigs.own.emplace(path.string(), std::move(*loaded)).first;
    }
    kubeconfigs.of[i] = &it->second;
    kubeconfigs.own_file[i] = shown(path);
  }
  return ok;
}

// Every cluster's endpoint, before anything is read or changed. False (every
// problem printed) when a context is missing or unusable.
bool resolve_contexts(const std::vector<ClusterSpec>& specs, const Kubeconfigs& kubeconfigs, bool sandbox,
                      const RuntimeOptions& options, const std::string& policy_path,
                      std::vector<kube::Endpoint>* endpoints) {
  endpoints->assign(specs.size(), kube::Endpoint{});
  bool resolved = true;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    ClusterSpec spec = specs[i];
    if (sandbox) spec.context = spec.name;  // in the sandbox every cluster's context is named after it
    const std::string problem =
        kubeconfigs.of[i] == nullptr
            ? spec_name(spec) + " has no kubeconfig: the policy names none for it, and there is no --kubeconfig, "
                                "KUBECONFIG or ~/.kube/config"
            : context_problem(spec, *kubeconfigs.of[i], options, policy_path, &(*endpoints)[i]);
    if (problem.empty()) continue;
    std::fprintf(stderr, "mkq: error: %s\n", problem.c_str());
    resolved = false;
  }
  return resolved;
}

// A client per cluster (a cluster whose client cannot be made is a target
// without one: reported as unreachable), and the credential provider.
void connect(const model::Policy& policy, const std::vector<ClusterSpec>& specs,
             const std::vector<kube::Endpoint>& endpoints, const RuntimeOptions& options,
             const credentials::ProviderOptions& provider_options, Session* session) {
  kube::ClientOptions client_options;
  client_options.qps = options.qps;
  client_options.burst = options.burst;
  std::map<std::string, credentials::WorkerAccess> workers;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const ClusterSpec& spec = specs[i];
    reconcile::Target target;
    target.cluster = spec.name;
    target.role = spec.role;
    std::string error;
    std::unique_ptr<kube::Client> client = kube::make_http_client(endpoints[i], client_options, &error);
    if (client) {
      target.client = client.get();
      session->clients.push_back(std::move(client));
      session->endpoints[spec.name] = endpoints[i];
    } else {
      target.connect_error = error;
    }
    if (spec.role == kueue::ClusterRole::Worker) {
      workers[spec.name] = credentials::WorkerAccess{endpoints[i], target.client};
    }
    session->targets.push_back(std::move(target));
  }
  session->credentials = credentials::make_provider(policy, std::move(workers), provider_options);
}

}  // namespace

fs::path state_path_for(const std::string& policy_path, const RuntimeOptions& options) {
  if (!options.state_path.empty()) return options.state_path;
  const kueue::PolicyHome home = kueue::policy_home(policy_path);
  return state::default_state_path(home.directory, home.stem);
}

fs::path sandbox_dir_for(const std::string& policy_path, const RuntimeOptions& options) {
  std::error_code ec;
  if (!options.sandbox_dir.empty()) return fs::absolute(options.sandbox_dir, ec);
  return kueue::policy_home(policy_path).directory / ".mkq" / "sandbox";
}

bool open_session(const model::Policy& policy, const std::string& policy_path,
                  const std::vector<std::string>& extra_clusters, const RuntimeOptions& options,
                  const GlobalOptions& global, const credentials::ProviderOptions& provider_options, Session* session) {
  session->state_path = state_path_for(policy_path, options);
  const std::vector<ClusterSpec> specs = cluster_specs(policy, extra_clusters, options.exclude_clusters);

  // Which kubeconfig: --sandbox; else --kubeconfig / KUBECONFIG / ~/.kube/config
  // (named and unreadable: an error); none named anywhere, and no cluster names
  // its own: the sandbox.
  Kubeconfigs kubeconfigs;
  if (!options.sandbox && !load_common(options, &kubeconfigs.common)) return false;
  const bool any_own_kubeconfig =
      std::any_of(specs.begin(), specs.end(), [](const ClusterSpec& spec) { return !spec.kubeconfig.empty(); });
  session->sandbox = options.sandbox || (!kubeconfigs.common && !any_own_kubeconfig);
  if (session->sandbox) {
    const fs::path dir = sandbox_dir_for(policy_path, options);
    if (!open_sandbox(specs, dir, options.sandbox, global.verbose, kubeconfigs)) return false;
  } else if (!load_own_kubeconfigs(specs, policy_dir(policy_path), kubeconfigs)) {
    return false;
  }
  std::vector<kube::Endpoint> endpoints;
  if (!resolve_contexts(specs, kubeconfigs, session->sandbox, options, policy_path, &endpoints)) return false;
  if (!session->sandbox) {
    const auto& files = kubeconfigs.own_file;
    const bool uses_common = std::any_of(files.begin(), files.end(), [](const auto& f) { return f.empty(); });
    print_kubeconfig_target(specs, files, uses_common && kubeconfigs.common ? &*kubeconfigs.common : nullptr);
  }
  connect(policy, specs, endpoints, options, provider_options, session);
  return true;
}

bool parse_duration(const std::string& text, std::chrono::milliseconds* out) {
  if (text.empty()) return false;
  long long total_ms = 0;
  std::size_t i = 0;
  bool any = false;
  while (i < text.size()) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
    long long number = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      number = number * 10 + (text[i] - '0');
      if (number > 10'000'000) return false;
      ++i;
    }
    long long unit_ms = 1000;  // a bare number is seconds
    if (i < text.size()) {
      if (text.compare(i, 2, "ms") == 0) {
        unit_ms = 1;
        i += 2;
      } else if (text[i] == 's') {
        ++i;
      } else if (text[i] == 'm') {
        unit_ms = 60'000;
        ++i;
      } else if (text[i] == 'h') {
        unit_ms = 3'600'000;
        ++i;
      } else {
        return false;
      }
    } else if (any) {
      return false;  // "1m30" is ambiguous
    }
    total_ms += number * unit_ms;
    any = true;
  }
  *out = std::chrono::milliseconds(total_ms);
  return true;
}

}  // namespace mkq::cli
