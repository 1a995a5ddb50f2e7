// `mkq sandbox up|down|status|serve`: the sandbox as a process. serve runs
// every cluster's HTTPS server in the foreground; up starts serve in the
// background and waits until every cluster answers /readyz; down stops it;
// status lists clusters, ports and object counts.
//
// Files in DIR: ca.{crt,key}, server.{crt,key}, admin.{crt,key}, sa.key (the
// service-account token signing key) (keys 0600),
// kubeconfig (one context, cluster and user per cluster, named after it),
// state.json (pid, clusters, ports, object counts; written by serve), the
// databases <cluster>.db, sandbox.pid and sandbox.log.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sandbox/server.h"
#include "sandbox/text_sink.h"

namespace mkq::sandbox {

struct SandboxOptions {
  std::filesystem::path dir = ".mkq/sandbox";
  std::vector<std::string> clusters = {"manager", "worker1"};
  bool no_kueue = false;
  // up installs the CRDs of crds_dir's *.yaml/*.yml/*.json files; when
  // crds_dir is empty, builtin_crds (the cli passes mkq's generated Kueue CRDs)
  // named as builtin_crds_source; neither: none. no_kueue: none at all.
  std::filesystem::path crds_dir;
  std::vector<nlohmann::json> builtin_crds;
  std::string builtin_crds_source = "mkq's built-in Kueue CRDs";
  FaultOptions faults;
  FlowControlOptions flow_control;  // `--apf-concurrency` (flow_control.h)
  // TokenRequest accepts expirationSeconds down to 1 (tests of rotation);
  // `--allow-short-tokens`, recorded in state.json.
  bool allow_short_tokens = false;
  int ready_timeout_seconds = 30;  // up: how long to wait for /readyz
  int stop_timeout_seconds = 10;   // down: SIGTERM, then SIGKILL after this
};

// Each returns the process exit code (0 success, 1 error) and writes what it
// did to out, problems to err.
int sandbox_serve(const SandboxOptions& options, TextSink& out, TextSink& err);
int sandbox_up(const SandboxOptions& options, TextSink& out, TextSink& err);
int sandbox_down(const SandboxOptions& options, TextSink& out, TextSink& err);
int sandbox_status(const SandboxOptions& options, TextSink& out, TextSink& err);

// The kubeconfig for clusters at 127.0.0.1:port, authenticated as the admin.
struct ClusterPort {
  std::string name;
  int port = 0;
};
std::string make_kubeconfig(const Pki& pki, const std::vector<ClusterPort>& clusters);

// The clusters a running sandbox in `dir` serves (its serve process is alive);
// empty when none runs there.
std::vector<std::string> running_clusters(const std::filesystem::path& dir);

// A valid cluster name: a DNS-1123 label (it names a file and a context).
bool valid_cluster_name(const std::string& name);

}  // namespace mkq::sandbox
