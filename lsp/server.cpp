// The server: JSON-RPC dispatch, the lifecycle (initialize, shutdown, exit),
// the open documents and the debounced publication of diagnostics. Requests
// are answered in order on one thread; what arrived together is read first,
// so that a `$/cancelRequest` already sent cancels its request.
#include <algorithm>
#include <deque>
#include <set>

#include <fmt/format.h>

#include "lsp/features.h"
#include "lsp/lsp.h"

namespace mkq::lsp {

namespace {

namespace fs = std::filesystem;
using TimePoint = std::chrono::system_clock::time_point;

// JSON-RPC and LSP error codes.
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kInternalError = -32603;
constexpr int kServerNotInitialized = -32002;
constexpr int kRequestFailed = -32803;
constexpr int kRequestCancelled = -32800;

// A request's parameters were not what the method takes.
struct BadParams {
  std::string message;
};

const Json& member(const Json& object, const char* name) {
  static const Json null;
  if (!object.is_object()) return null;
  const auto found = object.find(name);
  return found == object.end() ? null : *found;
}

std::string string_member(const Json& object, const char* name) {
  const Json& value = member(object, name);
  if (!value.is_string()) throw BadParams{fmt::format("'{}' must be a string", name)};
  return value.get<std::string>();
}

class Server {
 public:
  Server(Transport& transport, const base::Clock& clock, const sema::FileSystem& disk, ServeOptions options)
      : transport_(transport), clock_(clock), overlay_(disk, documents_), options_(std::move(options)) {}

  bool done() const { return exited_; }
  int exit_code() const { return shutdown_ ? 0 : 1; }

  // The earliest time a policy's diagnostics are due.
  std::optional<TimePoint> deadline() const {
    std::optional<TimePoint> earliest;
    for (const auto& [dir, policy] : policies_) {
      if (policy.due && (!earliest || *policy.due < *earliest)) earliest = policy.due;
    }
    return earliest;
  }

  void publish_due() {
    const TimePoint now = clock_.now();
    for (auto& [dir, policy] : policies_) {
      if (!policy.due || *policy.due > now) continue;
      try {
        refresh(dir, policy);
      } catch (const std::exception& e) {
        policy.due.reset();
        notify("window/logMessage",
               {{"type", 1},
                {"message", fmt::format("checking {}: internal error: {}", dir.string(), e.what())}});
      }
    }
  }

  // Handles frames read together: cancellations first, then the rest in order.
  void handle(std::deque<Incoming>& batch) {
    std::vector<Json> messages;
    for (auto& frame : batch) {
      if (frame.kind == Incoming::Kind::Malformed) {
        send_error(nullptr, kParseError, fmt::format("malformed message: {}", frame.error));
        continue;
      }
      if (frame.kind == Incoming::Kind::End) continue;
      Json message = Json::parse(frame.body, nullptr, false);
      if (message.is_discarded()) {
        send_error(nullptr, kParseError, "the message is not JSON");
        continue;
      }
      if (member(message, "method") == "$/cancelRequest") {
        const Json& id = member(member(message, "params"), "id");
        if (id.is_number_integer() || id.is_string()) cancelled_.insert(id.dump());
        continue;
      }
      messages.push_back(std::move(message));
    }
    for (const auto& message : messages) {
      if (exited_) return;
      dispatch(message);
    }
    cancelled_.clear();
  }

 private:
  // One policy (a directory): its last analysis, and when its diagnostics are due.
  struct Policy {
    std::unique_ptr<Analysis> analysis;
    std::unique_ptr<Index> index;      // made on first use after each analysis
    std::unique_ptr<Positions> positions;  // of the analysis' files
    std::optional<TimePoint> due;      // diagnostics to publish once the edits pause
    std::set<std::string> published;   // URIs that last got diagnostics
  };

  // ---------------------------------------------------------------- messages

  // Text from the documents may hold invalid UTF-8: it is sent replaced, never refused.
  void send(const Json& message) { transport_.write(message.dump(-1, ' ', false, Json::error_handler_t::replace)); }

  void send_result(const Json& id, Json result) { send({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}); }

  void send_error(const Json& id, int code, const std::string& message) {
    send({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
  }

  void notify(const std::string& method, Json params) {
    send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
  }

  void dispatch(const Json& message) {
    const Json& id = member(message, "id");
    const Json& method = member(message, "method");
    const bool is_request = message.is_object() && message.contains("id");
    if (!message.is_object() || !method.is_string() ||
        (is_request && !id.is_number_integer() && !id.is_string())) {
      // A response from the client (to nothing we asked) is ignored; anything else is invalid.
      if (message.is_object() && (message.contains("result") || message.contains("error"))) return;
      send_error(is_request && (id.is_number_integer() || id.is_string()) ? id : Json(nullptr), kInvalidRequest,
                 "not a JSON-RPC request or notification");
      return;
    }
    const std::string name = method.get<std::string>();
    const Json& params = member(message, "params");
    if (!is_request) return notification(name, params);
    if (cancelled_.count(id.dump()) > 0) return send_error(id, kRequestCancelled, "the request was cancelled");
    try {
      request(id, name, params);
    } catch (const BadParams& bad) {
      send_error(id, kInvalidParams, bad.message);
    } catch (const std::exception& e) {
      send_error(id, kInternalError, std::string("internal error: ") + e.what());
    }
  }

  void request(const Json& id, const std::string& method, const Json& params) {
    if (method == "initialize") return send_result(id, initialize(params));
    if (!initialized_) return send_error(id, kServerNotInitialized, "the server is not initialized");
    if (shutdown_) return send_error(id, kInvalidRequest, "the server is shutting down");
    if (method == "shutdown") {
      shutdown_ = true;
      return send_result(id, nullptr);
    }
    if (method == "textDocument/formatting") {
      const Document& document = open_document(params);
      return send_result(id, formatting(document.path.generic_string(), document.text, encoding_));
    }
    if (method == "textDocument/completion") return send_result(id, complete(params));
    static const std::set<std::string> kAtPosition = {
        "textDocument/hover",        "textDocument/definition",     "textDocument/references",
        "textDocument/rename",       "textDocument/prepareRename",  "textDocument/documentSymbol",
        "textDocument/semanticTokens/full", "textDocument/codeAction"};
    if (kAtPosition.count(method) == 0)
      return send_error(id, kMethodNotFound, fmt::format("unknown method '{}'", method));
    const Document& document = open_document(params);
    Policy& policy = fresh(document.path.parent_path());
    const View view{*policy.analysis, index_of(policy), positions(policy)};
    const auto file = policy.analysis->file_of(document.path);
    if (!file) return send_result(id, nullptr);  // the file did not parse at all
    if (method == "textDocument/documentSymbol") return send_result(id, document_symbols(view, *file));
    if (method == "textDocument/semanticTokens/full") return send_result(id, semantic_tokens(view, *file));
    if (method == "textDocument/codeAction") {
      const auto range = range_from_json(member(params, "range"));
      if (!range) throw BadParams{"'range' must be a range"};
      return send_result(id, code_actions(view, *file, view.positions.offset(*file, range->start),
                                          view.positions.offset(*file, range->end)));
    }
    const auto position = position_from_json(member(params, "position"));
    if (!position) throw BadParams{"'position' must be a position"};
    const std::uint32_t offset = view.positions.offset(*file, *position);
    if (method == "textDocument/hover") return send_result(id, hover(view, *file, offset));
    if (method == "textDocument/definition") return send_result(id, definition(view, *file, offset));
    if (method == "textDocument/references") {
      const Json& declaration = member(member(params, "context"), "includeDeclaration");
      return send_result(id, references(view, *file, offset, declaration.is_boolean() && declaration.get<bool>()));
    }
    if (method == "textDocument/prepareRename") return send_result(id, prepare_rename(view, *file, offset));
    Answer answer = rename(view, *file, offset, string_member(params, "newName"));
    if (!answer.error.empty()) return send_error(id, kRequestFailed, answer.error);
    send_result(id, std::move(answer.result));
  }

  void notification(const std::string& method, const Json& params) {
    if (method == "exit") {
      exited_ = true;
      return;
    }
    if (!initialized_ || shutdown_) return;  // notifications before initialize are dropped (LSP)
    try {
      if (method == "textDocument/didOpen") return did_open(member(params, "textDocument"));
      if (method == "textDocument/didChange") return did_change(params);
      if (method == "textDocument/didClose") return did_close(params);
      if (method == "textDocument/didSave") return schedule(open_document(params).path.parent_path(), false);
    } catch (const BadParams& bad) {
      notify("window/logMessage", {{"type", 1}, {"message", fmt::format("{}: {}", method, bad.message)}});
    } catch (const std::exception& e) {
      notify("window/logMessage",
             {{"type", 1}, {"message", fmt::format("{}: internal error: {}", method, e.what())}});
    }
    // initialized, $/setTrace, workspace/didChangeConfiguration, ...: nothing to do.
  }

  // ---------------------------------------------------------------- lifecycle

  Json initialize(const Json& params) {
    if (initialized_) throw BadParams{"initialize was already received"};
    initialized_ = true;
    const Json& offered = member(member(member(params, "capabilities"), "general"), "positionEncodings");
    encoding_ = Encoding::Utf16;
    if (offered.is_array() && std::find(offered.begin(), offered.end(), Json("utf-8")) != offered.end()) {
      encoding_ = Encoding::Utf8;
    }
    return {
        {"capabilities",
         {{"positionEncoding", encoding_ == Encoding::Utf8 ? "utf-8" : "utf-16"},
          {"textDocumentSync", {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
          {"hoverProvider", true},
          {"completionProvider", {{"triggerCharacters", {"\"", ".", "/"}}}},
          {"definitionProvider", true},
          {"referencesProvider", true},
          {"renameProvider", {{"prepareProvider", true}}},
          {"documentSymbolProvider", true},
          {"documentFormattingProvider", true},
          {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}},
          {"semanticTokensProvider", {{"legend", semantic_tokens_legend()}, {"full", true}}}}},
        {"serverInfo", {{"name", "mkq"}}}};
  }

  // ---------------------------------------------------------------- documents

  fs::path path_of(const std::string& uri) const {
    const auto path = uri_to_path(uri);
    if (!path || path->empty() || path->front() != '/')
      throw BadParams{fmt::format("'{}' is not a file:// URI", uri)};
    return fs::path(*path).lexically_normal();
  }

  Document& open_document(const Json& params) {
    const fs::path path = path_of(string_member(member(params, "textDocument"), "uri"));
    const auto found = documents_.find(path);
    if (found == documents_.end()) throw BadParams{"the document is not open"};
    return found->second;
  }

  void did_open(const Json& item) {
    Document document;
    document.uri = string_member(item, "uri");
    document.path = path_of(document.uri);
    document.text = string_member(item, "text");
    const Json& version = member(item, "version");
    document.version = version.is_number_integer() ? version.get<std::int64_t>() : 0;
    const fs::path dir = document.path.parent_path();
    documents_[document.path] = std::move(document);
    schedule(dir, true);
  }

  void did_change(const Json& params) {
    Document& document = open_document(params);
    const Json& version = member(member(params, "textDocument"), "version");
    const Json& changes = member(params, "contentChanges");
    if (!changes.is_array()) throw BadParams{"'contentChanges' must be an array"};
    for (const Json& change : changes) {
      const Json& text = member(change, "text");
      if (!text.is_string()) throw BadParams{"a change's 'text' must be a string"};
      if (member(change, "range").is_null()) {
        document.text = text.get<std::string>();
        continue;
      }
      const auto range = range_from_json(member(change, "range"));
      if (!range) throw BadParams{"a change's 'range' must be a range"};
      apply_change(document.text, *range, text.get<std::string>(), encoding_);
    }
    if (version.is_number_integer()) document.version = version.get<std::int64_t>();
    schedule(document.path.parent_path(), false);
  }

  void did_close(const Json& params) {
    const fs::path path = path_of(string_member(member(params, "textDocument"), "uri"));
    if (documents_.erase(path) == 0) return;
    const fs::path dir = path.parent_path();
    const bool still_open = std::any_of(documents_.begin(), documents_.end(),
                                        [&](const auto& entry) { return entry.first.parent_path() == dir; });
    if (still_open) return schedule(dir, false);
    // Its policy is no longer shown: its diagnostics go.
    if (auto found = policies_.find(dir); found != policies_.end()) {
      for (const auto& uri : found->second.published) notify("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", Json::array()}});
      policies_.erase(found);
    }
  }

  // Diagnostics for `dir` after the debounce (at once for a newly opened policy).
  void schedule(const fs::path& dir, bool opened) {
    Policy& policy = policies_[dir];
    const bool first = opened && !policy.analysis;
    policy.due = first ? clock_.now() : clock_.now() + options_.debounce;
  }

  // ---------------------------------------------------------------- analysis

  Policy& fresh(const fs::path& dir) {
    Policy& policy = policies_[dir];
    if (!policy.analysis || policy.due) refresh(dir, policy);
    return policy;
  }

  void refresh(const fs::path& dir, Policy& policy) {
    policy.due.reset();
    policy.index.reset();
    policy.positions.reset();
    policy.analysis = analyze_policy(dir, overlay_, options_.import_roots);
    publish(dir, policy);
  }

  const Index& index_of(Policy& policy) {
    if (!policy.index) policy.index = std::make_unique<Index>(Index::build(*policy.analysis));
    return *policy.index;
  }

  const Positions& positions(Policy& policy) {
    if (!policy.positions) policy.positions = std::make_unique<Positions>(policy.analysis->sources, encoding_);
    return *policy.positions;
  }

  void publish(const fs::path& dir, Policy& policy) {
    const Analysis& analysis = *policy.analysis;
    const Positions& at = positions(policy);
    std::map<std::string, Json> by_uri;
    for (const auto& [path, document] : documents_) {
      if (path.parent_path() == dir) by_uri[document.uri] = Json::array();
    }
    for (const auto& diagnostic : analysis.diagnostics.sorted(analysis.sources)) {
      std::optional<std::string> uri = at.uri(diagnostic.range.file);
      if (!uri) {
        // No place of its own (a missing directory, a std module): shown on the open files.
        for (auto& [open_uri, list] : by_uri) list.push_back(diagnostic_json(diagnostic, at));
        continue;
      }
      by_uri[*uri].push_back(diagnostic_json(diagnostic, at));
    }
    for (const auto& uri : policy.published) by_uri.emplace(uri, Json::array());
    policy.published.clear();
    for (auto& [uri, list] : by_uri) {
      Json params = {{"uri", uri}, {"diagnostics", std::move(list)}};
      const auto path = uri_to_path(uri);
      if (path) {
        if (auto open = documents_.find(fs::path(*path).lexically_normal()); open != documents_.end()) {
          params["version"] = open->second.version;
        }
      }
      if (!params["diagnostics"].empty()) policy.published.insert(uri);
      notify("textDocument/publishDiagnostics", std::move(params));
    }
  }

  Json complete(const Json& params) {
    const Document& document = open_document(params);
    const auto position = position_from_json(member(params, "position"));
    if (!position) throw BadParams{"'position' must be a position"};
    const LineIndex lines(document.text);
    const std::uint32_t offset = lines.offset(*position, encoding_);
    Policy& policy = policies_[document.path.parent_path()];
    if (!policy.analysis) refresh(document.path.parent_path(), policy);
    const View view{*policy.analysis, index_of(policy), positions(policy)};
    const auto file = policy.analysis->file_of(document.path);
    return completion(view, file.value_or(diag::kNoFile), document.text, offset);
  }

  Transport& transport_;
  const base::Clock& clock_;
  Documents documents_;
  OverlayFileSystem overlay_;  // declared before the policies, whose analyses refer to it
  ServeOptions options_;
  std::map<fs::path, Policy> policies_;
  std::set<std::string> cancelled_;  // ids (as JSON text) of requests cancelled in the current batch
  Encoding encoding_ = Encoding::Utf16;
  bool initialized_ = false;
  bool shutdown_ = false;
  bool exited_ = false;
};

}  // namespace

int serve(Transport& transport, const base::Clock& clock, const sema::FileSystem& disk, const ServeOptions& options) {
  Server server(transport, clock, disk, options);
  while (!server.done()) {
    std::optional<std::chrono::milliseconds> timeout;
    if (const auto deadline = server.deadline()) {
      timeout = std::max(std::chrono::milliseconds(0),
                         std::chrono::ceil<std::chrono::milliseconds>(*deadline - clock.now()));
    }
    if (!transport.wait(timeout)) {
      server.publish_due();
      continue;
    }
    // Everything that has arrived, so that a cancellation finds its request.
    std::deque<Incoming> batch;
    bool ended = false;
    do {
      batch.push_back(transport.read());
      ended = batch.back().kind == Incoming::Kind::End;
    } while (!ended && transport.wait(std::chrono::milliseconds(0)));
    server.handle(batch);
    if (ended) break;
  }
  return server.exit_code();
}

}  // namespace mkq::lsp
