// Building kube-apiserver's answers: JSON bodies, metav1.Status errors with
// Kubernetes' codes, reasons, messages and details.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sandbox/api.h"
#include "sandbox/resources.h"
#include "sandbox/schema.h"

namespace mkq::sandbox {

ApiResponse json_response(int status, const nlohmann::json& body);

// A metav1.Status failure; details is omitted when null.
ApiResponse status_error(int code, const std::string& reason, const std::string& message,
                         const nlohmann::json& details = nullptr);
nlohmann::json status_body(int code, const std::string& reason, const std::string& message,
                           const nlohmann::json& details = nullptr);

// `clusterqueues.kueue.x-k8s.io "cq" not found`, details {name, group, kind: plural}.
ApiResponse not_found(const ResourceInfo& info, const std::string& name);
ApiResponse already_exists(const ResourceInfo& info, const std::string& name);
ApiResponse conflict(const ResourceInfo& info, const std::string& name);
// 422: `ClusterQueue.kueue.x-k8s.io "x" is invalid: spec.a: ...` ([a, b] when several), with causes.
ApiResponse invalid(const ResourceInfo& info, const std::string& name, const std::vector<FieldError>& errors);
// 422 for a request's options (`DeleteOptions`, `ListOptions`): `DeleteOptions.meta.k8s.io "" is
// invalid: propagationPolicy: ...`, details {group meta.k8s.io, kind, causes} (no name).
ApiResponse invalid_options(const std::string& kind, const std::vector<FieldError>& errors);
ApiResponse bad_request(const std::string& message);
// An error kube-apiserver's handler gets that is no metav1.Status (ErrorToAPIStatus's
// default): a 500 with the error's text and no reason.
ApiResponse unwrapped_error(const std::string& message);
// The answer for a path no resource serves.
ApiResponse path_not_found();
ApiResponse method_not_allowed();

}  // namespace mkq::sandbox
