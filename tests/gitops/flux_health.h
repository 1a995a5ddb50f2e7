// Flux's health of an object by a Kustomization's spec.healthCheckExprs, as
// kustomize-controller decides it (RFC-0009; fluxcd/pkg runtime/cel's
// StatusEvaluator), with the expressions run by the sandbox's CEL evaluator:
// an object whose status.observedGeneration differs from its
// metadata.generation is InProgress unread; else inProgress, failed and
// current are run in that order (the first two only when given) and the
// first true one decides; none true is InProgress. The object's top-level
// fields are the expressions' variables (status, metadata, spec, ...). An
// expression that fails to parse, to run, or gives no bool is an Error: Flux
// then keeps waiting and reports it, until the Kustomization's timeout.
// Test code: the oracle of integrations/gitops/flux/health-check-exprs.yaml.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mkq::testing {

// One item of healthCheckExprs; an empty expression is one not given.
struct FluxHealthCheck {
  std::string api_version;
  std::string kind;
  std::string in_progress;
  std::string failed;
  std::string current;
};

// kstatus's words, as Flux reports them.
enum class FluxStatus { Current, InProgress, Failed, Error };
const char* flux_status_name(FluxStatus status);

struct FluxVerdict {
  FluxStatus status = FluxStatus::InProgress;
  std::string error;  // Error: which expression and why
};

// The items of a document holding `healthCheckExprs:` (a Kustomization's spec
// or integrations/gitops/flux/health-check-exprs.yaml), given as JSON.
std::vector<FluxHealthCheck> flux_health_checks(const nlohmann::json& document);

// The check of the object's apiVersion and kind, or null: Flux then uses kstatus's own rules.
const FluxHealthCheck* flux_check_for(const std::vector<FluxHealthCheck>& checks,
                                      const nlohmann::json& object);

FluxVerdict flux_health(const FluxHealthCheck& check, const nlohmann::json& object);

}  // namespace mkq::testing
