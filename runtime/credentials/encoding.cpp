#include "runtime/credentials/encoding.h"

#include <openssl/sha.h>

#include <array>

namespace mkq::credentials {

std::string sha256_digest(std::string_view bytes) {
  std::array<unsigned char, SHA256_DIGEST_LENGTH> hash{};
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), hash.data());
  return "sha256:" + base::hex_encode(std::string_view(reinterpret_cast<const char*>(hash.data()), hash.size()));
}

}  // namespace mkq::credentials
