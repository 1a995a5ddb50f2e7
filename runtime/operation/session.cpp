#include "runtime/operation/session.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <system_error>

#include "base/result.h"
#include "compiler/diag/diagnostic.h"
#include "compiler/kueue/crds.h"
#include "compiler/kueue/policy_name.h"
#include "runtime/operation/hints.h"
#include "runtime/state/cluster_state.h"
#include "runtime/state/state.h"
#include "sandbox/daemon.h"

namespace mkq::operation {

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

// A running sandbox must serve the clusters this run connects to (`specs`);
// one that is not running is started with every cluster of the policy
// (`all`, whatever --cluster or --exclude-cluster leave out), so that a later
// run of the whole policy finds it serving every cluster.
bool ensure_sandbox(const std::vector<ClusterSpec>& specs, const std::vector<ClusterSpec>& all, const fs::path& dir,
                    bool verbose, Ui& ui) {
  std::vector<std::string> wanted;
  for (const ClusterSpec& spec : specs) wanted.push_back(spec.name);
  const std::vector<std::string> running = sandbox::running_clusters(dir);
  if (!running.empty()) {
    for (const std::string& name : wanted) {
      if (std::find(running.begin(), running.end(), name) == running.end()) {
        std::string list;
        for (const std::string& r : running) list += (list.empty() ? "" : ", ") + r;
        ui.error("the sandbox at " + shown(dir) + " serves " + list + ", not the policy's cluster " + name +
                 ": stop it with `mkq sandbox down --dir " + shell_word(shown(dir)) +
                 "` (its objects are kept) and run again");
        return false;
      }
    }
    return true;
  }
  wanted.clear();
  for (const ClusterSpec& spec : all) wanted.push_back(spec.name);
  sandbox::SandboxOptions options;
  options.dir = dir;
  options.clusters = wanted;
  for (const kueue::Json& crd : kueue::kueue_crds()) options.builtin_crds.push_back(nlohmann::json::parse(crd.dump()));
  std::string starting = "starting the sandbox at " + shown(dir) + " with clusters";
  for (const std::string& name : wanted) starting += " " + name;
  ui.notice(starting);
  std::string out_text, err_text;  // what sandbox_up says: collected, then shown through the UI port
  sandbox::TextSink out = sandbox::TextSink::into(out_text);
  sandbox::TextSink err = sandbox::TextSink::into(err_text);
  const int code = sandbox::sandbox_up(options, out, err);
  if (!err_text.empty()) ui.output(err_text);
  if (verbose && !out_text.empty()) ui.output(out_text);
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
  kube::Result<kube::Endpoint> resolved = kube::resolve_context(config, spec.context, options.insecure_skip_tls_verify);
  if (!resolved) return spec_name(spec) + ": " + resolved.error().message;
  *endpoint = std::move(resolved).value();
  return "";
}

// The common kubeconfig: --kubeconfig, KUBECONFIG or ~/.kube/config. False
// (the error given to `ui`) when one is named and cannot be read; *common
// empty when none is named at all.
bool load_common(const RuntimeOptions& options, std::optional<kube::Kubeconfig>* common, Ui& ui) {
  kube::LoadOptions load;
  load.explicit_file = options.kubeconfig;
  kube::Result<kube::Kubeconfig> loaded = kube::load_kubeconfig(load);
  if (loaded) *common = std::move(loaded).value();
  if (loaded || loaded.error().reason == kube::kNoKubeconfig) return true;
  ui.error(base::render(loaded.error()));
  return false;
}

// The first line of every run: where it goes (kubeconfig contexts).
TargetChoice kubeconfig_target(const std::vector<ClusterSpec>& specs, const std::vector<std::string>& files,
                               const kube::Kubeconfig* common) {
  TargetChoice choice;
  if (common != nullptr) choice.common_kubeconfig = kubeconfig_named(*common, true);
  for (std::size_t i = 0; i < specs.size(); ++i) choice.routes.push_back({specs[i].name, specs[i].context, files[i]});
  return choice;
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
bool open_sandbox(const std::vector<ClusterSpec>& specs, const std::vector<ClusterSpec>& all, const fs::path& dir,
                  bool asked, bool verbose, Kubeconfigs& kubeconfigs, Ui& ui) {
  TargetChoice choice;
  choice.sandbox = true;
  choice.sandbox_dir = shown(dir);
  choice.sandbox_asked = asked;
  ui.target(choice);
  if (!ensure_sandbox(specs, all, dir, verbose, ui)) return false;
  kube::LoadOptions load;
  load.explicit_file = dir / "kubeconfig";
  load.explicit_named_by = "the sandbox";
  kube::Result<kube::Kubeconfig> loaded = kube::load_kubeconfig(load);
  if (!loaded) {
    ui.error("the sandbox's kubeconfig: " + base::render(loaded.error()));
    return false;
  }
  kubeconfigs.common = std::move(loaded).value();
  kubeconfigs.of.assign(specs.size(), &*kubeconfigs.common);
  kubeconfigs.own_file.assign(specs.size(), "");
  return true;
}

// Each spec's kubeconfig: its own (`kubeconfig = "PATH"`, relative to the
// policy), else the common one. False (every problem given to `ui`) when a
// cluster's own file cannot be read.
bool load_own_kubeconfigs(const std::vector<ClusterSpec>& specs, const fs::path& base, Kubeconfigs& kubeconfigs,
                          Ui& ui) {
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
      kube::Result<kube::Kubeconfig> loaded = kube::load_kubeconfig(load);
      if (!loaded) {
        ui.error(base::render(loaded.error()));
        ok = false;
        continue;
      }
      loaded->named_by.clear();  // messages and the target line name the file only
      it = kubeconfigs.own.emplace(path.string(), std::move(loaded).value()).first;
    }
    kubeconfigs.of[i] = &it->second;
    kubeconfigs.own_file[i] = shown(path);
  }
  return ok;
}

// Every cluster's endpoint, before anything is read or changed. False (every
// problem given to `ui`) when a context is missing or unusable.
bool resolve_contexts(const std::vector<ClusterSpec>& specs, const Kubeconfigs& kubeconfigs, bool sandbox,
                      const RuntimeOptions& options, const std::string& policy_path,
                      std::vector<kube::Endpoint>* endpoints, Ui& ui) {
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
    ui.error(problem);
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
  // A limit the user set holds whatever the server announces. A --qps alone
  // bursts one second's worth, never the default's thousand; a --burst alone
  // keeps the default rate.
  if (options.qps > 0) {
    client_options.qps = options.qps;
    client_options.burst = std::max(1, static_cast<int>(std::ceil(options.qps)));
  }
  if (options.burst > 0) client_options.burst = options.burst;
  client_options.explicit_rate_limit = options.qps > 0 || options.burst > 0;
  if (options.request_timeout.count() > 0) client_options.request_timeout = options.request_timeout;
  std::map<std::string, credentials::WorkerAccess> workers;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const ClusterSpec& spec = specs[i];
    reconcile::Target target;
    target.cluster = spec.name;
    target.role = spec.role;
    kube::Result<std::unique_ptr<kube::Client>> client = kube::make_http_client(endpoints[i], client_options);
    if (client) {
      target.client = client.value().get();
      session->clients.push_back(std::move(client).value());
      session->endpoints[spec.name] = endpoints[i];
    } else {
      target.connect_error = client.error().message;
    }
    if (spec.role == kueue::ClusterRole::Worker) {
      workers[spec.name] = credentials::WorkerAccess{endpoints[i], target.client};
    }
    session->targets.push_back(std::move(target));
  }
  session->credentials = credentials::make_provider(policy, std::move(workers), provider_options);
}

}  // namespace

std::string shown(const fs::path& path) {
  std::error_code ec;
  const fs::path relative = fs::relative(path, fs::current_path(ec), ec);
  if (ec || relative.empty() || *relative.begin() == "..") return path.string();
  return relative.string();
}

std::string policy_state_location(const sema::model::Policy& policy, const std::string& policy_path) {
  const std::optional<sema::model::StateSettings>& state = policy.manager.state;
  if (!state) return "";
  const std::string name = state->name         ? state->name->value
                           : policy.identity ? policy.identity->value
                                             : kueue::derived_policy_name(kueue::policy_home(policy_path));
  return std::string(state::kClusterScheme) + policy.manager.connection.context.value + "/" +
         state->namespace_name.value + "/" + name;
}

fs::path state_path_for(const std::string& policy_path, const RuntimeOptions& options,
                        const sema::model::Policy* policy) {
  if (!options.state_path.empty()) return options.state_path;
  if (policy != nullptr) {
    if (std::string location = policy_state_location(*policy, policy_path); !location.empty()) return location;
  }
  const kueue::PolicyHome home = kueue::policy_home(policy_path);
  return state::default_state_path(home.directory, home.stem);
}

fs::path sandbox_dir_for(const std::string& policy_path, const RuntimeOptions& options) {
  std::error_code ec;
  if (!options.sandbox_dir.empty()) return fs::absolute(options.sandbox_dir, ec);
  return kueue::policy_home(policy_path).directory / ".mkq" / "sandbox";
}

std::unique_ptr<kube::KubeconfigPrefetch> KubeconfigResolver::read_ahead(const RuntimeOptions& options,
                                                                         const std::string& policy_path) {
  kube::LoadOptions load;  // as open_sandbox and load_common load it
  load.explicit_file = options.sandbox ? sandbox_dir_for(policy_path, options) / "kubeconfig" : fs::path(options.kubeconfig);
  return std::make_unique<kube::KubeconfigPrefetch>(std::move(load));
}

bool KubeconfigResolver::prepare_state(const TargetRequest& request, const std::string& state_location, Ui& ui) {
  if (!state::is_cluster_address(state_location)) return true;
  const RuntimeOptions& options = request.options;
  const std::vector<ClusterSpec> specs = cluster_specs(*request.policy, {}, options.exclude_clusters);
  // The target open() will choose: the sandbox only when asked, or when no kubeconfig is named anywhere.
  if (!options.sandbox) {
    std::optional<kube::Kubeconfig> common;
    if (!load_common(options, &common, ui)) return false;
    const bool any_own = std::any_of(specs.begin(), specs.end(), [](const ClusterSpec& s) { return !s.kubeconfig.empty(); });
    if (common || any_own) return true;
  }
  const fs::path dir = sandbox_dir_for(request.policy_path, options);
  if (!sandbox::running_clusters(dir).empty()) return true;  // open() checks its clusters
  return ensure_sandbox(specs, cluster_specs(*request.policy, {}, {}), dir, request.verbose, ui);
}

bool KubeconfigResolver::open(const TargetRequest& request, Ui& ui, Session* session) {
  const RuntimeOptions& options = request.options;
  const std::string& policy_path = request.policy_path;
  const std::vector<ClusterSpec> specs =
      cluster_specs(*request.policy, request.extra_clusters, options.exclude_clusters);

  // Which kubeconfig: --sandbox; else --kubeconfig / KUBECONFIG / ~/.kube/config
  // (named and unreadable: an error); none named anywhere, and no cluster names
  // its own: the sandbox.
  Kubeconfigs kubeconfigs;
  if (!options.sandbox && !load_common(options, &kubeconfigs.common, ui)) return false;
  const bool any_own_kubeconfig =
      std::any_of(specs.begin(), specs.end(), [](const ClusterSpec& spec) { return !spec.kubeconfig.empty(); });
  session->sandbox = options.sandbox || (!kubeconfigs.common && !any_own_kubeconfig);
  if (session->sandbox) {
    const fs::path dir = sandbox_dir_for(policy_path, options);
    const std::vector<ClusterSpec> all = cluster_specs(*request.policy, request.extra_clusters, {});
    if (!open_sandbox(specs, all, dir, options.sandbox, request.verbose, kubeconfigs, ui)) return false;
  } else if (!load_own_kubeconfigs(specs, policy_dir(policy_path), kubeconfigs, ui)) {
    return false;
  }
  std::vector<kube::Endpoint> endpoints;
  if (!resolve_contexts(specs, kubeconfigs, session->sandbox, options, policy_path, &endpoints, ui)) return false;
  if (!session->sandbox) {
    const auto& files = kubeconfigs.own_file;
    const bool uses_common = std::any_of(files.begin(), files.end(), [](const auto& f) { return f.empty(); });
    ui.target(kubeconfig_target(specs, files, uses_common && kubeconfigs.common ? &*kubeconfigs.common : nullptr));
  }
  connect(*request.policy, specs, endpoints, options, request.provider, session);
  return true;
}

}  // namespace mkq::operation
