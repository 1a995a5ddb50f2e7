// Inventory digests, lineage UUIDs, the default state path and the state's
// clock.
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <array>
#include <system_error>

#include <fmt/format.h>

#include "base/encoding.h"
#include "base/time.h"
#include "runtime/state/digest_stream.h"
#include "runtime/state/state.h"
#include "runtime/state/store_impl.h"

namespace mkq::state {

namespace {

std::string to_hex(const unsigned char* bytes, std::size_t size) {
  return base::hex_encode(std::string_view(reinterpret_cast<const char*>(bytes), size));
}

}  // namespace

std::string digest_of(const std::string& canonical_json, const std::string& lineage) {
  // The lineage salts the digest so two states never share digests of the same
  // document, and a digest cannot be matched against a guessed secret elsewhere.
  const std::string input = lineage + "\n" + canonical_json;
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (EVP_Digest(input.data(), input.size(), digest.data(), &size, EVP_sha256(), nullptr) != 1) return {};
  return "sha256:" + to_hex(digest.data(), size);
}

struct DigestStream::Context {
  EVP_MD_CTX* md = EVP_MD_CTX_new();
  bool ok = md != nullptr && EVP_DigestInit_ex(md, EVP_sha256(), nullptr) == 1;
  ~Context() { EVP_MD_CTX_free(md); }
};

DigestStream::DigestStream(const std::string& lineage) : context_(std::make_unique<Context>()) {
  add(lineage);
  add("\n");
}

DigestStream::~DigestStream() = default;

void DigestStream::add(std::string_view piece) {
  if (context_->ok) context_->ok = EVP_DigestUpdate(context_->md, piece.data(), piece.size()) == 1;
}

std::string DigestStream::finish() {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (!context_->ok || EVP_DigestFinal_ex(context_->md, digest.data(), &size) != 1) return {};
  context_->ok = false;
  return "sha256:" + to_hex(digest.data(), size);
}

std::filesystem::path default_state_path(const std::filesystem::path& directory, const std::string& stem) {
  return directory / ".mkq" / (stem.empty() ? std::string("state.db") : stem + ".state.db");
}

std::string LockHolder::describe() const {
  std::string out = command.empty() ? std::string("a lock") : command;
  out += " by ";
  if (!user.empty()) out += user + "@";
  out += host.empty() ? std::string("an unknown host") : host;
  if (pid != 0) fmt::format_to(std::back_inserter(out), " (pid {})", pid);
  if (!since.empty()) out += " since " + since;
  return out;
}

std::string LockHolder::why_stale() const {
  return expired_at.empty() ? "the process no longer runs" : "its lease expired at " + expired_at;
}

namespace detail {

std::string now_rfc3339(const StoreData& impl) { return base::format_rfc3339(impl.clock->now()); }

std::string random_uuid() {
  std::array<unsigned char, 16> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) return {};
  bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0f) | 0x40);  // version 4
  bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3f) | 0x80);  // RFC 4122 variant
  const std::string hex = to_hex(bytes.data(), bytes.size());
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4) + "-" +
         hex.substr(20, 12);
}

}  // namespace detail
}  // namespace mkq::state
