// Protobuf wire format, enough to write the bodies client-go sends
// (application/vnd.kubernetes.protobuf): for the sandbox's protobuf tests.
#pragma once

#include <cstdint>
#include <string>

namespace mkq::sandbox::testing {

inline std::string varint(std::uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
  return out;
}
// A length-delimited field (wire type 2): a string, bytes or a message.
inline std::string field(int number, const std::string& bytes) {
  return varint(static_cast<std::uint64_t>(number) << 3 | 2) + varint(bytes.size()) + bytes;
}
// A varint field (wire type 0): an integer or a bool; int32s sign-extended, as Go writes them.
inline std::string number_field(int number, std::int64_t value) {
  return varint(static_cast<std::uint64_t>(number) << 3) + varint(static_cast<std::uint64_t>(value));
}
// "k8s\0" + runtime.Unknown{typeMeta = 1 {apiVersion = 1, kind = 2}, raw = 2, contentEncoding = 3, contentType = 4}.
inline std::string envelope(const std::string& api_version, const std::string& kind, const std::string& raw) {
  return std::string("k8s\0", 4) + field(1, field(1, api_version) + field(2, kind)) + field(2, raw) + field(3, "") +
         field(4, "");
}

}  // namespace mkq::sandbox::testing
