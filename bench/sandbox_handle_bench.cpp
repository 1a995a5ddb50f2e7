// mkq-sandbox-handle-bench: the sandbox's request path alone, without TLS,
// sockets or client threads -- `Cluster::handle` called directly, one request
// after another, on a cluster with a file database (bench/README.md,
// "Sandbox"). What it prints per phase is the process's CPU time per 1,000
// requests (the group committer's thread included): a figure the machine's
// load disturbs far less than the HTTPS bench's rates, and one that perf or
// callgrind can take apart.
//
//   the phases of bench/sandbox_workload.h, then
//   list          the namespace of N ConfigMaps listed --list-runs times (CPU per LIST)
//   list-query    the store's query of that LIST: the page at a snapshot
//                 (Store::list_page_at, as served) against the plain range read
//                 (Store::list_text, the query before consistent paging), alternated
//
// The requests run as the sandbox's admin (group system:masters, which RBAC
// never consults), or with --as-service-account as a service account bound by
// RBAC (a RoleBinding to the default ClusterRole `edit` in the bench's
// namespaces, a ClusterRoleBinding for Kueue's kinds): what authorization costs
// a caller such as mkq's least-privilege worker token.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bench/sandbox_workload.h"
#include "sandbox/api.h"
#include "sandbox/store.h"
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

struct Identity {
  std::string user;
  std::vector<std::string> groups;
};
const Identity kAdmin{"kubernetes-admin", {"system:masters", "system:authenticated"}};
const Identity kWriter{"system:serviceaccount:bench:writer",
                       {"system:serviceaccounts", "system:serviceaccounts:bench", "system:authenticated"}};
// Who the requests run as: the admin for the setup, then --as-service-account's choice.
const Identity* caller = &kAdmin;

ApiRequest request(std::string method, std::string path, std::string body, std::string content_type) {
  ApiRequest r;
  r.method = std::move(method);
  r.path = std::move(path);
  r.body = std::move(body);
  if (!content_type.empty()) r.headers["content-type"] = std::move(content_type);
  r.headers["user-agent"] = "mkq-sandbox-handle-bench";
  r.user = caller->user;
  r.groups = caller->groups;
  return r;
}

// Runs `make(i)` for i in [0, count) through handle(); false when any answer was not `expect`.
bool phase(Cluster& cluster, const std::string& name, std::size_t count, int expect,
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

// The request of one phase of the workload, as the transport would make it.
ApiRequest request_of(const mkq::bench::WorkloadRequest& w) {
  ApiRequest r = request(w.method, w.path, w.body, w.content_type);
  std::string_view query = w.query;
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    const std::size_t equals = pair.find('=');
    r.query.emplace(std::string(pair.substr(0, equals)), std::string(pair.substr(equals + 1)));
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
  }
  return r;
}

bool run(Cluster& cluster, const mkq::bench::WorkloadPhase& p, std::size_t count) {
  return phase(cluster, p.name, count, p.expect, [&p](std::size_t i) { return request_of(p.request(i)); });
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0.0 : values[values.size() / 2];
}

// The LIST of `ns` through handle(), `runs` times: the median CPU per LIST.
bool list_phase(Cluster& cluster, const std::string& ns, std::size_t count, int runs) {
  const ApiRequest list = request("GET", mkq::bench::config_maps_of(ns), "", "");
  std::vector<double> cpu;
  std::size_t bytes = 0;
  bool ok = true;
  for (int run = 0; run < runs; ++run) {
    const double cpu0 = cpu_seconds();
    const ApiResponse answer = cluster.handle(list);
    cpu.push_back((cpu_seconds() - cpu0) * 1000.0);
    bytes = answer.body.size();
    ok = ok && answer.status == 200;
  }
  fmt::print("{:<13} n={:<7} CPU {:8.2f} ms per LIST (median of {}), {} bytes\n", "list", count, median(cpu), runs,
             bytes);
  std::fflush(stdout);
  return ok;
}

// The store's two ways of reading that namespace, alternated on a second
// connection to the database: the median wall time of each.
bool list_query(const std::filesystem::path& database, const std::string& ns, std::size_t count, int runs) {
  std::string error;
  auto store = mkq::sandbox::Store::open(database, &error);
  if (!store) {
    fmt::print(stderr, "mkq-sandbox-handle-bench: {}\n", error);
    return false;
  }
  std::vector<double> page_ms;
  std::vector<double> text_ms;
  std::size_t rows = 0;
  const auto time = [](const auto& read) {
    const auto t0 = std::chrono::steady_clock::now();
    read();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  // Once each untimed: the second connection's page cache filled for both.
  rows = store->list_text("", "configmaps", ns, "", 0).size();
  rows = std::min(rows, store->list_page_at("", "configmaps", ns, "", 0, store->current_rv(), true)->rows.size());
  for (int run = 0; run < runs; ++run) {
    page_ms.push_back(time([&] {
      rows = store->list_page_at("", "configmaps", ns, "", 0, store->current_rv(), true)->rows.size();
    }));
    text_ms.push_back(time([&] { rows = std::min(rows, store->list_text("", "configmaps", ns, "", 0).size()); }));
  }
  fmt::print("{:<13} n={:<7} list_page_at {:6.2f} ms, list_text {:6.2f} ms (medians of {}, {} rows)\n", "list-query",
             count, median(page_ms), median(text_ms), runs, rows);
  std::fflush(stdout);
  return rows == count;
}

// The bindings --as-service-account's caller needs, made by the admin: `edit`
// in the bench's two namespaces (ConfigMaps), and Kueue's kinds cluster-wide.
bool authorize_writer(Cluster& cluster) {
  const std::string subject = R"([{"kind":"ServiceAccount","name":"writer","namespace":"bench"}])";
  bool ok = true;
  for (const char* ns : {"bench", "bench-apply"}) {
    const auto answer = cluster.handle(request(
        "POST", fmt::format("/apis/rbac.authorization.k8s.io/v1/namespaces/{}/rolebindings", ns),
        fmt::format(R"({{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{{"name":"writer"}},)"
                    R"("roleRef":{{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"edit"}},"subjects":{}}})",
                    subject),
        "application/json"));
    ok = answer.status == 201 && ok;
  }
  const auto role = cluster.handle(request(
      "POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles",
      R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"bench-kueue"},)"
      R"("rules":[{"apiGroups":["kueue.x-k8s.io"],"resources":["*"],"verbs":["*"]}]})",
      "application/json"));
  const auto binding = cluster.handle(request(
      "POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
      fmt::format(R"({{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding","metadata":{{"name":"bench-kueue"}},)"
                  R"("roleRef":{{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"bench-kueue"}},"subjects":{}}})",
                  subject),
      "application/json"));
  ok = role.status == 201 && binding.status == 201 && ok;
  if (!ok) fmt::print(stderr, "mkq-sandbox-handle-bench: the service account's bindings were refused\n");
  return ok;
}

void usage() {
  fmt::print(stderr,
             "usage: mkq-sandbox-handle-bench [--objects N] [--list-runs R] [--crds DIR [--no-rules]] [--as-service-account]\n"
             "  --objects N    objects per phase (default 10000)\n"
             "  --list-runs R  LISTs of the namespace timed (default 5)\n"
             "  --crds DIR     install DIR's CRDs (Kueue's) and add the phases cq-create and cq-apply\n"
             "  --no-rules     with --crds: install them without their x-kubernetes-validations (CEL off)\n"
             "  --as-service-account  run the phases as a service account authorized by RBAC, not as the admin\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t count = 10000;
  int list_runs = 5;
  std::string crds;
  bool no_rules = false;
  bool as_service_account = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--objects" && has_value) {
      count = static_cast<std::size_t>(std::atol(argv[++i]));
    } else if (arg == "--list-runs" && has_value) {
      list_runs = std::atoi(argv[++i]);
    } else if (arg == "--crds" && has_value) {
      crds = argv[++i];
    } else if (arg == "--no-rules") {
      no_rules = true;
    } else if (arg == "--as-service-account") {
      as_service_account = true;
    } else {
      usage();
      return arg == "--help" || arg == "-h" ? 0 : 2;
    }
  }
  if (count == 0 || list_runs < 1) {
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
      cluster->handle(request("POST", "/api/v1/namespaces", mkq::bench::namespace_object(ns), "application/json"));
    }
    if (as_service_account) {
      ok = authorize_writer(*cluster) && ok;
      caller = &kWriter;
      fmt::print("as {}\n", kWriter.user);
    }
    for (const auto& p : mkq::bench::phases_before_list("bench")) ok = run(*cluster, p, count) && ok;
    ok = list_phase(*cluster, "bench", count, list_runs) && ok;
    ok = list_query(dir / "bench.db", "bench", count, list_runs) && ok;
    if (!crds.empty()) {
      std::vector<nlohmann::json> definitions;
      if (!mkq::sandbox::read_crds(crds, &definitions, &error)) {
        fmt::print(stderr, "mkq-sandbox-handle-bench: {}\n", error);
        return 1;
      }
      const Identity* phases_caller = caller;
      caller = &kAdmin;  // CRDs are the admin's to install
      for (auto& crd : definitions) {
        if (no_rules) mkq::bench::strip_rules(crd);
        cluster->handle(request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd.dump(),
                                "application/json"));
      }
      caller = phases_caller;
    }
    for (const auto& p : mkq::bench::phases_after_list("bench-apply", !crds.empty(), "cq-")) {
      ok = run(*cluster, p, count) && ok;
    }
  }
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  return ok ? 0 : 1;
}
