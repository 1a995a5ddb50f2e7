// A recursive-descent JSON decoder into nlohmann::ordered_json (json_decode.h).
// Where it could differ from nlohmann's parser it declines, so that what it
// returns is always what Json::parse would have returned.
#include "runtime/kube/json_decode.h"

#include <charconv>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mkq::kube {
namespace {

constexpr int kMaxDepth = 256;

class Decoder {
 public:
  explicit Decoder(std::string_view text) : text_(text) {}

  std::optional<Json> document() {
    Json value;
    skip_space();
    if (!parse_value(value, 0)) return std::nullopt;
    skip_space();
    if (at_ != text_.size()) return std::nullopt;
    return value;
  }

  // split_list: the answer read as parse_value reads it, building nothing
  // but the items' texts and the few strings a refresh needs.
  std::optional<ListPageText> list_page() {
    ListPageText page;
    skip_space();
    if (at_ >= text_.size() || text_[at_] != '{') return std::nullopt;
    bool seen_metadata = false, seen_items = false;
    const bool ok = members(1, [&](const std::string& key, int depth) {
      if (key == "metadata" || key == "items") {
        bool& seen = key == "metadata" ? seen_metadata : seen_items;
        if (seen) return false;  // a repeated key: left to the whole decoding
        seen = true;
      }
      if (key == "metadata") return list_metadata(page, depth);
      if (key == "items") return items(page, depth);
      return skip_value(depth);
    });
    skip_space();
    if (!ok || at_ != text_.size() || !seen_items) return std::nullopt;
    return page;
  }

 private:
  // Reads the items of the object or array at at_ ('{' or '['), up to
  // `close` ('}' or ']'), calling read_item() with at_ on each; read_item
  // reads the whole item.
  template <typename ReadItem>
  bool sequence(int depth, char close, ReadItem read_item) {
    if (depth > kMaxDepth) return false;
    ++at_;  // '{' or '['
    skip_space();
    if (at_ < text_.size() && text_[at_] == close) {
      ++at_;
      return true;
    }
    for (;;) {
      skip_space();
      if (!read_item()) return false;
      skip_space();
      if (at_ >= text_.size()) return false;
      if (text_[at_] == ',') {
        ++at_;
        continue;
      }
      if (text_[at_] != close) return false;
      ++at_;
      return true;
    }
  }

  // Reads the members of the object at at_ ('{'), calling on_member(key,
  // depth) with at_ on each value; on_member reads the value (and may take
  // the key: it is made anew for each member).
  template <typename OnMember>
  bool members(int depth, OnMember on_member) {
    return sequence(depth, '}', [&] {
      if (at_ >= text_.size() || text_[at_] != '"') return false;
      std::string key;
      if (!parse_string(key)) return false;
      skip_space();
      if (at_ >= text_.size() || text_[at_] != ':') return false;
      ++at_;
      skip_space();
      return static_cast<bool>(on_member(key, depth));
    });
  }

  // Reads the elements of the array at at_ ('['), calling on_element(depth)
  // with at_ on each element; on_element reads the element.
  template <typename OnElement>
  bool elements(int depth, OnElement on_element) {
    return sequence(depth, ']', [&] { return static_cast<bool>(on_element(depth)); });
  }

  // A value read and checked as parse_value reads it, kept nowhere.
  bool skip_value(int depth) {
    if (at_ >= text_.size()) return false;
    switch (text_[at_]) {
      case '{': return members(depth + 1, [this](const std::string&, int d) { return skip_value(d); });
      case '[': return elements(depth + 1, [this](int d) { return skip_value(d); });
      case '"':
        scratch_.clear();
        return parse_string(scratch_);
      default: {
        Json ignored;
        return parse_value(ignored, depth);  // a literal or a number: nothing to build
      }
    }
  }

  // A string value into `out`; another value read and `out` left empty (as
  // Json::value(key, "") would refuse it, `strict` declines it instead).
  bool string_value(std::string& out, int depth, bool strict) {
    out.clear();
    if (at_ < text_.size() && text_[at_] == '"') return parse_string(out);
    return !strict && skip_value(depth);
  }

  bool list_metadata(ListPageText& page, int depth) {
    if (at_ >= text_.size() || text_[at_] != '{') return skip_value(depth);
    return members(depth + 1, [&](const std::string& key, int d) {
      if (key == "resourceVersion") return string_value(page.resource_version, d, true);
      if (key == "continue") return string_value(page.continue_token, d, true);
      return skip_value(d);
    });
  }

  bool items(ListPageText& page, int depth) {
    if (at_ >= text_.size() || text_[at_] != '[') return false;
    return elements(depth + 1, [&](int element_depth) {
      if (at_ >= text_.size() || text_[at_] != '{') return false;
      ListItemText item;
      const std::size_t start = at_;
      bool seen_metadata = false;
      const bool ok = members(element_depth + 1, [&](const std::string& key, int d) {
        if (key == "apiVersion") item.has_api_version = true;
        if (key == "kind") item.has_kind = true;
        if (key != "metadata") return skip_value(d);
        if (seen_metadata) return false;  // a repeated key: left to the whole decoding
        seen_metadata = true;
        if (at_ >= text_.size() || text_[at_] != '{') return skip_value(d);
        return members(d + 1, [&](const std::string& field, int m) {
          if (field == "name") return string_value(item.name, m, false);
          if (field == "namespace") return string_value(item.namespace_name, m, false);
          return skip_value(m);
        });
      });
      if (!ok) return false;
      item.text.assign(text_.data() + start, at_ - start);
      page.items.push_back(std::move(item));
      return true;
    });
  }

  void skip_space() {
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
      ++at_;
    }
  }

  bool literal(std::string_view word) {
    if (text_.compare(at_, word.size(), word) != 0) return false;
    at_ += word.size();
    return true;
  }

  bool parse_value(Json& out, int depth) {
    if (at_ >= text_.size()) return false;
    switch (text_[at_]) {
      case '{': return parse_object(out, depth + 1);
      case '[': return parse_array(out, depth + 1);
      case '"': {
        std::string s;
        if (!parse_string(s)) return false;
        out = Json(std::move(s));
        return true;
      }
      case 't':
        out = true;
        return literal("true");
      case 'f':
        out = false;
        return literal("false");
      case 'n':
        out = nullptr;
        return literal("null");
      default: return parse_number(out);
    }
  }

  bool parse_object(Json& out, int depth) {
    // The members are gathered first (the ordered map, a vector of pairs with
    // const keys, would copy every key as it grows), in a vector kept for the
    // depth by the thread: its room serves every object at that depth. Found
    // again by index after each value, whose objects may add depths.
    thread_local std::vector<std::vector<std::pair<std::string, Json>>> fields_by_depth;
    const auto index = static_cast<std::size_t>(depth);
    if (fields_by_depth.size() <= index) fields_by_depth.resize(index + 1);
    fields_by_depth[index].clear();
    const bool ok = members(depth, [&](std::string& key, int d) {
      Json value;
      if (!parse_value(value, d)) return false;
      std::vector<std::pair<std::string, Json>>& fields = fields_by_depth[index];
      // A repeated key keeps its first place and takes the last value, as
      // nlohmann's parser (operator[] on the ordered map) does.
      for (auto& field : fields) {
        if (field.first == key) {
          field.second = std::move(value);
          return true;
        }
      }
      fields.emplace_back(std::move(key), std::move(value));
      return true;
    });
    std::vector<std::pair<std::string, Json>>& fields = fields_by_depth[index];
    if (!ok) {
      fields.clear();
      return false;
    }
    out = Json::object();
    auto& object = out.get_ref<Json::object_t&>();
    object.reserve(fields.size());
    for (auto& [key, value] : fields) object.Json::object_t::Container::emplace_back(std::move(key), std::move(value));
    fields.clear();
    return true;
  }

  bool parse_array(Json& out, int depth) {
    out = Json::array();
    auto& array = out.get_ref<Json::array_t&>();
    return elements(depth, [&](int d) {
      array.emplace_back();
      return parse_value(array.back(), d);
    });
  }

  static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  // The length of the well-formed UTF-8 sequence at `at` (Unicode's table 3-7), 0 if none.
  std::size_t utf8_sequence(std::size_t at) const {
    const auto byte = [&](std::size_t i) { return i < text_.size() ? static_cast<unsigned char>(text_[i]) : 0u; };
    const unsigned c = byte(at);
    const auto in = [](unsigned b, unsigned lo, unsigned hi) { return b >= lo && b <= hi; };
    if (in(c, 0xC2, 0xDF)) return in(byte(at + 1), 0x80, 0xBF) ? 2 : 0;
    if (in(c, 0xE0, 0xEF)) {
      const unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
      return in(byte(at + 1), lo, hi) && in(byte(at + 2), 0x80, 0xBF) ? 3 : 0;
    }
    if (in(c, 0xF0, 0xF4)) {
      const unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
      return in(byte(at + 1), lo, hi) && in(byte(at + 2), 0x80, 0xBF) && in(byte(at + 3), 0x80, 0xBF) ? 4 : 0;
    }
    return 0;
  }

  bool parse_string(std::string& out) {
    ++at_;  // '"'
    std::size_t run = at_;  // start of the bytes not yet copied
    while (at_ < text_.size()) {
      const auto c = static_cast<unsigned char>(text_[at_]);
      if (c == '"') {
        out.append(text_.data() + run, at_ - run);
        ++at_;
        return true;
      }
      if (c < 0x20) return false;
      if (c < 0x80 && c != '\\') {
        ++at_;
        continue;
      }
      if (c >= 0x80) {
        const std::size_t length = utf8_sequence(at_);
        if (length == 0) return false;
        at_ += length;
        continue;
      }
      // An escape.
      out.append(text_.data() + run, at_ - run);
      if (at_ + 1 >= text_.size()) return false;
      const char e = text_[at_ + 1];
      at_ += 2;
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          if (at_ + 4 > text_.size()) return false;
          unsigned code = 0;
          for (int i = 0; i < 4; ++i) {
            const int d = hex_digit(text_[at_ + i]);
            if (d < 0) return false;
            code = code * 16 + static_cast<unsigned>(d);
          }
          at_ += 4;
          if (code >= 0xD800 && code <= 0xDFFF) return false;  // surrogates: nlohmann's to judge
          if (code < 0x80) {
            out += static_cast<char>(code);
          } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
          } else {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
          }
          break;
        }
        default: return false;
      }
      run = at_;
    }
    return false;
  }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, typed as nlohmann types it.
  bool parse_number(Json& out) {
    const std::size_t start = at_;
    const auto digits = [&] {
      const std::size_t from = at_;
      while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
      return at_ - from;
    };
    const bool negative = at_ < text_.size() && text_[at_] == '-';
    if (negative) ++at_;
    const std::size_t int_start = at_;
    const std::size_t int_digits = digits();
    if (int_digits == 0 || (int_digits > 1 && text_[int_start] == '0')) return false;
    bool is_float = false;
    if (at_ < text_.size() && text_[at_] == '.') {
      ++at_;
      if (digits() == 0) return false;
      is_float = true;
    }
    if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
      ++at_;
      if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) ++at_;
      if (digits() == 0) return false;
      is_float = true;
    }
    if (is_float) {
      double value = 0;
      const auto [end, error] = std::from_chars(text_.data() + start, text_.data() + at_, value);
      if (error != std::errc() || end != text_.data() + at_) return false;
      out = value;
      return true;
    }
    if (int_digits > 18) return false;  // overflow to a float is nlohmann's rule to apply
    std::int64_t value = 0;
    for (std::size_t i = int_start; i < at_; ++i) value = value * 10 + (text_[i] - '0');
    if (negative) {
      out = static_cast<Json::number_integer_t>(-value);
    } else {
      out = static_cast<Json::number_unsigned_t>(value);
    }
    return true;
  }

  std::string_view text_;
  std::size_t at_ = 0;
  std::string scratch_;  // skip_value's strings
};

}  // namespace

std::optional<Json> decode_json(std::string_view text) { return Decoder(text).document(); }

std::optional<ListPageText> split_list(std::string_view text) { return Decoder(text).list_page(); }

}  // namespace mkq::kube
