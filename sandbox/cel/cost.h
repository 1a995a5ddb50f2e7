// The CEL cost limits kube-apiserver's apiextensions server puts on a CRD's
// x-kubernetes-validations (k8s.io/apiserver/pkg/apis/cel/config.go), and the
// estimate the sandbox checks them against when a CRD is created or updated.
//
// The estimate is the sandbox's own worst case, made the way cel-go's
// estimator makes it: each node costs what cel-go charges (1 for a variable,
// a field or a call, 10 for a list literal, 30 for a map literal, a tenth of a
// string's length to traverse it), a comprehension its range's greatest size
// times its body, and a size comes from the schema's maxLength, maxItems and
// maxProperties -- or, unbounded, from the most a 3 MiB request can hold.
// Its figures are close to cel-go's but not equal: a rule near a limit may be
// judged differently; one far beyond it ("more than 100x") is refused alike.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "sandbox/cel/ast.h"

namespace mkq::sandbox::cel {

// One evaluation of one rule (runtime): beyond it the evaluation is cancelled,
// its value the error kCostLimitExceeded (cel-go's words).
inline constexpr std::uint64_t kPerCallLimit = 1'000'000;
inline constexpr const char* kCostLimitExceeded = "operation cancelled: actual cost limit exceeded";
// Every rule run on one object (runtime): beyond it no further rule runs.
inline constexpr std::uint64_t kRuntimeCostBudget = 10'000'000;
// One rule's estimate times how many times it can run per object (at install).
inline constexpr std::uint64_t kStaticEstimatedCostLimit = 10'000'000;
// Every rule of one version's schema together (at install).
inline constexpr std::uint64_t kStaticEstimatedCrdCostLimit = 100'000'000;
// kube-apiserver's request size limit, which bounds what is not declared bounded.
inline constexpr std::uint64_t kMaxRequestSizeBytes = 3 * 1024 * 1024;

// What cel-go charges for a list literal, a map literal, and each step of a
// comprehension's loop (besides its body); a variable, a field or a call is 1.
inline constexpr std::uint64_t kListLiteralCost = 10;
inline constexpr std::uint64_t kMapLiteralCost = 30;
inline constexpr std::uint64_t kComprehensionStepCost = 3;

// cel-go's cost of traversing n bytes of a string: a tenth of them, rounded up.
inline std::uint64_t string_traversal_cost(std::uint64_t n) { return (n + 9) / 10; }

// a * b and a + b, held at the largest value instead of wrapping.
std::uint64_t saturating_multiply(std::uint64_t a, std::uint64_t b);
std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b);

// The greatest number of items (array), entries (map) or characters (string)
// a value at `schema` can have in one request.
std::uint64_t max_size(const nlohmann::json& schema);
// How many values at `schema` one request can hold when it is an array's
// items (in_map false) or a map's values (in_map true): (3 MiB - 2) over the
// smallest such value's JSON size and its separators.
std::uint64_t unbounded_cardinality(const nlohmann::json& schema, bool in_map);

// The estimated worst-case cost of one evaluation of `expr`, with `self` a value at `schema`.
std::uint64_t estimate_cost(const Expr& expr, const nlohmann::json& schema);

// kube-apiserver's message for an estimate over a limit: "<what> exceeds
// budget by factor of 2.5x (try simplifying the rule, or adding maxItems,
// maxProperties, and maxLength where arrays, maps, and strings are declared)".
std::string cost_error_message(const std::string& what, std::uint64_t cost, std::uint64_t limit);

}  // namespace mkq::sandbox::cel
