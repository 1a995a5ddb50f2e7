// Kueue's installation as the sandbox makes it, besides the CRDs: what Kueue's
// own manifests (config/default) put in its namespace and the sandbox's
// simulated Kueue depends on -- the ConfigMap holding Kueue's configuration,
// which the controller manager reads when it starts, and the Deployment of
// the controller manager, which mounts it. `mkq sandbox up` applies both on
// every cluster (workers run Kueue too). The texts are data, written from
// Kueue's config/components/manager (sandbox/kueue/*.yaml, embedded at build
// time); the default configuration is Kueue's, byte for byte.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

namespace mkq::sandbox {

inline constexpr const char* kKueueConfigMapName = "kueue-manager-config";
inline constexpr const char* kKueueConfigKey = "controller_manager_config.yaml";
inline constexpr const char* kKueueDeploymentName = "kueue-controller-manager";

// Kueue's default controller_manager_config.yaml, comments and all.
std::string_view kueue_default_configuration();
// The Deployment kueue-system/kueue-controller-manager, as YAML.
std::string_view kueue_controller_manager_manifest();

// The objects `up` applies, in order: the ConfigMap kueue-system/kueue-manager-config
// (key controller_manager_config.yaml: the default configuration) and the Deployment.
std::vector<nlohmann::json> kueue_install_objects();

}  // namespace mkq::sandbox
