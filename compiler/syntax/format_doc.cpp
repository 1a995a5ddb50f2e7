// The layout printer: an iterative Wadler-style printer (no recursion, so deep
// documents cannot exhaust the stack).
#include "compiler/syntax/format_doc.h"

#include <utility>

namespace mkq::syntax::doc {

namespace {

bool any_forced(const std::vector<Doc>& parts) {
  for (const Doc& p : parts) {
    if (p.forced) return true;
  }
  return false;
}

Doc make(Kind kind, std::vector<Doc> parts) {
  Doc d;
  d.kind = kind;
  d.forced = any_forced(parts);
  d.parts = std::move(parts);
  return d;
}

enum class Mode { Flat, Break };

struct Command {
  int indent;
  Mode mode;
  const Doc* doc;
};

constexpr int kIndentStep = 2;

// Width of `s` up to its first line break; sets `has_break` when it has one.
int first_line_width(const std::string& s, bool& has_break) {
  has_break = false;
  int width = 0;
  for (const char c : s) {
    if (c == '\n') {
      has_break = true;
      return width;
    }
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++width;
  }
  return width;
}

// Whether `first` laid out in `mode`, followed by the pending commands up to
// their next line break, fits in `width` columns.
bool fits(const Doc& first, Mode mode, int width, const std::vector<Command>& pending) {
  std::vector<std::pair<Mode, const Doc*>> stack{{mode, &first}};
  std::size_t rest = pending.size();
  while (width >= 0) {
    if (stack.empty()) {
      if (rest == 0) return true;
      --rest;
      stack.emplace_back(pending[rest].mode, pending[rest].doc);
      continue;
    }
    const auto [m, d] = stack.back();
    stack.pop_back();
    switch (d->kind) {
      case Kind::Text: {
        bool has_break = false;
        width -= first_line_width(d->text, has_break);
        if (has_break) return width >= 0;
        break;
      }
      case Kind::Comment:
        break;  // zero width: a trailing comment never decides the layout
      case Kind::Line:
        if (m == Mode::Break) return true;
        width -= 1;
        break;
      case Kind::SoftLine:
        if (m == Mode::Break) return true;
        break;
      case Kind::HardLine:
        return true;
      case Kind::Concat:
      case Kind::Nest:
        for (auto it = d->parts.rbegin(); it != d->parts.rend(); ++it) stack.emplace_back(m, &*it);
        break;
      case Kind::Group: {
        const Mode inner = d->forced ? Mode::Break : m;
        for (auto it = d->parts.rbegin(); it != d->parts.rend(); ++it) stack.emplace_back(inner, &*it);
        break;
      }
      case Kind::IfBreak:
        stack.emplace_back(m, &d->parts[m == Mode::Break ? 0 : 1]);
        break;
    }
  }
  return false;
}

}  // namespace

Doc text(std::string s) {
  Doc d;
  d.kind = Kind::Text;
  d.text = std::move(s);
  return d;
}

Doc comment(std::string s) {
  Doc d;
  d.kind = Kind::Comment;
  d.text = std::move(s);
  d.forced = true;
  return d;
}

Doc line() {
  Doc d;
  d.kind = Kind::Line;
  return d;
}

Doc softline() {
  Doc d;
  d.kind = Kind::SoftLine;
  return d;
}

Doc hardline() {
  Doc d;
  d.kind = Kind::HardLine;
  d.forced = true;
  return d;
}

Doc concat(std::vector<Doc> parts) { return make(Kind::Concat, std::move(parts)); }
Doc nest(std::vector<Doc> parts) { return make(Kind::Nest, std::move(parts)); }
Doc group(std::vector<Doc> parts) { return make(Kind::Group, std::move(parts)); }

Doc if_break(Doc broken, Doc flat) {
  Doc d;
  d.kind = Kind::IfBreak;
  d.parts.push_back(std::move(broken));
  d.parts.push_back(std::move(flat));
  return d;  // not `forced`: only the chosen branch is printed
}

int display_width(const std::string& s) {
  int width = 0;
  for (const char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++width;
  }
  return width;
}

Printed print(const Doc& root, int width) {
  Printed out;
  int column = 0;
  int pending_indent = -1;  // indentation owed to the current line, written before its first text
  std::vector<Command> commands{{0, Mode::Break, &root}};

  const auto write = [&](const std::string& s) {
    if (s.empty()) return;
    if (pending_indent >= 0) {
      out.text.append(static_cast<std::size_t>(pending_indent), ' ');
      column = pending_indent;
      pending_indent = -1;
    }
    out.text += s;
    const auto last_break = s.rfind('\n');
    if (last_break == std::string::npos) {
      column += display_width(s);
    } else {
      column = display_width(s.substr(last_break + 1));
    }
  };
  const auto new_line = [&](int indent) {
    while (!out.text.empty() && out.text.back() == ' ') out.text.pop_back();
    out.text += '\n';
    column = 0;
    pending_indent = indent;
  };

  while (!commands.empty()) {
    const Command c = commands.back();
    commands.pop_back();
    const Doc& d = *c.doc;
    switch (d.kind) {
      case Kind::Text:
        write(d.text);
        break;
      case Kind::Comment:
        write(d.text);
        ++out.comments;
        break;
      case Kind::Line:
        if (c.mode == Mode::Flat) {
          write(" ");
        } else {
          new_line(c.indent);
        }
        break;
      case Kind::SoftLine:
        if (c.mode == Mode::Break) new_line(c.indent);
        break;
      case Kind::HardLine:
        new_line(c.indent);
        break;
      case Kind::Concat:
        for (auto it = d.parts.rbegin(); it != d.parts.rend(); ++it)
          commands.push_back({c.indent, c.mode, &*it});
        break;
      case Kind::Nest:
        for (auto it = d.parts.rbegin(); it != d.parts.rend(); ++it) {
          commands.push_back({c.indent + kIndentStep, c.mode, &*it});
        }
        break;
      case Kind::Group: {
        Mode mode = c.mode;
        if (mode == Mode::Break) {
          const int start = pending_indent >= 0 ? pending_indent : column;
          mode = !d.forced && fits(d, Mode::Flat, width - start, commands) ? Mode::Flat : Mode::Break;
        }
        for (auto it = d.parts.rbegin(); it != d.parts.rend(); ++it)
          commands.push_back({c.indent, mode, &*it});
        break;
      }
      case Kind::IfBreak:
        commands.push_back({c.indent, c.mode, &d.parts[c.mode == Mode::Break ? 0 : 1]});
        break;
    }
  }
  while (!out.text.empty() && out.text.back() == ' ') out.text.pop_back();
  return out;
}

}  // namespace mkq::syntax::doc
