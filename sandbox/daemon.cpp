// The sandbox process: serve, up, down, status (see daemon.h).
#include "sandbox/daemon.h"

#include <fcntl.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include <fmt/format.h>

#include "base/time.h"
#include "sandbox/api.h"
#include "sandbox/admin_client.h"
#include "sandbox/controllers.h"
#include "sandbox/daemon_files.h"
#include "sandbox/identity.h"
#include "sandbox/kueue_install.h"
#include "sandbox/yaml.h"

namespace mkq::sandbox {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kStopGraceSeconds = 2;  // serve: how long stopping may wait for open requests

// ---------------------------------------------------------------- serve

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

std::string timestamp() { return base::format_rfc3339(std::chrono::system_clock::now()); }

bool prepare_dir(const fs::path& dir, TextSink& err) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    err << fmt::format("mkq: error: cannot create the sandbox directory {}{}{}\n", dir.string(),
                       ec ? ": " : "", ec ? ec.message() : "");
    return false;
  }
  chmod(dir.c_str(), 0700);
  return true;
}

bool check_names(const std::vector<std::string>& clusters, TextSink& err) {
  if (clusters.empty()) {
    err << "mkq: error: --clusters names no cluster\n";
    return false;
  }
  for (std::size_t i = 0; i < clusters.size(); ++i) {
    if (!valid_cluster_name(clusters[i])) {
      err << fmt::format(
          "mkq: error: invalid cluster name \"{}\": use lower-case letters, digits and '-' (a DNS label)\n",
          clusters[i]);
      return false;
    }
    if (std::find(clusters.begin(), clusters.begin() + static_cast<long>(i), clusters[i]) !=
        clusters.begin() + static_cast<long>(i)) {
      err << fmt::format("mkq: error: cluster \"{}\" named twice in --clusters\n", clusters[i]);
      return false;
    }
  }
  return true;
}

}  // namespace

int sandbox_serve(const SandboxOptions& options, TextSink& out, TextSink& err) {
  if (!check_names(options.clusters, err) || !prepare_dir(options.dir, err)) return 1;
  const fs::path dir = options.dir;
  const long running = read_pid(dir);
  if (running != getpid() && is_sandbox_process(running)) {
    err << fmt::format(
        "mkq: error: a sandbox already runs from {0} (pid {1}); stop it with `mkq sandbox down --dir {0}`\n",
        dir.string(), running);
    return 1;
  }
  Pki pki;
  std::string error;
  if (!load_or_create_pki(dir, &pki, &error)) {
    err << fmt::format("mkq: error: {}\n", error);
    return 1;
  }
  ClusterOptions cluster_options;
  if (!load_or_create_signing_key(dir, &cluster_options.service_account_key, &error)) {
    err << fmt::format("mkq: error: {}\n", error);
    return 1;
  }
  cluster_options.ca_cert = pki.ca_cert;
  cluster_options.allow_short_tokens = options.allow_short_tokens;
  std::mutex log_mutex;  // clusters log from their own threads
  cluster_options.log = [&out, &log_mutex](const std::string& line) {
    const std::lock_guard<std::mutex> lock(log_mutex);
    out << fmt::format("{} {}\n", timestamp(), line);
    out.flush();
  };

  // Block the stop signals in every thread; this one waits for them below.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  const State previous = read_state(dir);
  std::vector<std::unique_ptr<Cluster>> clusters;
  std::vector<std::unique_ptr<HttpsServer>> servers;
  State state;
  state.pid = getpid();
  state.allow_short_tokens = options.allow_short_tokens;
  for (const std::string& name : options.clusters) {
    std::unique_ptr<Cluster> cluster = Cluster::open(name, dir / (name + ".db"), cluster_options, &error);
    if (!cluster) {
      err << fmt::format("mkq: error: cluster {}: {}\n", name, error);
      return 1;
    }
    ServerOptions server_options;
    const State::Entry* known = previous.find(name);
    server_options.port = known != nullptr ? known->port : 0;  // a restart keeps every kubeconfig valid
    server_options.faults = options.faults;
    server_options.flow_control = options.flow_control;
    auto server = std::make_unique<HttpsServer>(*cluster, pki, server_options);
    if (!server->bind(&error)) {
      err << fmt::format("mkq: error: cluster {}: {}\n", name, error);
      return 1;
    }
    state.clusters.push_back({name, server->port(), static_cast<long long>(cluster->object_count())});
    clusters.push_back(std::move(cluster));
    servers.push_back(std::move(server));
  }
  // Clusters known from an earlier start but not served now keep their ports.
  for (const State::Entry& entry : previous.clusters) {
    if (state.find(entry.name) == nullptr) state.clusters.push_back(entry);
  }
  std::vector<ClusterPort> ports;
  for (const auto& cluster : clusters) {
    ports.push_back({cluster->name(), state.find(cluster->name())->port});
  }
  if (!write_text(dir / "kubeconfig", make_kubeconfig(pki, ports), base::FileMode::OwnerOnly) ||
      !write_state(dir, state) ||
      !write_text(dir / "sandbox.pid", std::to_string(getpid()) + "\n", base::FileMode::WorldReadable)) {
    err << fmt::format("mkq: error: cannot write the sandbox files in {}\n", dir.string());
    return 1;
  }
  for (auto& server : servers) server->start();
  out << fmt::format("{} mkq sandbox serving from {} (pid {})\n", timestamp(), dir.string(), getpid());
  for (const ClusterPort& port : ports) {
    out << fmt::format("{}   {}: https://127.0.0.1:{}\n", timestamp(), port.name, port.port);
  }
  out.flush();

  // Wait for SIGTERM/SIGINT; meanwhile keep the object counts in state.json fresh.
  for (;;) {
    const timespec second{1, 0};
    const int received = sigtimedwait(&signals, nullptr, &second);
    if (received == SIGTERM || received == SIGINT) {
      out << fmt::format("{} stopping ({})\n", timestamp(), received == SIGTERM ? "SIGTERM" : "SIGINT");
      break;
    }
    bool changed = false;
    for (const auto& cluster : clusters) {
      for (State::Entry& entry : state.clusters) {
        if (entry.name != cluster->name()) continue;
        const auto count = static_cast<long long>(cluster->object_count());
        changed = changed || count != entry.objects;
        entry.objects = count;
      }
    }
    if (changed) write_state(dir, state);
  }
  for (const auto& cluster : clusters) {
    for (State::Entry& entry : state.clusters) {
      if (entry.name == cluster->name()) entry.objects = static_cast<long long>(cluster->object_count());
    }
  }
  state.pid = 0;
  write_state(dir, state);
  if (read_pid(dir) == getpid()) fs::remove(dir / "sandbox.pid");
  // Stop the servers, but not for longer than kStopGraceSeconds: an open watch
  // keeps a worker busy until the Cluster's stream returns. Leaving without
  // destructors then loses nothing: the clusters' pending writes are
  // committed first (flush).
  std::mutex stop_mutex;
  std::condition_variable stop_done;
  bool stopped = false;
  std::thread stopper([&] {
    for (auto& server : servers) server->stop();
    const std::lock_guard<std::mutex> lock(stop_mutex);
    stopped = true;
    stop_done.notify_all();
  });
  {
    std::unique_lock<std::mutex> lock(stop_mutex);
    if (!stop_done.wait_for(lock, std::chrono::seconds(kStopGraceSeconds), [&] { return stopped; })) {
      for (const auto& cluster : clusters) cluster->flush();
      out << fmt::format("{} stopped (open watches closed)\n", timestamp());
      out.flush();
      std::_Exit(0);
    }
  }
  stopper.join();
  out << fmt::format("{} stopped\n", timestamp());
  return 0;
}

std::vector<std::string> running_clusters(const fs::path& dir) {
  if (!is_sandbox_process(read_pid(dir))) return {};
  std::vector<std::string> names;
  for (const State::Entry& entry : read_state(dir).clusters) names.push_back(entry.name);
  return names;
}

int sandbox_up(const SandboxOptions& options, TextSink& out, TextSink& err) {
  if (!check_names(options.clusters, err) || !prepare_dir(options.dir, err)) return 1;
  std::error_code ec;
  const fs::path dir = fs::absolute(options.dir, ec);
  const fs::path log = dir / "sandbox.log";

  long pid = read_pid(dir);
  const bool already_running = is_sandbox_process(pid);
  if (already_running) {
    out << fmt::format("the sandbox already runs (pid {})\n", pid);
  } else {
    fs::remove(dir / "sandbox.pid", ec);
    // The serve command line, prepared before fork (the child only execs).
    std::vector<std::string> args = {"mkq", "sandbox", "serve", "--dir", dir.string(), "--clusters",
                                     join(options.clusters, ",")};
    if (options.faults.latency_ms > 0) {
      args.insert(args.end(), {"--fault-latency-ms", std::to_string(options.faults.latency_ms)});
    }
    if (options.faults.rate_500 > 0) {
      args.insert(args.end(), {"--fault-500-rate", std::to_string(options.faults.rate_500)});
    }
    if (options.faults.rate_429 > 0) {
      args.insert(args.end(), {"--fault-429-rate", std::to_string(options.faults.rate_429)});
    }
    if (options.faults.rate_drop > 0) {
      args.insert(args.end(), {"--fault-drop-rate", std::to_string(options.faults.rate_drop)});
    }
    if (options.allow_short_tokens) args.emplace_back("--allow-short-tokens");
    if (options.flow_control.concurrency != FlowControlOptions().concurrency) {
      args.insert(args.end(), {"--apf-concurrency", std::to_string(options.flow_control.concurrency)});
    }
    if (!options.faults.verbs.empty()) args.insert(args.end(), {"--fault-verbs", join(options.faults.verbs, ",")});
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    const int log_fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    const int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (log_fd < 0 || null_fd < 0) {
      err << fmt::format("mkq: error: cannot open {}: {}\n", log.string(), std::strerror(errno));
      return 1;
    }
    const pid_t child = fork();
    if (child < 0) {
      err << fmt::format("mkq: error: cannot start the sandbox: {}\n", std::strerror(errno));
      return 1;
    }
    if (child == 0) {
      setsid();
      dup2(null_fd, STDIN_FILENO);
      dup2(log_fd, STDOUT_FILENO);
      dup2(log_fd, STDERR_FILENO);
      execv("/proc/self/exe", argv.data());
      _exit(127);
    }
    close(log_fd);
    close(null_fd);
    pid = child;
  }

  Pki pki;
  std::string error;
  // Wait until serve has written its files and every cluster answers /readyz.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(options.ready_timeout_seconds);
  std::vector<ClusterPort> ready;
  for (;;) {
    int status = 0;
    if (waitpid(static_cast<pid_t>(pid), &status, WNOHANG) == pid) {
      err << fmt::format("mkq: error: the sandbox exited during start-up; the end of {}:\n{}", log.string(),
                         log_tail(log, 10));
      return 1;
    }
    const State state = read_state(dir);
    // A sandbox that already ran before this call serves the clusters it was
    // started with and no others: waiting for one it lacks would only time out.
    if (already_running && state.pid == pid && !state.clusters.empty()) {
      std::vector<std::string> missing;
      for (const std::string& name : options.clusters) {
        if (state.find(name) == nullptr) missing.push_back(name);
      }
      if (!missing.empty()) {
        std::vector<std::string> served;
        for (const State::Entry& entry : state.clusters) served.push_back(entry.name);
        err << fmt::format(
            "mkq: error: the sandbox in {} already runs {}, not {}: stop it first with `mkq sandbox down --dir {}`\n",
            options.dir.string(), join(served, ", "), join(missing, ", "), options.dir.string());
        return 1;
      }
    }
    ready.clear();
    if (state.pid == pid && load_or_create_pki(dir, &pki, &error)) {
      for (const std::string& name : options.clusters) {
        const State::Entry* entry = state.find(name);
        if (entry == nullptr || entry->port <= 0) break;
        AdminClient client(pki, entry->port);
        if (client.get("/readyz") != 200) break;
        ready.push_back({name, entry->port});
      }
    }
    if (ready.size() == options.clusters.size()) break;
    if (std::chrono::steady_clock::now() > deadline) {
      err << fmt::format(
          "mkq: error: the sandbox did not become ready within {}s (is it running other clusters? try `mkq "
          "sandbox down --dir {}` first); the end of {}:\n{}",
          options.ready_timeout_seconds, options.dir.string(), log.string(), log_tail(log, 10));
      return 1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  out << fmt::format("sandbox running (pid {}), kubeconfig {}\n", pid, (dir / "kubeconfig").string());
  for (const ClusterPort& cluster : ready) {
    out << fmt::format("  {0}: https://127.0.0.1:{1}  (kubectl --kubeconfig {2} --context {0})\n",
                       cluster.name, cluster.port, (dir / "kubeconfig").string());
  }

  if (options.no_kueue) return 0;
  if (options.crds_dir.empty() && options.builtin_crds.empty()) {
    out << "no CRDs installed (give --crds DIR to install Kueue's CRDs)\n";
    return 0;
  }
  std::vector<json> crds = options.builtin_crds;
  std::string source = options.builtin_crds_source;
  if (!options.crds_dir.empty()) {
    crds.clear();
    source = options.crds_dir.string();
    if (!read_crds(options.crds_dir, &crds, &error)) {
      err << fmt::format("mkq: error: {}\n", error);
      return 1;
    }
  }
  int failures = 0;
  for (const ClusterPort& cluster : ready) {
    AdminClient client(pki, cluster.port);
    int created = 0;
    int existing = 0;
    for (const json& crd : crds) {
      std::string body;
      const int code = post_retrying(client, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd.dump(), &body);
      if (code == 201 || code == 200) {
        ++created;
      } else if (code == 409) {
        ++existing;
      } else {
        ++failures;
        const json status = json::parse(body, nullptr, false);
        const std::string message =
            status.is_object() && status.contains("message") && status["message"].is_string()
                ? status["message"].get<std::string>()
                : (code < 0 ? std::string("no answer") : fmt::format("HTTP {}", code));
        const std::string crd_name =
            crd.contains("metadata") && crd["metadata"].is_object() ? crd["metadata"].value("name", "?") : "?";
        err << fmt::format("mkq: error: {}: cannot create CRD {}: {}\n", cluster.name, crd_name, message);
      }
    }
    out << fmt::format("  {}: {} CRDs created, {} already there (from {})\n", cluster.name, created, existing,
                       source);
    // Kueue's installation also makes its namespace, where MultiKueue keeps its
    // kubeconfig Secrets (manager) and its ServiceAccount (workers).
    std::string body;
    const json kueue_namespace = {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "kueue-system"}}}};
    const int code = post_retrying(client, "/api/v1/namespaces", kueue_namespace.dump(), &body);
    if (code != 201 && code != 200 && code != 409) {
      ++failures;
      err << fmt::format("mkq: error: {}: cannot create namespace kueue-system (HTTP {})\n", cluster.name,
                         code);
      continue;
    }
    // ... and its configuration and controller manager.
    failures += install_kueue_objects(client, cluster.name, err);
  }
  return failures == 0 ? 0 : 1;
}

int sandbox_down(const SandboxOptions& options, TextSink& out, TextSink& err) {
  const fs::path dir = options.dir;
  const long pid = read_pid(dir);
  std::error_code ec;
  if (!is_sandbox_process(pid)) {
    fs::remove(dir / "sandbox.pid", ec);
    out << fmt::format("no sandbox runs from {}\n", dir.string());
    return 0;
  }
  kill(static_cast<pid_t>(pid), SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(options.stop_timeout_seconds);
  while (is_sandbox_process(pid)) {
    // Reap it when it is our own child (a test that ran up and down in one process).
    waitpid(static_cast<pid_t>(pid), nullptr, WNOHANG);
    if (std::chrono::steady_clock::now() > deadline) {
      err << fmt::format("mkq: warning: the sandbox (pid {}) did not stop within {}s; killing it\n", pid,
                         options.stop_timeout_seconds);
      kill(static_cast<pid_t>(pid), SIGKILL);
      for (int i = 0; i < 50 && is_sandbox_process(pid); ++i) {
        waitpid(static_cast<pid_t>(pid), nullptr, WNOHANG);
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  fs::remove(dir / "sandbox.pid", ec);
  out << fmt::format("sandbox stopped (pid {})\n", pid);
  return 0;
}

int sandbox_status(const SandboxOptions& options, TextSink& out, TextSink& err) {
  const fs::path dir = options.dir;
  const State state = read_state(dir);
  if (state.clusters.empty()) {
    err << fmt::format("mkq: error: no sandbox in {0} (start one with `mkq sandbox up --dir {0}`)\n",
                       dir.string());
    return 1;
  }
  const long pid = read_pid(dir);
  const bool running = is_sandbox_process(pid);
  Pki pki;
  std::string error;
  const bool have_pki = load_or_create_pki(dir, &pki, &error);
  if (running)
    out << fmt::format("sandbox {}: running (pid {})\n", dir.string(), pid);
  else
    out << fmt::format("sandbox {}: stopped\n", dir.string());
  out << "CLUSTER          PORT    STATE     OBJECTS\n";
  for (const State::Entry& entry : state.clusters) {
    std::string health = "stopped";
    if (running && have_pki) {
      AdminClient client(pki, entry.port);
      health = client.get("/readyz") == 200 ? "ready" : (state.find(entry.name) ? "down" : "unknown");
    }
    if (entry.objects < 0)
      out << fmt::format("{:<16} {:<7} {:<9} -\n", entry.name, entry.port, health);
    else
      out << fmt::format("{:<16} {:<7} {:<9} {}\n", entry.name, entry.port, health, entry.objects);
  }
  out << fmt::format("kubeconfig: {}\n", (dir / "kubeconfig").string());
  return 0;
}

}  // namespace mkq::sandbox
