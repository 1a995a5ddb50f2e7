// The Red Hat build of Kueue (`kueue { platform = "openshift" }`): how the
// policy's Kueue settings map onto the operator's `Kueue` custom resource
// (kueue.openshift.io/v1, ../shared/kueue/openshift/README.md). Lowering
// renders the resource from these; validation reports, with E4025, every
// setting they cannot carry, so lowering never meets one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "compiler/sema/model.h"

namespace mkq::kueue::openshift {

// The resource's name for a Kueue framework in spec.config.integrations.frameworks
// ("batch/job" -> "BatchJob"); nullopt for a framework the operator cannot enable.
std::optional<std::string_view> framework_kind(std::string_view framework);

// An external framework ("Kind.version.group") as the resource names it in
// spec.config.multiKueue.externalFrameworks: its group, version and resource
// (the plural of the catalogue entry's first rule of that group); nullopt
// when the catalogue gives no resource of the group.
struct ExternalFramework {
  std::string group;
  std::string resource;
  std::string version;
};
std::optional<ExternalFramework> external_framework(const sema::model::Policy& policy, std::string_view name);

// A duration as whole seconds within [min, max] (gangScheduling.byWorkload's
// timeoutSeconds and recoveryTimeoutSeconds); nullopt otherwise.
std::optional<std::int64_t> whole_seconds(const sema::Duration& duration, std::int64_t min, std::int64_t max);

// Kueue's default waitForPodsReady timeout (5 minutes), which mkq writes when
// the policy gives none.
inline constexpr std::int64_t kDefaultGangTimeoutSeconds = 300;

}  // namespace mkq::kueue::openshift
