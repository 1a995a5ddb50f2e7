// The server in-process (lsp/lsp.h): a scripted transport on a fake clock,
// the policy in memory.
#include <catch2/catch.hpp>

#include <deque>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "lsp/lsp.h"
#include "tests/support/fake_clock.h"
#include "tests/support/in_memory_file_system.h"

namespace {

using nlohmann::json;
using namespace std::chrono_literals;

// Messages that arrive at given times; what the server writes, kept. Waiting
// moves the fake clock, so that the debounce runs in no real time.
class ScriptedTransport final : public mkq::lsp::Transport {
 public:
  explicit ScriptedTransport(mkq::testing::FakeClock& clock) : clock_(clock) {}

  void at(std::chrono::milliseconds when, const json& message) { script_.push_back({when, message.dump()}); }
  void at_raw(std::chrono::milliseconds when, std::string body) { script_.push_back({when, std::move(body)}); }

  bool wait(std::optional<std::chrono::milliseconds> timeout) override {
    if (script_.empty()) {
      if (timeout) clock_.advance(*timeout);
      return !timeout;  // the end of input, once nothing else is due
    }
    const auto due = start_ + script_.front().when;
    if (clock_.now() >= due) return true;
    if (timeout && clock_.now() + *timeout < due) {
      clock_.advance(*timeout);
      return false;
    }
    clock_.set(due);
    return true;
  }

  mkq::lsp::Incoming read() override {
    if (script_.empty()) return {};
    mkq::lsp::Incoming frame{mkq::lsp::Incoming::Kind::Message, std::move(script_.front().body), ""};
    script_.pop_front();
    return frame;
  }

  void write(const std::string& body) override { written.push_back(json::parse(body)); }

  std::vector<json> written;

  std::vector<json> notifications(const std::string& method) const {
    std::vector<json> found;
    for (const auto& message : written) {
      if (message.value("method", "") == method) found.push_back(message["params"]);
    }
    return found;
  }
  const json& response(int id) const {
    for (const auto& message : written) {
      if (message.contains("id") && message["id"] == id && !message.contains("method")) return message;
    }
    FAIL("no response to " << id);
    static const json none;
    return none;
  }

 private:
  struct Entry {
    std::chrono::milliseconds when;
    std::string body;
  };
  mkq::testing::FakeClock& clock_;
  std::chrono::system_clock::time_point start_{};
  std::deque<Entry> script_;
};

json request(int id, const std::string& method, json params) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}
json notification(const std::string& method, json params) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

std::string quickstart() {
  std::ifstream in(std::string(MKQ_SOURCE_DIR) + "/examples/quickstart/policy.mkq");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const char* const kUri = "file:///p/policy.mkq";

json change(int version, int line, int from, int to, const std::string& text) {
  const json range = {{"start", {{"line", line}, {"character", from}}}, {"end", {{"line", line}, {"character", to}}}};
  json edit = {{"range", range}, {"text", text}};
  return notification("textDocument/didChange", {{"textDocument", {{"uri", kUri}, {"version", version}}},
                                                 {"contentChanges", json::array({edit})}});
}

}  // namespace

TEST_CASE("diagnostics wait for the edits to pause and are for the newest version only", "[lsp][server]") {
  mkq::testing::FakeClock clock;
  mkq::sema::InMemoryFileSystem disk;
  const std::string text = quickstart();
  disk.add("/p/policy.mkq", text);
  // The line `flavor "default-flavor" {}`, whose name two edits break and mend.
  std::size_t line = 0;
  for (std::size_t at = 0; at < text.find("flavor \"default-flavor\" {}"); ++at) line += text[at] == '\n';
  ScriptedTransport transport(clock);
  transport.at(0ms, request(1, "initialize", {{"capabilities", json::object()}}));
  transport.at(0ms, notification("initialized", json::object()));
  transport.at(0ms, notification("textDocument/didOpen",
                                 {{"textDocument", {{"uri", kUri}, {"languageId", "mkq"}, {"version", 1}, {"text", text}}}}));
  transport.at(1000ms, change(2, static_cast<int>(line), 8, 22, "other-flavor"));     // an error
  transport.at(1100ms, change(3, static_cast<int>(line), 8, 20, "default-flavor"));   // 100 ms later: fixed
  transport.at(5000ms, request(2, "shutdown", nullptr));
  transport.at(5000ms, notification("exit", nullptr));
  const int code = mkq::lsp::serve(transport, clock, disk, {});

  CHECK(code == 0);
  const auto published = transport.notifications("textDocument/publishDiagnostics");
  REQUIRE(published.size() == 2);
  CHECK(published[0]["version"] == 1);
  CHECK(published[0]["diagnostics"] == json::array());
  // Version 2 was never analysed on its own: it was replaced within the debounce.
  CHECK(published[1]["version"] == 3);
  CHECK(published[1]["diagnostics"] == json::array());
  CHECK(transport.response(2)["result"].is_null());
}

TEST_CASE("an error published after a change names mkq check's code, and the fix clears it", "[lsp][server]") {
  mkq::testing::FakeClock clock;
  mkq::sema::InMemoryFileSystem disk;
  disk.add("/p/policy.mkq", quickstart());
  ScriptedTransport transport(clock);
  transport.at(0ms, request(1, "initialize", {{"capabilities", json::object()}}));
  transport.at(0ms, notification("textDocument/didOpen",
                                 {{"textDocument", {{"uri", kUri}, {"languageId", "mkq"}, {"version", 1},
                                                    {"text", "let gpus = 8\nlet memory = gpu * 64Gi\n"}}}}));
  transport.at(1000ms, request(2, "textDocument/codeAction",
                               {{"textDocument", {{"uri", kUri}}},
                                {"range", {{"start", {{"line", 1}, {"character", 13}}}, {"end", {{"line", 1}, {"character", 13}}}}},
                                {"context", {{"diagnostics", json::array()}}}}));
  transport.at(2000ms, change(2, 1, 13, 16, "gpus"));
  transport.at(3000ms, request(3, "shutdown", nullptr));
  mkq::lsp::serve(transport, clock, disk, {});

  const auto published = transport.notifications("textDocument/publishDiagnostics");
  REQUIRE(published.size() == 2);
  const json& first = published[0]["diagnostics"];
  // The whole policy is /p: the opened buffer replaces the file on disk.
  REQUIRE(first.size() >= 1);
  CHECK(first[0]["code"] == "E2001");
  CHECK(first[0]["message"] == "unknown name 'gpu'");
  CHECK(first[0]["range"] == json::parse(R"({"start":{"line":1,"character":13},"end":{"line":1,"character":16}})"));
  const json& actions = transport.response(2)["result"];
  REQUIRE(actions.size() == 1);
  CHECK(actions[0]["title"] == "did you mean 'gpus'?");
  CHECK(actions[0]["edit"]["changes"][kUri][0]["newText"] == "gpus");
  CHECK(published[1]["version"] == 2);
  for (const auto& diagnostic : published[1]["diagnostics"]) CHECK(diagnostic["code"] != "E2001");
}

TEST_CASE("bad messages get JSON-RPC errors and the server goes on", "[lsp][server]") {
  mkq::testing::FakeClock clock;
  mkq::sema::InMemoryFileSystem disk;
  ScriptedTransport transport(clock);
  transport.at(0ms, request(1, "textDocument/hover", json::object()));  // before initialize
  transport.at(0ms, request(2, "initialize", {{"capabilities", {{"general", {{"positionEncodings", {"utf-8", "utf-16"}}}}}}}));
  transport.at_raw(0ms, "{not json");
  transport.at_raw(0ms, "[1, 2]");
  transport.at(0ms, request(3, "workspace/symbol", json::object()));
  transport.at(0ms, request(4, "textDocument/hover", {{"textDocument", {{"uri", "file:///nowhere.mkq"}}}}));
  transport.at(0ms, request(5, "textDocument/hover", {{"textDocument", {{"uri", 7}}}}));
  transport.at(0ms, request(6, "textDocument/hover", json::object()));
  transport.at(0ms, notification("$/cancelRequest", {{"id", 6}}));
  const int code = mkq::lsp::serve(transport, clock, disk, {});

  CHECK(code == 1);  // the input ended without shutdown
  CHECK(transport.response(1)["error"]["code"] == -32002);
  CHECK(transport.response(2)["result"]["capabilities"]["positionEncoding"] == "utf-8");
  std::vector<int> null_id_errors;
  for (const auto& message : transport.written) {
    if (message.contains("id") && message["id"].is_null()) null_id_errors.push_back(message["error"]["code"]);
  }
  CHECK(null_id_errors == std::vector<int>{-32700, -32600});
  CHECK(transport.response(3)["error"]["code"] == -32601);
  CHECK(transport.response(4)["error"]["message"] == "the document is not open");
  CHECK(transport.response(5)["error"]["code"] == -32602);
  CHECK(transport.response(6)["error"]["code"] == -32800);
}

TEST_CASE("hover shows the value an expression evaluates to, quantities canonical", "[lsp][hover]") {
  mkq::testing::FakeClock clock;
  mkq::sema::InMemoryFileSystem disk;
  const std::string text = "let a = 3 * 64\nlet gpus = 24\nlet mem = gpus * 64Gi\nlet half = 1536Mi / 3\n";
  ScriptedTransport transport(clock);
  const auto hover = [&](int id, int line, int character) {
    transport.at(0ms, request(id, "textDocument/hover",
                              {{"textDocument", {{"uri", kUri}}}, {"position", {{"line", line}, {"character", character}}}}));
  };
  transport.at(0ms, request(1, "initialize", {{"capabilities", json::object()}}));
  transport.at(0ms, notification("textDocument/didOpen",
                                 {{"textDocument", {{"uri", kUri}, {"languageId", "mkq"}, {"version", 1}, {"text", text}}}}));
  hover(2, 0, 10);  // on `*`
  hover(3, 2, 16);  // on `*` of gpus * 64Gi
  hover(4, 3, 18);  // on `/`
  hover(5, 1, 0);   // on `let`: nothing
  mkq::lsp::serve(transport, clock, disk, {});

  const auto value = [&](int id) { return transport.response(id)["result"]["contents"]["value"].get<std::string>(); };
  CHECK(value(2) == "```mkq\n3 * 64\n```\n= `192`");
  CHECK(value(3) == "```mkq\ngpus * 64Gi\n```\n= `1536Gi`");
  CHECK(value(4) == "```mkq\n1536Mi / 3\n```\n= `512Mi`");
  CHECK(transport.response(5)["result"].is_null());
}
