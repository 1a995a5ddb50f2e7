// Request limits (limits.h).
#include "sandbox/limits.h"

#include <fmt/format.h>

#include "sandbox/request.h"
#include "sandbox/responses.h"

namespace mkq::sandbox {
namespace {

// apiserver's summarizeData: the first 30 bytes of a JSON object as text, any
// other body as hex, " ..." when cut.
std::string summarize(const std::string& body) {
  constexpr std::size_t kMax = 30;
  if (body.empty()) return "<empty>";
  const std::string head = body.substr(0, kMax);
  const std::string more = body.size() > kMax ? " ..." : "";
  if (body[0] == '{') return head + more;
  static const char* kHex = "0123456789abcdef";
  std::string hex;
  for (const unsigned char c : head) {
    hex += kHex[c >> 4];
    hex += kHex[c & 0xF];
  }
  return hex + more;
}

}  // namespace

ApiResponse request_entity_too_large() {
  return status_error(413, "RequestEntityTooLarge",
                      fmt::format("Request entity too large: limit is {}", kMaxRequestBodyBytes),
                      nlohmann::json::object());
}

bool json_nesting_exceeds(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

std::optional<ApiResponse> refuse_deep_body(const ApiRequest& r, const std::string& kind) {
  if (r.body.empty() || !json_nesting_exceeds(r.body, kMaxJsonDepth)) return std::nullopt;
  const std::string type = media_type(header(r, "content-type"));
  if (r.method == "PATCH" && type != "application/apply-patch+yaml") {
    // The patch itself is decoded first (json.Unmarshal of the patch document).
    return bad_request("error decoding patch: exceeded max depth");
  }
  return bad_request("the object provided is unrecognized (must be of type " + kind +
                     "): couldn't get version/kind; json parse error: exceeded max depth (" + summarize(r.body) + ")");
}

}  // namespace mkq::sandbox
