#!/usr/bin/env python3
"""Keeps docs/diagnostics.md and the golden tests in step with the diagnostic codes.

The codes are declared in compiler/**/codes*.h as

    inline constexpr const char* kName = "E1003";  // one-line description

and every golden test under tests/lang/ shows the codes it expects as `[E1003]`.

    diagnostics.py --write            regenerate docs/diagnostics.md
    diagnostics.py --check-doc        exit 1 if docs/diagnostics.md is not what --write would write
    diagnostics.py --check-coverage   exit 1 if a code has no golden test showing it, a code string is
                                      declared twice, or a golden shows a code declared nowhere

Python 3 standard library only. Exit status: 0 success; 1 a check failed or a declaration cannot
be read; 2 wrong usage.
"""

import argparse
import difflib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "diagnostics.md"
GOLDEN_ROOT = ROOT / "tests" / "lang"

# Codes exempt from --check-coverage, each with what the doc shows instead of an
# example. Keep this list short: a code belongs here only when no golden case can
# show it. "internal": no input can produce it, only a bug in mkq. "limit: ...": a
# size limit whose input is too large to keep as a golden file; say where it is tested.
NOT_COVERED = {
    # Reported only when the parser meets a tree it does not expect or a C++
    # exception escapes it: a bug in mkq, never a property of the input.
    "E1099": "internal",
    # Needs a file of more than a million tokens (megabytes): too large for a golden
    # file. Tested by tests/syntax/parse_limits_test.cpp instead.
    "E1016": "limit: tested in tests/syntax/parse_limits_test.cpp",
    # Need a file over 8 MiB, or a token over 1 MiB: too large for a golden file.
    "E1018": "limit: tested in tests/syntax/input_limits_test.cpp and tests/cli/input_limits_test.sh",
    "E1019": "limit: tested in tests/syntax/input_limits_test.cpp",
    # Reported only when the policy model breaks a rule the binder guarantees
    # (a dispatch to an undeclared worker, ...): a bug in mkq. Tested by
    # tests/kueue/validate_clusters_test.cpp on a model built by hand.
    "E4099": "internal",
}

DECLARATION = re.compile(
    r'^\s*inline\s+constexpr\s+const\s+char\s*\*\s*(k\w+)\s*=\s*"([^"]*)"\s*;\s*(?://\s*(.*?))?\s*$')
CODE_FORMAT = re.compile(r"^[EW][0-9]{4}$")
SHOWN_CODE = re.compile(r"\[([EW][0-9]{4})\]")

# (first digit, stage, what the stage is doing when it finds a problem)
STAGES = [
    ("1", "Syntax", "reading the text of one file: characters, tokens, literals, brackets and the grammar"),
    ("2", "Evaluation", "evaluating the language: names and scopes, types and operators, templates, "
                        "imports, assertions, secrets and the evaluator's limits"),
    ("3", "Binding", "turning blocks into the policy model: block kinds and fields, field types, Kubernetes "
                     "name formats, references, duplicates, cycles and the rules of MultiKueue and Kueue"),
    ("4", "Kueue validation", "checking the policy model against the rules of Kueue's objects that the language "
                              "does not already enforce: resource group limits, preemption and fungibility "
                              "combinations, MultiKueue settings and the objects of all clusters taken together "
                              "([kueue-rules.md](kueue-rules.md))"),
    ("9", "Loading", "finding and reading the policy files named on the command line"),
]


class Code:
    def __init__(self, code, name, description, header, line):
        self.code = code
        self.name = name
        self.description = description
        self.header = header  # relative to ROOT, with forward slashes
        self.line = line

    @property
    def is_warning(self):
        return self.code.startswith("W")


def relative(path):
    return path.relative_to(ROOT).as_posix()


def read_codes(errors):
    """All declarations of compiler/**/codes*.h, sorted by code. Problems go to `errors`."""
    headers = sorted(p for p in (ROOT / "compiler").rglob("codes*.h") if p.is_file())
    if not headers:
        errors.append("no compiler/**/codes*.h found under " + str(ROOT))
    codes = []
    for header in headers:
        text = header.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            if "constexpr" not in line or "char" not in line:
                continue
            match = DECLARATION.match(line)
            where = "%s:%d" % (relative(header), number)
            if not match:
                errors.append(where + ": cannot read this code declaration (expected "
                              '`inline constexpr const char* kName = "E1234";  // description`)')
                continue
            name, code, description = match.group(1), match.group(2), (match.group(3) or "").strip()
            if not CODE_FORMAT.match(code):
                errors.append(where + ": %s: '%s' is not a code (E or W and four digits)" % (name, code))
                continue
            if not description:
                errors.append(where + ": %s (%s) has no one-line description comment" % (name, code))
            if code[1] not in {stage[0] for stage in STAGES}:
                errors.append(where + ": %s (%s) is in no known range (1xxx, 2xxx, 3xxx, 4xxx, 9xxx)" % (name, code))
            codes.append(Code(code, name, description, relative(header), number))
    seen = {}
    for c in codes:
        if c.code in seen:
            first = seen[c.code]
            errors.append("%s:%d: %s reuses code %s, already declared as %s at %s:%d"
                          % (c.header, c.line, c.name, c.code, first.name, first.header, first.line))
        else:
            seen[c.code] = c
    return sorted(codes, key=lambda c: (c.code[1:], c.code[0], c.header))


def read_goldens():
    """{golden expected file: set of codes it shows}, for every .err and .out under tests/lang."""
    shown = {}
    for path in sorted(GOLDEN_ROOT.rglob("*")):
        if path.suffix not in (".err", ".out") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        shown[path] = set(SHOWN_CODE.findall(text))
    return shown


def case_of(expected):
    """The file a reader should open for an expected-output file: the .mkq case beside it,
    or the directory the case names, else the expected file itself (a missing path, a device)."""
    case = expected.with_suffix(".mkq")
    if case.is_file():
        return case
    directory = expected.with_suffix("")
    return directory if directory.is_dir() else expected


def example_for(code, goldens):
    """The golden case that shows `code` most plainly: fewest other codes, then by name."""
    candidates = [path for path, codes in goldens.items() if code in codes]
    if not candidates:
        return None
    best = min(candidates, key=lambda p: (len(goldens[p]), relative(p)))
    return case_of(best)


def markdown_text(text):
    """Escapes a description for a table cell; `code spans` keep their text."""
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unbalanced backtick: show it literally
        parts = [text.replace("`", "'")]
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 1:
            out.append("`" + part.replace("|", "\\|") + "`")
            continue
        for ch in part:
            if ch in "\\*_|<>[]":
                out.append("\\" + ch if ch not in "<>" else ("&lt;" if ch == "<" else "&gt;"))
            else:
                out.append(ch)
    return "".join(out)


INTRO = """\
# Diagnostics

<!-- Generated by scripts/diagnostics.py --write from compiler/**/codes*.h: do not edit by hand.
     The one-line descriptions are the comments beside the code constants; change them there. -->

Every problem mkq finds in a policy is a *diagnostic*: a severity (error or warning), a stable
code, a message, and the place in the source it is about. Each stage reports every problem it
finds (syntax errors up to 100 per file), and a stage runs only when the ones before it found
no error, so a mistake is reported once, at its cause. Diagnostics come sorted by file and
position; mkq exits 1 if any of them is an error.

## Reading a diagnostic

`mkq check` prints diagnostics as text on standard error:

```text
error/unknown-field.mkq:3:3: error[E3002]: unknown field 'node_lables' in 'flavor'
 3 |   node_lables = { "a": "b" }
   |   ^~~~~~~~~~~
  = help: did you mean 'node_labels'?
error: 1 error
```

- `file:line:column` is where the problem starts; lines and columns count from 1, columns
  count bytes. A problem without a place in a policy file (a path that does not exist) starts
  with `mkq:` instead.
- `error[E3002]` is the severity and the code. Warnings read `warning[W3001]`; they do not
  change the exit status.
- The source line follows, with a caret `^` under the first character of the offending text
  and `~` under the rest of it (up to the end of the line).
- A note about another place ("first declared here") is printed as its own
  `file:line:column: note: ...` line with that source line and caret; a note without a place
  is printed as `  = note: ...`. `  = help: ...` lines propose a fix, most often
  "did you mean ...?" for a near-miss name.
- A last line counts them: `error: 2 errors, 1 warning`, or `warning: 1 warning`.

Colors are used when standard error is a terminal: the severity and code in bold red (error),
yellow (warning) or cyan (note), the message in bold, the carets in bold green. `--no-color`, or
`NO_COLOR` set to anything but the empty string, turns them off; the text is otherwise the same
byte for byte.

`mkq check --format json` prints the same diagnostics, in the same order, as one JSON document
on standard output (for editors and CI); the exit status is the same:

```json
{
  "diagnostics": [
    {
      "file": "error/unknown-field.mkq",
      "range": {
        "file": "error/unknown-field.mkq",
        "start": { "line": 3, "column": 3, "offset": 30 },
        "end": { "line": 3, "column": 14, "offset": 41 }
      },
      "severity": "error",
      "code": "E3002",
      "message": "unknown field 'node_lables' in 'flavor'",
      "notes": [],
      "suggestions": [
        {
          "message": "did you mean 'node_labels'?",
          "range": { "file": "error/unknown-field.mkq", "start": { ... }, "end": { ... } },
          "replacement": "node_labels"
        }
      ]
    }
  ],
  "errors": 1,
  "warnings": 0
}
```

- `severity` is `"error"` or `"warning"`; `code` and `message` are those of the text form.
- `range` is half-open: `end` is just after the offending text. `line` and `column` are as in
  the text form; `offset` is the 0-based byte offset in the file. A diagnostic without a place
  has `"file": ""` and an empty range at line 1, column 1.
- Each note has a `message` and, when it points somewhere, a `range`.
- Each suggestion has a `message`, a `range` when it proposes an edit, and the `replacement`
  text for that range (empty when the suggestion is only advice).
- `errors` and `warnings` count the diagnostics of each severity.

The exact JSON for one policy is checked by the test `lang.json_format`
([tests/lang/json/tour-typos.json](../tests/lang/json/tour-typos.json)).

## Stable codes

A code names one kind of problem and keeps that meaning forever: scripts, editor settings and
documentation may rely on it. Messages may be reworded; codes are never renumbered or reused.
A new kind of problem gets a new code at the end of its group. The first digit tells the stage
that found the problem:

| Range | Stage | Found while |
|---|---|---|
"""

OUTRO = """\
## Keeping this page in step

This page is generated from the declarations in `compiler/**/codes*.h`:

```sh
/usr/bin/python3 scripts/diagnostics.py --write            # regenerate this page
/usr/bin/python3 scripts/diagnostics.py --check-doc        # CTest: docs.diagnostics_in_sync
/usr/bin/python3 scripts/diagnostics.py --check-coverage   # CTest: lang.every_code_has_a_golden
```

Every code must be shown by at least one golden test: an expected `.err` or `.out` file under
`tests/lang/` that contains `[CODE]`. The "Example" column names the case that shows it most
plainly; the cases under `tests/lang/driver/` run `mkq check` on paths that are missing, empty
or not files. A code that no input can produce (only a bug in mkq) is marked *internal*, and a
limit whose input is too large for a golden file names the test that covers it instead; both
are exempted, with the reason, in `NOT_COVERED` of `scripts/diagnostics.py`.
"""


def render_doc(codes, goldens):
    lines = [INTRO.rstrip("\n")]
    for digit, title, what in STAGES:
        lines.append("| %sxxx | %s | %s |" % (digit, title, what))
    lines.append("")
    lines.append("Codes starting with `E` are errors; codes starting with `W` are warnings.")
    lines.append("")
    for digit, title, what in STAGES:
        members = [c for c in codes if c.code[1] == digit]
        if not members:
            continue
        headers = sorted({c.header for c in members})
        ranges = ", ".join(sorted({c.code[0] + digit + "xxx" for c in members}))
        lines.append("## %s (%s)" % (title, ranges))
        lines.append("")
        lines.append("Found while %s. Declared in %s." % (what, ", ".join("`%s`" % h for h in headers)))
        for severity, group in (("Errors", [c for c in members if not c.is_warning]),
                                ("Warnings", [c for c in members if c.is_warning])):
            if not group:
                continue
            lines.append("")
            lines.append("### %s" % severity)
            lines.append("")
            lines.append("| Code | Name | Meaning | Example |")
            lines.append("|---|---|---|---|")
            for c in group:
                lines.append("| %s | `%s` | %s | %s |" % (
                    c.code, c.name, markdown_text(c.description), example_cell(c, goldens)))
        lines.append("")
    lines.append(OUTRO.rstrip("\n"))
    return "\n".join(lines) + "\n"


def example_cell(c, goldens):
    if c.code in NOT_COVERED:
        return "*%s*" % markdown_text(NOT_COVERED[c.code])
    example = example_for(c.code, goldens)
    if example is None:
        return "*none yet*"
    path = relative(example)
    return "[%s](../%s)" % (path, path)


def check_coverage(codes, goldens):
    problems = []
    declared = {c.code for c in codes}
    for code in sorted(NOT_COVERED):
        if code not in declared:
            problems.append("scripts/diagnostics.py exempts %s, which is declared nowhere: remove it from NOT_COVERED"
                            % code)
    uncovered = [c for c in codes
                 if c.code not in NOT_COVERED and not any(c.code in shown for shown in goldens.values())]
    if uncovered:
        problems.append("%d code(s) shown by no golden test (no tests/lang/**/*.err or *.out contains [CODE]):"
                        % len(uncovered))
        for c in uncovered:
            problems.append("  %s %s  (%s:%d)  %s" % (c.code, c.name, c.header, c.line, c.description))
        problems.append("  add a case that shows each: write tests/lang/error/NAME.mkq (or ok/NAME.mkq for a warning),"
                        " run `tests/lang/golden.sh MKQ error/NAME.mkq --update` and read the result")
    for path, shown in sorted(goldens.items()):
        for code in sorted(shown - declared):
            problems.append("%s shows [%s], which no compiler/**/codes*.h declares" % (relative(path), code))
        for code in sorted(shown & set(NOT_COVERED)):
            problems.append("%s shows [%s], which scripts/diagnostics.py exempts as %s: remove the exemption"
                            % (relative(path), code, NOT_COVERED[code]))
    return problems


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true", help="regenerate docs/diagnostics.md")
    action.add_argument("--check-doc", action="store_true", help="fail if docs/diagnostics.md is out of date")
    action.add_argument("--check-coverage", action="store_true", help="fail if a code has no golden test")
    args = parser.parse_args(argv)

    errors = []
    codes = read_codes(errors)
    if errors:
        for e in errors:
            print("diagnostics.py: " + e, file=sys.stderr)
        return 1
    goldens = read_goldens()

    if args.write:
        DOC.parent.mkdir(parents=True, exist_ok=True)
        DOC.write_text(render_doc(codes, goldens), encoding="utf-8")
        print("wrote %s (%d codes)" % (relative(DOC), len(codes)))
        return 0

    if args.check_doc:
        want = render_doc(codes, goldens)
        have = DOC.read_text(encoding="utf-8") if DOC.is_file() else None
        if have == want:
            print("%s is up to date (%d codes)" % (relative(DOC), len(codes)))
            return 0
        if have is None:
            print("diagnostics.py: %s is missing" % relative(DOC), file=sys.stderr)
        else:
            diff = difflib.unified_diff(have.splitlines(), want.splitlines(),
                                        relative(DOC), "expected", lineterm="", n=1)
            print("diagnostics.py: %s is not what --write produces from compiler/**/codes*.h and the"
                  " goldens under tests/lang:" % relative(DOC), file=sys.stderr)
            for line in list(diff)[:60]:
                print(line, file=sys.stderr)
        print("diagnostics.py: regenerate it with: /usr/bin/python3 scripts/diagnostics.py --write",
              file=sys.stderr)
        return 1

    problems = check_coverage(codes, goldens)
    if problems:
        for p in problems:
            print("diagnostics.py: " + p if not p.startswith("  ") else p, file=sys.stderr)
        return 1
    exempt = len([c for c in codes if c.code in NOT_COVERED])
    print("every code has a golden test (%d codes, %d exempt: %s)"
          % (len(codes), exempt, ", ".join(sorted(NOT_COVERED)) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
