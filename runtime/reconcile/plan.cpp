// make_plan: desired vs inventory vs live, per cluster, as changes with reasons.
//
// What mkq sends is compared: each leaf of the desired document (maps
// descend, lists and scalars are leaves) against the live value at that path;
// inside lists, map items compare as "every desired key equal", so what the
// server fills in (defaults) never shows. Fields mkq owned (managedFields) and
// no longer sends show as removals. Beyond what mkq sends, only the fields
// with a Kueue default are read: one the policy leaves unset must hold that
// default (or be absent), else the change restores it.
//
// Ownership (plan.h): who owns a live object (its mkq.dev/policy label),
// what an adopted object held before mkq (Change::prior), and how a removal
// becomes a release rather than a delete.
#include "runtime/reconcile/plan.h"
#include "runtime/reconcile/credential_txn.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "base/parallel.h"
#include "compiler/kueue/schema.h"
#include "runtime/kube/fields_v1.h"
#include "runtime/reconcile/handover.h"
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
  // The common cases without the text: two strings, two integers (equal
  // values print alike, and nlohmann compares signed with unsigned by value).
  if (desired.is_string() && live.is_string()) {
    return desired.get_ref<const std::string&>() == live.get_ref<const std::string&>();
  }
  if (desired.is_number_integer() && live.is_number_integer()) return desired == live;
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
  // A default the policy leaves, restored: where the document to apply gets `after`.
  std::optional<Json::json_pointer> restore_at;
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
          expand_object(fmt::format("{}[{}]", path, i), (*before)[i], (*after)[i], out);
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
std::optional<Reason> immutable_reason(const std::string& kind, const LeafDiff& diff) {
  const schema::KindInfo* info = schema::find_kind(kind);
  if (info == nullptr) return std::nullopt;
  const schema::ImmutableField* rule = schema::find_immutable(info->kind, diff.path);
  if (rule == nullptr) return std::nullopt;
  switch (rule->mutability) {
    case schema::Mutability::Immutable:
      if (!diff.before) return std::nullopt;  // set for the first time
      return Reason::Immutable;
    case schema::Mutability::SetOnce:
      if (!diff.before) return std::nullopt;
      return Reason::Immutable;
    case schema::Mutability::Conditional: {
      // Topology levels: mutable only while kubernetes.io/hostname stays the lowest level.
      const auto lowest_is_hostname = [](const std::optional<Json>& levels) {
        if (!levels || !levels->is_array() || levels->empty()) return false;
        const Json& last = levels->back();
        return last.is_object() && last.value("nodeLabel", std::string()) == schema::kHostnameLabel;
      };
      if (!diff.before || (lowest_is_hostname(diff.before) && lowest_is_hostname(diff.after))) return std::nullopt;
      return Reason::ImmutableTopology;
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

// A default of kDefaults to look for in live objects, parsed once: its
// path's segments ("preemption", "tolerations[]" as key "tolerations" with
// `items`) and the value to hold.
struct DefaultSearch {
  struct Segment {
    std::string key;
    bool items = false;  // the key holds a list; the rest of the path is in each item
  };
  schema::Kind kind;
  std::vector<Segment> segments;
  Json value;
};

std::vector<DefaultSearch::Segment> path_segments(std::string_view path) {
  std::vector<DefaultSearch::Segment> segments;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    std::string key(path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    const bool items = key.ends_with("[]");
    if (items) key.resize(key.size() - 2);
    segments.push_back(DefaultSearch::Segment{std::move(key), items});
    if (dot == std::string_view::npos) return segments;
    start = dot + 1;
  }
}

// Every scalar default. A default that is an object ({}) only makes its
// children's defaults apply: they are looked for on their own.
const std::vector<DefaultSearch>& default_searches() {
  static const std::vector<DefaultSearch> searches = [] {
    std::vector<DefaultSearch> out;
    for (const schema::FieldDefault& entry : schema::kDefaults) {
      Json value = Json::parse(entry.json_value, nullptr, false);
      if (value.is_discarded() || value.is_structured()) continue;
      out.push_back(DefaultSearch{entry.kind, path_segments(entry.path), std::move(value)});
    }
    return out;
  }();
  return searches;
}

// Where find_default_drift is in the live object: a key of a map, or an
// item of a list (by its name when the list's items are named), below
// `parent`. Only a difference found spells the path out.
struct DefaultStep {
  const DefaultStep* parent = nullptr;
  const std::string* key = nullptr;  // null: a list item
  std::size_t index = 0;
  std::optional<std::string> name;
};

void spell(const DefaultStep& step, std::string& dotted, Json::json_pointer& pointer) {
  if (step.parent != nullptr) spell(*step.parent, dotted, pointer);
  if (step.key != nullptr) {
    if (!dotted.empty()) dotted += '.';
    dotted += *step.key;
    pointer /= *step.key;
  } else {
    dotted += step.name ? fmt::format("[{}]", *step.name) : fmt::format("[{}]", step.index);
    pointer /= step.index;
  }
}

// Walks segment `index` of `search` in the live object and, beside it, in the
// policy's document (`desired`, null where the policy sets nothing). A field
// whose parent is not live, or that is absent, holds its default; one the
// policy sets is compared as any field mkq sends. A list is sent whole, so a
// default inside list items is looked for only in the policy's own items, and
// only when the live list holds them (else the whole list differs already):
// paired as `holds` pairs them (by index) and named as `expand` names them.
void find_default_drift(const DefaultSearch& search, std::size_t index, const Json* desired, const Json& live,
                        const DefaultStep* at, std::vector<LeafDiff>& out) {
  const DefaultSearch::Segment& segment = search.segments[index];
  if (!live.is_object()) return;
  const auto found = live.find(segment.key);
  if (found == live.end()) return;
  const Json* sent = nullptr;
  if (desired != nullptr && desired->is_object()) {
    const auto it = desired->find(segment.key);
    if (it != desired->end() && !it->is_null()) sent = &*it;
  }
  const DefaultStep here{at, &segment.key, 0, std::nullopt};
  const bool last = index + 1 == search.segments.size();
  if (segment.items) {
    if (last || sent == nullptr || !sent->is_array() || !holds(*sent, *found)) return;
    const bool named = all_named(*sent) && all_named(*found);
    for (std::size_t i = 0; i < sent->size(); ++i) {
      const DefaultStep item{&here, nullptr, i, named ? item_name((*sent)[i]) : std::nullopt};
      find_default_drift(search, index + 1, &(*sent)[i], (*found)[i], &item, out);
    }
    return;
  }
  if (!last) {
    find_default_drift(search, index + 1, sent, *found, &here, out);
    return;
  }
  if (sent != nullptr || holds(search.value, *found)) return;
  std::string dotted;
  Json::json_pointer pointer;
  spell(here, dotted, pointer);
  out.push_back(LeafDiff{dotted, *found, search.value, pointer});
}

// The fields of a live object that the policy leaves unset and that hold a
// value other than Kueue's default.
void default_drift(const std::string& kind, const Json& desired, const Json& live, std::vector<LeafDiff>& out) {
  const schema::KindInfo* info = schema::find_kind(kind);
  if (info == nullptr) return;
  for (const DefaultSearch& search : default_searches()) {
    if (search.kind == info->kind) find_default_drift(search, 0, &desired, live, nullptr, out);
  }
}

// The leaves of `node` (as leaves_of finds them) against `live`, the live
// value at the same path (null: absent, or below a value that is not a map),
// walked together: a LeafDiff for each leaf the live object does not hold, in
// the document's order, and each leaf's dotted path in `sent`. `dotted` is the
// path so far, one buffer for the whole walk; `depth` 0 is the document;
// `metadata`: `node` is the document's metadata (whose server-set fields are
// never sent).
void diff_leaves(const Json& node, const Json* live, std::string& dotted, int depth, bool metadata,
                 std::vector<LeafDiff>& out, std::vector<std::string>& sent) {
  if (!node.is_object() || (node.empty() && depth > 0)) {
    if (live == nullptr) {
      out.push_back(LeafDiff{dotted, std::nullopt, node, std::nullopt});
    } else if (!holds(node, *live)) {
      out.push_back(LeafDiff{dotted, *live, node, std::nullopt});
    }
    sent.push_back(dotted);
    return;
  }
  const std::size_t length = dotted.size();
  for (const auto& [key, child] : node.items()) {
    if (depth == 0 && (key == "apiVersion" || key == "kind" || key == "status")) continue;
    if (metadata && is_server_metadata(key)) continue;
    if (child.is_null()) continue;
    const Json* live_child = nullptr;
    if (live != nullptr && live->is_object()) {
      const auto it = live->find(key);
      if (it != live->end()) live_child = &*it;
    }
    if (depth > 0) dotted += '.';
    dotted += key;
    diff_leaves(child, live_child, dotted, depth + 1, depth == 0 && key == "metadata", out, sent);
    dotted.resize(length);
  }
}

// Whether a leaf path of `sent` (sorted) is `path`, lies below it or above it
// (starts_with_path either way).
bool sends_at(const std::vector<std::string>& sent, const std::string& path) {
  if (std::binary_search(sent.begin(), sent.end(), path)) return true;
  const std::string below = path + ".";
  const auto it = std::lower_bound(sent.begin(), sent.end(), below);
  if (it != sent.end() && it->compare(0, below.size(), below) == 0) return true;
  for (std::size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', dot + 1)) {
    if (std::binary_search(sent.begin(), sent.end(), std::string_view(path).substr(0, dot))) return true;
  }
  return false;
}

// The differing leaves of a live object against the desired document, the
// fields mkq owned that the document no longer has, and the defaults the
// policy leaves that the live object does not hold. `owned`: the paths mkq
// owns in the live object (kube::paths_owned_by).
std::vector<LeafDiff> diff_object(const std::string& kind, const Json& desired, const Json& live,
                                  const std::vector<std::string>& owned) {
  std::vector<LeafDiff> out;
  std::vector<std::string> sent;
  std::string dotted;
  if (desired.is_object()) diff_leaves(desired, &live, dotted, 0, false, out, sent);
  default_drift(kind, desired, live, out);
  std::sort(sent.begin(), sent.end());
  // The live object's leaves, read only when mkq owns a path it no longer sends.
  std::optional<std::map<std::string, const Json*>> live_leaves;
  const schema::KindInfo* info = schema::find_kind(kind);
  for (const std::string& path : owned) {
    if (sends_at(sent, path)) continue;
    if (!live_leaves) {
      live_leaves.emplace();
      for (const Leaf& leaf : leaves_of(live)) (*live_leaves)[leaf.dotted] = leaf.value;
    }
    const auto it = live_leaves->find(path);
    if (it == live_leaves->end()) continue;
    // A field with a default: holding it, leaving it to the server changes
    // nothing; holding another value, default_drift restores the default.
    if (info != nullptr && schema::find_default(info->kind, path) != nullptr) continue;
    out.push_back(LeafDiff{path, *it->second, std::nullopt, std::nullopt});
  }
  return out;
}

// The name a reason gives a field: its path below spec ("queueingStrategy").
std::string field_name(const std::string& path) { return path.rfind("spec.", 0) == 0 ? path.substr(5) : path; }

std::string value_words(const Json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); }

// The reason of a drift repair: when every difference is a default the policy
// leaves, DriftFromDefaults with which ones (and, for one, its value and the
// default); otherwise Drift.
void note_drift(Change& c, const std::vector<LeafDiff>& diffs) {
  const bool only_defaults =
      std::all_of(diffs.begin(), diffs.end(), [](const LeafDiff& diff) { return diff.restore_at.has_value(); });
  if (!only_defaults || diffs.empty()) {
    c.reason = Reason::Drift;
    return;
  }
  c.reason = Reason::DriftFromDefaults;
  for (const LeafDiff& diff : diffs) c.reason_args.fields.push_back(field_name(diff.path));
  if (diffs.size() == 1) {
    c.reason_args.held = value_words(*diffs[0].before);
    c.reason_args.kueue_default = value_words(*diffs[0].after);
  }
}

// The document to apply: the policy's, with every restored default set.
// Returns whether it holds more than the policy's document.
bool restore_defaults(Json& document, const std::vector<LeafDiff>& diffs) {
  bool restored = false;
  for (const LeafDiff& diff : diffs) {
    if (!diff.restore_at || !diff.after) continue;
    document[*diff.restore_at] = *diff.after;
    restored = true;
  }
  return restored;
}

Change change_for(const std::string& cluster, const kueue::Object& object) {
  Change c;
  c.ref = kueue::ref(cluster, object);
  c.sensitive = object.kind == "Secret";
  c.depends_on = object.depends_on;
  return c;
}

void set_live(Change& change, const Json* live) {
  if (live == nullptr) return;
  change.live_uid = meta_string(*live, "uid");
  change.live_resource_version = meta_string(*live, "resourceVersion");
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
    c.reason = live == nullptr ? Reason::NotOnCluster : Reason::CredentialNotChecked;
    c.credential_error = "no credential provider";
    c.desired = object.document;
    return c;
  }
  const CredentialDecision decision = credentials->decide(cluster, object, live, recorded);
  c.reason_args.credential = decision.description;
  c.reason_args.cause = decision.reason();
  if (!decision.error.empty()) {
    c.action = write;
    c.reason = Reason::CredentialCannotBeIssued;
    c.credential_error = decision.error;
    c.desired = object.document;
    return c;
  }
  if (!decision.issue) {
    c.action = Action::NoOp;
    c.reason = Reason::CredentialCurrent;
    return c;
  }
  c.action = write;
  c.reason = decision.cause == CredentialCause::NotOnCluster ? Reason::NotOnCluster : Reason::CredentialRenewed;
  c.desired = object.document;
  return c;
}

// ------------------------------------------------------------------ ownership

std::string meta_map_string(const Json& object, const char* map, const std::string& key) {
  const auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return {};
  const auto values = meta->find(map);
  if (values == meta->end() || !values->is_object()) return {};
  const auto it = values->find(key);
  return it != values->end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string policy_label(const Json& object) { return meta_map_string(object, "labels", std::string(schema::kPolicyLabel)); }

bool prevents_destroy(const Json& object) {
  return meta_map_string(object, "annotations", kPreventDestroyAnnotation) == "true";
}

std::string dotted_path(const std::vector<std::string>& path) {
  std::string out;
  for (const std::string& key : path) out += (out.empty() ? "" : ".") + key;
  return out;
}

void set_path(Json& object, const std::vector<std::string>& path, Json value) {
  Json* node = &object;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    Json& child = (*node)[path[i]];
    if (!child.is_object()) child = Json::object();
    node = &child;
  }
  if (!path.empty()) (*node)[path.back()] = std::move(value);
}

// What `live` holds at every path `document` sets (Change::prior): values, or
// for a Secret only whether each was there. A Secret's stringData is stored
// as data, so its keys are looked up there.
Json prior_of(const Json& document, const Json& live, bool secret) {
  Json out = Json::array();
  for (const Leaf& leaf : leaves_of(document)) {
    std::vector<std::string> path = leaf.path;
    if (path.size() == 2 && path[0] == "metadata" && (path[1] == "name" || path[1] == "namespace")) continue;
    if (secret && !path.empty() && path[0] == "stringData") path[0] = "data";
    Json item = Json::object();
    item["path"] = path;
    if (const Json* value = value_at(live, path)) {
      if (secret) {
        item["present"] = true;
      } else {
        item["value"] = *value;
      }
    }
    out.push_back(std::move(item));
  }
  return out;
}

// The recorded prior, with what `fresh` says of paths it does not have yet
// (paths the policy started to set since the adoption: their value now is the
// one from before mkq). A recorded prior that does not parse is kept as is.
std::string merged_prior(const std::string& recorded, const Json& fresh) {
  Json kept = Json::parse(recorded, nullptr, false);
  if (!kept.is_array()) return recorded;
  std::set<Json> known;
  for (const Json& item : kept) {
    if (item.is_object() && item.contains("path")) known.insert(item["path"]);
  }
  for (const Json& item : fresh) {
    if (known.count(item["path"]) == 0) kept.push_back(item);
  }
  return kept.dump();
}

// Who owns the live object, whether it is adopted and what it held before:
// the ownership facts of a create/update/replace (plan.h).
void note_ownership(Change& c, const kueue::Object& object, const Json* live, const state::InventoryEntry* recorded,
                    const std::string& policy, const PlanOptions& options) {
  const bool writes = c.action == Action::Create || c.action == Action::Update || c.action == Action::Replace;
  if (live == nullptr || !writes) return;
  const std::string owner = policy_label(*live);
  if (!owner.empty() && !policy.empty() && owner != policy) {
    c.owner_conflict = owner;
    c.take_over = options.take_over;  // reason_text names the owner
  }
  if (recorded != nullptr && recorded->adopted) {
    c.adopted = true;
    c.prior = merged_prior(recorded->prior, prior_of(object.document, *live, c.sensitive));
  } else if (recorded == nullptr &&
             (!c.owner_conflict.empty() || kube::paths_owned_by(*live, kFieldManager).empty())) {
    // There before mkq (or another policy's): what apply changes is handed back on release.
    c.adopted = true;
    c.prior = prior_of(object.document, *live, c.sensitive).dump();
  }
  if (c.replace_requested && c.adopted && c.refusal.empty()) {
    c.refusal = "--replace deletes the object, and it existed before mkq (or is another policy's): mkq deletes "
                "only what it created";
  }
  if (c.action == Action::Replace && prevents_destroy(*live)) {
    c.refusal = std::string("it is marked ") + kPreventDestroyAnnotation + "=true and " + reason_text(c) +
                ": it can only change by being deleted and created again; remove the annotation to allow that";
  }
}

// --replace of a live object: deleted and created again from the policy's
// document, whatever differs. A create stays one (there is nothing to
// delete); a worker credential and Kueue's configuration are never replaced
// (the operation refuses such an address before planning); note_ownership
// refuses an object mkq did not create.
void request_replace(Change& c, const kueue::Object& object, const Json* current) {
  if (current == nullptr || c.action == Action::Create) return;
  if (c.credential || object.kueue_configuration) return;
  c.replace_requested = true;
  c.action = Action::Replace;
  c.reason = Reason::ReplaceRequested;
  c.reason_args = {};
  c.repairs_drift = false;
  if (c.desired.is_null()) c.desired = object.document;
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
      c.reason = Reason::NotServed;
    } else if (recorded != nullptr) {
      // Deleted outside mkq: drift when the policy still asks for what mkq applied.
      c.reason = Reason::DeletedOutsideMkq;
      c.repairs_drift = recorded->digest == document_digest(object.document, lineage);
    } else {
      c.reason = Reason::NotOnCluster;
    }
    return c;
  }

  const std::vector<std::string> owned = kube::paths_owned_by(*current, kFieldManager);
  const std::vector<LeafDiff> diffs = diff_object(object.kind, object.document, *current, owned);
  const bool mkq_owns_fields = !owned.empty();
  for (const LeafDiff& diff : diffs) {
    std::vector<FieldDiff> shown;
    expand(diff.path, diff.before, diff.after, shown);
    for (FieldDiff& field : shown) {
      if (c.sensitive && is_sensitive_path(field.path)) mask(field);
      field.restores_default = diff.restore_at.has_value();
      c.fields.push_back(std::move(field));
    }
  }
  std::optional<Reason> immutable;
  for (const LeafDiff& diff : diffs) {
    if (immutable) break;
    immutable = immutable_reason(object.kind, diff);
    if (immutable) c.reason_args.field = diff.path;
  }
  if (diffs.empty()) {
    if (recorded != nullptr) {
      c.action = Action::NoOp;
      c.reason = Reason::UpToDate;
      return c;
    }
    // Live and as desired, but not in the inventory: apply records it (and takes ownership).
    c.action = Action::Update;
    c.reason = mkq_owns_fields ? Reason::MissingFromState : Reason::NotYetManaged;
    c.desired = object.document;
    return c;
  }
  c.desired = object.document;
  if (restore_defaults(c.desired, diffs)) c.inventory_digest = document_digest(object.document, lineage);
  if (immutable) {
    c.action = Action::Replace;
    c.reason = *immutable;
    return c;
  }
  c.action = Action::Update;
  if (recorded != nullptr) {
    c.repairs_drift = recorded->digest == document_digest(object.document, lineage);
    if (c.repairs_drift) {
      note_drift(c, diffs);
    } else {
      c.reason = Reason::PolicyChanged;
    }
  } else {
    c.reason = mkq_owns_fields ? Reason::PolicyChanged : Reason::NotYetManaged;
  }
  return c;
}

// One object of the policy against `current`, the live object at its address (null: absent).
Change plan_object(const std::string& cluster, const kueue::Object& object, const ClusterLive& live,
                   const Json* current, const state::InventoryEntry* recorded, const std::string& lineage,
                   CredentialProvider* credentials) {
  if (object.holds_credential_placeholder) return plan_credential(cluster, object, current, recorded, credentials);
  const auto plan_one = [&](const kueue::Object& planned) {
    return plan_document(cluster, planned, live, current, recorded, lineage);
  };
  if (object.kueue_configuration) return plan_kueue_configuration(object, current, recorded, plan_one);
  return plan_one(object);
}

// What a release of `live` sends (Change::desired) and shows: each path of
// the prior that mkq still owns (by the object's managedFields: nobody changed
// it since) goes back to what it held, or goes when it was absent; a Secret's
// values are never restored. An object mkq created has no prior: only mkq's
// labels go. mkq's managedFields entries go too ([{}] clears the list, which
// an empty list would not), and the live resourceVersion is the precondition.
Json release_patch(const std::string& prior_text, const Json& live, std::vector<FieldDiff>& fields) {
  Json prior = Json::parse(prior_text, nullptr, false);
  if (!prior.is_array()) {
    prior = Json::array();
    for (const std::string_view label : {schema::kManagedByLabel, schema::kPolicyLabel}) {
      prior.push_back(Json{{"path", Json::array({"metadata", "labels", std::string(label)})}});
    }
  }
  const std::vector<std::string> owned = kube::paths_owned_by(live, kFieldManager);
  const auto mkq_owns = [&](const std::string& path) {
    return std::any_of(owned.begin(), owned.end(), [&](const std::string& o) {
      return starts_with_path(o, path) || starts_with_path(path, o);
    });
  };
  Json patch = Json::object();
  for (const Json& item : prior) {
    if (!item.is_object() || !item.contains("path") || !item["path"].is_array() || item.contains("present")) continue;
    std::vector<std::string> path;
    for (const Json& key : item["path"]) {
      if (key.is_string()) path.push_back(key.get<std::string>());
    }
    const std::string dotted = dotted_path(path);
    if (path.empty() || !mkq_owns(dotted)) continue;
    const Json* now = value_at(live, path);
    if (item.contains("value")) {
      if (now != nullptr && holds(item["value"], *now) && holds(*now, item["value"])) continue;
      set_path(patch, path, item["value"]);
      fields.push_back(FieldDiff{dotted, now == nullptr ? std::nullopt : std::optional<Json>(*now), item["value"], false});
    } else if (now != nullptr) {
      set_path(patch, path, nullptr);
      fields.push_back(FieldDiff{dotted, *now, std::nullopt, false});
    }
  }
  Json managers = Json::array();
  const auto meta = live.find("metadata");
  if (meta != live.end() && meta->contains("managedFields") && (*meta)["managedFields"].is_array()) {
    for (const Json& entry : (*meta)["managedFields"]) {
      if (!entry.is_object() || entry.value("manager", std::string()) != kFieldManager) managers.push_back(entry);
    }
  }
  if (managers.empty()) managers.push_back(Json::object());
  patch["metadata"]["managedFields"] = std::move(managers);
  patch["metadata"]["resourceVersion"] = meta_string(live, "resourceVersion");
  return patch;
}

// What in namespace `name` mkq does not manage, as a release's reason
// (ReleasedForeignContents, with "ConfigMap team-a/notes"); None when
// nothing. What Kubernetes puts in every namespace is not counted. Contents
// that could not be read count as foreign: a namespace is deleted only when
// known empty of anything else.
Reason foreign_contents(const ClusterLive& live, const std::string& name, const std::set<std::string>& managed,
                        ReasonArgs& args) {
  const auto found = live.namespace_contents.find(name);
  if (found == live.namespace_contents.end()) return Reason::ReleasedContentsNotRead;
  if (!found->second.error.empty()) {
    args.error = found->second.error;
    return Reason::ReleasedContentsUnreadable;
  }
  std::vector<std::string>& foreign = args.foreign;
  for (const std::string& address : found->second.addresses) {
    if (managed.count(address) != 0) continue;
    // CLUSTER/KIND/NAMESPACE/NAME
    const std::size_t kind_at = address.find('/') + 1;
    const std::size_t ns_at = address.find('/', kind_at) + 1;
    const std::string kind = address.substr(kind_at, ns_at - kind_at - 1);
    const std::string object = address.substr(address.find('/', ns_at) + 1);
    if ((kind == "ServiceAccount" && object == "default") || (kind == "ConfigMap" && object == "kube-root-ca.crt")) {
      continue;
    }
    foreign.push_back(kind + " " + address.substr(ns_at));
  }
  return foreign.empty() ? Reason::None : Reason::ReleasedForeignContents;
}

// What a removal needs to know besides the entry and the live cluster.
struct RemovalContext {
  Reason reason;                       // NoLongerInPolicy, Destroy
  const std::string& policy;           // this policy's identity
  const PlanOptions& options;
  const std::set<std::string>& managed;  // every address of the inventory
};

// An inventory object to remove: deleted when mkq created it and nothing
// protects it, else released (plan.h).
Change plan_removal(const state::InventoryEntry& entry, const ClusterLive& live, const RemovalContext& context) {
  Change c;
  c.ref = entry.ref;
  c.sensitive = entry.ref.kind == "Secret";
  const auto found = live.objects.find(entry.ref.address());
  if (found == live.objects.end()) {
    c.action = Action::NoOp;
    c.reason = Reason::AlreadyGone;
    return c;
  }
  const Json current = found->second.decode();
  set_live(c, &current);
  c.adopted = entry.adopted;
  c.prior = entry.prior;
  Reason keep = Reason::None;  // why it is released
  if (prevents_destroy(current)) {
    keep = Reason::ReleasedPreventDestroy;
  } else if (entry.adopted && !context.options.delete_adopted) {
    keep = Reason::ReleasedAdopted;
  } else if (entry.ref.kind == "Namespace" && entry.ref.api_version == "v1") {
    keep = foreign_contents(live, entry.ref.name, context.managed, c.reason_args);
  }
  const std::string owner = policy_label(current);
  if (!owner.empty() && !context.policy.empty() && owner != context.policy) {
    c.owner_conflict = owner;
    c.take_over = context.options.take_over;
  }
  if (keep == Reason::None) {
    c.action = Action::Delete;
    c.reason = context.reason;
  } else {
    c.action = Action::Release;
    c.reason = keep;
    c.desired = release_patch(entry.adopted ? entry.prior : std::string(), current, c.fields);
    for (FieldDiff& field : c.fields) {
      if (c.sensitive && is_sensitive_path(field.path)) mask(field);
    }
  }
  return c;
}

// Apply order (kind tier, namespace, name), deletions last in reverse apply order.
void sort_changes(std::vector<Change>& changes) {
  // Each change's key worked out once, the order found on the keys, and the
  // changes moved into it in place (a Change is large).
  struct Key {
    bool deletion;
    int rank;
    std::size_t index;
  };
  std::vector<Key> keys;
  keys.reserve(changes.size());
  for (std::size_t i = 0; i < changes.size(); ++i) {
    keys.push_back(Key{changes[i].action == Action::Delete, schema::apply_rank(changes[i].ref.kind), i});
  }
  std::stable_sort(keys.begin(), keys.end(), [&changes](const Key& a, const Key& b) {
    if (a.deletion != b.deletion) return b.deletion;
    if (a.rank != b.rank) return a.deletion ? a.rank > b.rank : a.rank < b.rank;
    const base::ObjectRef &ra = changes[a.index].ref, &rb = changes[b.index].ref;
    if (ra.namespace_name != rb.namespace_name) return ra.namespace_name < rb.namespace_name;
    return ra.name < rb.name;
  });
  // Position i takes changes[keys[i].index]: each cycle of the permutation
  // goes round once, through one spare Change.
  std::vector<bool> placed(changes.size(), false);
  for (std::size_t start = 0; start < changes.size(); ++start) {
    if (placed[start] || keys[start].index == start) continue;
    Change spare = std::move(changes[start]);
    std::size_t at = start;
    while (keys[at].index != start) {
      changes[at] = std::move(changes[keys[at].index]);
      placed[at] = true;
      at = keys[at].index;
    }
    changes[at] = std::move(spare);
    placed[at] = true;
  }
}

// What planning one cluster reads of the whole run.
struct ClusterContext {
  const kueue::DesiredState& desired;
  const std::string& lineage;
  CredentialProvider* credentials;
  const PlanOptions& options;
  std::map<std::string, const state::InventoryEntry*> recorded;  // every inventory entry by address
  std::set<std::string> managed;                                  // every address of the inventory
};

// One cluster's plan (`cluster_live`: what refresh read of it, null when not read),
// its changes in apply order: the policy's objects, the inventory's
// (`entries`) that it no longer declares, and `revoke`, the credentials of
// mkq's to revoke on it. The leftover credentials its objects show are added
// to `stale` by worker (null: it holds no worker credential).
ClusterPlan plan_cluster(const ClusterContext& context, const std::string& name, kueue::ClusterRole role,
                         const ClusterLive* cluster_live, const std::vector<const state::InventoryEntry*>& entries,
                         const std::vector<StaleCredential>& revoke,
                         std::map<std::string, std::vector<StaleCredential>>* stale) {
  const kueue::DesiredState& desired = context.desired;
  const PlanOptions& options = context.options;
  ClusterPlan cluster_plan;
  cluster_plan.cluster = name;
  cluster_plan.role = role;
  if (cluster_live == nullptr || !cluster_live->reachable) {
    cluster_plan.reachable = false;
    cluster_plan.error = cluster_live == nullptr ? "the cluster was not read" : cluster_live->error;
    return cluster_plan;
  }
  std::set<std::string> desired_addresses;
  if (options.kind == PlanKind::Apply) {
    for (const kueue::ClusterObjects& objects : desired.clusters) {
      if (objects.cluster != name) continue;
      cluster_plan.changes.reserve(cluster_plan.changes.size() + objects.objects.size() + entries.size());
      for (const kueue::Object& object : objects.objects) {
        const std::string address = kueue::address(name, object);
        desired_addresses.insert(address);
        const auto it = context.recorded.find(address);
        const state::InventoryEntry* entry = it == context.recorded.end() ? nullptr : it->second;
        // The live object decoded for as long as its object is planned.
        const auto found = cluster_live->objects.find(address);
        const std::optional<Json> live_object =
            found == cluster_live->objects.end() ? std::nullopt : std::optional<Json>(found->second.decode());
        const Json* current = live_object ? &*live_object : nullptr;
        Change change = plan_object(name, object, *cluster_live, current, entry, context.lineage, context.credentials);
        if (options.replace.count(address) != 0) request_replace(change, object, current);
        if (object.holds_credential_placeholder && context.credentials != nullptr && stale != nullptr) {
          for (StaleCredential& leftover : context.credentials->leftovers(name, object, current)) {
            (*stale)[leftover.worker].push_back(std::move(leftover));
          }
        }
        note_ownership(change, object, current, entry, desired.policy, options);
        cluster_plan.changes.push_back(std::move(change));
      }
    }
  }
  for (const state::InventoryEntry* recorded_entry : entries) {
    const state::InventoryEntry& entry = *recorded_entry;
    if (desired_addresses.count(entry.ref.address()) != 0) continue;
    if (options.kind == PlanKind::Destroy) {
      cluster_plan.changes.push_back(
          plan_removal(entry, *cluster_live, RemovalContext{Reason::Destroy, desired.policy, options, context.managed}));
    } else if (options.prune) {
      cluster_plan.changes.push_back(plan_removal(
          entry, *cluster_live, RemovalContext{Reason::NoLongerInPolicy, desired.policy, options, context.managed}));
    } else {
      cluster_plan.kept.push_back(entry.ref);
    }
  }
  for (Change& change : cluster_plan.changes) note_restart_after_removal(change, desired);
  for (const StaleCredential& found : revoke) cluster_plan.changes.push_back(revocation_change(found));
  sort_changes(cluster_plan.changes);
  return cluster_plan;
}


}  // namespace

namespace detail {

// Byte for byte what nlohmann::json (std::map, keys sorted bytewise) dumps
// for `value` -- the form the inventory digests were first defined on -- but
// written directly, without that parse of the dumped text (it cost a tenth of
// an apply's CPU). Scalars and keys go through nlohmann's own serializer.
// A string as nlohmann dumps it. Printable ASCII without quotes or
// backslashes -- nearly every key and value -- is written as it is; anything
// else goes through nlohmann's serializer.
void write_string(const std::string& text, std::string& out) {
  const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte >= 0x20 && byte < 0x7f && c != '"' && c != '\\';
  });
  if (!plain) {
    out += Json(text).dump();
    return;
  }
  out += '"';
  out += text;
  out += '"';
}

void write_canonical(const Json& value, std::string& out) {
  if (value.is_object()) {
    std::vector<const Json::object_t::value_type*> members;
    members.reserve(value.size());
    for (const auto& member : value.get_ref<const Json::object_t&>()) members.push_back(&member);
    std::sort(members.begin(), members.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
    out += '{';
    for (std::size_t index = 0; index < members.size(); ++index) {
      if (index > 0) out += ',';
      write_string(members[index]->first, out);
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
  if (value.is_string()) {
    write_string(value.get_ref<const std::string&>(), out);
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
    case Action::Release: return "release";
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
        case Action::Release: ++s.release; break;
      }
      if (change.action != Action::NoOp && !refusal_of(change).empty()) ++s.conflicts;
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

std::string refusal_of(const Change& change) {
  if (!change.refusal.empty()) return change.refusal;
  if (!change.owner_conflict.empty() && !change.take_over) return "owned by policy " + change.owner_conflict;
  return "";
}

std::vector<std::string> Plan::refusals() const {
  std::vector<std::string> out;
  for (const ClusterPlan& cluster : clusters) {
    for (const Change& change : cluster.changes) {
      const std::string refusal = change.action == Action::NoOp ? "" : refusal_of(change);
      if (!refusal.empty()) out.push_back(change.ref.address() + ": " + refusal);
    }
  }
  return out;
}

std::string identity_in_use(const std::vector<state::InventoryEntry>& inventory, const LiveState& live) {
  std::map<std::string, int> counts;
  for (const state::InventoryEntry& entry : inventory) {
    const ClusterLive* cluster = live.find(entry.ref.cluster);
    if (cluster == nullptr) continue;
    const auto found = cluster->objects.find(entry.ref.address());
    if (found == cluster->objects.end()) continue;
    const std::string label = policy_label(found->second.decode());
    if (!label.empty()) ++counts[label];
  }
  std::string best;
  int most = 0;
  for (const auto& [label, count] : counts) {
    if (count > most) {
      best = label;
      most = count;
    }
  }
  return best;
}

bool Plan::complete() const {
  return std::all_of(clusters.begin(), clusters.end(), [](const ClusterPlan& c) { return c.reachable; });
}

bool Plan::removes_everything() const {
  std::size_t removals = 0;
  for (const ClusterPlan& cluster : clusters) {
    for (const Change& change : cluster.changes) {
      switch (change.action) {
        case Action::Delete:
        case Action::Release:
          ++removals;
          break;
        case Action::NoOp:
          if (!change.live_uid.empty()) return false;  // an object that stays
          break;
        case Action::Create:
        case Action::Update:
        case Action::Replace:
          return false;
      }
    }
  }
  return removals > 0;
}

Plan make_plan(const kueue::DesiredState& desired, const std::vector<state::InventoryEntry>& inventory,
               const std::string& lineage, const LiveState& live, CredentialProvider* credentials,
               const PlanOptions& options, const PlanWork& work) {
  Plan plan;
  plan.kind = options.kind;
  plan.options = options;
  plan.policy = desired.policy;
  plan.lineage = lineage;
  if (work.policy_digest) {
    // The canonical text of [{"cluster": NAME, "objects": [DOCUMENT, ...]}, ...]
    // (keys sorted: "cluster" before "objects"), written without copying the
    // documents into one value first.
    std::string all = "[";
    for (const kueue::ClusterObjects& cluster : desired.clusters) {
      if (all.size() > 1) all += ',';
      all += "{\"cluster\":" + Json(cluster.cluster).dump() + ",\"objects\":[";
      for (std::size_t index = 0; index < cluster.objects.size(); ++index) {
        if (index > 0) all += ',';
        detail::write_canonical(cluster.objects[index].document, all);
      }
      all += "]}";
    }
    all += ']';
    plan.policy_digest = state::digest_of(all, "");
  }

  // The clusters: the policy's, then any only the inventory remembers (as workers).
  std::vector<std::pair<std::string, kueue::ClusterRole>> clusters;
  // The inventory by cluster, each in the inventory's order: every cluster's
  // entries are read once, not the whole inventory once per cluster.
  std::map<std::string, std::vector<const state::InventoryEntry*>> inventory_of;
  for (const state::InventoryEntry& entry : inventory) inventory_of[entry.ref.cluster].push_back(&entry);
  for (const kueue::ClusterObjects& cluster : desired.clusters) clusters.emplace_back(cluster.cluster, cluster.role);
  std::set<std::string> known;
  for (const auto& [name, role] : clusters) known.insert(name);
  for (const state::InventoryEntry& entry : inventory) {
    if (known.insert(entry.ref.cluster).second) clusters.emplace_back(entry.ref.cluster, kueue::ClusterRole::Worker);
  }
  std::stable_sort(clusters.begin(), clusters.end(), [](const auto& a, const auto& b) {
    const bool ma = a.second == kueue::ClusterRole::Manager, mb = b.second == kueue::ClusterRole::Manager;
    if (ma != mb) return ma;
    return a.first < b.first;
  });

  ClusterContext context{desired, lineage, credentials, options, {}, {}};
  for (const state::InventoryEntry& entry : inventory) {
    context.recorded[entry.ref.address()] = &entry;
    context.managed.insert(entry.ref.address());
  }
  // Per worker, the credentials of mkq's nobody holds: found with the
  // manager's Secrets (the manager is planned first), revoked on the worker.
  std::map<std::string, std::vector<StaleCredential>> stale;

  // A cluster whose objects ask the credential provider (a worker credential
  // on the manager) is planned here, in order; the others, which read
  // nothing but their own objects, are planned by `work.parallelism` threads,
  // each with the revocations found before it in that order.
  struct Job {
    std::size_t index;
    std::vector<StaleCredential> revoke;
  };
  static const std::vector<const state::InventoryEntry*> kNone;
  const auto entries_of = [&](const std::string& name) -> const std::vector<const state::InventoryEntry*>& {
    const auto entries = inventory_of.find(name);
    return entries == inventory_of.end() ? kNone : entries->second;
  };
  const auto asks_provider = [&](const std::string& name) {
    if (credentials == nullptr || options.kind != PlanKind::Apply) return false;
    return std::any_of(desired.clusters.begin(), desired.clusters.end(), [&](const kueue::ClusterObjects& objects) {
      return objects.cluster == name && std::any_of(objects.objects.begin(), objects.objects.end(),
                                                    [](const kueue::Object& o) { return o.holds_credential_placeholder; });
    });
  };
  plan.clusters.resize(clusters.size());
  std::vector<Job> jobs;
  for (std::size_t index = 0; index < clusters.size(); ++index) {
    const auto& [name, role] = clusters[index];
    if (asks_provider(name)) {
      plan.clusters[index] = plan_cluster(context, name, role, live.find(name), entries_of(name), stale[name], &stale);
    } else {
      jobs.push_back(Job{index, stale[name]});
    }
  }
  base::run_parallel(jobs.size(), work.parallelism, [&](std::size_t j) {
    const auto& [name, role] = clusters[jobs[j].index];
    plan.clusters[jobs[j].index] =
        plan_cluster(context, name, role, live.find(name), entries_of(name), jobs[j].revoke, nullptr);
  });
  phase_plan(plan, desired, live);
  return plan;
}

}  // namespace mkq::reconcile
