#include "runtime/reconcile/active_condition.h"

#include <fmt/format.h>

#include "compiler/facts/kueue.h"

namespace mkq::reconcile {
namespace {

std::string string_at(const kube::Json& object, const char* key) {
  if (!object.is_object()) return "";
  const auto found = object.find(key);
  if (found == object.end() || !found->is_string()) return "";
  return found->get<std::string>();
}

}  // namespace

bool reports_active_condition(const std::string& api_version, const std::string& kind) {
  if (api_version.rfind(fmt::format("{}/", facts::kKueueGroup), 0) != 0) return false;
  return kind == "ClusterQueue" || kind == "LocalQueue" || kind == "AdmissionCheck" ||
         kind == "MultiKueueCluster";
}

ActiveCondition active_condition_of(const kube::Json& object) {
  ActiveCondition out;
  if (!object.is_object()) return out;
  const auto status = object.find("status");
  if (status == object.end() || !status->is_object()) return out;
  const auto conditions = status->find("conditions");
  if (conditions == status->end() || !conditions->is_array()) return out;
  for (const kube::Json& condition : *conditions) {
    if (string_at(condition, "type") != "Active") continue;
    out.present = true;
    out.status = string_at(condition, "status");
    if (out.status.empty()) out.status = "Unknown";
    out.reason = string_at(condition, "reason");
    out.message = string_at(condition, "message");
    return out;
  }
  return out;
}

}  // namespace mkq::reconcile
