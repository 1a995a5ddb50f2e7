// runtime/credentials: the provider's decisions (plan time) and the Secret it
// issues (apply time), for every credentials mode, against a fake worker API.
#include <catch2/catch.hpp>

#include <yaml-cpp/yaml.h>

#include <cstdlib>

#include "tests/credentials/credentials_test_support.h"

namespace {

using credtest::Json;
using credtest::World;
using mkq::credentials::base64_decode;
using mkq::credentials::sha256_digest;
using mkq::reconcile::CredentialDecision;

// Issues east's credential and returns the Secret as the manager would hold it.
Json issued(World& world, const std::string& worker, mkq::reconcile::CredentialProvider& provider) {
  auto result = provider.issue("m", world.secret(worker), nullptr);
  INFO((result ? std::string() : result.error().message));
  REQUIRE(result.ok());
  return result.value();
}

}  // namespace

TEST_CASE("serviceaccount: a Secret absent or still the placeholder is issued", "[credentials]") {
  World world;
  auto provider = world.provider();
  const CredentialDecision absent = provider->decide("m", world.secret("east"), nullptr, nullptr);
  CHECK(absent.issue);
  CHECK(absent.error.empty());
  CHECK(absent.reason() == "not on the cluster");
  CHECK(absent.description == "token for multikueue-sa, expires 2026-12-21");

  const Json placeholder = world.secret("east").document;
  const CredentialDecision held = provider->decide("m", world.secret("east"), &placeholder, nullptr);
  CHECK(held.issue);
  CHECK(held.reason() == "placeholder on the cluster");

  const CredentialDecision north = provider->decide("m", world.secret("north"), nullptr, nullptr);
  CHECK(north.description == "token for multikueue-north, expires 2026-11-23");
  CHECK(world.clients["east"]->calls.empty());  // deciding never requests a token
}

TEST_CASE("serviceaccount: the issued Secret's exact shape", "[credentials]") {
  World world;
  auto provider = world.provider();
  const Json secret = issued(world, "east", *provider);

  REQUIRE(world.clients["east"]->calls.size() == 1);
  CHECK(world.clients["east"]->calls[0] ==
        "POST /api/v1/namespaces/kueue-system/serviceaccounts/multikueue-sa/token");
  // First the anchors there are (what the transaction revokes), then the new
  // anchor (with mkq's own credentials), then the token bound to it.
  const auto& objects = world.clients["east"]->object_calls;
  REQUIRE(objects.size() == 3);
  CHECK(objects[0] == "get ServiceAccount kueue-system/multikueue-sa");
  CHECK(objects[1] == "list Secret kueue-system mkq.dev/credential-anchor=multikueue-sa");
  CHECK_THAT(objects[2], Catch::Matches("apply Secret kueue-system/multikueue-sa-token-20261121100000-[0-9a-f]{8} by mkq"));
  const std::string anchor = world.clients["east"]->anchors().at(0);
  CHECK(world.clients["east"]->bodies[0] ==
        Json::parse(R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest",
                        "spec":{"expirationSeconds":2592000,
                                "boundObjectRef":{"kind":"Secret","apiVersion":"v1","name":")" + anchor +
                    R"(","uid":"uid-secret-1"}}})"));
  CHECK(world.clients["east"]->stored.at("kueue-system/" + anchor) ==
        Json::parse(R"({"apiVersion":"v1","kind":"Secret",
          "metadata":{"name":")" + anchor + R"(","namespace":"kueue-system",
            "labels":{"app.kubernetes.io/managed-by":"mkq","mkq.dev/credential-anchor":"multikueue-sa"},
            "annotations":{"mkq.dev/credential-for":"kueue-system/east-kubeconfig"},
            "ownerReferences":[{"apiVersion":"v1","kind":"ServiceAccount","name":"multikueue-sa",
                                "uid":"uid-sa-multikueue-sa"}],
            "uid":"uid-secret-1"},
          "type":"Opaque"})"));

  CHECK(secret["apiVersion"] == "v1");
  CHECK(secret["kind"] == "Secret");
  CHECK(secret["metadata"]["name"] == "east-kubeconfig");
  CHECK(secret["metadata"]["namespace"] == "kueue-system");
  CHECK(secret["metadata"]["labels"] == world.secret("east").document["metadata"]["labels"]);
  CHECK(secret["type"] == "Opaque");
  CHECK_FALSE(secret.contains("stringData"));
  REQUIRE(secret["data"].size() == 1);

  const std::string kubeconfig = credtest::kubeconfig_of(secret);
  const Json& annotations = secret["metadata"]["annotations"];
  CHECK(annotations == Json{{"mkq.dev/credential", "issued"},
                            {"mkq.dev/credential-expires", "2026-12-21T10:00:00Z"},
                            {"mkq.dev/credential-server", "https://east.example:6443"},
                            {"mkq.dev/credential-ca-digest", sha256_digest(credtest::kCaPem)},
                            {"mkq.dev/credential-digest", sha256_digest(kubeconfig)},
                            {"mkq.dev/credential-anchor", anchor}});

  const YAML::Node config = YAML::Load(kubeconfig);
  CHECK(config["apiVersion"].as<std::string>() == "v1");
  CHECK(config["kind"].as<std::string>() == "Config");
  REQUIRE(config["clusters"].size() == 1);
  CHECK(config["clusters"][0]["name"].as<std::string>() == "east");
  CHECK(config["clusters"][0]["cluster"]["server"].as<std::string>() == "https://east.example:6443");
  const auto ca =
      base64_decode(config["clusters"][0]["cluster"]["certificate-authority-data"].as<std::string>());
  REQUIRE(ca);
  CHECK(*ca == credtest::kCaPem);
  REQUIRE(config["users"].size() == 1);
  CHECK(config["users"][0]["user"]["token"].as<std::string>() == world.clients["east"]->tokens.at(0));
  CHECK(config["users"][0]["user"].size() == 1);  // the token only: no exec, tokenFile, certificates
  REQUIRE(config["contexts"].size() == 1);
  CHECK(config["contexts"][0]["name"].as<std::string>() == "east");
  CHECK(config["contexts"][0]["context"]["cluster"].as<std::string>() == "east");
  CHECK(config["contexts"][0]["context"]["user"].as<std::string>() == "east");
  CHECK(config["current-context"].as<std::string>() == "east");
  CHECK(config["clusters"][0]["cluster"].size() == 2);  // server and CA data only
}

TEST_CASE("serviceaccount: an issued credential is current until the rotation window", "[credentials]") {
  World world;
  auto provider = world.provider();
  const Json live = issued(world, "east", *provider);

  const CredentialDecision current = provider->decide("m", world.secret("east"), &live, nullptr);
  CHECK_FALSE(current.issue);
  CHECK(current.error.empty());
  CHECK(current.reason() == "credential current");
  CHECK(current.description == "token for multikueue-sa, expires 2026-12-21");

  world.clock.set(credtest::at("2026-12-14T09:59:59Z"));  // 7d and 1s before expiry
  CHECK_FALSE(provider->decide("m", world.secret("east"), &live, nullptr).issue);

  world.clock.set(credtest::at("2026-12-14T10:00:00Z"));  // exactly 7d before: rotate
  const CredentialDecision window = provider->decide("m", world.secret("east"), &live, nullptr);
  CHECK(window.issue);
  CHECK(window.reason() == "expires within 7d");
  CHECK(window.description == "token for multikueue-sa, expires 2027-01-13");

  world.clock.set(credtest::at("2026-12-21T10:00:01Z"));
  const CredentialDecision expired = provider->decide("m", world.secret("east"), &live, nullptr);
  CHECK(expired.issue);
  CHECK(expired.reason() == "expired");
}

TEST_CASE("serviceaccount: the policy's lifetime and window apply", "[credentials]") {
  World world;
  auto provider = world.provider();
  const Json live = issued(world, "north", *provider);
  CHECK(world.clients["north"]->bodies.at(0)["spec"]["expirationSeconds"] == 172800);
  CHECK(world.clients["north"]->calls.at(0) ==
        "POST /api/v1/namespaces/kueue-system/serviceaccounts/multikueue-north/token");
  CHECK(live["metadata"]["annotations"]["mkq.dev/credential-expires"] == "2026-11-23T10:00:00Z");

  world.clock.set(credtest::at("2026-11-22T09:00:00Z"));
  CHECK_FALSE(provider->decide("m", world.secret("north"), &live, nullptr).issue);
  world.clock.set(credtest::at("2026-11-22T11:00:00Z"));
  const CredentialDecision window = provider->decide("m", world.secret("north"), &live, nullptr);
  CHECK(window.issue);
  CHECK(window.reason() == "expires within 1d");
}

TEST_CASE("serviceaccount: a changed server or CA rotates", "[credentials]") {
  World world;
  Json live;
  {
    auto provider = world.provider();
    live = issued(world, "east", *provider);
  }
  SECTION("server") {
    world.endpoints["east"].cluster.server = "https://east-new.example:6443";
    auto provider = world.provider();
    const CredentialDecision decision = provider->decide("m", world.secret("east"), &live, nullptr);
    CHECK(decision.issue);
    CHECK(decision.reason() == "worker's server changed");
    const Json again = issued(world, "east", *provider);
    CHECK(again["metadata"]["annotations"]["mkq.dev/credential-server"] == "https://east-new.example:6443");
    CHECK_FALSE(provider->decide("m", world.secret("east"), &again, nullptr).issue);
  }
  SECTION("CA") {
    world.endpoints["east"].cluster.certificate_authority_data = credtest::kOtherCaPem;
    auto provider = world.provider();
    const CredentialDecision decision = provider->decide("m", world.secret("east"), &live, nullptr);
    CHECK(decision.issue);
    CHECK(decision.reason() == "worker's CA changed");
  }
  SECTION("no CA at all (system trust) is an error") {
    world.endpoints["east"].cluster.certificate_authority_data.clear();
    auto provider = world.provider();
    const CredentialDecision decision = provider->decide("m", world.secret("east"), &live, nullptr);
    CHECK(
        decision.error ==
        "worker east: its kubeconfig names no certificate authority; Kueue needs certificate-authority-data");
    const auto result = provider->issue("m", world.secret("east"), nullptr);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().message == decision.error);
  }
}

TEST_CASE("serviceaccount: a Secret changed outside mkq is rewritten", "[credentials]") {
  World world;
  auto provider = world.provider();
  Json live = issued(world, "east", *provider);
  SECTION("data") {
    live["data"]["kubeconfig"] = mkq::credentials::base64_encode("apiVersion: v1\nkind: Config\n");
  }
  SECTION("a hand-made Secret without mkq's annotations") { live["metadata"].erase("annotations"); }
  SECTION("the data key removed") { live["data"] = Json::object(); }
  const CredentialDecision decision = provider->decide("m", world.secret("east"), &live, nullptr);
  CHECK(decision.issue);
  CHECK(decision.reason() == "changed outside mkq");
}

TEST_CASE("serviceaccount: an unknown expiry rotates", "[credentials]") {
  World world;
  auto provider = world.provider();
  Json live = issued(world, "east", *provider);
  live["metadata"]["annotations"]["mkq.dev/credential-expires"] = "soon";
  const CredentialDecision decision = provider->decide("m", world.secret("east"), &live, nullptr);
  CHECK(decision.issue);
  CHECK(decision.reason() == "expiry unknown");
}

TEST_CASE("serviceaccount: force_rotate for one worker or all", "[credentials]") {
  World world;
  Json east, north;
  {
    auto provider = world.provider();
    east = issued(world, "east", *provider);
    north = issued(world, "north", *provider);
  }
  SECTION("one worker") {
    mkq::credentials::ProviderOptions options;
    options.force_rotate = true;
    options.rotate_only = {"north"};
    auto provider = world.provider(options);
    const CredentialDecision n = provider->decide("m", world.secret("north"), &north, nullptr);
    CHECK(n.issue);
    CHECK(n.reason() == "rotation requested");
    CHECK_FALSE(provider->decide("m", world.secret("east"), &east, nullptr).issue);
  }
  SECTION("all") {
    mkq::credentials::ProviderOptions options;
    options.force_rotate = true;
    auto provider = world.provider(options);
    CHECK(provider->decide("m", world.secret("north"), &north, nullptr).reason() == "rotation requested");
    CHECK(provider->decide("m", world.secret("east"), &east, nullptr).reason() == "rotation requested");
  }
  SECTION("rotate_only without force_rotate does nothing") {
    mkq::credentials::ProviderOptions options;
    options.rotate_only = {"north"};
    auto provider = world.provider(options);
    CHECK_FALSE(provider->decide("m", world.secret("north"), &north, nullptr).issue);
  }
}

TEST_CASE("serviceaccount: an issued Secret rotates to a new token", "[credentials]") {
  World world;
  auto provider = world.provider();
  const Json first = issued(world, "east", *provider);
  world.clock.set(credtest::at("2026-12-15T10:00:00Z"));
  REQUIRE(provider->decide("m", world.secret("east"), &first, nullptr).issue);
  const Json second = issued(world, "east", *provider);
  CHECK(world.clients["east"]->tokens.size() == 2);
  CHECK(credtest::kubeconfig_of(second).find(world.clients["east"]->tokens[1]) != std::string::npos);
  CHECK(second["metadata"]["annotations"]["mkq.dev/credential-expires"] == "2027-01-14T10:00:00Z");
  CHECK_FALSE(provider->decide("m", world.secret("east"), &second, nullptr).issue);
}

TEST_CASE("serviceaccount: token request failures name the worker", "[credentials]") {
  World world;
  auto provider = world.provider();
  SECTION("404") {
    world.clients["east"]->fail =
        mkq::kube::Error{404, "NotFound", "serviceaccounts \"multikueue-sa\" not found", nullptr};
    const auto result = provider->issue("m", world.secret("east"), nullptr);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().status == 404);
    CHECK(result.error().message ==
          "worker east: serviceaccount kueue-system/multikueue-sa not found: serviceaccounts "
          "\"multikueue-sa\" not found");
  }
  SECTION("403") {
    world.clients["east"]->fail =
        mkq::kube::Error{403, "Forbidden", "user \"bob\" cannot create resource", nullptr};
    const auto result = provider->issue("m", world.secret("east"), nullptr);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().status == 403);
    CHECK_THAT(result.error().message,
               Catch::StartsWith(
                   "worker east: mkq may not request tokens for serviceaccount kueue-system/multikueue-sa"));
  }
  SECTION("unreachable") {
    world.clients["east"]->fail = mkq::kube::Error{0, "ConnectionFailed", "connection refused", nullptr};
    const auto result = provider->issue("m", world.secret("east"), nullptr);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().transport());
    CHECK(result.error().message == "worker east is unreachable: connection refused");
  }
  SECTION("no client") {
    std::map<std::string, mkq::credentials::WorkerAccess> access;
    access["east"] = {world.endpoints["east"], nullptr};
    mkq::credentials::ProviderOptions options;
    options.clock = &world.clock;
    auto unreachable = mkq::credentials::make_provider(world.policy(), access, options);
    const CredentialDecision decision = unreachable->decide("m", world.secret("east"), nullptr, nullptr);
    CHECK(decision.issue);
    CHECK(decision.error == "worker east is unreachable: cannot request a token");
    const auto result = unreachable->issue("m", world.secret("east"), nullptr);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().transport());
    // A worker the provider was given no access to at all.
    const CredentialDecision none = unreachable->decide("m", world.secret("north"), nullptr, nullptr);
    CHECK(none.error == "worker north: mkq has no connection to it");
  }
  SECTION("an answer without a token") {
    class Empty : public credtest::TokenClient {
     public:
      using TokenClient::TokenClient;
      mkq::kube::Result<Json> request(const std::string&, const std::string&, const Json*,
                                      const std::string&) override {
        return Json{{"kind", "TokenRequest"}, {"status", Json::object()}};
      }
    };
    Empty empty([&] { return world.clock.now(); });
    std::map<std::string, mkq::credentials::WorkerAccess> access;
    access["east"] = {world.endpoints["east"], &empty};
    auto odd = mkq::credentials::make_provider(world.policy(), access, {});
    const auto result = odd->issue("m", world.secret("east"), nullptr);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().message ==
          "worker east: the token request for serviceaccount kueue-system/multikueue-sa answered no token");
  }
}

TEST_CASE("serviceaccount with a pre-issued token", "[credentials]") {
  World world;
  world.secrets["env:SOUTH_TOKEN"] = std::string("pre-issued-") + credtest::kTokenMarker + "\n";
  auto provider = world.provider();
  const CredentialDecision absent = provider->decide("m", world.secret("south"), nullptr, nullptr);
  CHECK(absent.issue);
  CHECK(absent.reason() == "not on the cluster");
  CHECK(absent.description == "token for multikueue-sa from env:SOUTH_TOKEN");

  const Json live = issued(world, "south", *provider);
  CHECK(world.clients["south"]->calls.empty());  // no TokenRequest
  const std::string kubeconfig = credtest::kubeconfig_of(live);
  CHECK(kubeconfig ==
        mkq::credentials::worker_kubeconfig("south", "https://south.example:6443", credtest::kCaPem,
                                            std::string("pre-issued-") + credtest::kTokenMarker));
  CHECK_FALSE(live["metadata"]["annotations"].contains("mkq.dev/credential-expires"));
  CHECK(live["metadata"]["annotations"]["mkq.dev/credential"] == "issued");

  const CredentialDecision current = provider->decide("m", world.secret("south"), &live, nullptr);
  CHECK_FALSE(current.issue);
  CHECK(current.reason() == "credential current");

  world.secrets["env:SOUTH_TOKEN"] = "another-token";
  CHECK(provider->decide("m", world.secret("south"), &live, nullptr).reason() == "the policy's token changed");
  world.secrets["env:SOUTH_TOKEN"] = std::string("pre-issued-") + credtest::kTokenMarker;
  world.endpoints["south"].cluster.server = "https://south-2.example:6443";
  CHECK(world.provider()->decide("m", world.secret("south"), &live, nullptr).reason() ==
        "worker's server changed");

  world.secrets.erase("env:SOUTH_TOKEN");
  const CredentialDecision unreadable = provider->decide("m", world.secret("south"), &live, nullptr);
  CHECK(unreadable.error == "worker south: token secret(env:SOUTH_TOKEN) cannot be read: not set");
}

TEST_CASE("kubeconfig mode: the file's content, current or changed", "[credentials]") {
  World world;
  const std::string given =
      credtest::given_kubeconfig("    token: " + std::string(credtest::kTokenMarker) + "\n");
  world.write_west(given);
  auto provider = world.provider();

  const CredentialDecision absent = provider->decide("m", world.secret("west"), nullptr, nullptr);
  CHECK(absent.issue);
  CHECK(absent.reason() == "not on the cluster");
  CHECK(absent.description == "kubeconfig from file:" + world.west_file.string());

  const Json live = issued(world, "west", *provider);
  CHECK(credtest::kubeconfig_of(live) == given);  // as given, byte for byte
  CHECK(live["metadata"]["annotations"] ==
        Json{{"mkq.dev/credential", "issued"}, {"mkq.dev/credential-digest", sha256_digest(given)}});
  CHECK(world.clients["west"]->calls.empty());

  const CredentialDecision current = provider->decide("m", world.secret("west"), &live, nullptr);
  CHECK_FALSE(current.issue);
  CHECK(current.reason() == "credential current");
  CHECK(current.description == "kubeconfig from file:" + world.west_file.string());

  world.write_west(credtest::given_kubeconfig("    token: other\n"));
  const CredentialDecision changed = provider->decide("m", world.secret("west"), &live, nullptr);
  CHECK(changed.issue);
  CHECK(changed.reason() == "the policy's kubeconfig changed");

  Json edited = live;
  edited["data"]["kubeconfig"] = mkq::credentials::base64_encode("edited by hand");
  CHECK(provider->decide("m", world.secret("west"), &edited, nullptr).reason() == "changed outside mkq");

  const Json placeholder = world.secret("west").document;
  CHECK(provider->decide("m", world.secret("west"), &placeholder, nullptr).reason() ==
        "placeholder on the cluster");

  std::filesystem::remove(world.west_file);
  const CredentialDecision unreadable = provider->decide("m", world.secret("west"), &live, nullptr);
  CHECK_FALSE(unreadable.issue);
  CHECK(unreadable.error == "worker west: kubeconfig secret(file:" + world.west_file.string() +
                                ") cannot be read: cannot open " + world.west_file.string());
  const auto result = provider->issue("m", world.secret("west"), nullptr);
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().message == unreadable.error);
}

TEST_CASE("kubeconfig mode: contents Kueue refuses are errors naming the rule", "[credentials]") {
  struct Case {
    std::string user, cluster, rule;
  };
  const std::vector<Case> cases = {
      {"    tokenFile: /var/run/token\n", "", "users[0].user: tokenFile is not allowed; use token"},
      {"    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: "
       "gke-gcloud-auth-plugin\n",
       "", "users[0].user: exec plugins are not allowed"},
      {"    auth-provider:\n      name: oidc\n", "", "users[0].user: auth providers are not allowed"},
      {"    username: admin\n    password: " + std::string(credtest::kTokenMarker) + "\n", "",
       "users[0].user: basic auth is not allowed"},
      {"    client-certificate: /home/me/.kube/client.crt\n    client-key-data: eHh4\n", "",
       "users[0].user: client-certificate (a file path) is not allowed; use client-certificate-data"},
      {"    token: t\n", "    insecure-skip-tls-verify: true\n",
       "clusters[0].cluster: insecure-skip-tls-verify is not allowed (Kueue verifies the worker's "
       "certificate)"},
      {"    token: t\n", "    certificate-authority: /etc/ca.crt\n",
       "clusters[0].cluster: certificate-authority (a file path) is not allowed; use "
       "certificate-authority-data"},
  };
  for (const Case& c : cases) {
    World world;
    world.write_west(credtest::given_kubeconfig(c.user, c.cluster));
    auto provider = world.provider();
    const CredentialDecision decision = provider->decide("m", world.secret("west"), nullptr, nullptr);
    CHECK_FALSE(decision.issue);
    CHECK(decision.error == "worker west: kubeconfig secret(file:" + world.west_file.string() +
                                ") is one Kueue refuses: " + c.rule);
    CHECK(decision.error.find(credtest::kTokenMarker) == std::string::npos);
    const auto result = world.provider()->issue("m", world.secret("west"), nullptr);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().message == decision.error);
  }
  SECTION("not a kubeconfig") {
    World world;
    world.write_west(std::string("{ ") + credtest::kTokenMarker + ": [\n");
    const CredentialDecision decision = world.provider()->decide("m", world.secret("west"), nullptr, nullptr);
    CHECK_THAT(decision.error, Catch::Contains("is one Kueue refuses: not valid YAML (line"));
    CHECK(decision.error.find(credtest::kTokenMarker) == std::string::npos);
  }
  SECTION("no server") {
    World world;
    std::string text = credtest::given_kubeconfig("    token: t\n");
    text.replace(text.find("    server: https://west.example:6443\n"), 38, "");
    world.write_west(text);
    const CredentialDecision decision = world.provider()->decide("m", world.secret("west"), nullptr, nullptr);
    CHECK_THAT(decision.error, Catch::EndsWith("clusters[0].cluster: server is empty"));
  }
  SECTION("no current context") {
    World world;
    std::string text = credtest::given_kubeconfig("    token: t\n");
    text.replace(text.find("current-context: west\n"), 22, "");
    world.write_west(text);
    const CredentialDecision decision = world.provider()->decide("m", world.secret("west"), nullptr, nullptr);
    CHECK_THAT(decision.error, Catch::EndsWith("names no current-context"));
  }
}

TEST_CASE("clusterprofile mode never issues", "[credentials]") {
  World world;
  auto provider = world.provider();
  mkq::kueue::Object secret;  // clusterprofile workers have no Secret; a stray one named like theirs
  secret.api_version = "v1";
  secret.kind = "Secret";
  secret.name = "hub-kubeconfig";
  secret.namespace_name = "kueue-system";
  const CredentialDecision decision = provider->decide("m", secret, nullptr, nullptr);
  CHECK_FALSE(decision.issue);
  CHECK(decision.error.empty());
  CHECK_FALSE(provider->issue("m", secret, nullptr).ok());

  secret.name = "nobody-kubeconfig";
  CHECK(provider->decide("m", secret, nullptr, nullptr).error ==
        "secret kueue-system/nobody-kubeconfig on m belongs to no worker of the policy");
}

TEST_CASE("no token in any message or description", "[credentials]") {
  World world;
  world.secrets["env:SOUTH_TOKEN"] = std::string("pre-") + credtest::kTokenMarker;
  world.write_west(credtest::given_kubeconfig("    token: " + std::string(credtest::kTokenMarker) + "\n"));
  auto provider = world.provider();
  std::vector<std::string> texts;
  std::vector<Json> lives;
  for (const std::string worker : {"east", "north", "south", "west"}) {
    const Json live = issued(world, worker, *provider);
    lives.push_back(live);
    for (const Json* state : {static_cast<const Json*>(nullptr), &live}) {
      const CredentialDecision d = provider->decide("m", world.secret(worker), state, nullptr);
      texts.insert(texts.end(), {d.description, d.reason(), d.error});
    }
    Json tampered = live;
    tampered["metadata"]["annotations"]["mkq.dev/credential-server"] = credtest::kTokenMarker;  // nonsense
    const CredentialDecision d = provider->decide("m", world.secret(worker), &tampered, nullptr);
    texts.insert(texts.end(), {d.description, d.reason(), d.error});
  }
  for (auto& [name, client] : world.clients) {
    client->fail = mkq::kube::Error{500, "InternalError", "boom", nullptr};
  }
  for (const std::string worker : {"east", "north"}) {
    const auto result = provider->issue("m", world.secret(worker), nullptr);
    REQUIRE_FALSE(result.ok());
    texts.push_back(result.error().message);
  }
  for (const std::string& text : texts) {
    INFO(text);
    CHECK(text.find(credtest::kTokenMarker) == std::string::npos);
  }
  // The annotations never hold the value either.
  for (const Json& live : lives) {
    CHECK(live["metadata"]["annotations"].dump().find(credtest::kTokenMarker) == std::string::npos);
  }
}

TEST_CASE("the default secret reader: env and file, errors without the value", "[credentials]") {
  World world;
  ::setenv("MKQ_CREDENTIALS_TEST_TOKEN", (std::string("env-") + credtest::kTokenMarker).c_str(), 1);
  std::map<std::string, mkq::credentials::WorkerAccess> access;
  for (auto& [worker, endpoint] : world.endpoints) access[worker] = {endpoint, world.clients[worker].get()};
  // Re-compile with sources that exist on this machine.
  const std::string text = R"(manager "m" {}
worker "south" { credentials { token = secret("env:MKQ_CREDENTIALS_TEST_TOKEN") } }
worker "west" { credentials { mode = "kubeconfig", kubeconfig = secret("file:)" +
                           world.west_file.string() + R"(") } }
worker "gone" { credentials { token = secret("env:MKQ_CREDENTIALS_TEST_UNSET") } }
)";
  ::unsetenv("MKQ_CREDENTIALS_TEST_UNSET");
  auto rendered = kueuetest::render_text(text, "creds");
  INFO(rendered->messages());
  REQUIRE(rendered->state);
  access["gone"] = access["south"];
  const std::string given = credtest::given_kubeconfig("    token: file-token\n");
  world.write_west(given);
  auto provider = mkq::credentials::make_provider(*rendered->policy, access, {});
  const auto* manager = kueuetest::find_cluster(*rendered->state, "m");
  REQUIRE(manager != nullptr);

  const auto south =
      provider->issue("m", *kueuetest::find_object(*manager, "Secret", "south-kubeconfig", "kueue-system"), nullptr);
  REQUIRE(south.ok());
  CHECK(credtest::kubeconfig_of(south.value()).find(std::string("env-") + credtest::kTokenMarker) !=
        std::string::npos);

  const auto west =
      provider->issue("m", *kueuetest::find_object(*manager, "Secret", "west-kubeconfig", "kueue-system"), nullptr);
  REQUIRE(west.ok());
  CHECK(credtest::kubeconfig_of(west.value()) == given);

  const auto gone = provider->decide(
      "m", *kueuetest::find_object(*manager, "Secret", "gone-kubeconfig", "kueue-system"), nullptr, nullptr);
  CHECK(gone.error ==
        "worker gone: token secret(env:MKQ_CREDENTIALS_TEST_UNSET) cannot be read: "
        "environment variable MKQ_CREDENTIALS_TEST_UNSET is not set");
  ::unsetenv("MKQ_CREDENTIALS_TEST_TOKEN");
}

TEST_CASE("encodings", "[credentials]") {
  using mkq::credentials::base64_encode;
  for (const std::string s : {"", "a", "ab", "abc", "abcd", "\xff\x00\x10 binary"}) {
    CHECK(base64_decode(base64_encode(s)) == s);
  }
  CHECK(base64_encode("kubeconfig") == "a3ViZWNvbmZpZw==");
  CHECK_FALSE(base64_decode("a3Vi*mNv"));
  CHECK(sha256_digest("") == "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(mkq::credentials::format_rfc3339(credtest::at("2026-12-21T10:00:00.123+02:00")) ==
        "2026-12-21T08:00:00Z");
  CHECK_FALSE(mkq::credentials::parse_rfc3339("2026-12-21"));
  CHECK_FALSE(mkq::credentials::parse_rfc3339("2026-12-21T10:00:00"));
}

TEST_CASE("serviceaccount: settled revokes the older tokens once the new Secret is stored", "[credentials]") {
  World world;
  auto provider = world.provider();
  auto& east = *world.clients["east"];
  const Json first = issued(world, "east", *provider);
  CHECK(provider->settled("m", world.secret("east"), true, nullptr).ok());
  REQUIRE(east.anchors().size() == 1);
  const std::string first_anchor = east.anchors()[0];
  CHECK(first["metadata"]["annotations"]["mkq.dev/credential-anchor"] == first_anchor);
  // Another account's anchors are not touched.
  east.stored["kueue-system/other"] = {
      {"metadata", {{"name", "other"}, {"namespace", "kueue-system"}, {"labels", {{"mkq.dev/credential-anchor", "x"}}}}}};

  world.clock.set(credtest::at("2026-12-15T10:00:00Z"));
  const Json second = issued(world, "east", *provider);
  CHECK(east.anchors().size() == 2);  // both tokens valid until the new one is stored
  east.object_calls.clear();
  CHECK(provider->settled("m", world.secret("east"), true, nullptr).ok());
  CHECK(east.object_calls.at(0) == "list Secret kueue-system mkq.dev/credential-anchor=multikueue-sa");
  CHECK(east.object_calls.at(1) == "remove Secret kueue-system/" + first_anchor);
  CHECK(east.object_calls.size() == 2);
  REQUIRE(east.anchors().size() == 1);
  CHECK(second["metadata"]["annotations"]["mkq.dev/credential-anchor"] == east.anchors()[0]);
  CHECK(east.stored.count("kueue-system/other") == 1);
  // settled again (nothing pending): nothing happens.
  east.object_calls.clear();
  CHECK(provider->settled("m", world.secret("east"), true, nullptr).ok());
  CHECK(east.object_calls.empty());

  SECTION("a Secret the manager could not store: its new anchor goes, the stored one stays") {
    const Json third = issued(world, "east", *provider);
    CHECK(east.anchors().size() == 2);
    CHECK(provider->settled("m", world.secret("east"), false, nullptr).ok());
    REQUIRE(east.anchors().size() == 1);
    CHECK(second["metadata"]["annotations"]["mkq.dev/credential-anchor"] == east.anchors()[0]);
  }
  SECTION("a failed LIST or DELETE is reported without a token") {
    const Json third = issued(world, "east", *provider);
    east.fail_list = mkq::kube::Error{0, "ConnectionFailed", "connection refused", nullptr};
    const mkq::base::Result<void> listed = provider->settled("m", world.secret("east"), true, nullptr);
    REQUIRE_FALSE(listed.ok());
    CHECK(listed.error().address == "m/Secret/kueue-system/east-kubeconfig");
    CHECK(listed.error().message ==
          "cannot revoke the previous tokens of serviceaccount kueue-system/multikueue-sa on worker east: listing "
          "their anchor Secrets failed: connection refused");
    east.fail_list.reset();
    const Json fourth = issued(world, "east", *provider);
    east.fail_remove = mkq::kube::Error{403, "Forbidden", "forbidden", nullptr};
    const mkq::base::Result<void> removed = provider->settled("m", world.secret("east"), true, nullptr);
    REQUIRE_FALSE(removed.ok());
    const std::string& removing = removed.error().message;
    CHECK_THAT(removing, Catch::StartsWith("a previous token of serviceaccount kueue-system/multikueue-sa is still "
                                           "valid until the next apply revokes it: cannot delete the anchor Secret "));
    for (const std::string& token : east.tokens) CHECK(removing.find(token) == std::string::npos);
  }
}

TEST_CASE("serviceaccount: a failed token request leaves no anchor", "[credentials]") {
  World world;
  auto provider = world.provider();
  auto& east = *world.clients["east"];
  SECTION("the token request fails") {
    class Refusing : public credtest::TokenClient {
     public:
      using TokenClient::TokenClient;
      mkq::kube::Result<Json> request(const std::string&, const std::string&, const Json*,
                                      const std::string&) override {
        return mkq::kube::Error{422, "Invalid", "spec.boundObjectRef: invalid", nullptr};
      }
    };
    Refusing refusing([&] { return world.clock.now(); });
    std::map<std::string, mkq::credentials::WorkerAccess> access;
    access["east"] = {world.endpoints["east"], &refusing};
    auto odd = mkq::credentials::make_provider(world.policy(), access, {});
    const auto result = odd->issue("m", world.secret("east"), nullptr);
    REQUIRE_FALSE(result.ok());
    CHECK(refusing.stored.empty());
    CHECK(refusing.object_calls.back().rfind("remove Secret kueue-system/multikueue-sa-token-", 0) == 0);
    CHECK(odd->settled("m", world.secret("east"), false, nullptr).ok());  // nothing pending
  }
  SECTION("the anchor cannot be made") {
    east.fail_apply = mkq::kube::Error{403, "Forbidden", "secrets is forbidden", nullptr};
    const auto result = provider->issue("m", world.secret("east"), nullptr);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().status == 403);
    CHECK_THAT(result.error().message,
               Catch::Matches("worker east: cannot create the token's anchor Secret "
                              "kueue-system/multikueue-sa-token-[0-9]{14}-[0-9a-f]{8}: secrets is forbidden"));
    CHECK(east.calls.empty());  // no token requested
  }
}

TEST_CASE("serviceaccount: a credential without a live anchor is re-issued", "[credentials]") {
  World world;
  auto provider = world.provider();
  auto& east = *world.clients["east"];
  Json live = issued(world, "east", *provider);
  REQUIRE(provider->settled("m", world.secret("east"), true, nullptr).ok());

  SECTION("issued before anchors (no annotation)") {
    live["metadata"]["annotations"].erase("mkq.dev/credential-anchor");
    auto next = world.provider();
    const CredentialDecision decision = next->decide("m", world.secret("east"), &live, nullptr);
    CHECK(decision.issue);
    CHECK(decision.reason() == "not revocable (no anchor Secret)");
  }
  SECTION("its anchor was deleted: the token is refused") {
    east.stored.clear();
    auto next = world.provider();
    east.object_calls.clear();
    const CredentialDecision decision = next->decide("m", world.secret("east"), &live, nullptr);
    CHECK(decision.issue);
    CHECK(decision.reason() == "its anchor Secret is gone (token revoked)");
    CHECK(next->decide("m", world.secret("east"), &live, nullptr).issue);
    CHECK(east.object_calls.size() == 1);  // one LIST per worker and run
  }
  SECTION("the anchors cannot be listed: judged by the annotations alone") {
    east.fail_list = mkq::kube::Error{0, "ConnectionFailed", "connection refused", nullptr};
    auto next = world.provider();
    CHECK_FALSE(next->decide("m", world.secret("east"), &live, nullptr).issue);
  }
}

TEST_CASE("serviceaccount: the expiry counts the granted lifetime from mkq's clock", "[credentials]") {
  // The worker's clock is 13h behind mkq's (or a test moved mkq's clock): its
  // expirationTimestamp is earlier; the granted expirationSeconds counts.
  World world;
  class Behind : public credtest::TokenClient {
   public:
    using TokenClient::TokenClient;
  };
  const auto behind = [&] { return world.clock.now() - std::chrono::hours(13); };
  Behind client(behind);
  std::map<std::string, mkq::credentials::WorkerAccess> access;
  access["north"] = {world.endpoints["north"], &client};
  mkq::credentials::ProviderOptions options;
  options.clock = &world.clock;
  auto provider = mkq::credentials::make_provider(world.policy(), access, options);
  const auto result = provider->issue("m", world.secret("north"), nullptr);
  REQUIRE(result.ok());
  CHECK(result.value()["metadata"]["annotations"]["mkq.dev/credential-expires"] == "2026-11-23T10:00:00Z");
  CHECK_FALSE(provider->decide("m", world.secret("north"), &result.value(), nullptr).issue);
}

TEST_CASE("kubeconfig mode and pre-issued tokens make no anchors", "[credentials]") {
  World world;
  world.write_west(credtest::given_kubeconfig("    token: abc\n"));
  world.secrets["env:SOUTH_TOKEN"] = "south-token";
  auto provider = world.provider();
  for (const std::string worker : {"west", "south"}) {
    INFO(worker);
    REQUIRE(provider->issue("m", world.secret(worker), nullptr).ok());
    CHECK(provider->settled("m", world.secret(worker), true, nullptr).ok());
    CHECK(world.clients[worker]->object_calls.empty());
    CHECK(world.clients[worker]->stored.empty());
  }
}
