#include "tests/gitops/flux_health.h"

#include <utility>

#include "sandbox/cel/program.h"

namespace mkq::testing {

const char* flux_status_name(FluxStatus status) {
  switch (status) {
    case FluxStatus::Current:
      return "Current";
    case FluxStatus::InProgress:
      return "InProgress";
    case FluxStatus::Failed:
      return "Failed";
    case FluxStatus::Error:
      return "Error";
  }
  return "Error";
}

std::vector<FluxHealthCheck> flux_health_checks(const nlohmann::json& document) {
  std::vector<FluxHealthCheck> checks;
  const auto text = [](const nlohmann::json& item, const char* key) {
    return item.contains(key) ? item[key].get<std::string>() : std::string();
  };
  for (const nlohmann::json& item : document.value("healthCheckExprs", nlohmann::json::array())) {
    checks.push_back({text(item, "apiVersion"), text(item, "kind"), text(item, "inProgress"),
                      text(item, "failed"), text(item, "current")});
  }
  return checks;
}

const FluxHealthCheck* flux_check_for(const std::vector<FluxHealthCheck>& checks,
                                      const nlohmann::json& object) {
  for (const FluxHealthCheck& check : checks) {
    if (check.api_version == object.value("apiVersion", "") && check.kind == object.value("kind", ""))
      return &check;
  }
  return nullptr;
}

namespace {

// The integer at object[a][b], if it is one.
const nlohmann::json* integer_at(const nlohmann::json& object, const char* a, const char* b) {
  if (!object.contains(a) || !object[a].is_object() || !object[a].contains(b)) return nullptr;
  const nlohmann::json& value = object[a][b];
  return value.is_number_integer() ? &value : nullptr;
}

}  // namespace

FluxVerdict flux_health(const FluxHealthCheck& check, const nlohmann::json& object) {
  const nlohmann::json* observed = integer_at(object, "status", "observedGeneration");
  const nlohmann::json* generation = integer_at(object, "metadata", "generation");
  if (observed != nullptr && generation != nullptr && *observed != *generation)
    return {FluxStatus::InProgress, ""};
  const std::pair<const std::string*, FluxStatus> order[] = {{&check.in_progress, FluxStatus::InProgress},
                                                             {&check.failed, FluxStatus::Failed},
                                                             {&check.current, FluxStatus::Current}};
  for (const auto& [expression, status] : order) {
    if (expression->empty()) continue;
    base::Result<sandbox::cel::Program> program = sandbox::cel::Program::parse_unchecked(*expression);
    if (!program) return {FluxStatus::Error, *expression + ": " + program.error().message};
    const sandbox::cel::Value result = program->evaluate_with(object);
    if (result.is_error()) return {FluxStatus::Error, *expression + ": " + result.text()};
    if (result.kind() != sandbox::cel::Value::Kind::Bool)
      return {FluxStatus::Error, *expression + ": not a bool"};
    if (result.as_bool()) return {status, ""};
  }
  return {FluxStatus::InProgress, ""};
}

}  // namespace mkq::testing
