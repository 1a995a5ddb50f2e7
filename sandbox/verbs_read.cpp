// get and list (verbs.h).
#include <algorithm>
#include <cstdint>
#include <ctime>

#include <fmt/format.h>

#include "sandbox/identity.h"
#include "sandbox/json_text.h"
#include "sandbox/responses.h"
#include "sandbox/selector.h"
#include "sandbox/table.h"
#include "sandbox/verbs.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

// A LIST's continue token, as kube-apiserver writes it: base64url (no
// padding) of {"v": "meta.k8s.io/v1", "rv": the first page's resourceVersion,
// "start": the key after the page's last}. The key is relative to what is
// listed ("ns/name" across namespaces, "name" in one namespace or at the
// cluster scope), followed by "\0": the first key after the last one served.
// rv -1 (the token a 410 offers) continues at the latest resourceVersion.
struct Paging {
  std::size_t limit = 0;  // 0: all
  std::string after;      // the store's key to start after, "ns\nname"
  std::int64_t at = 0;    // the snapshot read; 0: the latest
};

bool across_namespaces(const ResourceInfo& info, const std::optional<std::string>& ns) {
  return info.namespaced && !ns;
}

std::string continue_token(const ResourceInfo& info, const std::optional<std::string>& ns, std::int64_t rv,
                           const std::string& last_ns, const std::string& last_name) {
  std::string start = across_namespaces(info, ns) ? last_ns + "/" + last_name : last_name;
  start += '\0';
  // The members in Go's order (the struct's), as kube-apiserver's bytes are.
  return base64url(fmt::format(R"({{"v":"meta.k8s.io/v1","rv":{},"start":{}}})", rv, json(start).dump()));
}

ApiResponse invalid_continue(const std::string& why) {
  return bad_request("invalid continue token: continue key is not valid" + (why.empty() ? "" : ": " + why));
}

// ?limit, ?continue (with ?resourceVersion, as kube-apiserver validates them).
std::optional<ApiResponse> read_paging(const ApiRequest& r, const ResourceInfo& info,
                                       const std::optional<std::string>& ns, Paging* paging) {
  if (const auto text = query_value(r, "limit"); !text.empty()) {
    try {
      paging->limit = static_cast<std::size_t>(std::max(0LL, std::stoll(text)));
    } catch (const std::exception&) {
      return bad_request("invalid limit: " + text);
    }
  }
  const std::string token = query_value(r, "continue");
  if (token.empty()) return std::nullopt;
  // etcd's order: the resourceVersion read, then the token, then the two together.
  const std::string rv_text = query_value(r, "resourceVersion");
  if (const auto rv = read_resource_version(rv_text); !rv.error.empty()) {
    return bad_request("invalid resource version: " + rv.error);
  }
  // Go's base64.RawURLEncoding names the first byte it cannot read.
  const std::size_t bad =
      token.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_");
  const auto decoded = bad == std::string::npos ? base64url_decode(token) : std::nullopt;
  if (!decoded) {
    return invalid_continue(fmt::format("illegal base64 data at input byte {}",
                                        bad == std::string::npos ? token.size() - 1 : bad));
  }
  const json fields = json::parse(*decoded, nullptr, false);
  if (!fields.is_object()) return invalid_continue("invalid character in the encoded token");
  if (fields.value("v", json()) != "meta.k8s.io/v1") {
    return invalid_continue("server does not recognize this encoded version");
  }
  const json rv = fields.value("rv", json());
  const json start = fields.value("start", json());
  if (!rv.is_number_integer() || rv.get<std::int64_t>() == 0) {
    return invalid_continue("incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
  }
  if (!start.is_string() || start.get<std::string>().empty()) {
    return invalid_continue("encoded start key empty (version meta.k8s.io/v1)");
  }
  std::string key = start.get<std::string>();
  if (key.back() == '\0') key.pop_back();
  // As kube-apiserver cleans the key against a path traversal: one or two plain segments.
  const std::size_t slash = key.find('/');
  const bool two = across_namespaces(info, ns);
  const auto plain = [](const std::string& segment) {
    return !segment.empty() && segment != "." && segment != ".." && segment.find('\0') == std::string::npos;
  };
  const bool clean = slash == std::string::npos
                         ? plain(key)
                         : two && plain(key.substr(0, slash)) && plain(key.substr(slash + 1)) &&
                               key.find('/', slash + 1) == std::string::npos;
  if (!clean) return invalid_continue(start.get<std::string>());
  if (two) {
    paging->after =
        slash == std::string::npos ? key + "\n" : key.substr(0, slash) + "\n" + key.substr(slash + 1);
  } else {
    paging->after = (ns ? *ns : std::string()) + "\n" + key;
  }
  if (!rv_text.empty() && rv_text != "0") {
    return bad_request("specifying resource version is not allowed when using continue");
  }
  paging->at = rv.get<std::int64_t>() > 0 ? rv.get<std::int64_t>() : 0;
  return std::nullopt;
}

// 410 for a snapshot the event log no longer holds, with a token that
// continues at the latest resourceVersion, in kube-apiserver's words.
ApiResponse continue_expired(const ResourceInfo& info, const std::optional<std::string>& ns,
                             const std::string& after) {
  const auto cut = after.find('\n');
  json body = status_body(
      410, "Expired",
      "The provided continue parameter is too old to display a consistent list result. You can start a new "
      "list without the continue parameter, or use the continue token in this response to retrieve the "
      "remainder of the results. Continuing with the provided token results in an inconsistent list - "
      "objects "
      "that were created, modified, or deleted between the time the first chunk was returned and now may "
      "show "
      "up in the list.");
  body["metadata"]["continue"] = continue_token(info, ns, -1, after.substr(0, cut), after.substr(cut + 1));
  return json_response(410, body);
}

// The matching objects after `paging.after`, at most `paging.limit`, as they
// were at `at`; *more when some are left, and without selectors how many
// (*remaining); std::nullopt when that snapshot is compacted. Reads the store
// in batches so a selective list stays cheap.
std::optional<std::vector<json>> matching_page(const Store& store, const ResourceInfo& info,
                                               const std::optional<std::string>& ns, const Selector& selector,
                                               const Paging& paging, std::int64_t at, bool* more,
                                               std::optional<std::int64_t>* remaining) {
  std::vector<json> items;
  std::string last_key = paging.after;
  const std::size_t limit = paging.limit;
  const bool every = selector.labels.empty() && selector.fields.empty();
  for (;;) {
    const std::size_t batch = limit == 0 || every ? limit : std::max<std::size_t>(limit, 256);
    auto page = store.list_page_at(info.group, info.resource, ns, last_key, batch, at, every);
    if (!page) return std::nullopt;
    for (StoredText& row : page->rows) {
      last_key = row.ns + "\n" + row.name;
      json object = json::parse(row.body, nullptr, false);
      if (object.is_discarded()) object = json::object();
      if (!selector.matches(object)) continue;
      if (limit > 0 && items.size() == limit) {
        *more = true;
        break;
      }
      items.push_back(std::move(object));
    }
    if (every) {
      *more = page->more;
      if (page->more) *remaining = page->remaining;
      break;
    }
    if (*more || !page->more) break;
  }
  return items;
}

// A LIST's answer from the stored text of its objects, spliced in as they
// are: the bytes json_response(present(...)) would write, without parsing and
// writing every object again. Stored text is compact JSON with sorted keys
// (nlohmann's dump of a std::map); an object whose text does not already say
// the resource's apiVersion and kind is presented the slow way. Every page but
// the last says how many objects are left (remainingItemCount), as
// kube-apiserver does for a LIST without selectors.
ApiResponse list_answer_from_text(const Store& store, const ResourceInfo& info,
                                  const std::optional<std::string>& ns, const Paging& paging,
                                  std::int64_t at) {
  std::optional<ListPage> page =
      store.list_page_at(info.group, info.resource, ns, paging.after, paging.limit, at, true);
  if (!page) return continue_expired(info, ns, paging.after);
  const std::vector<StoredText>& rows = page->rows;
  json metadata = {{"resourceVersion", std::to_string(at)}};
  if (page->more) {
    metadata["continue"] = continue_token(info, ns, at, rows.back().ns, rows.back().name);
    metadata["remainingItemCount"] = page->remaining;
  }
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

// ValidateListOptions' checks of resourceVersionMatch: a 422 on ListOptions.
std::optional<ApiResponse> refuse_list_options(const ApiRequest& r) {
  const std::string match = query_value(r, "resourceVersionMatch");
  if (match.empty()) return std::nullopt;
  const std::string rv = query_value(r, "resourceVersion");
  std::vector<FieldError> errors;
  const auto forbidden = [&](const std::string& detail) {
    errors.push_back({"FieldValueForbidden", "resourceVersionMatch", "Forbidden: " + detail});
  };
  if (rv.empty()) forbidden("resourceVersionMatch is forbidden unless resourceVersion is provided");
  if (!query_value(r, "continue").empty()) forbidden("resourceVersionMatch is forbidden when continue is provided");
  if (match != "Exact" && match != "NotOlderThan") {
    errors.push_back({"FieldValueNotSupported", "resourceVersionMatch",
                      fmt::format("Unsupported value: {}: supported values: \"Exact\", \"NotOlderThan\", \"\"",
                                  json(match).dump())});
  }
  if (match == "Exact" && rv == "0") forbidden("resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"");
  if (errors.empty()) return std::nullopt;
  return invalid_options("ListOptions", errors);
}

// The watch cache's resourceVersionTooHighRetrySeconds.
constexpr int kTooLargeRetrySeconds = 1;

// storage.NewTooLargeResourceVersionError: 504, `Timeout: Too large resource version: N, current: M`.
ApiResponse too_large_resource_version(std::uint64_t wanted, std::uint64_t current, int retry_seconds) {
  json details = {{"causes", {{{"reason", "ResourceVersionTooLarge"}, {"message", "Too large resource version"}}}}};
  if (retry_seconds > 0) details["retryAfterSeconds"] = retry_seconds;
  ApiResponse response = status_error(
      504, "Timeout", fmt::format("Timeout: Too large resource version: {}, current: {}", wanted, current), details);
  if (retry_seconds > 0) response.headers["Retry-After"] = std::to_string(retry_seconds);
  return response;
}

// The snapshot a LIST reads by its ?resourceVersion (*at; 0: the latest), or
// kube-apiserver v1.33's answer when it cannot. Where kube serves the LIST
// decides (cacher/delegator.go's shouldDelegateList): etcd for `Exact`, and
// for a `limit` with a resourceVersion other than "0" and no match (the
// legacy Exact, kept for old clients); the watch cache otherwise, which
// serves "0" as it stands and anything else `NotOlderThan`. A continued LIST
// read its resourceVersion in read_paging.
//   - Exact (either): the store at that resourceVersion, 410 once the event log
//     no longer reaches it (as etcd once compacted); one the cluster has not
//     reached is the documented 504 below, without Retry-After (kube-apiserver
//     v1.33 answers etcd's 500 `etcdserver: mvcc: required revision is a
//     future revision`, kubernetes#132358, a bug).
//   - NotOlderThan: the latest state, which is never older than a resourceVersion
//     the cluster has reached.
//   - A resourceVersion the cluster has not reached: 504 `Too large resource
//     version`. The watch cache waits up to 3 s for itself to catch up with
//     etcd first; the sandbox's store is the state itself and never behind,
//     so it answers at once (with the watch cache's Retry-After: 1).
//   - One that is no uint64: etcd's 400 `invalid resource version: ...`; the
//     watch cache returns the parse error unwrapped, which kube-apiserver
//     answers as a 500 without a reason (kubernetes#101350).
std::optional<ApiResponse> read_list_resource_version(const ApiRequest& r, const Store& store, const Paging& paging,
                                                      std::int64_t* at) {
  const std::string text = query_value(r, "resourceVersion");
  if (text.empty() || !query_value(r, "continue").empty()) return std::nullopt;
  const std::string match = query_value(r, "resourceVersionMatch");
  const bool exact = match == "Exact" || (match.empty() && paging.limit > 0 && text != "0");
  const ResourceVersion rv = read_resource_version(text);
  if (!rv.error.empty()) {
    return exact ? bad_request("invalid resource version: " + rv.error) : unwrapped_error(rv.error);
  }
  if (rv.value == 0) return std::nullopt;
  const auto current = static_cast<std::uint64_t>(store.current_rv());
  if (rv.value > current) {
    return too_large_resource_version(rv.value, current, exact ? 0 : kTooLargeRetrySeconds);
  }
  if (!exact) return std::nullopt;
  if (rv.value < static_cast<std::uint64_t>(store.oldest_watchable_rv())) {
    return status_error(410, "Expired", "The resourceVersion for the provided list is too old.");
  }
  *at = static_cast<std::int64_t>(rv.value);
  return std::nullopt;
}

}  // namespace

ApiResponse get_object(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t) {
  const auto object = state.store->get(key_of(info, t.ns, t.name));
  if (!object) return not_found(info, t.name);
  return object_response(r, info, 200, *object);
}

ApiResponse list_objects(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t) {
  if (auto refused = refuse_list_options(r)) return *refused;
  std::string error;
  const auto selector = parse_selector(query_value(r, "labelSelector"), query_value(r, "fieldSelector"), info, &error);
  if (!selector) return bad_request(error);
  const std::optional<std::string> ns = info.namespaced && !t.ns.empty() ? std::optional(t.ns) : std::nullopt;
  Paging paging;
  if (auto refused = read_paging(r, info, ns, &paging)) return *refused;
  if (auto refused = read_list_resource_version(r, *state.store, paging, &paging.at)) return *refused;
  // The first page's resourceVersion is the snapshot every later page reads.
  const std::int64_t at = paging.at > 0 ? paging.at : state.store->current_rv();
  const bool as_table = wants_table(header(r, "accept"));
  if (selector->labels.empty() && selector->fields.empty() && !as_table) {
    return list_answer_from_text(*state.store, info, ns, paging, at);
  }
  bool more = false;
  std::optional<std::int64_t> remaining;
  std::optional<std::vector<json>> items =
      matching_page(*state.store, info, ns, *selector, paging, at, &more, &remaining);
  if (!items) return continue_expired(info, ns, paging.after);
  json metadata = {{"resourceVersion", std::to_string(at)}};
  if (more) {
    const auto& last = items->back().at("metadata");
    metadata["continue"] = continue_token(info, ns, at, last.value("namespace", std::string()),
                                          last.value("name", std::string()));
    if (remaining) metadata["remainingItemCount"] = *remaining;
  }
  if (as_table) {
    return json_response(
        200, to_table(info, *items, metadata, query_value(r, "includeObject"), std::time(nullptr)));
  }
  json out_items = json::array();
  for (auto& object : *items) out_items.push_back(present(info, std::move(object)));
  return json_response(200, {{"kind", info.list_kind},
                             {"apiVersion", info.api_version()},
                             {"metadata", metadata},
                             {"items", std::move(out_items)}});
}

}  // namespace mkq::sandbox
