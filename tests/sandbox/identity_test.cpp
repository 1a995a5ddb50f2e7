// Service-account identity (sandbox/identity.h, Cluster::authenticate_token):
// the TokenRequest API, legacy token Secrets, token verification.
#include <catch2/catch.hpp>
#include <ctime>

#include "sandbox/identity.h"
#include "sandbox/pki.h"
#include "tests/sandbox/api_test_support.h"

namespace {

using mkq::sandbox::Cluster;
using mkq::sandbox::ClusterOptions;
using mkq::sandbox::testing::body_of;
using mkq::sandbox::testing::request;
using nlohmann::json;

const std::string& test_key() {
  static const std::string key = mkq::sandbox::generate_signing_key();
  return key;
}

std::unique_ptr<Cluster> cluster_with(bool allow_short = false) {
  ClusterOptions options;
  options.service_account_key = test_key();
  options.ca_cert = "-----BEGIN CERTIFICATE-----\nTEST\n-----END CERTIFICATE-----\n";
  options.allow_short_tokens = allow_short;
  std::string error;
  auto c = Cluster::open("test", ":memory:", options, &error);
  REQUIRE(c);
  return c;
}

void create_sa(Cluster& c, const std::string& ns, const std::string& name) {
  if (c.handle(request("GET", "/api/v1/namespaces/" + ns)).status == 404) {
    REQUIRE(c.handle(request("POST", "/api/v1/namespaces", json{{"metadata", {{"name", ns}}}}.dump())).status == 201);
  }
  const json sa = {{"apiVersion", "v1"}, {"kind", "ServiceAccount"}, {"metadata", {{"name", name}}}};
  REQUIRE(c.handle(request("POST", "/api/v1/namespaces/" + ns + "/serviceaccounts", sa.dump())).status == 201);
}

mkq::sandbox::ApiResponse token_request(Cluster& c, const std::string& ns, const std::string& name, const json& spec) {
  const json body = {{"apiVersion", "authentication.k8s.io/v1"}, {"kind", "TokenRequest"}, {"spec", spec}};
  return c.handle(request("POST", "/api/v1/namespaces/" + ns + "/serviceaccounts/" + name + "/token", body.dump()));
}

std::string token_of(Cluster& c, const std::string& ns, const std::string& name, long long seconds = 3600) {
  const auto r = token_request(c, ns, name, {{"expirationSeconds", seconds}});
  REQUIRE(r.status == 201);
  return body_of(r)["status"]["token"].get<std::string>();
}

json claims_of(const std::string& token) {
  const auto first = token.find('.');
  const auto second = token.find('.', first + 1);
  return json::parse(*mkq::sandbox::base64url_decode(token.substr(first + 1, second - first - 1)));
}

}  // namespace

TEST_CASE("TokenRequest: a signed token for an existing ServiceAccount", "[sandbox][identity]") {
  auto c = cluster_with();
  create_sa(*c, "kueue-system", "multikueue-sa");
  const std::string uid =
      body_of(c->handle(request("GET", "/api/v1/namespaces/kueue-system/serviceaccounts/multikueue-sa")))["metadata"]["uid"];
  const auto r = token_request(*c, "kueue-system", "multikueue-sa", {{"expirationSeconds", 7200}});
  REQUIRE(r.status == 201);
  const json body = body_of(r);
  CHECK(body["kind"] == "TokenRequest");
  CHECK(body["apiVersion"] == "authentication.k8s.io/v1");
  CHECK(body["spec"]["expirationSeconds"] == 7200);
  CHECK(body["spec"]["audiences"] == json::array({"https://kubernetes.default.svc.cluster.local"}));
  const std::string token = body["status"]["token"];
  const json claims = claims_of(token);
  CHECK(claims["sub"] == "system:serviceaccount:kueue-system:multikueue-sa");
  CHECK(claims["iss"] == "https://kubernetes.default.svc.cluster.local");
  CHECK(claims["kubernetes.io"]["namespace"] == "kueue-system");
  CHECK(claims["kubernetes.io"]["serviceaccount"]["name"] == "multikueue-sa");
  CHECK(claims["kubernetes.io"]["serviceaccount"]["uid"] == uid);
  CHECK(claims["exp"].get<long long>() - claims["iat"].get<long long>() == 7200);
  CHECK(claims["nbf"] == claims["iat"]);
  CHECK(body["status"]["expirationTimestamp"].get<std::string>().size() == 20);

  const auto identity = c->authenticate_token(token);
  REQUIRE(identity);
  CHECK(identity->user == "system:serviceaccount:kueue-system:multikueue-sa");
  CHECK(identity->groups ==
        std::vector<std::string>{"system:serviceaccounts", "system:serviceaccounts:kueue-system", "system:authenticated"});

  // Discovery lists the subresource as kube-apiserver does.
  bool listed = false;
  const json discovery = body_of(c->handle(request("GET", "/api/v1")));
  for (const auto& resource : discovery["resources"]) {
    if (resource["name"] == "serviceaccounts/token") listed = resource["kind"] == "TokenRequest";
  }
  CHECK(listed);
}

TEST_CASE("TokenRequest: 404 without the ServiceAccount, 422 under ten minutes unless allowed", "[sandbox][identity]") {
  auto c = cluster_with();
  create_sa(*c, "ns1", "sa");
  const auto missing = token_request(*c, "ns1", "nobody", json::object());
  CHECK(missing.status == 404);
  CHECK(body_of(missing)["message"] == "serviceaccounts \"nobody\" not found");

  const auto shorter = token_request(*c, "ns1", "sa", {{"expirationSeconds", 599}});
  CHECK(shorter.status == 422);
  CHECK(body_of(shorter)["message"] ==
        "TokenRequest.authentication.k8s.io \"sa\" is invalid: spec.expirationSeconds: Invalid value: 599: may not "
        "specify a duration less than 10 minutes");
  CHECK(token_request(*c, "ns1", "sa", {{"expirationSeconds", 600}}).status == 201);
  // Default lifetime: one hour.
  CHECK(body_of(token_request(*c, "ns1", "sa", json::object()))["spec"]["expirationSeconds"] == 3600);

  auto test = cluster_with(true);
  create_sa(*test, "ns1", "sa");
  const auto one = token_request(*test, "ns1", "sa", {{"expirationSeconds", 1}});
  CHECK(one.status == 201);
  CHECK(token_request(*test, "ns1", "sa", {{"expirationSeconds", 0}}).status == 422);
}

TEST_CASE("token verification: signature, expiry, audience, a recreated ServiceAccount", "[sandbox][identity]") {
  auto c = cluster_with();
  create_sa(*c, "ns1", "sa");
  const std::string token = token_of(*c, "ns1", "sa");
  REQUIRE(c->authenticate_token(token));

  SECTION("a tampered signature or payload") {
    std::string tampered = token;  // a character in the middle of the signature
    char& ch = tampered[tampered.rfind('.') + 40];
    ch = ch == 'A' ? 'B' : 'A';
    CHECK_FALSE(c->authenticate_token(tampered));
    json claims = claims_of(token);
    claims["sub"] = "system:serviceaccount:ns1:admin";
    const auto first = token.find('.');
    const auto second = token.find('.', first + 1);
    const std::string forged = token.substr(0, first) + "." + mkq::sandbox::base64url(claims.dump()) + token.substr(second);
    CHECK_FALSE(c->authenticate_token(forged));
    CHECK_FALSE(c->authenticate_token("not-a-jwt"));
    CHECK_FALSE(c->authenticate_token(""));
  }
  SECTION("signed by another key") {
    const std::string other = mkq::sandbox::sign_jwt(claims_of(token), mkq::sandbox::generate_signing_key());
    CHECK_FALSE(c->authenticate_token(other));
  }
  SECTION("expired, or not yet valid") {
    json claims = claims_of(token);
    const long long now = static_cast<long long>(std::time(nullptr));
    claims["exp"] = now - 5;
    CHECK_FALSE(c->authenticate_token(mkq::sandbox::sign_jwt(claims, test_key())));
    claims["exp"] = now + 100;
    claims["nbf"] = now + 50;
    CHECK_FALSE(c->authenticate_token(mkq::sandbox::sign_jwt(claims, test_key())));
    claims["nbf"] = now;
    CHECK(c->authenticate_token(mkq::sandbox::sign_jwt(claims, test_key())));
  }
  SECTION("an audience other than the API server's") {
    const auto r = token_request(*c, "ns1", "sa", {{"audiences", {"vault"}}});
    REQUIRE(r.status == 201);
    CHECK_FALSE(c->authenticate_token(body_of(r)["status"]["token"].get<std::string>()));
  }
  SECTION("the ServiceAccount deleted, then re-created (a new uid)") {
    REQUIRE(c->handle(request("DELETE", "/api/v1/namespaces/ns1/serviceaccounts/sa")).status == 200);
    CHECK_FALSE(c->authenticate_token(token));
    create_sa(*c, "ns1", "sa");
    CHECK_FALSE(c->authenticate_token(token));
    CHECK(c->authenticate_token(token_of(*c, "ns1", "sa")));
  }
  SECTION("a token bound to a Secret dies with the Secret") {
    const json secret = {{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", {{"name", "anchor"}}}};
    REQUIRE(c->handle(request("POST", "/api/v1/namespaces/ns1/secrets", secret.dump())).status == 201);
    const auto r = token_request(*c, "ns1", "sa", {{"boundObjectRef", {{"kind", "Secret"}, {"apiVersion", "v1"}, {"name", "anchor"}}}});
    REQUIRE(r.status == 201);
    const std::string bound = body_of(r)["status"]["token"];
    CHECK(claims_of(bound)["kubernetes.io"]["secret"]["name"] == "anchor");
    CHECK(c->authenticate_token(bound));
    REQUIRE(c->handle(request("DELETE", "/api/v1/namespaces/ns1/secrets/anchor")).status == 200);
    CHECK_FALSE(c->authenticate_token(bound));
    CHECK(token_request(*c, "ns1", "sa", {{"boundObjectRef", {{"kind", "Secret"}, {"name", "anchor"}}}}).status == 404);
  }
}

TEST_CASE("legacy token Secrets are filled by the token controller", "[sandbox][identity]") {
  auto c = cluster_with();
  create_sa(*c, "kueue-system", "multikueue-sa");
  const json secret = {{"apiVersion", "v1"},
                       {"kind", "Secret"},
                       {"type", "kubernetes.io/service-account-token"},
                       {"metadata", {{"name", "multikueue-sa-token"}, {"annotations", {{"kubernetes.io/service-account.name", "multikueue-sa"}}}}}};
  REQUIRE(c->handle(request("POST", "/api/v1/namespaces/kueue-system/secrets", secret.dump())).status == 201);
  const json stored = body_of(c->handle(request("GET", "/api/v1/namespaces/kueue-system/secrets/multikueue-sa-token")));
  const std::string sa_uid =
      body_of(c->handle(request("GET", "/api/v1/namespaces/kueue-system/serviceaccounts/multikueue-sa")))["metadata"]["uid"];
  CHECK(stored["metadata"]["annotations"]["kubernetes.io/service-account.uid"] == sa_uid);
  REQUIRE(stored["data"].contains("token"));
  CHECK(stored["data"]["namespace"] == mkq::sandbox::base64("kueue-system"));
  CHECK(stored["data"]["ca.crt"] == mkq::sandbox::base64("-----BEGIN CERTIFICATE-----\nTEST\n-----END CERTIFICATE-----\n"));

  // Decode data.token (standard base64) through the JWT's own parts.
  std::string token;
  {
    const std::string b64 = stored["data"]["token"];
    std::string url = b64;
    for (char& ch : url) ch = ch == '+' ? '-' : ch == '/' ? '_' : ch;
    while (!url.empty() && url.back() == '=') url.pop_back();
    token = *mkq::sandbox::base64url_decode(url);
  }
  const json claims = claims_of(token);
  CHECK(claims["iss"] == "kubernetes/serviceaccount");
  CHECK_FALSE(claims.contains("exp"));
  CHECK(claims["kubernetes.io/serviceaccount/secret.name"] == "multikueue-sa-token");
  const auto identity = c->authenticate_token(token);
  REQUIRE(identity);
  CHECK(identity->user == "system:serviceaccount:kueue-system:multikueue-sa");

  // Deleting the Secret revokes the token; deleting the account deletes its token Secrets.
  const json second = {{"apiVersion", "v1"},
                       {"kind", "Secret"},
                       {"type", "kubernetes.io/service-account-token"},
                       {"metadata", {{"name", "second"}, {"annotations", {{"kubernetes.io/service-account.name", "multikueue-sa"}}}}}};
  REQUIRE(c->handle(request("POST", "/api/v1/namespaces/kueue-system/secrets", second.dump())).status == 201);
  REQUIRE(c->handle(request("DELETE", "/api/v1/namespaces/kueue-system/secrets/multikueue-sa-token")).status == 200);
  CHECK_FALSE(c->authenticate_token(token));
  REQUIRE(c->handle(request("DELETE", "/api/v1/namespaces/kueue-system/serviceaccounts/multikueue-sa")).status == 200);
  CHECK(c->handle(request("GET", "/api/v1/namespaces/kueue-system/secrets/second")).status == 404);

  // A Secret for an account that does not exist (yet) is left unfilled.
  const json orphan = {{"apiVersion", "v1"},
                       {"kind", "Secret"},
                       {"type", "kubernetes.io/service-account-token"},
                       {"metadata", {{"name", "orphan"}, {"annotations", {{"kubernetes.io/service-account.name", "later"}}}}}};
  REQUIRE(c->handle(request("POST", "/api/v1/namespaces/kueue-system/secrets", orphan.dump())).status == 201);
  CHECK_FALSE(body_of(c->handle(request("GET", "/api/v1/namespaces/kueue-system/secrets/orphan"))).contains("data"));
  create_sa(*c, "kueue-system", "later");
  CHECK(body_of(c->handle(request("GET", "/api/v1/namespaces/kueue-system/secrets/orphan")))["data"].contains("token"));
}
