// Field sets as structured-merge-diff (kube-apiserver's server-side apply)
// sees them: which parts of an object are fields one manager can own, how
// two values of an object differ field by field, and how an applied
// configuration merges into a live object.
//
// A path is a list of FieldsV1 keys: "f:<field>" for a struct field or a map
// key, "k:{...}" for an item of an `x-kubernetes-list-type: map` list (its key
// fields as a JSON object, sorted by name), "v:<json>" for an item of a `set`
// list. Lists without a list type, `atomic` lists and `x-kubernetes-map-type:
// atomic` maps are one leaf. A set's members are the paths a manager owns:
// leaves, list items, map entries that are not declared struct fields, and
// empty or null values; FieldsV1 marks a member that also has children with ".".
//
// The shape of each field comes from the custom resource's openAPIV3Schema;
// a built-in kind (no schema here) uses kube-apiserver's shapes for the
// fields the sandbox's kinds carry: metadata (labels and annotations maps,
// finalizers a set, ownerReferences keyed by uid), string maps (data,
// selectors, resource lists), the pod lists keyed by name; any other list is
// atomic and any other object a struct.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace mkq::sandbox {

using FieldPath = std::vector<std::string>;
using FieldSet = std::set<FieldPath>;

// Where the shapes of an object's fields come from.
struct FieldTypes {
  const nlohmann::json* schema = nullptr;  // a custom resource's openAPIV3Schema; null for a built-in kind
};

// The members of `object`'s set (ToFieldSet). A list item without its key
// fields, or two items with one key, is an error (`*error` says where, as
// structured-merge-diff words it: `.spec.x: element 0: associative list with
// keys has an element that omits key field "name" (and doesn't have default value)`).
bool collect_members(const nlohmann::json& object, const FieldTypes& types, FieldSet* out, std::string* error);
// The same for a stored object, where such items are tolerated (each its own member).
FieldSet members_of(const nlohmann::json& object, const FieldTypes& types);

// How `after` differs from `before`: every node (members and the maps and
// items above them) only in `after` is added, only in `before` removed; a
// leaf in both with another value is modified.
struct FieldComparison {
  FieldSet added;
  FieldSet modified;
  FieldSet removed;
};
FieldComparison compare_fields(const nlohmann::json& before, const nlohmann::json& after, const FieldTypes& types);

// `config` merged into `live`: maps and structs key by key, keyed and set
// lists item by item (the live order kept, new items after the ones they
// follow in `config`), everything else taken from `config`.
nlohmann::json merge_fields(const nlohmann::json& live, const nlohmann::json& config, const FieldTypes& types);

// Removes from `value` every node whose path is a member of `remove` (with what is under it).
void remove_fields(nlohmann::json& value, const FieldSet& remove, const FieldTypes& types);

// `set` with every struct field above a member made a member too
// (structured-merge-diff's EnsureNamedFieldsAreMembers).
FieldSet with_named_parents(const FieldSet& set);

// Whether some member of `set` is `path` or lies under it.
bool covers(const FieldSet& set, const FieldPath& path);

// FieldsV1 and back.
nlohmann::json encode_fields(const FieldSet& set);
FieldSet decode_fields_v1(const nlohmann::json& fields_v1);

// A path as structured-merge-diff prints it: `.spec.flavors[name="a"].quota`, `.finalizers[="x"]`.
std::string field_path_string(const FieldPath& path);

}  // namespace mkq::sandbox
