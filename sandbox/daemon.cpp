// The sandbox process: serve, up, down, status (see daemon.h).
#include "sandbox/daemon.h"

#include <fcntl.h>
#include <httplib.h>
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
#include <ostream>
#include <sstream>
#include <thread>

#include "base/time.h"
#include "sandbox/api.h"
#include "sandbox/controllers.h"
#include "sandbox/identity.h"
#include "sandbox/kueue_install.h"
#include "sandbox/yaml.h"

namespace mkq::sandbox {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kStopGraceSeconds = 2;  // serve: how long stopping may wait for open requests

// ---------------------------------------------------------------- files

bool read_text(const fs::path& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *out = buffer.str();
  return true;
}

// Writes through a temporary file and a rename: readers never see half a file.
bool write_text(const fs::path& path, const std::string& content, mode_t mode) {
  const fs::path temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    chmod(temporary.c_str(), mode);
    out << content;
    if (!out.flush()) return false;
  }
  std::error_code ec;
  fs::rename(temporary, path, ec);
  return !ec;
}

struct State {
  long pid = 0;
  bool allow_short_tokens = false;  // serve runs with --allow-short-tokens
  struct Entry {
    std::string name;
    int port = 0;
    long long objects = -1;
  };
  std::vector<Entry> clusters;

  const Entry* find(const std::string& name) const {
    for (const Entry& entry : clusters) {
      if (entry.name == name) return &entry;
    }
    return nullptr;
  }
};

State read_state(const fs::path& dir) {
  State state;
  std::string text;
  if (!read_text(dir / "state.json", &text)) return state;
  const json document = json::parse(text, nullptr, false);
  if (!document.is_object()) return state;
  if (document.contains("pid") && document["pid"].is_number_integer()) state.pid = document["pid"].get<long>();
  state.allow_short_tokens = document.value("allowShortTokens", false);
  if (document.contains("clusters") && document["clusters"].is_array()) {
    for (const json& item : document["clusters"]) {
      if (!item.is_object() || !item.contains("name") || !item["name"].is_string()) continue;
      State::Entry entry;
      entry.name = item["name"].get<std::string>();
      if (item.contains("port") && item["port"].is_number_integer()) entry.port = item["port"].get<int>();
      if (item.contains("objects") && item["objects"].is_number_integer()) {
        entry.objects = item["objects"].get<long long>();
      }
      state.clusters.push_back(entry);
    }
  }
  return state;
}

bool write_state(const fs::path& dir, const State& state) {
  json clusters = json::array();
  for (const State::Entry& entry : state.clusters) {
    clusters.push_back({{"name", entry.name}, {"port", entry.port}, {"objects", entry.objects}});
  }
  json document = {{"pid", state.pid}, {"clusters", clusters}};
  if (state.allow_short_tokens) document["allowShortTokens"] = true;
  return write_text(dir / "state.json", document.dump(2) + "\n", 0644);
}

long read_pid(const fs::path& dir) {
  std::string text;
  if (!read_text(dir / "sandbox.pid", &text)) return 0;
  try {
    return std::stol(text);
  } catch (...) {
    return 0;
  }
}

// True when pid is a live `mkq sandbox serve` (not a recycled pid of some
// other program).
bool is_sandbox_process(long pid) {
  if (pid <= 0 || kill(static_cast<pid_t>(pid), 0) != 0) return false;
  std::string cmdline;
  if (!read_text("/proc/" + std::to_string(pid) + "/cmdline", &cmdline)) return false;
  std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
  return cmdline.find("sandbox serve") != std::string::npos;
}

std::string log_tail(const fs::path& path, std::size_t lines) {
  std::string text;
  if (!read_text(path, &text)) return {};
  std::size_t position = text.size();
  std::size_t count = 0;
  while (position > 0 && count <= lines) {
    position = text.rfind('\n', position - 1);
    if (position == std::string::npos) {
      position = 0;
      break;
    }
    ++count;
  }
  return text.substr(position);
}

// ---------------------------------------------------------------- client



// An HTTPS client of one sandbox cluster, as the admin, trusting only the
// sandbox CA.
class AdminClient {
 public:
  AdminClient(const Pki& pki, int port)
      : cert_(read_cert(pki.admin_cert)),
        key_(read_key(pki.admin_key)),
        client_("127.0.0.1", port, cert_.get(), key_.get()) {
    X509_STORE* store = X509_STORE_new();  // owned by the client from here on
    const auto ca = read_cert(pki.ca_cert);
    if (store != nullptr && ca) X509_STORE_add_cert(store, ca.get());
    client_.set_ca_cert_store(store);
    client_.enable_server_certificate_verification(true);
    client_.set_connection_timeout(2, 0);
    client_.set_read_timeout(30, 0);
  }

  // The status code, or -1 when the request did not get an answer.
  int get(const std::string& path, std::string* body = nullptr) {
    auto result = client_.Get(path.c_str());
    if (!result) return -1;
    if (body != nullptr) *body = result->body;
    return result->status;
  }

  int post(const std::string& path, const std::string& payload, std::string* body) {
    auto result = client_.Post(path.c_str(), payload, "application/json");
    if (!result) return -1;
    *body = result->body;
    return result->status;
  }

  // Server-side apply as `kubectl apply --server-side` (field manager kubectl).
  int apply(const std::string& path, const std::string& payload, std::string* body) {
    auto result = client_.Patch((path + "?fieldManager=kubectl").c_str(), payload, "application/apply-patch+yaml");
    if (!result) return -1;
    *body = result->body;
    return result->status;
  }

 private:
  CertPtr cert_;
  KeyPtr key_;
  httplib::SSLClient client_;
};

// Every CRD document in dir's *.yaml, *.yml and *.json files, by file name.
bool read_crds(const fs::path& dir, std::vector<json>* crds, std::string* error) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    *error = "--crds " + dir.string() + ": not a directory";
    return false;
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string extension = entry.path().extension().string();
    if (entry.is_regular_file() && (extension == ".yaml" || extension == ".yml" || extension == ".json")) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    try {
      for (const YAML::Node& document : YAML::LoadAllFromFile(file.string())) {
        json object = yaml_to_json(document);
        if (object.is_object() && object.value("kind", "") == "CustomResourceDefinition") {
          crds->push_back(std::move(object));
        }
      }
    } catch (const std::exception& e) {
      *error = file.string() + ": " + e.what();
      return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------- serve

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

std::string timestamp() { return base::format_rfc3339(std::chrono::system_clock::now()); }

bool prepare_dir(const fs::path& dir, std::ostream& err) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    err << "mkq: error: cannot create the sandbox directory " << dir.string() << (ec ? ": " + ec.message() : "")
        << "\n";
    return false;
  }
  chmod(dir.c_str(), 0700);
  return true;
}

bool check_names(const std::vector<std::string>& clusters, std::ostream& err) {
  if (clusters.empty()) {
    err << "mkq: error: --clusters names no cluster\n";
    return false;
  }
  for (std::size_t i = 0; i < clusters.size(); ++i) {
    if (!valid_cluster_name(clusters[i])) {
      err << "mkq: error: invalid cluster name \"" << clusters[i]
          << "\": use lower-case letters, digits and '-' (a DNS label)\n";
      return false;
    }
    if (std::find(clusters.begin(), clusters.begin() + static_cast<long>(i), clusters[i]) !=
        clusters.begin() + static_cast<long>(i)) {
      err << "mkq: error: cluster \"" << clusters[i] << "\" named twice in --clusters\n";
      return false;
    }
  }
  return true;
}

}  // namespace

int sandbox_serve(const SandboxOptions& options, std::ostream& out, std::ostream& err) {
  if (!check_names(options.clusters, err) || !prepare_dir(options.dir, err)) return 1;
  const fs::path dir = options.dir;
  const long running = read_pid(dir);
  if (running != getpid() && is_sandbox_process(running)) {
    err << "mkq: error: a sandbox already runs from " << dir.string() << " (pid " << running
        << "); stop it with `mkq sandbox down --dir " << dir.string() << "`\n";
    return 1;
  }
  Pki pki;
  std::string error;
  if (!load_or_create_pki(dir, &pki, &error)) {
    err << "mkq: error: " << error << "\n";
    return 1;
  }
  ClusterOptions cluster_options;
  if (!load_or_create_signing_key(dir, &cluster_options.service_account_key, &error)) {
    err << "mkq: error: " << error << "\n";
    return 1;
  }
  cluster_options.ca_cert = pki.ca_cert;
  cluster_options.allow_short_tokens = options.allow_short_tokens;
  std::mutex log_mutex;  // clusters log from their own threads
  cluster_options.log = [&out, &log_mutex](const std::string& line) {
    const std::lock_guard<std::mutex> lock(log_mutex);
    out << timestamp() << " " << line << "\n";
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
      err << "mkq: error: cluster " << name << ": " << error << "\n";
      return 1;
    }
    ServerOptions server_options;
    const State::Entry* known = previous.find(name);
    server_options.port = known != nullptr ? known->port : 0;  // a restart keeps every kubeconfig valid
    server_options.faults = options.faults;
    auto server = std::make_unique<HttpsServer>(*cluster, pki, server_options);
    if (!server->bind(&error)) {
      err << "mkq: error: cluster " << name << ": " << error << "\n";
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
  if (!write_text(dir / "kubeconfig", make_kubeconfig(pki, ports), 0600) || !write_state(dir, state) ||
      !write_text(dir / "sandbox.pid", std::to_string(getpid()) + "\n", 0644)) {
    err << "mkq: error: cannot write the sandbox files in " << dir.string() << "\n";
    return 1;
  }
  for (auto& server : servers) server->start();
  out << timestamp() << " mkq sandbox serving from " << dir.string() << " (pid " << getpid() << ")\n";
  for (const ClusterPort& port : ports) {
    out << timestamp() << "   " << port.name << ": https://127.0.0.1:" << port.port << "\n";
  }
  out.flush();

  // Wait for SIGTERM/SIGINT; meanwhile keep the object counts in state.json fresh.
  for (;;) {
    const timespec second{1, 0};
    const int received = sigtimedwait(&signals, nullptr, &second);
    if (received == SIGTERM || received == SIGINT) {
      out << timestamp() << " stopping (" << (received == SIGTERM ? "SIGTERM" : "SIGINT") << ")\n";
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
      out << timestamp() << " stopped (open watches closed)\n";
      out.flush();
      std::_Exit(0);
    }
  }
  stopper.join();
  out << timestamp() << " stopped\n";
  return 0;
}

// A request that outlasts the sandbox's own injected faults (500, 429, dropped
// connections): `up --fault-*` must still install Kueue.
int retrying(const std::function<int()>& send) {
  int code = -1;
  for (int attempt = 0; attempt < 50; ++attempt) {
    code = send();
    if (code != 500 && code != 429 && code >= 0) return code;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return code;
}

int post_retrying(AdminClient& client, const std::string& path, const std::string& body, std::string* answer) {
  return retrying([&] { return client.post(path, body, answer); });
}

// Kueue's ConfigMap and controller manager (kueue_install.h) on one cluster,
// each applied only when absent: a configuration mkq or an admin changed
// stays as it is. Returns the number of failures.
int install_kueue_objects(AdminClient& client, const std::string& cluster, std::ostream& err) {
  int failures = 0;
  for (const json& object : kueue_install_objects()) {
    const std::string kind = object.value("kind", "");
    const std::string name = object["metadata"].value("name", "");
    const std::string collection = kind == "Deployment" ? "/apis/apps/v1/namespaces/" + std::string(kKueueNamespace) + "/deployments"
                                                        : "/api/v1/namespaces/" + std::string(kKueueNamespace) + "/configmaps";
    const std::string path = collection + "/" + name;
    const int found = retrying([&] { return client.get(path); });
    if (found == 200) continue;
    std::string body;
    const int code = found == 404 ? retrying([&] { return client.apply(path, object.dump(), &body); }) : found;
    if (code != 200 && code != 201) {
      ++failures;
      err << "mkq: error: " << cluster << ": cannot install " << kind << " " << kKueueNamespace << "/" << name
          << " (HTTP " << code << ")\n";
    }
  }
  return failures;
}

std::vector<std::string> running_clusters(const fs::path& dir) {
  if (!is_sandbox_process(read_pid(dir))) return {};
  std::vector<std::string> names;
  for (const State::Entry& entry : read_state(dir).clusters) names.push_back(entry.name);
  return names;
}

int sandbox_up(const SandboxOptions& options, std::ostream& out, std::ostream& err) {
  if (!check_names(options.clusters, err) || !prepare_dir(options.dir, err)) return 1;
  std::error_code ec;
  const fs::path dir = fs::absolute(options.dir, ec);
  const fs::path log = dir / "sandbox.log";

  long pid = read_pid(dir);
  if (is_sandbox_process(pid)) {
    out << "the sandbox already runs (pid " << pid << ")\n";
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
    if (!options.faults.verbs.empty()) args.insert(args.end(), {"--fault-verbs", join(options.faults.verbs, ",")});
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    const int log_fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    const int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (log_fd < 0 || null_fd < 0) {
      err << "mkq: error: cannot open " << log.string() << ": " << std::strerror(errno) << "\n";
      return 1;
    }
    const pid_t child = fork();
    if (child < 0) {
      err << "mkq: error: cannot start the sandbox: " << std::strerror(errno) << "\n";
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
      err << "mkq: error: the sandbox exited during start-up; the end of " << log.string() << ":\n"
          << log_tail(log, 10);
      return 1;
    }
    const State state = read_state(dir);
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
      err << "mkq: error: the sandbox did not become ready within " << options.ready_timeout_seconds
          << "s (is it running other clusters? try `mkq sandbox down --dir " << options.dir.string()
          << "` first); the end of " << log.string() << ":\n"
          << log_tail(log, 10);
      return 1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  out << "sandbox running (pid " << pid << "), kubeconfig " << (dir / "kubeconfig").string() << "\n";
  for (const ClusterPort& cluster : ready) {
    out << "  " << cluster.name << ": https://127.0.0.1:" << cluster.port << "  (kubectl --kubeconfig "
        << (dir / "kubeconfig").string() << " --context " << cluster.name << ")\n";
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
      err << "mkq: error: " << error << "\n";
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
                : (code < 0 ? std::string("no answer") : "HTTP " + std::to_string(code));
        const std::string crd_name =
            crd.contains("metadata") && crd["metadata"].is_object() ? crd["metadata"].value("name", "?") : "?";
        err << "mkq: error: " << cluster.name << ": cannot create CRD " << crd_name << ": " << message << "\n";
      }
    }
    out << "  " << cluster.name << ": " << created << " CRDs created, " << existing << " already there (from "
        << source << ")\n";
    // Kueue's installation also makes its namespace, where MultiKueue keeps its
    // kubeconfig Secrets (manager) and its ServiceAccount (workers).
    std::string body;
    const json kueue_namespace = {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "kueue-system"}}}};
    const int code = post_retrying(client, "/api/v1/namespaces", kueue_namespace.dump(), &body);
    if (code != 201 && code != 200 && code != 409) {
      ++failures;
      err << "mkq: error: " << cluster.name << ": cannot create namespace kueue-system (HTTP " << code << ")\n";
      continue;
    }
    // ... and its configuration and controller manager.
    failures += install_kueue_objects(client, cluster.name, err);
  }
  return failures == 0 ? 0 : 1;
}

int sandbox_down(const SandboxOptions& options, std::ostream& out, std::ostream& err) {
  const fs::path dir = options.dir;
  const long pid = read_pid(dir);
  std::error_code ec;
  if (!is_sandbox_process(pid)) {
    fs::remove(dir / "sandbox.pid", ec);
    out << "no sandbox runs from " << dir.string() << "\n";
    return 0;
  }
  kill(static_cast<pid_t>(pid), SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(options.stop_timeout_seconds);
  while (is_sandbox_process(pid)) {
    // Reap it when it is our own child (a test that ran up and down in one process).
    waitpid(static_cast<pid_t>(pid), nullptr, WNOHANG);
    if (std::chrono::steady_clock::now() > deadline) {
      err << "mkq: warning: the sandbox (pid " << pid << ") did not stop within " << options.stop_timeout_seconds
          << "s; killing it\n";
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
  out << "sandbox stopped (pid " << pid << ")\n";
  return 0;
}

int sandbox_status(const SandboxOptions& options, std::ostream& out, std::ostream& err) {
  const fs::path dir = options.dir;
  const State state = read_state(dir);
  if (state.clusters.empty()) {
    err << "mkq: error: no sandbox in " << dir.string() << " (start one with `mkq sandbox up --dir " << dir.string()
        << "`)\n";
    return 1;
  }
  const long pid = read_pid(dir);
  const bool running = is_sandbox_process(pid);
  Pki pki;
  std::string error;
  const bool have_pki = load_or_create_pki(dir, &pki, &error);
  out << "sandbox " << dir.string() << ": " << (running ? "running (pid " + std::to_string(pid) + ")" : "stopped")
      << "\n";
  out << "CLUSTER          PORT    STATE     OBJECTS\n";
  for (const State::Entry& entry : state.clusters) {
    std::string health = "stopped";
    if (running && have_pki) {
      AdminClient client(pki, entry.port);
      health = client.get("/readyz") == 200 ? "ready" : (state.find(entry.name) ? "down" : "unknown");
    }
    char line[128];
    std::snprintf(line, sizeof line, "%-16s %-7d %-9s %s\n", entry.name.c_str(), entry.port, health.c_str(),
                  entry.objects < 0 ? "-" : std::to_string(entry.objects).c_str());
    out << line;
  }
  out << "kubeconfig: " << (dir / "kubeconfig").string() << "\n";
  return 0;
}

}  // namespace mkq::sandbox
