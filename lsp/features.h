// PRIVATE to lsp/: what each request answers, computed from one analysed
// policy (no I/O, no state). server.cpp routes requests here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "lsp/convert.h"
#include "lsp/index.h"
#include "lsp/workspace.h"

namespace mkq::lsp {

// One analysed policy as a request sees it.
struct View {
  const Analysis& analysis;
  const Index& index;
  const Positions& positions;
};

// A request's answer, or the reason it is refused (a ResponseError's message).
struct Answer {
  Json result;
  std::string error;
};

// navigate.cpp
Json definition(const View& view, diag::FileId file, std::uint32_t offset);
Json references(const View& view, diag::FileId file, std::uint32_t offset, bool include_declaration);
Json prepare_rename(const View& view, diag::FileId file, std::uint32_t offset);
Answer rename(const View& view, diag::FileId file, std::uint32_t offset, const std::string& new_name);
Json document_symbols(const View& view, diag::FileId file);
// The whole document in `mkq fmt`'s layout: one edit, none when it is
// formatted already, and none when it has a syntax error.
Json formatting(const std::string& path, const std::string& text, Encoding encoding);
// Quick fixes: the "did you mean" suggestions of the diagnostics in `range` of `file`.
Json code_actions(const View& view, diag::FileId file, std::uint32_t begin, std::uint32_t end);

// hover.cpp
Json hover(const View& view, diag::FileId file, std::uint32_t offset);

// complete.cpp: from the document's text (which may not parse while it is
// typed) and the last analysis of its policy (`file` kNoFile when the
// document is not in it).
Json completion(const View& view, diag::FileId file, std::string_view text, std::uint32_t offset);

// tokens.cpp
Json semantic_tokens_legend();
Json semantic_tokens(const View& view, diag::FileId file);

}  // namespace mkq::lsp
