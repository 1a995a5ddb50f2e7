// The clusters: `manager` and `worker` (with credentials, capacity and
// overrides of mirrored cluster queues).
#include <algorithm>

#include <fmt/format.h>

#include "compiler/facts/kueue.h"
#include "compiler/sema/bind_declarations.h"

namespace mkq::sema::bind_detail {
namespace {

namespace codes = bind_codes;

const language::Block& kManagerSchema = schema_at({"manager"});
const language::Block& kStateSchema = schema_at({"manager", "state"});
const language::Block& kSyncSchema = schema_at({"manager", "sync"});

// The state's Secrets and Lease are named NAME-... (runtime/state/cluster_state.h).
constexpr std::size_t kStateNameMax = facts::kMaxStateNameLength;
const language::Block& kWorkerSchema = schema_at({"worker"});
const language::Block& kCredentialsSchema = schema_at({"worker", "credentials"});
const language::Block& kOverrideSchema = schema_at({"worker", "override"});

constexpr std::int64_t kDay = 24LL * 60 * 60 * 1000;

model::Connection bind_connection(Binder& binder, const Members& members, const model::Declaration& owner) {
  model::Connection connection;
  connection.context = {owner.name, owner.name_range};
  if (auto context = string_field(binder, members, "context")) connection.context = std::move(*context);
  if (auto kubeconfig = string_field(binder, members, "kubeconfig")) connection.kubeconfig = std::move(*kubeconfig);
  return connection;
}

void bind_labels_field(Binder& binder, const Members& members, model::Labels& labels, diag::SourceRange& range) {
  const EvalAttribute* attribute = members.field("labels");
  if (attribute == nullptr) return;
  range = attribute->value.origin;
  if (auto read = read_labels(binder, "labels", attribute->value)) labels = std::move(*read);
}

model::Credentials bind_credentials(Binder& binder, const EvalBlock* block, const model::Worker& worker) {
  model::Credentials credentials;
  const diag::SourceRange& at = worker.name_range;
  credentials.mode = {model::CredentialsMode::ServiceAccount, at};
  credentials.service_account = {"multikueue-sa", at};
  credentials.lifetime = {Duration::from_millis(30 * kDay), at};
  credentials.rotate_before = {Duration::from_millis(7 * kDay), at};
  credentials.cluster_profile = {worker.name, at};
  credentials.range = at;
  if (block == nullptr) return credentials;

  Binder::InstantiationScope scope(binder, block->instantiated_from);
  check_labels(binder, *block, kCredentialsSchema);
  const Members members(binder, *block, kCredentialsSchema);
  credentials.range = block->range;
  if (auto mode = enum_field(binder, members, "mode", model::kCredentialsModes)) credentials.mode = *mode;
  if (auto account = string_field(binder, members, "service_account")) {
    check_name(binder, NameFormat::Subdomain, account->value, account->range, "service account name");
    credentials.service_account = std::move(*account);
  }
  const auto lifetime = duration_field(binder, members, "lifetime", DurationBound::Positive);
  const auto rotate_before = duration_field(binder, members, "rotate_before", DurationBound::Positive);
  if (lifetime) credentials.lifetime = *lifetime;
  if (rotate_before) credentials.rotate_before = *rotate_before;
  if (const EvalAttribute* a = members.field("kubeconfig")) {
    if (auto secret = read_secret(binder, "kubeconfig", a->value)) credentials.kubeconfig = std::move(*secret);
  }
  if (const EvalAttribute* a = members.field("token")) {
    if (auto secret = read_secret(binder, "token", a->value)) credentials.token = std::move(*secret);
  }
  if (auto profile = string_field(binder, members, "cluster_profile")) {
    check_name(binder, NameFormat::Subdomain, profile->value, profile->range, "cluster profile name");
    credentials.cluster_profile = std::move(*profile);
  }

  // The token is rotated `rotate_before` its end: the window must fit in its
  // life. Only service-account tokens have either (other modes report the
  // fields as not applying, below).
  const bool mints_tokens = credentials.mode.value == model::CredentialsMode::ServiceAccount;
  const bool lifetime_read = lifetime.has_value() || members.field("lifetime") == nullptr;
  const bool rotate_read = rotate_before.has_value() || members.field("rotate_before") == nullptr;
  if (mints_tokens && lifetime_read && rotate_read &&
      credentials.rotate_before.value.compare(credentials.lifetime.value) >= 0) {
    const std::string life = credentials.lifetime.value.to_string();
    const std::string window = credentials.rotate_before.value.to_string();
    if (rotate_before) {
      binder.error(codes::kRotationWindow, rotate_before->range,
                   fmt::format("'rotate_before' ({}) must be shorter than 'lifetime' ({}{})", window, life,
                               lifetime ? "" : ", the default"));
    } else {
      binder.error(
          codes::kRotationWindow, lifetime->range,
          fmt::format("'lifetime' ({}) must be longer than 'rotate_before' ({}, the default)", life, window));
    }
  }

  // Fields that only make sense for one mode.
  const model::CredentialsMode mode = credentials.mode.value;
  const std::string mode_name(model::to_string(mode));
  const auto only_for = [&](std::string_view field, model::CredentialsMode wanted) {
    const EvalAttribute* a = members.field(field);
    if (a == nullptr || mode == wanted) return;
    auto& d = binder.error(
        codes::kCredentialsMode, a->name_range,
        fmt::format("field '{}' applies only to credentials mode '{}'", field, model::to_string(wanted)));
    d.notes.push_back(
        {fmt::format("the mode is '{}'{}", mode_name, members.field("mode") ? "" : " (the default)"),
         members.field("mode") ? std::optional(credentials.mode.range) : std::nullopt});
  };
  only_for("service_account", model::CredentialsMode::ServiceAccount);
  only_for("lifetime", model::CredentialsMode::ServiceAccount);
  only_for("rotate_before", model::CredentialsMode::ServiceAccount);
  only_for("token", model::CredentialsMode::ServiceAccount);
  only_for("kubeconfig", model::CredentialsMode::Kubeconfig);
  only_for("cluster_profile", model::CredentialsMode::ClusterProfile);
  if (mode == model::CredentialsMode::Kubeconfig && members.field("kubeconfig") == nullptr) {
    binder.error(codes::kMissingField, credentials.mode.range,
                 "credentials mode 'kubeconfig' needs field 'kubeconfig' (a secret)");
  }
  return credentials;
}

std::optional<model::StateSettings> bind_state(Binder& binder, const EvalBlock* block) {
  if (block == nullptr) return std::nullopt;
  Binder::InstantiationScope scope(binder, block->instantiated_from);
  check_labels(binder, *block, kStateSchema);
  const Members members(binder, *block, kStateSchema);
  model::StateSettings state;
  state.range = block->range;
  state.namespace_name = {"mkq-system", block->kind_range};
  if (auto ns = string_field(binder, members, "namespace")) {
    check_name(binder, NameFormat::DnsLabel, ns->value, ns->range, "namespace");
    state.namespace_name = std::move(*ns);
  }
  if (auto name = string_field(binder, members, "name")) {
    if (check_name(binder, NameFormat::DnsLabel, name->value, name->range, "state name") &&
        name->value.size() > kStateNameMax) {
      binder.error(
          codes::kStateName, name->range,
          fmt::format("the state's name '{}' has {} characters; at most {} (its Secrets and lock are "
                      "named after it)",
                      name->value, name->value.size(), kStateNameMax));
    }
    state.name = std::move(*name);
  }
  return state;
}

std::optional<model::SyncSettings> bind_sync(Binder& binder, const EvalBlock* block) {
  if (block == nullptr) return std::nullopt;
  Binder::InstantiationScope scope(binder, block->instantiated_from);
  check_labels(binder, *block, kSyncSchema);
  const Members members(binder, *block, kSyncSchema);
  model::SyncSettings sync;
  sync.range = block->range;
  sync.mode = enum_field(binder, members, "mode", model::kSyncModes);
  sync.self_heal = bool_field(binder, members, "self_heal");
  sync.prune = bool_field(binder, members, "prune");
  sync.interval = duration_field(binder, members, "interval", DurationBound::Positive);
  return sync;
}

std::optional<model::ClusterQueueOverride> bind_override(Binder& binder, const EvalBlock& block) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  const EvalLabel* label = check_labels(binder, block, kOverrideSchema);
  const Members members(binder, block, kOverrideSchema);
  model::ClusterQueueOverride result;
  result.range = block.range;
  if (auto name = string_field(binder, members, "name")) {
    check_name(binder, NameFormat::Subdomain, name->value, name->range, "name");
    result.name = std::move(*name);
  }
  result.resource_groups = bind_resource_groups(binder, members, QuotaOwner::Override);
  if (label == nullptr) return std::nullopt;
  result.cluster_queue = {label->text, label->range};
  return result;
}

}  // namespace

model::Declaration declaration_of(const EvalBlock& block, const EvalLabel* label) {
  model::Declaration declaration;
  if (label != nullptr) {
    declaration.name = label->text;
    declaration.name_range = label->range;
  } else {
    declaration.name_range = block.kind_range;
  }
  declaration.range = block.range;
  declaration.instantiated_from = block.instantiated_from;
  return declaration;
}

void bind_manager(Binder& binder, const EvalBlock& block, Draft& draft) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  const EvalLabel* label = check_labels(binder, block, kManagerSchema);
  const Members members(binder, block, kManagerSchema);
  model::Manager manager;
  static_cast<model::Declaration&>(manager) = declaration_of(block, label);
  if (label != nullptr) check_name(binder, NameFormat::Subdomain, label->text, label->range, "name");
  manager.connection = bind_connection(binder, members, manager);
  bind_labels_field(binder, members, manager.labels, manager.labels_range);
  manager.state = bind_state(binder, members.block("state"));
  manager.sync = bind_sync(binder, members.block("sync"));
  if (label == nullptr) return;
  draft.managers.push_back(std::move(manager));
}

void bind_worker(Binder& binder, const EvalBlock& block, Draft& draft) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  const EvalLabel* label = check_labels(binder, block, kWorkerSchema);
  const Members members(binder, block, kWorkerSchema);
  model::Worker worker;
  static_cast<model::Declaration&>(worker) = declaration_of(block, label);
  const bool name_ok =
      label != nullptr && check_name(binder, NameFormat::Subdomain, label->text, label->range, "name");
  worker.connection = bind_connection(binder, members, worker);
  bind_labels_field(binder, members, worker.labels, worker.labels_range);
  worker.priority = {0, worker.name_range};
  if (auto priority = integer_field(binder, members, "priority")) worker.priority = *priority;
  worker.secret_name = {worker.name + "-kubeconfig", worker.name_range};
  if (auto secret = string_field(binder, members, "secret")) {
    check_name(binder, NameFormat::Subdomain, secret->value, secret->range, "Secret name");
    worker.secret_name = std::move(*secret);
  } else if (name_ok && members.field("secret") == nullptr) {
    check_name(binder, NameFormat::Subdomain, worker.secret_name.value, worker.name_range,
               "Secret name (the default, NAME-kubeconfig; set 'secret')");
  }
  worker.credentials = bind_credentials(binder, members.block("credentials"), worker);

  for (const EvalBlock* nested : members.blocks("capacity")) {
    auto capacity = bind_capacity(binder, *nested);
    if (!capacity) continue;
    const auto first = std::find_if(worker.capacities.begin(), worker.capacities.end(),
                                    [&](const model::Capacity& c) { return c.flavor.name == capacity->flavor.name; });
    if (first != worker.capacities.end()) {
      auto& d = binder.error(codes::kDuplicateQuota, capacity->flavor.range,
                             "worker '" + worker.name + "' has two capacity blocks for flavor '" +
                                 capacity->flavor.name + "'");
      d.notes.push_back({"first here", first->flavor.range});
      continue;
    }
    worker.capacities.push_back(std::move(*capacity));
  }
  for (const EvalBlock* nested : members.blocks("override")) {
    auto override_ = bind_override(binder, *nested);
    if (!override_) continue;
    const auto first =
        std::find_if(worker.overrides.begin(), worker.overrides.end(), [&](const model::ClusterQueueOverride& o) {
          return o.cluster_queue.name == override_->cluster_queue.name;
        });
    if (first != worker.overrides.end()) {
      auto& d = binder.error(codes::kDuplicateDeclaration, override_->cluster_queue.range,
                             "worker '" + worker.name + "' overrides clusterqueue '" + override_->cluster_queue.name +
                                 "' twice");
      d.notes.push_back({"first here", first->cluster_queue.range});
      continue;
    }
    worker.overrides.push_back(std::move(*override_));
  }
  std::sort(worker.capacities.begin(), worker.capacities.end(),
            [](const model::Capacity& a, const model::Capacity& b) { return a.flavor.name < b.flavor.name; });
  std::sort(worker.overrides.begin(), worker.overrides.end(),
            [](const model::ClusterQueueOverride& a, const model::ClusterQueueOverride& b) {
              return a.cluster_queue.name < b.cluster_queue.name;
            });
  if (label == nullptr) return;
  const std::string what = "worker '" + worker.name + "'";
  draft.workers.add(binder, std::move(worker), label->text, what);
}

}  // namespace mkq::sema::bind_detail
