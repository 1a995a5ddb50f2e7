// Inventory digests, lineage UUIDs, the default state path and the process and
// clock helpers of the state stage.
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <ctime>
#include <system_error>

#include "runtime/state/state.h"
#include "runtime/state/store_impl.h"

namespace mkq::state {

namespace {

std::string to_hex(const unsigned char* bytes, std::size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(size * 2);
  for (std::size_t i = 0; i < size; ++i) {
    out.push_back(kDigits[bytes[i] >> 4]);
    out.push_back(kDigits[bytes[i] & 0x0f]);
  }
  return out;
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

std::filesystem::path default_state_path(const std::filesystem::path& directory, const std::string& stem) {
  return directory / ".mkq" / (stem.empty() ? std::string("state.db") : stem + ".state.db");
}

std::string LockHolder::describe() const {
  std::string out = command.empty() ? std::string("a lock") : command;
  out += " by ";
  if (!user.empty()) out += user + "@";
  out += host.empty() ? std::string("an unknown host") : host;
  out += " (pid " + std::to_string(pid) + ")";
  if (!since.empty()) out += " since " + since;
  return out;
}

namespace detail {

std::string now_rfc3339() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> buffer{};
  const std::size_t n = std::strftime(buffer.data(), buffer.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return std::string(buffer.data(), n);
}

std::string this_host() {
  std::array<char, 256> buffer{};
  if (gethostname(buffer.data(), buffer.size() - 1) != 0 || buffer[0] == '\0') return "localhost";
  return std::string(buffer.data());
}

bool pid_alive(std::int64_t pid) {
  if (pid <= 0 || pid > static_cast<std::int64_t>(INT32_MAX)) return false;
  if (kill(static_cast<pid_t>(pid), 0) == 0) return true;
  return errno != ESRCH;  // EPERM: it runs, as another user
}

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
