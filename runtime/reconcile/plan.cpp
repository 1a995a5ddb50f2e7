// make_plan: desired vs inventory vs live, per cluster, as changes with reasons.
//
// Only what mkq sends is compared: each leaf of the desired document (maps
// descend, lists and scalars are leaves) against the live value at that path;
// inside lists, map items compare as "every desired key equal", so what the
// server fills in (defaults) never shows. Fields mkq owned (managedFields) and
// no longer sends show as removals.
#include "runtime/reconcile/plan.h"

#include <algorithm>
#include <map>
#include <set>

#include "compiler/kueue/schema.h"
#include "runtime/kube/fields_v1.h"
#include "runtime/reconcile/kueue_config.h"

namespace mkq::reconcile {
namespace {

namespace schema = kueue::schema;

constexpr const char* kSensitiveMarker = "(sensitive value)";
constexpr const char* kFieldManager = "mkq";

bool is_server_metadata(const std::string& key) {
  return key == "uid" || key == "resourceVersion" || key == "generation" || key == "creationTimestamp" ||
         key == "managedFields" || key == "deletionTimestamp" || key == "deletionGracePeriodSeconds" ||
         key == "selfLink";
}

// A scalar as text, so that "1" and 1 (int-or-string quantities) compare equal.
std::optional<std::string> scalar_text(const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_integer() || value.is_number_unsigned()) return value.dump();
  if (value.is_number_float()) {
    const double d = value.get<double>();
    if (d == static_cast<double>(static_cast<long long>(d))) return std::to_string(static_cast<long long>(d));
    return value.dump();
  }
  return std::nullopt;
}

// Whether the live value holds what mkq sends: maps by the desired keys, lists whole
// (same length, item by item), scalars by their text.
bool holds(const Json& desired, const Json& live) {
  if (desired.is_object()) {
    if (!live.is_object()) return false;
    for (const auto& [key, value] : desired.items()) {
      if (value.is_null()) continue;
      const auto it = live.find(key);
      if (it == live.end() || !holds(value, *it)) return false;
    }
    return true;
  }
  if (desired.is_array()) {
    if (!live.is_array() || live.size() != desired.size()) return false;
    for (std::size_t i = 0; i < desired.size(); ++i) {
      if (!holds(desired[i], live[i])) return false;
    }
    return true;
  }
  const auto d = scalar_text(desired), l = scalar_text(live);
  if (d && l) return *d == *l;
  return desired == live;
}

struct Leaf {
  std::vector<std::string> path;
  std::string dotted;
  const Json* value = nullptr;
};

void collect_leaves(const Json& node, std::vector<std::string>& path, std::vector<Leaf>& out) {
  if (!node.is_object() || (node.empty() && !path.empty())) {
    std::string dotted;
    for (const std::string& key : path) dotted += (dotted.empty() ? "" : ".") + key;
    out.push_back(Leaf{path, dotted, &node});
    return;
  }
  for (const auto& [key, child] : node.items()) {
    if (path.empty() && (key == "apiVersion" || key == "kind" || key == "status")) continue;
    if (path.size() == 1 && path[0] == "metadata" && is_server_metadata(key)) continue;
    if (child.is_null()) continue;
    path.push_back(key);
    collect_leaves(child, path, out);
    path.pop_back();
  }
}

std::vector<Leaf> leaves_of(const Json& document) {
  std::vector<Leaf> out;
  std::vector<std::string> path;
  if (document.is_object()) collect_leaves(document, path, out);
  return out;
}

const Json* value_at(const Json& object, const std::vector<std::string>& path) {
  const Json* node = &object;
  for (const std::string& key : path) {
    if (!node->is_object()) return nullptr;
    const auto it = node->find(key);
    if (it == node->end()) return nullptr;
    node = &*it;
  }
  return node;
}

// A differing leaf (a scalar, a list or an empty map), before display expansion.
struct LeafDiff {
  std::string path;  // dotted, lists whole
  std::optional<Json> before, after;
};

std::optional<std::string> item_name(const Json& item) {
  if (!item.is_object()) return std::nullopt;
  const auto it = item.find("name");
  if (it == item.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

bool all_named(const Json& list) {
  std::set<std::string> seen;
  for (const Json& item : list) {
    const auto name = item_name(item);
    if (!name || !seen.insert(*name).second) return false;
  }
  return true;
}

void expand(const std::string& path, const std::optional<Json>& before, const std::optional<Json>& after,
            std::vector<FieldDiff>& out);

// Display diffs of two maps (items of lists): desired keys only, as `holds` compares.
void expand_object(const std::string& path, const Json& before, const Json& after, std::vector<FieldDiff>& out) {
  for (const auto& [key, value] : after.items()) {
    if (value.is_null()) continue;
    const std::string child = path + "." + key;
    const auto it = before.find(key);
    if (it == before.end()) {
      out.push_back(FieldDiff{child, std::nullopt, value, false});
    } else if (!holds(value, *it)) {
      expand(child, *it, value, out);
    }
  }
}

// A leaf diff as the fields a reader needs: lists of named items by name, lists
// of maps of the same length by index, anything else whole.
void expand(const std::string& path, const std::optional<Json>& before, const std::optional<Json>& after,
            std::vector<FieldDiff>& out) {
  if (before && after && before->is_object() && after->is_object() && !after->empty()) {
    expand_object(path, *before, *after, out);
    return;
  }
  if (before && after && before->is_array() && after->is_array()) {
    if (all_named(*before) && all_named(*after) && !after->empty()) {
      std::map<std::string, const Json*> old_items;
      for (const Json& item : *before) old_items[*item_name(item)] = &item;
      std::set<std::string> kept;
      for (const Json& item : *after) {
        const std::string name = *item_name(item);
        const std::string child = path + "[" + name + "]";
        const auto it = old_items.find(name);
        if (it == old_items.end()) {
          out.push_back(FieldDiff{child, std::nullopt, item, false});
          continue;
        }
        kept.insert(name);
        if (!holds(item, *it->second)) expand_object(child, *it->second, item, out);
      }
      for (const Json& item : *before) {
        if (kept.count(*item_name(item)) == 0) out.push_back(FieldDiff{path + "[" + *item_name(item) + "]", item, std::nullopt, false});
      }
      return;
    }
    bool maps = before->size() == after->size() && !after->empty();
    for (std::size_t i = 0; maps && i < after->size(); ++i) maps = (*before)[i].is_object() && (*after)[i].is_object();
    if (maps) {
      for (std::size_t i = 0; i < after->size(); ++i) {
        if (!holds((*after)[i], (*before)[i])) {
          expand_object(path + "[" + std::to_string(i) + "]", (*before)[i], (*after)[i], out);
        }
      }
      return;
    }
  }
  out.push_back(FieldDiff{path, before, after, false});
}

bool starts_with_path(const std::string& path, const std::string& prefix) {
  return path == prefix || (path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0 &&
                            path[prefix.size()] == '.');
}

// Whether a leaf diff breaks an immutability rule of the kind; the reason if so.
std::optional<std::string> immutable_reason(const std::string& kind, const LeafDiff& diff) {
  const schema::KindInfo* info = schema::find_kind(kind);
  if (info == nullptr) return std::nullopt;
  const schema::ImmutableField* rule = schema::find_immutable(info->kind, diff.path);
  if (rule == nullptr) return std::nullopt;
  switch (rule->mutability) {
    case schema::Mutability::Immutable:
      if (!diff.before) return std::nullopt;  // set for the first time
      return diff.path + " is immutable";
    case schema::Mutability::SetOnce:
      if (!diff.before) return std::nullopt;
      return diff.path + " is immutable";
    case schema::Mutability::Conditional: {
      // Topology levels: mutable only while kubernetes.io/hostname stays the lowest level.
      const auto lowest_is_hostname = [](const std::optional<Json>& levels) {
        if (!levels || !levels->is_array() || levels->empty()) return false;
        const Json& last = levels->back();
        return last.is_object() && last.value("nodeLabel", std::string()) == schema::kHostnameLabel;
      };
      if (!diff.before || (lowest_is_hostname(diff.before) && lowest_is_hostname(diff.after))) return std::nullopt;
      return diff.path + " is immutable unless kubernetes.io/hostname stays the lowest level";
    }
  }
  return std::nullopt;
}

bool is_sensitive_path(const std::string& path) {
  return starts_with_path(path, "data") || starts_with_path(path, "stringData") || path.rfind("data[", 0) == 0 ||
         path.rfind("stringData[", 0) == 0;
}

void mask(FieldDiff& diff) {
  diff.sensitive = true;
  if (diff.before) diff.before = Json(kSensitiveMarker);
  if (diff.after) diff.after = Json(kSensitiveMarker);
}

std::string meta_string(const Json& object, const char* key) {
  const auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return {};
  const auto it = meta->find(key);
  return it != meta->end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The differing leaves of a live object against the desired document, and the
// fields mkq owned that the document no longer has.
std::vector<LeafDiff> diff_object(const std::string& kind, const Json& desired, const Json& live) {
  std::vector<LeafDiff> out;
  const std::vector<Leaf> wanted = leaves_of(desired);
  for (const Leaf& leaf : wanted) {
    const Json* current = value_at(live, leaf.path);
    if (current == nullptr) {
      out.push_back(LeafDiff{leaf.dotted, std::nullopt, *leaf.value});
    } else if (!holds(*leaf.value, *current)) {
      out.push_back(LeafDiff{leaf.dotted, *current, *leaf.value});
    }
  }
  const std::vector<std::string> owned = kube::paths_owned_by(live, kFieldManager);
  if (owned.empty()) return out;
  std::map<std::string, const Json*> live_leaves;
  for (const Leaf& leaf : leaves_of(live)) live_leaves[leaf.dotted] = leaf.value;
  const schema::KindInfo* info = schema::find_kind(kind);
  for (const std::string& path : owned) {
    const bool still_sent = std::any_of(wanted.begin(), wanted.end(), [&](const Leaf& leaf) {
      return starts_with_path(leaf.dotted, path) || starts_with_path(path, leaf.dotted);
    });
    if (still_sent) continue;
    const auto it = live_leaves.find(path);
    if (it == live_leaves.end()) continue;
    // A field the server defaults to the value it holds: leaving it to the server changes nothing.
    if (info != nullptr) {
      if (const schema::FieldDefault* d = schema::find_default(info->kind, path)) {
        const Json default_value = Json::parse(std::string(d->json_value), nullptr, false);
        if (!default_value.is_discarded() && holds(default_value, *it->second) && holds(*it->second, default_value)) continue;
      }
    }
    out.push_back(LeafDiff{path, *it->second, std::nullopt});
  }
  return out;
}

Change change_for(const std::string& cluster, const kueue::Object& object) {
  Change c;
  c.cluster = cluster;
  c.address = kueue::address(cluster, object);
  c.api_version = object.api_version;
  c.kind = object.kind;
  c.namespace_name = object.namespace_name;
  c.name = object.name;
  c.sensitive = object.kind == "Secret";
  c.depends_on = object.depends_on;
  return c;
}

void set_live(Change& change, const Json* live) {
  if (live == nullptr) return;
  change.live_uid = meta_string(*live, "uid");
  change.live_resource_version = meta_string(*live, "resourceVersion");
}

std::string join_reason(const std::string& description, const std::string& reason) {
  if (description.empty()) return reason;
  if (reason.empty()) return description;
  return description + ": " + reason;
}

Change plan_credential(const std::string& cluster, const kueue::Object& object, const Json* live,
                       const state::InventoryEntry* recorded, CredentialProvider* credentials) {
  Change c = change_for(cluster, object);
  c.credential = true;
  c.sensitive = true;
  set_live(c, live);
  const Action write = live == nullptr ? Action::Create : Action::Update;
  if (credentials == nullptr) {
    c.action = write;
    c.reason = live == nullptr ? "not on the cluster" : "credential not checked";
    c.credential_error = "no credential provider";
    c.desired = object.document;
    return c;
  }
  const CredentialDecision decision = credentials->decide(cluster, object, live, recorded);
  if (!decision.error.empty()) {
    c.action = write;
    c.reason = join_reason(decision.description, decision.reason.empty() ? "cannot be issued" : decision.reason);
    c.credential_error = decision.error;
    c.desired = object.document;
    return c;
  }
  if (!decision.issue) {
    c.action = Action::NoOp;
    c.reason = join_reason(decision.description, decision.reason.empty() ? "credential current" : decision.reason);
    return c;
  }
  c.action = write;
  c.reason = join_reason(decision.description,
                         decision.reason.empty() ? (live == nullptr ? "not on the cluster" : "renewed") : decision.reason);
  c.desired = object.document;
  return c;
}

// One object's document against the live object (`current`, null: absent).
Change plan_document(const std::string& cluster, const kueue::Object& object, const ClusterLive& live,
                     const Json* current, const state::InventoryEntry* recorded, const std::string& lineage) {
  Change c = change_for(cluster, object);
  set_live(c, current);
  if (current == nullptr) {
    c.action = Action::Create;
    c.desired = object.document;
    const std::string type = object.api_version + "/" + object.kind;
    const bool unserved =
        std::find(live.unserved_kinds.begin(), live.unserved_kinds.end(), type) != live.unserved_kinds.end();
    if (unserved) {
      c.reason = "not on the cluster, which does not serve " + type;
    } else {
      c.reason = recorded != nullptr ? "deleted outside mkq" : "not on the cluster";
    }
    return c;
  }

  const std::vector<LeafDiff> diffs = diff_object(object.kind, object.document, *current);
  const bool mkq_owns_fields = !kube::paths_owned_by(*current, kFieldManager).empty();
  for (const LeafDiff& diff : diffs) {
    std::vector<FieldDiff> shown;
    expand(diff.path, diff.before, diff.after, shown);
    for (FieldDiff& field : shown) {
      if (c.sensitive && is_sensitive_path(field.path)) mask(field);
      c.fields.push_back(std::move(field));
    }
  }
  std::optional<std::string> immutable;
  for (const LeafDiff& diff : diffs) {
    if (!immutable) immutable = immutable_reason(object.kind, diff);
  }
  if (diffs.empty()) {
    if (recorded != nullptr) {
      c.action = Action::NoOp;
      c.reason = "up to date";
      return c;
    }
    // Live and as desired, but not in the inventory: apply records it (and takes ownership).
    c.action = Action::Update;
    c.reason = mkq_owns_fields ? "applied by mkq but missing from the state" : "exists, not yet managed by mkq";
    c.desired = object.document;
    return c;
  }
  c.desired = object.document;
  if (immutable) {
    c.action = Action::Replace;
    c.reason = *immutable;
    return c;
  }
  c.action = Action::Update;
  if (recorded != nullptr) {
    c.reason = recorded->digest == document_digest(object.document, lineage) ? kDriftReason
                                                                              : "the policy changed";
  } else {
    c.reason = mkq_owns_fields ? "the policy changed" : "exists, not yet managed by mkq";
  }
  return c;
}

Change plan_object(const std::string& cluster, const kueue::Object& object, const ClusterLive& live,
                   const state::InventoryEntry* recorded, const std::string& lineage, CredentialProvider* credentials) {
  const std::string address = kueue::address(cluster, object);
  const auto found = live.objects.find(address);
  const Json* current = found == live.objects.end() ? nullptr : &found->second;
  if (object.holds_credential_placeholder) return plan_credential(cluster, object, current, recorded, credentials);
  const auto plan_one = [&](const kueue::Object& planned) {
    return plan_document(cluster, planned, live, current, recorded, lineage);
  };
  if (object.kueue_configuration) return plan_kueue_configuration(object, current, recorded, plan_one);
  return plan_one(object);
}

Change plan_removal(const state::InventoryEntry& entry, const ClusterLive& live, const std::string& reason) {
  Change c;
  c.cluster = entry.cluster;
  c.address = entry.address;
  c.api_version = entry.api_version;
  c.kind = entry.kind;
  c.namespace_name = entry.namespace_name;
  c.name = entry.name;
  c.sensitive = entry.kind == "Secret";
  const auto found = live.objects.find(entry.address);
  if (found == live.objects.end()) {
    c.action = Action::NoOp;
    c.reason = "already gone";
    return c;
  }
  set_live(c, &found->second);
  c.action = Action::Delete;
  c.reason = reason;
  return c;
}

// Apply order (kind tier, namespace, name), deletions last in reverse apply order.
void sort_changes(std::vector<Change>& changes) {
  std::stable_sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) {
    const bool da = a.action == Action::Delete, db = b.action == Action::Delete;
    if (da != db) return db;
    const int ra = schema::apply_rank(a.kind), rb = schema::apply_rank(b.kind);
    if (ra != rb) return da ? ra > rb : ra < rb;
    if (a.namespace_name != b.namespace_name) return a.namespace_name < b.namespace_name;
    return a.name < b.name;
  });
}

}  // namespace

namespace detail {

// Byte for byte what nlohmann::json (std::map, keys sorted bytewise) dumps
// for `value` -- the form the inventory digests were first defined on -- but
// written directly, without that parse of the dumped text (it cost a tenth of
// an apply's CPU). Scalars and keys go through nlohmann's own serializer.
void write_canonical(const Json& value, std::string& out) {
  if (value.is_object()) {
    std::vector<const Json::object_t::value_type*> members;
    members.reserve(value.size());
    for (const auto& member : value.get_ref<const Json::object_t&>()) members.push_back(&member);
    std::sort(members.begin(), members.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
    out += '{';
    for (std::size_t index = 0; index < members.size(); ++index) {
      if (index > 0) out += ',';
      out += Json(members[index]->first).dump();
      out += ':';
      write_canonical(members[index]->second, out);
    }
    out += '}';
    return;
  }
  if (value.is_array()) {
    out += '[';
    for (std::size_t index = 0; index < value.size(); ++index) {
      if (index > 0) out += ',';
      write_canonical(value[index], out);
    }
    out += ']';
    return;
  }
  out += value.dump();
}

std::string canonical(const Json& document) {
  std::string out;
  write_canonical(document, out);
  return out;
}

}  // namespace detail

const char* action_name(Action action) {
  switch (action) {
    case Action::NoOp: return "no-op";
    case Action::Create: return "create";
    case Action::Update: return "update";
    case Action::Delete: return "delete";
    case Action::Replace: return "replace";
  }
  return "no-op";
}

std::string document_digest(const Json& document, const std::string& lineage) {
  return state::digest_of(detail::canonical(document), lineage);
}

PlanSummary Plan::summary() const {
  PlanSummary s;
  for (const ClusterPlan& cluster : clusters) {
    if (!cluster.reachable) ++s.unreachable_clusters;
    for (const Change& change : cluster.changes) {
      switch (change.action) {
        case Action::NoOp: ++s.unchanged; break;
        case Action::Create: ++s.add; break;
        case Action::Update: ++s.change; break;
        case Action::Delete: ++s.destroy; break;
        case Action::Replace:
          ++s.replace;
          ++s.add;
          ++s.destroy;
          break;
      }
    }
  }
  return s;
}

bool Plan::has_changes() const {
  for (const ClusterPlan& cluster : clusters) {
    for (const Change& change : cluster.changes) {
      if (change.action != Action::NoOp) return true;
    }
  }
  return false;
}

bool Plan::complete() const {
  return std::all_of(clusters.begin(), clusters.end(), [](const ClusterPlan& c) { return c.reachable; });
}

Plan make_plan(const kueue::DesiredState& desired, const std::vector<state::InventoryEntry>& inventory,
               const std::string& lineage, const LiveState& live, CredentialProvider* credentials,
               const PlanOptions& options) {
  Plan plan;
  plan.kind = options.kind;
  plan.lineage = lineage;
  {
    Json all = Json::array();
    for (const kueue::ClusterObjects& cluster : desired.clusters) {
      Json documents = Json::array();
      for (const kueue::Object& object : cluster.objects) documents.push_back(object.document);
      all.push_back(Json{{"cluster", cluster.cluster}, {"objects", std::move(documents)}});
    }
    plan.policy_digest = state::digest_of(detail::canonical(all), "");
  }

  // The clusters: the policy's, then any only the inventory remembers (as workers).
  std::vector<std::pair<std::string, kueue::ClusterRole>> clusters;
  for (const kueue::ClusterObjects& cluster : desired.clusters) clusters.emplace_back(cluster.cluster, cluster.role);
  for (const state::InventoryEntry& entry : inventory) {
    const bool known = std::any_of(clusters.begin(), clusters.end(), [&](const auto& c) { return c.first == entry.cluster; });
    if (!known) clusters.emplace_back(entry.cluster, kueue::ClusterRole::Worker);
  }
  std::stable_sort(clusters.begin(), clusters.end(), [](const auto& a, const auto& b) {
    const bool ma = a.second == kueue::ClusterRole::Manager, mb = b.second == kueue::ClusterRole::Manager;
    if (ma != mb) return ma;
    return a.first < b.first;
  });

  std::map<std::string, const state::InventoryEntry*> recorded;
  for (const state::InventoryEntry& entry : inventory) recorded[entry.address] = &entry;

  for (const auto& [name, role] : clusters) {
    ClusterPlan cluster_plan;
    cluster_plan.cluster = name;
    cluster_plan.role = role;
    const ClusterLive* cluster_live = live.find(name);
    if (cluster_live == nullptr || !cluster_live->reachable) {
      cluster_plan.reachable = false;
      cluster_plan.error = cluster_live == nullptr ? "the cluster was not read" : cluster_live->error;
      plan.clusters.push_back(std::move(cluster_plan));
      continue;
    }
    std::set<std::string> desired_addresses;
    if (options.kind == PlanKind::Apply) {
      for (const kueue::ClusterObjects& objects : desired.clusters) {
        if (objects.cluster != name) continue;
        for (const kueue::Object& object : objects.objects) {
          const std::string address = kueue::address(name, object);
          desired_addresses.insert(address);
          const auto it = recorded.find(address);
          cluster_plan.changes.push_back(plan_object(name, object, *cluster_live,
                                                     it == recorded.end() ? nullptr : it->second, lineage, credentials));
        }
      }
    }
    for (const state::InventoryEntry& entry : inventory) {
      if (entry.cluster != name || desired_addresses.count(entry.address) != 0) continue;
      if (options.kind == PlanKind::Destroy) {
        cluster_plan.changes.push_back(plan_removal(entry, *cluster_live, "destroy"));
      } else if (options.prune) {
        cluster_plan.changes.push_back(plan_removal(entry, *cluster_live, "no longer in the policy"));
      }
    }
    for (Change& change : cluster_plan.changes) note_restart_after_removal(change, desired);
    sort_changes(cluster_plan.changes);
    plan.clusters.push_back(std::move(cluster_plan));
  }
  return plan;
}

}  // namespace mkq::reconcile
