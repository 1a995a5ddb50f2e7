// Running exec credential plugins (see exec_credential.h).
#include "runtime/kube/exec_credential.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <map>
#include <vector>

#include <fmt/format.h>

#include "base/encoding.h"
#include "base/time.h"

extern char** environ;  // NOLINT: POSIX

namespace mkq::kube {

namespace {

Error config_error(std::string message) {
  Error error;
  error.reason = "ConfigError";
  error.message = std::move(message);
  return error;
}

// The ExecCredential a plugin reads from KUBERNETES_EXEC_INFO.
std::string exec_info(const ExecConfig& exec, const ClusterEntry& cluster) {
  Json spec = {{"interactive", false}};
  if (exec.provide_cluster_info) {
    Json info = {{"server", cluster.server}};
    if (!cluster.tls_server_name.empty()) info["tls-server-name"] = cluster.tls_server_name;
    if (cluster.insecure_skip_tls_verify) info["insecure-skip-tls-verify"] = true;
    if (!cluster.certificate_authority_data.empty()) {
      info["certificate-authority-data"] = base::base64_encode(cluster.certificate_authority_data);
    }
    if (!cluster.proxy_url.empty()) info["proxy-url"] = cluster.proxy_url;
    if (cluster.disable_compression) info["disable-compression"] = true;
    spec["cluster"] = std::move(info);
  }
  const Json document = {{"apiVersion", exec.api_version}, {"kind", "ExecCredential"}, {"spec", std::move(spec)}};
  return document.dump();
}

// This process's environment with the plugin's variables set over it.
std::vector<std::string> plugin_environment(const ExecConfig& exec, const ClusterEntry& cluster) {
  std::map<std::string, std::string> variables;
  std::vector<std::string> order;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string text(*entry);
    const std::size_t equals = text.find('=');
    if (equals == std::string::npos) continue;
    const std::string name = text.substr(0, equals);
    if (variables.emplace(name, text.substr(equals + 1)).second) order.push_back(name);
  }
  auto set = [&](const std::string& name, const std::string& value) {
    if (variables.find(name) == variables.end()) order.push_back(name);
    variables[name] = value;
  };
  for (const auto& [name, value] : exec.env) set(name, value);
  set("KUBERNETES_EXEC_INFO", exec_info(exec, cluster));
  std::vector<std::string> result;
  result.reserve(order.size());
  for (const std::string& name : order) result.push_back(name + "=" + variables[name]);
  return result;
}

std::string first_line(std::string text, std::size_t limit) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  const std::size_t start = text.find_first_not_of(" \n\r\t");
  if (start == std::string::npos) return {};
  text = text.substr(start);
  if (const std::size_t newline = text.find('\n'); newline != std::string::npos) text = text.substr(0, newline);
  if (text.size() > limit) text = text.substr(0, limit) + "...";
  return text;
}

struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int value) : fd(value) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

}  // namespace

Result<ExecCredential> parse_exec_credential(const std::string& output, const std::string& api_version,
                                             const std::string& command) {
  const std::string who = "exec plugin " + command;
  const Json document = Json::parse(output, nullptr, false);
  if (document.is_discarded() || !document.is_object()) {
    return config_error(who + ": its output is not an ExecCredential JSON document");
  }
  if (document.value("kind", std::string()) != "ExecCredential") {
    return config_error(who + ": its output is not an ExecCredential (kind \"" +
                        (document.contains("kind") && document["kind"].is_string() ? document["kind"].get<std::string>()
                                                                                   : std::string()) +
                        "\")");
  }
  const std::string version =
      document.contains("apiVersion") && document["apiVersion"].is_string() ? document["apiVersion"].get<std::string>() : "";
  if (version != api_version) {
    return config_error(who + ": it answered apiVersion \"" + version + "\", the kubeconfig asks for \"" +
                        api_version + "\"");
  }
  if (!document.contains("status") || !document["status"].is_object()) {
    return config_error(who + ": its ExecCredential has no status");
  }
  const Json& status = document["status"];
  auto text = [&](const char* key) {
    return status.contains(key) && status[key].is_string() ? status[key].get<std::string>() : std::string();
  };
  ExecCredential credential;
  credential.token = text("token");
  credential.client_certificate_data = text("clientCertificateData");
  credential.client_key_data = text("clientKeyData");
  if (credential.client_certificate_data.empty() != credential.client_key_data.empty()) {
    return config_error(who + ": its ExecCredential has a client certificate without a key, or a key without a "
                              "certificate");
  }
  if (credential.token.empty() && credential.client_certificate_data.empty()) {
    return config_error(who + ": its ExecCredential has neither a token nor a client certificate");
  }
  const std::string expiration = text("expirationTimestamp");
  if (!expiration.empty()) {
    credential.expiration = base::parse_rfc3339(expiration);
    if (!credential.expiration) {
      return config_error(who + ": its expirationTimestamp \"" + expiration + "\" is not an RFC 3339 time");
    }
  }
  return credential;
}

Result<ExecCredential> run_exec_plugin(const ExecConfig& exec, const ClusterEntry& cluster,
                                       std::chrono::milliseconds timeout) {
  const std::string who = "exec plugin " + exec.command;
  std::vector<std::string> argv_text;
  argv_text.push_back(exec.command);
  for (const std::string& arg : exec.args) argv_text.push_back(arg);
  std::vector<char*> argv;
  for (std::string& arg : argv_text) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_text = plugin_environment(exec, cluster);
  std::vector<char*> envp;
  for (std::string& entry : env_text) envp.push_back(entry.data());
  envp.push_back(nullptr);

  int out_pipe[2];
  int err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return config_error(who + ": cannot create a pipe");
  Fd out_read(out_pipe[0]);
  Fd out_write(out_pipe[1]);
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) return config_error(who + ": cannot create a pipe");
  Fd err_read(err_pipe[0]);
  Fd err_write(err_pipe[1]);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_write.fd, 1);
  posix_spawn_file_actions_adddup2(&actions, err_write.fd, 2);
  pid_t pid = 0;
  const bool has_slash = exec.command.find('/') != std::string::npos;
  const int spawned = has_slash ? posix_spawn(&pid, exec.command.c_str(), &actions, nullptr, argv.data(), envp.data())
                                : posix_spawnp(&pid, exec.command.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  out_write.reset();
  err_write.reset();
  if (spawned != 0) {
    std::string why = std::strerror(spawned);
    for (char& c : why) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string message = who + ": cannot run it: " + why;
    if (!exec.install_hint.empty()) message += "; " + first_line(exec.install_hint, 500);
    return config_error(message);
  }

  constexpr std::size_t kMaxOutput = 4 << 20;
  std::string out;
  std::string err;
  bool timed_out = false;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (out_read.fd >= 0 || err_read.fd >= 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd fds[2];
    nfds_t count = 0;
    Fd* owners[2] = {nullptr, nullptr};
    std::string* sinks[2] = {nullptr, nullptr};
    if (out_read.fd >= 0) {
      fds[count] = {out_read.fd, POLLIN, 0};
      owners[count] = &out_read;
      sinks[count++] = &out;
    }
    if (err_read.fd >= 0) {
      fds[count] = {err_read.fd, POLLIN, 0};
      owners[count] = &err_read;
      sinks[count++] = &err;
    }
    const int ready = ::poll(fds, count, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) break;
    for (nfds_t i = 0; i < count; ++i) {
      if ((fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      char buffer[8192];
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        if (sinks[i]->size() < kMaxOutput) sinks[i]->append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        owners[i]->reset();
      }
    }
  }
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    return config_error(fmt::format("{}: no answer within {} s", who, timeout.count() / 1000));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string message = who + " failed";
    if (WIFEXITED(status)) {
      fmt::format_to(std::back_inserter(message), " with exit status {}", WEXITSTATUS(status));
    } else if (WIFSIGNALED(status)) {
      fmt::format_to(std::back_inserter(message), " (killed by signal {})", WTERMSIG(status));
    }
    const std::string detail = first_line(err, 300);
    if (!detail.empty()) message += ": " + detail;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !exec.install_hint.empty()) {
      message += "; " + first_line(exec.install_hint, 500);
    }
    return config_error(message);
  }
  return parse_exec_credential(out, exec.api_version, exec.command);
}

}  // namespace mkq::kube
