// The CLI's side of compiling (runtime/operation/compile.h): with -v each
// step's time on stderr ("mkq: parse   12.0 ms"), and the diagnostics drawn once.
#pragma once

#include <string>

#include "cli/commands.h"
#include "runtime/operation/compile.h"

namespace mkq::cli {

using operation::Compilation;
using operation::CompileTo;

// The compile options of the global flags (--import-root, -v).
operation::CompileOptions compile_options(const GlobalOptions& global);

// operation::compile, then with -v the timings on stderr.
Compilation compile(const std::string& path, CompileTo target, const GlobalOptions& global);

// Every diagnostic as text on stderr (colored when asked).
void print_diagnostics(const Compilation& compiled, const GlobalOptions& global);

// With -v, each compile step's time on stderr.
void print_timings(const Compilation& compiled, const GlobalOptions& global);
// With -v, one step's time on stderr, as print_timings writes it.
void print_timing(const sema::StageTiming& timing, const GlobalOptions& global);

}  // namespace mkq::cli
