// `kueue { platform = "openshift" }`: every Kueue setting the policy asks for
// that the Red Hat build of Kueue operator's `Kueue` resource cannot carry
// (../shared/kueue/openshift/README.md) is an error (E4025) -- the operator
// overwrites Kueue's ConfigMap, so the setting would silently not hold -- and
// a localqueue in a namespace mkq does not create warns (W4026): the operator
// manages the jobs of labelled namespaces only.
#include <map>
#include <string>

#include <fmt/format.h>

#include "compiler/kueue/codes.h"
#include "compiler/kueue/openshift.h"
#include "compiler/kueue/schema.h"
#include "compiler/kueue/validate_internal.h"

namespace mkq::kueue::validate_detail {
namespace {

void cannot_express(Reporter& reporter, const diag::SourceRange& range, const std::string& setting,
                    const std::string& why) {
  auto& d = reporter.error(codes::kOpenShiftCannotExpress, range,
                           setting + " cannot be set on OpenShift: " + why, nullptr);
  d.notes.push_back(
      {"the Red Hat build of Kueue is configured by its operator's Kueue resource "
       "(kueue.openshift.io/v1); Kueue's ConfigMap is the operator's to write",
       std::nullopt});
}

void check_integrations(const model::Policy& policy, Reporter& reporter) {
  const model::KueueSettings& kueue = policy.kueue;
  for (const auto& integration : kueue.integrations) {
    if (openshift::framework_kind(integration.value)) continue;
    cannot_express(reporter, integration.range.valid() ? integration.range : kueue.range,
                   "integration '" + integration.value + "'", "the operator does not offer this framework");
  }
  std::map<std::string, std::string> groups;  // the resource lists external frameworks by group
  for (const auto& name : kueue.external_frameworks) {
    const auto framework = openshift::external_framework(policy, name.value);
    if (!framework) {
      cannot_express(reporter, name.range, "external framework '" + name.value + "'",
                     "its integration names no resource of its API group");
      continue;
    }
    const auto [first, fresh] = groups.emplace(framework->group, name.value);
    if (!fresh) {
      cannot_express(reporter, name.range, "external framework '" + name.value + "'",
                     "the operator takes one external framework per API group, and '" + first->second +
                         "' has the same group");
    }
  }
}

void check_gang_scheduling(const model::KueueSettings& kueue, Reporter& reporter) {
  if (!kueue.gang_scheduling || !kueue.gang_scheduling->enable.value) return;
  const model::GangScheduling& gang = *kueue.gang_scheduling;
  if (gang.timeout && !openshift::whole_seconds(gang.timeout->value, schema::kOpenShiftMinGangTimeoutSeconds,
                                                schema::kOpenShiftMaxGangSeconds)) {
    cannot_express(reporter, gang.timeout->range,
                   fmt::format("a gang_scheduling timeout of {}", gang.timeout->value.to_string()),
                   "the operator takes whole seconds from 30s to 1d");
  }
  if (gang.recovery_timeout &&
      !openshift::whole_seconds(gang.recovery_timeout->value, 0, schema::kOpenShiftMaxGangSeconds)) {
    cannot_express(reporter, gang.recovery_timeout->range,
                   fmt::format("a gang_scheduling recovery_timeout of {}", gang.recovery_timeout->value.to_string()),
                   "the operator takes whole seconds up to 1d");
  }
}

void check_multikueue(const model::Policy& policy, Reporter& reporter) {
  const model::MultiKueueSettings& mk = policy.kueue.multikueue;
  const std::string only = "the operator's multiKueue settings are its external frameworks only";
  const auto where = [&](const diag::SourceRange& range) {
    return range.valid() ? range : policy.kueue.range;
  };
  if (mk.gc_interval) cannot_express(reporter, mk.gc_interval->range, "'gc_interval'", only);
  if (mk.worker_lost_timeout)
    cannot_express(reporter, mk.worker_lost_timeout->range, "'worker_lost_timeout'", only);
  if (mk.origin.value != "multikueue")
    cannot_express(reporter, where(mk.origin.range), "the MultiKueue origin", only);
  if (mk.dispatcher.value.mode != model::DispatchMode::AllAtOnce) {
    cannot_express(reporter, where(mk.dispatcher.range),
                   "the " + mk.dispatcher.value.spelling() + " dispatcher",
                   only + "; Kueue runs its default, all-at-once");
  }
  if (mk.step.range.valid())
    cannot_express(reporter, mk.step.range, "the incremental dispatcher's step", only);
  for (const model::AccessProvider& provider : mk.access_providers) {
    cannot_express(reporter, provider.name_range, "access provider '" + provider.name + "'", only);
  }
  for (const model::Worker& worker : policy.workers) {
    if (worker.credentials.mode.value != model::CredentialsMode::ClusterProfile) continue;
    cannot_express(reporter,
                   worker.credentials.mode.range.valid() ? worker.credentials.mode.range : worker.name_range,
                   "credentials mode 'clusterprofile' of worker '" + worker.name + "'",
                   "it needs Kueue's " + std::string(schema::kClusterProfileFeatureGate) +
                       " feature gate, and the operator sets no feature gates");
  }
}

void check_namespaces(const model::Policy& policy, Reporter& reporter) {
  std::map<std::string, const model::LocalQueue*> undeclared;
  for (const model::LocalQueue& local : policy.local_queues) {
    if (policy.find_namespace(local.namespace_name.value) == nullptr) {
      undeclared.emplace(local.namespace_name.value, &local);
    }
  }
  for (const auto& [name, local] : undeclared) {
    auto& d = reporter.warning(codes::kOpenShiftUnmanagedNamespace, local->namespace_name.range,
                               "namespace '" + name + "' is not declared, so mkq does not label it " +
                                   std::string(schema::kOpenShiftManagedLabel) +
                                   "=true: the Red Hat build of Kueue ignores its jobs until it is labelled",
                               local);
    d.notes.push_back({"declare it (namespace \"" + name + "\" {}) or run: oc label namespace " + name + " " +
                           std::string(schema::kOpenShiftManagedLabel) + "=true",
                       std::nullopt});
  }
}

}  // namespace

void check_openshift(const model::Policy& policy, Reporter& reporter) {
  const model::KueueSettings& kueue = policy.kueue;
  if (kueue.platform.value != model::Platform::OpenShift) return;
  check_integrations(policy, reporter);
  if (kueue.managed_namespaces) {
    cannot_express(reporter, kueue.managed_namespaces->range, "'managed_namespaces'",
                   "the operator manages the namespaces labelled " +
                       std::string(schema::kOpenShiftManagedLabel) +
                       "=true, a label mkq gives every namespace it creates");
  }
  check_gang_scheduling(kueue, reporter);
  if (kueue.fair_sharing && kueue.fair_sharing->enable.value &&
      !kueue.fair_sharing->preemption_strategies.empty()) {
    cannot_express(reporter, kueue.fair_sharing->preemption_strategies.front().range,
                   "'preemption_strategies'",
                   "the operator turns fair sharing on with Kueue's default strategies only");
  }
  check_multikueue(policy, reporter);
  check_namespaces(policy, reporter);
}

}  // namespace mkq::kueue::validate_detail
