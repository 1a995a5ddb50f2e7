// Random programs made from lang/grammar/Mkq.g4 itself, for the differential
// test of the fast path (fast_path_test.cpp): a rule added to or changed in
// the grammar is exercised without anyone updating a hand-written generator.
//
// The grammar is read when the test runs. Parser rules are taken as written
// (alternatives, groups, `?`, `*`, `+`; labels, `# names` and `<options>` are
// skipped). A token is spelled by its lexer rule when that rule is one literal
// ('import', '==') and otherwise drawn from the samples below; a token with
// neither (BAD_NUMBER, UNTERMINATED_STRING: the grammar's error tokens) cannot
// be generated, and neither can an alternative that needs it. Expansion is
// bounded: from `max_depth` rule calls down, every choice takes an alternative
// that ends soonest and every `?`/`*` takes nothing. Tokens are joined by
// random layout (spaces, line breaks, comments), or by nothing next to a
// bracket or separator. The same seed gives the same programs.
//
// Header-only: the test executable is built from *_test.cpp.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace mkq::syntax::grammar_programs {

// One element of a rule body.
struct Node {
  enum class Kind { Token, Rule, Literal, Sequence, Choice, Optional, Star, Plus, Other };
  Kind kind = Kind::Other;
  std::string name;         // Token and Rule: the referenced name; Literal: its text
  std::vector<Node> items;  // Sequence: elements; Choice: alternatives; Optional/Star/Plus: one element
};

// The rules of an ANTLR grammar file, as far as a generator needs them.
class Grammar {
 public:
  static Grammar read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::stringstream text;
    text << in.rdbuf();
    return Grammar(text.str());
  }

  explicit Grammar(const std::string& text) {
    tokenize(text);
    while (at_ < words_.size()) rule();
  }

  const std::map<std::string, Node>& parser_rules() const { return parser_rules_; }
  const std::map<std::string, Node>& lexer_rules() const { return lexer_rules_; }
  // The text of a token whose lexer rule is one literal, else "".
  std::string literal(const std::string& token) const {
    const auto it = lexer_rules_.find(token);
    if (it == lexer_rules_.end()) return "";
    const Node& body = it->second;  // a Choice of Sequences
    if (body.items.size() != 1 || body.items[0].items.size() != 1) return "";
    const Node& only = body.items[0].items[0];
    return only.kind == Node::Kind::Literal ? only.name : "";
  }

 private:
  // Words: names, 'literals', [sets], <options>, ->, and one-character punctuation.
  void tokenize(const std::string& s) {
    std::size_t i = 0;
    while (i < s.size()) {
      const char c = s[i];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
      } else if (s.compare(i, 2, "//") == 0) {
        i = s.find('\n', i);
        if (i == std::string::npos) i = s.size();
      } else if (s.compare(i, 2, "/*") == 0) {
        i = s.find("*/", i + 2);
        i = i == std::string::npos ? s.size() : i + 2;
      } else if (c == '\'' || c == '[' || c == '<') {
        const char close = c == '\'' ? '\'' : (c == '[' ? ']' : '>');
        std::size_t j = i + 1;
        while (j < s.size() && s[j] != close) j += s[j] == '\\' ? 2 : 1;
        words_.push_back(s.substr(i, j + 1 - i));
        i = j + 1;
      } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
        std::size_t j = i;
        while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
        words_.push_back(s.substr(i, j - i));
        i = j;
      } else if (s.compare(i, 2, "->") == 0 || s.compare(i, 2, "+=") == 0) {
        words_.push_back(s.substr(i, 2));
        i += 2;
      } else {
        words_.push_back(std::string(1, c));
        ++i;
      }
    }
  }

  const std::string& peek() const {
    static const std::string end;
    return at_ < words_.size() ? words_[at_] : end;
  }
  std::string take() {
    if (at_ >= words_.size()) throw std::runtime_error("unexpected end of the grammar");
    return words_[at_++];
  }
  void expect(const std::string& word) {
    if (take() != word) throw std::runtime_error("grammar: expected '" + word + "' near word " + std::to_string(at_));
  }

  // `grammar Mkq;`, `fragment NAME : ... ;` or `name : ... ;`.
  void rule() {
    std::string name = take();
    if (name == "grammar") {
      take();
      expect(";");
      return;
    }
    const bool fragment = name == "fragment";
    if (fragment) name = take();
    expect(":");
    Node body = choice();
    expect(";");
    if (fragment) return;
    const bool is_parser_rule = std::islower(static_cast<unsigned char>(name[0])) != 0;
    (is_parser_rule ? parser_rules_ : lexer_rules_)[name] = std::move(body);
  }

  Node choice() {
    Node node{Node::Kind::Choice, "", {}};
    node.items.push_back(sequence());
    while (peek() == "|") {
      take();
      node.items.push_back(sequence());
    }
    return node;
  }

  Node sequence() {
    Node node{Node::Kind::Sequence, "", {}};
    while (true) {
      const std::string& word = peek();
      if (word.empty() || word == "|" || word == ")" || word == ";") return node;
      if (word == "#") {  // an alternative's label
        take();
        take();
        continue;
      }
      if (word == "->") {  // lexer commands, up to the end of the alternative
        while (!peek().empty() && peek() != "|" && peek() != ";") take();
        continue;
      }
      if (word[0] == '<') {  // <assoc=right>
        take();
        continue;
      }
      node.items.push_back(element());
    }
  }

  Node element() {
    // label=element or label+=element
    if (at_ + 1 < words_.size() && (words_[at_ + 1] == "=" || words_[at_ + 1] == "+=") &&
        std::isalpha(static_cast<unsigned char>(peek()[0]))) {
      at_ += 2;
    }
    Node atom = this->atom();
    while (peek() == "?" || peek() == "*" || peek() == "+") {
      const std::string suffix = take();
      if (peek() == "?") take();  // non-greedy
      const Node::Kind kind =
          suffix == "?" ? Node::Kind::Optional : (suffix == "*" ? Node::Kind::Star : Node::Kind::Plus);
      atom = Node{kind, "", {std::move(atom)}};
    }
    return atom;
  }

  Node atom() {
    const std::string word = take();
    if (word == "(") {
      Node inner = choice();
      expect(")");
      return inner;
    }
    if (word == "~") {
      atom();
      return Node{Node::Kind::Other, "~", {}};
    }
    if (word[0] == '\'') return Node{Node::Kind::Literal, unescape(word.substr(1, word.size() - 2)), {}};
    if (word[0] == '[' || word == ".") return Node{Node::Kind::Other, word, {}};
    if (std::isupper(static_cast<unsigned char>(word[0]))) return Node{Node::Kind::Token, word, {}};
    if (std::islower(static_cast<unsigned char>(word[0]))) return Node{Node::Kind::Rule, word, {}};
    throw std::runtime_error("grammar: unexpected '" + word + "'");
  }

  static std::string unescape(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '\\' && i + 1 < s.size()) ++i;
      out += s[i];
    }
    return out;
  }

  std::vector<std::string> words_;
  std::size_t at_ = 0;
  std::map<std::string, Node> parser_rules_;
  std::map<std::string, Node> lexer_rules_;
};

// Spellings of the tokens whose lexer rule is not one literal. A token of the
// grammar with neither a literal nor samples is never generated.
inline const std::map<std::string, std::vector<std::string>>& token_samples() {
  static const std::map<std::string, std::vector<std::string>> samples = {
      {"IDENT", {"a", "b_2", "cpu", "_x", "In", "iff", "nullx", "x1"}},
      {"NUMBER", {"0", "9", "1.5", "500m", "36Gi", "2e3", "1E", "1Ei", "1e-3", "2E+4k", "7Ki", "3u", "0.25", "12n",
                  "4P"}},
      {"DURATION", {"30d", "90s", "1h30min", "250ms", "1min", "1d2h"}},
      {"STRING", {}},  // made by Generator::string()
  };
  return samples;
}

class Generator {
 public:
  Generator(const Grammar& grammar, unsigned seed, int max_depth = 12)
      : grammar_(grammar), rng_(seed), max_depth_(max_depth) {
    compute_heights();
  }

  // Layout-joined text of one expansion of `rule`.
  std::string text(const std::string& rule) {
    std::vector<std::string> tokens;
    expand(rule, 0, tokens);
    return join(tokens, true);
  }

  // How often each alternative was chosen, by "rule/index" (index from 1).
  const std::map<std::string, int>& alternatives_used() const { return used_; }
  // Every "rule/index" that an expansion can reach (its tokens can all be spelled).
  std::vector<std::string> generable_alternatives() const {
    std::vector<std::string> out;
    for (const auto& [name, body] : grammar_.parser_rules()) {
      for (std::size_t i = 0; i < body.items.size(); ++i) {
        if (height(body.items[i]) < kNever) out.push_back(name + "/" + std::to_string(i + 1));
      }
    }
    return out;
  }
  // The tokens the parser rules use that cannot be spelled.
  std::set<std::string> unspellable_tokens() const {
    std::set<std::string> out;
    for (const auto& [name, body] : grammar_.parser_rules()) collect_unspellable(body, out);
    return out;
  }

 private:
  static constexpr int kNever = std::numeric_limits<int>::max() / 2;

  int pick(int n) { return static_cast<int>(rng_() % static_cast<unsigned>(n)); }
  bool chance(int percent) { return pick(100) < percent; }

  bool spellable(const std::string& token) const {
    if (token == "EOF") return true;
    return !grammar_.literal(token).empty() || token_samples().count(token) > 0;
  }

  void collect_unspellable(const Node& node, std::set<std::string>& out) const {
    if (node.kind == Node::Kind::Token && !spellable(node.name)) out.insert(node.name);
    for (const auto& item : node.items) collect_unspellable(item, out);
  }

  // The fewest rule calls that complete `node` (kNever when it cannot be spelled).
  int height(const Node& node) const {
    switch (node.kind) {
      case Node::Kind::Token:
        return spellable(node.name) ? 0 : kNever;
      case Node::Kind::Rule: {
        const auto it = rule_heights_.find(node.name);
        return it == rule_heights_.end() ? kNever : std::min(kNever, it->second + 1);
      }
      case Node::Kind::Sequence: {
        int h = 0;
        for (const auto& item : node.items) h = std::max(h, height(item));
        return h;
      }
      case Node::Kind::Choice: {
        int h = kNever;
        for (const auto& item : node.items) h = std::min(h, height(item));
        return h;
      }
      case Node::Kind::Optional:
      case Node::Kind::Star:
        return 0;
      case Node::Kind::Plus:
        return height(node.items[0]);
      default:
        return kNever;  // literals and sets appear in lexer rules only
    }
  }

  // A fixed point: every rule's height from its alternatives.
  void compute_heights() {
    for (const auto& [name, body] : grammar_.parser_rules()) rule_heights_[name] = kNever;
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& [name, body] : grammar_.parser_rules()) {
        const int h = height(body);
        if (h < rule_heights_[name]) {
          rule_heights_[name] = h;
          changed = true;
        }
      }
    }
  }

  void expand(const std::string& rule, int depth, std::vector<std::string>& out) {
    const auto it = grammar_.parser_rules().find(rule);
    if (it == grammar_.parser_rules().end()) throw std::runtime_error("no rule " + rule);
    const Node& body = it->second;
    // The ones that end soonest always past the depth bound, and more and more
    // often on the way there, which keeps most programs small.
    const std::size_t chosen = choose(body, depth >= max_depth_ || pick(max_depth_) < depth);
    ++used_[rule + "/" + std::to_string(chosen + 1)];
    expand(body.items[chosen], depth + 1, out);
  }

  // An alternative of a Choice: any that can be spelled, or one of those that end soonest.
  std::size_t choose(const Node& choice, bool shortest) {
    std::vector<std::size_t> allowed;
    int best = kNever;
    for (const auto& alternative : choice.items) best = std::min(best, height(alternative));
    for (std::size_t i = 0; i < choice.items.size(); ++i) {
      const int h = height(choice.items[i]);
      if (shortest ? h == best : h < kNever) allowed.push_back(i);
    }
    if (allowed.empty()) throw std::runtime_error("a choice of the grammar cannot be generated");
    return allowed[static_cast<std::size_t>(pick(static_cast<int>(allowed.size())))];
  }

  void expand(const Node& node, int depth, std::vector<std::string>& out) {
    const bool deep = depth >= max_depth_;
    switch (node.kind) {
      case Node::Kind::Token:
        if (node.name != "EOF") out.push_back(spell(node.name, depth));
        return;
      case Node::Kind::Rule:
        expand(node.name, depth, out);
        return;
      case Node::Kind::Sequence:
        for (const auto& item : node.items) expand(item, depth, out);
        return;
      case Node::Kind::Choice:  // a group inside a rule
        expand(node.items[choose(node, deep)], depth, out);
        return;
      case Node::Kind::Optional:
        if (!deep && height(node.items[0]) < kNever && chance(50)) expand(node.items[0], depth, out);
        return;
      case Node::Kind::Star:
      case Node::Kind::Plus: {
        int n = node.kind == Node::Kind::Plus ? 1 : 0;
        // Separators (one token repeated) a little, statements and items more.
        const bool one_token = node.items[0].kind == Node::Kind::Token;
        if (!deep && height(node.items[0]) < kNever) n += pick(one_token ? 2 : (depth < 3 ? 6 : 3));
        for (int i = 0; i < n; ++i) expand(node.items[0], depth, out);
        return;
      }
      default:
        throw std::runtime_error("cannot generate '" + node.name + "' in a parser rule");
    }
  }

  std::string spell(const std::string& token, int depth) {
    if (token == "STRING") return string(depth);
    const std::string literal = grammar_.literal(token);
    if (!literal.empty()) return literal;
    const auto& samples = token_samples().at(token);
    return samples[static_cast<std::size_t>(pick(static_cast<int>(samples.size())))];
  }

  // "text with ${interpolations}, escapes and $ signs".
  std::string string(int depth) {
    static const std::vector<std::string> parts = {"abc", "é",  "\\\"", "\\\\", "\\n", "\\$", "$",
                                                   "$a",  "$$", " ",    "{",    "}",   "\\q", "日本"};
    std::string out = "\"";
    const int n = pick(4);
    for (int i = 0; i < n; ++i) {
      if (depth < max_depth_ && chance(15)) {
        out += "${" + interpolation(depth) + "}";
      } else {
        out += parts[static_cast<std::size_t>(pick(static_cast<int>(parts.size())))];
      }
    }
    if (chance(10)) out += "$";
    return out + "\"";
  }

  // An expression as `${...}` allows it: no '"', '}', backslash or line break.
  std::string interpolation(int depth) {
    for (int attempt = 0; attempt < 4; ++attempt) {
      std::vector<std::string> tokens;
      expand("expr", std::max(depth, max_depth_ - 4), tokens);
      const std::string text = join(tokens, false);
      if (text.find_first_of("\"}\\\r\n") == std::string::npos) return text;
    }
    return "a";
  }

  // Something between two tokens: never a way to glue them into one.
  std::string gap(bool layout) {
    static const std::vector<std::string> gaps = {" ",         "\n",           "  ",   "\t", "\r\n",
                                                  " // note\n", " /* c */ ", "\n\n", " /* multi\nline é */ "};
    if (!layout || chance(60)) return " ";
    return gaps[static_cast<std::size_t>(pick(static_cast<int>(gaps.size())))];
  }

  static bool is_punctuation(const std::string& token) {
    return token.size() == 1 && std::string("()[]{},;:?").find(token[0]) != std::string::npos;
  }

  std::string join(const std::vector<std::string>& tokens, bool layout) {
    std::string out = layout && chance(20) ? gap(true) : "";
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      if (i > 0) {
        const bool may_touch = is_punctuation(tokens[i - 1]) || is_punctuation(tokens[i]);
        if (!(may_touch && chance(40))) out += gap(layout);
      }
      out += tokens[i];
    }
    if (layout && chance(30)) out += gap(true);
    return out;
  }

  const Grammar& grammar_;
  std::mt19937 rng_;
  int max_depth_;
  std::map<std::string, int> rule_heights_;
  std::map<std::string, int> used_;
};

}  // namespace mkq::syntax::grammar_programs
