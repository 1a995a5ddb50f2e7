#!/usr/bin/env bash
# Rewrites every golden expected file from the current mkq. Review the diff!
#   tests/lang/refresh.sh [path/to/mkq]   (default: build/mkq)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mkq=$(realpath "${1:-$here/../../build/mkq}")
cd "$here"
for f in ok/*.mkq error/*.mkq; do
  [ -e "$f" ] || continue
  ./golden.sh "$mkq" "$f" --update
done
for f in render/*.mkq; do
  [ -e "$f" ] || continue
  ./render_golden.sh "$mkq" "$f" --update
done
for d in ../../examples/*/; do
  ./render_golden.sh "$mkq" "examples/$(basename "$d")" --update
done
echo "refreshed; review with: git diff -- tests/lang"
