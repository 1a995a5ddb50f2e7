// Kubeconfig loading, merging and resolution (see kubeconfig.h).
//
// Files are parsed with yaml-cpp (YAML or JSON). Certificate and key files are
// read while parsing, so an Endpoint carries PEM only; token files stay paths
// (read at each request). Messages name the file, the line and the entry, never
// a value of a secret field.
#include "runtime/kube/kubeconfig.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <future>
#include <mutex>
#include <set>
#include <iterator>
#include <system_error>

#include <fmt/format.h>

#include "base/encoding.h"

namespace mkq::kube {

namespace fs = std::filesystem;

namespace {

// Reads a whole file; an Error whose message says why ("does not exist", "is a
// directory", "cannot be read: Permission denied") when it cannot.
Result<std::string> read_file(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return Error::config(ec ? "cannot be read: " + ec.message() : "does not exist");
  if (fs::is_directory(path, ec)) return Error::config("is a directory");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Error::config(std::string("cannot be read") + (errno != 0 ? std::string(": ") + std::strerror(errno) : ""));
  }
  std::string text(std::istreambuf_iterator<char>(in), {});
  if (in.bad()) return Error::config("cannot be read");
  return text;
}

std::string quoted(const std::string& text) { return "\"" + text + "\""; }

// Parses one file's document; `fail` records the first error.
class Parser {
 public:
  explicit Parser(const fs::path& origin) : origin_(origin) {
    std::error_code ec;
    const fs::path absolute = origin.empty() ? fs::path() : fs::absolute(origin, ec);
    dir_ = (ec || absolute.empty()) ? fs::path() : absolute.parent_path();
  }

  Result<Kubeconfig> parse(const std::string& text) {
    YAML::Node root;
    try {
      root = YAML::Load(text);
    } catch (const YAML::ParserException& e) {
      fail_at(e.mark.line, "not valid YAML or JSON: " + e.msg);
      return Error::config(error_);
    } catch (const YAML::Exception& e) {
      fail_at(-1, std::string("not valid YAML or JSON: ") + e.what());
      return Error::config(error_);
    }
    Kubeconfig config;
    config.files.push_back(origin_);
    if (!root.IsDefined() || root.IsNull()) return config;  // an empty file is an empty config
    if (!root.IsMap()) {
      fail(root, "", "the document is not a mapping");
      return Error::config(error_);
    }
    try {
      config.current_context = string_field(root, "current-context", "");
      for_each_named(root, "clusters", "cluster", [&](const std::string& name, const YAML::Node& body) {
        config.clusters[name] = parse_cluster(body, "cluster " + quoted(name));
      });
      for_each_named(root, "users", "user", [&](const std::string& name, const YAML::Node& body) {
        config.users[name] = parse_user(body, "user " + quoted(name));
      });
      for_each_named(root, "contexts", "context", [&](const std::string& name, const YAML::Node& body) {
        ContextEntry entry;
        const std::string where = "context " + quoted(name);
        entry.cluster = string_field(body, "cluster", where);
        entry.user = string_field(body, "user", where);
        entry.namespace_name = string_field(body, "namespace", where);
        config.contexts[name] = entry;
      });
    } catch (const YAML::Exception& e) {
      fail_at(e.mark.line, std::string("cannot read: ") + e.what());
    }
    if (failed_) return Error::config(error_);
    return config;
  }

 private:
  // Calls f(name, body) for each `{name: N, <body_key>: {...}}` of root[list_key].
  // Within one file a later entry of the same name replaces an earlier one, as
  // kubectl does.
  template <class F>
  void for_each_named(const YAML::Node& root, const char* list_key, const char* body_key, F&& f) {
    const YAML::Node list = root[list_key];
    if (!list.IsDefined() || list.IsNull()) return;
    if (!list.IsSequence()) {
      fail(list, "", std::string(list_key) + " must be a list");
      return;
    }
    for (const YAML::Node& item : list) {
      if (failed_) return;
      if (!item.IsMap()) {
        fail(item, "", std::string("each entry of ") + list_key + " must be a mapping");
        return;
      }
      const std::string name = string_field(item, "name", std::string("an entry of ") + list_key);
      if (failed_) return;
      if (name.empty()) {
        fail(item, "", std::string("an entry of ") + list_key + " has no name");
        return;
      }
      const YAML::Node body = item[body_key];
      if (body.IsDefined() && !body.IsNull() && !body.IsMap()) {
        fail(body, std::string(body_key) + " " + quoted(name), std::string(body_key) + " must be a mapping");
        return;
      }
      f(name, body);
    }
  }

  ClusterEntry parse_cluster(const YAML::Node& body, const std::string& where) {
    ClusterEntry entry;
    entry.server = string_field(body, "server", where);
    entry.tls_server_name = string_field(body, "tls-server-name", where);
    entry.proxy_url = string_field(body, "proxy-url", where);
    entry.insecure_skip_tls_verify = bool_field(body, "insecure-skip-tls-verify", where);
    entry.disable_compression = bool_field(body, "disable-compression", where);
    // certificate-authority-data overrides certificate-authority (kubectl).
    const std::string data = decoded_field(body, "certificate-authority-data", where);
    const std::string file = string_field(body, "certificate-authority", where);
    if (!data.empty()) {
      entry.certificate_authority_data = data;
    } else if (!file.empty()) {
      entry.certificate_authority_file = resolve(file).string();
      entry.certificate_authority_data = file_field(body, "certificate-authority", entry.certificate_authority_file, where);
    }
    return entry;
  }

  UserEntry parse_user(const YAML::Node& body, const std::string& where) {
    UserEntry entry;
    entry.client_certificate_data = decoded_field(body, "client-certificate-data", where);
    if (entry.client_certificate_data.empty()) {
      const std::string file = string_field(body, "client-certificate", where);
      if (!file.empty()) {
        entry.client_certificate_data = file_field(body, "client-certificate", resolve(file).string(), where);
      }
    }
    entry.client_key_data = decoded_field(body, "client-key-data", where);
    if (entry.client_key_data.empty()) {
      const std::string file = string_field(body, "client-key", where);
      if (!file.empty()) entry.client_key_data = file_field(body, "client-key", resolve(file).string(), where);
    }
    entry.token = string_field(body, "token", where);
    const std::string token_file = string_field(body, "tokenFile", where);
    if (!token_file.empty()) entry.token_file = resolve(token_file).string();
    entry.username = string_field(body, "username", where);
    entry.password = string_field(body, "password", where);
    const YAML::Node exec = body["exec"];
    if (exec.IsDefined() && !exec.IsNull()) {
      if (!exec.IsMap()) {
        fail(exec, where, "exec must be a mapping");
        return entry;
      }
      ExecConfig config;
      config.api_version = string_field(exec, "apiVersion", where);
      config.command = string_field(exec, "command", where);
      if (config.command.empty() && !failed_) fail(exec, where, "exec has no command");
      if (config.command.find('/') != std::string::npos) config.command = resolve(config.command).string();
      config.install_hint = string_field(exec, "installHint", where);
      config.provide_cluster_info = bool_field(exec, "provideClusterInfo", where);
      const YAML::Node args = exec["args"];
      if (args.IsDefined() && !args.IsNull()) {
        if (!args.IsSequence()) {
          fail(args, where, "exec.args must be a list of strings");
        } else {
          for (const YAML::Node& arg : args) {
            if (!arg.IsScalar()) {
              fail(arg, where, "exec.args must be a list of strings");
              break;
            }
            config.args.push_back(arg.Scalar());
          }
        }
      }
      const YAML::Node env = exec["env"];
      if (env.IsDefined() && !env.IsNull()) {
        if (!env.IsSequence()) {
          fail(env, where, "exec.env must be a list of {name, value}");
        } else {
          for (const YAML::Node& variable : env) {
            if (!variable.IsMap()) {
              fail(variable, where, "exec.env must be a list of {name, value}");
              break;
            }
            const std::string name = string_field(variable, "name", where);
            if (name.empty() && !failed_) fail(variable, where, "an exec.env entry has no name");
            config.env.emplace_back(name, string_field(variable, "value", where));
          }
        }
      }
      entry.exec = std::move(config);
    }
    return entry;
  }

  std::string string_field(const YAML::Node& map, const char* key, const std::string& where) {
    if (!map.IsDefined() || map.IsNull()) return {};
    const YAML::Node node = map[key];
    if (!node.IsDefined() || node.IsNull()) return {};
    if (!node.IsScalar()) {
      fail(node, where, std::string(key) + " must be a string");
      return {};
    }
    return node.Scalar();
  }

  bool bool_field(const YAML::Node& map, const char* key, const std::string& where) {
    const std::string text = string_field(map, key, where);
    if (text.empty() || text == "false" || text == "False" || text == "FALSE") return false;
    if (text == "true" || text == "True" || text == "TRUE") return true;
    fail(map[key], where, std::string(key) + " must be true or false");
    return false;
  }

  // A base64 field decoded; its content is never quoted in a message.
  std::string decoded_field(const YAML::Node& map, const char* key, const std::string& where) {
    const std::string text = string_field(map, key, where);
    if (text.empty()) return {};
    auto bytes = base::base64_decode(text);
    if (!bytes) {
      fail(map[key], where, std::string(key) + " is not valid base64");
      return {};
    }
    return std::move(*bytes);
  }

  std::string file_field(const YAML::Node& map, const char* key, const std::string& path, const std::string& where) {
    Result<std::string> content = read_file(path);
    if (!content) {
      fail(map[key], where, std::string(key) + " " + path + " " + content.error().message);
      return {};
    }
    return std::move(content).value();
  }

  fs::path resolve(const std::string& path) const {
    const fs::path p(path);
    if (p.is_absolute() || dir_.empty()) return p;
    return (dir_ / p).lexically_normal();
  }

  void fail(const YAML::Node& node, const std::string& where, const std::string& what) {
    const int line = node.IsDefined() ? node.Mark().line : -1;
    fail_at(line, where.empty() ? what : where + ": " + what);
  }

  void fail_at(int line, const std::string& what) {
    if (failed_) return;
    failed_ = true;
    error_ = "kubeconfig " + origin_.string() + ": ";
    if (line >= 0) fmt::format_to(std::back_inserter(error_), "line {}: ", line + 1);
    error_ += what;
  }

  fs::path origin_;
  fs::path dir_;
  std::string error_;  // the first failure's message
  bool failed_ = false;
};

std::string env_value(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

std::string files_text(const Kubeconfig& config) {
  return config.files.empty() ? "kubeconfig" : "kubeconfig " + files_list(config);
}

template <class Map>
std::string names_of(const Map& map) {
  std::string text;
  for (const auto& [name, entry] : map) {
    (void)entry;
    if (!text.empty()) text += ", ";
    text += name;
  }
  return text.empty() ? "none" : text;
}

bool starts_with_https(const std::string& server) {
  if (server.size() < 8) return false;
  std::string scheme = server.substr(0, 8);
  for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return scheme == "https://";
}

}  // namespace

namespace {

// KUBECONFIG's entries in order, duplicates and empty entries dropped (kubectl).
std::vector<fs::path> kubeconfig_list(const std::string& env) {
  std::vector<fs::path> list;
  std::set<std::string> seen;
  std::size_t start = 0;
  while (start <= env.size()) {
    const std::size_t colon = env.find(':', start);
    const std::string item = env.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    if (!item.empty() && seen.insert(item).second) list.emplace_back(item);
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return list;
}

// Adds the next file's entries: the first file that defines a name wins; so
// does the first current-context.
void merge_into(Kubeconfig& merged, Kubeconfig&& one) {
  for (auto& [name, entry] : one.clusters) merged.clusters.emplace(name, std::move(entry));
  for (auto& [name, entry] : one.users) merged.users.emplace(name, std::move(entry));
  for (auto& [name, entry] : one.contexts) merged.contexts.emplace(name, std::move(entry));
  if (merged.current_context.empty()) merged.current_context = one.current_context;
  merged.files.insert(merged.files.end(), one.files.begin(), one.files.end());
}

// "/a" or "/a, /b".
std::string joined(const std::vector<fs::path>& files) {
  std::string text;
  for (const fs::path& file : files) text += (text.empty() ? "" : ", ") + file.string();
  return text;
}

}  // namespace

std::string files_list(const Kubeconfig& config) { return joined(config.files); }

namespace {

// The files a load reads, who named them, and whether a missing one is
// skipped; or the Error when nothing usable is named.
struct Candidates {
  std::vector<fs::path> files;
  std::string named_by;
  bool skip_missing = false;
  bool from_home = false;
};

Result<Candidates> candidates_of(const LoadOptions& options) {
  Candidates out;
  if (!options.explicit_file.empty()) {
    out.files.push_back(options.explicit_file);
    out.named_by = options.explicit_named_by;
    return out;
  }
  const std::string env = options.kubeconfig_env ? *options.kubeconfig_env : env_value("KUBECONFIG");
  if (!env.empty()) {
    out.files = kubeconfig_list(env);
    out.named_by = "KUBECONFIG";
    out.skip_missing = true;
    if (out.files.empty()) return Error::config("KUBECONFIG is set (\"" + env + "\") but names no file");
    return out;
  }
  const fs::path home = options.home ? *options.home : fs::path(env_value("HOME"));
  const fs::path file = home.empty() ? fs::path() : home / ".kube" / "config";
  std::error_code ec;
  if (file.empty() || (!fs::exists(file, ec) && !ec)) {
    return Error(0, kNoKubeconfig, "no kubeconfig: no --kubeconfig, no KUBECONFIG and no ~/.kube/config");
  }
  out.files.push_back(file);
  out.named_by = "~/.kube/config";
  out.from_home = true;
  return out;
}

// Parses begun by a KubeconfigPrefetch, each for the one parse of the same
// text from the same file that comes next; then forgotten (certificate files
// are read while parsing, and may change later).
struct ParseAhead {
  std::uint64_t prefetch = 0;  // whose
  std::string origin, text;
  std::shared_future<Result<Kubeconfig>> parsed;
};
std::mutex ahead_mutex;
std::vector<ParseAhead>& parses_ahead() {
  static auto* ahead = new std::vector<ParseAhead>();  // never destroyed
  return *ahead;
}

}  // namespace

Result<Kubeconfig> parse_kubeconfig(const std::string& text, const fs::path& origin) {
  std::shared_future<Result<Kubeconfig>> ahead;
  {
    const std::lock_guard<std::mutex> lock(ahead_mutex);
    std::vector<ParseAhead>& all = parses_ahead();
    const auto found = std::find_if(all.begin(), all.end(), [&](const ParseAhead& a) {
      return a.origin == origin.string() && a.text == text;
    });
    if (found != all.end()) {
      ahead = found->parsed;
      all.erase(found);
    }
  }
  if (ahead.valid()) return ahead.get();
  Parser parser(origin);
  return parser.parse(text);
}

KubeconfigPrefetch::KubeconfigPrefetch(LoadOptions options) {
  static std::atomic<std::uint64_t> next_id{1};
  id_ = next_id++;
  done_ = std::async(std::launch::async, [id = id_, options = std::move(options)] {
    const Result<Candidates> candidates = candidates_of(options);
    if (!candidates) return;
    for (const fs::path& file : candidates.value().files) {
      Result<std::string> text = read_file(file);
      if (!text) continue;
      std::promise<Result<Kubeconfig>> promise;
      {
        const std::lock_guard<std::mutex> lock(ahead_mutex);
        parses_ahead().push_back(ParseAhead{id, file.string(), text.value(), promise.get_future().share()});
      }
      try {
        Parser parser(file);
        promise.set_value(parser.parse(text.value()));
      } catch (...) {
        promise.set_exception(std::current_exception());  // the load that takes it throws it
      }
    }
  });
}

void KubeconfigPrefetch::wait() const {
  if (done_.valid()) done_.wait();
}

KubeconfigPrefetch::~KubeconfigPrefetch() {
  wait();
  const std::lock_guard<std::mutex> lock(ahead_mutex);
  std::vector<ParseAhead>& all = parses_ahead();
  all.erase(std::remove_if(all.begin(), all.end(), [&](const ParseAhead& a) { return a.prefetch == id_; }), all.end());
}

Result<Kubeconfig> load_kubeconfig(const LoadOptions& options) {
  const auto fail = [](std::string text) -> Result<Kubeconfig> { return Error::config(std::move(text)); };
  const Result<Candidates> candidates = candidates_of(options);
  if (!candidates) return candidates.error();
  const bool skip_missing = candidates.value().skip_missing;
  const bool from_home = candidates.value().from_home;
  Kubeconfig merged;
  merged.named_by = candidates.value().named_by;
  for (const fs::path& file : candidates.value().files) {
    Result<std::string> text = read_file(file);
    if (!text) {
      const std::string& why = text.error().message;
      std::error_code ec;
      if (skip_missing && !fs::exists(file, ec) && !ec) {
        merged.skipped.push_back(file);  // kubectl skips a missing KUBECONFIG entry
        continue;
      }
      if (from_home) return fail("the kubeconfig " + file.string() + " (~/.kube/config) " + why);
      return fail(merged.named_by + " names " + file.string() + ", which " + why);
    }
    Result<Kubeconfig> one = parse_kubeconfig(text.value(), file);
    if (!one) return one.error();
    merge_into(merged, std::move(one).value());
  }
  if (merged.files.empty()) {
    return fail(merged.skipped.size() == 1
                    ? "KUBECONFIG names " + merged.skipped.front().string() + ", which does not exist"
                    : "KUBECONFIG names " + joined(merged.skipped) + ", none of which exists");
  }
  return merged;
}

Result<Endpoint> resolve_context(const Kubeconfig& config, const std::string& context, bool allow_insecure) {
  const auto fail = [](std::string text) -> Result<Endpoint> { return Error::config(std::move(text)); };
  const std::string files = files_text(config);
  const std::string name = context.empty() ? config.current_context : context;
  if (name.empty()) return fail(files + ": no current-context; name a context (contexts: " + names_of(config.contexts) + ")");
  const auto context_it = config.contexts.find(name);
  if (context_it == config.contexts.end()) {
    return fail(files + ": context " + quoted(name) + " not found (contexts: " + names_of(config.contexts) + ")");
  }
  const ContextEntry& entry = context_it->second;
  const std::string where = files + ": context " + quoted(name);
  if (entry.cluster.empty()) return fail(where + " names no cluster");
  const auto cluster_it = config.clusters.find(entry.cluster);
  if (cluster_it == config.clusters.end()) return fail(where + ": cluster " + quoted(entry.cluster) + " not found");
  const ClusterEntry& cluster = cluster_it->second;
  const std::string cluster_where = where + ": cluster " + quoted(entry.cluster);
  if (cluster.server.empty()) return fail(cluster_where + " has no server");
  if (!starts_with_https(cluster.server)) {
    return fail(cluster_where + ": server " + cluster.server + " is not https (mkq talks to API servers over TLS only)");
  }
  if (cluster.insecure_skip_tls_verify && !allow_insecure) {
    return fail(cluster_where + " sets insecure-skip-tls-verify; refused unless --insecure-skip-tls-verify is given");
  }
  Endpoint endpoint;
  endpoint.context = name;
  endpoint.cluster = cluster;
  endpoint.namespace_name = entry.namespace_name;
  if (!entry.user.empty()) {
    const auto user_it = config.users.find(entry.user);
    if (user_it == config.users.end()) return fail(where + ": user " + quoted(entry.user) + " not found");
    const UserEntry& user = user_it->second;
    const std::string user_where = where + ": user " + quoted(entry.user);
    if (!user.username.empty() || !user.password.empty()) {
      return fail(user_where +
                  " uses basic authentication (username/password), which Kubernetes removed; use a client "
                  "certificate, a token or an exec plugin");
    }
    if (user.exec) {
      const std::string& version = user.exec->api_version;
      if (version != "client.authentication.k8s.io/v1" && version != "client.authentication.k8s.io/v1beta1") {
        return fail(user_where + ": exec apiVersion " + quoted(version) +
                    " is not supported (client.authentication.k8s.io/v1 or v1beta1)");
      }
    }
    if (user.client_certificate_data.empty() != user.client_key_data.empty()) {
      return fail(user_where + ": a client certificate needs both client-certificate and client-key");
    }
    endpoint.user = user;
  }
  return endpoint;
}

}  // namespace mkq::kube
