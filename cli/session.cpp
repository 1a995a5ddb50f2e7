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
  std::string context;
  std::string kubeconfig;  // the policy's own kubeconfig path for this cluster ("" : the common one)
};

std::vector<ClusterSpec> cluster_specs(const model::Policy& policy, const std::vector<std::string>& extra) {
  std::vector<ClusterSpec> specs;
  const auto spec_of = [](const std::string& name, kueue::ClusterRole role, const model::Connection& connection) {
    ClusterSpec spec{name, role, connection.context.value, ""};
    if (spec.context.empty()) spec.context = name;
    if (connection.kubeconfig) spec.kubeconfig = connection.kubeconfig->value;
    return spec;
  };
  specs.push_back(spec_of(policy.manager.name, kueue::ClusterRole::Manager, policy.manager.connection));
  for (const model::Worker& worker : policy.workers) {
    specs.push_back(spec_of(worker.name, kueue::ClusterRole::Worker, worker.connection));
  }
  for (const std::string& name : extra) specs.push_back({name, kueue::ClusterRole::Worker, name, ""});
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
                     shown(dir).c_str(), list.c_str(), name.c_str(), shown(dir).c_str());
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
  const std::vector<ClusterSpec> specs = cluster_specs(policy, extra_clusters);
  const fs::path base = policy_dir(policy_path);

  // Which kubeconfig: --sandbox; else --kubeconfig / KUBECONFIG / ~/.kube/config;
  // none anywhere (and no cluster names its own): the sandbox.
  bool any_own_kubeconfig = false;
  for (const ClusterSpec& spec : specs) any_own_kubeconfig = any_own_kubeconfig || !spec.kubeconfig.empty();
  std::string error;
  bool found_none = false;
  std::optional<kube::Kubeconfig> common;
  kube::LoadOptions load;
  session->sandbox = options.sandbox;
  if (!options.sandbox) {
    load.explicit_file = options.kubeconfig;
    common = kube::load_kubeconfig(load, &error, &found_none);
    if (!common && !(found_none && options.kubeconfig.empty())) {
      std::fprintf(stderr, "mkq: error: %s\n", error.c_str());
      return false;
    }
    if (!common && !any_own_kubeconfig) {
      session->sandbox = true;
      std::fputs("mkq: no kubeconfig found (--kubeconfig, KUBECONFIG, ~/.kube/config): using the sandbox\n", stderr);
    }
  }
  if (session->sandbox) {
    const fs::path dir = sandbox_dir_for(policy_path, options);
    if (!ensure_sandbox(specs, dir, global.verbose)) return false;
    load = {};
    load.explicit_file = dir / "kubeconfig";
    common = kube::load_kubeconfig(load, &error);
    if (!common) {
      std::fprintf(stderr, "mkq: error: the sandbox's kubeconfig: %s\n", error.c_str());
      return false;
    }
    std::fprintf(stderr, "mkq: target: the sandbox at %s\n", shown(dir).c_str());
  }

  std::map<std::string, kube::Kubeconfig> own;  // by absolute path
  kube::ClientOptions client_options;
  client_options.qps = options.qps;
  client_options.burst = options.burst;
  std::map<std::string, credentials::WorkerAccess> workers;
  for (const ClusterSpec& spec : specs) {
    reconcile::Target target;
    target.cluster = spec.name;
    target.role = spec.role;
    const kube::Kubeconfig* config = common ? &*common : nullptr;
    // In the sandbox every cluster's context is named after it.
    const std::string context = session->sandbox ? spec.name : spec.context;
    if (!session->sandbox && !spec.kubeconfig.empty()) {
      const fs::path path = fs::path(spec.kubeconfig).is_absolute() ? fs::path(spec.kubeconfig) : base / spec.kubeconfig;
      auto it = own.find(path.string());
      if (it == own.end()) {
        kube::LoadOptions own_load;
        own_load.explicit_file = path;
        std::optional<kube::Kubeconfig> loaded = kube::load_kubeconfig(own_load, &error);
        if (!loaded) {
          std::fprintf(stderr, "mkq: error: cluster %s: %s\n", spec.name.c_str(), error.c_str());
          return false;
        }
        it = own.emplace(path.string(), std::move(*loaded)).first;
      }
      config = &it->second;
    }
    std::optional<kube::Endpoint> endpoint;
    if (config == nullptr) {
      target.connect_error = "no kubeconfig names its context " + context;
    } else {
      endpoint = kube::resolve_context(*config, context, options.insecure_skip_tls_verify, &error);
      if (!endpoint) target.connect_error = error;
    }
    if (endpoint) {
      std::unique_ptr<kube::Client> client = kube::make_http_client(*endpoint, client_options, &error);
      if (client) {
        target.client = client.get();
        session->clients.push_back(std::move(client));
        session->endpoints[spec.name] = *endpoint;
      } else {
        target.connect_error = error;
      }
    }
    if (spec.role == kueue::ClusterRole::Worker && endpoint) {
      workers[spec.name] = credentials::WorkerAccess{*endpoint, target.client};
    }
    session->targets.push_back(std::move(target));
  }
  session->credentials = credentials::make_provider(policy, std::move(workers), provider_options);
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
