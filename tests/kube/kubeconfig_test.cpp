// Kubeconfig parsing, merging (kubectl's rules), relative paths and the
// refusals of resolve_context.
#include "runtime/kube/kubeconfig.h"

#include <catch2/catch.hpp>

#include "base/encoding.h"
#include "tests/kube/kube_test_support.h"

namespace {

using mkq::kube::Kubeconfig;
using mkq::kube::LoadOptions;
using mkq::kube::testing::TempDir;
using mkq::kube::testing::write_file;
namespace fs = std::filesystem;

const std::string kCaPem = "-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n";
const std::string kSecretKey = "-----BEGIN PRIVATE KEY-----\nSUPER-SECRET-KEY\n-----END PRIVATE KEY-----\n";

std::string b64(const std::string& text) { return mkq::base::base64_encode(text); }

// The error's message of a failed result, "" for a value (for INFO).
template <class T>
std::string why(const mkq::kube::Result<T>& result) {
  return result ? std::string() : result.error().message;
}

Kubeconfig parse_ok(const std::string& text, const fs::path& origin = "/etc/kube/config") {
  auto config = mkq::kube::parse_kubeconfig(text, origin);
  INFO(why(config));
  REQUIRE(config);
  return *config;
}

std::string parse_error(const std::string& text, const fs::path& origin = "/etc/kube/config") {
  auto config = mkq::kube::parse_kubeconfig(text, origin);
  REQUIRE_FALSE(config);
  return config.error().message;
}

std::string resolve_error(const Kubeconfig& config, const std::string& context, bool insecure = false) {
  auto endpoint = mkq::kube::resolve_context(config, context, insecure);
  REQUIRE_FALSE(endpoint);
  return endpoint.error().message;
}

// load_kubeconfig's refusal: its message, and whether it says that nothing was named.
struct Refusal {
  std::string message;
  bool none = false;
};

Refusal load_refusal(const LoadOptions& options) {
  auto config = mkq::kube::load_kubeconfig(options);
  REQUIRE_FALSE(config);
  return {config.error().message, config.error().reason == mkq::kube::kNoKubeconfig};
}

}  // namespace

TEST_CASE("a YAML kubeconfig: clusters, users, contexts, decoded data", "[kube][kubeconfig]") {
  const Kubeconfig config = parse_ok(
      "apiVersion: v1\nkind: Config\ncurrent-context: prod\n"
      "clusters:\n"
      "- name: prod-cluster\n  cluster:\n    server: https://10.0.0.1:6443\n"
      "    certificate-authority-data: " + b64(kCaPem) + "\n    tls-server-name: api.internal\n"
      "- name: plain-cluster\n  cluster:\n    server: https://10.0.0.2:6443\n    disable-compression: true\n"
      "users:\n"
      "- name: admin\n  user:\n    client-certificate-data: " + b64(kCaPem) + "\n    client-key-data: " +
      b64(kSecretKey) + "\n"
      "- name: robot\n  user:\n    token: abc.def\n"
      "- name: cloud\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: gke-auth\n"
      "      args: [--format, json]\n      env:\n      - name: MODE\n        value: fast\n"
      "      provideClusterInfo: true\n      installHint: install gke-auth\n"
      "contexts:\n"
      "- name: prod\n  context:\n    cluster: prod-cluster\n    user: admin\n    namespace: team-a\n");
  CHECK(config.current_context == "prod");
  REQUIRE(config.clusters.count("prod-cluster") == 1);
  const auto& cluster = config.clusters.at("prod-cluster");
  CHECK(cluster.server == "https://10.0.0.1:6443");
  CHECK(cluster.certificate_authority_data == kCaPem);
  CHECK(cluster.certificate_authority_file.empty());
  CHECK(cluster.tls_server_name == "api.internal");
  CHECK_FALSE(cluster.disable_compression);
  CHECK(config.clusters.at("plain-cluster").disable_compression);
  CHECK(config.users.at("admin").client_key_data == kSecretKey);
  CHECK(config.users.at("admin").client_certificate_data == kCaPem);
  CHECK(config.users.at("robot").token == "abc.def");
  const auto& exec = config.users.at("cloud").exec;
  REQUIRE(exec);
  CHECK(exec->command == "gke-auth");  // no '/': looked up on PATH
  CHECK(exec->args == std::vector<std::string>{"--format", "json"});
  CHECK(exec->env == std::vector<std::pair<std::string, std::string>>{{"MODE", "fast"}});
  CHECK(exec->provide_cluster_info);
  CHECK(exec->install_hint == "install gke-auth");
  CHECK(config.contexts.at("prod").namespace_name == "team-a");

  const auto endpoint = mkq::kube::resolve_context(config, "", false);
  REQUIRE(endpoint);
  CHECK(endpoint->context == "prod");
  CHECK(endpoint->cluster.server == "https://10.0.0.1:6443");
  CHECK(endpoint->user.client_key_data == kSecretKey);
  CHECK(endpoint->namespace_name == "team-a");
}

TEST_CASE("a JSON kubeconfig parses the same way", "[kube][kubeconfig]") {
  const Kubeconfig config = parse_ok(R"({"apiVersion": "v1", "kind": "Config", "current-context": "c",
    "clusters": [{"name": "k", "cluster": {"server": "https://k:443", "insecure-skip-tls-verify": true,
                                           "disable-compression": true}}],
    "users": [{"name": "u", "user": {"token": "t0k"}}],
    "contexts": [{"name": "c", "context": {"cluster": "k", "user": "u"}}]})");
  CHECK(config.clusters.at("k").insecure_skip_tls_verify);
  CHECK(config.clusters.at("k").disable_compression);
  const auto endpoint = mkq::kube::resolve_context(config, "c", true);
  REQUIRE(endpoint);
  CHECK(endpoint->cluster.disable_compression);
  CHECK(config.users.at("u").token == "t0k");
  CHECK(config.contexts.at("c").cluster == "k");
}

TEST_CASE("an empty kubeconfig file is an empty config", "[kube][kubeconfig]") {
  const Kubeconfig config = parse_ok("");
  CHECK(config.clusters.empty());
  CHECK(config.current_context.empty());
}

TEST_CASE("file paths are relative to the kubeconfig's directory", "[kube][kubeconfig]") {
  TempDir dir;
  write_file(dir / "conf/ca.crt", kCaPem);
  write_file(dir / "certs/client.crt", kCaPem);
  write_file(dir / "certs/client.key", kSecretKey);
  write_file(dir / "conf/config",
             "clusters:\n- name: k\n  cluster:\n    server: https://k\n    certificate-authority: ca.crt\n"
             "users:\n- name: u\n  user:\n    client-certificate: ../certs/client.crt\n"
             "    client-key: " + (dir / "certs/client.key").string() + "\n"
             "    tokenFile: tokens/t\n"
             "- name: e\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n"
             "      command: ./bin/plugin\n");
  LoadOptions options;
  options.explicit_file = dir / "conf/config";
  const auto config = mkq::kube::load_kubeconfig(options);
  INFO(why(config));
  REQUIRE(config);
  CHECK(config->clusters.at("k").certificate_authority_data == kCaPem);
  CHECK(config->clusters.at("k").certificate_authority_file == (dir / "conf/ca.crt").string());
  CHECK(config->users.at("u").client_certificate_data == kCaPem);
  CHECK(config->users.at("u").client_key_data == kSecretKey);
  CHECK(config->users.at("u").token_file == (dir / "conf/tokens/t").string());  // kept as a path
  CHECK(config->users.at("e").exec->command == (dir / "conf/bin/plugin").string());
  REQUIRE(config->files.size() == 1);
  CHECK(config->files[0] == dir / "conf/config");
}

TEST_CASE("a kubeconfig read ahead is handed to the next load of the same file, once", "[kube][kubeconfig]") {
  TempDir dir;
  const std::string v1 = "-----BEGIN CERTIFICATE-----\nONE\n-----END CERTIFICATE-----\n";
  const std::string v2 = "-----BEGIN CERTIFICATE-----\nTWO\n-----END CERTIFICATE-----\n";
  // The certificate is a file, read while the kubeconfig is parsed: what it
  // held at the parse tells which parse a load returned.
  write_file(dir / "client.crt", v1);
  write_file(dir / "client.key", kSecretKey);
  write_file(dir / "config", "users:\n- name: u\n  user:\n    client-certificate: client.crt\n"
                             "    client-key: client.key\n");
  LoadOptions options;
  options.explicit_file = dir / "config";
  const auto certificate = [&] {
    const auto config = mkq::kube::load_kubeconfig(options);
    INFO(why(config));
    REQUIRE(config);
    return config->users.at("u").client_certificate_data;
  };
  {
    mkq::kube::KubeconfigPrefetch ahead(options);
    ahead.wait();
    write_file(dir / "client.crt", v2);
    CHECK(certificate() == v1);  // the parse read ahead
    CHECK(certificate() == v2);  // taken once: parsed again
  }
  {
    // Not taken by any load before the prefetch ends: forgotten.
    mkq::kube::KubeconfigPrefetch ahead(options);
    ahead.wait();
  }
  write_file(dir / "client.crt", v1);
  CHECK(certificate() == v1);
  {
    // Another text than the one read ahead is parsed as it is.
    mkq::kube::KubeconfigPrefetch ahead(options);
    ahead.wait();
    write_file(dir / "config", "current-context: changed\nusers:\n- name: u\n  user:\n    client-certificate: client.crt\n"
                               "    client-key: client.key\n");
    const auto config = mkq::kube::load_kubeconfig(options);
    REQUIRE(config);
    CHECK(config->current_context == "changed");
  }
  // A file that cannot be read is the load's to report, as without reading ahead.
  {
    LoadOptions missing;
    missing.explicit_file = dir / "nope";
    mkq::kube::KubeconfigPrefetch ahead(missing);
    ahead.wait();
    CHECK(load_refusal(missing).message == "--kubeconfig names " + (dir / "nope").string() + ", which does not exist");
  }
}

TEST_CASE("*-data overrides the file field, as in kubectl", "[kube][kubeconfig]") {
  const Kubeconfig config = parse_ok(
      "clusters:\n- name: k\n  cluster:\n    server: https://k\n    certificate-authority: /nonexistent/ca.crt\n"
      "    certificate-authority-data: " + b64(kCaPem) + "\n");
  CHECK(config.clusters.at("k").certificate_authority_data == kCaPem);
}

TEST_CASE("KUBECONFIG merges files: the first definition of a name wins", "[kube][kubeconfig]") {
  TempDir dir;
  write_file(dir / "a",
             "clusters:\n- name: shared\n  cluster:\n    server: https://from-a\n"
             "contexts:\n- name: ctx-a\n  context:\n    cluster: shared\n");
  write_file(dir / "b",
             "current-context: ctx-b\n"
             "clusters:\n- name: shared\n  cluster:\n    server: https://from-b\n"
             "- name: only-b\n  cluster:\n    server: https://only-b\n"
             "contexts:\n- name: ctx-b\n  context:\n    cluster: only-b\n");
  write_file(dir / "c", "current-context: ctx-c\n");
  LoadOptions options;
  options.kubeconfig_env = (dir / "a").string() + ":" + (dir / "missing").string() + "::" + (dir / "b").string() +
                           ":" + (dir / "c").string();
  options.home = dir / "home";
  const auto config = mkq::kube::load_kubeconfig(options);
  INFO(why(config));
  REQUIRE(config);
  CHECK(config->clusters.at("shared").server == "https://from-a");
  CHECK(config->clusters.at("only-b").server == "https://only-b");
  CHECK(config->current_context == "ctx-b");  // the first file that sets it
  CHECK(config->files == std::vector<fs::path>{dir / "a", dir / "b", dir / "c"});
  const auto endpoint = mkq::kube::resolve_context(*config, "", false);
  REQUIRE(endpoint);
  CHECK(endpoint->cluster.server == "https://only-b");
  CHECK(endpoint->user.token.empty());
}

TEST_CASE("kubeconfig: an explicit file beats KUBECONFIG, which beats ~/.kube/config", "[kube][kubeconfig]") {
  TempDir dir;
  write_file(dir / "explicit", "current-context: explicit\n");
  write_file(dir / "env", "current-context: env\n");
  write_file(dir / "home/.kube/config", "current-context: home\n");
  LoadOptions options;
  options.home = dir / "home";
  options.kubeconfig_env = (dir / "env").string();
  options.explicit_file = dir / "explicit";
  CHECK(mkq::kube::load_kubeconfig(options)->current_context == "explicit");
  options.explicit_file.clear();
  CHECK(mkq::kube::load_kubeconfig(options)->current_context == "env");
  options.kubeconfig_env = "";
  CHECK(mkq::kube::load_kubeconfig(options)->current_context == "home");
}

TEST_CASE("no kubeconfig anywhere is reported as kNoKubeconfig", "[kube][kubeconfig]") {
  TempDir dir;
  LoadOptions options;
  options.home = dir / "home";
  options.kubeconfig_env = "";
  const Refusal refusal = load_refusal(options);
  CHECK(refusal.none);
  CHECK(refusal.message == "no kubeconfig: no --kubeconfig, no KUBECONFIG and no ~/.kube/config");
}

// A file that was named and cannot be read never falls back to "none" (and so
// to the sandbox): the message says which file and who named it.
TEST_CASE("kubeconfig: a named file that cannot be read is an error naming it", "[kube][kubeconfig][errors]") {
  TempDir dir;
  write_file(dir / "home/.kube/config", "current-context: home\n");
  Refusal refusal;
  LoadOptions options;
  options.home = dir / "home";
  options.kubeconfig_env = "";

  options.explicit_file = dir / "nope";
  refusal = load_refusal(options);
  CHECK_FALSE(refusal.none);
  CHECK(refusal.message == "--kubeconfig names " + (dir / "nope").string() + ", which does not exist");

  options.explicit_file = dir.path();
  refusal = load_refusal(options);
  CHECK(refusal.message == "--kubeconfig names " + dir.path().string() + ", which is a directory");

  options.explicit_file = dir / "nope";
  options.explicit_named_by = "the policy's worker \"w1\"'s kubeconfig = \"nope\"";
  refusal = load_refusal(options);
  CHECK(refusal.message == "the policy's worker \"w1\"'s kubeconfig = \"nope\" names " + (dir / "nope").string() +
                     ", which does not exist");

  options.explicit_file.clear();
  options.kubeconfig_env = (dir / "x").string();
  refusal = load_refusal(options);
  CHECK_FALSE(refusal.none);  // not ~/.kube/config, although it exists: KUBECONFIG named another file
  CHECK(refusal.message == "KUBECONFIG names " + (dir / "x").string() + ", which does not exist");

  options.kubeconfig_env = (dir / "x").string() + ":" + (dir / "y").string();
  refusal = load_refusal(options);
  CHECK_FALSE(refusal.none);
  CHECK(refusal.message == "KUBECONFIG names " + (dir / "x").string() + ", " + (dir / "y").string() + ", none of which exists");

  options.kubeconfig_env = ":";
  refusal = load_refusal(options);
  CHECK_FALSE(refusal.none);
  CHECK(refusal.message == "KUBECONFIG is set (\":\") but names no file");

  options.kubeconfig_env = (dir / "home").string();
  refusal = load_refusal(options);
  CHECK(refusal.message == "KUBECONFIG names " + (dir / "home").string() + ", which is a directory");

  options.kubeconfig_env = "";
  fs::remove(dir / "home/.kube/config");
  fs::create_directories(dir / "home/.kube/config");
  refusal = load_refusal(options);
  CHECK_FALSE(refusal.none);
  CHECK(refusal.message == "the kubeconfig " + (dir / "home/.kube/config").string() + " (~/.kube/config) is a directory");
}

TEST_CASE("kubeconfig: KUBECONFIG skips a missing file when another exists, as kubectl does", "[kube][kubeconfig]") {
  TempDir dir;
  write_file(dir / "b", "current-context: b\n");
  LoadOptions options;
  options.home = dir / "home";
  options.kubeconfig_env = (dir / "a").string() + ":" + (dir / "b").string();
  const auto config = mkq::kube::load_kubeconfig(options);
  INFO(why(config));
  REQUIRE(config);
  CHECK(config->current_context == "b");
  CHECK(config->files == std::vector<fs::path>{dir / "b"});
  CHECK(config->skipped == std::vector<fs::path>{dir / "a"});
  CHECK(config->named_by == "KUBECONFIG");
  CHECK(mkq::kube::files_list(*config) == (dir / "b").string());
}

TEST_CASE("kubeconfig: says how its files were named", "[kube][kubeconfig]") {
  TempDir dir;
  write_file(dir / "f", "current-context: f\n");
  write_file(dir / "home/.kube/config", "current-context: home\n");
  LoadOptions options;
  options.home = dir / "home";
  options.kubeconfig_env = "";
  CHECK(mkq::kube::load_kubeconfig(options)->named_by == "~/.kube/config");
  options.kubeconfig_env = (dir / "f").string();
  CHECK(mkq::kube::load_kubeconfig(options)->named_by == "KUBECONFIG");
  options.explicit_file = dir / "f";
  const auto config = mkq::kube::load_kubeconfig(options);
  REQUIRE(config);
  CHECK(config->named_by == "--kubeconfig");
  CHECK(config->skipped.empty());
}

TEST_CASE("parse errors name the file, the line and the entry, never a secret", "[kube][kubeconfig]") {
  CHECK(parse_error("clusters: [\n  {name: a\n") .rfind("kubeconfig /etc/kube/config: line ", 0) == 0);
  CHECK(parse_error("- just\n- a list\n") == "kubeconfig /etc/kube/config: line 1: the document is not a mapping");
  CHECK(parse_error("clusters: {}\n") == "kubeconfig /etc/kube/config: line 1: clusters must be a list");
  CHECK(parse_error("users:\n- user: {token: x}\n") ==
        "kubeconfig /etc/kube/config: line 2: an entry of users has no name");

  const std::string bad_key = "SUPER-SECRET-NOT-BASE64!!";
  const std::string error = parse_error("users:\n- name: admin\n  user:\n    client-key-data: " + bad_key + "\n");
  CHECK(error == "kubeconfig /etc/kube/config: line 4: user \"admin\": client-key-data is not valid base64");
  CHECK(error.find("SUPER-SECRET") == std::string::npos);

  TempDir dir;
  const std::string missing = parse_error(
      "clusters:\n- name: k\n  cluster:\n    server: https://k\n    certificate-authority: ca.crt\n",
      dir / "config");
  CHECK(missing == "kubeconfig " + (dir / "config").string() + ": line 5: cluster \"k\": certificate-authority " +
                       (dir / "ca.crt").string() + " does not exist");
  CHECK(parse_error("users:\n- name: e\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n") ==
        "kubeconfig /etc/kube/config: line 5: user \"e\": exec has no command");
  CHECK(parse_error("clusters:\n- name: k\n  cluster:\n    insecure-skip-tls-verify: maybe\n") ==
        "kubeconfig /etc/kube/config: line 4: cluster \"k\": insecure-skip-tls-verify must be true or false");
  CHECK(parse_error("clusters:\n- name: k\n  cluster:\n    disable-compression: yes please\n") ==
        "kubeconfig /etc/kube/config: line 4: cluster \"k\": disable-compression must be true or false");
}

TEST_CASE("resolve_context refusals name the context and the file", "[kube][kubeconfig]") {
  const std::string ca = b64(kCaPem);
  const Kubeconfig config = parse_ok(
      "clusters:\n"
      "- name: good\n  cluster:\n    server: https://good:6443\n    certificate-authority-data: " + ca + "\n"
      "- name: plain\n  cluster:\n    server: http://plain:8080\n"
      "- name: insecure\n  cluster:\n    server: https://insecure\n    insecure-skip-tls-verify: true\n"
      "- name: noserver\n  cluster: {}\n"
      "users:\n"
      "- name: basic\n  user:\n    username: admin\n    password: hunter2\n"
      "- name: alpha\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1alpha1\n      command: x\n"
      "- name: halfcert\n  user:\n    client-certificate-data: " + ca + "\n"
      "- name: token\n  user:\n    token: s3cr3t-t0ken\n"
      "contexts:\n"
      "- name: plain\n  context: {cluster: plain}\n"
      "- name: insecure\n  context: {cluster: insecure}\n"
      "- name: noserver\n  context: {cluster: noserver}\n"
      "- name: basic\n  context: {cluster: good, user: basic}\n"
      "- name: alpha\n  context: {cluster: good, user: alpha}\n"
      "- name: halfcert\n  context: {cluster: good, user: halfcert}\n"
      "- name: ghost-cluster\n  context: {cluster: ghost}\n"
      "- name: ghost-user\n  context: {cluster: good, user: ghost}\n"
      "- name: ok\n  context: {cluster: good, user: token}\n");
  const std::string file = "kubeconfig /etc/kube/config: ";
  CHECK(resolve_error(config, "") == file + "no current-context; name a context (contexts: alpha, basic, "
                                            "ghost-cluster, ghost-user, halfcert, insecure, noserver, ok, plain)");
  CHECK(resolve_error(config, "nope").rfind(file + "context \"nope\" not found (contexts: alpha, ", 0) == 0);
  CHECK(resolve_error(config, "plain") ==
        file + "context \"plain\": cluster \"plain\": server http://plain:8080 is not https (mkq talks to API "
               "servers over TLS only)");
  CHECK(resolve_error(config, "insecure") ==
        file + "context \"insecure\": cluster \"insecure\" sets insecure-skip-tls-verify; refused unless "
               "--insecure-skip-tls-verify is given");
  CHECK(resolve_error(config, "noserver") == file + "context \"noserver\": cluster \"noserver\" has no server");
  const std::string basic = resolve_error(config, "basic");
  CHECK(basic.rfind(file + "context \"basic\": user \"basic\" uses basic authentication", 0) == 0);
  CHECK(basic.find("hunter2") == std::string::npos);
  CHECK(resolve_error(config, "alpha") ==
        file + "context \"alpha\": user \"alpha\": exec apiVersion \"client.authentication.k8s.io/v1alpha1\" is not "
               "supported (client.authentication.k8s.io/v1 or v1beta1)");
  CHECK(resolve_error(config, "halfcert") ==
        file + "context \"halfcert\": user \"halfcert\": a client certificate needs both client-certificate and "
               "client-key");
  CHECK(resolve_error(config, "ghost-cluster") == file + "context \"ghost-cluster\": cluster \"ghost\" not found");
  CHECK(resolve_error(config, "ghost-user") == file + "context \"ghost-user\": user \"ghost\" not found");

  const auto insecure = mkq::kube::resolve_context(config, "insecure", true);
  REQUIRE(insecure);
  CHECK(insecure->cluster.insecure_skip_tls_verify);
  const auto ok = mkq::kube::resolve_context(config, "ok", false);
  REQUIRE(ok);
  CHECK(ok->user.token == "s3cr3t-t0ken");
  CHECK(ok->cluster.certificate_authority_data == kCaPem);
}
