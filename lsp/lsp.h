// lsp stage entry point: the Language Server Protocol 3.17 over a
// Transport, for `mkq lsp`. Reuses the compiler stages (parse, resolve,
// evaluate, bind, validate, format); everything it touches outside the
// process — the client's stream, the clock of the debounce, the files — comes
// in through a port, so that tests run it in-process.
#pragma once

#include <chrono>
#include <filesystem>
#include <vector>

#include "base/clock.h"
#include "compiler/sema/filesystem.h"
#include "lsp/transport.h"

namespace mkq::lsp {

struct ServeOptions {
  // How long after the last change diagnostics are published: edits that
  // follow each other faster are analysed once.
  std::chrono::milliseconds debounce{150};
  // More directories a policy may import from (mkq --import-root).
  std::vector<std::filesystem::path> import_roots;
};

// Serves one client until it says `exit` or its stream ends. Returns the
// process's exit code: 0 when `shutdown` came before the end, else 1 (LSP's
// rule). Never throws: a malformed message gets an error answer.
int serve(Transport& transport, const base::Clock& clock, const sema::FileSystem& disk,
          const ServeOptions& options = {});

}  // namespace mkq::lsp
