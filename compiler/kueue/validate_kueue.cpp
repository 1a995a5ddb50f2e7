// Rules of Kueue's configuration that the binder does not check: an external
// framework must not be the job kind of an enabled integration's built-in
// MultiKueue adapter (VALIDATION.md rule 72); MultiKueue's ServiceAccount needs
// access to an external framework's objects on every worker (rule 82); an
// enabled integration without a MultiKueue adapter cannot be dispatched
// (MULTIKUEUE.md §8).
#include <string>
#include <string_view>

#include "compiler/kueue/codes.h"
#include "compiler/kueue/validate_internal.h"

namespace mkq::kueue::validate_detail {
namespace {

// Kueue's integrations and the job kind of their built-in MultiKueue adapter,
// as `Kind.version.group` (the notation of multiKueue.externalFrameworks), from
// MULTIKUEUE.md §8 and the adapters in Kueue's pkg/controller/jobs. A
// framework without an adapter has an empty kind; `via_pods` marks one whose
// pods are dispatched by the pod integration's adapter instead.
struct Adapter {
  std::string_view framework;
  std::string_view kind;  // "" when Kueue has no MultiKueue adapter for it
  bool via_pods = false;
};

constexpr Adapter kAdapters[] = {
    {"batch/job", "Job.v1.batch"},
    {"deployment", "", true},
    {"jobset.x-k8s.io/jobset", "JobSet.v1alpha2.jobset.x-k8s.io"},
    {"kubeflow.org/jaxjob", "JAXJob.v1.kubeflow.org"},
    {"kubeflow.org/mpijob", "MPIJob.v2beta1.kubeflow.org"},
    {"kubeflow.org/paddlejob", "PaddleJob.v1.kubeflow.org"},
    {"kubeflow.org/pytorchjob", "PyTorchJob.v1.kubeflow.org"},
    {"kubeflow.org/tfjob", "TFJob.v1.kubeflow.org"},
    {"kubeflow.org/xgboostjob", "XGBoostJob.v1.kubeflow.org"},
    {"leaderworkerset.x-k8s.io/leaderworkerset", "LeaderWorkerSet.v1.leaderworkerset.x-k8s.io"},
    {"pod", "Pod.v1."},  // the core group is empty
    {"ray.io/raycluster", "RayCluster.v1.ray.io"},
    {"ray.io/rayjob", "RayJob.v1.ray.io"},
    {"ray.io/rayservice", "RayService.v1.ray.io"},
    {"sparkoperator.k8s.io/sparkapplication", ""},
    {"statefulset", "StatefulSet.v1.apps"},
    {"trainer.kubeflow.org/trainjob", "TrainJob.v1alpha1.trainer.kubeflow.org"},
    {"workload.codeflare.dev/appwrapper", "AppWrapper.v1beta2.workload.codeflare.dev"},
};

const Adapter* find_adapter(std::string_view framework) {
  for (const Adapter& adapter : kAdapters) {
    if (adapter.framework == framework) return &adapter;
  }
  return nullptr;
}

// Where an enabled integration is written; the default ("batch/job" without a
// kueue block or an `integrations` field) has no place of its own.
void note_enabled(diag::Diagnostic& d, const model::Located<std::string>& integration) {
  if (!integration.range.valid()) {
    d.notes.push_back({"'" + integration.value + "' is enabled by default", std::nullopt});
  } else {
    d.notes.push_back({"'" + integration.value + "' is enabled here", integration.range});
  }
}

// Kueue refuses a configuration whose external framework is the kind of a
// built-in adapter it instantiates (only enabled integrations have one).
void check_external_frameworks(const model::Policy& policy, Reporter& reporter) {
  for (const model::Located<std::string>& framework : policy.kueue.external_frameworks) {
    for (const model::Located<std::string>& integration : policy.kueue.integrations) {
      const Adapter* adapter = find_adapter(integration.value);
      if (adapter == nullptr || adapter->kind != framework.value) continue;
      auto& d =
          reporter.error(codes::kExternalFrameworkIsBuiltIn, framework.range,
                         "external framework '" + framework.value + "' is the job kind of integration '" +
                             integration.value + "', which has a built-in MultiKueue adapter",
                         nullptr);
      note_enabled(d, integration);
      d.notes.push_back({"'external_frameworks' is for job kinds without a built-in adapter: remove it there",
                         std::nullopt});
    }
  }
}

// MultiKueue's generic adapter creates, watches and deletes an external
// framework's objects on every worker, so the worker's ClusterRole must grant
// them: the framework's catalogue entry cannot be empty. (The binder requires
// the entry; std/integrations' entries are right by construction.)
void check_external_rules(const model::Policy& policy, Reporter& reporter) {
  for (const model::Located<std::string>& framework : policy.kueue.external_frameworks) {
    const model::Integration* integration = policy.find_integration(framework.value);
    if (integration == nullptr || !integration->rules.empty()) continue;
    auto& d =
        reporter.error(codes::kExternalFrameworkWithoutRules, integration->name_range,
                       "integration '" + integration->name +
                           "' lists no rules, but MultiKueue creates, watches and deletes its objects on "
                           "every worker",
                       integration);
    d.notes.push_back({"enabled as an external framework here", framework.range});
    d.notes.push_back(
        {"give its API group and resources: rules = [{ group: \"GROUP\", resources: [\"PLURAL\", "
         "\"PLURAL/status\"] }]",
         std::nullopt});
  }
}

// A job of a framework without an adapter, in a dispatched queue, is rejected
// by MultiKueue ("No multikueue adapter found"): it never runs anywhere.
void check_adapters(const model::Policy& policy, Reporter& reporter) {
  if (policy.dispatches.empty()) return;
  for (const model::Located<std::string>& integration : policy.kueue.integrations) {
    const Adapter* adapter = find_adapter(integration.value);
    if (adapter == nullptr || !adapter->kind.empty() || adapter->via_pods) continue;
    auto& d = reporter.warning(codes::kNoMultiKueueAdapter, integration.range,
                               "integration '" + integration.value +
                                   "' has no MultiKueue adapter: its jobs in dispatched queues are rejected, "
                                   "never sent to a worker",
                               nullptr);
    d.notes.push_back({"its jobs run only in cluster queues that no dispatch lists", std::nullopt});
  }
}

// Kueue's validateClusterProfileAccessProviders: every provider has a name,
// a command, an exec apiVersion and named env entries (the binder's rules:
// broken ones here are mkq bugs). interactiveMode is rendered as Never.
// Beyond Kueue's rules: providers nobody uses, and a command Kueue's
// container is unlikely to find.
void check_access_providers(const model::Policy& policy, Reporter& reporter) {
  const auto& providers = policy.kueue.multikueue.access_providers;
  for (const model::AccessProvider& provider : providers) {
    const bool version_ok =
        provider.api_version.value == model::kExecApiV1 || provider.api_version.value == model::kExecApiV1beta1;
    bool env_ok = true;
    for (const model::ExecEnvVar& var : provider.env) env_ok = env_ok && !var.name.value.empty();
    if (provider.name.empty() || provider.command.value.empty() || !version_ok || !env_ok) {
      reporter.error(codes::kModelInvariant, provider.name_range,
                     "internal error: access provider '" + provider.name +
                         "' breaks Kueue's access provider rules (a bug in mkq: the binder should have reported it)",
                     &provider);
      continue;
    }
    if (!provider.command.value.empty() && provider.command.value.front() != '/') {
      auto& d = reporter.warning(codes::kRelativeExecCommand, provider.command.range,
                                 "access provider '" + provider.name + "' runs '" + provider.command.value +
                                     "', not an absolute path: Kueue's controller image has no shell and no tools on "
                                     "its PATH",
                                 &provider);
      d.notes.push_back({"mount the plugin into the kueue-controller-manager pod (an initContainer or image volume) "
                         "and give its absolute path, e.g. \"/plugins/" +
                             provider.command.value + "\"",
                         std::nullopt});
    }
  }
  if (!providers.empty() && !policy.uses_cluster_profiles()) {
    auto& d = reporter.warning(codes::kUnusedAccessProviders, providers.front().name_range,
                               "the policy names access providers, but no worker uses credentials mode "
                               "'clusterprofile': Kueue will not use them",
                               nullptr);
    d.notes.push_back({"reach a worker through its ClusterProfile with: credentials { mode = \"clusterprofile\" }",
                       std::nullopt});
  }
}

}  // namespace

void check_kueue_settings(const model::Policy& policy, Reporter& reporter) {
  check_external_frameworks(policy, reporter);
  check_external_rules(policy, reporter);
  check_adapters(policy, reporter);
  check_access_providers(policy, reporter);
}

}  // namespace mkq::kueue::validate_detail
