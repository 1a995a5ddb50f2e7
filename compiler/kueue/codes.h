// Diagnostic codes of compile-time Kueue validation (E4xxx / W4xxx): the rules
// of Kueue's objects (../shared/kueue/VALIDATION.md) that the binder does not
// already check, decided on the policy model before anything is applied.
// docs/kueue-rules.md maps every rule of VALIDATION.md to its code.
//
// Codes are stable: never renumber, only add.
#pragma once

namespace mkq::kueue::codes {

// ClusterQueue and Cohort structure (VALIDATION.md rules 1-4, 11-13, 32).
inline constexpr const char* kTooManyResourceGroups = "E4001";    // more than 16 resource groups in a clusterqueue, cohort or override
inline constexpr const char* kTooManyCoveredResources = "E4002";  // a resource group covering more than 64 resources
inline constexpr const char* kTooManyGroupFlavors = "E4003";      // a resource group with more than 64 flavors
inline constexpr const char* kTooManyFlavorsTotal = "E4004";      // a cluster queue with more than 256 flavors across its resource groups
inline constexpr const char* kTooManyResourcesTotal = "E4005";    // a cluster queue covering more than 256 resources across its resource groups
inline constexpr const char* kTooManyFlavorResources = "E4006";   // a resource group of a cluster queue with more than 512 flavor-resource pairs

// ClusterQueue and Cohort settings (rules 22-24, 36) and Topology (rule 47).
inline constexpr const char* kBorrowWithoutReclaim = "E4010";       // `borrow_within_cohort` other than Never while `reclaim_within_cohort` is Never
inline constexpr const char* kFungibilityPreference = "E4011";      // flavor_fungibility `preference` without both `when_can_*` TryNextFlavor
inline constexpr const char* kFairSharingWeightTooSmall = "E4012";  // a fair-sharing weight above 0 but not above 1n
inline constexpr const char* kTopologyLevelTooLong = "E4013";       // a topology level (node label key) longer than 316 characters

// Kueue's configuration and the integrations it enables (rules 72, 82).
inline constexpr const char* kExternalFrameworkIsBuiltIn = "E4020";  // an external framework that is an enabled integration's built-in MultiKueue adapter
inline constexpr const char* kNoMultiKueueAdapter = "W4021";         // an enabled integration whose jobs MultiKueue cannot dispatch (no adapter)
inline constexpr const char* kExternalFrameworkWithoutRules = "E4022";  // an external framework whose `integration` grants nothing on the workers

// ClusterProfile access providers in Kueue's configuration (rule 73, CLUSTERPROFILE.md).
inline constexpr const char* kUnusedAccessProviders = "W4023";  // access providers declared while no worker uses clusterprofile mode
inline constexpr const char* kRelativeExecCommand = "W4024";    // an access provider's command that is not an absolute path in Kueue's container

// The Red Hat build of Kueue (`kueue { platform = "openshift" }`, ../shared/kueue/openshift).
inline constexpr const char* kOpenShiftCannotExpress = "E4025";       // a Kueue setting the operator's Kueue resource cannot carry
inline constexpr const char* kOpenShiftUnmanagedNamespace = "W4026";  // a localqueue's namespace mkq does not create, so does not label kueue.openshift.io/managed=true

// Queues across clusters (rules 41, 80).
inline constexpr const char* kNamespaceLabelsNotAdmitted = "W4030";  // a localqueue in a declared namespace whose labels its clusterqueue does not select
inline constexpr const char* kFleetCannotHoldQuota = "W4031";  // a dispatch's queues hold more nominal quota of a flavor's resource than its workers declare as capacity

// A broken invariant of the policy model (a bug in mkq, never the policy's fault).
inline constexpr const char* kModelInvariant = "E4099";  // internal: the checked model breaks a rule the binder guarantees

}  // namespace mkq::kueue::codes
