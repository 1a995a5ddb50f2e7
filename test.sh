#!/usr/bin/env bash
# mkq's second command: build (if needed) and run every test.
set -euo pipefail
cd "$(dirname "$0")"
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
cd build
ctest --output-on-failure -j"$(nproc)" "$@"
