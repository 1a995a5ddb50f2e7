// The request limits kube-apiserver v1.33 enforces before it decodes a body,
// and the answers it gives when they are exceeded. They keep one request from
// taking the sandbox down: a body is never read past kMaxRequestBodyBytes, and
// no JSON nested deeper than kMaxJsonDepth reaches a parser, a store or any
// code that walks an object recursively (nlohmann's dump, copy and compare
// recurse once per level; at this depth that is well inside a thread's stack).
// Pure functions, no state.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "sandbox/api.h"

namespace mkq::sandbox {

// genericapiserver's MaxRequestBodyBytes default (3 MiB): create, update,
// patch and delete bodies over it get 413 RequestEntityTooLarge.
inline constexpr std::size_t kMaxRequestBodyBytes = 3 * 1024 * 1024;
// Go's encoding/json (and sigs.k8s.io/json) refuse JSON nested deeper than this.
inline constexpr int kMaxJsonDepth = 10000;

// 413 `Request entity too large: limit is 3145728`.
ApiResponse request_entity_too_large();

// True when `text`, read as JSON, opens more than `max_depth` arrays and
// objects inside each other. One pass, no recursion, strings skipped; it does
// not check the rest of the syntax (the parser does).
bool json_nesting_exceeds(std::string_view text, int max_depth);

// The answer for a body nested beyond kMaxJsonDepth, as the verb's decoder
// words it (400 BadRequest): for an object, `the object provided is
// unrecognized (must be of type KIND): couldn't get version/kind; json parse
// error: exceeded max depth (SUMMARY)`; nullopt when the body is within the limit.
std::optional<ApiResponse> refuse_deep_body(const ApiRequest& r, const std::string& kind);

}  // namespace mkq::sandbox
