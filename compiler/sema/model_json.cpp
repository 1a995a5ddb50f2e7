// model_to_json (model_json.h): one function per model type, each writing its
// fields in the order model.h declares them.
#include "compiler/sema/model_json.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

namespace mkq::sema::model {
namespace {

using Json = nlohmann::ordered_json;

// ------------------------------------------------------------------ scalars

Json to_json(const std::string& s) { return s; }
Json to_json(std::int64_t n) { return n; }
Json to_json(std::int32_t n) { return n; }
Json to_json(bool b) { return b; }
Json to_json(const Quantity& q) { return q.to_string(); }
Json to_json(const Duration& d) { return d.to_string(); }
// Where the secret comes from, never what it holds.
Json to_json(const SecretRef& s) { return Json{{"secret", s.source}}; }
Json to_json(const Ref& r) { return r.name; }

template <typename E>
  requires std::is_enum_v<E>
Json to_json(E e) {
  return std::string(to_string(e));
}

Json to_json(const Labels& labels) {
  Json out = Json::object();
  for (const auto& [key, value] : labels) out[key] = value;
  return out;
}

// Every model type's writer, declared before the templates below so that a
// vector or optional of any of them finds it.
Json to_json(const ResourceQuota& q);
Json to_json(const FlavorQuotas& f);
Json to_json(const ResourceGroup& g);
Json to_json(const Connection& c);
Json to_json(const Credentials& c);
Json to_json(const ClusterQueueOverride& o);
Json to_json(const Capacity& c);
Json to_json(const Worker& w);
Json to_json(const Taint& t);
Json to_json(const Toleration& t);
Json to_json(const Flavor& f);
Json to_json(const Topology& t);
Json to_json(const Cohort& c);
Json to_json(const ImplicitCohort& c);
Json to_json(const NamespaceSelector& s);
Json to_json(const Preemption& p);
Json to_json(const FlavorFungibility& f);
Json to_json(const ClusterQueue& q);
Json to_json(const LocalQueue& q);
Json to_json(const Namespace& n);
Json to_json(const PriorityClass& p);
Json to_json(const Dispatcher& d);
Json to_json(const WorkerSelector& s);
Json to_json(const Dispatch& d);
Json to_json(const GangScheduling& g);
Json to_json(const KueueFairSharing& f);
Json to_json(const ExecEnvVar& e);
Json to_json(const AccessProvider& p);
Json to_json(const MultiKueueSettings& m);
Json to_json(const Access& a);
Json to_json(const IntegrationResources& r);
Json to_json(const Integration& i);

template <typename T>
Json to_json(const Located<T>& located) {
  return to_json(located.value);
}

template <typename T>
Json to_json(const std::optional<T>& optional) {
  if (!optional) return nullptr;
  return to_json(*optional);
}

template <typename T>
Json to_json(const Boxed<T>& boxed) {
  if (!boxed) return nullptr;
  return to_json(*boxed);
}

template <typename T>
Json to_json(const std::vector<T>& items) {
  Json out = Json::array();
  for (const T& item : items) out.push_back(to_json(item));
  return out;
}

std::string_view spelling(NamespaceSelection kind) {
  switch (kind) {
    case NamespaceSelection::All: return "all";
    case NamespaceSelection::Names: return "names";
    case NamespaceSelection::MatchLabels: return "match_labels";
  }
  return "";
}

// ------------------------------------------------------------------ common parts

Json to_json(const ResourceQuota& q) {
  return Json{{"resource", q.resource},
              {"nominal", to_json(q.nominal)},
              {"borrowing_limit", to_json(q.borrowing_limit)},
              {"lending_limit", to_json(q.lending_limit)}};
}

Json to_json(const FlavorQuotas& f) {
  return Json{{"flavor", to_json(f.flavor)}, {"resources", to_json(f.resources)}};
}

Json to_json(const ResourceGroup& g) {
  return Json{{"covered_resources", to_json(g.covered_resources)}, {"flavors", to_json(g.flavors)}};
}

// The start of every declaration's object. Declaration::instantiated_from is
// a list of source ranges, left out with the others.
Json declaration(const Declaration& d) { return Json{{"name", d.name}}; }

// ------------------------------------------------------------------ clusters

Json to_json(const Connection& c) {
  return Json{{"context", to_json(c.context)}, {"kubeconfig", to_json(c.kubeconfig)}};
}

// The state and sync settings appear only when written (older outputs unchanged).
Json to_json(const Manager& m) {
  Json out = declaration(m);
  out["connection"] = to_json(m.connection);
  out["labels"] = to_json(m.labels);
  if (m.state) out["state"] = Json{{"namespace", to_json(m.state->namespace_name)}, {"name", to_json(m.state->name)}};
  if (m.sync) {
    out["sync"] = Json{{"mode", to_json(m.sync->mode)},
                       {"self_heal", to_json(m.sync->self_heal)},
                       {"prune", to_json(m.sync->prune)},
                       {"interval", to_json(m.sync->interval)}};
  }
  return out;
}

Json to_json(const Credentials& c) {
  return Json{{"mode", to_json(c.mode)},
              {"service_account", to_json(c.service_account)},
              {"lifetime", to_json(c.lifetime)},
              {"rotate_before", to_json(c.rotate_before)},
              {"kubeconfig", to_json(c.kubeconfig)},
              {"token", to_json(c.token)},
              {"cluster_profile", to_json(c.cluster_profile)}};
}

Json to_json(const ClusterQueueOverride& o) {
  return Json{{"cluster_queue", to_json(o.cluster_queue)},
              {"name", to_json(o.name)},
              {"resource_groups", to_json(o.resource_groups)}};
}

Json to_json(const Capacity& c) {
  return Json{{"flavor", to_json(c.flavor)}, {"resources", to_json(c.resources)}};
}

Json to_json(const Worker& w) {
  Json out = declaration(w);
  out["connection"] = to_json(w.connection);
  out["labels"] = to_json(w.labels);
  out["priority"] = to_json(w.priority);
  out["secret_name"] = to_json(w.secret_name);
  out["capacities"] = to_json(w.capacities);
  out["credentials"] = to_json(w.credentials);
  out["overrides"] = to_json(w.overrides);
  return out;
}

// ------------------------------------------------------------------ flavors and topologies

Json to_json(const Taint& t) {
  return Json{{"key", to_json(t.key)}, {"value", to_json(t.value)}, {"effect", to_json(t.effect)}};
}

Json to_json(const Toleration& t) {
  return Json{{"key", to_json(t.key)},
              {"operator", to_json(t.op)},
              {"value", to_json(t.value)},
              {"effect", to_json(t.effect)},
              {"toleration_seconds", to_json(t.toleration_seconds)}};
}

Json to_json(const Flavor& f) {
  Json out = declaration(f);
  out["node_labels"] = to_json(f.node_labels);
  out["taints"] = to_json(f.taints);
  out["tolerations"] = to_json(f.tolerations);
  out["topology"] = to_json(f.topology);
  return out;
}

Json to_json(const Topology& t) {
  Json out = declaration(t);
  out["levels"] = to_json(t.levels);
  return out;
}

// ------------------------------------------------------------------ queues

Json to_json(const Cohort& c) {
  Json out = declaration(c);
  out["parent"] = to_json(c.parent);
  out["resource_groups"] = to_json(c.resource_groups);
  out["fair_sharing_weight"] = to_json(c.fair_sharing_weight);
  return out;
}

Json to_json(const ImplicitCohort& c) { return Json{{"name", c.name}}; }

Json to_json(const NamespaceSelector& s) {
  return Json{{"kind", std::string(spelling(s.kind))},
              {"names", to_json(s.names)},
              {"match_labels", to_json(s.match_labels)}};
}

Json to_json(const Preemption& p) {
  return Json{{"within_cluster_queue", to_json(p.within_cluster_queue)},
              {"reclaim_within_cohort", to_json(p.reclaim_within_cohort)},
              {"borrow_within_cohort", to_json(p.borrow_within_cohort)},
              {"borrow_max_priority_threshold", to_json(p.borrow_max_priority_threshold)}};
}

Json to_json(const FlavorFungibility& f) {
  return Json{{"when_can_borrow", to_json(f.when_can_borrow)},
              {"when_can_preempt", to_json(f.when_can_preempt)},
              {"preference", to_json(f.preference)}};
}

Json to_json(const ClusterQueue& q) {
  Json out = declaration(q);
  out["namespaces"] = to_json(q.namespaces);
  out["cohort"] = to_json(q.cohort);
  out["resource_groups"] = to_json(q.resource_groups);
  out["preemption"] = to_json(q.preemption);
  out["fair_sharing_weight"] = to_json(q.fair_sharing_weight);
  out["flavor_fungibility"] = to_json(q.flavor_fungibility);
  out["queueing_strategy"] = to_json(q.queueing_strategy);
  out["stop_policy"] = to_json(q.stop_policy);
  out["worker_name"] = to_json(q.worker_name);
  out["dispatch"] = to_json(q.dispatch);
  return out;
}

Json to_json(const LocalQueue& q) {
  Json out = declaration(q);
  out["namespace_name"] = to_json(q.namespace_name);
  out["cluster_queue"] = to_json(q.cluster_queue);
  out["is_default"] = q.is_default;
  out["stop_policy"] = to_json(q.stop_policy);
  out["fair_sharing_weight"] = to_json(q.fair_sharing_weight);
  return out;
}

Json to_json(const Namespace& n) {
  Json out = declaration(n);
  out["labels"] = to_json(n.labels);
  return out;
}

Json to_json(const PriorityClass& p) {
  Json out = declaration(p);
  out["value"] = to_json(p.value);
  out["description"] = to_json(p.description);
  return out;
}

// ------------------------------------------------------------------ dispatch

// The mode, the external dispatcher's name (empty unless mode is external)
// and the name Kueue's configuration gets.
Json to_json(const Dispatcher& d) {
  return Json{{"mode", to_json(d.mode)}, {"external_name", d.external_name}, {"kueue_name", d.kueue_name()}};
}

Json to_json(const WorkerSelector& s) {
  return Json{{"labels", to_json(s.labels)}, {"order", to_json(s.order)}, {"resource", to_json(s.resource)},
              {"limit", to_json(s.limit)}};
}

Json to_json(const Dispatch& d) {
  Json out = declaration(d);
  out["config_name"] = to_json(d.config_name);
  out["queues"] = to_json(d.queues);
  out["workers"] = to_json(d.workers);
  out["selector"] = to_json(d.selector);
  out["mode"] = to_json(d.mode);
  out["step"] = to_json(d.step);
  out["origin"] = to_json(d.origin);
  return out;
}

// ------------------------------------------------------------------ Kueue's configuration

Json to_json(const GangScheduling& g) {
  return Json{{"enable", to_json(g.enable)},
              {"timeout", to_json(g.timeout)},
              {"recovery_timeout", to_json(g.recovery_timeout)},
              {"block_admission", to_json(g.block_admission)}};
}

Json to_json(const KueueFairSharing& f) {
  return Json{{"enable", to_json(f.enable)}, {"preemption_strategies", to_json(f.preemption_strategies)}};
}

Json to_json(const ExecEnvVar& e) { return Json{{"name", to_json(e.name)}, {"value", to_json(e.value)}}; }

Json to_json(const AccessProvider& p) {
  Json out = declaration(p);
  out["command"] = to_json(p.command);
  out["args"] = to_json(p.args);
  out["env"] = to_json(p.env);
  out["api_version"] = to_json(p.api_version);
  out["provide_cluster_info"] = to_json(p.provide_cluster_info);
  return out;
}

Json to_json(const MultiKueueSettings& m) {
  return Json{{"gc_interval", to_json(m.gc_interval)},
              {"worker_lost_timeout", to_json(m.worker_lost_timeout)},
              {"dispatcher", to_json(m.dispatcher)},
              {"step", to_json(m.step)},
              {"origin", to_json(m.origin)},
              {"access_providers", to_json(m.access_providers)}};
}

Json to_json(const KueueSettings& k) {
  return Json{{"declared", k.declared},
              {"platform", to_json(k.platform)},
              {"namespace_name", to_json(k.namespace_name)},
              {"integrations", to_json(k.integrations)},
              {"gang_scheduling", to_json(k.gang_scheduling)},
              {"manage_jobs_without_queue_name", to_json(k.manage_jobs_without_queue_name)},
              {"managed_namespaces", to_json(k.managed_namespaces)},
              {"fair_sharing", to_json(k.fair_sharing)},
              {"multikueue", to_json(k.multikueue)},
              {"external_frameworks", to_json(k.external_frameworks)},
              {"restart", to_json(k.restart)}};
}

// ------------------------------------------------------------------ the integration catalogue

Json to_json(const IntegrationResources& r) {
  return Json{{"api_group", to_json(r.api_group)}, {"resources", to_json(r.resources)}};
}

Json to_json(const Integration& i) {
  Json out = declaration(i);
  out["rules"] = to_json(i.rules);
  out["standard"] = i.standard;
  return out;
}

// The catalogue entries worth showing: those the policy enables or declares
// itself, by name. The rest of std/integrations is the same in every policy.
Json integrations_json(const Policy& policy) {
  const std::vector<const Integration*> enabled = policy.enabled_integrations();
  Json out = Json::array();
  for (const Integration& integration : policy.integrations) {
    const bool is_enabled = std::find(enabled.begin(), enabled.end(), &integration) != enabled.end();
    if (is_enabled || !integration.standard) out.push_back(to_json(integration));
  }
  return out;
}

// ------------------------------------------------------------------ access

Json to_json(const Access& a) {
  Json out = declaration(a);
  out["namespace_name"] = to_json(a.namespace_name);
  out["role"] = to_json(a.role);
  out["users"] = to_json(a.users);
  out["groups"] = to_json(a.groups);
  return out;
}

}  // namespace

std::string model_to_json(const Policy& policy) {
  Json out = Json::object();
  out["format_version"] = kModelJsonFormatVersion;
  if (policy.identity) out["policy"] = policy.identity->value;  // only when declared
  out["manager"] = to_json(policy.manager);
  out["workers"] = to_json(policy.workers);
  out["flavors"] = to_json(policy.flavors);
  out["topologies"] = to_json(policy.topologies);
  out["cohorts"] = to_json(policy.cohorts);
  out["implicit_cohorts"] = to_json(policy.implicit_cohorts);
  out["cluster_queues"] = to_json(policy.cluster_queues);
  out["local_queues"] = to_json(policy.local_queues);
  out["namespaces"] = to_json(policy.namespaces);
  out["priority_classes"] = to_json(policy.priority_classes);
  out["dispatches"] = to_json(policy.dispatches);
  out["kueue"] = to_json(policy.kueue);
  out["access"] = to_json(policy.access);
  out["integrations"] = integrations_json(policy);
  // Policy text is valid UTF-8 (the loader checks); `replace` keeps any
  // surprise from becoming an exception.
  return out.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace mkq::sema::model
