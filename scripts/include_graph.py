#!/usr/bin/env python3
"""Checks mkq's #include graph against the stage order: no back-edges.

Each folder below is one stage (one CMake target, one namespace). A file may
include headers of its own stage and of the stages before it, never of a stage
after it: compiler/sema may include compiler/diag, never runtime/kube. Tests,
benchmarks and the CLI sit at the top and may include anything. A production
folder that holds C++ but is not in the list fails the check too, so a new
stage has to be placed in the order before it can be built on.

    include_graph.py [ROOT]      check the tree at ROOT (default: this repository)
    include_graph.py --self-test check that a back-edge and an unplaced folder fail

Includes with a '/' that name a file of this repository are edges, quoted or
in angle brackets ("runtime/kube/client.h", <runtime/kube/client.h>); a quoted
name without one is a file of the includer's own folder, and <fmt/format.h>
names no file here. Python 3 standard
library only. Exit status: 0 no back-edge; 1 a back-edge or an unplaced folder;
2 wrong usage.
"""

import re
import sys
import tempfile
from pathlib import Path

# The stage order, bottom first: the one place it is written (README.md's
# layout table and ARCHITECTURE.md describe the stages; this list decides).
STAGES = [
    "base",                 # encoding, time, host and process identity, the clock port
    "compiler/facts",       # Kueue's facts, header-only
    "lang/grammar",         # the generated ANTLR parser
    "compiler/diag",
    "compiler/syntax",
    "stdlib",
    "compiler/sema",
    "compiler/kueue",
    "runtime/kube",
    "runtime/state",
    "runtime/reconcile",
    "runtime/credentials",
    "runtime/preflight",    # read-only checks of the clusters, made with the plan
    "sandbox",              # a cluster of its own; the operation's resolver may start it
    "runtime/operation",
    "runtime/importer",     # `mkq import`: objects that exist written as a policy; --adopt through the apply operation
    "runtime/controller",   # `mkq controller`: the operations in a loop, leader-elected
    "runtime/install",      # the controller's install objects
    "lsp",                  # `mkq lsp`: the language server over the compiler stages
    "cli",
    "bench",
    "editors",
    "tests",
]

SOURCE_SUFFIXES = {".h", ".hpp", ".cpp", ".cc"}
INCLUDE = re.compile(r'^\s*#\s*include\s+(?:"([^"]+)"|<([^>]+)>)', re.MULTILINE)
SKIPPED_DIRS = {".git", "build", "node_modules", "generated"}


def stage_of(relative: str) -> int | None:
    """The index of the stage owning a repository path (longest prefix), or None."""
    best = None
    for index, folder in enumerate(STAGES):
        if relative == folder or relative.startswith(folder + "/"):
            if best is None or len(folder) > len(STAGES[best]):
                best = index
    return best


def sources(root: Path):
    for path in sorted(root.rglob("*")):
        if path.suffix not in SOURCE_SUFFIXES or not path.is_file():
            continue
        parts = path.relative_to(root).parts
        if any(part in SKIPPED_DIRS or part.startswith("build") for part in parts[:-1]):
            continue
        yield path


def check(root: Path) -> list[str]:
    problems = []
    unplaced = set()
    for path in sources(root):
        relative = path.relative_to(root).as_posix()
        own = stage_of(relative)
        if own is None:
            unplaced.add(str(Path(relative).parent))
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in INCLUDE.finditer(text):
            target = match.group(1) or match.group(2)
            if "/" not in target or not (root / target).is_file():
                continue  # the includer's own folder, or not a file of this repository
            theirs = stage_of(target)
            if theirs is None:
                unplaced.add(str(Path(target).parent))
            elif theirs > own:
                line = text.count("\n", 0, match.start()) + 1
                problems.append(f"{relative}:{line}: back-edge: {STAGES[own]} includes {target} "
                                f"({STAGES[theirs]} comes after it in the stage order)")
    for folder in sorted(unplaced):
        problems.append(f"{folder}: not in the stage order (scripts/include_graph.py STAGES)")
    return problems


def self_test() -> int:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        files = {
            "base/clock.h": "",
            "compiler/sema/model.h": '#include "base/clock.h"\n#include "local.h"\n',
            "runtime/kube/client.h": '#include "compiler/sema/model.h"\n',
        }
        for name, text in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        failures = []
        if check(root):
            failures.append(f"a clean tree fails: {check(root)}")
        (root / "base/clock.h").write_text('#include "runtime/kube/client.h"\n')
        expected = ["base/clock.h:1: back-edge: base includes runtime/kube/client.h "
                    "(runtime/kube comes after it in the stage order)"]
        if check(root) != expected:
            failures.append(f"a back-edge is not reported as expected: {check(root)}")
        (root / "base/clock.h").write_text("#include <runtime/kube/client.h>\n#include <vector>\n")
        expected = ["base/clock.h:1: back-edge: base includes runtime/kube/client.h "
                    "(runtime/kube comes after it in the stage order)"]
        if check(root) != expected:
            failures.append(f"a back-edge in angle brackets is not reported as expected: {check(root)}")
        (root / "base/clock.h").write_text("")
        (root / "newstage").mkdir()
        (root / "newstage/x.cpp").write_text("")
        if check(root) != ["newstage: not in the stage order (scripts/include_graph.py STAGES)"]:
            failures.append(f"an unplaced folder is not reported: {check(root)}")
    for failure in failures:
        print(f"include_graph.py --self-test: {failure}", file=sys.stderr)
    return 1 if failures else 0


def main(argv: list[str]) -> int:
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith("-")):
        print("usage: include_graph.py [ROOT] | --self-test", file=sys.stderr)
        return 2
    root = Path(argv[1]) if len(argv) == 2 else Path(__file__).resolve().parent.parent
    problems = check(root)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
