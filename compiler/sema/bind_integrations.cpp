// The integration catalogue: `integration` declarations (std/integrations,
// which every policy loads, and the policy's own for other frameworks), and
// what `kueue { integrations, external_frameworks }` enables, checked against
// the catalogue once every declaration is bound.
#include <algorithm>
#include <map>

#include "compiler/sema/bind_declarations.h"
#include "compiler/sema/names.h"

namespace mkq::sema::bind_detail {
namespace {

namespace codes = bind_codes;

const language::Block& kIntegrationSchema = schema_at({"integration"});
const std::vector<std::string_view>& kRuleKeys = kIntegrationSchema.field("rules")->keys;

// The resources of one rule: well-formed, listed once, at least one.
std::optional<std::vector<Located<std::string>>> bind_resources(Binder& binder, const Value& value) {
  auto resources = read_string_list(binder, "resources", value);
  if (!resources) return std::nullopt;
  if (resources->empty()) {
    binder.error(codes::kValueOutOfRange, value.origin,
                 "a rule lists no resource: give at least one, e.g. [\"jobs\", \"jobs/status\"]");
    return std::nullopt;
  }
  bool ok = true;
  std::vector<Located<std::string>> kept;
  std::map<std::string, diag::SourceRange, std::less<>> seen;
  for (Located<std::string>& resource : *resources) {
    if (const auto rule = api_resource_error(resource.value)) {
      binder.error(codes::kInvalidApiResource, resource.range,
                   "'" + resource.value + "' is not a valid API resource: " + *rule);
      ok = false;
      continue;
    }
    const auto [first, inserted] = seen.emplace(resource.value, resource.range);
    if (!inserted) {
      auto& d = binder.error(codes::kDuplicateListItem, resource.range,
                             "resource '" + resource.value + "' is listed twice");
      d.notes.push_back({"first here", first->second});
      ok = false;
      continue;
    }
    kept.push_back(std::move(resource));
  }
  if (!ok) return std::nullopt;
  return kept;
}

// `rules = [{ group: "batch", resources: ["jobs", "jobs/status"] }, ...]`:
// one rule per API group. Rules with a problem are reported and left out.
std::vector<model::IntegrationResources> bind_rules(Binder& binder, const Value& value) {
  std::vector<model::IntegrationResources> rules;
  if (!value.is(ValueKind::List)) {
    report_type(binder, "rules", "a list of { group, resources } maps", value);
    return rules;
  }
  for (const Value& item : value.as_list()) {
    if (!item.is(ValueKind::Map)) {
      if (item.is(ValueKind::Secret)) {
        report_type(binder, "rules", "a list of { group, resources } maps", item);
      } else {
        binder.error(codes::kTypeMismatch, item.origin,
                     "each element of 'rules' must be a map { group, resources }, found " + describe_found(item));
      }
      continue;
    }
    model::IntegrationResources rule;
    rule.range = item.origin;
    bool has_group = false;
    bool has_resources = false;
    bool ok = true;
    const auto entries = read_struct(binder, "rules", item, kRuleKeys);  // a map: always set
    for (const auto& [key, entry] : *entries) {
      if (key == "group") {
        auto group = read_string(binder, "group", *entry);
        // "" is the core API group (pods, services, ...).
        if (!group || (!group->value.empty() &&
                       !check_name(binder, NameFormat::Subdomain, group->value, group->range, "API group"))) {
          ok = false;
          continue;
        }
        rule.api_group = std::move(*group);
        has_group = true;
      } else {
        auto resources = bind_resources(binder, *entry);
        if (!resources) {
          ok = false;
          continue;
        }
        rule.resources = std::move(*resources);
        has_resources = true;
      }
    }
    if (!has_group && ok) {
      binder.error(codes::kMissingField, item.origin, "a rule needs a 'group' (\"\" for the core API group)");
    }
    if (!has_resources && ok) binder.error(codes::kMissingField, item.origin, "a rule needs 'resources'");
    if (!ok || !has_group || !has_resources) continue;
    const auto first = std::find_if(rules.begin(), rules.end(), [&](const model::IntegrationResources& r) {
      return r.api_group.value == rule.api_group.value;
    });
    if (first != rules.end()) {
      auto& d = binder.error(codes::kDuplicateListItem, rule.api_group.range,
                             "API group '" + rule.api_group.value + "' has two rules: list its resources in one");
      d.notes.push_back({"first here", first->api_group.range});
      continue;
    }
    rules.push_back(std::move(rule));
  }
  return rules;
}

// What kueue.integrations may name: the catalogue's Kueue framework names (not
// the external "Kind.version.group" ones).
std::vector<std::string> framework_names(const Draft& draft) {
  std::vector<std::string> names;
  for (const std::string& name : draft.integrations.keys()) {
    if (!is_external_framework_name(name)) names.push_back(name);
  }
  return names;
}

}  // namespace

void bind_integration(Binder& binder, const EvalBlock& block, Draft& draft) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  const EvalLabel* label = check_labels(binder, block, kIntegrationSchema);
  const Members members(binder, block, kIntegrationSchema);
  model::Integration integration;
  static_cast<model::Declaration&>(integration) = declaration_of(block, label);
  integration.standard = block.from_stdlib;
  if (label != nullptr) {
    if (const auto rule = integration_name_error(label->text)) {
      binder.error(codes::kBadIntegrationName, label->range,
                   "'" + label->text + "' is not a valid integration name: " + *rule);
    }
  }
  if (const EvalAttribute* rules = members.field("rules")) {
    integration.rules = bind_rules(binder, rules->value);
  } else {
    binder.error(codes::kMissingField, integration.name_range,
                 "integration '" + integration.name +
                     "' needs field 'rules' (a list of { group, resources }; [] when none of its objects reach a "
                     "worker)");
  }
  if (label == nullptr) return;
  // The standard catalogue is bound first (bind.cpp), so a policy that
  // declares one of its frameworks again meets it here.
  if (const model::Integration* first = draft.integrations.find(label->text);
      first != nullptr && first->standard && !integration.standard) {
    auto& d = binder.error(codes::kDuplicateDeclaration, integration.name_range,
                           "integration '" + integration.name + "' is already declared by std/integrations");
    d.notes.push_back({"declared here", first->name_range});
    d.notes.push_back({"every policy loads std/integrations: a policy declares only frameworks it does not know, "
                       "such as external ones",
                       std::nullopt});
    return;
  }
  const std::string what = "integration '" + integration.name + "'";
  draft.integrations.add(binder, std::move(integration), label->text, what);
}

void check_integrations(Binder& binder, Draft& draft) {
  const model::KueueSettings& kueue = draft.kueue;
  for (const Located<std::string>& name : kueue.integrations) {
    if (!name.range.valid()) continue;  // the default, not written
    const model::Integration* found = draft.integrations.find(name.value);
    if (found != nullptr && !is_external_framework_name(found->name)) continue;
    auto& d = binder.error(codes::kUnknownIntegration, name.range, "unknown Kueue integration '" + name.value + "'");
    if (found != nullptr) {
      d.notes.push_back({"'" + name.value + "' is an external framework: list it in 'external_frameworks'",
                         std::nullopt});
      continue;
    }
    diag::suggest_closest(d, name.value, framework_names(draft));
    d.notes.push_back({"another job kind is added with 'external_frameworks' (\"Kind.version.group\") and an "
                       "'integration' declaration",
                       std::nullopt});
  }

  for (const Located<std::string>& name : kueue.external_frameworks) {
    if (framework_name_error(name.value)) continue;  // E3016, reported
    if (draft.integrations.find(name.value) != nullptr) continue;
    auto& d = binder.error(codes::kUndeclaredExternalFramework, name.range,
                           "external framework '" + name.value +
                               "' has no 'integration' declaration: mkq cannot grant MultiKueue access to its "
                               "objects on the workers");
    std::vector<std::string> external;
    for (const std::string& key : draft.integrations.keys()) {
      if (is_external_framework_name(key)) external.push_back(key);
    }
    diag::suggest_closest(d, name.value, external);
    d.notes.push_back({"declare its API group and resources: integration \"" + name.value +
                           "\" { rules = [{ group: \"GROUP\", resources: [\"PLURAL\", \"PLURAL/status\"] }] }",
                       std::nullopt});
  }

  for (const model::Integration& integration : draft.integrations.items()) {
    if (integration.standard || integration_name_error(integration.name)) continue;  // a bad name: E3017
    const auto enabled = [&](const std::vector<Located<std::string>>& names) {
      return std::any_of(names.begin(), names.end(),
                         [&](const Located<std::string>& n) { return n.value == integration.name; });
    };
    if (enabled(kueue.integrations) || enabled(kueue.external_frameworks)) continue;
    Binder::InstantiationScope scope(binder, integration.instantiated_from);
    const bool external = is_external_framework_name(integration.name);
    auto& d = binder.warning(codes::kIntegrationNotEnabled, integration.name_range,
                             "integration '" + integration.name +
                                 "' is declared but not enabled: the workers grant nothing for it");
    d.notes.push_back({std::string("enable it in the kueue block's '") +
                           (external ? "external_frameworks" : "integrations") + "'",
                       std::nullopt});
  }
}

}  // namespace mkq::sema::bind_detail
