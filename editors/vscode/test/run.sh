#!/bin/sh
# Headless tests of the VS Code extension (no VS Code needed).
#
#   test/run.sh grammar    manifest + snippets, grammar assertion tests, snapshot tests
#   test/run.sh keywords   the TextMate grammar highlights exactly the keywords of Mkq.g4
#   test/run.sh package    the client (extension.js, with fakes of VS Code) and the .vsix
#                          that `vsce package` builds: its files and package.json
#   test/run.sh all        all three
#   test/run.sh update     regenerate test/snapshots/*.snap after an intended grammar change
#
# Installs the pinned test tools with `npm ci` when node_modules is missing or older
# than package-lock.json (this needs the npm registry). Exits 77 (CTest's
# SKIP_RETURN_CODE) when node or npm is not installed.
set -u

here=${0%/*}
[ "$here" = "$0" ] && here=.
cd "$here/.." || exit 1

what=${1:-all}
case $what in
  grammar|keywords|package|all|update) ;;
  *) echo "usage: $0 grammar|keywords|package|all|update" >&2; exit 2 ;;
esac

if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  echo "SKIPPED: npm not found — editor tests ($what) not run"
  exit 77
fi

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "installing the editor test tools: npm ci (in $(pwd))"
  if ! npm ci --no-audit --no-fund --loglevel=error; then
    echo "FAILED: npm ci did not complete (the npm registry must be reachable to install vscode-tmgrammar-test, vsce and vscode-languageclient)"
    exit 1
  fi
fi

tools=node_modules/vscode-tmgrammar-test/dist
status=0

run() {
  echo "\$ $*"
  "$@" || status=1
}

if [ "$what" = update ]; then
  node "$tools/snapshot.js" --updateSnapshot 'test/snapshots/*.mkq'
  exit $?
fi

if [ "$what" = grammar ] || [ "$what" = all ]; then
  run node test/manifest.test.js
  run node "$tools/unit.js" --compact 'test/grammar/*.test.mkq'
  # The snapshot tool silently creates a missing .snap: a missing one is a failure here.
  for src in test/snapshots/*.mkq; do
    if [ ! -f "$src.snap" ]; then
      echo "FAIL $src has no snapshot: run test/run.sh update and review $src.snap"
      status=1
    fi
  done
  [ $status -eq 0 ] && run node "$tools/snapshot.js" 'test/snapshots/*.mkq'
fi

if [ "$what" = keywords ] || [ "$what" = all ]; then
  run node test/keywords.test.js
fi

if [ "$what" = package ] || [ "$what" = all ]; then
  run node test/client.test.js
  out=$(mktemp -d) || exit 1
  # --skip-license: the project declares no licence file (package.json says UNLICENSED).
  run node node_modules/@vscode/vsce/vsce package --skip-license --out "$out/mkq.vsix"
  [ -f "$out/mkq.vsix" ] && run node test/vsix.test.js "$out/mkq.vsix"
  [ -f "$out/mkq.vsix" ] || { echo "FAIL vsce wrote no .vsix"; status=1; }
  rm -rf "$out"
fi

if [ $status -eq 0 ]; then echo "editor tests ($what): passed"; else echo "editor tests ($what): FAILED"; fi
exit $status
