// bind(): the entry of binding. Binds every top-level block (bind_<area>.cpp),
// then checks what spans declarations: the manager, references, cohort cycles,
// dispatch worker selection and the Kueue-wide dispatcher settings; finally
// assembles the sorted model.
#include "compiler/facts/kueue.h"
#include "compiler/sema/bind.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "compiler/sema/bind_declarations.h"

namespace mkq::sema {
namespace {

using bind_detail::Binder;
using bind_detail::Draft;
using model::Located;
namespace codes = bind_codes;

constexpr std::size_t kMaxDispatchWorkers = facts::kMaxMultiKueueClusters;  // MultiKueueConfig.spec.clusters

struct TopLevelKind {
  std::string_view kind;
  void (*bind)(Binder&, const EvalBlock&, Draft&);
};

const TopLevelKind kTopLevelKinds[] = {
    {"policy", bind_detail::bind_identity},
    {"manager", bind_detail::bind_manager},
    {"worker", bind_detail::bind_worker},
    {"flavor", bind_detail::bind_flavor},
    {"topology", bind_detail::bind_topology},
    {"cohort", bind_detail::bind_cohort},
    {"clusterqueue", bind_detail::bind_cluster_queue},
    {"localqueue", bind_detail::bind_local_queue},
    {"namespace", bind_detail::bind_namespace},
    {"priorityclass", bind_detail::bind_priority_class},
    {"dispatch", bind_detail::bind_dispatch},
    {"kueue", bind_detail::bind_kueue},
    {"access", bind_detail::bind_access},
    {"integration", bind_detail::bind_integration},
};

// Where the nested-only block kinds belong, for a block written at the top level.
const std::map<std::string, std::string, std::less<>> kNestedKindHomes = {
    {"quota", "a clusterqueue, a cohort or a worker's override"},
    {"group", "a clusterqueue, a cohort or a worker's override"},
    {"capacity", "a worker"},
    {"credentials", "a worker"},
    {"state", "the manager"},
    {"sync", "the manager"},
    {"override", "a worker"},
    {"preemption", "a clusterqueue"},
    {"flavor_fungibility", "a clusterqueue"},
    {"fair_sharing", "a cohort, a clusterqueue, a localqueue or the kueue block"},
    {"select", "a dispatch"},
    {"gang_scheduling", "the kueue block"},
    {"multikueue", "the kueue block"},
    {"access_provider", "the kueue block's multikueue block"},
};

void bind_top_level(Binder& binder, const EvalBlock& block, Draft& draft) {
  for (const TopLevelKind& kind : kTopLevelKinds) {
    if (block.kind == kind.kind) {
      kind.bind(binder, block, draft);
      return;
    }
  }
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  if (const auto home = kNestedKindHomes.find(block.kind); home != kNestedKindHomes.end()) {
    binder.error(codes::kUnknownBlockKind, block.kind_range,
                 "'" + block.kind + "' cannot be declared at the top level: it belongs in " + home->second);
    return;
  }
  auto& d = binder.error(codes::kUnknownBlockKind, block.kind_range, "unknown declaration '" + block.kind + "'");
  std::vector<std::string> kinds;
  for (const TopLevelKind& kind : kTopLevelKinds) kinds.emplace_back(kind.kind);
  diag::suggest_closest(d, block.kind, kinds);
}

// ------------------------------------------------------------------ the manager

// `file`: the policy's first file with a declaration of its own, else its first file.
void check_manager(Binder& binder, diag::FileId file, Draft& draft) {
  if (draft.managers.empty()) {
    diag::SourceRange at;  // the start of `file`
    at.file = file;
    binder.error(codes::kNoManager, at, "the policy declares no manager");
    return;
  }
  const model::Manager& manager = draft.managers.front();
  for (std::size_t i = 1; i < draft.managers.size(); ++i) {
    const model::Manager& extra = draft.managers[i];
    Binder::InstantiationScope scope(binder, extra.instantiated_from);
    auto& d = binder.error(codes::kTwoManagers, extra.name_range,
                           "the policy declares a second manager '" + extra.name + "'");
    d.notes.push_back({"the first manager '" + manager.name + "' is declared here", manager.name_range});
  }
  for (const model::Worker& worker : draft.workers.items()) {
    Binder::InstantiationScope scope(binder, worker.instantiated_from);
    if (worker.name == manager.name) {
      auto& d = binder.error(codes::kManagerIsWorker, worker.name_range,
                             "worker '" + worker.name + "' has the manager's name: the manager cannot be its own worker");
      d.notes.push_back({"the manager is declared here", manager.name_range});
      continue;
    }
    const auto path = [](const model::Connection& c) { return c.kubeconfig ? c.kubeconfig->value : std::string(); };
    if (worker.connection.context.value == manager.connection.context.value &&
        path(worker.connection) == path(manager.connection)) {
      auto& d = binder.error(codes::kManagerIsWorker, worker.connection.context.range,
                             "worker '" + worker.name + "' uses the manager's context '" +
                                 manager.connection.context.value + "': the manager cannot be its own worker");
      d.notes.push_back({"the manager's context", manager.connection.context.range});
    }
  }
}

// ------------------------------------------------------------------ references

template <typename T>
bool resolve(Binder& binder, const bind_detail::Table<T>& table, const model::Ref& ref, const char* code,
             const std::string& noun) {
  if (table.find(ref.name) != nullptr) return true;
  auto& d = binder.error(code, ref.range, "unknown " + noun + " '" + ref.name + "'");
  diag::suggest_closest(d, ref.name, table.keys());
  return false;
}

void resolve_flavors_of(Binder& binder, const Draft& draft, const std::vector<model::ResourceGroup>& groups) {
  for (const model::ResourceGroup& group : groups) {
    for (const model::FlavorQuotas& quotas : group.flavors) {
      resolve(binder, draft.flavors, quotas.flavor, codes::kUnknownFlavor, "flavor");
    }
  }
}

// A cohort reference: declared, or an implicit cohort (with a warning when the
// name is close to a declared one, which is probably meant).
void resolve_cohort(Binder& binder, Draft& draft, const model::Ref& ref,
                    std::map<std::string, diag::SourceRange>& implicit) {
  if (draft.cohorts.find(ref.name) != nullptr) return;
  if (!implicit.emplace(ref.name, ref.range).second) return;  // checked at its first reference
  const std::vector<std::string> declared = draft.cohorts.keys();
  if (!diag::closest_match(ref.name, declared)) return;
  auto& d = binder.warning(codes::kImplicitCohortTypo, ref.range,
                           "cohort '" + ref.name + "' is not declared, so it is an implicit cohort");
  diag::suggest_closest(d, ref.name, declared);
}

void check_cohort_cycles(Binder& binder, Draft& draft) {
  enum class State { Unvisited, OnPath, Done };
  std::map<std::string, State> state;
  for (const std::string& start : draft.cohorts.keys()) {
    if (state[start] != State::Unvisited) continue;
    std::vector<const model::Cohort*> path;
    const model::Cohort* current = draft.cohorts.find(start);
    while (current != nullptr && state[current->name] == State::Unvisited) {
      state[current->name] = State::OnPath;
      path.push_back(current);
      current = current->parent ? draft.cohorts.find(current->parent->name) : nullptr;
    }
    if (current != nullptr && state[current->name] == State::OnPath) {
      // path[k..] is a cycle; report it from its smallest name.
      auto begin = std::find(path.begin(), path.end(), current);
      std::vector<const model::Cohort*> cycle(begin, path.end());
      std::rotate(cycle.begin(),
                  std::min_element(cycle.begin(), cycle.end(),
                                   [](const model::Cohort* a, const model::Cohort* b) { return a->name < b->name; }),
                  cycle.end());
      const model::Cohort& head = *cycle.front();
      Binder::InstantiationScope scope(binder, head.instantiated_from);
      if (cycle.size() == 1) {
        binder.error(codes::kCohortCycle, head.parent->range, "cohort '" + head.name + "' is its own parent");
      } else {
        std::string chain;
        for (const model::Cohort* cohort : cycle) chain += cohort->name + " -> ";
        chain += head.name;
        auto& d = binder.error(codes::kCohortCycle, head.parent->range, "cohort parents form a cycle: " + chain);
        for (std::size_t i = 1; i < cycle.size(); ++i) {
          d.notes.push_back({"cohort '" + cycle[i]->name + "' has parent '" + cycle[i]->parent->name + "'",
                             cycle[i]->parent->range});
        }
      }
    }
    for (const model::Cohort* cohort : path) state[cohort->name] = State::Done;
  }
}

// Workers matching a selection, in dispatch order.
std::vector<const model::Worker*> select_workers(const Draft& draft, const model::WorkerSelector& selector) {
  std::vector<const model::Worker*> selected;
  for (const model::Worker& worker : draft.workers.items()) {
    const bool matches = std::all_of(selector.labels.begin(), selector.labels.end(), [&](const auto& label) {
      const auto it = worker.labels.find(label.first);
      return it != worker.labels.end() && it->second == label.second;
    });
    if (matches) selected.push_back(&worker);
  }
  const bool by_priority = selector.order.value == model::WorkerOrder::Priority;
  std::sort(selected.begin(), selected.end(), [&](const model::Worker* a, const model::Worker* b) {
    if (by_priority && a->priority.value != b->priority.value) return a->priority.value > b->priority.value;
    return a->name < b->name;
  });
  if (selector.limit && selected.size() > static_cast<std::size_t>(selector.limit->value)) {
    selected.resize(static_cast<std::size_t>(selector.limit->value));
  }
  return selected;
}

void resolve_dispatches(Binder& binder, Draft& draft) {
  std::map<std::string, const model::Dispatch*> dispatch_of_queue;
  std::map<std::string, const model::Dispatch*> dispatch_of_config;
  for (model::Dispatch& dispatch : draft.dispatches.items()) {
    Binder::InstantiationScope scope(binder, dispatch.instantiated_from);
    const auto [config, fresh] = dispatch_of_config.emplace(dispatch.config_name.value, &dispatch);
    if (!fresh) {
      auto& d = binder.error(codes::kDuplicateDeclaration, dispatch.config_name.range,
                             "dispatch '" + dispatch.name + "' uses config name '" + dispatch.config_name.value +
                                 "' of dispatch '" + config->second->name + "'");
      d.notes.push_back({"first used here", config->second->config_name.range});
    }
    for (const model::Ref& queue : dispatch.queues) {
      if (!resolve(binder, draft.cluster_queues, queue, codes::kUnknownClusterQueue, "clusterqueue")) continue;
      const auto [it, inserted] = dispatch_of_queue.emplace(queue.name, &dispatch);
      if (!inserted) {
        auto& d = binder.error(codes::kQueueDispatchedTwice, queue.range,
                               "clusterqueue '" + queue.name + "' is already dispatched by dispatch '" +
                                   it->second->name + "': a queue takes one MultiKueue admission check");
        for (const model::Ref& first : it->second->queues) {
          if (first.name == queue.name) d.notes.push_back({"listed here", first.range});
        }
        continue;
      }
      draft.cluster_queues.find(queue.name)->dispatch = dispatch.name;
    }
    if (dispatch.selector) {
      const auto selected = select_workers(draft, *dispatch.selector);
      const diag::SourceRange at = dispatch.selector->range;
      dispatch.workers.clear();
      for (const model::Worker* worker : selected) dispatch.workers.push_back({worker->name, at});
      if (selected.empty()) {
        binder.error(codes::kDispatchWorkerCount, at, "the selection of dispatch '" + dispatch.name + "' matches no worker");
      } else if (selected.size() > kMaxDispatchWorkers) {
        binder.error(
            codes::kDispatchWorkerCount, at,
            fmt::format("the selection of dispatch '{}' yields {} workers; a MultiKueueConfig takes at "
                        "most {} (set 'limit')",
                        dispatch.name, selected.size(), kMaxDispatchWorkers));
      }
      continue;
    }
    for (const model::Ref& worker : dispatch.workers) {
      resolve(binder, draft.workers, worker, codes::kUnknownWorker, "worker");
    }
    if (dispatch.workers.size() > kMaxDispatchWorkers) {
      binder.error(codes::kDispatchWorkerCount, dispatch.workers[kMaxDispatchWorkers].range,
                   fmt::format("dispatch '{}' lists {} workers; a MultiKueueConfig takes at most {}",
                               dispatch.name, dispatch.workers.size(), kMaxDispatchWorkers));
    }
  }
}

// Two workers must not share what identifies a cluster or its credential: the
// kubeconfig Secret on the manager (one would overwrite the other) and the
// kubeconfig context (one cluster registered twice). The manager's context is
// check_manager's (E3062).
void check_worker_identities(Binder& binder, Draft& draft) {
  std::map<std::string, const model::Worker*> by_secret;
  std::map<std::string, std::pair<std::string, diag::SourceRange>> by_context;  // key: kubeconfig path + context
  const auto context_key = [](const model::Connection& c) {
    return (c.kubeconfig ? c.kubeconfig->value : std::string()) + "\n" + c.context.value;
  };
  for (const model::Worker& worker : draft.workers.items()) {
    Binder::InstantiationScope scope(binder, worker.instantiated_from);
    const auto [secret, fresh_secret] = by_secret.emplace(worker.secret_name.value, &worker);
    if (!fresh_secret) {
      auto& d = binder.error(codes::kSharedSecret, worker.secret_name.range,
                             "workers '" + secret->second->name + "' and '" + worker.name +
                                 "' use one kubeconfig Secret '" + worker.secret_name.value +
                                 "': one credential would overwrite the other");
      d.notes.push_back({"'" + secret->second->name + "' uses it here", secret->second->secret_name.range});
    }
    const auto [context, fresh_context] = by_context.emplace(
        context_key(worker.connection), std::make_pair("worker '" + worker.name + "'", worker.connection.context.range));
    if (!fresh_context) {
      auto& d = binder.error(codes::kSameCluster, worker.connection.context.range,
                             "worker '" + worker.name + "' connects to context '" + worker.connection.context.value +
                                 "' like " + context->second.first + ": one cluster cannot be two MultiKueue clusters");
      d.notes.push_back({context->second.first + " connects here", context->second.second});
    }
  }
}

// Workers reached through ClusterProfiles: Kueue connects only with an access
// provider its configuration names (E3095), and one ClusterProfile is one
// cluster, which cannot be two MultiKueue clusters (E3097). Whether the
// ClusterProfile offers a provider the policy names is the plan's check.
void check_cluster_profiles(Binder& binder, Draft& draft) {
  const bool has_providers = !draft.kueue.multikueue.access_providers.empty();
  std::map<std::string, const model::Worker*, std::less<>> by_profile;
  for (const model::Worker& worker : draft.workers.items()) {
    const model::Credentials& credentials = worker.credentials;
    if (credentials.mode.value != model::CredentialsMode::ClusterProfile) continue;
    Binder::InstantiationScope scope(binder, worker.instantiated_from);
    if (!has_providers) {
      auto& d = binder.error(codes::kClusterProfileWithoutProvider, credentials.mode.range,
                             "worker '" + worker.name + "' uses ClusterProfile '" + credentials.cluster_profile.value +
                                 "', but the policy names no access provider for Kueue to reach it with");
      d.notes.push_back({"declare the provider the ClusterProfile's status.accessProviders names: kueue { multikueue { "
                         "access_provider \"NAME\" { command = \"/plugins/...\" } } }",
                         std::nullopt});
    }
    const auto [seen, fresh] = by_profile.emplace(credentials.cluster_profile.value, &worker);
    if (!fresh) {
      auto& d = binder.error(codes::kSharedClusterProfile, credentials.cluster_profile.range,
                             "workers '" + seen->second->name + "' and '" + worker.name + "' use one ClusterProfile '" +
                                 credentials.cluster_profile.value +
                                 "': one cluster cannot be two MultiKueue clusters");
      d.notes.push_back({"'" + seen->second->name + "' uses it here", seen->second->credentials.cluster_profile.range});
    }
  }
}

// On each worker, the mirrored cluster queues it serves keep their worker
// names (or the worker's override names): two must not meet on one name.
// Queue names are unique, so only a renamed queue (worker_name or an
// override) can clash, with another renamed one or with a queue whose own name
// it takes: only those are looked at, so the common policy costs nothing.
void check_worker_queue_names(Binder& binder, Draft& draft) {
  std::set<std::string, std::less<>> renamed;      // names queues take other than their own
  std::set<std::string, std::less<>> overridden;   // queues some worker overrides
  for (const model::ClusterQueue& queue : draft.cluster_queues.items()) {
    if (queue.worker_name.value != queue.name) renamed.insert(queue.worker_name.value);
  }
  for (const model::Worker& worker : draft.workers.items()) {
    for (const auto& override : worker.overrides) {
      overridden.insert(override.cluster_queue.name);
      if (override.name) renamed.insert(override.name->value);
    }
  }
  if (renamed.empty()) return;
  // worker -> name on that worker -> (queue, where the name was given)
  std::map<std::string, std::map<std::string, std::pair<std::string, diag::SourceRange>>> names;
  for (const model::ClusterQueue& queue : draft.cluster_queues.items()) {
    if (!queue.dispatch) continue;
    if (!renamed.contains(queue.worker_name.value) && !overridden.contains(queue.name)) continue;
    const model::Dispatch* dispatch = draft.dispatches.find(*queue.dispatch);
    if (dispatch == nullptr) continue;
    for (const model::Ref& served_by : dispatch->workers) {
      const model::Worker* worker = draft.workers.find(served_by.name);
      if (worker == nullptr) continue;
      const auto* override = worker->find_override(queue.name);
      const Located<std::string>& name = override != nullptr && override->name ? *override->name : queue.worker_name;
      auto& on_worker = names[worker->name];
      const auto [it, fresh] = on_worker.emplace(name.value, std::make_pair(queue.name, name.range));
      if (fresh) continue;
      auto& d = binder.error(codes::kWorkerQueueNameClash, name.range,
                             "clusterqueues '" + it->second.first + "' and '" + queue.name + "' would both be '" +
                                 name.value + "' on worker '" + worker->name + "'");
      d.notes.push_back({"'" + it->second.first + "' gets that name here", it->second.second});
    }
  }
}

// Mode, step and origin are Kueue-wide: every place that sets one must agree.
void check_dispatcher_settings(Binder& binder, Draft& draft) {
  std::vector<const bind_detail::DispatcherSetting*> settings;
  if (draft.kueue_setting) settings.push_back(&*draft.kueue_setting);
  for (const auto& setting : draft.dispatcher_settings) settings.push_back(&setting);

  const bind_detail::DispatcherSetting* mode_owner = nullptr;
  const bind_detail::DispatcherSetting* step_owner = nullptr;
  const bind_detail::DispatcherSetting* origin_owner = nullptr;
  for (const auto* setting : settings) {
    if (setting->mode) {
      if (mode_owner == nullptr) {
        mode_owner = setting;
      } else if (!(setting->mode->value == mode_owner->mode->value)) {
        auto& d = binder.error(codes::kDispatcherDisagrees, setting->mode->range,
                               "mode '" + setting->mode->value.spelling() + "' of " + setting->owner +
                                   " disagrees with '" + mode_owner->mode->value.spelling() + "' of " +
                                   mode_owner->owner + ": the MultiKueue dispatcher is one Kueue-wide setting");
        d.notes.push_back({"'" + mode_owner->mode->value.spelling() + "' is set here", mode_owner->mode->range});
      }
    }
    if (setting->step) {
      if (step_owner == nullptr) {
        step_owner = setting;
      } else if (setting->step->value != step_owner->step->value) {
        auto& d = binder.error(
            codes::kDispatcherDisagrees, setting->step->range,
            fmt::format("step {} of {} disagrees with {} of {}: the incremental step is one "
                        "Kueue-wide setting",
                        setting->step->value, setting->owner, step_owner->step->value, step_owner->owner));
        d.notes.push_back({fmt::format("{} is set here", step_owner->step->value), step_owner->step->range});
      }
    }
    if (setting->origin) {
      if (origin_owner == nullptr) {
        origin_owner = setting;
      } else if (setting->origin->value != origin_owner->origin->value) {
        auto& d = binder.error(codes::kDispatcherDisagrees, setting->origin->range,
                               "origin '" + setting->origin->value + "' of " + setting->owner + " disagrees with '" +
                                   origin_owner->origin->value + "' of " + origin_owner->owner +
                                   ": the MultiKueue origin is one Kueue-wide setting");
        d.notes.push_back({"'" + origin_owner->origin->value + "' is set here", origin_owner->origin->range});
      }
    }
  }

  model::MultiKueueSettings& effective = draft.kueue.multikueue;
  if (mode_owner != nullptr) effective.dispatcher = *mode_owner->mode;
  if (step_owner != nullptr) effective.step = *step_owner->step;
  if (origin_owner != nullptr) effective.origin = *origin_owner->origin;
  if (effective.dispatcher.value.mode == model::DispatchMode::Incremental) return;
  for (const auto* setting : settings) {
    if (!setting->step) continue;
    binder.error(codes::kStepWithoutIncremental, setting->step->range,
                 "'step' of " + setting->owner + " applies only to the incremental mode (the mode is '" +
                     effective.dispatcher.value.spelling() + "'" + (mode_owner == nullptr ? ", the default)" : ")"));
  }
}

void check_references(Binder& binder, Draft& draft, std::map<std::string, diag::SourceRange>& implicit_cohorts) {
  for (const model::Flavor& flavor : draft.flavors.items()) {
    Binder::InstantiationScope scope(binder, flavor.instantiated_from);
    if (flavor.topology) resolve(binder, draft.topologies, *flavor.topology, codes::kUnknownTopology, "topology");
  }
  for (const model::Cohort& cohort : draft.cohorts.items()) {
    Binder::InstantiationScope scope(binder, cohort.instantiated_from);
    if (cohort.parent) resolve_cohort(binder, draft, *cohort.parent, implicit_cohorts);
    resolve_flavors_of(binder, draft, cohort.resource_groups);
  }
  for (const model::ClusterQueue& queue : draft.cluster_queues.items()) {
    Binder::InstantiationScope scope(binder, queue.instantiated_from);
    if (queue.cohort) resolve_cohort(binder, draft, *queue.cohort, implicit_cohorts);
    resolve_flavors_of(binder, draft, queue.resource_groups);
  }
  for (const model::LocalQueue& queue : draft.local_queues.items()) {
    Binder::InstantiationScope scope(binder, queue.instantiated_from);
    if (queue.cluster_queue.name.empty()) continue;  // reported: no clusterqueue
    const model::ClusterQueue* target = draft.cluster_queues.find(queue.cluster_queue.name);
    if (target == nullptr) {
      resolve(binder, draft.cluster_queues, queue.cluster_queue, codes::kUnknownClusterQueue, "clusterqueue");
      continue;
    }
    if (target->namespaces.kind == model::NamespaceSelection::Names &&
        std::none_of(target->namespaces.names.begin(), target->namespaces.names.end(),
                     [&](const Located<std::string>& n) { return n.value == queue.namespace_name.value; })) {
      auto& d = binder.warning(codes::kNamespaceNotAdmitted, queue.namespace_name.range,
                               "clusterqueue '" + target->name + "' does not admit namespace '" +
                                   queue.namespace_name.value + "': workloads of localqueue '" + queue.name +
                                   "' will not be admitted");
      d.notes.push_back({"the queue's namespaces", target->namespaces.range});
    }
  }
  for (model::Worker& worker : draft.workers.items()) {
    Binder::InstantiationScope scope(binder, worker.instantiated_from);
    for (const model::Capacity& capacity : worker.capacities) {
      resolve(binder, draft.flavors, capacity.flavor, codes::kUnknownFlavor, "flavor");
    }
    for (const model::ClusterQueueOverride& override_ : worker.overrides) {
      resolve_flavors_of(binder, draft, override_.resource_groups);
      const model::ClusterQueue* target = draft.cluster_queues.find(override_.cluster_queue.name);
      if (target == nullptr) {
        resolve(binder, draft.cluster_queues, override_.cluster_queue, codes::kUnknownClusterQueue, "clusterqueue");
        continue;
      }
      if (!target->cohort) {
        for (const model::ResourceGroup& group : override_.resource_groups) {
          for (const model::FlavorQuotas& flavor : group.flavors) {
            for (const model::ResourceQuota& quota : flavor.resources) {
              for (const auto* limit : {&quota.borrowing_limit, &quota.lending_limit}) {
                if (!*limit) continue;
                binder.error(codes::kLimitWithoutCohort, (*limit)->range,
                             std::string(limit == &quota.borrowing_limit ? "'borrowing_limit'" : "'lending_limit'") +
                                 " of '" + quota.resource + "' needs a cohort: clusterqueue '" + target->name +
                                 "' has none");
              }
            }
          }
        }
      }
      const model::Dispatch* dispatch = target->dispatch ? draft.dispatches.find(*target->dispatch) : nullptr;
      const bool served = dispatch != nullptr &&
                          std::any_of(dispatch->workers.begin(), dispatch->workers.end(),
                                      [&](const model::Ref& w) { return w.name == worker.name; });
      if (!served) {
        binder.warning(codes::kOverrideNotServed, override_.cluster_queue.range,
                       "worker '" + worker.name + "' overrides clusterqueue '" + target->name +
                           "', which is not dispatched to it");
      }
    }
  }
}

// ------------------------------------------------------------------ assembly

// `items` in the order of `less`, each moved about once and in place: the
// sort permutes indices, not the declarations (a ClusterQueue is close to a
// kilobyte, and sorting 10,000 of them by value moved each some thirty
// times), then the permutation is applied cycle by cycle. Stable, so equal
// keys (duplicates, already reported) keep their order of declaration.
template <typename T, typename Less>
std::vector<T> sorted(std::vector<T> items, Less less) {
  std::vector<std::size_t> order(items.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return less(items[a], items[b]); });
  // items[i] must become the old items[order[i]]; order[i] == i once placed.
  for (std::size_t start = 0; start < order.size(); ++start) {
    if (order[start] == start) continue;
    T held = std::move(items[start]);
    std::size_t at = start;
    while (order[at] != start) {
      const std::size_t from = order[at];
      items[at] = std::move(items[from]);
      order[at] = at;
      at = from;
    }
    items[at] = std::move(held);
    order[at] = at;
  }
  return items;
}

template <typename T>
std::vector<T> sorted_by_name(std::vector<T> items) {
  return sorted(std::move(items), [](const T& a, const T& b) { return a.name < b.name; });
}

model::Policy assemble(Draft& draft, const std::map<std::string, diag::SourceRange>& implicit_cohorts) {
  model::Policy policy;
  policy.identity = draft.identity;
  if (!draft.managers.empty()) policy.manager = draft.managers.front();
  policy.workers = sorted_by_name(std::move(draft.workers.items()));
  policy.flavors = sorted_by_name(std::move(draft.flavors.items()));
  policy.topologies = sorted_by_name(std::move(draft.topologies.items()));
  policy.cohorts = sorted_by_name(std::move(draft.cohorts.items()));
  for (const auto& [name, range] : implicit_cohorts) policy.implicit_cohorts.push_back({name, range});
  policy.cluster_queues = sorted_by_name(std::move(draft.cluster_queues.items()));
  policy.local_queues = sorted(std::move(draft.local_queues.items()),
                               [](const model::LocalQueue& a, const model::LocalQueue& b) {
                                 return std::tie(a.namespace_name.value, a.name) < std::tie(b.namespace_name.value, b.name);
                               });
  policy.namespaces = sorted_by_name(std::move(draft.namespaces.items()));
  policy.priority_classes = sorted_by_name(std::move(draft.priority_classes.items()));
  policy.dispatches = sorted_by_name(std::move(draft.dispatches.items()));
  policy.kueue = std::move(draft.kueue);
  policy.integrations = sorted_by_name(std::move(draft.integrations.items()));
  policy.access = std::move(draft.access.items());
  std::sort(policy.access.begin(), policy.access.end(), [](const model::Access& a, const model::Access& b) {
    const std::string ns_a = a.namespace_name ? a.namespace_name->value : std::string();
    const std::string ns_b = b.namespace_name ? b.namespace_name->value : std::string();
    return std::tie(ns_a, a.name) < std::tie(ns_b, b.name);
  });
  return policy;
}

// Sizes the queue tables for the queues `blocks` declare and `more` (those of
// blocks still to come), so that the largest tables of a large policy are
// allocated once rather than grown by doubling (which holds the old and the
// new array at once, and leaves up to half unused).
void reserve_queues(const std::vector<EvalBlock>& blocks, BlockBinder::Queues more, Draft& draft) {
  std::size_t cluster_queues = more.cluster_queues;
  std::size_t local_queues = more.local_queues;
  for (const EvalBlock& block : blocks) {
    if (block.kind == "localqueue") ++local_queues;
    if (block.kind != "clusterqueue") continue;
    ++cluster_queues;
    for (const EvalBlock& nested : block.blocks) local_queues += nested.kind == "localqueue" ? 1 : 0;
  }
  draft.cluster_queues.reserve(cluster_queues);
  draft.local_queues.reserve(local_queues);
}

// A bound queue's evaluated form, let go: nothing reads it once it is in
// the draft.
void let_go(EvalBlock& block) {
  if (block.kind != "clusterqueue" && block.kind != "localqueue") return;
  EvalBlock kept;
  kept.kind = std::move(block.kind);
  kept.range = block.range;
  kept.from_stdlib = block.from_stdlib;
  block = std::move(kept);
}

}  // namespace

// What BlockBinder keeps between blocks.
struct BlockBinder::State {
  explicit State(diag::Diagnostics& sink)
      : diagnostics(sink), errors_before(sink.error_count()), binder(sink) {
    draft.kueue.integrations = {{std::string(facts::kDefaultIntegration), {}}};
  }
  diag::Diagnostics& diagnostics;
  std::size_t errors_before;
  Binder binder;
  Draft draft;
  // The file of the first block of the policy's own (not a standard
  // module's), where E3060 points when there is no manager.
  std::optional<diag::FileId> first_own_file;

  void bind(const EvalBlock& block) {
    if (!block.from_stdlib && !first_own_file) first_own_file = block.range.file;
    bind_top_level(binder, block, draft);
  }

  // bind_first(); `release`, when set, is `blocks` itself, whose queues are
  // let go as they are bound.
  void bind_all(const std::vector<EvalBlock>& blocks, Queues more, std::vector<EvalBlock>* release) {
    reserve_queues(blocks, more, draft);
    // The standard library's declarations first (the catalogue of
    // std/integrations), so that a policy redeclaring one is the one reported.
    for (const EvalBlock& block : blocks) {
      if (block.from_stdlib) bind(block);
    }
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      if (blocks[i].from_stdlib) continue;
      bind(blocks[i]);
      if (release != nullptr) let_go((*release)[i]);
    }
  }
};

BlockBinder::BlockBinder(diag::Diagnostics& diagnostics) : state_(std::make_unique<State>(diagnostics)) {}
BlockBinder::~BlockBinder() = default;

void BlockBinder::bind_first(const std::vector<EvalBlock>& blocks) { state_->bind_all(blocks, {}, nullptr); }

void BlockBinder::bind_first(std::vector<EvalBlock>&& blocks, Queues more) {
  std::vector<EvalBlock> consumed = std::move(blocks);  // let go when bound, whatever the caller does
  state_->bind_all(consumed, more, &consumed);
}

void BlockBinder::bind_next(EvalBlock&& block) {
  const EvalBlock consumed = std::move(block);  // let go when bound, whatever the caller does
  state_->bind(consumed);
}

std::optional<model::Policy> BlockBinder::finish(diag::FileId first_file) {
  State& state = *state_;
  Binder& binder = state.binder;
  Draft& draft = state.draft;
  std::map<std::string, diag::SourceRange> implicit_cohorts;
  check_manager(binder, state.first_own_file.value_or(first_file), draft);
  resolve_dispatches(binder, draft);
  check_references(binder, draft, implicit_cohorts);
  check_cohort_cycles(binder, draft);
  check_dispatcher_settings(binder, draft);
  check_worker_identities(binder, draft);
  check_cluster_profiles(binder, draft);
  check_worker_queue_names(binder, draft);
  bind_detail::check_integrations(binder, draft);

  if (state.diagnostics.error_count() > state.errors_before) return std::nullopt;
  return assemble(draft, implicit_cohorts);
}

std::vector<std::string_view> bind_detail::top_level_kinds() {
  std::vector<std::string_view> kinds;
  for (const TopLevelKind& kind : kTopLevelKinds) kinds.push_back(kind.kind);
  return kinds;
}

std::optional<model::Policy> bind(const EvalPolicy& policy, diag::Diagnostics& diagnostics) {
  BlockBinder binder(diagnostics);
  binder.bind_first(policy.blocks);
  return binder.finish(policy.first_file);
}

std::optional<model::Policy> bind(EvalPolicy&& policy, diag::Diagnostics& diagnostics) {
  BlockBinder binder(diagnostics);
  binder.bind_first(std::move(policy.blocks), {});
  return binder.finish(policy.first_file);
}

}  // namespace mkq::sema
