// digest_of (state.h) of a text given in pieces: the same digest as of the
// pieces joined, without the joined text in memory.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace mkq::state {

class DigestStream {
 public:
  explicit DigestStream(const std::string& lineage);  // digest_of(TEXT, lineage)
  ~DigestStream();
  DigestStream(const DigestStream&) = delete;
  DigestStream& operator=(const DigestStream&) = delete;

  void add(std::string_view piece);
  std::string finish();  // "sha256:<hex>"; "" when OpenSSL failed (as digest_of)

 private:
  struct Context;
  std::unique_ptr<Context> context_;
};

}  // namespace mkq::state
