// Kueue's installation objects (kueue_install.h).
#include "sandbox/kueue_install.h"

#include <string>

#include "sandbox/controllers.h"
#include "sandbox/yaml.h"

namespace mkq::sandbox {

std::vector<nlohmann::json> kueue_install_objects() {
  // Kueue's labels on everything it installs (its kustomization's `labels`).
  const nlohmann::json labels = {{"app.kubernetes.io/name", "kueue"},
                                 {"control-plane", "controller-manager"}};
  nlohmann::json config_map = {
      {"apiVersion", "v1"},
      {"kind", "ConfigMap"},
      {"metadata", {{"name", kKueueConfigMapName}, {"namespace", kKueueNamespace}, {"labels", labels}}},
      {"data", {{kKueueConfigKey, std::string(kueue_default_configuration())}}}};
  std::string error;
  std::optional<nlohmann::json> deployment =
      parse_yaml(std::string(kueue_controller_manager_manifest()), &error);
  std::vector<nlohmann::json> objects{std::move(config_map)};
  if (deployment && deployment->is_object()) objects.push_back(std::move(*deployment));
  return objects;
}

}  // namespace mkq::sandbox
