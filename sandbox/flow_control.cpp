// API Priority and Fairness: classification, headers and the per-user limit (flow_control.h).
#include "sandbox/flow_control.h"

#include <openssl/sha.h>

#include <algorithm>
#include <map>
#include <utility>

namespace mkq::sandbox {

namespace {

// The default priority levels' nominalConcurrencyShares (kube-apiserver
// v1.33's bootstrap configuration; exempt has none).
constexpr int kShareSum = 245;  // system 30, leader-election 10, node-high 40, workload-high 40,
                                // workload-low 100, global-default 20, catch-all 5

bool has(const std::vector<std::string>& groups, const char* group) {
  return std::find(groups.begin(), groups.end(), group) != groups.end();
}

Flow flow_of(const char* schema, const char* level, int shares, const std::string& user) {
  Flow flow;
  flow.flow_schema = schema;
  flow.priority_level = level;
  flow.shares = shares;
  flow.user = user;
  return flow;
}

// A name-based UUID (RFC 4122 version 5 layout) of `kind/name`.
std::string stable_uid(const std::string& kind, const std::string& name) {
  const std::string text = "mkq-sandbox/flowcontrol.apiserver.k8s.io/" + kind + "/" + name;
  unsigned char digest[SHA_DIGEST_LENGTH];
  SHA1(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  digest[6] = static_cast<unsigned char>((digest[6] & 0x0f) | 0x50);
  digest[8] = static_cast<unsigned char>((digest[8] & 0x3f) | 0x80);
  static const char* hex = "0123456789abcdef";
  std::string uid;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) uid += '-';
    uid += hex[digest[i] >> 4];
    uid += hex[digest[i] & 15];
  }
  return uid;
}

}  // namespace

// The default flow schemas by matchingPrecedence, first match wins.
Flow classify_flow(const std::string& user, const std::vector<std::string>& groups, const std::string& path) {
  if (has(groups, "system:masters")) {
    Flow flow = flow_of("exempt", "exempt", 0, user);
    flow.exempt = true;
    return flow;
  }
  if (path == "/healthz" || path == "/readyz" || path == "/livez") {
    Flow flow = flow_of("probes", "exempt", 0, user);
    flow.exempt = true;
    return flow;
  }
  if (has(groups, "system:nodes")) return flow_of("system-nodes", "system", 30, user);
  if (user == "system:kube-controller-manager") return flow_of("kube-controller-manager", "workload-high", 40, user);
  if (user == "system:kube-scheduler") return flow_of("kube-scheduler", "workload-high", 40, user);
  if (user.rfind("system:serviceaccount:kube-system:", 0) == 0) {
    return flow_of("kube-system-service-accounts", "workload-high", 40, user);
  }
  if (has(groups, "system:serviceaccounts")) return flow_of("service-accounts", "workload-low", 100, user);
  if (has(groups, "system:authenticated") || has(groups, "system:unauthenticated")) {
    return flow_of("global-default", "global-default", 20, user);
  }
  Flow flow = flow_of("catch-all", "catch-all", 5, user);
  flow.rejects = true;
  return flow;
}

namespace {

// stable_uid of a flow schema or priority level, hashed once per thread:
// every answer carries two (a SHA-1 each was 3 % of the sandbox's CPU in a
// burst of writes), and the names are the few of the bootstrap configuration.
const std::string& cached_uid(const char* kind, const std::string& name) {
  thread_local std::map<std::pair<std::string, std::string>, std::string> uids;
  auto key = std::make_pair(std::string(kind), name);
  auto found = uids.find(key);
  if (found == uids.end()) found = uids.emplace(key, stable_uid(key.first, key.second)).first;
  return found->second;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> flow_headers(const Flow& flow) {
  // As Go's net/http writes them (canonical header case).
  return {{"X-Kubernetes-Pf-Flowschema-Uid", cached_uid("flowschemas", flow.flow_schema)},
          {"X-Kubernetes-Pf-Prioritylevel-Uid", cached_uid("prioritylevelconfigurations", flow.priority_level)}};
}

int FlowControl::seats(int shares) const {
  const long long product = static_cast<long long>(options_.concurrency) * shares;
  return static_cast<int>(std::max<long long>(1, (product + kShareSum - 1) / kShareSum));
}

FlowControl::Seat FlowControl::admit(const Flow& flow) {
  if (flow.exempt || options_.concurrency <= 0) return Seat();
  const std::string key = flow.priority_level + "\n" + flow.user;
  const int limit = seats(flow.shares);
  std::unique_lock<std::mutex> lock(mutex_);
  Queue& queue = queues_[key];  // std::map: stays valid while other keys come and go
  if (queue.in_flight < limit) {
    ++queue.in_flight;
    return Seat(this, key);
  }
  const int queue_length = flow.rejects ? 0 : options_.queue_length;
  if (queue.waiting >= queue_length || options_.queue_wait.count() <= 0) return Seat::rejection();
  ++queue.waiting;
  const bool seated = freed_.wait_for(lock, options_.queue_wait, [&] { return queue.in_flight < limit; });
  --queue.waiting;
  if (!seated) return Seat::rejection();
  ++queue.in_flight;
  return Seat(this, key);
}

void FlowControl::release(const std::string& key) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = queues_.find(key);
    if (it == queues_.end()) return;
    --it->second.in_flight;
    if (it->second.in_flight == 0 && it->second.waiting == 0) queues_.erase(it);
  }
  freed_.notify_all();
}

FlowControl::Seat::~Seat() {
  if (owner_ != nullptr) owner_->release(key_);
}

}  // namespace mkq::sandbox
