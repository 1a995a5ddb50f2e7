// mkq-sandbox-handle-bench: the sandbox's request path alone, without TLS,
// sockets or client threads -- `Cluster::handle` called directly, one request
// after another, on a cluster with a file database (bench/README.md,
// "Sandbox"). What it prints per phase is the process's CPU time per 1,000
// requests (the group committer's thread included): a figure the machine's
// load disturbs far less than the HTTPS bench's rates, and one that perf or
// callgrind can take apart.
//
//   create        POST N ConfigMaps (the HTTPS bench's objects)
//   get           GET each of them
//   apply-create  server-side apply of N new ConfigMaps (fieldManager=bench)
//   apply-update  the same again with a changed data value
//   cq-create     with --crds DIR: POST N ClusterQueues (Kueue's CRD, its CEL rules on)
//   cq-apply      with --crds DIR: server-side apply of each with a changed quota
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sandbox/api.h"
#include "sandbox/daemon_files.h"

namespace {

using mkq::sandbox::ApiRequest;
using mkq::sandbox::ApiResponse;
using mkq::sandbox::Cluster;

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

ApiRequest request(std::string method, std::string path, std::string body, std::string content_type) {
  ApiRequest r;
  r.method = std::move(method);
  r.path = std::move(path);
  r.body = std::move(body);
  if (!content_type.empty()) r.headers["content-type"] = std::move(content_type);
  r.headers["user-agent"] = "mkq-sandbox-handle-bench";
  r.user = "kubernetes-admin";
  r.groups = {"system:masters", "system:authenticated"};
  return r;
}

std::string config_map(const std::string& name, const std::string& ns, std::size_t i, const char* generation) {
  return fmt::format(
      R"({{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"{}","namespace":"{}","labels":{{"app":"bench"}}}},"data":{{"index":"{}","generation":"{}"}}}})",
      name, ns, i, generation);
}

// The HTTPS bench's ClusterQueue: every rule of Kueue's CRD runs on it (and accepts it).
std::string cluster_queue(const std::string& name, const char* quota) {
  return fmt::format(
      R"({{"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ClusterQueue","metadata":{{"name":"{}"}},"spec":{{"cohortName":"bench","resourceGroups":[{{"coveredResources":["cpu","memory"],"flavors":[{{"name":"default","resources":[{{"name":"cpu","nominalQuota":{},"borrowingLimit":2}},{{"name":"memory","nominalQuota":"16Gi"}}]}}]}}],"preemption":{{"reclaimWithinCohort":"Any","borrowWithinCohort":{{"policy":"Never"}}}},"flavorFungibility":{{"whenCanBorrow":"TryNextFlavor","whenCanPreempt":"TryNextFlavor"}}}}}})",
      name, quota);
}

// Runs `make(i)` for i in [0, count) through handle(); false when any answer was not `expect`.
bool phase(Cluster& cluster, const char* name, std::size_t count, int expect,
           const std::function<ApiRequest(std::size_t)>& make) {
  std::vector<ApiRequest> requests;
  requests.reserve(count);
  for (std::size_t i = 0; i < count; ++i) requests.push_back(make(i));
  const double cpu0 = cpu_seconds();
  const auto t0 = std::chrono::steady_clock::now();
  std::size_t errors = 0;
  std::string first_error;
  for (const ApiRequest& r : requests) {
    const ApiResponse answer = cluster.handle(r);
    if (answer.status != expect && errors++ == 0) first_error = answer.body;
  }
  cluster.flush();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = cpu_seconds() - cpu0;
  fmt::print("{:<13} n={:<7} CPU {:8.1f} ms per 1,000  {:8.0f} req/s  errors {}\n", name, count,
             cpu * 1000.0 * 1000.0 / static_cast<double>(count), static_cast<double>(count) / wall, errors);
  if (errors > 0) fmt::print(stderr, "mkq-sandbox-handle-bench: {}: {}\n", name, first_error);
  std::fflush(stdout);
  return errors == 0;
}

void usage() {
  fmt::print(stderr,
             "usage: mkq-sandbox-handle-bench [--objects N] [--crds DIR]\n"
             "  --objects N  objects per phase (default 10000)\n"
             "  --crds DIR   install DIR's CRDs (Kueue's) and add the phases cq-create and cq-apply\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t count = 10000;
  std::string crds;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--objects" && has_value) {
      count = static_cast<std::size_t>(std::atol(argv[++i]));
    } else if (arg == "--crds" && has_value) {
      crds = argv[++i];
    } else {
      usage();
      return arg == "--help" || arg == "-h" ? 0 : 2;
    }
  }
  if (count == 0) {
    usage();
    return 2;
  }
  std::string pattern = (std::filesystem::temp_directory_path() / "mkq-sandbox-handle-bench-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    fmt::print(stderr, "mkq-sandbox-handle-bench: cannot create a temporary directory\n");
    return 1;
  }
  const std::filesystem::path dir = pattern;
  bool ok = true;
  {
    std::string error;
    auto cluster = Cluster::open("bench", dir / "bench.db", &error);
    if (!cluster) {
      fmt::print(stderr, "mkq-sandbox-handle-bench: {}\n", error);
      return 1;
    }
    fmt::print("objects per phase: {}, database {}\n", count, (dir / "bench.db").string());
    for (const char* ns : {"bench", "bench-apply"}) {
      cluster->handle(request("POST", "/api/v1/namespaces",
                              fmt::format(R"({{"apiVersion":"v1","kind":"Namespace","metadata":{{"name":"{}"}}}})", ns),
                              "application/json"));
    }
    const auto name_of = [](std::size_t i) { return fmt::format("cm-{}", i); };
    ok = phase(*cluster, "create", count, 201, [&](std::size_t i) {
      return request("POST", "/api/v1/namespaces/bench/configmaps", config_map(name_of(i), "bench", i, "1"),
                     "application/json");
    }) && ok;
    ok = phase(*cluster, "get", count, 200, [&](std::size_t i) {
      return request("GET", "/api/v1/namespaces/bench/configmaps/" + name_of(i), "", "");
    }) && ok;
    const auto apply = [&](const char* generation) {
      return [&, generation](std::size_t i) {
        ApiRequest r = request("PATCH", "/api/v1/namespaces/bench-apply/configmaps/" + name_of(i),
                               config_map(name_of(i), "bench-apply", i, generation), "application/apply-patch+yaml");
        r.query.emplace("fieldManager", "bench");
        return r;
      };
    };
    ok = phase(*cluster, "apply-create", count, 201, apply("1")) && ok;
    ok = phase(*cluster, "apply-update", count, 200, apply("2")) && ok;
    if (!crds.empty()) {
      std::vector<nlohmann::json> definitions;
      if (!mkq::sandbox::read_crds(crds, &definitions, &error)) {
        fmt::print(stderr, "mkq-sandbox-handle-bench: {}\n", error);
        return 1;
      }
      for (const auto& crd : definitions) {
        cluster->handle(request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd.dump(),
                                "application/json"));
      }
      const std::string queues = "/apis/kueue.x-k8s.io/v1beta2/clusterqueues";
      ok = phase(*cluster, "cq-create", count, 201, [&](std::size_t i) {
        return request("POST", queues, cluster_queue(fmt::format("cq-{}", i), "4"), "application/json");
      }) && ok;
      ok = phase(*cluster, "cq-apply", count, 200, [&](std::size_t i) {
        const std::string name = fmt::format("cq-{}", i);
        ApiRequest r = request("PATCH", queues + "/" + name, cluster_queue(name, "8"), "application/apply-patch+yaml");
        r.query.emplace("fieldManager", "bench");
        r.query.emplace("force", "true");
        return r;
      }) && ok;
    }
  }
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  return ok ? 0 : 1;
}
