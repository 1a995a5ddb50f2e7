// Robustness: thousands of random mutations and truncations of the examples,
// the stdlib and the golden inputs, compiled in-process. Whatever the input, the
// compiler must return (no crash, no hang), and every rejected input must come
// with at least one error diagnostic whose range lies inside the input.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "compiler/sema/analyze.h"
#include "tests/support/in_memory_file_system.h"

namespace fs = std::filesystem;

namespace {

std::vector<std::string> corpus() {
  std::vector<std::string> texts;
  const fs::path root = MKQ_SOURCE_DIR;
  for (const char* dir : {"examples", "stdlib/std", "tests/lang/ok"}) {
    if (!fs::exists(root / dir)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root / dir)) {
      if (entry.path().extension() != ".mkq") continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream buffer;
      buffer << in.rdbuf();
      texts.push_back(buffer.str());
    }
  }
  return texts;
}

const std::vector<std::string> kFragments = {
    "{", "}", "[", "]", "(", ")", "\"", "${", "/*", "*/", "//", "=", ",", ";", ":", ".", "?",
    "let x = ", "for x in ", "if ", "else", "use ", "template t() {", "import \"std/gpu\"",
    "import \"./self.mkq\"", "assert false, \"boom\"", "-", "!", "*", "/ 0", "% 0", "9Ei * 9Ei * 9Ei",
    "99999999999999999999999999999999", "1e999999", "0.0000000001", "36GB", "1m30s", "5min", "true",
    "null", "all", "secret(\"env:X\")", "\"${secret(\"env:X\")}\"", "clusterqueue", "worker \"w\" {}",
    "manager \"m\" {}", "\xff", "\xc3", std::string(1, '\0'), "\t", "\n", "é", "@", "#", "$"};

std::string mutate(const std::string& text, std::mt19937& rng) {
  std::string out = text;
  const int steps = 1 + static_cast<int>(rng() % 3);
  for (int s = 0; s < steps; ++s) {
    const std::size_t size = out.size();
    const std::size_t pos = size == 0 ? 0 : rng() % (size + 1);
    switch (rng() % 7) {
      case 0:  // delete a span
        if (size > 0) out.erase(std::min(pos, size - 1), 1 + rng() % 24);
        break;
      case 1:  // insert a random byte
        out.insert(pos, 1, static_cast<char>(rng() % 256));
        break;
      case 2:  // insert a fragment
        out.insert(pos, kFragments[rng() % kFragments.size()]);
        break;
      case 3:  // truncate
        out.resize(pos);
        break;
      case 4: {  // duplicate a span
        if (size == 0) break;
        const std::size_t begin = rng() % size;
        out.insert(pos, out.substr(begin, 1 + rng() % 80));
        break;
      }
      case 5:  // replace a byte
        if (size > 0) out[rng() % size] = static_cast<char>(" {}[]()\"=,.x0-"[rng() % 14]);
        break;
      default: {  // swap two lines
        const std::size_t a = out.find('\n', pos);
        if (a == std::string::npos) break;
        const std::size_t b = out.find('\n', a + 1);
        if (b == std::string::npos) break;
        const std::string line = out.substr(a + 1, b - a);
        out.erase(a + 1, b - a);
        out.insert(rng() % (out.size() + 1), line);
        break;
      }
    }
  }
  return out;
}

// Aborts the process with a message if one compilation takes more than
// kHangLimit: a hang detector, not a speed check (the benchmark checks speed).
class Watchdog {
 public:
  static constexpr auto kHangLimit = std::chrono::seconds(60);
  Watchdog() : thread_([this] { watch(); }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  void start(std::string input) {
    std::lock_guard<std::mutex> lock(mutex_);
    input_ = std::move(input);
    started_ = std::chrono::steady_clock::now();
    ++generation_;
  }

 private:
  void watch() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!done_) {
      const auto seen = generation_;
      const auto deadline = started_ + kHangLimit;
      cv_.wait_until(lock, deadline, [&] { return done_ || generation_ != seen; });
      if (!done_ && generation_ == seen && generation_ > 0 && std::chrono::steady_clock::now() >= deadline) {
        std::fprintf(stderr, "HANG: one input took longer than 60 s; it is in mkq-hang-input.mkq\n");
        std::ofstream("mkq-hang-input.mkq", std::ios::binary) << input_;
        std::_Exit(2);
      }
    }
  }
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  unsigned generation_ = 0;
  std::string input_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::thread thread_;
};

}  // namespace

TEST_CASE("compiler survives thousands of mutated and truncated policies", "[robustness][slow]") {
  const auto texts = corpus();
  REQUIRE(texts.size() >= 4);
  int iterations = 4000;
  if (const char* env = std::getenv("MKQ_FUZZ_ITERATIONS")) iterations = std::atoi(env);
  std::mt19937 rng(20261121);
  Watchdog watchdog;
  int rejected = 0;
  for (int i = 0; i < iterations; ++i) {
    const std::string input = mutate(texts[static_cast<std::size_t>(i) % texts.size()], rng);
    watchdog.start(input);
    mkq::sema::InMemoryFileSystem files;
    files.add("/policy/main.mkq", input);
    mkq::diag::SourceManager sources;
    mkq::diag::Diagnostics diagnostics;
    const auto policy = mkq::sema::analyze("/policy/main.mkq", files, sources, diagnostics);
    const auto sorted = diagnostics.sorted(sources);
    // Rendering must work on whatever was reported.
    (void)mkq::diag::render_text(sorted, sources);
    (void)mkq::diag::render_json(sorted, sources);
    if (!policy) {
      ++rejected;
      INFO("input #" << i << ":\n" << input);
      REQUIRE(diagnostics.has_errors());
    }
    for (const auto& d : sorted) {
      INFO("input #" << i << ": " << d.code << " " << d.message);
      REQUIRE(!d.code.empty());
      REQUIRE(!d.message.empty());
      if (d.range.valid()) {
        const auto& file = sources.file(d.range.file);
        REQUIRE(d.range.begin.offset <= d.range.end.offset);
        REQUIRE(d.range.end.offset <= file.text.size());
      }
    }
  }
  // Most mutations break something; if almost none were rejected the mutator is broken.
  CHECK(rejected > iterations / 4);
}
