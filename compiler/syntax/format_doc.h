// The layout algebra behind `mkq fmt` (internal to compiler/syntax).
//
// format.cpp turns the AST into a Doc: text joined by line breaks that are
// either taken or replaced by a space/nothing, grouped so that a group is laid
// out on one line when it fits in the width and holds no forced break, and
// broken (every line of the group taken) otherwise. This is Wadler's "prettier
// printer" with the two additions a formatter that keeps comments needs:
// comments are zero-width for the fitting decision (a trailing `// x` never
// breaks the list before it) and force every group around them to break.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace mkq::syntax::doc {

enum class Kind {
  Text,      // literal text; may contain '\n' only when it is printed verbatim (fallback)
  Comment,   // a source comment, printed verbatim; forces enclosing groups to break
  Line,      // a space when flat, a line break when broken
  SoftLine,  // nothing when flat, a line break when broken
  HardLine,  // always a line break; forces enclosing groups to break
  Concat,    // parts one after another
  Nest,      // parts indented one level (2 spaces) after each line break
  Group,     // parts laid out flat if they fit and hold no forced break, else broken
  IfBreak,   // parts[0] when the enclosing group is broken, parts[1] when flat
};

struct Doc {
  Kind kind = Kind::Concat;
  std::string text;
  std::vector<Doc> parts;
  // Invariant: true when this doc holds a HardLine or a Comment outside any
  // IfBreak; a Group with `forced` set is always broken.
  bool forced = false;
};

Doc text(std::string s);
Doc comment(std::string s);
Doc line();
Doc softline();
Doc hardline();
Doc concat(std::vector<Doc> parts);
Doc nest(std::vector<Doc> parts);
Doc group(std::vector<Doc> parts);
Doc if_break(Doc broken, Doc flat);

struct Printed {
  std::string text;
  std::size_t comments = 0;  // Comment docs printed (the no-comment-lost check counts them)
};

// Lays `d` out in `width` columns, starting at column 0 with no indentation.
// Never leaves spaces at the end of a line; does not add a final newline.
Printed print(const Doc& d, int width);

// Display width of UTF-8 text (code points; the formatter's column unit).
int display_width(const std::string& s);

}  // namespace mkq::syntax::doc
