// MultiKueueCluster connections (connections.h). Messages follow Kueue's
// (admissionchecks/multikueue/multikueuecluster.go) and client-go's.
#include "sandbox/connections.h"

#include <httplib.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <memory>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "sandbox/pki.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

// A kubeconfig as JSON: booleans are the only non-strings its rules read.
json kubeconfig_json(const YAML::Node& node, int depth) {
  if (depth > 64) return nullptr;  // bounded: kubeconfigs are shallow
  switch (node.Type()) {
    case YAML::NodeType::Sequence: {
      json out = json::array();
      for (const auto& item : node) out.push_back(kubeconfig_json(item, depth + 1));
      return out;
    }
    case YAML::NodeType::Map: {
      json out = json::object();
      for (const auto& pair : node) out[pair.first.as<std::string>()] = kubeconfig_json(pair.second, depth + 1);
      return out;
    }
    case YAML::NodeType::Scalar: {
      const std::string s = node.Scalar();
      if (node.Tag() != "!") {  // plain scalars: booleans (the only non-strings kubeconfig rules read)
        if (s == "true" || s == "True") return true;
        if (s == "false" || s == "False") return false;
      }
      return s;
    }
    default:
      return nullptr;
  }
}

json named(const json& list, const std::string& name, const char* member) {
  if (!list.is_array()) return nullptr;
  for (const auto& item : list) {
    if (item.is_object() && item.value("name", "") == name) return item.contains(member) ? item[member] : json();
  }
  return nullptr;
}

struct Endpoint {
  json cluster;
  json user;
};

Endpoint current(const json& kubeconfig) {
  const std::string context_name = kubeconfig.value("current-context", "");
  const json context = named(kubeconfig.value("contexts", json::array()), context_name, "context");
  Endpoint e;
  if (!context.is_object()) return e;
  e.cluster = named(kubeconfig.value("clusters", json::array()), context.value("cluster", ""), "cluster");
  e.user = named(kubeconfig.value("users", json::array()), context.value("user", ""), "user");
  return e;
}

struct X509StoreFree {
  void operator()(X509_STORE* p) const { X509_STORE_free(p); }
};
struct BioFree {
  void operator()(BIO* p) const { BIO_free(p); }
};

std::unique_ptr<BIO, BioFree> bio_of(const std::string& pem) {
  return std::unique_ptr<BIO, BioFree>(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

// The collections of the job kinds Kueue's built-in MultiKueue adapters watch
// on every worker (../shared/kueue/MULTIKUEUE.md §8), at their served versions.
// Kueue watches only the kinds of the frameworks the manager enables; the probe
// does not know them and checks each kind a worker serves, so it leaves out
// the kinds every worker serves while few policies enable their integration:
// Pods (nodes_pods.h), StatefulSets (apps_workloads.h) and batch/v1 Jobs
// (jobs.h), which a policy may leave out of its integrations.
constexpr const char* kJobKindPaths[] = {
    "/apis/jobset.x-k8s.io/v1alpha2/jobsets",
    "/apis/kubeflow.org/v1/tfjobs",
    "/apis/kubeflow.org/v1/pytorchjobs",
    "/apis/kubeflow.org/v1/paddlejobs",
    "/apis/kubeflow.org/v1/xgboostjobs",
    "/apis/kubeflow.org/v2beta1/mpijobs",
    "/apis/ray.io/v1/rayjobs",
    "/apis/ray.io/v1/rayclusters",
    "/apis/ray.io/v1/rayservices",
    "/apis/workload.codeflare.dev/v1beta2/appwrappers",
    "/apis/trainer.kubeflow.org/v1alpha1/trainjobs",
    "/apis/leaderworkerset.x-k8s.io/v1/leaderworkersets",
};

// The message of an error answer (a metav1.Status), as client-go reports it.
std::string status_message(const httplib::Response& response) {
  const json body = json::parse(response.body, nullptr, false);
  if (body.is_object() && body.contains("message") && body["message"].is_string()) {
    const std::string message = body["message"].get<std::string>();
    if (!message.empty()) return message;
  }
  if (response.status == 401) return "Unauthorized";
  if (response.status == 403) return "Forbidden";
  return fmt::format("the server responded with the status code {}", response.status);
}


// A CA directory for httplib that holds no certificates (see trust_only).
constexpr const char* kNoExtraCaDirectory = "/nonexistent/mkq-sandbox-no-extra-ca";

// The client trusts the kubeconfig's CA, and only it; false and *error when
// the data holds no certificate.
bool trust_only(httplib::SSLClient& client, const std::string& ca_data, std::string* error) {
  std::unique_ptr<X509_STORE, X509StoreFree> store(X509_STORE_new());
  const std::string ca = base64_decode(ca_data);  // outlives the BIO, which reads it in place
  auto bio = bio_of(ca);
  int loaded = 0;
  while (X509* c = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
    X509_STORE_add_cert(store.get(), c);
    X509_free(c);
    ++loaded;
  }
  if (loaded == 0) {
    *error = "unable to load root certificates: unable to parse bytes as PEM block";
    return false;
  }
  client.set_ca_cert_store(store.release());  // the client's SSL_CTX takes ownership
  // Without a CA path of its own, httplib adds the system's bundle to the
  // store (and parsing it took most of a probe's time). Nothing is ever found
  // in this directory, it only stands in for the bundle.
  client.set_ca_cert_path("", kNoExtraCaDirectory);
  return true;
}

// The client for the current context's server, with its client certificate,
// CA and token; nullptr and *error when they cannot be loaded.
std::unique_ptr<httplib::SSLClient> make_client(const Endpoint& e, const std::string& host, int port,
                                                int timeout_seconds, std::string* error) {
  const json user = e.user.is_object() ? e.user : json::object();
  CertPtr cert;
  KeyPtr key;
  if (user.contains("client-certificate-data") && user.contains("client-key-data")) {
    cert = read_cert(base64_decode(user.value("client-certificate-data", "")));
    key = read_key(base64_decode(user.value("client-key-data", "")));
    if (!cert || !key) {
      *error = "unable to load client certificate/key from the kubeconfig";
      return nullptr;
    }
  }
  auto client = cert ? std::make_unique<httplib::SSLClient>(host, port, cert.get(), key.get())
                     : std::make_unique<httplib::SSLClient>(host, port);
  if (e.cluster.contains("certificate-authority-data") &&
      !trust_only(*client, e.cluster.value("certificate-authority-data", ""), error)) {
    return nullptr;
  }
  client->enable_server_certificate_verification(true);
  client->set_connection_timeout(timeout_seconds, 0);
  client->set_read_timeout(timeout_seconds, 0);
  client->set_write_timeout(timeout_seconds, 0);
  client->set_keep_alive(true);
  if (user.contains("token")) client->set_bearer_token_auth(user.value("token", ""));
  return client;
}

// The worker's discovery of kueue.x-k8s.io/v1beta2 serves Workloads.
std::optional<ConnectionResult> check_discovery(httplib::SSLClient& client, const std::string& server,
                                                const std::string& path) {
  auto res = client.Get(path.c_str());
  if (!res) {
    const auto verify = client.get_openssl_verify_result();
    const std::string what = "Get \"" + server + path + "\": ";
    if (verify != X509_V_OK) {
      return ConnectionResult{false, what + "tls: failed to verify certificate: " + X509_verify_cert_error_string(verify)};
    }
    return ConnectionResult{false, what + httplib::to_string(res.error())};
  }
  if (res->status == 401 || res->status == 403) return ConnectionResult{false, status_message(*res)};
  const json body = json::parse(res->body, nullptr, false);
  bool has_workloads = false;
  if (res->status == 200 && body.is_object()) {
    for (const auto& r : body.value("resources", json::array())) {
      if (r.is_object() && r.value("name", "") == "workloads") has_workloads = true;
    }
  }
  if (!has_workloads) return ConnectionResult{false, "no matches for kind \"Workload\" in version \"kueue.x-k8s.io/v1beta2\""};
  return std::nullopt;
}

// What Kueue's cluster client does next: list and watch Workloads. A refusal
// (401, 403) is the error Kueue reports.
std::optional<ConnectionResult> check_workloads(httplib::SSLClient& client, const std::string& server,
                                                const std::string& workloads) {
  auto list = client.Get((workloads + "?limit=1").c_str());
  if (!list) return ConnectionResult{false, "Get \"" + server + workloads + "?limit=1\": " + httplib::to_string(list.error())};
  if (list->status >= 400) return ConnectionResult{false, status_message(*list)};
  int watch_status = 0;
  std::string watch_body;
  auto watch = client.Get((workloads + "?watch=1&timeoutSeconds=1").c_str(), httplib::Headers{},
                          [&](const httplib::Response& response) {
                            watch_status = response.status;
                            return response.status >= 400;  // an established stream is enough
                          },
                          [&](const char* data, std::size_t length) {
                            watch_body.append(data, length);
                            return true;
                          });
  if (watch_status >= 400) {
    httplib::Response refused;
    refused.status = watch_status;
    refused.body = watch_body;
    return ConnectionResult{false, status_message(refused)};
  }
  if (watch_status == 0) {
    return ConnectionResult{false, "Get \"" + server + workloads + "?watch=1\": " + httplib::to_string(watch.error())};
  }
  return std::nullopt;
}

// Then each MultiKueue adapter's job kind: a kind the worker does not serve
// is skipped (the sandbox serves none of them; see docs/sandbox.md), a refusal reported.
std::optional<ConnectionResult> check_job_kinds(httplib::SSLClient& client, const std::string& server) {
  // Which job kinds the worker serves: its discovery documents, fetched once per group version.
  std::map<std::string, std::set<std::string>> served;
  const auto serves = [&](const std::string& job_path) {
    const auto slash = job_path.rfind('/');
    const std::string group_version = job_path.substr(0, slash);
    auto it = served.find(group_version);
    if (it == served.end()) {
      std::set<std::string> names;
      auto discovery = client.Get(group_version.c_str());
      const json resources =
          discovery && discovery->status == 200 ? json::parse(discovery->body, nullptr, false) : json();
      if (resources.is_object()) {
        for (const auto& r : resources.value("resources", json::array())) {
          if (r.is_object()) names.insert(r.value("name", ""));
        }
      }
      it = served.emplace(group_version, std::move(names)).first;
    }
    return it->second.count(job_path.substr(slash + 1)) > 0;
  };
  for (const char* job_path : kJobKindPaths) {
    if (!serves(job_path)) continue;
    auto jobs = client.Get((std::string(job_path) + "?limit=1").c_str());
    if (!jobs) return ConnectionResult{false, "Get \"" + server + job_path + "\": " + httplib::to_string(jobs.error())};
    if (jobs->status == 401 || jobs->status == 403) return ConnectionResult{false, status_message(*jobs)};
  }
  return std::nullopt;
}

}  // namespace

std::optional<json> parse_kubeconfig(const std::string& text, std::string* error) {
  try {
    const YAML::Node node = YAML::Load(text);
    json out = kubeconfig_json(node, 0);
    if (!out.is_object()) {
      *error = "failed to parse kubeconfig(apiconfig): not a kubeconfig object";
      return std::nullopt;
    }
    return out;
  } catch (const std::exception& e) {
    *error = std::string("failed to parse kubeconfig(apiconfig): ") + e.what();
    return std::nullopt;
  }
}

// Kueue's isValidHostname: the server's host is an IP address or a DNS-1123 subdomain.
bool trusted_server(const std::string& server) {
  static const std::regex url("^(https?://)?([^/:]+|\\[[^\\]]+\\])(:[0-9]+)?(/.*)?$");
  std::smatch m;
  if (!std::regex_match(server, m, url)) return false;
  std::string host = m[2].str();
  std::transform(host.begin(), host.end(), host.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  static const std::regex ip("^([0-9]{1,3}\\.){3}[0-9]{1,3}$|^\\[[0-9a-f:.]+\\]$");
  static const std::regex dns("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$");
  return std::regex_match(host, ip) || (host.size() <= 253 && std::regex_match(host, dns));
}


std::string kubeconfig_violation(const json& kubeconfig) {
  for (const auto& u : kubeconfig.value("users", json::array())) {
    const json user = u.is_object() && u.contains("user") ? u["user"] : json();
    if (user.is_object() && user.contains("tokenFile")) return "tokenFile is not allowed";
  }
  for (const auto& c : kubeconfig.value("clusters", json::array())) {
    const std::string name = c.is_object() ? c.value("name", "") : "";
    const json cluster = c.is_object() && c.contains("cluster") ? c["cluster"] : json();
    if (!cluster.is_object()) return "server URL is required for cluster " + name;
    if (cluster.value("insecure-skip-tls-verify", false) == true) {
      return "insecure TLS verification is not allowed for cluster " + name;
    }
    if (cluster.contains("certificate-authority")) {
      return "certificate-authority file paths are not allowed, use certificate-authority-data for cluster " + name;
    }
    if (cluster.value("server", "").empty()) return "server URL is required for cluster " + name;
  }
  const Endpoint e = current(kubeconfig);
  if (!e.cluster.is_object()) return "invalid configuration: no configuration has been provided";
  const json user = e.user.is_object() ? e.user : json::object();
  if (user.contains("tokenFile")) return "bearerTokenFile is not allowed";
  if (!trusted_server(e.cluster.value("server", ""))) return "untrusted server endpoint";
  if (user.contains("username") || user.contains("password")) return "basic auth is not allowed";
  if (user.contains("exec")) return "exec plugins are not allowed";
  if (user.contains("auth-provider")) return "auth providers are not allowed";
  return "";
}

ConnectionResult probe_connection(const json& kubeconfig, int timeout_seconds) {
  const Endpoint e = current(kubeconfig);
  const std::string server = e.cluster.is_object() ? e.cluster.value("server", "") : "";
  const std::string path = "/apis/kueue.x-k8s.io/v1beta2";
  static const std::regex url("^https://([^/:]+)(:([0-9]+))?/?$");
  std::smatch m;
  if (!std::regex_match(server, m, url)) {
    return {false, "Get \"" + server + path + "\": only https:// servers without a path are supported by the sandbox"};
  }
  std::string error;
  const auto client = make_client(e, m[1].str(), m[3].matched ? std::stoi(m[3].str()) : 443, timeout_seconds, &error);
  if (!client) return {false, error};
  if (auto failed = check_discovery(*client, server, path)) return *failed;
  if (auto failed = check_workloads(*client, server, path + "/workloads")) return *failed;
  if (auto failed = check_job_kinds(*client, server)) return *failed;
  return {true, "Connected"};
}

}  // namespace mkq::sandbox
