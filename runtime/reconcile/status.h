// `mkq status`: the Active condition of every Kueue object the policy manages,
// per cluster -- what the MultiKueue tutorial checks with three kubectl
// jsonpath commands. Reads with one LIST per kind per cluster (refresh), only
// of the kinds that have an Active condition: status never reads Secrets'
// values. Besides, per worker whose tokens mkq issues, how many are live (its
// anchor Secrets, which hold no data; credentials_port.h): more than one means
// a previous token still works -- an interrupted rotation, which the next
// apply finishes.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "compiler/kueue/objects.h"
#include "runtime/reconcile/credentials_port.h"
#include "runtime/reconcile/target.h"

namespace mkq::reconcile {

// What an object's Active condition says, or why there is none to read.
enum class ActiveState {
  True,        // Active=True
  False,       // Active=False
  Unknown,     // Active=Unknown
  Missing,     // the object exists without an Active condition (yet)
  NotFound,    // the object is not on the cluster
  Unreadable,  // its cluster could not be read
};

// "True", "False", "Unknown", "missing", "not found", "unreadable".
const char* to_string(ActiveState state);

struct ObjectStatus {
  std::string address;  // CLUSTER/KIND/[NAMESPACE/]NAME
  std::string api_version, kind, namespace_name, name;
  ActiveState state = ActiveState::Missing;
  std::string reason, message;  // the condition's (empty unless True/False/Unknown)

  bool active() const { return state == ActiveState::True; }
};

struct ClusterStatus {
  std::string cluster;
  kueue::ClusterRole role = kueue::ClusterRole::Worker;
  bool reachable = true;
  std::string error;                  // why the cluster could not be read (then every object is Unreadable)
  std::vector<ObjectStatus> objects;  // in the desired state's order (apply order, namespace, name)
};

struct StatusReport {
  std::vector<ClusterStatus> clusters;  // manager first, then workers (the desired state's order)
  // Per worker whose tokens mkq issues (CredentialProvider::live_credentials);
  // empty: not read, and not rendered.
  std::vector<LiveCredentials> credentials;

  std::size_t total() const;
  std::size_t active() const;
  bool all_active() const { return active() == total(); }
  bool all_reachable() const;
};

struct ReadStatusOptions {
  int parallelism = 8;  // clusters read at once
};

// One read: for every desired object of a kind with an Active condition
// (ClusterQueue, LocalQueue, AdmissionCheck, MultiKueueCluster), its condition.
// A cluster of the desired state without a target, or one that cannot be
// read, is reported unreachable with its error. Never throws.
StatusReport read_status(const kueue::DesiredState& desired, const std::vector<Target>& targets,
                         const ReadStatusOptions& options);

// --wait: reads every `poll_interval` until every object is Active or
// `timeout` passes; returns the last read. `on_poll` (optional) sees each read.
StatusReport wait_for_status(const kueue::DesiredState& desired, const std::vector<Target>& targets,
                             const ReadStatusOptions& options, std::chrono::milliseconds timeout,
                             std::chrono::milliseconds poll_interval,
                             const std::function<void(const StatusReport&)>& on_poll = {});

// A table per cluster and a summary line:
//   manager-cluster (manager)
//     KIND          NAME           ACTIVE  REASON  MESSAGE
//     ClusterQueue  cluster-queue  True    Ready   Can admit new workloads
//
//   Credentials (tokens of mkq's live on each worker)
//     WORKER   SERVICEACCOUNT               LIVE
//     worker1  kueue-system/multikueue-sa   2 (a previous token still works)
//
//   12 of 12 objects Active.
// ACTIVE in green (True) or red (anything else) when `color`; the
// Credentials table only when the report has credentials.
std::string render_status_text(const StatusReport& report, bool color);

// The version of `mkq status --format json` (docs/json.md).
inline constexpr int kStatusFormatVersion = 1;

// {"clusters":[{"name","role","reachable","error","objects":[{"address","kind",
// "namespace","name","active","condition","reason","message"}]}],"summary":{"active","total"}}
// where "active" is a boolean (Active=True) and "condition" is
// to_string(ActiveState): why it is not; with credentials, also
// "credentials":[{"worker","account","live","error"}] ("live" null when unknown).
kube::Json render_status_json(const StatusReport& report);

// One line per worker with more than one live credential (no newline, no
// prefix): "worker1 has 2 live tokens of serviceaccount kueue-system/multikueue-sa:
// a previous token still works; `mkq apply` revokes it".
std::vector<std::string> credential_warnings(const StatusReport& report);

// The summary line alone (no newline): "12 of 12 objects Active." or
// "11 of 12 objects Active; not Active: ADDRESS (Reason: message), ...".
std::string status_summary(const StatusReport& report);

}  // namespace mkq::reconcile
