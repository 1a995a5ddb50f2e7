// Kubeconfig files as kubectl reads them: several files merged, contexts,
// clusters, users; resolved into what one connection needs.
//
// Merging follows kubectl: files come from --kubeconfig (one file), else
// KUBECONFIG (':'-separated; missing files skipped; for every cluster, user and
// context name the first file that defines it wins; current-context comes from
// the first file that sets it), else ~/.kube/config. Relative paths inside a
// file (certificate-authority, client-certificate, client-key, tokenFile,
// exec.command when it contains a '/') are relative to that file's directory.
//
// A file that was named and cannot be read is an error, never "no kubeconfig":
// --kubeconfig naming a missing file, and a KUBECONFIG none of whose files
// exists (kubectl only warns there and goes on with an empty configuration;
// mkq refuses, so that a typo can never make it fall back to the sandbox).
// Only a missing ~/.kube/config with neither of the others set is "none".
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <future>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/kube/result.h"

namespace mkq::kube {

struct ExecConfig {
  std::string api_version;  // client.authentication.k8s.io/v1 or v1beta1 (anything else is refused)
  std::string command;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;
  bool provide_cluster_info = false;
  std::string install_hint;
};

struct ClusterEntry {
  std::string server;                   // https://host:port[/path]
  std::string certificate_authority_data;  // PEM (decoded from base64 data, or read from the file)
  std::string certificate_authority_file;  // where the PEM came from, for messages; empty: inline data
  bool insecure_skip_tls_verify = false;
  std::string tls_server_name;
  std::string proxy_url;
  // disable-compression (kubectl >= 1.26): ask for no compressed answers
  // (no Accept-Encoding), e.g. where the network is fast and the CPU is not.
  bool disable_compression = false;
};

struct UserEntry {
  std::string client_certificate_data;  // PEM
  std::string client_key_data;          // PEM (a secret: never logged)
  std::string token;                    // a secret: never logged
  std::string token_file;               // read at each request, absolute path
  std::optional<ExecConfig> exec;
  std::string username, password;       // basic auth: refused at resolve time (removed from Kubernetes)
};

struct ContextEntry {
  std::string cluster;
  std::string user;
  std::string namespace_name;
};

struct Kubeconfig {
  std::map<std::string, ClusterEntry> clusters;
  std::map<std::string, UserEntry> users;
  std::map<std::string, ContextEntry> contexts;
  std::string current_context;
  std::vector<std::filesystem::path> files;  // the files merged, in order
  // How the files were named, for messages and the target line: "--kubeconfig",
  // "KUBECONFIG", "~/.kube/config" (or LoadOptions::explicit_named_by).
  std::string named_by;
  std::vector<std::filesystem::path> skipped;  // KUBECONFIG entries that do not exist (skipped, as kubectl does)
};

struct LoadOptions {
  std::filesystem::path explicit_file;  // --kubeconfig; empty: KUBECONFIG, then ~/.kube/config
  // Who named explicit_file, for messages: "--kubeconfig names /x, which does not exist".
  std::string explicit_named_by = "--kubeconfig";
  // Overrides for tests; empty optional: read the process environment.
  std::optional<std::string> kubeconfig_env;
  std::optional<std::filesystem::path> home;
};

// The reason of load_kubeconfig's Error when nothing was named at all.
inline constexpr const char* kNoKubeconfig = "NoKubeconfig";

// The merged kubeconfig, or an Error (reason "ConfigError") whose message names
// the file and how it was named: "--kubeconfig names /x, which does not exist",
// "KUBECONFIG names /a, /b, none of which exists", "kubeconfig /x: line 3: ...".
// The reason is kNoKubeconfig (and the message "no kubeconfig: ...") only when
// nothing was named: no explicit file, KUBECONFIG unset or empty, and no
// ~/.kube/config.
Result<Kubeconfig> load_kubeconfig(const LoadOptions& options);
// Parses one kubeconfig document (YAML or JSON) as if read from `origin`.
Result<Kubeconfig> parse_kubeconfig(const std::string& text, const std::filesystem::path& origin);

// Reads and parses, on a thread of its own, the files load_kubeconfig(options)
// would read, so that the load that follows (while the policy compiles, say)
// finds them parsed: the parse of one file is handed to the next
// parse_kubeconfig of the same text from the same file, once. Reports
// nothing (the load reports what it finds). The destructor waits for the
// thread and forgets what no load took.
class KubeconfigPrefetch {
 public:
  explicit KubeconfigPrefetch(LoadOptions options);
  ~KubeconfigPrefetch();
  KubeconfigPrefetch(const KubeconfigPrefetch&) = delete;
  KubeconfigPrefetch& operator=(const KubeconfigPrefetch&) = delete;

  void wait() const;  // until every file is read and parsed

 private:
  std::uint64_t id_ = 0;
  std::future<void> done_;
};

// Everything one connection needs.
struct Endpoint {
  std::string context;  // the context's name
  ClusterEntry cluster;
  UserEntry user;
  std::string namespace_name;
};

// The named context (empty: current-context). Refuses insecure-skip-tls-verify
// unless allow_insecure, basic auth, an exec apiVersion other than v1/v1beta1,
// and a server that is not https. Error messages name the context and the file.
Result<Endpoint> resolve_context(const Kubeconfig& config, const std::string& context, bool allow_insecure);

// The files of `config` for messages: "/a" or "/a, /b".
std::string files_list(const Kubeconfig& config);

}  // namespace mkq::kube
