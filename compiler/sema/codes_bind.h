// Diagnostic codes of the binder (E3xxx / W3xxx): block kinds and fields, field
// types, Kubernetes name formats, references, duplicates, cycles and the rules
// of the policy model. Codes are stable: never renumber, only add. (Own
// namespace so that the evaluator's code names cannot collide with these.)
#pragma once

namespace mkq::sema::bind_codes {

// Block kinds, fields and labels.
inline constexpr const char* kUnknownBlockKind = "E3001";    // a block kind not allowed at its position
inline constexpr const char* kUnknownField = "E3002";        // an attribute the block does not have
inline constexpr const char* kDuplicateField = "E3003";      // an attribute set twice in one block
inline constexpr const char* kBadLabels = "E3004";           // wrong number of labels, or a missing/extra `in`
inline constexpr const char* kMissingField = "E3005";        // a required field is not set
inline constexpr const char* kUnknownKey = "E3006";          // a map key a structured map value does not have
inline constexpr const char* kDuplicateBlock = "E3007";      // a nested block that may appear once appears twice

// Field types and values.
inline constexpr const char* kTypeMismatch = "E3010";        // a field's value has the wrong type
inline constexpr const char* kValueOutOfRange = "E3011";     // a number/duration/list size outside its bounds
inline constexpr const char* kInvalidEnumValue = "E3012";    // a string that is not one of the field's values
inline constexpr const char* kSecretNotAllowed = "E3013";    // a secret where its value would be printed
inline constexpr const char* kNotAnInteger = "E3014";        // a fractional number where an integer is needed
inline constexpr const char* kUnknownIntegration = "E3015";  // a Kueue framework name Kueue does not know
inline constexpr const char* kBadFrameworkName = "E3016";    // an external framework not in Kind.version.group form
inline constexpr const char* kBadIntegrationName = "E3017";  // an integration named neither like a Kueue framework nor Kind.version.group
inline constexpr const char* kUndeclaredExternalFramework = "E3018";  // an external framework without an `integration` declaration

// Kubernetes name formats.
inline constexpr const char* kInvalidSubdomain = "E3020";    // not a DNS-1123 subdomain (object names)
inline constexpr const char* kInvalidDnsLabel = "E3021";     // not a DNS-1123 label (namespaces, config names)
inline constexpr const char* kInvalidLabelKey = "E3022";     // not a label key (qualified name)
inline constexpr const char* kInvalidLabelValue = "E3023";   // not a label value
inline constexpr const char* kInvalidResourceName = "E3024"; // a quota resource name that is not a qualified name
inline constexpr const char* kInvalidApiResource = "E3025";  // an integration's API resource that is not PLURAL or PLURAL/SUBRESOURCE

// Duplicates.
inline constexpr const char* kDuplicateDeclaration = "E3030";  // two declarations of one kind with one name
inline constexpr const char* kDuplicateListItem = "E3031";     // a name listed twice where names must be unique
inline constexpr const char* kDuplicateQuota = "E3032";        // two quota/capacity blocks for one flavor, or a resource twice

// References.
inline constexpr const char* kUnknownFlavor = "E3040";        // a quota/capacity names an undeclared flavor
inline constexpr const char* kUnknownClusterQueue = "E3041";  // a localqueue/dispatch/override names an undeclared clusterqueue
inline constexpr const char* kUnknownWorker = "E3042";        // a dispatch names an undeclared worker
inline constexpr const char* kUnknownTopology = "E3043";      // a flavor names an undeclared topology
inline constexpr const char* kImplicitCohortTypo = "W3044";   // an undeclared cohort whose name is close to a declared one

// Cycles and the manager.
inline constexpr const char* kCohortCycle = "E3050";          // cohort parents form a cycle
inline constexpr const char* kNoManager = "E3060";            // the policy declares no manager
inline constexpr const char* kTwoManagers = "E3061";          // the policy declares more than one manager
inline constexpr const char* kManagerIsWorker = "E3062";      // a worker is the manager (same name or same context)

// Model rules.
inline constexpr const char* kDispatchWorkers = "E3070";        // dispatch needs exactly one of `workers` and `select`
inline constexpr const char* kDispatchWorkerCount = "E3071";    // a dispatch yields no worker or more than 20
inline constexpr const char* kDispatcherDisagrees = "E3072";    // mode/step/origin differ between dispatches or the kueue block
inline constexpr const char* kStepWithoutIncremental = "E3073"; // `step` set but the mode is not incremental
inline constexpr const char* kDefaultQueueName = "E3074";       // a default LocalQueue not named "default"
inline constexpr const char* kRotationWindow = "E3075";         // rotate_before not shorter than lifetime
inline constexpr const char* kResourceInTwoGroups = "E3076";    // a resource covered by two resource groups
inline constexpr const char* kFlavorInTwoGroups = "E3077";      // a flavor in two resource groups
inline constexpr const char* kGroupResourceMismatch = "E3078";  // a flavor does not list exactly its group's resources
inline constexpr const char* kLimitWithoutCohort = "E3079";     // borrowing/lending limit without a cohort (or parent)
inline constexpr const char* kLendingAboveNominal = "E3080";    // lending_limit greater than nominal in a clusterqueue
inline constexpr const char* kNegativeQuota = "E3081";          // a negative quota, limit or capacity
inline constexpr const char* kTopologyLevels = "E3082";         // topology levels: count, duplicates, hostname not last
inline constexpr const char* kQueueDispatchedTwice = "E3083";   // a clusterqueue listed by two dispatches
inline constexpr const char* kCredentialsMode = "E3084";        // a credentials field that does not apply to the mode
inline constexpr const char* kTopologyWithoutNodeLabels = "E3085";  // a flavor with a topology but no node label
inline constexpr const char* kDuplicateTaint = "E3086";         // two taints with one key and effect
inline constexpr const char* kEmptyDispatchQueues = "E3087";    // a dispatch that lists no cluster queue
inline constexpr const char* kTolerationRule = "E3088";         // a toleration whose key/operator/value/effect disagree
inline constexpr const char* kTooMany = "E3089";                // more node labels, taints or tolerations than Kueue takes
inline constexpr const char* kSharedSecret = "E3090";           // two workers name one kubeconfig Secret
inline constexpr const char* kSameCluster = "E3091";            // two clusters of the policy connect to one kubeconfig context
inline constexpr const char* kWorkerQueueNameClash = "E3092";   // two cluster queues would get one name on a worker
inline constexpr const char* kEmptyNamespaceList = "E3093";     // `namespaces = []`: a queue no namespace can use
inline constexpr const char* kEmptyCapacity = "E3094";          // a capacity block with no resource
inline constexpr const char* kClusterProfileWithoutProvider = "E3095";  // a clusterprofile-mode worker while the kueue settings name no access provider
inline constexpr const char* kEmptyExecField = "E3096";         // an access provider with an empty name, command or environment variable name
inline constexpr const char* kSharedClusterProfile = "E3097";   // two workers name one ClusterProfile
inline constexpr const char* kSelectOrderResource = "E3098";    // order = "most-free" without 'resource', 'resource' with another order, or with 'limit'
inline constexpr const char* kStateName = "E3099";              // a manager's state name longer than its Secrets' names allow

// Warnings.
inline constexpr const char* kOverrideNotServed = "W3001";      // an override of a queue not dispatched to that worker
inline constexpr const char* kNamespaceNotAdmitted = "W3002";    // a localqueue in a namespace its clusterqueue does not list
inline constexpr const char* kIntegrationNotEnabled = "W3003";   // an integration the policy declares but the kueue block does not enable

}  // namespace mkq::sema::bind_codes
