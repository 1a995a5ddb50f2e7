// The credential provider: decides at plan time whether a worker's kubeconfig
// Secret must be (re)written, and writes it at apply time.
//
// What mkq wrote is recognised by annotations on the Secret, never by keeping
// the value: mkq.dev/credential-digest is the SHA-256 of the kubeconfig mkq
// stored, so a Secret whose data no longer matches it was changed outside mkq.
//
// Revocation. Every TokenRequest token mkq asks for is bound (spec.boundObjectRef)
// to an "anchor": an empty Secret mkq creates for it on the worker, in Kueue's
// namespace, with mkq's own credentials (never the ServiceAccount's, whose
// ClusterRole gains no Secret access), labelled mkq.dev/credential-anchor=<sa>
// and owned by the ServiceAccount (so Kubernetes' garbage collector removes
// the anchors with the account). Kubernetes refuses a bound token once its
// object is gone. So: issue() creates the anchor, then the token; once the
// manager's Secret holding the new kubeconfig is stored, settled() deletes
// every other anchor of the account -- the old tokens stop working at once,
// with no ServiceAccount change and no gap; when it could not be stored, it
// deletes the new anchor instead. The issued Secret names its anchor
// (mkq.dev/credential-anchor), and the next plan re-issues a credential whose
// anchor is gone (one LIST of anchors per worker and run).
//
// Transactions. A token that replaces others is a transaction recorded in the
// state (reconcile::CredentialJournal, state::CredentialIntent): before the
// anchor is created, the intent names the worker, the anchors whose tokens go
// and the anchor of the new one; settled() clears it once every other anchor
// is deleted. Whatever interrupts it (kill -9 between storing the new token
// and deleting the old anchors, or before the new token is stored), the next
// plan finds more than one anchor for the account -- or an unfinished intent
// naming anchors still there -- and plans the deletion of every anchor but
// the one the manager's Secret names (leftovers()): "revoke the previous
// token of worker1".
#include "runtime/credentials/provider.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "compiler/facts/kueue.h"
#include "runtime/credentials/encoding.h"
#include "runtime/credentials/kubeconfig_text.h"
#include "runtime/credentials/secret_source.h"

namespace mkq::credentials {

namespace {

namespace model = sema::model;
using kube::Json;
using Cause = reconcile::CredentialCause;

constexpr const char* kCredential = "mkq.dev/credential";       // "placeholder" | "issued"
constexpr const char* kExpires = "mkq.dev/credential-expires";  // RFC 3339
constexpr const char* kServer = "mkq.dev/credential-server";    // the worker's server when issued
constexpr const char* kCaDigest =
    "mkq.dev/credential-ca-digest";                           // sha256 of the worker's CA PEM when issued
constexpr const char* kDigest = "mkq.dev/credential-digest";  // sha256 of the kubeconfig written
constexpr const char* kAnchor = "mkq.dev/credential-anchor";  // the worker Secret the token is bound to;
                                                              // also the anchors' label (value: the account)
constexpr const char* kAnchorFor = "mkq.dev/credential-for";  // on an anchor: "<namespace>/<name>" of the
                                                              // manager's Secret that holds its token
const std::string kKubeconfigKey(facts::kKubeconfigSecretKey);

const kube::ResourceType& secret_type() {
  static const kube::ResourceType type{"", "v1", "Secret", "secrets", true};
  return type;
}
const kube::ResourceType& service_account_type() {
  static const kube::ResourceType type{"", "v1", "ServiceAccount", "serviceaccounts", true};
  return type;
}

bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// A valid label value (<= 63, alphanumeric at both ends) naming the account:
// the account's name when it is one, else a prefix and a digest.
std::string anchor_label(const std::string& account) {
  if (account.size() <= facts::kMaxLabelValueLength && account.find('.') == std::string::npos) return account;
  std::string prefix = account.substr(0, 40);
  while (!prefix.empty() && !is_alnum(prefix.back())) prefix.pop_back();
  return prefix + "-" + sha256_digest(account).substr(7, 16);
}

// "<account>-token-<UTC yyyymmddhhmmss>-<8 hex>": a DNS subdomain name <= 253.
std::string anchor_name(const std::string& account, std::chrono::system_clock::time_point now) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d%H%M%S", &utc);
  static std::mutex random_lock;
  static std::mt19937_64 random{std::random_device{}()};
  unsigned value = 0;
  {
    const std::lock_guard<std::mutex> hold(random_lock);
    value = static_cast<unsigned>(random() & 0xffffffffU);
  }
  const std::string tail = fmt::format("-token-{}-{:08x}", stamp, value);
  std::string head = account.substr(0, facts::kMaxDns1123SubdomainLength - tail.size());
  while (!head.empty() && !is_alnum(head.back())) head.pop_back();
  return head + tail;
}

std::string annotation(const Json& object, const char* key) {
  const auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object()) return "";
  const auto annotations = metadata->find("annotations");
  if (annotations == metadata->end() || !annotations->is_object()) return "";
  const auto value = annotations->find(key);
  return value != annotations->end() && value->is_string() ? value->get<std::string>() : "";
}

// The kubeconfig a live Secret holds (data is base64; a fake server may keep stringData).
std::optional<std::string> live_kubeconfig(const Json& live) {
  const auto data = live.find("data");
  if (data != live.end() && data->is_object()) {
    const auto value = data->find(kKubeconfigKey);
    if (value != data->end() && value->is_string()) return base64_decode(value->get<std::string>());
  }
  const auto string_data = live.find("stringData");
  if (string_data != live.end() && string_data->is_object()) {
    const auto value = string_data->find(kKubeconfigKey);
    if (value != string_data->end() && value->is_string()) return value->get<std::string>();
  }
  return std::nullopt;
}

// True when the live Secret holds exactly what mkq last wrote into it.
bool written_by_mkq(const Json& live) {
  const std::string digest = annotation(live, kDigest);
  const std::optional<std::string> value = live_kubeconfig(live);
  return !digest.empty() && value && sha256_digest(*value) == digest;
}

std::string trim_token(std::string token) {
  while (!token.empty() &&
         (token.back() == '\n' || token.back() == '\r' || token.back() == ' ' || token.back() == '\t')) {
    token.pop_back();
  }
  std::size_t start = 0;
  while (start < token.size() && (token[start] == ' ' || token[start] == '\t')) ++start;
  return token.substr(start);
}

// What mkq writes for a worker whose kubeconfig it can compute without the
// worker's API (kubeconfig mode, a pre-issued token): the value and the
// annotations that describe it.
struct Computed {
  std::string kubeconfig;
  std::vector<std::pair<std::string, std::string>> annotations;
};

class Provider final : public reconcile::CredentialProvider {
 public:
  Provider(const model::Policy& policy, std::map<std::string, WorkerAccess> workers, ProviderOptions options)
      : workers_(policy.workers),
        kueue_namespace_(policy.kueue.namespace_name.value),
        access_(std::move(workers)),
        options_(std::move(options)) {
    if (!options_.read_secret) options_.read_secret = read_secret_source;
  }

  reconcile::CredentialDecision decide(const std::string& cluster, const kueue::Object& secret,
                                       const Json* live, const state::InventoryEntry* recorded) override;
  std::vector<reconcile::StaleCredential> leftovers(const std::string& cluster, const kueue::Object& secret,
                                                    const Json* live) override;
  // The Secret's document, or an Error about the Secret (its address).
  kube::Result<Json> issue(const std::string& cluster, const kueue::Object& secret,
                           reconcile::CredentialJournal* journal) override;
  // What could not be revoked or recorded, as an Error about the Secret (its address).
  base::Result<void> settled(const std::string& cluster, const kueue::Object& secret, bool stored,
                             reconcile::CredentialJournal* journal) override;
  std::vector<reconcile::LiveCredentials> live_credentials() override;
  void unreachable(const std::string& cluster) override {
    const std::lock_guard<std::mutex> hold(lock_);
    listed_[cluster] = std::nullopt;  // its anchors are unknown: never listed in this run
  }

 private:
  // The anchor issue() created for a worker's token, until settled() decides
  // its fate, and the anchors its transaction revokes besides the account's
  // labelled ones (those an earlier, unfinished intent named).
  struct Anchor {
    std::string name;
    std::string uid;
    std::vector<std::string> also_revokes;
  };
  // An anchor on the worker, as listed.
  struct AnchorSeen {
    std::string uid, resource_version;
    std::string created;  // creationTimestamp (RFC 3339 UTC, so ordered as text)
  };
  using Anchors = std::map<std::string, AnchorSeen>;  // by name

  const model::Worker* worker_for(const kueue::Object& secret) const {
    if (secret.namespace_name != kueue_namespace_) return nullptr;
    for (const model::Worker& worker : workers_) {
      if (worker.secret_name.value == secret.name) return &worker;
    }
    return nullptr;
  }

  bool rotation_forced(const model::Worker& worker) const {
    if (!options_.force_rotate) return false;
    return options_.rotate_only.empty() || std::find(options_.rotate_only.begin(), options_.rotate_only.end(),
                                                     worker.name) != options_.rotate_only.end();
  }

  // The secret's value, or an Error "worker W: kubeconfig secret(file:...) cannot be read: ...".
  kube::Result<std::string> read(const model::Worker& worker, const char* field, const sema::SecretRef& ref) const {
    kube::Result<std::string> value = options_.read_secret(ref.source);
    if (value) return value;
    const std::string& why = value.error().message;
    return kube::Error::config("worker " + worker.name + ": " + field + " secret(" + ref.source +
                               ") cannot be read: " + (why.empty() ? "no value" : why));
  }

  // The worker's endpoint with a CA (never null), or an Error saying why there is none.
  kube::Result<const WorkerAccess*> access_for(const model::Worker& worker) const {
    const auto found = access_.find(worker.name);
    if (found == access_.end()) return kube::Error::config("worker " + worker.name + ": mkq has no connection to it");
    if (found->second.endpoint.cluster.certificate_authority_data.empty()) {
      return kube::Error::config("worker " + worker.name +
                                 ": its kubeconfig names no certificate authority; Kueue needs "
                                 "certificate-authority-data");
    }
    return &found->second;
  }

  kube::Result<Computed> compute(const model::Worker& worker) const;
  kube::Result<Json> issue_for(const std::string& cluster, const kueue::Object& secret,
                               reconcile::CredentialJournal* journal);
  reconcile::CredentialDecision decide_computed(const model::Worker& worker, const Json* live) const;
  reconcile::CredentialDecision decide_token_request(const model::Worker& worker, const Json* live) const;
  kube::Result<Json> request_token(const model::Worker& worker, const kueue::Object& secret,
                                   reconcile::CredentialJournal* journal);
  kube::Result<Anchor> create_anchor(const model::Worker& worker, const WorkerAccess& access,
                                     const kueue::Object& secret, const std::string& name,
                                     const std::string& account_uid) const;
  base::Result<void> delete_anchor(const model::Worker& worker, const WorkerAccess& access,
                                   const std::string& name) const;
  base::Result<void> settle(const model::Worker& worker, bool stored, reconcile::CredentialJournal* journal);
  // The worker's anchors on it (one LIST per worker and run, cached), or nullopt when unknown.
  std::optional<Anchors> anchors_on(const model::Worker& worker) const;
  // The worker's unfinished intent from the state, or nullptr.
  const state::CredentialIntent* unfinished_for(const model::Worker& worker) const {
    for (const state::CredentialIntent& intent : options_.unfinished) {
      if (intent.worker == worker.name) return &intent;
    }
    return nullptr;
  }
  // An anchor an unfinished intent names, read by name (it may carry the label
  // of an account the policy no longer names); nullopt when it is not there
  // or not an anchor of mkq's.
  std::optional<AnchorSeen> named_anchor(const WorkerAccess& access, const std::string& name) const;
  static AnchorSeen seen_of(const Json& metadata) {
    return AnchorSeen{metadata.value("uid", std::string()), metadata.value("resourceVersion", std::string()),
                      metadata.value("creationTimestamp", std::string())};
  }
  // Whether the worker's credentials are TokenRequest tokens mkq anchors (and so can revoke).
  static bool anchored(const model::Worker& worker) {
    return worker.credentials.mode.value == model::CredentialsMode::ServiceAccount && !worker.credentials.token;
  }
  Json secret_document(const kueue::Object& desired, const std::string& kubeconfig,
                       const std::vector<std::pair<std::string, std::string>>& annotations) const;

  std::string token_description(const model::Worker& worker,
                                std::chrono::system_clock::time_point expires) const {
    return "token for " + worker.credentials.service_account.value + ", expires " + format_date(expires);
  }

  std::vector<model::Worker> workers_;
  std::string kueue_namespace_;
  std::map<std::string, WorkerAccess> access_;
  ProviderOptions options_;
  mutable std::mutex lock_;                                                    // guards the two below
  std::map<std::string, Anchor> pending_;                                      // worker -> the anchor just made
  mutable std::map<std::string, std::optional<Anchors>> listed_;              // worker -> its anchors
};

kube::Result<Computed> Provider::compute(const model::Worker& worker) const {
  const model::Credentials& credentials = worker.credentials;
  if (credentials.mode.value == model::CredentialsMode::Kubeconfig) {
    if (!credentials.kubeconfig) {
      return kube::Error::config("worker " + worker.name + ": kubeconfig mode without a kubeconfig secret");
    }
    const sema::SecretRef& ref = credentials.kubeconfig->value;
    kube::Result<std::string> text = read(worker, "kubeconfig", ref);
    if (!text) return text.error();
    if (const base::Result<void> accepted = kueue_accepts_kubeconfig(*text); !accepted) {
      return kube::Error::config("worker " + worker.name + ": kubeconfig secret(" + ref.source +
                                 ") is one Kueue refuses: " + accepted.error().message);
    }
    Computed out;
    out.annotations.emplace_back(kDigest, sha256_digest(*text));
    out.kubeconfig = std::move(text).value();
    return out;
  }
  // A pre-issued token.
  const sema::SecretRef& ref = credentials.token->value;
  kube::Result<std::string> token = read(worker, "token", ref);
  if (!token) return token.error();
  const std::string clean = trim_token(std::move(token).value());
  if (clean.empty()) return kube::Error::config("worker " + worker.name + ": token secret(" + ref.source + ") is empty");
  const kube::Result<const WorkerAccess*> access = access_for(worker);
  if (!access) return access.error();
  const kube::ClusterEntry& endpoint = access.value()->endpoint.cluster;
  Computed out;
  out.kubeconfig =
      worker_kubeconfig(worker.name, endpoint.server, endpoint.certificate_authority_data, clean);
  out.annotations.emplace_back(kServer, endpoint.server);
  out.annotations.emplace_back(kCaDigest, sha256_digest(endpoint.certificate_authority_data));
  out.annotations.emplace_back(kDigest, sha256_digest(out.kubeconfig));
  return out;
}

// Kubeconfig mode and a pre-issued token: what mkq would write is known now,
// so the live Secret is compared with it.
reconcile::CredentialDecision Provider::decide_computed(const model::Worker& worker, const Json* live) const {
  reconcile::CredentialDecision decision;
  const bool kubeconfig_mode = worker.credentials.mode.value == model::CredentialsMode::Kubeconfig;
  decision.description = kubeconfig_mode ? "kubeconfig from " + worker.credentials.kubeconfig->value.source
                                         : "token for " + worker.credentials.service_account.value +
                                               " from " + worker.credentials.token->value.source;
  const kube::Result<Computed> want = compute(worker);
  if (!want) {
    decision.error = want.error().message;
    return decision;
  }
  decision.issue = true;
  if (live == nullptr) {
    decision.cause = Cause::NotOnCluster;
    return decision;
  }
  if (annotation(*live, kCredential) == "placeholder") {
    decision.cause = Cause::Placeholder;
    return decision;
  }
  const std::optional<std::string> have = live_kubeconfig(*live);
  if (!have || *have != want->kubeconfig) {
    if (!written_by_mkq(*live)) {
      decision.cause = Cause::ChangedOutsideMkq;
    } else if (kubeconfig_mode) {
      decision.cause = Cause::PolicyKubeconfigChanged;
    } else if (annotation(*live, kServer) != access_.at(worker.name).endpoint.cluster.server) {
      decision.cause = Cause::ServerChanged;
    } else if (annotation(*live, kCaDigest) !=
               sha256_digest(access_.at(worker.name).endpoint.cluster.certificate_authority_data)) {
      decision.cause = Cause::CaChanged;
    } else {
      decision.cause = Cause::PolicyTokenChanged;
    }
    return decision;
  }
  if (rotation_forced(worker)) {
    decision.cause = Cause::RotationRequested;
    return decision;
  }
  decision.issue = false;
  decision.cause = Cause::Current;
  return decision;
}

// A token from the TokenRequest API: the live Secret's annotations say what it
// holds, and when it expires.
reconcile::CredentialDecision Provider::decide_token_request(const model::Worker& worker,
                                                             const Json* live) const {
  reconcile::CredentialDecision decision;
  const auto now = options_.clock->now();
  const auto lifetime = std::chrono::milliseconds(worker.credentials.lifetime.value.millis());
  decision.description = token_description(
      worker, std::chrono::time_point_cast<std::chrono::system_clock::duration>(now + lifetime));
  const kube::Result<const WorkerAccess*> access = access_for(worker);
  if (!access) {
    decision.error = access.error().message;
    return decision;
  }
  decision.issue = true;
  const kube::ClusterEntry& endpoint = access.value()->endpoint.cluster;
  const auto cause = [&]() -> Cause {
    if (live == nullptr) return Cause::NotOnCluster;
    if (annotation(*live, kCredential) == "placeholder") return Cause::Placeholder;
    if (!written_by_mkq(*live)) return Cause::ChangedOutsideMkq;
    if (annotation(*live, kServer) != endpoint.server) return Cause::ServerChanged;
    if (annotation(*live, kCaDigest) != sha256_digest(endpoint.certificate_authority_data)) {
      return Cause::CaChanged;
    }
    // A token that is not bound to an anchor cannot be revoked; one whose anchor is gone is refused.
    const std::string anchor = annotation(*live, kAnchor);
    if (anchor.empty()) return Cause::NotRevocable;
    if (const auto anchors = anchors_on(worker); anchors && anchors->count(anchor) == 0) {
      return Cause::AnchorGone;
    }
    const auto expires = parse_rfc3339(annotation(*live, kExpires));
    if (!expires) return Cause::ExpiryUnknown;
    if (*expires <= now) return Cause::Expired;
    const auto window = std::chrono::milliseconds(worker.credentials.rotate_before.value.millis());
    if (*expires - now <= window) {
      decision.window = worker.credentials.rotate_before.value.to_string();
      return Cause::ExpiresWithin;
    }
    if (rotation_forced(worker)) return Cause::RotationRequested;
    decision.description = token_description(worker, *expires);
    return Cause::Current;
  }();
  decision.cause = cause;
  if (cause == Cause::Current) {
    decision.issue = false;
    return decision;
  }
  if (access.value()->client == nullptr)
    decision.error = "worker " + worker.name + " is unreachable: cannot request a token";
  return decision;
}

reconcile::CredentialDecision Provider::decide(const std::string& cluster, const kueue::Object& secret,
                                               const Json* live, const state::InventoryEntry* recorded) {
  (void)recorded;  // the Secret's own annotations say what mkq wrote
  reconcile::CredentialDecision decision;
  try {
    const model::Worker* worker = worker_for(secret);
    if (worker == nullptr) {
      decision.error = "secret " + secret.namespace_name + "/" + secret.name + " on " + cluster +
                       " belongs to no worker of the policy";
      return decision;
    }
    switch (worker->credentials.mode.value) {
      case model::CredentialsMode::ClusterProfile:
        decision.description = "credentials from ClusterProfile " + worker->credentials.cluster_profile.value;
        decision.cause = Cause::ClusterProfile;
        return decision;
      case model::CredentialsMode::Kubeconfig:
        return decide_computed(*worker, live);
      case model::CredentialsMode::ServiceAccount:
        if (worker->credentials.token) return decide_computed(*worker, live);
        return decide_token_request(*worker, live);
    }
  } catch (const std::exception& e) {
    // A malformed live object must not crash the plan.
    decision = {};
    decision.error = "secret " + secret.namespace_name + "/" + secret.name + ": " + e.what();
  }
  return decision;
}

// What a failed call about the account says, naming the worker.
kube::Error account_error(kube::Error failed, const model::Worker& worker, const std::string& account) {
  if (failed.transport()) {
    failed.message = "worker " + worker.name + " is unreachable: " + failed.message;
  } else if (failed.status == 404) {
    failed.message = "worker " + worker.name + ": " + account + " not found: " + failed.message;
  } else if (failed.status == 403) {
    failed.message =
        "worker " + worker.name + ": mkq may not request tokens for " + account + ": " + failed.message;
  } else {
    failed.message = "worker " + worker.name + ": token request for " + account + " failed: " + failed.message;
  }
  return failed;
}

kube::Result<Provider::Anchor> Provider::create_anchor(const model::Worker& worker, const WorkerAccess& access,
                                                       const kueue::Object& secret, const std::string& name,
                                                       const std::string& account_uid) const {
  const std::string& service_account = worker.credentials.service_account.value;
  Json metadata = {{"name", name},
                   {"namespace", kueue_namespace_},
                   {"labels",
                    {{std::string(facts::kManagedByLabel), facts::kManagedByValue},
                     {kAnchor, anchor_label(service_account)}}},
                   {"annotations", {{kAnchorFor, secret.namespace_name + "/" + secret.name}}}};
  if (!account_uid.empty()) {
    // Kubernetes' garbage collector deletes the anchors with their account.
    metadata["ownerReferences"] = Json::array({{{"apiVersion", "v1"},
                                                {"kind", "ServiceAccount"},
                                                {"name", service_account},
                                                {"uid", account_uid}}});
  }
  const Json document = {{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", metadata}, {"type", "Opaque"}};
  kube::ApplyOptions options;
  options.field_manager = "mkq";
  kube::Result<Json> answer = access.client->apply(secret_type(), document, options);
  const std::string what = "worker " + worker.name + ": cannot create the token's anchor Secret " +
                           kueue_namespace_ + "/" + name + ": ";
  if (!answer) {
    kube::Error failed = answer.error();
    failed.message = what + failed.message;
    return failed;
  }
  const Json& created = answer.value();
  const Json answered = created.is_object() ? created.value("metadata", Json::object()) : Json::object();
  const std::string uid = answered.is_object() ? answered.value("uid", std::string()) : std::string();
  if (uid.empty()) return kube::Error{0, "InvalidResponse", what + "the answer has no uid", nullptr};
  return Anchor{name, uid, {}};
}

base::Result<void> Provider::delete_anchor(const model::Worker& worker, const WorkerAccess& access,
                                           const std::string& name) const {
  kube::DeleteOptions options;
  kube::Result<Json> gone = access.client->remove(secret_type(), kueue_namespace_, name, options);
  if (gone || gone.error().not_found()) return {};
  kube::Error& error = gone.error();
  error.message = "cannot delete the anchor Secret " + kueue_namespace_ + "/" + name + " on worker " + worker.name +
                  ": " + error.message;
  return std::move(error);
}

std::optional<Provider::Anchors> Provider::anchors_on(const model::Worker& worker) const {
  const auto access = access_.find(worker.name);
  if (access == access_.end() || access->second.client == nullptr) return std::nullopt;
  const std::lock_guard<std::mutex> hold(lock_);
  const auto cached = listed_.find(worker.name);
  if (cached != listed_.end()) return cached->second;
  kube::ListOptions options;
  options.namespace_name = kueue_namespace_;
  options.label_selector = std::string(kAnchor) + "=" + anchor_label(worker.credentials.service_account.value);
  const kube::Result<kube::ObjectList> listed = access->second.client->list(secret_type(), options);
  std::optional<Anchors> anchors;
  if (listed) {
    anchors.emplace();
    for (const Json& item : listed.value().items) {
      if (!item.is_object() || !item.contains("metadata") || !item["metadata"].is_object()) continue;
      const Json& metadata = item["metadata"];
      if (metadata.contains("deletionTimestamp")) continue;  // going: its tokens are refused
      const std::string name = metadata.value("name", std::string());
      if (!name.empty()) {
        (*anchors)[name] = seen_of(metadata);
      }
    }
  }
  listed_[worker.name] = anchors;  // unknown (nullopt) is cached too: one LIST per worker and run
  return anchors;
}

std::optional<Provider::AnchorSeen> Provider::named_anchor(const WorkerAccess& access, const std::string& name) const {
  if (access.client == nullptr || name.empty()) return std::nullopt;
  const kube::Result<Json> found = access.client->get(secret_type(), kueue_namespace_, name);
  if (!found || !found.value().is_object()) return std::nullopt;
  const Json metadata = found.value().value("metadata", Json::object());
  if (!metadata.is_object() || metadata.contains("deletionTimestamp")) return std::nullopt;
  const Json labels = metadata.value("labels", Json::object());
  // Only an anchor mkq made: never a Secret of someone else's that took the name.
  if (!labels.is_object() || !labels.contains(kAnchor) || labels.value("app.kubernetes.io/managed-by", "") != "mkq") {
    return std::nullopt;
  }
  return seen_of(metadata);
}

kube::Result<Json> Provider::request_token(const model::Worker& worker, const kueue::Object& secret,
                                           reconcile::CredentialJournal* journal) {
  const kube::Result<const WorkerAccess*> reached = access_for(worker);
  if (!reached) return reached.error();
  const WorkerAccess* access = reached.value();
  const std::string& service_account = worker.credentials.service_account.value;
  const std::string account = "serviceaccount " + kueue_namespace_ + "/" + service_account;
  if (access->client == nullptr) {
    return kube::Error{0, "ConnectionFailed",
                       "worker " + worker.name + " is unreachable: cannot request a token for " + account,
                       nullptr};
  }
  // The account first: its uid owns the anchor, and a missing account leaves no anchor behind.
  const kube::Result<Json> found = access->client->get(service_account_type(), kueue_namespace_, service_account);
  if (!found) return account_error(found.error(), worker, account);
  const Json& found_metadata =
      found.value().is_object() ? found.value().value("metadata", Json::object()) : Json::object();
  const std::string account_uid =
      found_metadata.is_object() ? found_metadata.value("uid", std::string()) : std::string();
  // The transaction is recorded before anything changes on the worker: the
  // anchor to create and every anchor whose token goes once the new one is
  // stored (the account's, and those an unfinished intent still names).
  const std::string name = anchor_name(service_account, options_.clock->now());
  state::CredentialIntent intent;
  intent.worker = worker.name;
  intent.secret = secret.namespace_name + "/" + secret.name;
  intent.account = kueue_namespace_ + "/" + service_account;
  intent.issues = name;
  std::vector<std::string> also_revokes;
  if (const std::optional<Anchors> anchors = anchors_on(worker)) {
    for (const auto& [existing, seen] : *anchors) intent.revokes.push_back(existing);
  }
  if (const state::CredentialIntent* earlier = unfinished_for(worker)) {
    std::vector<std::string> named = earlier->revokes;
    named.push_back(earlier->issues);
    for (const std::string& other : named) {
      if (other.empty() || std::find(intent.revokes.begin(), intent.revokes.end(), other) != intent.revokes.end()) {
        continue;
      }
      if (!named_anchor(*access, other)) continue;  // gone, or not an anchor of mkq's: never deleted
      intent.revokes.push_back(other);
      also_revokes.push_back(other);
    }
  }
  if (journal != nullptr) {
    if (const base::Result<void> begun = journal->begin(intent); !begun) {
      return kube::Error(0, state::kStateError,
                         "worker " + worker.name +
                             ": cannot record the rotation in the state, so nothing was issued: " +
                             base::describe(begun.error()));
    }
  }
  kube::Result<Anchor> anchor = create_anchor(worker, *access, secret, name, account_uid);
  if (!anchor) return anchor.error();
  anchor.value().also_revokes = std::move(also_revokes);

  const auto lifetime = std::chrono::milliseconds(worker.credentials.lifetime.value.millis());
  const std::int64_t seconds =
      std::max<std::int64_t>(1, std::chrono::duration_cast<std::chrono::seconds>(lifetime).count());
  const Json body = {{"apiVersion", "authentication.k8s.io/v1"},
                     {"kind", "TokenRequest"},
                     {"spec",
                      {{"expirationSeconds", seconds},
                       {"boundObjectRef",
                        {{"kind", "Secret"},
                         {"apiVersion", "v1"},
                         {"name", anchor.value().name},
                         {"uid", anchor.value().uid}}}}}};
  const std::string path =
      "/api/v1/namespaces/" + kueue_namespace_ + "/serviceaccounts/" + service_account + "/token";
  const auto requested = options_.clock->now();
  kube::Result<Json> answer = access->client->request("POST", path, &body, "application/json");
  const auto abandon = [&](kube::Error failed) -> kube::Result<Json> {
    // Nothing will use the anchor: best effort; when it stays, so does the
    // intent, and the next plan revokes it.
    if (delete_anchor(worker, *access, anchor.value().name).ok() && journal != nullptr) {
      (void)journal->finish(worker.name);
    }
    return failed;
  };
  if (!answer) return abandon(account_error(answer.error(), worker, account));
  const Json& status =
      answer.value().is_object() ? answer.value().value("status", Json::object()) : Json::object();
  const std::string token = status.is_object() ? status.value("token", std::string()) : std::string();
  if (token.empty()) {
    return abandon(kube::Error{
        0, "InvalidResponse", "worker " + worker.name + ": the token request for " + account + " answered no token",
        nullptr});
  }
  // The server may shorten the lifetime (--service-account-max-token-expiration):
  // its answer counts. The lifetime it granted (spec.expirationSeconds of the
  // answer) is counted from mkq's clock, the one the next plan compares with;
  // without it, the answer's expirationTimestamp.
  std::optional<std::chrono::system_clock::time_point> expires;
  const Json& answered_spec =
      answer.value().is_object() ? answer.value().value("spec", Json::object()) : Json::object();
  if (answered_spec.is_object() && answered_spec.contains("expirationSeconds") &&
      answered_spec["expirationSeconds"].is_number_integer() &&
      answered_spec["expirationSeconds"].get<std::int64_t>() > 0) {
    expires = std::chrono::time_point_cast<std::chrono::system_clock::duration>(
        requested + std::chrono::seconds(answered_spec["expirationSeconds"].get<std::int64_t>()));
  } else {
    expires = parse_rfc3339(status.value("expirationTimestamp", std::string()));
  }
  if (!expires)
    expires = std::chrono::time_point_cast<std::chrono::system_clock::duration>(requested + lifetime);

  const kube::ClusterEntry& endpoint = access->endpoint.cluster;
  const std::string kubeconfig =
      worker_kubeconfig(worker.name, endpoint.server, endpoint.certificate_authority_data, token);
  {
    const std::lock_guard<std::mutex> hold(lock_);
    pending_[worker.name] = anchor.value();
    const auto cached = listed_.find(worker.name);
    if (cached != listed_.end() && cached->second) (*cached->second)[anchor.value().name] = AnchorSeen{anchor.value().uid, "", ""};
  }
  return secret_document(secret, kubeconfig,
                         {{kExpires, format_rfc3339(*expires)},
                          {kServer, endpoint.server},
                          {kCaDigest, sha256_digest(endpoint.certificate_authority_data)},
                          {kDigest, sha256_digest(kubeconfig)},
                          {kAnchor, anchor.value().name}});
}

base::Result<void> Provider::settled(const std::string& cluster, const kueue::Object& secret, bool stored,
                                     reconcile::CredentialJournal* journal) {
  const std::string address = base::ObjectRef{cluster, "v1", "Secret", secret.namespace_name, secret.name}.address();
  try {
    const model::Worker* worker = worker_for(secret);
    if (worker == nullptr) return {};
    base::Result<void> done = settle(*worker, stored, journal);
    if (done) return done;
    return std::move(done.error()).about(address);
  } catch (const std::exception& e) {
    return base::Error(0, "", "secret " + secret.namespace_name + "/" + secret.name + ": " + e.what(), nullptr,
                       address);
  }
}

base::Result<void> Provider::settle(const model::Worker& worker, bool stored, reconcile::CredentialJournal* journal) {
  Anchor anchor;
  {
    const std::lock_guard<std::mutex> hold(lock_);
    const auto found = pending_.find(worker.name);
    if (found == pending_.end()) return {};  // not a TokenRequest credential issued by this run
    anchor = found->second;
    pending_.erase(found);
    listed_.erase(worker.name);  // what the worker holds changes now
  }
  const auto access = access_.find(worker.name);
  if (access == access_.end() || access->second.client == nullptr) return {};
  const std::string& service_account = worker.credentials.service_account.value;
  // The transaction is finished once nothing is left to revoke; else the
  // intent stays for the next plan.
  const auto finished = [&](base::Result<void> revoked) -> base::Result<void> {
    if (!revoked || journal == nullptr) return revoked;
    base::Result<void> done = journal->finish(worker.name);
    if (done) return done;
    base::Error& error = done.error();
    error.message = "the state could not record the rotation of worker " + worker.name + " as finished: " + error.message;
    return std::move(error);
  };
  if (!stored) {
    // The new token was never stored: nothing may use it.
    return finished(delete_anchor(worker, access->second, anchor.name));
  }
  kube::ListOptions options;
  options.namespace_name = kueue_namespace_;
  options.label_selector = std::string(kAnchor) + "=" + anchor_label(service_account);
  kube::Result<kube::ObjectList> listed = access->second.client->list(secret_type(), options);
  if (!listed) {
    kube::Error& error = listed.error();
    error.message = "cannot revoke the previous tokens of serviceaccount " + kueue_namespace_ + "/" + service_account +
                    " on worker " + worker.name + ": listing their anchor Secrets failed: " + error.message;
    return std::move(error);
  }
  std::vector<std::string> going = anchor.also_revokes;
  for (const Json& item : listed.value().items) {
    if (!item.is_object() || !item.contains("metadata") || !item["metadata"].is_object()) continue;
    const std::string name = item["metadata"].value("name", std::string());
    if (!name.empty() && std::find(going.begin(), going.end(), name) == going.end()) going.push_back(name);
  }
  std::vector<std::string> problems;
  for (const std::string& name : going) {
    if (name == anchor.name) continue;
    if (const base::Result<void> gone = delete_anchor(worker, access->second, name); !gone) {
      problems.push_back(gone.error().message);
    }
  }
  if (problems.empty()) return finished({});
  return base::Error(0, "", fmt::format("a previous token of serviceaccount {}/{} is still valid until the next apply "
                                        "revokes it: {}",
                                        kueue_namespace_, service_account, fmt::join(problems, "; ")));
}

std::vector<reconcile::StaleCredential> Provider::leftovers(const std::string& cluster, const kueue::Object& secret,
                                                            const Json* live) {
  (void)cluster;
  std::vector<reconcile::StaleCredential> out;
  try {
    const model::Worker* worker = worker_for(secret);
    if (worker == nullptr || !anchored(*worker)) return out;
    const auto access = access_.find(worker->name);
    if (access == access_.end() || access->second.client == nullptr) return out;
    // The one credential in use: the token the manager's Secret holds.
    const std::string current = live != nullptr ? annotation(*live, kAnchor) : "";
    const state::CredentialIntent* intent = unfinished_for(*worker);
    const std::optional<Anchors> anchors = anchors_on(*worker);
    // The Secret stores a token after its anchor is made, so an anchor newer
    // than the one in use was never stored; an older one is a previous token.
    std::string current_created;
    if (anchors && anchors->count(current) != 0) current_created = anchors->at(current).created;
    const auto add = [&](const std::string& name, const AnchorSeen& seen) {
      if (name == current) return;
      if (std::any_of(out.begin(), out.end(), [&](const auto& stale) { return stale.name == name; })) return;
      reconcile::StaleCredential stale;
      stale.worker = worker->name;
      stale.namespace_name = kueue_namespace_;
      stale.name = name;
      stale.uid = seen.uid;
      stale.resource_version = seen.resource_version;
      stale.never_stored = (intent != nullptr && intent->issues == name) ||
                           (!current_created.empty() && seen.created > current_created);
      out.push_back(std::move(stale));
    };
    if (anchors) {
      for (const auto& [name, seen] : *anchors) add(name, seen);
    }
    if (intent != nullptr) {
      std::vector<std::string> named = intent->revokes;
      named.push_back(intent->issues);
      for (const std::string& name : named) {
        if (name.empty() || name == current || (anchors && anchors->count(name) != 0)) continue;
        if (const std::optional<AnchorSeen> seen = named_anchor(access->second, name)) add(name, *seen);
      }
    }
  } catch (const std::exception&) {
    // A malformed answer must not crash the plan: nothing is known to revoke.
    out.clear();
  }
  return out;
}

std::vector<reconcile::LiveCredentials> Provider::live_credentials() {
  std::vector<reconcile::LiveCredentials> out;
  for (const model::Worker& worker : workers_) {
    if (!anchored(worker)) continue;
    reconcile::LiveCredentials credentials;
    credentials.worker = worker.name;
    credentials.account = kueue_namespace_ + "/" + worker.credentials.service_account.value;
    const auto access = access_.find(worker.name);
    std::optional<Anchors> anchors;
    if (access != access_.end() && access->second.client != nullptr) anchors = anchors_on(worker);
    if (anchors) {
      credentials.live = static_cast<int>(anchors->size());
    } else {
      credentials.error = "worker " + worker.name + " could not be read";
    }
    out.push_back(std::move(credentials));
  }
  return out;
}

kube::Result<Json> Provider::issue(const std::string& cluster, const kueue::Object& secret,
                                   reconcile::CredentialJournal* journal) {
  kube::Result<Json> issued = issue_for(cluster, secret, journal);
  if (issued) return issued;
  // Whatever failed (the worker's API, the state's journal, a secret source), it failed for this Secret.
  return std::move(issued.error())
      .about(base::ObjectRef{cluster, "v1", "Secret", secret.namespace_name, secret.name}.address());
}

kube::Result<Json> Provider::issue_for(const std::string& cluster, const kueue::Object& secret,
                                       reconcile::CredentialJournal* journal) {
  try {
    const model::Worker* worker = worker_for(secret);
    if (worker == nullptr) {
      return kube::Error::config("secret " + secret.namespace_name + "/" + secret.name + " on " + cluster +
                          " belongs to no worker of the policy");
    }
    switch (worker->credentials.mode.value) {
      case model::CredentialsMode::ClusterProfile:
        return kube::Error::config("worker " + worker->name + ": clusterprofile mode has no kubeconfig Secret");
      case model::CredentialsMode::ServiceAccount:
        if (!worker->credentials.token) return request_token(*worker, secret, journal);
        [[fallthrough]];
      case model::CredentialsMode::Kubeconfig: {
        const kube::Result<Computed> computed = compute(*worker);
        if (!computed) return computed.error();
        return secret_document(secret, computed->kubeconfig, computed->annotations);
      }
    }
    return kube::Error::config("worker " + worker->name + ": unknown credentials mode");
  } catch (const std::exception& e) {
    return kube::Error::config("secret " + secret.namespace_name + "/" + secret.name + ": " + e.what());
  }
}

Json Provider::secret_document(const kueue::Object& desired, const std::string& kubeconfig,
                               const std::vector<std::pair<std::string, std::string>>& annotations) const {
  Json document = desired.document;
  if (!document.is_object()) document = Json::object();
  document["apiVersion"] = "v1";
  document["kind"] = "Secret";
  document.erase("stringData");
  document.erase("data");
  Json& metadata = document["metadata"];
  if (!metadata.is_object()) metadata = Json::object();
  metadata["name"] = desired.name;
  metadata["namespace"] = desired.namespace_name;
  Json& written = metadata["annotations"];
  if (!written.is_object()) written = Json::object();
  // Describe only what this credential is: earlier annotations of another mode go.
  for (const char* key : {kExpires, kServer, kCaDigest, kDigest, kAnchor}) written.erase(key);
  written[kCredential] = "issued";
  for (const auto& [key, value] : annotations) written[key] = value;
  document["type"] = "Opaque";
  document["data"] = Json::object({{kKubeconfigKey, base64_encode(kubeconfig)}});
  return document;
}

}  // namespace

std::unique_ptr<reconcile::CredentialProvider> make_provider(const sema::model::Policy& policy,
                                                             std::map<std::string, WorkerAccess> workers,
                                                             ProviderOptions options) {
  return std::make_unique<Provider>(policy, std::move(workers), std::move(options));
}

std::optional<std::chrono::system_clock::time_point> recorded_expiry(const kube::Json& secret) {
  if (!secret.is_object()) return std::nullopt;
  return parse_rfc3339(annotation(secret, kExpires));
}

}  // namespace mkq::credentials
