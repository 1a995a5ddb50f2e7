// HTTP/1.1 as the sandbox's transport (server.h) reads and writes it, as
// pure functions over bytes: a request head parsed, the query and path
// decoded as Go's net/url decodes them, chunk sizes, status texts, the Date
// header, gzip. No sockets and no TLS: server.cpp does the I/O, tests feed
// bytes.
#pragma once

#include <cstddef>
#include <ctime>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace mkq::sandbox::http1 {

// Go's http.DefaultMaxHeaderBytes, which kube-apiserver keeps: a longer head
// (request line and headers) is answered 431 and the connection closed.
inline constexpr std::size_t kMaxHeadBytes = 1 << 20;
// kube-apiserver gzips an answer only from this size on (defaultGzipThresholdBytes).
inline constexpr std::size_t kGzipThresholdBytes = 128 * 1024;

struct RequestHead {
  std::string method;  // as sent: "GET"
  std::string target;  // as sent: "/api/v1/namespaces?limit=5"
  std::string path;    // the target's path, percent-decoded ('+' stays '+')
  int minor_version = 1;  // HTTP/1.minor_version
  // Names lower-case; a header sent more than once has its values joined with ",".
  std::map<std::string, std::string> headers;

  // The value of a header by its lower-case name; "" when absent.
  const std::string& header(const std::string& name) const;
  // Whether the connection stays open after the answer: HTTP/1.1 unless
  // `Connection: close`, HTTP/1.0 only with `Connection: keep-alive`.
  bool keep_alive() const;
};

enum class HeadStatus {
  kIncomplete,  // more bytes are needed
  kComplete,    // *head is set, *consumed bytes (the blank line included) are the head
  kBad,         // not an HTTP/1.x request head: 400
  kTooLarge,    // over kMaxHeadBytes before its end: 431
};

// Parses the request head at the start of `bytes`. Lines end with CRLF or a
// bare LF, as Go's reader accepts.
HeadStatus parse_head(std::string_view bytes, RequestHead* head, std::size_t* consumed);

// %XX decoded (an invalid escape is kept as written); '+' is a space when plus_is_space.
std::string percent_decode(std::string_view text, bool plus_is_space);

// The target's query as Go's url.ParseQuery reads it: pairs split at '&', a
// value is all after the pair's first '=', keys and values decoded with '+' as a space.
void parse_query(std::string_view target, std::multimap<std::string, std::string>& query);

// A chunk-size line of a chunked body ("1a2b", "1a;ext=x"): its size, or
// nullopt when it is not hexadecimal or does not fit 64 bits.
std::optional<std::size_t> parse_chunk_size(std::string_view line);

// Content-Length's value: digits only, else nullopt.
std::optional<std::size_t> parse_content_length(std::string_view value);

// Whether an Accept-Encoding value accepts gzip (a "gzip" token without q=0).
bool accepts_gzip(std::string_view accept_encoding);

// The body gzip-compressed at zlib's fastest level (Go's gzip.BestSpeed, as kube-apiserver uses).
std::string gzip(std::string_view body);

// The reason phrase of a status code, as Go's http.StatusText words it.
std::string_view reason_phrase(int status);

// `time` as an HTTP Date header value: "Mon, 02 Jan 2006 15:04:05 GMT".
std::string http_date(std::time_t time);

}  // namespace mkq::sandbox::http1
