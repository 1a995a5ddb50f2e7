#!/usr/bin/env python3
"""README.md's transcripts, produced by running them.

Every fenced block of README.md that follows a line

    <!-- transcript: NAME -->

is the output of the transcript NAME below, made by running mkq (so the README
cannot drift from what a user sees):

    policy     examples/quickstart/policy.mkq, as it is
    render     an excerpt of `mkq render examples/quickstart` (whole documents, or
               their first lines and "...")
    tour-tty   scripts/tour.sh — how ./setup.sh ends — on a terminal (a pty), as
               the screen shows it at the end: the live counter line of each cluster
               ends as "N/N  done"; colours are dropped
    tour-log   the same apply when the output is not a terminal (a pipe, a CI log):
               one line per event; the plan, identical to tour-tty's, elided

Each tour runs in a fresh temporary directory holding build/mkq (a link to the
binary) and a copy of examples/quickstart, with HOME there and no KUBECONFIG, so
every path printed is the one a user types from the repository's root; its sandbox
is stopped and the directory removed afterwards.

    readme_transcripts.py MKQ            check: exit 1 and a diff when README.md
                                         differs from what the runs produce
    readme_transcripts.py MKQ --write    rewrite README.md's transcripts

The check compares both sides after the same normalisation, which maps what
differs from run to run, and only that, to fixed text:
  - dates (YYYY-MM-DD: a token's expiry) -> <date>, "pid N" -> "pid <pid>";
  - in a run of apply's event lines ("CLUSTER: ..."): the "waiting for" lines are
    dropped (whether a wait is seen depends on timing), and the lines are grouped by
    cluster (clusters are applied in parallel: their lines interleave differently
    from run to run), each cluster's changes in their order (one at a time, in
    dependency order: fixed) and then its "is Active" lines, sorted (the wait sees
    objects become Active in an order that varies);
  - trailing blanks.
Exit codes: 0 same (or written), 1 different, 2 a run failed, 77 no mkq binary.
"""

import difflib
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")
POLICY = "examples/quickstart"
CLUSTERS = ("manager-cluster", "multikueue-test-worker1")
MARKER = re.compile(r"^<!-- transcript: ([a-z-]+) -->$")
COLUMNS, ROWS = 120, 50


class RunFailed(Exception):
    pass


# ---------------------------------------------------------------- environment

class Workdir:
    """A temporary directory laid out like the repository: build/mkq, examples/quickstart."""

    def __init__(self, mkq):
        self.path = tempfile.mkdtemp(prefix="mkq-readme.")
        os.makedirs(os.path.join(self.path, "build"))
        os.symlink(os.path.abspath(mkq), os.path.join(self.path, "build", "mkq"))
        shutil.copytree(os.path.join(ROOT, POLICY), os.path.join(self.path, POLICY),
                        ignore=shutil.ignore_patterns(".mkq"))
        os.makedirs(os.path.join(self.path, "home"))
        self.env = {k: v for k, v in os.environ.items() if k not in ("KUBECONFIG", "NO_COLOR")}
        self.env["HOME"] = os.path.join(self.path, "home")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        subprocess.run(["build/mkq", "sandbox", "down", "--dir", POLICY + "/.mkq/sandbox"],
                       cwd=self.path, env=self.env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=60, check=False)
        shutil.rmtree(self.path, ignore_errors=True)


def run_pipe(work, args):
    """ARGS with stdout and stderr into one pipe, as `2>&1 | tee log` shows them."""
    done = subprocess.run(args, cwd=work.path, env=dict(work.env, TERM="dumb"),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          stdin=subprocess.DEVNULL, timeout=300, check=False)
    text = done.stdout.decode()
    if done.returncode != 0:
        raise RunFailed(f"{' '.join(args)}: exit {done.returncode}\n{text}")
    return text


def run_pty(work, args):
    """ARGS on a terminal of COLUMNS x ROWS; the bytes it wrote."""
    import fcntl
    import struct
    import termios
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    proc = subprocess.Popen(args, cwd=work.path, env=dict(work.env, TERM="xterm-256color"),
                            stdin=slave, stdout=slave, stderr=slave, start_new_session=True)
    os.close(slave)
    out = bytearray()
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: every writer of the terminal is gone
                    break
                if not chunk:
                    break
                out += chunk
            elif proc.poll() is not None:
                break
        code = proc.wait(timeout=300)
    finally:
        os.close(master)
    if code != 0:
        raise RunFailed(f"{' '.join(args)} (on a terminal): exit {code}\n{out.decode(errors='replace')}")
    return out.decode()


# A terminal, for what mkq writes to one: printable text, \r, \n, and the CSI
# sequences its live lines use (cursor up, erase line, colours). Anything else is
# an error, so the screen is never rendered wrong silently.
CSI = re.compile(r"\x1b\[([0-9;]*)([A-Za-z])")


def screen(data):
    lines = [[]]
    row = col = 0
    i = 0
    while i < len(data):
        c = data[i]
        if c == "\x1b":
            m = CSI.match(data, i)
            if not m:
                raise RunFailed(f"unknown escape sequence {data[i:i + 8]!r}")
            arg, op = m.group(1), m.group(2)
            if op == "m":
                pass
            elif op == "A":
                row = max(0, row - int(arg or "1"))
            elif op == "K" and arg == "2":
                lines[row] = []
            elif op == "K" and arg in ("", "0"):
                del lines[row][col:]
            else:
                raise RunFailed(f"unhandled escape sequence {m.group(0)!r}")
            i = m.end()
            continue
        if c == "\r":
            col = 0
        elif c == "\n":
            row += 1
            if row == len(lines):
                lines.append([])
        else:
            line = lines[row]
            line.extend(" " * (col - len(line)))
            if col < len(line):
                line[col] = c
            else:
                line.append(c)
            col += 1
        i += 1
    text = "\n".join("".join(line).rstrip() for line in lines)
    return text.rstrip("\n") + "\n"


# ---------------------------------------------------------------- transcripts

def transcript_policy(mkq):
    with open(os.path.join(ROOT, POLICY, "policy.mkq")) as f:
        return f.read()


def transcript_render(mkq):
    with Workdir(mkq) as work:
        out = run_pipe(work, ["build/mkq", "render", POLICY])
    docs = out.split("---\n")

    def doc(role, kind):
        for d in docs:
            if d.split("\n", 1)[0].endswith(f"({role})") and f"\nkind: {kind}\n" in d:
                return d
        raise RunFailed(f"render: no {kind} on the {role}")

    def head(d, n):
        return "".join(d.splitlines(keepends=True)[:n])

    return (head(doc("manager", "Secret"), 6) + "  ...\n---\n"
            + doc("manager", "ClusterQueue") + "---\n...\n"
            + head(doc("worker", "ClusterRole"), 5) + "...\n")


def transcript_tour_tty(mkq):
    with Workdir(mkq) as work:
        return screen(run_pty(work, [os.path.join(ROOT, "scripts", "tour.sh")])).lstrip("\n")


def transcript_tour_log(mkq):
    with Workdir(mkq) as work:
        out = run_pipe(work, [os.path.join(ROOT, "scripts", "tour.sh")])
    lines = out.splitlines(keepends=True)
    start = next((i for i, l in enumerate(lines) if l.startswith("Plan: ")), None)
    end = next((i for i, l in enumerate(lines) if l.startswith("Apply complete! ")), None)
    if start is None or end is None:
        raise RunFailed(f"tour: no \"Plan: \" or \"Apply complete! \" line in\n{out}")
    first = "$ build/mkq apply examples/quickstart --sandbox --auto-approve --wait 2>&1 | tee apply.log\n"
    if lines[1] != first.replace(" 2>&1 | tee apply.log", ""):
        raise RunFailed(f"tour: unexpected first command {lines[1]!r}")
    return first + "...\n" + "".join(lines[start:end + 1])


TRANSCRIPTS = {
    "policy": transcript_policy,
    "render": transcript_render,
    "tour-tty": transcript_tour_tty,
    "tour-log": transcript_tour_log,
}


# ---------------------------------------------------------------- README

def blocks(text):
    """(name, start, end) of every transcript block: text[start:end] is its body."""
    found = []
    lines = text.splitlines(keepends=True)
    offset = 0
    pending = None
    fence_at = None
    for line in lines:
        stripped = line.rstrip("\n")
        m = MARKER.match(stripped)
        if m:
            pending = m.group(1)
        elif pending and fence_at is None and stripped.startswith("```"):
            fence_at = offset + len(line)
        elif fence_at is not None and stripped == "```":
            found.append((pending, fence_at, offset))
            pending = fence_at = None
        elif pending and fence_at is None and stripped:
            raise SystemExit(f"README.md: transcript {pending}: no fenced block right after its marker")
        offset += len(line)
    if pending:
        raise SystemExit(f"README.md: transcript {pending}: its block is not closed")
    return found


def normalise(text):
    text = re.sub(r"\b\d{4}-\d{2}-\d{2}\b", "<date>", text)
    text = re.sub(r"\bpid \d+", "pid <pid>", text)
    out, run = [], []
    event = re.compile(r"^(%s): " % "|".join(map(re.escape, CLUSTERS)))

    def order(numbered):
        n, line = numbered
        active = line.endswith(" is Active")
        return (CLUSTERS.index(event.match(line).group(1)), active, line if active else n)

    def flush():
        kept = [l for l in run if not l.split(": ", 1)[1].startswith("waiting for ")]
        out.extend(line for _, line in sorted(enumerate(kept), key=order))
        run.clear()

    for line in text.splitlines():
        line = line.rstrip()
        if event.match(line):
            run.append(line)
            continue
        flush()
        out.append(line)
    flush()
    return "\n".join(out) + "\n"


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    write = "--write" in argv
    if len(args) != 1 or set(a for a in argv if a.startswith("--")) - {"--write"}:
        print("usage: readme_transcripts.py MKQ [--write]", file=sys.stderr)
        return 2
    mkq = args[0]
    if not os.access(mkq, os.X_OK):
        print(f"SKIPPED: {mkq} is not an executable (build mkq first)")
        return 77
    with open(README) as f:
        text = f.read()
    found = blocks(text)
    unknown = [name for name, _, _ in found if name not in TRANSCRIPTS]
    missing = sorted(set(TRANSCRIPTS) - {name for name, _, _ in found})
    if unknown or missing:
        print(f"README.md: unknown transcripts {unknown}, missing {missing}", file=sys.stderr)
        return 1
    try:
        produced = {name: TRANSCRIPTS[name](mkq) for name, _, _ in found}
    except RunFailed as e:
        print(f"readme_transcripts: {e}", file=sys.stderr)
        return 2
    if write:
        for name, start, end in reversed(found):
            text = text[:start] + produced[name] + text[end:]
        with open(README, "w") as f:
            f.write(text)
        print(f"README.md: {len(found)} transcripts written")
        return 0
    different = 0
    for name, start, end in found:
        want, got = normalise(text[start:end]), normalise(produced[name])
        if want != got:
            different += 1
            print(f"README.md: transcript {name} differs from what it produces (normalised; - README, + now):")
            sys.stdout.writelines(difflib.unified_diff(
                want.splitlines(keepends=True), got.splitlines(keepends=True), "README.md", "produced"))
    if different:
        print("rewrite them with: scripts/readme_transcripts.py build/mkq --write (and review git diff README.md)")
        return 1
    print(f"README.md: {len(found)} transcripts match")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
