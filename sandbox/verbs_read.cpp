// get and list (verbs.h).
#include <algorithm>
#include <ctime>

#include "sandbox/json_text.h"
#include "sandbox/responses.h"
#include "sandbox/selector.h"
#include "sandbox/table.h"
#include "sandbox/verbs.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

// The continue token: the last key of a page ("ns\nname"), hex-encoded.
std::string hex_encode(const std::string& s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (const unsigned char c : s) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

std::optional<std::string> hex_decode(const std::string& s) {
  if (s.size() % 2 != 0) return std::nullopt;
  std::string out;
  for (std::size_t i = 0; i < s.size(); i += 2) {
    const auto nibble = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      return -1;
    };
    const int hi = nibble(s[i]);
    const int lo = nibble(s[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
  }
  return out;
}

std::string page_key(const json& object) {
  const auto& meta = object.at("metadata");
  return meta.value("namespace", std::string()) + "\n" + meta.value("name", std::string());
}

// ?limit and ?continue: how many items at most (0: all), and the key to start after.
std::optional<ApiResponse> read_paging(const ApiRequest& r, std::size_t* limit, std::string* after) {
  if (const auto text = query_value(r, "limit"); !text.empty()) {
    try {
      *limit = static_cast<std::size_t>(std::max(0LL, std::stoll(text)));
    } catch (const std::exception&) {
      return bad_request("invalid limit: " + text);
    }
  }
  if (const auto token = query_value(r, "continue"); !token.empty()) {
    const auto decoded = hex_decode(token);
    if (!decoded) return status_error(400, "BadRequest", "continue key is not valid: illegal base64 data");
    *after = *decoded;
  }
  return std::nullopt;
}

// The matching objects after `after`, at most `limit` (0: all); *more when
// some are left. Reads the store in batches so a selective list stays cheap.
std::vector<json> matching_page(const Store& store, const ResourceInfo& info, const std::optional<std::string>& ns,
                                const Selector& selector, std::size_t limit, const std::string& after, bool* more) {
  std::vector<json> items;
  std::string last_key = after;
  for (;;) {
    const std::size_t batch = limit == 0 ? 0 : std::max<std::size_t>(limit, 256);
    auto page = store.list(info.group, info.resource, ns, last_key, batch);
    for (auto& object : page) {
      last_key = page_key(object);
      if (!selector.matches(object)) continue;
      if (limit > 0 && items.size() == limit) {
        *more = true;
        break;
      }
      items.push_back(std::move(object));
    }
    if (*more || batch == 0 || page.size() < batch) break;
  }
  return items;
}

// A LIST's answer from the stored text of its objects, spliced in as they
// are: the bytes json_response(present(...)) would write, without parsing and
// writing every object again. Stored text is compact JSON with sorted keys
// (nlohmann's dump of a std::map); an object whose text does not already say
// the resource's apiVersion and kind is presented the slow way.
ApiResponse list_answer_from_text(const Store& store, const ResourceInfo& info, const std::optional<std::string>& ns,
                                  std::size_t limit, const std::string& after) {
  // One more than the page: whether any are left.
  std::vector<StoredText> rows = store.list_text(info.group, info.resource, ns, after, limit == 0 ? 0 : limit + 1);
  const bool more = limit > 0 && rows.size() > limit;
  if (more) rows.resize(limit);
  json metadata = {{"resourceVersion", std::to_string(store.current_rv())}};
  if (more) metadata["continue"] = hex_encode(rows.back().ns + "\n" + rows.back().name);
  const std::string api_version = json(info.api_version()).dump();
  const std::string kind = json(info.kind).dump();
  std::size_t size = 0;
  for (const StoredText& row : rows) size += row.body.size() + 1;
  ApiResponse response;
  std::string& body = response.body;
  body.reserve(size + 256);
  body += "{\"apiVersion\":" + api_version + ",\"items\":[";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i > 0) body += ',';
    const std::string& text = rows[i].body;
    if (top_level_member(text, "apiVersion") == std::string_view(api_version) &&
        top_level_member(text, "kind") == std::string_view(kind)) {
      body += text;
    } else {
      json object = json::parse(text, nullptr, false);
      if (object.is_discarded()) object = json::object();
      body += present(info, std::move(object)).dump(-1, ' ', false, json::error_handler_t::replace);
    }
  }
  body += "],\"kind\":" + json(info.list_kind).dump() + ",\"metadata\":" + metadata.dump() + "}";
  return response;
}

}  // namespace

ApiResponse get_object(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t) {
  const auto object = state.store->get(key_of(info, t.ns, t.name));
  if (!object) return not_found(info, t.name);
  return object_response(r, info, 200, *object);
}

ApiResponse list_objects(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t) {
  std::string error;
  const auto selector = parse_selector(query_value(r, "labelSelector"), query_value(r, "fieldSelector"), info, &error);
  if (!selector) return bad_request(error);
  std::size_t limit = 0;
  std::string after;
  if (auto refused = read_paging(r, &limit, &after)) return *refused;
  const std::optional<std::string> ns = info.namespaced && !t.ns.empty() ? std::optional(t.ns) : std::nullopt;
  const bool as_table = wants_table(header(r, "accept"));
  if (selector->labels.empty() && selector->fields.empty() && !as_table) {
    return list_answer_from_text(*state.store, info, ns, limit, after);
  }
  bool more = false;
  std::vector<json> items = matching_page(*state.store, info, ns, *selector, limit, after, &more);
  json metadata = {{"resourceVersion", std::to_string(state.store->current_rv())}};
  if (more) metadata["continue"] = hex_encode(page_key(items.back()));
  if (as_table) {
    return json_response(200, to_table(info, items, metadata, query_value(r, "includeObject"), std::time(nullptr)));
  }
  json out_items = json::array();
  for (auto& object : items) out_items.push_back(present(info, std::move(object)));
  return json_response(200, {{"kind", info.list_kind},
                             {"apiVersion", info.api_version()},
                             {"metadata", metadata},
                             {"items", std::move(out_items)}});
}

}  // namespace mkq::sandbox
