#!/usr/bin/python3
"""Checks the mkq examples of a Markdown document (docs/language.md by default).

Usage: doc_examples.py MKQ [DOC] [--fix]

Every fenced block of the document is an example when its info string is one of:

  ```mkq           a complete policy: `mkq check` accepts it without any
                   diagnostic, and `mkq fmt --check` accepts it (the docs show
                   the canonical layout). When its first line is a comment
                   `// warning: W3002` (codes separated by commas), check must
                   succeed and report exactly those warning codes.
  ```mkq-error     a policy that `mkq check` rejects. Its first line is a
                   comment `// error: E3002` (codes separated by commas): the
                   codes reported (errors and warnings) must be exactly those.
                   Unless one of them is a syntax error (E1xxx), the block must
                   be formatted canonically too.
  ```mkq-fragment  shown, not checked (a module file, a piece of a policy).

Each example is written to a directory of its own and checked there. A block
that does not behave is reported with its line number in the document, and
the script exits 1. `--fix` rewrites the document: every example that is not
in the canonical layout (and parses) is replaced by `mkq fmt`'s output.

Exit status: 0 all examples behave, 1 some do not, 2 usage errors.
Needs only the Python 3 standard library.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

KINDS = ("mkq", "mkq-error", "mkq-fragment")
FENCE = re.compile(r"^(\s*)```([A-Za-z0-9_-]*)\s*$")
EXPECT = re.compile(r"^\s*//\s*(error|warning)s?\s*:\s*([EW][0-9]{4}(?:\s*,\s*[EW][0-9]{4})*)\s*$")
TIMEOUT = 60  # seconds per mkq run; an example is tiny


class Block:
    def __init__(self, kind, fence_line, first_line, lines, indent=""):
        self.kind = kind
        self.indent = indent          # the fence's indentation (a block inside a list item)
        self.fence_line = fence_line  # 1-based line of the opening fence
        self.first_line = first_line  # 0-based index of the first content line in the document
        self.lines = lines            # content lines, without newlines

    @property
    def text(self):
        return "\n".join(self.lines) + "\n"


def fences(doc_lines):
    """Every fenced block of a document as (indent, info, opening line index, body lines), and
    the 1-based line of an opening fence that is never closed (None when all are). Shared with
    doc_commands.py."""
    found = []
    i = 0
    while i < len(doc_lines):
        match = FENCE.match(doc_lines[i])
        if not match:
            i += 1
            continue
        start = i
        i += 1
        body = []
        while i < len(doc_lines) and not re.match(r"^\s*```\s*$", doc_lines[i]):
            body.append(doc_lines[i])
            i += 1
        if i == len(doc_lines):
            return found, start + 1
        i += 1  # the closing fence
        found.append((match.group(1), match.group(2), start, body))
    return found, None


def extract(doc_lines):
    """The example blocks of the document, and problems with its fences."""
    blocks = []
    problems = []
    found, unclosed = fences(doc_lines)
    for indent, info, start, body in found:
        if info.startswith("mkq") and info not in KINDS:
            problems.append((start + 1, "unknown example kind '%s' (expected one of %s)" % (info, ", ".join(KINDS))))
            continue
        if info not in KINDS or info == "mkq-fragment":
            continue
        if indent:
            body = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in body]
        blocks.append(Block(info, start + 1, start + 1, body, indent))
    if unclosed is not None:
        problems.append((unclosed, "a code block is not closed"))
    return blocks, problems


def run(command, cwd):
    try:
        result = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                timeout=TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        return None, "", "timed out after %d s" % TIMEOUT
    return result.returncode, result.stdout.decode("utf-8", "replace"), result.stderr.decode("utf-8", "replace")


def expected_codes(block):
    """(severity word, set of codes) from the block's first line, or None."""
    if not block.lines:
        return None
    match = EXPECT.match(block.lines[0])
    if not match:
        return None
    return match.group(1), {code.strip() for code in match.group(2).split(",")}


def check_block(mkq, block, workdir):
    """A list of problems with `block` (empty when it behaves), and whether it is formatted."""
    problems = []
    path = os.path.join(workdir, "example.mkq")
    with open(path, "w", encoding="utf-8") as f:
        f.write(block.text)

    status, out, err = run([mkq, "check", "--format", "json", "example.mkq"], workdir)
    if status is None:
        return ["mkq check " + err], True
    try:
        report = json.loads(out)
        reported = [(d["severity"], d["code"]) for d in report["diagnostics"]]
    except (ValueError, KeyError, TypeError):
        return ["mkq check printed no JSON report (exit %s): %s" % (status, (out + err).strip()[:500])], True
    codes = {code for _, code in reported}
    errors = {code for severity, code in reported if severity == "error"}

    expect = expected_codes(block)
    check_fmt = True
    if block.kind == "mkq":
        wanted = set()
        if expect is not None:
            if expect[0] != "warning" or any(code.startswith("E") for code in expect[1]):
                problems.append("a ```mkq block may only announce warnings (`// warning: W...`); "
                                "use ```mkq-error for errors")
            wanted = expect[1]
        if status != 0 or errors:
            problems.append("mkq check rejects it (exit %s), reporting %s" % (status, ", ".join(sorted(codes))))
        elif codes != wanted:
            problems.append("mkq check reports %s, the block announces %s" %
                            (", ".join(sorted(codes)) or "nothing", ", ".join(sorted(wanted)) or "nothing"))
    else:  # mkq-error
        if expect is None or expect[0] != "error":
            problems.append("a ```mkq-error block must start with a comment `// error: CODE`")
        else:
            wanted = expect[1]
            check_fmt = not any(code.startswith("E1") for code in wanted)
            if status != 1:
                problems.append("mkq check should fail (exit 1), it exits %s" % status)
            if codes != wanted:
                problems.append("mkq check reports %s, the block announces %s" %
                                (", ".join(sorted(codes)) or "nothing", ", ".join(sorted(wanted))))
    if problems:
        _, out, err = run([mkq, "--no-color", "check", "example.mkq"], workdir)
        said = (err + out).rstrip().splitlines()
        problems.append("mkq check says:\n" + "\n".join("      " + line for line in said))

    formatted = True
    if check_fmt:
        status, out, err = run([mkq, "fmt", "--check", "example.mkq"], workdir)
        if status != 0:
            formatted = False
            problems.append("not in the canonical layout: `mkq fmt --check` exits %s (run with --fix)" % status)
    return problems, formatted


def formatted_text(mkq, block, workdir):
    path = os.path.join(workdir, "example.mkq")
    with open(path, "w", encoding="utf-8") as f:
        f.write(block.text)
    status, _, _ = run([mkq, "fmt", "example.mkq"], workdir)
    if status != 0:
        return None
    with open(path, encoding="utf-8") as f:
        return f.read().rstrip("\n").split("\n")


def main(argv):
    args = [a for a in argv[1:] if a != "--fix"]
    fix = "--fix" in argv[1:]
    if not 1 <= len(args) <= 2 or args[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    mkq = os.path.abspath(args[0])
    doc = args[1] if len(args) == 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                        "..", "docs", "language.md")
    doc = os.path.normpath(doc)
    if not os.access(mkq, os.X_OK):
        print("doc_examples: '%s' is not an executable mkq binary" % mkq, file=sys.stderr)
        return 2
    with open(doc, encoding="utf-8") as f:
        doc_lines = f.read().split("\n")

    blocks, problems = extract(doc_lines)
    failures = [(line, message) for line, message in problems]
    replacements = []
    with tempfile.TemporaryDirectory(prefix="mkq-doc-examples-") as tmp:
        for index, block in enumerate(blocks):
            workdir = os.path.join(tmp, "example-%d" % index)
            os.mkdir(workdir)
            block_problems, formatted = check_block(mkq, block, workdir)
            if fix and not formatted:
                new_lines = formatted_text(mkq, block, workdir)
                if new_lines is not None:
                    replacements.append((block, new_lines))
                    block_problems = [p for p in block_problems if not p.startswith("not in the canonical layout")]
            if block_problems:
                failures.append((block.fence_line, "```%s block:\n%s" % (
                    block.kind, "\n".join("  - " + message for message in block_problems))))

    if replacements:
        for block, new_lines in sorted(replacements, key=lambda r: r[0].first_line, reverse=True):
            doc_lines[block.first_line:block.first_line + len(block.lines)] = [
                (block.indent + line) if line else line for line in new_lines]
        with open(doc, "w", encoding="utf-8") as f:
            f.write("\n".join(doc_lines))
        print("doc_examples: reformatted %d example(s) in %s" % (len(replacements), doc))

    for line, message in sorted(failures):
        print("%s:%d: %s" % (doc, line, message))
    counts = {kind: sum(1 for b in blocks if b.kind == kind) for kind in KINDS[:2]}
    summary = "%d examples (%d mkq, %d mkq-error)" % (len(blocks), counts["mkq"], counts["mkq-error"])
    if failures:
        print("doc_examples: %d problem(s) in %s" % (len(failures), summary))
        return 1
    print("doc_examples: %s behave" % summary)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
