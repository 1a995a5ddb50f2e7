// The evaluated declaration tree: the boundary between the evaluator (which
// runs let/for/if/templates/use/imports and computes every expression) and the
// binder (which checks block kinds and fields against the schema and builds the
// typed policy model).
//
// After evaluation nothing is left to compute: every block is expanded, every
// attribute is a Value, every label is a string. Ranges point at the policy
// source, including text inside templates and stdlib modules.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/diag/source.h"
#include "compiler/sema/value.h"

namespace mkq::sema {

struct EvalAttribute {
  std::string name;
  diag::SourceRange name_range;
  Value value;                  // value.origin is the range of the value's expression
  diag::SourceRange range;      // the whole `name = value`
};

struct EvalLabel {
  std::string text;
  diag::SourceRange range;
};

struct EvalBlock {
  std::string kind;                     // "clusterqueue", "quota", ...
  diag::SourceRange kind_range;
  std::vector<EvalLabel> labels;
  std::optional<EvalLabel> in_label;    // `in "namespace"`
  std::vector<EvalAttribute> attributes;  // in evaluation order; duplicates kept (the binder reports them)
  std::vector<EvalBlock> blocks;          // nested blocks, in evaluation order
  diag::SourceRange range;              // the whole block
  // The chain of `use` sites that produced this block, innermost first, so a
  // diagnostic can add "note: instantiated from here".
  std::vector<diag::SourceRange> instantiated_from;
  // Declared by a standard module (std/...: its top level, or a `use` there),
  // not by the policy's own files; set on top-level blocks only.
  bool from_stdlib = false;
};

// Every top-level declaration of the policy (all root files and the imported
// modules' declarations, each module once), in a deterministic order: root
// files sorted by path, statements in source order.
struct EvalPolicy {
  std::vector<EvalBlock> blocks;
  // The first root file (by key): where a diagnostic about the policy as a
  // whole points when no declaration of its own can (an empty file).
  diag::FileId first_file = diag::kNoFile;
  // Evaluation stopped at a deferred block (ModuleSource::deferred) that did
  // not parse: nothing here is complete, and the file must be parsed in full
  // (parse_file() reports its syntax errors) before evaluating again.
  bool unparsed_block = false;
};

}  // namespace mkq::sema
