#include "base/result.h"

namespace mkq::base {

std::string describe(const Error& error) {
  if (!error.message.empty()) return error.message;
  if (error.status == 0) return error.reason.empty() ? "no answer from the server" : error.reason;
  std::string text = std::to_string(error.status);
  if (!error.reason.empty()) text += " " + error.reason;
  return text;
}

std::string render(const Error& error) {
  if (error.address.empty()) return describe(error);
  return error.address + ": " + describe(error);
}

}  // namespace mkq::base
