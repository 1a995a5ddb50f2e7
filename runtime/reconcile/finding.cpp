// Preflight findings as plan data (plan.h): their names and their one JSON
// form, read back by plan_from_json and the saved plan alike.
#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>

#include "runtime/reconcile/plan.h"

namespace mkq::reconcile {
namespace {

constexpr std::array<std::pair<FindingCode, const char*>, 9> kCodeNames = {{
    {FindingCode::KueueNotInstalled, "kueue-not-installed"},
    {FindingCode::KueueVersion, "kueue-version"},
    {FindingCode::ConversionWebhook, "conversion-webhook"},
    {FindingCode::IntegrationCrd, "integration-crd"},
    {FindingCode::WorkerIntegration, "worker-integration"},
    {FindingCode::FeatureGate, "feature-gate"},
    {FindingCode::ClusterProfile, "cluster-profile"},
    {FindingCode::OpenShiftOperator, "openshift-operator"},
    {FindingCode::PersonaRole, "persona-role"},
}};

}  // namespace

const char* severity_name(Severity severity) { return severity == Severity::Error ? "error" : "warning"; }

const char* finding_code_name(FindingCode code) {
  for (const auto& [known, name] : kCodeNames) {
    if (known == code) return name;
  }
  return "unknown";
}

Json finding_json(const Finding& finding) {
  return Json{{"severity", severity_name(finding.severity)},
              {"code", finding_code_name(finding.code)},
              {"cluster", finding.cluster},
              {"missing", finding.missing},
              {"fix", finding.fix}};
}

Finding finding_from_json(const Json& json) {
  Finding finding;
  const std::string severity = json.at("severity").get<std::string>();
  if (severity != "error" && severity != "warning") {
    throw std::invalid_argument("unknown preflight severity \"" + severity + "\"");
  }
  finding.severity = severity == "error" ? Severity::Error : Severity::Warning;
  const std::string code = json.at("code").get<std::string>();
  const auto known = std::find_if(kCodeNames.begin(), kCodeNames.end(),
                                  [&code](const auto& entry) { return code == entry.second; });
  if (known == kCodeNames.end()) throw std::invalid_argument("unknown preflight code \"" + code + "\"");
  finding.code = known->first;
  finding.cluster = json.at("cluster").get<std::string>();
  finding.missing = json.at("missing").get<std::string>();
  finding.fix = json.value("fix", std::string());
  return finding;
}

bool Plan::preflight_failed() const {
  return std::any_of(preflight.begin(), preflight.end(),
                     [](const Finding& finding) { return finding.severity == Severity::Error; });
}

}  // namespace mkq::reconcile
