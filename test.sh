#!/usr/bin/env bash
# mkq's second command: install what only the tests need (./setup.sh --deps-only
# --test-deps: the Java runtime, the ANTLR tool, Node and npm, the Python Kubernetes
# client; nothing when they are present), build everything (if needed) and run
# every test. Arguments go to ctest (./test.sh -R lang).
set -euo pipefail
cd "$(dirname "$0")"
# Without them the tests that need them are skipped, not failed: go on, and say so.
./setup.sh --deps-only --test-deps ||
  echo "==> test.sh: the tests' packages could not be installed; the tests that need them will be skipped" >&2
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
# Configure when there is no build yet, and again when the antlr4 tool has been
# installed since (setup.sh's build had none): the grammar is then regenerated and checked.
if [ ! -f build/CMakeCache.txt ] ||
  { command -v antlr4 >/dev/null 2>&1 && grep -q '^ANTLR4_EXECUTABLE:FILEPATH=.*NOTFOUND' build/CMakeCache.txt; }; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build build -j"$(nproc)"
cd build
ctest --output-on-failure -j"$(nproc)" "$@"
