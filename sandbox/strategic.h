// Strategic merge patch (application/strategic-merge-patch+json) for the
// sandbox's built-in kinds: a JSON merge patch, except that the lists the
// kinds' Go types mark `patchStrategy:"merge"` are merged — by their
// patchMergeKey for lists of objects (metadata.ownerReferences by uid,
// ServiceAccount secrets by name), as a union for lists of strings
// (metadata.finalizers) — and that the directives $patch (replace, delete,
// merge), $retainKeys, $deleteFromPrimitiveList/F and $setElementOrder/F are
// honoured ($setElementOrder only by being dropped: merged items keep the
// stored order, new ones are appended).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace mkq::sandbox {

// `kind` is the object's Kind ("ServiceAccount"). nullopt and *error when the
// patch is malformed (a $patch value it does not know, a merge-list item
// without its key).
std::optional<nlohmann::json> strategic_merge(const nlohmann::json& original, const nlohmann::json& patch,
                                              const std::string& kind, std::string* error);

}  // namespace mkq::sandbox
