// HTTP/1.1 on the wire (http1.h).
#include "sandbox/http1.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cctype>

#include <fmt/chrono.h>
#include <fmt/format.h>

namespace mkq::sandbox::http1 {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

// RFC 9110's token characters (a method or a header name).
bool is_token(std::string_view text) {
  if (text.empty()) return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) != 0 || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
  });
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool parse_request_line(std::string_view line, RequestHead* head) {
  const std::size_t first = line.find(' ');
  if (first == std::string_view::npos) return false;
  const std::size_t second = line.find(' ', first + 1);
  if (second == std::string_view::npos) return false;
  const std::string_view method = line.substr(0, first);
  const std::string_view target = line.substr(first + 1, second - first - 1);
  const std::string_view version = line.substr(second + 1);
  if (!is_token(method) || target.empty()) return false;
  if (version == "HTTP/1.1") {
    head->minor_version = 1;
  } else if (version == "HTTP/1.0") {
    head->minor_version = 0;
  } else {
    return false;
  }
  head->method.assign(method);
  head->target.assign(target);
  std::string_view path = target.substr(0, target.find('?'));
  // The absolute form ("http://host/path") names the path after the authority.
  if (const std::size_t scheme = path.find("://"); scheme != std::string_view::npos && path.front() != '/') {
    const std::size_t slash = path.find('/', scheme + 3);
    path = slash == std::string_view::npos ? std::string_view("/") : path.substr(slash);
  }
  head->path = percent_decode(path, false);
  return true;
}

}  // namespace

const std::string& RequestHead::header(const std::string& name) const {
  static const std::string kNone;
  const auto found = headers.find(name);
  return found == headers.end() ? kNone : found->second;
}

bool RequestHead::keep_alive() const {
  const std::string connection = lower(header("connection"));
  if (minor_version == 0) return connection.find("keep-alive") != std::string::npos;
  return connection.find("close") == std::string::npos;
}

HeadStatus parse_head(std::string_view bytes, RequestHead* head, std::size_t* consumed) {
  std::size_t position = 0;
  bool first = true;
  for (;;) {
    const std::size_t end = bytes.find('\n', position);
    if (end == std::string_view::npos) {
      return bytes.size() > kMaxHeadBytes ? HeadStatus::kTooLarge : HeadStatus::kIncomplete;
    }
    if (end + 1 > kMaxHeadBytes) return HeadStatus::kTooLarge;
    std::string_view line = bytes.substr(position, end - position);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    position = end + 1;
    if (first) {
      if (!parse_request_line(line, head)) return HeadStatus::kBad;
      first = false;
      continue;
    }
    if (line.empty()) {
      *consumed = position;
      return HeadStatus::kComplete;
    }
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) return HeadStatus::kBad;
    const std::string_view name = line.substr(0, colon);
    if (!is_token(name)) return HeadStatus::kBad;  // also refuses obsolete line folding
    const std::string_view value = trim(line.substr(colon + 1));
    std::string& slot = head->headers[lower(name)];
    if (slot.empty()) {
      slot.assign(value);
    } else {
      slot += ',';
      slot += value;
    }
  }
}

std::string percent_decode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%' && i + 2 < text.size()) {
      const int high = hex_value(text[i + 1]);
      const int low = hex_value(text[i + 2]);
      if (high >= 0 && low >= 0) {
        out += static_cast<char>(high * 16 + low);
        i += 2;
        continue;
      }
    }
    out += plus_is_space && c == '+' ? ' ' : c;
  }
  return out;
}

void parse_query(std::string_view target, std::multimap<std::string, std::string>& query) {
  const std::size_t mark = target.find('?');
  if (mark == std::string_view::npos) return;
  std::string_view rest = target.substr(mark + 1);
  while (!rest.empty()) {
    const std::size_t amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t equals = pair.find('=');
    const std::string_view key = pair.substr(0, equals);
    const std::string_view value = equals == std::string_view::npos ? std::string_view() : pair.substr(equals + 1);
    query.emplace(percent_decode(key, true), percent_decode(value, true));
  }
}

std::optional<std::size_t> parse_chunk_size(std::string_view line) {
  line = trim(line.substr(0, line.find(';')));
  if (line.empty() || line.size() > 16) return std::nullopt;
  std::size_t size = 0;
  for (const char c : line) {
    const int digit = hex_value(c);
    if (digit < 0) return std::nullopt;
    size = size * 16 + static_cast<std::size_t>(digit);
  }
  return size;
}

std::optional<std::size_t> parse_content_length(std::string_view value) {
  value = trim(value);
  if (value.empty() || value.size() > 19) return std::nullopt;
  std::size_t length = 0;
  for (const char c : value) {
    if (c < '0' || c > '9') return std::nullopt;
    length = length * 10 + static_cast<std::size_t>(c - '0');
  }
  return length;
}

bool accepts_gzip(std::string_view accept_encoding) {
  while (!accept_encoding.empty()) {
    const std::size_t comma = accept_encoding.find(',');
    const std::string_view item = accept_encoding.substr(0, comma);
    accept_encoding = comma == std::string_view::npos ? std::string_view() : accept_encoding.substr(comma + 1);
    const std::size_t semicolon = item.find(';');
    if (lower(trim(item.substr(0, semicolon))) != "gzip") continue;
    if (semicolon == std::string_view::npos) return true;
    std::string parameter = lower(trim(item.substr(semicolon + 1)));
    parameter.erase(std::remove(parameter.begin(), parameter.end(), ' '), parameter.end());
    return parameter != "q=0" && parameter != "q=0.0" && parameter != "q=0.00" && parameter != "q=0.000";
  }
  return false;
}

std::string gzip(std::string_view body) {
  z_stream stream{};
  // windowBits 15 + 16: a gzip header and trailer rather than zlib's.
  if (deflateInit2(&stream, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return {};
  std::string out(deflateBound(&stream, static_cast<uLong>(body.size())) + 32, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));  // NOLINT: zlib's API is not const
  stream.avail_in = static_cast<uInt>(body.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int result = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return result == Z_STREAM_END ? out : std::string();
}

std::string_view reason_phrase(int status) {
  switch (status) {
    case 100: return "Continue";
    case 101: return "Switching Protocols";
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 206: return "Partial Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 304: return "Not Modified";
    case 307: return "Temporary Redirect";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 410: return "Gone";
    case 411: return "Length Required";
    case 412: return "Precondition Failed";
    case 413: return "Request Entity Too Large";
    case 414: return "Request URI Too Long";
    case 415: return "Unsupported Media Type";
    case 417: return "Expectation Failed";
    case 422: return "Unprocessable Entity";
    case 428: return "Precondition Required";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    case 505: return "HTTP Version Not Supported";
    default: return "";
  }
}

std::string http_date(std::time_t time) {
  std::tm utc{};
  gmtime_r(&time, &utc);
  return fmt::format("{:%a, %d %b %Y %H:%M:%S} GMT", utc);
}

}  // namespace mkq::sandbox::http1
