// Kueue's configuration as mkq plans it: the settings mkq manages (lowering
// renders only those, kueue::schema::kManagedConfigurationPaths) merged into
// the Configuration the cluster holds, which keeps every other setting; the
// plan shows the change field by field; and after a change apply restarts
// Kueue's controller manager, which reads its configuration only when it
// starts (the change's Restart, carried out by apply.cpp through rollout.h).
//
// What a managed setting becomes:
//   - the policy sets it: the policy's value, replacing the setting whole;
//   - the policy does not set it: what it was before mkq first applied the
//     configuration (`before`), or absent when it was absent then -- so a
//     setting the policy stops declaring goes back, and one mkq added goes;
//   - the policy does not set it and `before` is unknown: left as it is.
// Comments and the formatting of the text are not kept when something
// changes (the text is written anew); when nothing changes, the cluster's
// text stays byte for byte.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "compiler/kueue/objects.h"
#include "runtime/reconcile/plan.h"

namespace mkq::reconcile {

// The entry function, called by make_plan for the object lowering marked
// kueue_configuration. `live` is the ConfigMap on the cluster (null: absent),
// `recorded` its inventory entry (null: mkq never applied it). It merges,
// lets `plan_document` (plan.cpp's diff of one object) plan the ConfigMap
// that holds the merged configuration, and then shows the configuration's
// change field by field -- paths data["controller_manager_config.yaml"].a.b
// -- instead of one string, and sets the change's Restart when the
// configuration Kueue reads changes. A configuration that cannot be merged
// into (not YAML, not a map, another apiVersion or kind) is planned as an
// update that apply refuses (Change::error): mkq never overwrites what it
// cannot read.
Change plan_kueue_configuration(const kueue::Object& object, const Json* live,
                                const state::InventoryEntry* recorded,
                                const std::function<Change(const kueue::Object&)>& plan_document);

// After the removal (destroy, prune) of Kueue's configuration: the restart
// that makes Kueue read what is left. Changes of other objects, and removals
// that change nothing, are left alone. `desired` tells whether the policy
// turned restarts off (a policy without Kueue settings: restart).
void note_restart_after_removal(Change& change, const kueue::DesiredState& desired);

// The Kueue configuration a ConfigMap holds (its controller_manager_config.yaml,
// read as detail::parse_configuration reads it): an empty map when the key is
// absent or empty; the parser's Error when the text is not YAML. What
// preflight reads of a cluster's configuration (runtime/preflight).
kube::Result<Json> configuration_of(const Json& config_map);

namespace detail {

// The merge itself, on parsed configurations: `managed` as lowering renders
// it, `live` as the cluster holds it, `before` what it was before mkq (null:
// unknown). Keys keep the live document's order; new ones are appended.
Json merge_configuration(const Json& managed, const Json& live, const Json* before);

// A configuration's text (YAML or JSON) as an ordered JSON document: plain
// scalars that read as null, booleans or numbers become those, every other
// scalar a string. Not YAML: an Error (status 0, reason "ConfigError") with
// the parser's message.
kube::Result<Json> parse_configuration(const std::string& text);

// Every difference between two configurations, maps descended, lists and
// scalars whole, paths under `prefix` (`prefix.a.b`), in document order.
std::vector<FieldDiff> configuration_diff(const Json& before, const Json& after, const std::string& prefix);

}  // namespace detail

}  // namespace mkq::reconcile
