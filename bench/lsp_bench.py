#!/usr/bin/env python3
"""`mkq lsp`'s latency and memory (issue 18's performance section).

  bench/lsp_bench.py build/mkq examples/teams             # latency: median of 20 edits
  bench/lsp_bench.py build/mkq /tmp/big --edits 20         # the 10k-queue policy (bench/generate > /tmp/big/policy.mkq)
  bench/lsp_bench.py build/mkq examples/teams --rss 1000   # RSS after 1,000 edits against after the first 20

Latency: the wall time from sending a didChange (one character typed, or
removed, at the end of the policy's first line) to receiving the
publishDiagnostics for that version, with the server's default debounce
(150 ms) included: what a user waits for after a keystroke. Each edit waits
for its diagnostics before the next is sent. RSS: VmRSS of the server
process, with --debounce 0 so that every edit is analysed.
"""
import argparse
import os
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests" / "lsp"))
from lspclient import Client  # noqa: E402


def rss_kib(pid):
    for line in pathlib.Path("/proc/%d/status" % pid).read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_ms(pid):
    """User and system CPU time of the process so far, in milliseconds."""
    fields = pathlib.Path("/proc/%d/stat" % pid).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mkq")
    parser.add_argument("policy", help="a policy directory; its first .mkq file (sorted) is the one edited")
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--rss", type=int, default=0, metavar="N", help="measure RSS after N edits instead")
    args = parser.parse_args()
    path = sorted(pathlib.Path(args.policy).resolve().glob("*.mkq"))[0]
    uri = "file://" + str(path)
    text = path.read_text()
    first_line = text.split("\n", 1)[0]
    argv = [args.mkq, "lsp"] + (["--debounce", "0"] if args.rss else [])
    client = Client(argv)
    client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    client.notify("initialized", {})
    started = time.monotonic()
    client.notify("textDocument/didOpen",
                  {"textDocument": {"uri": uri, "languageId": "mkq", "version": 1, "text": text}})
    opened = client.notification("textDocument/publishDiagnostics", timeout=120,
                                 where=lambda p: p.get("version") == 1)
    print("open: %.0f ms to the first diagnostics (%d)" % ((time.monotonic() - started) * 1000,
                                                          len(opened["diagnostics"])))

    version = 1
    def edit():
        nonlocal version
        version += 1
        column = len(first_line.encode("utf-16-le")) // 2
        insert = version % 2 == 0  # type a space at the end of line 1, then delete it
        change = {"range": {"start": {"line": 0, "character": column},
                            "end": {"line": 0, "character": column + (0 if insert else 1)}},
                  "text": " " if insert else ""}
        sent = time.monotonic()
        client.notify("textDocument/didChange",
                      {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
        client.notification("textDocument/publishDiagnostics", timeout=120, where=lambda p: p.get("version") == version)
        client.notifications.clear()
        return (time.monotonic() - sent) * 1000

    if args.rss:
        for _ in range(20):
            edit()
        before = rss_kib(client.proc.pid)
        for _ in range(args.rss - 20):
            edit()
        after = rss_kib(client.proc.pid)
        print("RSS after 20 edits: %.1f MiB; after %d edits: %.1f MiB (%+.1f %%)" %
              (before / 1024, args.rss, after / 1024, (after - before) * 100.0 / before))
    else:
        cpu_before = cpu_ms(client.proc.pid)
        latencies = [edit() for _ in range(args.edits)]
        cpu = (cpu_ms(client.proc.pid) - cpu_before) / len(latencies)
        print("didChange -> publishDiagnostics over %d edits: median %.0f ms, min %.0f ms, max %.0f ms; "
              "server CPU %.0f ms per edit; load %.1f" %
              (len(latencies), statistics.median(latencies), min(latencies), max(latencies), cpu, os.getloadavg()[0]))
    client.request("shutdown", None)
    client.notify("exit", None)
    return client.close()


if __name__ == "__main__":
    sys.exit(main())
