#!/usr/bin/env python3
"""`mkq lsp` driven over stdio by a scripted client, no editor: initialize,
didOpen, didChange with an error and then its fix, code actions, hover,
completion, definition, references, rename, formatting, documentSymbol,
semanticTokens, malformed input and shutdown, on examples/teams and
examples/quickstart. Each answer is compared, exactly, with
tests/lsp/golden/NAME.json (the repository's file:// URI written as
file:///MKQ). `--update` rewrites the goldens instead; review their diff.

usage: client_test.py MKQ [--update]
"""
import json
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
GOLDEN = HERE / "golden"
sys.path.insert(0, str(HERE))
from lspclient import Client  # noqa: E402

ROOT_URI = "file://" + str(ROOT)
failures = []


def scrub(value):
    """The answer with this checkout's URI replaced, so that goldens hold anywhere."""
    return json.loads(json.dumps(value).replace(ROOT_URI, "file:///MKQ"))


def check(name, value, update):
    value = scrub(value)
    path = GOLDEN / (name + ".json")
    text = json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if update:
        path.write_text(text)
        return
    if not path.exists():
        failures.append("%s: no golden %s (run with --update)" % (name, path))
        return
    if path.read_text() != text:
        failures.append("%s: differs from %s:\n%s" % (name, path, text))


def uri_of(example):
    return ROOT_URI + "/examples/%s/policy.mkq" % example


def text_of(example):
    return (ROOT / "examples" / example / "policy.mkq").read_text()


def position(text, needle, delta=0, nth=0):
    """The 0-based line and UTF-16 column of the `nth` occurrence of `needle`, plus `delta` characters."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += delta
    before = text[:at]
    line = before.count("\n")
    column = len(before[before.rfind("\n") + 1:].encode("utf-16-le")) // 2
    return {"line": line, "character": column}


def same_as_check(mkq, name, text, published):
    """The published diagnostics say what `mkq check` says of the same text: codes, messages, places."""
    with tempfile.TemporaryDirectory() as scratch:
        (pathlib.Path(scratch) / "policy.mkq").write_text(text)
        run = subprocess.run([mkq, "check", "--format", "json", scratch], capture_output=True, text=True)
    expected = [(d["code"], d["message"], d["range"]["start"]["line"] - 1, d["range"]["start"]["column"] - 1,
                 d["range"]["end"]["line"] - 1, d["range"]["end"]["column"] - 1)
                for d in json.loads(run.stdout)["diagnostics"]]
    got = [(d["code"], d["message"], d["range"]["start"]["line"], d["range"]["start"]["character"],
            d["range"]["end"]["line"], d["range"]["end"]["character"]) for d in published["diagnostics"]]
    if got != expected:
        failures.append("%s: mkq check says %s, the server %s" % (name, expected, got))


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    mkq, update = sys.argv[1], "--update" in sys.argv[2:]
    GOLDEN.mkdir(exist_ok=True)
    client = Client([mkq, "lsp", "--debounce", "50"], cwd=str(ROOT))

    def ask(name, method, params):
        answer = client.request(method, params)
        check(name, answer.get("result", answer.get("error")), update)
        return answer

    def diagnostics(name, uri, version):
        published = client.notification("textDocument/publishDiagnostics",
                                        where=lambda p: p["uri"] == uri and p.get("version") == version)
        check(name, published, update)
        return published

    ask("initialize", "initialize", {"processId": None, "rootUri": ROOT_URI, "capabilities": {}})
    client.notify("initialized", {})

    teams_uri, teams = uri_of("teams"), text_of("teams")
    doc = {"uri": teams_uri}
    client.notify("textDocument/didOpen",
                  {"textDocument": {"uri": teams_uri, "languageId": "mkq", "version": 1, "text": teams}})
    diagnostics("open_teams_diagnostics", teams_uri, 1)

    # An error typed (incremental change: `pool_gpus` -> `pool_gpu` in `borrow_gpus = pool_gpus - gpus`), then fixed.
    typo = position(teams, "pool_gpus - gpus", 8)
    typo_end = {"line": typo["line"], "character": typo["character"] + 1}
    client.notify("textDocument/didChange", {"textDocument": {"uri": teams_uri, "version": 2},
                                             "contentChanges": [{"range": {"start": typo, "end": typo_end}, "text": ""}]})
    published = diagnostics("error_diagnostics", teams_uri, 2)
    lines = teams.split("\n")
    typo_line = lines[typo["line"]]
    lines[typo["line"]] = typo_line[:typo["character"]] + typo_line[typo["character"] + 1:]
    same_as_check(mkq, "error_diagnostics", "\n".join(lines), published)
    error_range = published["diagnostics"][0]["range"]
    ask("quick_fix", "textDocument/codeAction",
        {"textDocument": doc, "range": error_range, "context": {"diagnostics": published["diagnostics"]}})
    client.notify("textDocument/didChange", {"textDocument": {"uri": teams_uri, "version": 3},
                                             "contentChanges": [{"range": {"start": typo, "end": typo}, "text": "s"}]})
    diagnostics("fixed_diagnostics", teams_uri, 3)

    # Hover: an expression's values (one per loop iteration), a let, a block kind, a field, a template.
    ask("hover_expression", "textDocument/hover", {"textDocument": doc, "position": position(teams, "gpus * 64Gi", 5)})
    ask("hover_let", "textDocument/hover", {"textDocument": doc, "position": position(teams, "pool_gpus", 2)})
    ask("hover_block_kind", "textDocument/hover", {"textDocument": doc, "position": position(teams, "flavor \"a100\"", 1)})
    ask("hover_field", "textDocument/hover", {"textDocument": doc, "position": position(teams, "labels = {", 1)})
    ask("hover_template", "textDocument/hover", {"textDocument": doc, "position": position(teams, "teams.team(", 7)})

    # Completion: declared flavors in a string that takes one, a module's templates, statements at the top.
    ask("complete_flavor", "textDocument/completion",
        {"textDocument": doc, "position": position(teams, "flavor = \"a100\"", 10)})
    ask("complete_module", "textDocument/completion", {"textDocument": doc, "position": position(teams, "teams.team(", 6)})
    ask("complete_top_level", "textDocument/completion",
        {"textDocument": doc, "position": position(teams, "\ncohort \"research\"", 1)})

    # Definition and references: a cohort named in a template's argument; a flavor's every use; a let.
    ask("definition_cohort", "textDocument/definition",
        {"textDocument": doc, "position": position(teams, "cohort = \"research\"", 12)})
    ask("definition_loop_variable", "textDocument/definition",
        {"textDocument": doc, "position": position(teams, "gpus * 8", 1)})
    ask("references_flavor", "textDocument/references",
        {"textDocument": doc, "position": position(teams, "flavor \"a100\"", 9), "context": {"includeDeclaration": True}})
    ask("references_let", "textDocument/references",
        {"textDocument": doc, "position": position(teams, "let pool_gpus", 5), "context": {"includeDeclaration": False}})

    # Rename: a let (also inside a string's interpolation), a worker; refused: a keyword, a taken name.
    ask("rename_let", "textDocument/rename",
        {"textDocument": doc, "position": position(teams, "let pool_gpus", 5), "newName": "pool_size"})
    ask("rename_worker", "textDocument/rename",
        {"textDocument": doc, "position": position(teams, "worker \"gpu-east\"", 9), "newName": "gpu-north"})
    ask("rename_refused_keyword", "textDocument/rename",
        {"textDocument": doc, "position": position(teams, "let pool_gpus", 5), "newName": "for"})
    ask("rename_refused_taken", "textDocument/rename",
        {"textDocument": doc, "position": position(teams, "let pool_gpus", 5), "newName": "shares"})

    ask("document_symbols", "textDocument/documentSymbol", {"textDocument": doc})
    ask("semantic_tokens", "textDocument/semanticTokens/full", {"textDocument": doc})

    # Formatting: the example is formatted already; a badly laid out quickstart gets mkq fmt's layout; a file
    # with a syntax error gets no edit.
    ask("format_formatted", "textDocument/formatting", {"textDocument": doc, "options": {"tabSize": 2, "insertSpaces": True}})
    quick_uri, quick = uri_of("quickstart"), text_of("quickstart")
    messy = quick.replace("flavor \"default-flavor\" {}", "flavor   \"default-flavor\"   {\n}")
    client.notify("textDocument/didOpen",
                  {"textDocument": {"uri": quick_uri, "languageId": "mkq", "version": 1, "text": messy}})
    diagnostics("open_quickstart_diagnostics", quick_uri, 1)
    quick_doc = {"uri": quick_uri}
    ask("format_messy", "textDocument/formatting", {"textDocument": quick_doc, "options": {"tabSize": 2, "insertSpaces": True}})
    client.notify("textDocument/didChange", {"textDocument": {"uri": quick_uri, "version": 2},
                                             "contentChanges": [{"text": messy + "\nflavor {\n"}]})
    same_as_check(mkq, "syntax_error_diagnostics", messy + "\nflavor {\n",
                  diagnostics("syntax_error_diagnostics", quick_uri, 2))
    ask("format_syntax_error", "textDocument/formatting",
        {"textDocument": quick_doc, "options": {"tabSize": 2, "insertSpaces": True}})

    # Bad input: a frame without Content-Length, a body that is not JSON, an unknown method.
    client.send_raw(b"Content-Type: text/plain\r\n\r\n")
    check("malformed_frame", client.read(), update)
    client.send_raw(b"Content-Length: 5\r\n\r\n{nope")
    check("not_json", client.read(), update)
    ask("unknown_method", "textDocument/inlayHint", {"textDocument": doc})

    ask("shutdown", "shutdown", None)
    client.notify("exit", None)
    code = client.close()
    if code != 0:
        failures.append("mkq lsp exited with %d after shutdown and exit" % code)
    for failure in failures:
        print("FAIL " + failure, file=sys.stderr)
    print("%s: %s" % ("updated" if update else "checked", GOLDEN))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
