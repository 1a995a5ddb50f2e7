// mkq-sandbox-bench: throughput and latency of the sandbox's Kubernetes API
// over HTTPS, as a client sees it (TLS, the admin client certificate,
// keep-alive connections). Not a test: figures go to bench/README.md.
//
// By default it starts a sandbox cluster in-process (a Cluster on a SQLite
// database in a fresh temporary directory, behind an HttpsServer on an
// ephemeral port, with a fresh PKI); with --kubeconfig FILE [--context NAME]
// it talks to a running `mkq sandbox` instead.
//
// The phases of bench/sandbox_workload.h, each with 1 client and then with C
// concurrent clients (threads, each its own connection), each round in its
// own namespaces; after get, the whole namespace (N objects) is listed in one
// request, several times. --crds DIR adds the ClusterQueue phases: the cost
// of the CRD's CEL rules against --no-rules.
#include <httplib.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "bench/sandbox_workload.h"
#include "sandbox/api.h"
#include "sandbox/daemon_files.h"
#include "sandbox/pki.h"
#include "sandbox/server.h"

namespace {

using Clock = std::chrono::steady_clock;

std::string base64_decode(const std::string& text) {
  std::string clean;
  for (const char c : text) {
    if (c != '\n' && c != '\r' && c != ' ') clean += c;
  }
  std::string out(clean.size() / 4 * 3 + 3, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(clean.data()), static_cast<int>(clean.size()));
  if (n < 0) return {};
  std::size_t size = static_cast<std::size_t>(n);
  // EVP_DecodeBlock counts the padding bytes as output.
  if (!clean.empty() && clean.back() == '=') --size;
  if (clean.size() > 1 && clean[clean.size() - 2] == '=') --size;
  out.resize(size);
  return out;
}

// Where and how to connect: host, port, CA and the caller's credentials: a
// client certificate (PEM; the admin's by default) or a bearer token.
struct Target {
  std::string host = "127.0.0.1";
  int port = 0;
  std::string ca_cert;
  std::string client_cert;
  std::string client_key;
  std::string token;  // a kubeconfig user's `token` (bench/sandbox_https.sh --as-service-account)
  // ca_cert written to a file: cpp-httplib's client otherwise loads the
  // system's whole CA bundle for every client it makes (a third of the
  // bench's CPU, measured with perf, taken from the server it measures).
  std::string ca_file;
};

// One keep-alive HTTPS connection authenticated by the client certificate or the token.
class Connection {
 public:
  explicit Connection(const Target& target) : cert_(mkq::sandbox::read_cert(target.client_cert)), key_(mkq::sandbox::read_key(target.client_key)) {
    client_ = std::make_unique<httplib::SSLClient>(target.host, target.port, cert_.get(), key_.get());
    X509_STORE* store = X509_STORE_new();  // owned by the client
    X509_STORE_add_cert(store, mkq::sandbox::read_cert(target.ca_cert).get());
    client_->set_ca_cert_store(store);
    if (!target.ca_file.empty()) client_->set_ca_cert_path(target.ca_file.c_str());
    client_->enable_server_certificate_verification(true);
    client_->set_keep_alive(true);
    client_->set_tcp_nodelay(true);  // as Go clients (kubectl, client-go) do
    client_->set_connection_timeout(10, 0);
    client_->set_read_timeout(60, 0);
    client_->set_write_timeout(60, 0);
    if (!target.token.empty()) client_->set_bearer_token_auth(target.token);
  }
  httplib::SSLClient& operator*() { return *client_; }
  httplib::SSLClient* operator->() { return client_.get(); }

 private:
  mkq::sandbox::CertPtr cert_;
  mkq::sandbox::KeyPtr key_;
  std::unique_ptr<httplib::SSLClient> client_;
};

double load_average() {
  std::ifstream in("/proc/loadavg");
  double one = 0.0;
  in >> one;
  return one;
}

// The CPU time (user + system) of process `pid` so far, from /proc/PID/stat; 0 when pid is 0.
double process_cpu_seconds(int pid) {
  if (pid <= 0) return 0.0;
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t close = text.rfind(')');  // the command name may hold spaces
  if (close == std::string::npos) return 0.0;
  std::vector<std::string> fields;
  std::size_t at = close + 2;
  while (at < text.size() && fields.size() < 13) {
    const std::size_t space = text.find(' ', at);
    fields.push_back(text.substr(at, space - at));
    at = space == std::string::npos ? text.size() : space + 1;
  }
  if (fields.size() < 13) return 0.0;
  // Fields 14 and 15 of the file (utime, stime) are the 12th and 13th after the name.
  return static_cast<double>(std::atoll(fields[11].c_str()) + std::atoll(fields[12].c_str())) /
         static_cast<double>(sysconf(_SC_CLK_TCK));
}

int server_pid = 0;  // --server-pid: the sandbox process whose CPU each phase reports

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0.0;
  const auto index = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(index, sorted.size() - 1)];
}

struct PhaseResult {
  std::string name;
  int clients = 0;
  std::size_t requests = 0;
  std::size_t errors = 0;
  double seconds = 0.0;
  double server_cpu_seconds = 0.0;   // with --server-pid
  double client_cpu_seconds = 0.0;   // this process's, with --server-pid
  std::vector<double> latencies_ms;  // sorted
};

void print(const PhaseResult& r) {
  const double rate = r.seconds > 0 ? static_cast<double>(r.requests) / r.seconds : 0.0;
  fmt::print("{:<13} clients={:<3} n={:<6} {:9.0f} req/s  p50 {:7.2f} ms  p99 {:7.2f} ms  max {:7.2f} ms  errors {}  "
             "load {:.2f}\n",
             r.name, r.clients, r.requests, rate, percentile(r.latencies_ms, 0.50), percentile(r.latencies_ms, 0.99),
             r.latencies_ms.empty() ? 0.0 : r.latencies_ms.back(), r.errors, load_average());
  if (server_pid > 0) {
    const double requests = static_cast<double>(std::max<std::size_t>(r.requests, 1));
    fmt::print("{:<13} server CPU {:.1f} us per request, client (this bench) {:.1f} us\n", "",
               r.server_cpu_seconds * 1e6 / requests, r.client_cpu_seconds * 1e6 / requests);
  }
  std::fflush(stdout);
}

// Sends `count` requests over `clients` connections (request i by thread
// i % clients); request(conn, i) returns the HTTP status (0: no answer), an
// error unless it is `expect`.
template <typename Request>
PhaseResult run_phase(const std::string& name, const Target& target, int clients, std::size_t count, int expect,
                      Request request) {
  std::vector<std::vector<double>> latencies(static_cast<std::size_t>(clients));
  std::atomic<std::size_t> errors{0};
  std::atomic<bool> reported{false};
  std::vector<std::unique_ptr<Connection>> connections;
  for (int c = 0; c < clients; ++c) connections.push_back(std::make_unique<Connection>(target));
  const double server_cpu0 = process_cpu_seconds(server_pid);
  const double client_cpu0 = process_cpu_seconds(server_pid > 0 ? ::getpid() : 0);
  const auto start = Clock::now();
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      auto& mine = latencies[static_cast<std::size_t>(c)];
      mine.reserve(count / static_cast<std::size_t>(clients) + 1);
      for (std::size_t i = static_cast<std::size_t>(c); i < count; i += static_cast<std::size_t>(clients)) {
        const auto t0 = Clock::now();
        std::string failure;
        const int status = request(**connections[static_cast<std::size_t>(c)], i, &failure);
        mine.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        if (status != expect) {
          ++errors;
          if (!reported.exchange(true)) {
            fmt::print(stderr, "{}: request {} answered {}: {}\n", name, i, status,
                       std::string_view(failure).substr(0, 400));
          }
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  PhaseResult result;
  result.name = name;
  result.clients = clients;
  result.requests = count;
  result.errors = errors;
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  result.server_cpu_seconds = process_cpu_seconds(server_pid) - server_cpu0;
  result.client_cpu_seconds = process_cpu_seconds(server_pid > 0 ? ::getpid() : 0) - client_cpu0;
  for (const auto& part : latencies) result.latencies_ms.insert(result.latencies_ms.end(), part.begin(), part.end());
  std::sort(result.latencies_ms.begin(), result.latencies_ms.end());
  return result;
}

int status_of(const httplib::Result& result, std::string* failure) {
  if (!result) {
    *failure = "no answer: " + httplib::to_string(result.error());
    return 0;
  }
  if (result->status >= 300) *failure = result->body;
  return result->status;
}

using mkq::bench::WorkloadPhase;
using mkq::bench::WorkloadRequest;

// Sends one request of the workload.
httplib::Result send(httplib::SSLClient& c, const WorkloadRequest& r) {
  const std::string target = r.query.empty() ? r.path : r.path + "?" + r.query;
  if (r.method == "POST") return c.Post(target, r.body, r.content_type);
  if (r.method == "PATCH") return c.Patch(target, r.body, r.content_type);
  return c.Get(target);
}

// A phase of the workload with `clients` connections.
PhaseResult run_workload_phase(const WorkloadPhase& phase, const Target& target, int clients, std::size_t count) {
  return run_phase(phase.name, target, clients, count, phase.expect,
                   [&](httplib::SSLClient& c, std::size_t i, std::string* failure) {
                     return status_of(send(c, phase.request(i)), failure);
                   });
}

// Creates the CRDs of `dir` (--crds), without their rules when `strip`.
bool install_crds(const Target& target, const std::string& dir, bool strip) {
  std::vector<nlohmann::json> crds;
  std::string error;
  if (!mkq::sandbox::read_crds(dir, &crds, &error)) {
    fmt::print(stderr, "mkq-sandbox-bench: {}\n", error);
    return false;
  }
  Connection conn(target);
  for (auto& crd : crds) {
    if (strip) mkq::bench::strip_rules(crd);
    auto result = conn->Post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd.dump(), "application/json");
    if (!result || (result->status != 201 && result->status != 409)) {
      fmt::print(stderr, "mkq-sandbox-bench: cannot create a CRD: {}\n", result ? result->body : "no answer");
      return false;
    }
  }
  return true;
}

// Runs every phase with `clients` connections in namespaces bench-<clients>
// and bench-<clients>-apply; returns false when a phase had errors.
bool run_all(const Target& target, int clients, std::size_t count, int list_runs, bool with_queues) {
  const std::string ns = "bench-" + std::to_string(clients);
  const std::string apply_ns = ns + "-apply";
  {
    Connection setup(target);
    for (const auto& name : {ns, apply_ns}) {
      auto result = setup->Post("/api/v1/namespaces", mkq::bench::namespace_object(name), "application/json");
      if (!result || (result->status != 201 && result->status != 409)) {
        fmt::print(stderr, "cannot create namespace {}: {}\n", name,
                   result ? result->body : httplib::to_string(result.error()));
        return false;
      }
    }
  }
  const std::string collection = mkq::bench::config_maps_of(ns);
  bool ok = true;
  auto report = [&ok](const PhaseResult& r) {
    print(r);
    ok = ok && r.errors == 0;
  };

  for (const WorkloadPhase& phase : mkq::bench::phases_before_list(ns)) {
    report(run_workload_phase(phase, target, clients, count));
  }
  {
    // The list of the whole namespace: one connection, one request at a time.
    Connection conn(target);
    std::vector<double> times;
    std::size_t items = 0;
    std::size_t bytes = 0;
    for (int run = 0; run < list_runs; ++run) {
      const auto t0 = Clock::now();
      auto result = conn->Get(collection);
      times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
      if (!result || result->status != 200) {
        fmt::print(stderr, "list failed\n");
        return false;
      }
      bytes = result->body.size();
      // Count the items cheaply: every item carries the "app":"bench" label once.
      items = 0;
      for (std::size_t at = result->body.find("\"app\":\"bench\""); at != std::string::npos;
           at = result->body.find("\"app\":\"bench\"", at + 1)) {
        ++items;
      }
    }
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    fmt::print("{:<13} clients={:<3} items={:<6} {} bytes  median {:7.1f} ms  min {:7.1f} ms  max {:7.1f} ms  "
               "({} runs)  load {:.2f}\n",
               "list", clients, items, bytes, percentile(sorted, 0.5), sorted.front(), sorted.back(), list_runs,
               load_average());
    std::fflush(stdout);
    if (items != count) {
      fmt::print(stderr, "list returned {} items, expected {}\n", items, count);
      ok = false;
    }
  }
  for (const WorkloadPhase& phase :
       mkq::bench::phases_after_list(apply_ns, with_queues, "cq-" + std::to_string(clients) + "-")) {
    report(run_workload_phase(phase, target, clients, count));
  }
  return ok;
}

// Reads the server, CA and admin credentials of `context` (empty: the current
// one) from a kubeconfig with inline *-data fields, as `mkq sandbox up` writes it.
bool target_from_kubeconfig(const std::string& path, std::string context, Target* target, std::string* error) {
  try {
    const YAML::Node config = YAML::LoadFile(path);
    if (context.empty()) context = config["current-context"].as<std::string>("");
    std::string cluster_name;
    std::string user_name;
    for (const auto& c : config["contexts"]) {
      if (c["name"].as<std::string>("") == context) {
        cluster_name = c["context"]["cluster"].as<std::string>("");
        user_name = c["context"]["user"].as<std::string>("");
      }
    }
    if (cluster_name.empty()) {
      *error = "no context '" + context + "' in " + path;
      return false;
    }
    std::string server;
    for (const auto& c : config["clusters"]) {
      if (c["name"].as<std::string>("") != cluster_name) continue;
      server = c["cluster"]["server"].as<std::string>("");
      target->ca_cert = base64_decode(c["cluster"]["certificate-authority-data"].as<std::string>(""));
    }
    for (const auto& u : config["users"]) {
      if (u["name"].as<std::string>("") != user_name) continue;
      target->client_cert = base64_decode(u["user"]["client-certificate-data"].as<std::string>(""));
      target->client_key = base64_decode(u["user"]["client-key-data"].as<std::string>(""));
      target->token = u["user"]["token"].as<std::string>("");
    }
    const std::string prefix = "https://";
    const auto colon = server.rfind(':');
    if (server.rfind(prefix, 0) != 0 || colon == std::string::npos || colon < prefix.size()) {
      *error = "unexpected server '" + server + "' in " + path;
      return false;
    }
    target->host = server.substr(prefix.size(), colon - prefix.size());
    target->port = std::atoi(server.c_str() + colon + 1);
    if (target->ca_cert.empty() ||
        ((target->client_cert.empty() || target->client_key.empty()) && target->token.empty())) {
      *error =
          "the kubeconfig needs certificate-authority-data, and client-certificate-data and client-key-data "
          "or a token";
      return false;
    }
    return true;
  } catch (const std::exception& e) {
    *error = std::string("cannot read ") + path + ": " + e.what();
    return false;
  }
}

// Diagnostic for --server-nodelay: sets TCP_NODELAY on this process's
// listening socket bound to `port` (Linux hands it down to accepted sockets),
// to show what the server's Nagle delay costs without changing the server.
bool set_listener_nodelay(int port) {
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    const int fd = std::atoi(entry.path().filename().c_str());
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) continue;
    if (address.ss_family != AF_INET) continue;
    sockaddr_in in{};
    std::memcpy(&in, &address, sizeof in);
    int listening = 0;
    socklen_t size = sizeof listening;
    if (ntohs(in.sin_port) != port || getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &size) != 0 || !listening) {
      continue;
    }
    const int one = 1;
    return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) == 0;
  }
  return false;
}

void usage() {
  fmt::print(stderr,
             "usage: mkq-sandbox-bench [--objects N] [--clients C] [--list-runs R] [--keep DIR]\n"
             "                         [--kubeconfig FILE [--context NAME]] [--crds DIR [--no-rules]]\n"
             "  default: start a sandbox cluster in-process on a temporary database and an ephemeral port\n"
             "  --objects N    objects per phase (default 10000)\n"
             "  --clients C    concurrent clients of the second round (default 16)\n"
             "  --list-runs R  timed lists of the whole namespace (default 5)\n"
             "  --keep DIR     in-process: put the database and PKI in DIR and keep them\n"
             "  --server-nodelay  in-process: set TCP_NODELAY on the server's sockets (diagnostic)\n"
             "  --kubeconfig   talk to a running `mkq sandbox` instead (namespaces bench-1*, bench-C* must not exist)\n"
             "  --crds DIR     install DIR's CRDs (Kueue's) and add the phases cq-create and cq-apply (ClusterQueues)\n"
             "  --no-rules     with --crds: install them without their x-kubernetes-validations (CEL off)\n"
             "  --server-pid P with --kubeconfig: also print the CPU the sandbox process P spent per request\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t count = 10000;
  int clients = 16;
  int list_runs = 5;
  std::string kubeconfig;
  std::string context;
  std::string keep;
  bool server_nodelay = false;
  std::string crds;
  bool no_rules = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--objects" && has_value) {
      count = static_cast<std::size_t>(std::atol(argv[++i]));
    } else if (arg == "--clients" && has_value) {
      clients = std::atoi(argv[++i]);
    } else if (arg == "--list-runs" && has_value) {
      list_runs = std::atoi(argv[++i]);
    } else if (arg == "--kubeconfig" && has_value) {
      kubeconfig = argv[++i];
    } else if (arg == "--context" && has_value) {
      context = argv[++i];
    } else if (arg == "--server-nodelay") {
      server_nodelay = true;
    } else if (arg == "--crds" && has_value) {
      crds = argv[++i];
    } else if (arg == "--server-pid" && has_value) {
      server_pid = std::atoi(argv[++i]);
    } else if (arg == "--no-rules") {
      no_rules = true;
    } else if (arg == "--keep" && has_value) {
      keep = argv[++i];
    } else {
      usage();
      return arg == "--help" || arg == "-h" ? 0 : 2;
    }
  }
  if (count == 0 || clients < 1 || list_runs < 1) {
    usage();
    return 2;
  }

  Target target;
  std::unique_ptr<mkq::sandbox::Cluster> cluster;
  std::unique_ptr<mkq::sandbox::HttpsServer> server;
  std::filesystem::path dir;
  bool remove_dir = false;
  std::string error;
  if (!kubeconfig.empty()) {
    if (!target_from_kubeconfig(kubeconfig, context, &target, &error)) {
      fmt::print(stderr, "mkq-sandbox-bench: {}\n", error);
      return 1;
    }
    fmt::print("target: {}:{} (kubeconfig {})\n", target.host, target.port, kubeconfig);
  } else {
    if (keep.empty()) {
      std::string pattern = (std::filesystem::temp_directory_path() / "mkq-sandbox-bench-XXXXXX").string();
      if (mkdtemp(pattern.data()) == nullptr) {
        fmt::print(stderr, "mkq-sandbox-bench: cannot create a temporary directory\n");
        return 1;
      }
      dir = pattern;
      remove_dir = true;
    } else {
      dir = keep;
      std::filesystem::create_directories(dir);
    }
    mkq::sandbox::Pki pki;
    if (!mkq::sandbox::load_or_create_pki(dir, &pki, &error)) {
      fmt::print(stderr, "mkq-sandbox-bench: {}\n", error);
      return 1;
    }
    cluster = mkq::sandbox::Cluster::open("bench", dir / "bench.db", &error);
    if (!cluster) {
      fmt::print(stderr, "mkq-sandbox-bench: {}\n", error);
      return 1;
    }
    mkq::sandbox::ServerOptions options;
    server = std::make_unique<mkq::sandbox::HttpsServer>(*cluster, pki, options);
    if (!server->bind(&error)) {
      fmt::print(stderr, "mkq-sandbox-bench: {}\n", error);
      return 1;
    }
    if (server_nodelay && !set_listener_nodelay(server->port())) {
      fmt::print(stderr, "mkq-sandbox-bench: cannot set TCP_NODELAY on the listening socket\n");
      return 1;
    }
    server->start();
    target.port = server->port();
    target.ca_cert = pki.ca_cert;
    target.client_cert = pki.admin_cert;
    target.client_key = pki.admin_key;
    fmt::print("target: in-process cluster on 127.0.0.1:{}, database {}{}\n", target.port, (dir / "bench.db").string(),
               server_nodelay ? ", server TCP_NODELAY" : "");
  }
  fmt::print("objects per phase: {}, clients: 1 and {}, load average at start: {:.2f}\n", count, clients,
             load_average());
  std::fflush(stdout);

  const std::filesystem::path ca_file =
      std::filesystem::temp_directory_path() / ("mkq-sandbox-bench-ca-" + std::to_string(::getpid()) + ".crt");
  {
    std::ofstream out(ca_file);
    out << target.ca_cert;
    if (out) target.ca_file = ca_file.string();
  }
  if (!crds.empty()) {
    if (!install_crds(target, crds, no_rules)) return 1;
    fmt::print("CRDs from {}{}\n", crds, no_rules ? ", without their CEL rules" : ", with their CEL rules");
  }
  bool ok = run_all(target, 1, count, list_runs, !crds.empty());
  if (clients > 1) ok = run_all(target, clients, count, list_runs, !crds.empty()) && ok;
  {
    std::error_code ignored;
    std::filesystem::remove(ca_file, ignored);
  }

  if (server) server->stop();
  server.reset();
  cluster.reset();
  if (remove_dir) {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
  return ok ? 0 : 1;
}
