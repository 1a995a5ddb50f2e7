// MultiKueue dispatch and Kueue's configuration: `dispatch` and `kueue`.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "compiler/facts/kueue.h"
#include "compiler/sema/bind_declarations.h"
#include "compiler/sema/names.h"

namespace mkq::sema::bind_detail {
namespace {

namespace codes = bind_codes;

const language::Block& kDispatchSchema = schema_at({"dispatch"});
const language::Block& kSelectSchema = schema_at({"dispatch", "select"});
const language::Block& kKueueSchema = schema_at({"kueue"});
const language::Block& kGangSchema = schema_at({"kueue", "gang_scheduling"});
const language::Block& kKueueFairSharingSchema = schema_at({"kueue", "fair_sharing"});
const language::Block& kMultiKueueSchema = schema_at({"kueue", "multikueue"});
const language::Block& kAccessProviderSchema = schema_at({"kueue", "multikueue", "access_provider"});

// Drops (and reports) repeated strings of a list whose items must be unique.
void unique_items(Binder& binder, std::vector<Located<std::string>>& items, const std::string& noun) {
  std::vector<Located<std::string>> kept;
  std::map<std::string, diag::SourceRange, std::less<>> seen;
  for (Located<std::string>& item : items) {
    const auto [first, inserted] = seen.emplace(item.value, item.range);
    if (!inserted) {
      auto& d = binder.error(codes::kDuplicateListItem, item.range, noun + " '" + item.value + "' is listed twice");
      d.notes.push_back({"first here", first->second});
      continue;
    }
    kept.push_back(std::move(item));
  }
  items = std::move(kept);
}

// order = "most-free" and `resource` go together. A limit would make the set
// of workers (and so what each worker is given) change with their load, so a
// selection ordered by free capacity keeps every worker it matches.
void check_free_order(Binder& binder, const Members& members, model::WorkerSelector& selector) {
  const bool most_free = selector.order.value == model::WorkerOrder::MostFree;
  const EvalAttribute* resource = members.field("resource");
  if (most_free && resource == nullptr) {
    binder.error(codes::kSelectOrderResource, selector.order.range,
                 "order = \"most-free\" needs 'resource': the resource whose free amount orders the workers, "
                 "e.g. resource = \"nvidia.com/gpu\"");
  } else if (!most_free && resource != nullptr) {
    auto& d = binder.error(codes::kSelectOrderResource, resource->name_range,
                           "'resource' orders workers only with order = \"most-free\"");
    d.notes.push_back(
        {fmt::format("the order is '{}'", model::to_string(selector.order.value)), selector.order.range});
  }
  if (most_free && selector.limit) {
    auto& d = binder.error(codes::kSelectOrderResource, selector.limit->range,
                           "'limit' cannot be used with order = \"most-free\": the workers kept would change with "
                           "their load; narrow the selection with 'labels' instead");
    d.notes.push_back({"ordered by free capacity here", selector.order.range});
  }
  if (!most_free) selector.resource.reset();
}

std::optional<model::WorkerSelector> bind_select(Binder& binder, const EvalBlock* block) {
  if (block == nullptr) return std::nullopt;
  Binder::InstantiationScope scope(binder, block->instantiated_from);
  check_labels(binder, *block, kSelectSchema);
  const Members members(binder, *block, kSelectSchema);
  model::WorkerSelector selector;
  selector.range = block->range;
  selector.order = {model::WorkerOrder::Priority, block->kind_range};
  if (const EvalAttribute* a = members.field("labels")) {
    if (auto labels = read_labels(binder, "labels", a->value)) selector.labels = std::move(*labels);
  }
  if (auto order = enum_field(binder, members, "order", model::kWorkerOrders)) selector.order = *order;
  selector.limit = integer_field(binder, members, "limit", 1);
  if (auto resource = string_field(binder, members, "resource")) {
    if (check_name(binder, NameFormat::ResourceName, resource->value, resource->range, "resource name")) {
      selector.resource = std::move(*resource);
    }
  }
  check_free_order(binder, members, selector);
  return selector;
}

model::GangScheduling bind_gang_scheduling(Binder& binder, const EvalBlock& block) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  check_labels(binder, block, kGangSchema);
  const Members members(binder, block, kGangSchema);
  model::GangScheduling gang;
  gang.range = block.range;
  gang.enable = {true, block.kind_range};
  if (auto enable = bool_field(binder, members, "enable")) gang.enable = *enable;
  gang.timeout = duration_field(binder, members, "timeout", DurationBound::Positive);
  gang.recovery_timeout = duration_field(binder, members, "recovery_timeout", DurationBound::Positive);
  gang.block_admission = bool_field(binder, members, "block_admission");
  return gang;
}

model::KueueFairSharing bind_kueue_fair_sharing(Binder& binder, const EvalBlock& block) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  check_labels(binder, block, kKueueFairSharingSchema);
  const Members members(binder, block, kKueueFairSharingSchema);
  model::KueueFairSharing fair;
  fair.range = block.range;
  fair.enable = {true, block.kind_range};
  if (auto enable = bool_field(binder, members, "enable")) fair.enable = *enable;
  if (auto strategies = string_list_field(binder, members, "preemption_strategies")) {
    for (const Located<std::string>& text : *strategies) {
      if (auto strategy =
              read_enum(binder, "preemption_strategies", Value::string(text.value, text.range),
                        model::kFairSharingPreemptionStrategies)) {
        fair.preemption_strategies.push_back(*strategy);
      }
    }
  }
  return fair;
}

// `access_provider "NAME" { command = ..., ... }`: nullopt when the label is
// missing (other errors are reported and the provider kept, so that a worker
// using it is not reported too).
std::optional<model::AccessProvider> bind_access_provider(Binder& binder, const EvalBlock& block) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  const EvalLabel* label =
      check_labels(binder, block, kAccessProviderSchema);
  const Members members(binder, block, kAccessProviderSchema);
  model::AccessProvider provider;
  static_cast<model::Declaration&>(provider) = declaration_of(block, label);
  if (label != nullptr && label->text.empty()) {
    binder.error(codes::kEmptyExecField, label->range,
                 "an access provider needs a name: the name a ClusterProfile's status.accessProviders gives it");
  }
  if (auto command = string_field(binder, members, "command")) {
    if (command->value.empty()) {
      binder.error(codes::kEmptyExecField, command->range,
                   "access provider '" + provider.name + "' needs a command: the exec plugin's path in Kueue's container");
    }
    provider.command = std::move(*command);
  } else if (members.field("command") == nullptr) {
    binder.error(codes::kMissingField, provider.name_range,
                 "access provider '" + provider.name + "' needs field 'command' (the exec plugin to run)");
  }
  if (auto args = string_list_field(binder, members, "args")) provider.args = std::move(*args);
  if (const EvalAttribute* env = members.field("env")) {
    if (!env->value.is(ValueKind::Map)) {
      report_type(binder, "env", "a map of strings", env->value);
    } else {
      for (const auto& [key, item] : env->value.as_map()) {
        const diag::SourceRange& key_at = item.key_origin.valid() ? item.key_origin : env->value.origin;
        if (key.empty()) {
          binder.error(codes::kEmptyExecField, key_at,
                       "an environment variable of access provider '" + provider.name + "' needs a name");
          continue;
        }
        auto value = read_string(binder, "env", item);
        if (!value) continue;
        provider.env.push_back({{key, key_at}, std::move(*value)});
      }
    }
  }
  provider.api_version = {std::string(model::kExecApiV1), provider.name_range};
  if (auto version = string_field(binder, members, "api_version")) {
    if (version->value != model::kExecApiV1 && version->value != model::kExecApiV1beta1) {
      report_enum(binder, "api_version", version->value, version->range,
                  {std::string(model::kExecApiV1), std::string(model::kExecApiV1beta1)});
    } else {
      provider.api_version = std::move(*version);
    }
  }
  provider.provide_cluster_info = bool_field(binder, members, "provide_cluster_info");
  if (label == nullptr) return std::nullopt;
  return provider;
}

}  // namespace

std::optional<Located<model::Dispatcher>> read_dispatcher(Binder& binder, std::string_view field, const Value& value) {
  auto text = read_string(binder, field, value);
  if (!text) return std::nullopt;
  model::Dispatcher dispatcher;
  if (text->value == "all-at-once" || text->value == model::kAllAtOnceDispatcher) {
    dispatcher.mode = model::DispatchMode::AllAtOnce;
  } else if (text->value == "incremental" || text->value == model::kIncrementalDispatcher) {
    dispatcher.mode = model::DispatchMode::Incremental;
  } else {
    const std::vector<std::string> builtin = {"all-at-once", "incremental"};
    if (text->value.empty() || diag::closest_match(text->value, builtin)) {
      report_enum(binder, field, text->value, text->range, builtin);
      return std::nullopt;
    }
    dispatcher.mode = model::DispatchMode::External;
    dispatcher.external_name = text->value;
  }
  return Located<model::Dispatcher>{dispatcher, text->range};
}

void bind_dispatch(Binder& binder, const EvalBlock& block, Draft& draft) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  const EvalLabel* label = check_labels(binder, block, kDispatchSchema);
  const Members members(binder, block, kDispatchSchema);
  model::Dispatch dispatch;
  static_cast<model::Declaration&>(dispatch) = declaration_of(block, label);
  const bool name_ok =
      label != nullptr && check_name(binder, NameFormat::Subdomain, label->text, label->range, "name");

  dispatch.config_name = {dispatch.name, dispatch.name_range};
  if (auto config = string_field(binder, members, "config")) {
    check_name(binder, NameFormat::DnsLabel, config->value, config->range, "config name");
    dispatch.config_name = std::move(*config);
  } else if (name_ok && members.field("config") == nullptr) {
    // The AdmissionCheck refers to its MultiKueueConfig by a DNS-1123 label.
    check_name(binder, NameFormat::DnsLabel, dispatch.name, dispatch.name_range,
               "config name (the default, the dispatch's name; set 'config')");
  }

  if (const EvalAttribute* queues = members.field("queues")) {
    if (auto names = read_string_list(binder, "queues", queues->value)) {
      unique_items(binder, *names, "clusterqueue");
      if (names->empty()) {
        binder.error(codes::kEmptyDispatchQueues, queues->value.origin,
                     "dispatch '" + dispatch.name + "' lists no cluster queue");
      }
      for (Located<std::string>& name : *names) dispatch.queues.push_back({std::move(name.value), name.range});
    }
  } else {
    binder.error(codes::kMissingField, dispatch.name_range, "dispatch '" + dispatch.name + "' needs field 'queues'");
  }

  const EvalAttribute* workers = members.field("workers");
  dispatch.selector = bind_select(binder, members.block("select"));
  if (workers != nullptr && dispatch.selector) {
    auto& d = binder.error(codes::kDispatchWorkers, members.block("select")->kind_range,
                           "dispatch '" + dispatch.name + "' has both 'workers' and 'select': choose one");
    d.notes.push_back({"'workers' is set here", workers->name_range});
  } else if (workers == nullptr && !dispatch.selector) {
    binder.error(codes::kDispatchWorkers, dispatch.name_range,
                 "dispatch '" + dispatch.name + "' needs 'workers' (a list) or a 'select' block");
  }
  if (workers != nullptr) {
    if (auto names = read_string_list(binder, "workers", workers->value)) {
      unique_items(binder, *names, "worker");
      if (names->empty()) {
        binder.error(codes::kDispatchWorkerCount, workers->value.origin,
                     "dispatch '" + dispatch.name + "' lists no worker");
      }
      for (Located<std::string>& name : *names) dispatch.workers.push_back({std::move(name.value), name.range});
    }
  }

  DispatcherSetting setting;
  setting.owner = "dispatch '" + dispatch.name + "'";
  if (const EvalAttribute* mode = members.field("mode")) {
    dispatch.mode = read_dispatcher(binder, "mode", mode->value);
    setting.mode = dispatch.mode;
  }
  dispatch.step = integer_field(binder, members, "step", 1);
  setting.step = dispatch.step;
  if (auto origin = string_field(binder, members, "origin")) {
    check_name(binder, NameFormat::LabelValue, origin->value, origin->range, "origin (a label value)");
    dispatch.origin = *origin;
    setting.origin = std::move(*origin);
  }
  if (label == nullptr) return;
  draft.dispatcher_settings.push_back(std::move(setting));
  const std::string what = "dispatch '" + dispatch.name + "'";
  draft.dispatches.add(binder, std::move(dispatch), label->text, what);
}

void bind_kueue(Binder& binder, const EvalBlock& block, Draft& draft) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  check_labels(binder, block, kKueueSchema);
  if (!draft.kueue_blocks.empty()) {
    auto& d = binder.error(codes::kDuplicateDeclaration, block.kind_range, "the policy has two 'kueue' blocks");
    d.notes.push_back({"first here", draft.kueue_blocks.front()->kind_range});
  }
  draft.kueue_blocks.push_back(&block);
  const bool first = draft.kueue_blocks.size() == 1;
  const Members members(binder, block, kKueueSchema);
  model::KueueSettings settings;
  settings.declared = true;
  settings.range = block.range;
  if (auto platform = enum_field(binder, members, "platform", model::kPlatforms)) {
    settings.platform = *platform;
  }
  if (auto ns = string_field(binder, members, "namespace")) {
    check_name(binder, NameFormat::DnsLabel, ns->value, ns->range, "namespace name");
    settings.namespace_name = std::move(*ns);
  } else if (settings.platform.value == model::Platform::OpenShift) {
    settings.namespace_name = {std::string(facts::kOpenShiftKueueNamespace), {}};
  }
  if (auto integrations = string_list_field(binder, members, "integrations")) {
    // Each must be in the integration catalogue: checked once every
    // `integration` is bound (check_integrations, E3015).
    unique_items(binder, *integrations, "integration");
    settings.integrations = std::move(*integrations);
  } else {
    settings.integrations = {{std::string(facts::kDefaultIntegration), {}}};
  }
  settings.manage_jobs_without_queue_name = bool_field(binder, members, "manage_jobs_without_queue_name");
  if (auto restart = bool_field(binder, members, "restart")) settings.restart = std::move(*restart);
  if (const EvalAttribute* a = members.field("managed_namespaces")) {
    if (auto labels = read_labels(binder, "managed_namespaces", a->value)) {
      settings.managed_namespaces = Located<model::Labels>{std::move(*labels), a->value.origin};
    }
  }
  if (auto frameworks = string_list_field(binder, members, "external_frameworks")) {
    unique_items(binder, *frameworks, "external framework");
    for (const Located<std::string>& framework : *frameworks) {
      if (const auto rule = framework_name_error(framework.value)) {
        binder.error(codes::kBadFrameworkName, framework.range,
                     "'" + framework.value + "' is not a valid external framework: " + *rule);
      }
    }
    settings.external_frameworks = std::move(*frameworks);
  }
  if (const EvalBlock* gang = members.block("gang_scheduling")) {
    settings.gang_scheduling = bind_gang_scheduling(binder, *gang);
  }
  if (const EvalBlock* fair = members.block("fair_sharing")) {
    settings.fair_sharing = bind_kueue_fair_sharing(binder, *fair);
  }
  DispatcherSetting setting;
  setting.owner = "the kueue block";
  if (const EvalBlock* mk = members.block("multikueue")) {
    Binder::InstantiationScope mk_scope(binder, mk->instantiated_from);
    check_labels(binder, *mk, kMultiKueueSchema);
    const Members mk_members(binder, *mk, kMultiKueueSchema);
    settings.multikueue.range = mk->range;
    settings.multikueue.gc_interval = duration_field(binder, mk_members, "gc_interval", DurationBound::NonNegative);
    settings.multikueue.worker_lost_timeout =
        duration_field(binder, mk_members, "worker_lost_timeout", DurationBound::NonNegative);
    if (const EvalAttribute* a = mk_members.field("dispatcher")) setting.mode = read_dispatcher(binder, "dispatcher", a->value);
    setting.step = integer_field(binder, mk_members, "step", 1);
    if (auto origin = string_field(binder, mk_members, "origin")) {
      check_name(binder, NameFormat::LabelValue, origin->value, origin->range, "origin (a label value)");
      setting.origin = std::move(*origin);
    }
    std::map<std::string, diag::SourceRange, std::less<>> providers;
    for (const EvalBlock* nested : mk_members.blocks("access_provider")) {
      auto provider = bind_access_provider(binder, *nested);
      if (!provider) continue;
      const auto [seen, fresh] = providers.emplace(provider->name, provider->name_range);
      if (!fresh) {
        Binder::InstantiationScope provider_scope(binder, provider->instantiated_from);
        auto& d = binder.error(codes::kDuplicateDeclaration, provider->name_range,
                               "access provider '" + provider->name + "' is declared twice");
        d.notes.push_back({"first declared here", seen->second});
        continue;
      }
      settings.multikueue.access_providers.push_back(std::move(*provider));
    }
  }
  if (!first) return;
  draft.kueue = std::move(settings);
  draft.kueue_setting = std::move(setting);
}

}  // namespace mkq::sema::bind_detail
