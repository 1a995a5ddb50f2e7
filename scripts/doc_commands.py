#!/usr/bin/python3
"""Runs every command line README.md and docs/*.md show, so that none can drift.

Usage: doc_commands.py MKQ [--list] [DOC...]

Which lines are commands. In a fenced block whose info string is empty, `sh`,
`bash`, `shell` or `console` (never ```mkq, ```json, ```yaml, ...):
  - when some line of the block starts with `$ `, the block is a transcript: its
    `$ ` lines are the commands, everything else is their output;
  - otherwise every line (at the fence's indentation, not further in) whose first
    word is `mkq`, `build/mkq` or `kubectl` is a command, unless it ends with `:`
    (mkq's output, "mkq will perform the following actions:"). `mkq: ...` lines
    are output too (the first word is then `mkq:`).
A line ending in `\\` continues on the next. A trailing `# comment` is dropped; when
it reads `# N` or `# exit N` (alone, or followed by `:`, `;`, `,` or `(`), the command
must exit N, else 0.

How they run. Per document, in document order, in a scratch directory laid out
like the repository: examples/ copied, build/mkq a link to MKQ (and build/ first on
PATH, so `mkq ...` is the same binary), HOME there, no KUBECONFIG. stdin is a
terminal on which `yes` is already typed: a command that asks for confirmation
(`mkq apply` without --auto-approve) is answered as the doc's reader would. Each line
runs as `bash -o pipefail -c LINE` with a timeout of TIMEOUT seconds; a pipeline
stage whose program is not installed here (`dot`) is replaced by `cat >/dev/null`,
so that mkq's side of the pipe still runs and counts. Every sandbox the document
started is stopped (`mkq sandbox down --dir ...`) and the directory removed after
the last command of the document.

Commands that would not end run bounded, where that still proves something:
  - `mkq controller ...` (not `controller manifests`) runs with `--listen
    127.0.0.1:0` added unless it has a --listen (a free port, not the machine's
    :8080); /healthz must answer 200; then SIGTERM, and it must exit 0 or 130
    (docs/controller.md: both are a clean stop);
  - `mkq sandbox serve` runs until it prints that it serves and `mkq sandbox
    status` (same options) shows it running; then SIGINT (the doc's Ctrl-C), and
    it must exit 0.
What cannot run here at all (placeholders, contexts the sandbox has no way to
have, a synopsis) is in NOT_RUN below, ONE table, each entry with its reason. A
command that neither passes nor is in the table fails the run, and so does an entry
of the table that matches no command any more (the table stays exact).

Exit status: 0 every command passed (or is in NOT_RUN), 1 some did not, 2 usage
errors, 77 skipped (no mkq binary, or no kubectl: the docs show kubectl lines).
`--list` prints every command with its file:line and what is expected, runs nothing.
Needs only the Python 3 standard library.
"""

import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts in the source tree
from doc_examples import fences  # noqa: E402 (the same reading of fences as the policy examples')

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHELL_FENCES = ("", "sh", "bash", "shell", "console")
EXPECT = re.compile(r"^(?:exit\s+)?(\d+)\s*(?:$|[:;,(])")
TIMEOUT = 60  # seconds per command; the slowest, an apply of examples/tas that starts its sandbox, takes ~3 s

# The one table of doc commands that are not run: (document, command as written
# without its comment) -> why it cannot run here.
NOT_RUN = {
    ("README.md", "build/mkq check --import-root shared policy"):
        "illustrative: needs a policy/ that imports ../shared/ (docs/language.md shows the layout)",
    ("README.md", "build/mkq COMMAND --help"):
        "a placeholder: COMMAND stands for any command",
    ("docs/apply.md", "mkq state list [--policy PATH | --state FILE] [--format json]"):
        "a synopsis (brackets, placeholders)",
    ("docs/apply.md", "mkq state show ADDRESS"):
        "a synopsis (placeholder ADDRESS)",
    ("docs/apply.md", "mkq state unlock [--force]"):
        "a synopsis (brackets)",
    ("docs/apply.md", "mkq state rm ADDRESS... | --cluster NAME"):
        "a synopsis (placeholders)",
    ("docs/apply.md", "mkq history [RUN] [--limit N] [--format json]"):
        "a synopsis (brackets, placeholders)",
    ("docs/apply.md", "mkq state push --state kubernetes://manager-cluster/mkq-state/fleet [--file .mkq/state.db] [--force]"):
        "a synopsis (brackets)",
    ("docs/apply.md", "mkq state pull --state kubernetes://manager-cluster/mkq-state/fleet [--file .mkq/state.db] [--force]"):
        "a synopsis (brackets)",
    ("docs/apply.md", "mkq state rm --cluster worker2 --policy examples/tas"):
        "a scenario: a state of examples/tas whose worker2 is gone for good (the section above it)",
    ("docs/language.md", "mkq check --import-root shared policy/"):
        "illustrative: needs a policy/ that imports ../shared/ (its comment shows the layout)",
    ("docs/controller.md", "kubectl --context MANAGER create namespace mkq-system"):
        "a placeholder context MANAGER (a real manager cluster)",
    ("docs/controller.md", "kubectl --context MANAGER -n mkq-system create secret generic mkq-worker-WORKER --from-file=kubeconfig=WORKER.kubeconfig"):
        "placeholders MANAGER, WORKER (a worker's admin kubeconfig)",
    ("docs/controller.md", "kubectl --context MANAGER apply -f mkq-controller.yaml"):
        "a placeholder context MANAGER (a real manager cluster)",
    ("docs/controller.md", "kubectl --context MANAGER -n mkq-system rollout status deployment/mkq-controller"):
        "a placeholder context MANAGER; the sandbox runs no Deployment",
    ("docs/controller.md", "kubectl -n mkq-system create secret generic mkq-worker-WORKER --from-file=kubeconfig=WORKER.kubeconfig --dry-run=client -o yaml | kubectl apply --server-side --field-manager=mkq-credentials -f -"):
        "placeholders WORKER (a worker's admin kubeconfig); the current context of a real manager",
    ("docs/controller.md", "kubectl --context MANAGER delete -f mkq-controller.yaml"):
        "a placeholder context MANAGER (a real manager cluster)",
    ("docs/controller.md", "mkq controller --policy /etc/mkq/policy --state .mkq/state.db --sync auto --self-heal --interval 5m"):
        "the paths of the controller's container (/etc/mkq/policy, the ConfigMap's mount)",
    ("README.md", "build/mkq lsp"):
        "the language server speaks LSP on stdin until its client shuts it down (lsp.client drives it)",
    ("README.md", "build/mkq import ../shared/kueue/examples/single-clusterqueue-setup.yaml"):
        "reads ../shared, beside the repository, not in the scratch copy (importer.* imports every example)",
    ("README.md", "build/mkq import --context manager --worker worker1=worker1 -o fleet --adopt"):
        "needs a fleet made by hand under contexts manager and worker1 (e2e.import makes one and runs this)",
    ("docs/import.md", "mkq import FILE... [--worker NAME=FILE]... [--manager NAME] [-o PATH] [--credentials serviceaccount|kubeconfig]"):
        "a synopsis (brackets, placeholders)",
    ("docs/import.md", "mkq import --context CONTEXT [--worker NAME=CONTEXT]... [--kubeconfig FILE] [-o PATH] [--adopt] [--state FILE]"):
        "a synopsis (brackets, placeholders)",
    ("docs/import.md", "build/mkq import $E/manager-setup.yaml --worker worker1=$E/worker-setup.yaml --worker worker2=$E/worker-setup.yaml"):
        "$E is ../shared/kueue/examples, beside the repository (importer.* imports every example)",
    ("docs/import.md", "build/mkq import --context manager-cluster --worker multikueue-test-worker1=worker1-cluster -o fleet"):
        "needs the tutorial's fleet made by hand under these contexts (e2e.import makes one)",
    ("docs/lsp.md", "mkq lsp [--stdio] [--debounce MS] [--import-root DIR]..."):
        "a synopsis (brackets, placeholders)",
    ("docs/render.md", "kubectl --context manager apply --server-side -f gitops/manager.yaml"):
        "needs a kubeconfig whose context manager is the fleet's manager (e2e.gitops runs this against the sandbox)",
}


class Command:
    def __init__(self, doc, line, text, expect):
        self.doc = doc          # path relative to the repository
        self.line = line        # 1-based line of the command's first line
        self.text = text        # the command, continuation lines joined, comment dropped
        self.expect = expect    # the exit status it must have

    @property
    def where(self):
        return "%s:%d" % (self.doc, self.line)

    @property
    def words(self):
        return self.text.split()


def split_comment(line):
    """(LINE without its trailing `# comment`, the comment's text or None)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i].rstrip(), line[i + 1:].strip()
    return line.rstrip(), None


def is_command_start(line):
    words = line.split()
    if not words or line[0] in " \t" or line.endswith(":"):
        return False
    return words[0] in ("mkq", "build/mkq", "kubectl")


def extract(doc, lines):
    """The commands of one document, and problems with its fences."""
    commands, problems = [], []
    found, unclosed = fences(lines)
    if unclosed is not None:
        problems.append("%s:%d: a code block is not closed" % (doc, unclosed))
    for indent, info, start, raw in found:
        body = [(start + 2 + n, line[len(indent):] if line.startswith(indent) else line)
                for n, line in enumerate(raw)]
        if info not in SHELL_FENCES:
            continue
        transcript = any(text.startswith("$ ") for _, text in body)
        j = 0
        while j < len(body):
            number, text = body[j]
            j += 1
            if transcript:
                if not text.startswith("$ "):
                    continue
                text = text[2:]
            elif not is_command_start(text):
                continue
            while text.endswith("\\") and j < len(body):
                text = text[:-1].rstrip() + " " + body[j][1].strip()
                j += 1
            text, comment = split_comment(text)
            expected = EXPECT.match(comment) if comment else None
            commands.append(Command(doc, number, text, int(expected.group(1)) if expected else 0))
    return commands, problems


# ---------------------------------------------------------------- running

class Scratch:
    """A directory laid out like the repository, for one document's commands."""

    def __init__(self, mkq):
        self.mkq = os.path.abspath(mkq)
        self.path = tempfile.mkdtemp(prefix="mkq-doc-commands.")
        os.makedirs(os.path.join(self.path, "build"))
        os.symlink(self.mkq, os.path.join(self.path, "build", "mkq"))
        shutil.copytree(os.path.join(ROOT, "examples"), os.path.join(self.path, "examples"),
                        ignore=shutil.ignore_patterns(".mkq"))
        os.makedirs(os.path.join(self.path, "home"))
        self.env = {k: v for k, v in os.environ.items() if k not in ("KUBECONFIG", "NO_COLOR", "MKQ_STATE")}
        self.env["HOME"] = os.path.join(self.path, "home")
        self.env["PATH"] = os.path.join(self.path, "build") + os.pathsep + os.environ.get("PATH", "")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        # every sandbox a command started: a directory under a .mkq/ holding a kubeconfig
        for kubeconfig in glob.glob(os.path.join(self.path, "**", ".mkq", "**", "kubeconfig"),
                                    recursive=True):
            subprocess.run([self.mkq, "sandbox", "down", "--dir", os.path.dirname(kubeconfig)],
                           cwd=self.path, env=self.env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60, check=False)
        shutil.rmtree(self.path, ignore_errors=True)


def runnable(text):
    """TEXT with every pipeline stage whose program is not installed replaced by `cat >/dev/null`."""
    stages = text.split(" | ")
    for n, stage in enumerate(stages):
        program = stage.split()[0] if stage.split() else ""
        if n > 0 and program and "/" not in program and shutil.which(program) is None:
            stages[n] = "cat >/dev/null"
    return " | ".join(stages)


def output_tail(data):
    text = data.decode(errors="replace") if isinstance(data, bytes) else data
    lines = text.rstrip("\n").splitlines()
    return "\n".join("    " + line for line in lines[-15:])


def run_plain(scratch, cmd):
    # stdin is a terminal on which "yes" is already typed: mkq asks only on a terminal
    master, slave = os.openpty()
    os.write(master, b"yes\n")
    try:
        done = subprocess.run(["bash", "-o", "pipefail", "-c", runnable(cmd.text)], cwd=scratch.path,
                              env=scratch.env, stdin=slave, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=TIMEOUT, check=False)
    except subprocess.TimeoutExpired as e:
        return "did not end within %d s\n%s" % (TIMEOUT, output_tail(e.stdout or b""))
    finally:
        os.close(slave)
        os.close(master)
    if done.returncode != cmd.expect:
        return "exit %d, the doc shows %d\n%s" % (done.returncode, cmd.expect, output_tail(done.stdout))
    return None


def start_bounded(scratch, args):
    log = tempfile.TemporaryFile(dir=scratch.path)
    proc = subprocess.Popen(args, cwd=scratch.path, env=scratch.env, stdin=subprocess.DEVNULL,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    return proc, log


def read_log(log):
    log.seek(0)
    return log.read().decode(errors="replace")


def stop_bounded(proc, sig, allowed, log):
    proc.send_signal(sig)
    try:
        code = proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return "did not stop within 60 s of %s\n%s" % (sig.name, output_tail(read_log(log)))
    if code not in allowed:
        return "exit %d after %s, expected %s\n%s" % (code, sig.name, " or ".join(map(str, allowed)),
                                                     output_tail(read_log(log)))
    return None


def wait_for(seconds, check):
    """CHECK's first true answer within SECONDS; None when it answers False (given up) or time runs out."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        result = check()
        if result is False:
            return None
        if result:
            return result
        time.sleep(0.3)
    return None


def run_controller(scratch, cmd):
    """The controller until /healthz answers 200, then SIGTERM."""
    listen = "" if "--listen" in cmd.words else " --listen 127.0.0.1:0"  # never the shared :8080
    args = ["bash", "-c", "exec " + cmd.text + listen]
    proc, log = start_bounded(scratch, args)
    try:
        address = wait_for(30, lambda: (re.search(r" on (http://127\.0\.0\.1:\d+)", read_log(log))
                                        or (None if proc.poll() is None else False)))
        if not address:
            return "served no address within 30 s (exit %s)\n%s" % (proc.poll(), output_tail(read_log(log)))
        try:
            with urllib.request.urlopen(address.group(1) + "/healthz", timeout=10) as answer:
                status = answer.status
        except OSError as e:
            return "/healthz: %s\n%s" % (e, output_tail(read_log(log)))
        if status != 200:
            return "/healthz answered %d" % status
        return stop_bounded(proc, signal.SIGTERM, (0, 130), log)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def run_sandbox_serve(scratch, cmd):
    """`sandbox serve` until it says it serves and `sandbox status` shows it running, then SIGINT."""
    proc, log = start_bounded(scratch, ["bash", "-c", "exec " + cmd.text])
    status = cmd.text.replace(" serve", " status", 1)
    try:
        def up():
            if proc.poll() is not None:
                return False
            if "mkq sandbox serving from " not in read_log(log):
                return None
            done = subprocess.run(["bash", "-c", status], cwd=scratch.path, env=scratch.env,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, timeout=30)
            return (done.returncode == 0 and (": running (pid %d)" % proc.pid).encode() in done.stdout) or None
        if not wait_for(30, up):
            return "`%s` did not show it running within 30 s (serve: exit %s)\n%s" % (
                status, proc.poll(), output_tail(read_log(log)))
        return stop_bounded(proc, signal.SIGINT, (0,), log)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def kind(cmd):
    words = cmd.words
    if words[0] in ("mkq", "build/mkq") and len(words) > 1:
        if words[1] == "controller" and (len(words) < 3 or words[2] != "manifests"):
            return "controller"
        if words[1] == "sandbox" and "serve" in words[2:]:
            return "sandbox serve"
    return "plain"


RUNNERS = {"plain": run_plain, "controller": run_controller, "sandbox serve": run_sandbox_serve}


def main(argv):
    listing = "--list" in argv
    args = [a for a in argv if a != "--list"]
    if not args or any(a.startswith("-") for a in args):
        print("usage: doc_commands.py MKQ [--list] [DOC...]", file=sys.stderr)
        return 2
    mkq, docs = args[0], args[1:]
    if not docs:
        docs = ["README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))
    commands, problems = [], []
    for doc in docs:
        with open(os.path.join(ROOT, doc)) as f:
            found, bad = extract(doc, f.read().splitlines())
        commands += found
        problems += bad
    for p in problems:
        print(p)
    if listing:
        for cmd in commands:
            reason = NOT_RUN.get((cmd.doc, cmd.text))
            how = ("not run: " + reason) if reason else ("%s, exit %d" % (kind(cmd), cmd.expect))
            print("%s: %s    [%s]" % (cmd.where, cmd.text, how))
        return 1 if problems else 0
    if not os.access(mkq, os.X_OK):
        print("SKIPPED: %s is not an executable (build mkq first)" % mkq)
        return 77
    if shutil.which("kubectl") is None:
        print("SKIPPED: kubectl not found (the docs show kubectl lines; ./test.sh installs it)")
        return 77

    failed = []
    stale = [key for key in NOT_RUN if key[0] in docs
             and not any((c.doc, c.text) == key for c in commands)]
    started = time.monotonic()
    for doc in docs:
        mine = [c for c in commands if c.doc == doc]
        if not mine:
            continue
        doc_started = time.monotonic()
        with Scratch(mkq) as scratch:
            for cmd in mine:
                reason = NOT_RUN.get((cmd.doc, cmd.text))
                if reason:
                    print("%s: not run (%s): %s" % (cmd.where, reason, cmd.text))
                    continue
                t = time.monotonic()
                error = RUNNERS[kind(cmd)](scratch, cmd)
                if error:
                    failed.append(cmd)
                    print("%s: FAILED: %s\n  %s" % (cmd.where, cmd.text, error))
                else:
                    print("%s: ok (%.1f s): %s" % (cmd.where, time.monotonic() - t, cmd.text))
        print("%s: %d commands, %.1f s" % (doc, len(mine), time.monotonic() - doc_started))
    for doc, text in stale:
        print("%s: NOT_RUN names a command the document no longer shows: %s" % (doc, text))
    total = len(commands)
    skipped = sum(1 for c in commands if (c.doc, c.text) in NOT_RUN)
    print("%d commands: %d passed, %d failed, %d not run (NOT_RUN), %.0f s"
          % (total, total - skipped - len(failed), len(failed), skipped, time.monotonic() - started))
    return 1 if failed or stale or problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
