// Phasing a plan in which a worker leaves the fleet (handover.h).
#include "runtime/reconcile/handover.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "compiler/kueue/schema.h"

namespace mkq::reconcile {
namespace {

namespace schema = kueue::schema;

bool is_kind(const Change& change, schema::Kind kind) {
  const schema::KindInfo& info = schema::info(kind);
  return change.ref.kind == info.name && change.ref.api_version == info.api_version;
}

// The MultiKueueClusters a MultiKueueConfig names (spec.clusters).
std::vector<std::string> config_clusters(const Json& config) {
  std::vector<std::string> out;
  if (!config.is_object() || !config.contains("spec") || !config["spec"].is_object()) return out;
  const Json& spec = config["spec"];
  const auto clusters = spec.find("clusters");
  if (clusters == spec.end() || !clusters->is_array()) return out;
  for (const Json& name : *clusters) {
    if (name.is_string()) out.push_back(name.get<std::string>());
  }
  return out;
}

// The step of a change of a phased plan.
Step step_of(const ClusterPlan& cluster, const Change& change) {
  if (change.action == Action::Delete) return Step::Remove;
  if (cluster.role != kueue::ClusterRole::Manager) return Step::Join;
  const schema::KindInfo* info = schema::find_kind(change.ref.kind);
  const int switch_tier = schema::info(schema::Kind::MultiKueueConfig).apply_tier;
  return info != nullptr && info->apply_tier < switch_tier ? Step::Join : Step::Switch;
}

std::string names(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t index = 0; index < items.size(); ++index) {
    if (index > 0) out += index + 1 == items.size() ? " and " : ", ";
    out += items[index];
  }
  return out;
}

std::string changes(int count) { return fmt::format("{} {}", count, count == 1 ? "change" : "changes"); }

}  // namespace

const char* step_name(Step step) {
  switch (step) {
    case Step::Unphased: return "";
    case Step::Join: return "join";
    case Step::Switch: return "switch";
    case Step::Remove: return "remove";
  }
  return "";
}

std::optional<Step> step_from_name(const std::string& name) {
  for (const Step step : {Step::Unphased, Step::Join, Step::Switch, Step::Remove}) {
    if (name == step_name(step)) return step;
  }
  return std::nullopt;
}

void phase_plan(Plan& plan, const kueue::DesiredState& desired, const LiveState& live) {
  plan.handover = Handover{};
  if (plan.kind != PlanKind::Apply) return;
  const auto manager = std::find_if(plan.clusters.begin(), plan.clusters.end(), [](const ClusterPlan& cluster) {
    return cluster.role == kueue::ClusterRole::Manager;
  });
  if (manager == plan.clusters.end() || !manager->reachable) return;

  std::set<std::string> in_policy;
  for (const kueue::ClusterObjects& cluster : desired.clusters) in_policy.insert(cluster.cluster);
  std::set<std::string> leaving;
  for (const Change& change : manager->changes) {
    // A released MultiKueueCluster stays on the manager (released, not deleted): Kueue keeps it.
    if (change.action == Action::Delete && is_kind(change, schema::Kind::MultiKueueCluster)) {
      leaving.insert(change.ref.name);
    }
  }
  // A worker only the state still names, with objects to delete: its
  // MultiKueueCluster went in an apply that did not finish.
  for (const ClusterPlan& cluster : plan.clusters) {
    if (cluster.role == kueue::ClusterRole::Manager || in_policy.count(cluster.cluster) != 0) continue;
    const bool deletes = std::any_of(cluster.changes.begin(), cluster.changes.end(),
                                     [](const Change& change) { return change.action == Action::Delete; });
    if (deletes) leaving.insert(cluster.cluster);
  }
  if (leaving.empty()) return;

  const ClusterLive* manager_live = live.find(manager->cluster);
  std::set<std::string> joining;
  for (const Change& change : manager->changes) {
    const bool writes = change.action == Action::Create || change.action == Action::Update ||
                        change.action == Action::Replace;
    if (!writes || !is_kind(change, schema::Kind::MultiKueueConfig)) continue;
    std::vector<std::string> named;
    if (manager_live != nullptr) {
      const auto found = manager_live->objects.find(change.ref.address());
      if (found != manager_live->objects.end()) named = config_clusters(found->second.decode());
    }
    for (const std::string& name : config_clusters(change.desired)) {
      if (std::find(named.begin(), named.end(), name) == named.end()) joining.insert(name);
    }
  }
  plan.handover.leaving.assign(leaving.begin(), leaving.end());
  plan.handover.joining.assign(joining.begin(), joining.end());
  for (ClusterPlan& cluster : plan.clusters) {
    for (Change& change : cluster.changes) {
      if (change.action != Action::NoOp) change.step = step_of(cluster, change);
    }
  }
}

std::vector<std::string> handover_lines(const Plan& plan) {
  if (!plan.phased()) return {};
  const Handover& handover = plan.handover;
  int join = 0, switched = 0, remove = 0;
  for (const ClusterPlan& cluster : plan.clusters) {
    for (const Change& change : cluster.changes) {
      if (change.action == Action::NoOp) continue;
      join += change.step == Step::Join ? 1 : 0;
      switched += change.step == Step::Switch ? 1 : 0;
      remove += change.step == Step::Remove ? 1 : 0;
    }
  }
  const std::string leaving = names(handover.leaving);
  const bool one = handover.leaving.size() == 1;
  std::vector<std::string> lines;
  lines.push_back("Apply goes in steps: " + leaving + (one ? " leaves" : " leave") + " the fleet" +
                  (handover.joining.empty() ? ""
                                              : ", " + names(handover.joining) +
                                                    (handover.joining.size() == 1 ? " joins it" : " join it")) +
                  ".");
  int number = 0;
  auto add = [&lines, &number](const std::string& text) {
    lines.push_back(fmt::format("{}. {}", ++number, text));
  };
  std::vector<std::string> joining_clusters;
  for (const std::string& name : handover.joining) joining_clusters.push_back("MultiKueueCluster " + name);
  if (!handover.joining.empty()) {
    add("add and change the rest (" + changes(join) + "), then wait until " + names(joining_clusters) +
        (handover.joining.size() == 1 ? " is" : " are") + " Active; if not, stop here");
  } else if (join > 0) {
    add("add and change the rest (" + changes(join) + ")");
  }
  if (switched > 0) {
    add("write the MultiKueueConfigs and what follows them (" + changes(switched) + "), no longer naming " + leaving);
  }
  add("drain: wait until no Workload on the manager runs on " + leaving + " (at most --drain-timeout)");
  add("delete what the policy no longer has (" + changes(remove) + "), " + leaving + (one ? "'s" : "'") +
      " objects among them");
  return lines;
}

}  // namespace mkq::reconcile
