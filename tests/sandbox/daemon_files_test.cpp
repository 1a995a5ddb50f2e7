// The sandbox's own files (daemon_files.h, pki.h, identity.h) are written as
// every mkq file is (base/files.h): whole, keys and the kubeconfig owner-only,
// certificates and state.json readable by all, whatever the umask; a write
// that fails says which file and why.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "base/files.h"
#include "sandbox/daemon_files.h"
#include "sandbox/identity.h"
#include "sandbox/pki.h"
#include "tests/support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using mkq::testing::TempDir;

unsigned mode_of(const fs::path& file) {
  struct stat st {};
  REQUIRE(::stat(file.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

void no_temporaries(const fs::path& dir) {
  for (const auto& file : fs::directory_iterator(dir)) {
    INFO(file.path().string());
    CHECK_FALSE(mkq::base::is_temporary_name(file.path().filename().string()));
    CHECK(file.path().extension() != ".tmp");  // the names the sandbox used before
  }
}

// Runs `body` under `mask`, restoring the process's umask even when a REQUIRE fails.
template <class Body>
void with_umask(mode_t mask, Body body) {
  struct Restore {
    mode_t previous;
    ~Restore() { ::umask(previous); }
  } restore{::umask(mask)};
  body();
}

}  // namespace

TEST_CASE(
    "sandbox files: the PKI's keys owner-only and its certificates 0644 whatever the umask, kept on reload",
    "[sandbox][files]") {
  for (const mode_t mask : {mode_t{0}, mode_t{077}}) {
    INFO("umask " << mask);
    TempDir dir;
    mkq::sandbox::Pki made;
    std::string error;
    with_umask(mask, [&] { REQUIRE(mkq::sandbox::load_or_create_pki(dir.path(), &made, &error)); });
    for (const char* key : {"ca.key", "server.key", "admin.key"}) {
      INFO(key);
      CHECK(mode_of(dir.path() / key) == 0600);
    }
    for (const char* cert : {"ca.crt", "server.crt", "admin.crt"}) {
      INFO(cert);
      CHECK(mode_of(dir.path() / cert) == 0644);
    }
    no_temporaries(dir.path());
    mkq::sandbox::Pki loaded;
    REQUIRE(mkq::sandbox::load_or_create_pki(dir.path(), &loaded, &error));
    CHECK(loaded.ca_cert == made.ca_cert);
    CHECK(loaded.admin_key == made.admin_key);
  }
}

TEST_CASE("sandbox files: the service-account signing key is owner-only from its first byte",
          "[sandbox][files]") {
  TempDir dir;
  std::string pem;
  std::string error;
  with_umask(0, [&] { REQUIRE(mkq::sandbox::load_or_create_signing_key(dir.path(), &pem, &error)); });
  CHECK(mode_of(dir.path() / "sa.key") == 0600);
  no_temporaries(dir.path());
  std::string again;
  REQUIRE(mkq::sandbox::load_or_create_signing_key(dir.path(), &again, &error));
  CHECK(again == pem);
}

TEST_CASE("sandbox files: state.json and text files written whole with the mode asked", "[sandbox][files]") {
  TempDir dir;
  mkq::sandbox::State state;
  state.pid = 4242;
  state.clusters.push_back({"manager", 6443, 12});
  with_umask(077, [&] {
    REQUIRE(mkq::sandbox::write_state(dir.path(), state));
    REQUIRE(mkq::sandbox::write_text(dir.path() / "kubeconfig", "secret", mkq::base::FileMode::OwnerOnly));
  });
  CHECK(mode_of(dir.path() / "state.json") == 0644);
  CHECK(mode_of(dir.path() / "kubeconfig") == 0600);
  const mkq::sandbox::State read = mkq::sandbox::read_state(dir.path());
  CHECK(read.pid == 4242);
  REQUIRE(read.find("manager") != nullptr);
  CHECK(read.find("manager")->port == 6443);
  CHECK(read.find("manager")->objects == 12);
  // Rewritten: replaced whole, the last one kept when a write cannot be made.
  state.pid = 4343;
  REQUIRE(mkq::sandbox::write_state(dir.path(), state));
  CHECK(mkq::sandbox::read_state(dir.path()).pid == 4343);
  CHECK_FALSE(mkq::sandbox::write_state(dir.path() / "missing", state));
  no_temporaries(dir.path());
}

TEST_CASE("sandbox files: a PKI that cannot be written says which file and why", "[sandbox][files]") {
  TempDir dir;
  fs::create_directory(dir.path() / "ca.key");  // a directory where the CA's key goes
  mkq::sandbox::Pki pki;
  std::string error;
  CHECK_FALSE(mkq::sandbox::load_or_create_pki(dir.path(), &pki, &error));
  CHECK(error == "cannot write " + (dir.path() / "ca.key").string() + ": Is a directory");
  no_temporaries(dir.path());
}
