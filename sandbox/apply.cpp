#include "sandbox/apply.h"

#include <algorithm>
#include <iterator>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace mkq::sandbox {
namespace {

using nlohmann::json;

// One metadata.managedFields entry, its fields read.
struct Entry {
  std::string manager;
  std::string operation;
  std::string api_version;
  std::string subresource;
  std::string time;  // "" when the entry has none
  FieldSet fields;
};

std::vector<Entry> read_entries(const json& object) {
  std::vector<Entry> out;
  const auto& meta = object.value("metadata", json::object());
  const auto found = meta.find("managedFields");
  if (found == meta.end() || !found->is_array()) return out;
  for (const auto& e : *found) {
    if (!e.is_object()) continue;
    Entry entry{e.value("manager", std::string()),     e.value("operation", std::string()),
                e.value("apiVersion", std::string()),  e.value("subresource", std::string()),
                e.value("time", std::string()),        decode_fields_v1(e.value("fieldsV1", json::object()))};
    out.push_back(std::move(entry));
  }
  return out;
}

// Writes the entries with fields, in kube-apiserver's order.
void write_entries(json& object, std::vector<Entry> entries) {
  entries.erase(std::remove_if(entries.begin(), entries.end(), [](const Entry& e) { return e.fields.empty(); }),
                entries.end());
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.operation, a.time, a.manager, a.api_version, a.subresource) <
           std::tie(b.operation, b.time, b.manager, b.api_version, b.subresource);
  });
  auto& meta = object["metadata"];
  if (entries.empty()) {
    meta.erase("managedFields");
    return;
  }
  json out = json::array();
  for (const auto& e : entries) {
    json entry = {{"manager", e.manager},
                  {"operation", e.operation},
                  {"apiVersion", e.api_version},
                  {"fieldsType", "FieldsV1"},
                  {"fieldsV1", encode_fields(e.fields)}};
    if (!e.time.empty()) entry["time"] = e.time;
    if (!e.subresource.empty()) entry["subresource"] = e.subresource;
    out.push_back(std::move(entry));
  }
  meta["managedFields"] = std::move(out);
}

// An Apply manager is one entry whatever version it applies through; an
// Update manager is one per version (kube-apiserver's manager identifier).
bool same_manager(const Entry& e, const std::string& operation, const FieldManager& who) {
  return e.manager == who.manager && e.operation == operation && e.subresource == who.subresource &&
         (operation == "Apply" || e.api_version == who.api_version);
}

// The part of an object a write through the main resource or through
// /status may change; the rest is reset by the server, never owned.
json writable_part(const json& object, const std::string& subresource) {
  if (!object.is_object()) return json::object();
  if (subresource == "status") {
    json out = json::object();
    if (object.contains("status")) out["status"] = object["status"];
    return out;
  }
  json out = object;
  out.erase("status");
  return out;
}

FieldSet without(FieldSet set, const FieldSet& gone) {
  for (const auto& path : gone) set.erase(path);
  return set;
}

FieldSet joined(FieldSet a, const FieldSet& b) {
  a.insert(b.begin(), b.end());
  return a;
}

std::string quoted(const std::string& text) { return json(text).dump(); }

// kube-apiserver's words for a manager in a conflict: Update managers with their version.
std::string conflict_party(const Entry& e) {
  std::string out = quoted(e.manager);
  if (!e.subresource.empty()) out += " with subresource " + quoted(e.subresource);
  if (e.operation == "Update") out += " using " + e.api_version;
  return out;
}

ApplyRefusal conflicts_of(const std::vector<std::pair<const Entry*, FieldSet>>& clashes) {
  ApplyRefusal refusal;
  refusal.conflict = true;
  std::size_t count = 0;
  for (const auto& [entry, paths] : clashes) {
    for (const auto& path : paths) {
      refusal.causes.push_back({{"reason", "FieldManagerConflict"},
                                {"message", "conflict with " + conflict_party(*entry)},
                                {"field", field_path_string(path)}});
      ++count;
    }
  }
  if (count == 1) {
    refusal.message = "Apply failed with 1 conflict: " + refusal.causes[0]["message"].get<std::string>() + ": " +
                      refusal.causes[0]["field"].get<std::string>();
    return refusal;
  }
  std::vector<std::string> lines;
  for (const auto& [entry, paths] : clashes) {
    lines.push_back("conflicts with " + conflict_party(*entry) + ":");
    for (const auto& path : paths) lines.push_back("- " + field_path_string(path));
  }
  refusal.message = fmt::format("Apply failed with {} conflicts: {}", count, fmt::join(lines, "\n"));
  return refusal;
}

// The merged object without what `who` applied last time and no longer
// applies, unless another manager (or its new configuration) owns it.
void prune(json& merged, const FieldSet& last, const std::vector<Entry>& entries, const FieldTypes& types) {
  if (last.empty()) return;
  json pruned = merged;
  remove_fields(pruned, with_named_parents(last), types);
  FieldSet owned = members_of(pruned, types);
  for (const auto& e : entries) owned.insert(e.fields.begin(), e.fields.end());
  remove_fields(merged, without(with_named_parents(members_of(merged, types)), with_named_parents(owned)), types);
}

json without_managed_fields(json object) {
  if (object.contains("metadata") && object["metadata"].is_object()) object["metadata"].erase("managedFields");
  return object;
}

}  // namespace

std::string manager_or_user_agent(const std::string& field_manager, const std::string& user_agent) {
  if (!field_manager.empty()) return field_manager;
  std::string out;
  for (const char c : user_agent.substr(0, user_agent.find('/'))) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) continue;
    if (out.size() == 128) break;
    out += c;
  }
  return out;
}

void note_update(json& object, const json* before, const FieldManager& who, const FieldTypes& types) {
  const json old_part = before == nullptr ? json::object() : writable_part(*before, who.subresource);
  const FieldComparison change = compare_fields(old_part, writable_part(object, who.subresource), types);
  const FieldSet taken = joined(change.added, change.modified);
  std::vector<Entry> entries = read_entries(object);
  Entry* mine = nullptr;
  for (auto& e : entries) {
    if (same_manager(e, "Update", who)) {
      mine = &e;
      continue;
    }
    e.fields = without(without(e.fields, taken), change.removed);
  }
  if (mine == nullptr) {
    if (taken.empty()) {
      write_entries(object, std::move(entries));
      return;
    }
    entries.push_back({who.manager, "Update", who.api_version, who.subresource, who.time, {}});
    mine = &entries.back();
  }
  mine->fields = without(joined(mine->fields, taken), change.removed);
  if (!taken.empty()) mine->time = who.time;
  write_entries(object, std::move(entries));
}

std::optional<json> server_side_apply(const json* existing, const json& config, const FieldManager& who, bool force,
                                      const FieldTypes& types, ApplyRefusal* refusal) {
  FieldSet applied;
  std::string error;
  if (!collect_members(writable_part(config, who.subresource), types, &applied, &error)) {
    refusal->message = error;
    return std::nullopt;
  }
  const json live = existing == nullptr ? json::object() : *existing;
  std::vector<Entry> entries = read_entries(live);
  FieldSet last;
  std::string last_time;
  entries.erase(std::remove_if(entries.begin(), entries.end(),
                               [&](const Entry& e) {
                                 if (!same_manager(e, "Apply", who)) return false;
                                 last = e.fields;
                                 last_time = e.time;
                                 return true;
                               }),
                entries.end());
  json merged = merge_fields(without_managed_fields(live), without_managed_fields(config), types);
  std::vector<Entry> with_mine = entries;
  with_mine.push_back({who.manager, "Apply", who.api_version, who.subresource, last_time, applied});
  prune(merged, last, with_mine, types);

  const FieldComparison change =
      compare_fields(writable_part(live, who.subresource), writable_part(merged, who.subresource), types);
  const FieldSet changed = joined(change.added, change.modified);
  std::vector<std::pair<const Entry*, FieldSet>> clashes;
  for (const auto& e : entries) {
    FieldSet clash;
    std::set_intersection(e.fields.begin(), e.fields.end(), changed.begin(), changed.end(),
                          std::inserter(clash, clash.end()));
    if (!clash.empty()) clashes.emplace_back(&e, std::move(clash));
  }
  if (!clashes.empty() && !force) {
    *refusal = conflicts_of(clashes);
    return std::nullopt;
  }
  for (auto& e : entries) e.fields = without(without(e.fields, changed), change.removed);
  const bool object_changed = without_managed_fields(merged) != without_managed_fields(live);
  entries.push_back({who.manager, "Apply", who.api_version, who.subresource, object_changed ? who.time : last_time, applied});
  write_entries(merged, std::move(entries));
  // A resourceVersion in the configuration is a precondition; none applies over whatever is stored.
  if (existing != nullptr && !config.value("metadata", json::object()).contains("resourceVersion")) {
    merged["metadata"]["resourceVersion"] = live.value("metadata", json::object()).value("resourceVersion", "");
  }
  return merged;
}

}  // namespace mkq::sandbox
