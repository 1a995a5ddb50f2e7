#!/usr/bin/env bash
# mkq's first command: install what is missing (Debian 12 packages; idempotent),
# build mkq into ./build, and run it on the quickstart example.
#
#   ./setup.sh            install, build, tour
#   ./setup.sh --no-tour  install and build only (used by CI)
set -euo pipefail
cd "$(dirname "$0")"

tour=1
[ "${1:-}" = "--no-tour" ] && tour=0

# What each package is for is listed in README.md ("Dependencies").
packages=(
  g++ cmake make pkg-config ccache
  antlr4 default-jre-headless libantlr4-runtime-dev uuid-dev
  nlohmann-json3-dev libcli11-dev catch2 libyaml-cpp-dev
  libssl-dev libsqlite3-dev libcpp-httplib-dev openssl libcurl4-openssl-dev libgoogle-perftools-dev
  python3 python3-kubernetes python3-yaml
  nodejs npm
)

missing=()
for p in "${packages[@]}"; do
  # nodejs/npm may come from elsewhere (the image has node 20 and npm 11): a working command is enough.
  case "$p" in
    nodejs) command -v node >/dev/null 2>&1 && continue ;;
    npm) command -v npm >/dev/null 2>&1 && continue ;;
  esac
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "==> installing: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "==> all packages present"
fi

echo "==> building mkq (build/)"
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"

[ $tour = 1 ] || exit 0

run() { echo; echo "\$ $*"; "$@" || true; }
echo
echo "==> a short tour"
run build/mkq check examples/quickstart
echo
echo "# the main command: the Kubernetes objects of the manager and of every worker"
run build/mkq render examples/quickstart
run build/mkq check examples/gpu-fleet
echo
echo "\$ build/mkq eval examples/quickstart | head -n 30     # the evaluated policy model, as JSON"
build/mkq eval examples/quickstart | head -n 30
echo "  ..."
echo
echo "\$ build/mkq fmt --check examples      # exit 0: every example is in the canonical layout"
build/mkq fmt --check examples && echo "(all formatted)"
echo
echo "# a policy with mistakes: every error of a run, each pointing at its source"
run build/mkq check tests/lang/error/tour-typos.mkq
echo
echo "Next: ./test.sh runs every test; docs/language.md is the language reference."
