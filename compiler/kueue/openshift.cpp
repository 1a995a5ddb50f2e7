// The Red Hat build of Kueue's `Kueue` resource: the mapping of openshift.h.
#include "compiler/kueue/openshift.h"

#include <array>
#include <utility>

namespace mkq::kueue::openshift {
namespace {

// Kueue's framework names and the resource's enum of frameworks
// (spec.config.integrations.frameworks of ../shared/kueue/openshift's CRD).
constexpr std::array<std::pair<std::string_view, std::string_view>, 18> kFrameworks = {{
    {"batch/job", "BatchJob"},
    {"deployment", "Deployment"},
    {"jobset.x-k8s.io/jobset", "JobSet"},
    {"kubeflow.org/jaxjob", "JaxJob"},
    {"kubeflow.org/mpijob", "MPIJob"},
    {"kubeflow.org/paddlejob", "PaddleJob"},
    {"kubeflow.org/pytorchjob", "PyTorchJob"},
    {"kubeflow.org/tfjob", "TFJob"},
    {"kubeflow.org/xgboostjob", "XGBoostJob"},
    {"leaderworkerset.x-k8s.io/leaderworkerset", "LeaderWorkerSet"},
    {"pod", "Pod"},
    {"ray.io/raycluster", "RayCluster"},
    {"ray.io/rayjob", "RayJob"},
    {"ray.io/rayservice", "RayService"},
    {"sparkoperator.k8s.io/sparkapplication", "SparkApplication"},
    {"statefulset", "StatefulSet"},
    {"trainer.kubeflow.org/trainjob", "TrainJob"},
    {"workload.codeflare.dev/appwrapper", "AppWrapper"},
}};

}  // namespace

std::optional<std::string_view> framework_kind(std::string_view framework) {
  for (const auto& [name, kind] : kFrameworks) {
    if (name == framework) return kind;
  }
  return std::nullopt;
}

std::optional<ExternalFramework> external_framework(const sema::model::Policy& policy,
                                                    std::string_view name) {
  // "Kind.version.group": the binder checked the shape (E3016).
  const std::size_t first = name.find('.');
  const std::size_t second = first == std::string_view::npos ? first : name.find('.', first + 1);
  if (second == std::string_view::npos) return std::nullopt;
  ExternalFramework out;
  out.version = std::string(name.substr(first + 1, second - first - 1));
  out.group = std::string(name.substr(second + 1));
  const sema::model::Integration* entry = policy.find_integration(name);
  if (entry == nullptr) return std::nullopt;
  for (const sema::model::IntegrationResources& rule : entry->rules) {
    if (rule.api_group.value != out.group) continue;
    for (const auto& resource : rule.resources) {
      if (resource.value.find('/') != std::string::npos) continue;
      out.resource = resource.value;
      return out;
    }
  }
  return std::nullopt;
}

std::optional<std::int64_t> whole_seconds(const sema::Duration& duration, std::int64_t min,
                                          std::int64_t max) {
  if (duration.millis() % 1000 != 0) return std::nullopt;
  const std::int64_t seconds = duration.millis() / 1000;
  if (seconds < min || seconds > max) return std::nullopt;
  return seconds;
}

}  // namespace mkq::kueue::openshift
