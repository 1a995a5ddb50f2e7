// Kueue's configuration on OpenShift: the Red Hat build of Kueue operator's
// `Kueue` resource named `cluster` (openshift.h), rendered on the manager
// instead of the kueue-manager-config ConfigMap. It is an ordinary object for
// apply: the operator, not mkq, rolls Kueue out when it changes.
#include "compiler/kueue/lower_internal.h"
#include "compiler/kueue/openshift.h"

namespace mkq::kueue::detail {

namespace {

Json gang_scheduling_json(const model::GangScheduling& gang) {
  Json by_workload = Json::object();
  // Sequential admission is Kueue's waitForPodsReady.blockAdmission.
  by_workload["admission"] = gang.block_admission && gang.block_admission->value ? "Sequential" : "Parallel";
  const auto timeout =
      gang.timeout ? openshift::whole_seconds(gang.timeout->value, schema::kOpenShiftMinGangTimeoutSeconds,
                                              schema::kOpenShiftMaxGangSeconds)
                   : std::optional<std::int64_t>(openshift::kDefaultGangTimeoutSeconds);
  if (timeout) by_workload["timeoutSeconds"] = *timeout;
  if (gang.recovery_timeout) {
    const auto recovery =
        openshift::whole_seconds(gang.recovery_timeout->value, 0, schema::kOpenShiftMaxGangSeconds);
    if (recovery) by_workload["recoveryTimeoutSeconds"] = *recovery;
  }
  Json out = Json::object();
  out["policy"] = "ByWorkload";
  out["byWorkload"] = std::move(by_workload);
  return out;
}

// spec.config: only what the policy sets, besides the frameworks the resource requires.
Json openshift_config(const model::Policy& policy) {
  const model::KueueSettings& kueue = policy.kueue;
  Json config = Json::object();
  Json frameworks = Json::array();
  for (const auto& integration : kueue.integrations) {
    if (const auto kind = openshift::framework_kind(integration.value))
      frameworks.push_back(std::string(*kind));
  }
  config["integrations"] = Json::object({{"frameworks", std::move(frameworks)}});
  if (kueue.manage_jobs_without_queue_name) {
    const bool all = kueue.manage_jobs_without_queue_name->value;
    config["workloadManagement"] = Json::object({{"labelPolicy", all ? "None" : "QueueName"}});
  }
  if (kueue.gang_scheduling && kueue.gang_scheduling->enable.value) {
    config["gangScheduling"] = gang_scheduling_json(*kueue.gang_scheduling);
  }
  if (kueue.fair_sharing && kueue.fair_sharing->enable.value) {
    config["preemption"] = Json::object({{"preemptionPolicy", "FairSharing"}});
  }
  if (!kueue.external_frameworks.empty()) {
    Json external = Json::array();
    for (const auto& name : kueue.external_frameworks) {
      const auto framework = openshift::external_framework(policy, name.value);
      if (!framework) continue;  // validation reports it (E4025)
      external.push_back(Json::object(
          {{"group", framework->group}, {"resource", framework->resource}, {"version", framework->version}}));
    }
    if (!external.empty()) config["multiKueue"] = Json::object({{"externalFrameworks", std::move(external)}});
  }
  return config;
}

}  // namespace

Object openshift_kueue_object(const LowerContext& context) {
  const model::KueueSettings& kueue = context.policy.kueue;
  Object object = make_object(context, schema::Kind::OpenShiftKueue, std::string(schema::kOpenShiftKueueName),
                              "", kueue.platform.range.valid() ? kueue.platform.range : kueue.range);
  Json spec = Json::object();
  spec["managementState"] = "Managed";
  spec["config"] = openshift_config(context.policy);
  object.document["spec"] = std::move(spec);
  return object;
}

}  // namespace mkq::kueue::detail
