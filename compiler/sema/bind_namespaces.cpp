// Namespaces, priority classes and access: `namespace`, `priorityclass` and `access`.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "compiler/facts/kueue.h"
#include "compiler/sema/bind_declarations.h"

namespace mkq::sema::bind_detail {
namespace {

namespace codes = bind_codes;

const language::Block& kNamespaceSchema = schema_at({"namespace"});
const language::Block& kPriorityClassSchema = schema_at({"priorityclass"});
const language::Block& kAccessSchema = schema_at({"access"});

constexpr std::size_t kMaxDescription = facts::kMaxPriorityClassDescriptionLength;

std::vector<Located<std::string>> subjects(Binder& binder, const Members& members, std::string_view field,
                                           const std::string& noun) {
  std::vector<Located<std::string>> result;
  auto names = string_list_field(binder, members, field);
  if (!names) return result;
  std::map<std::string, diag::SourceRange, std::less<>> seen;
  for (Located<std::string>& name : *names) {
    if (name.value.empty()) {
      binder.error(codes::kValueOutOfRange, name.range, "a " + noun + " name must not be empty");
      continue;
    }
    const auto [first, inserted] = seen.emplace(name.value, name.range);
    if (!inserted) {
      auto& d = binder.error(codes::kDuplicateListItem, name.range, noun + " '" + name.value + "' is listed twice");
      d.notes.push_back({"first here", first->second});
      continue;
    }
    result.push_back(std::move(name));
  }
  return result;
}

}  // namespace

void bind_namespace(Binder& binder, const EvalBlock& block, Draft& draft) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  const EvalLabel* label = check_labels(binder, block, kNamespaceSchema);
  const Members members(binder, block, kNamespaceSchema);
  model::Namespace ns;
  static_cast<model::Declaration&>(ns) = declaration_of(block, label);
  if (label != nullptr) check_name(binder, NameFormat::DnsLabel, label->text, label->range, "namespace name");
  if (const EvalAttribute* a = members.field("labels")) {
    if (auto labels = read_labels(binder, "labels", a->value)) ns.labels = std::move(*labels);
  }
  if (label == nullptr) return;
  const std::string what = "namespace '" + ns.name + "'";
  draft.namespaces.add(binder, std::move(ns), label->text, what);
}

void bind_priority_class(Binder& binder, const EvalBlock& block, Draft& draft) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  const EvalLabel* label =
      check_labels(binder, block, kPriorityClassSchema);
  const Members members(binder, block, kPriorityClassSchema);
  model::PriorityClass priority_class;
  static_cast<model::Declaration&>(priority_class) = declaration_of(block, label);
  if (label != nullptr) check_name(binder, NameFormat::Subdomain, label->text, label->range, "name");
  if (members.field("value") == nullptr) {
    binder.error(codes::kMissingField, priority_class.name_range,
                 "priorityclass '" + priority_class.name + "' needs field 'value'");
  } else if (auto value = integer_field(binder, members, "value", INT32_MIN, INT32_MAX)) {
    priority_class.value = {static_cast<std::int32_t>(value->value), value->range};
  }
  if (auto description = string_field(binder, members, "description")) {
    if (description->value.size() > kMaxDescription) {
      binder.error(codes::kValueOutOfRange, description->range,
                   fmt::format("field 'description' must be no more than {} characters, found {}",
                               kMaxDescription, description->value.size()));
    }
    priority_class.description = std::move(*description);
  }
  if (label == nullptr) return;
  const std::string what = "priorityclass '" + priority_class.name + "'";
  draft.priority_classes.add(binder, std::move(priority_class), label->text, what);
}

void bind_access(Binder& binder, const EvalBlock& block, Draft& draft) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  const EvalLabel* label =
      check_labels(binder, block, kAccessSchema);
  const Members members(binder, block, kAccessSchema);
  model::Access access;
  static_cast<model::Declaration&>(access) = declaration_of(block, label);
  if (label != nullptr) check_name(binder, NameFormat::Subdomain, label->text, label->range, "name");
  if (block.in_label) {
    check_name(binder, NameFormat::DnsLabel, block.in_label->text, block.in_label->range, "namespace name");
    access.namespace_name = Located<std::string>{block.in_label->text, block.in_label->range};
  }
  if (members.field("role") == nullptr) {
    binder.error(codes::kMissingField, access.name_range,
                 "access '" + access.name + "' needs field 'role' (\"batch-user\" or \"batch-admin\")");
  } else if (auto role = enum_field(binder, members, "role", model::kAccessRoles)) {
    access.role = *role;
  }
  access.users = subjects(binder, members, "users", "user");
  access.groups = subjects(binder, members, "groups", "group");
  if (label == nullptr) return;
  const std::string ns = block.in_label ? block.in_label->text : "";
  const std::string what =
      "access '" + access.name + "'" + (block.in_label ? " in namespace '" + ns + "'" : std::string());
  draft.access.add(binder, std::move(access), ns + "/" + label->text, what);
}

}  // namespace mkq::sema::bind_detail
