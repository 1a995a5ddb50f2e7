#!/usr/bin/env bash
# mkq's first command: install what is missing (Debian 12 packages; idempotent),
# build mkq into ./build, and do mkq's main job once: apply examples/quickstart to
# the sandbox, wait until every Kueue object is Active, show that the next plan is
# clean (scripts/tour.sh). The sandbox keeps running; the last line says how to stop it.
#
#   ./setup.sh              install, build mkq, apply the quickstart to the sandbox
#   ./setup.sh --no-tour    install and build mkq only
#   ./setup.sh --test-deps  also install what only the tests need: the Java runtime
#                           and the ANTLR tool (the grammar's staleness test), Node and
#                           npm (the editor tests; they `npm ci` the pinned tools of
#                           editors/vscode themselves), the Python Kubernetes client,
#                           zsh and fish (the completion scripts' test)
#   ./setup.sh --deps-only  install only, build nothing (./test.sh: --deps-only --test-deps)
#
# Only mkq itself is built here; ./test.sh builds the tests.
set -euo pipefail
cd "$(dirname "$0")"

tour=1 build=1 test_deps=0
for arg in "$@"; do
  case "$arg" in
    --no-tour) tour=0 ;;
    --test-deps) test_deps=1 ;;
    --deps-only) build=0 tour=0 ;;
    *)
      echo "setup.sh: error: unknown option $arg (options: --no-tour, --test-deps, --deps-only)" >&2
      exit 2
      ;;
  esac
done

# What each package is for is listed in README.md ("Dependencies").
packages=(
  g++ cmake make pkg-config ccache
  libantlr4-runtime-dev uuid-dev
  nlohmann-json3-dev libcli11-dev libfmt-dev catch2 libyaml-cpp-dev
  libssl-dev libsqlite3-dev libcpp-httplib-dev openssl libcurl4-openssl-dev libgoogle-perftools-dev zlib1g-dev
)
if [ $test_deps = 1 ]; then
  packages+=(
    antlr4 default-jre-headless
    python3 python3-kubernetes python3-yaml python3-jsonschema
    nodejs npm
    zsh fish
    lua5.1
  )
fi

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

[ $build = 1 ] || exit 0

echo "==> building mkq (build/mkq)"
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target mkq

[ $tour = 1 ] || exit 0

echo
echo "==> mkq's main job: apply examples/quickstart to the sandbox (local clusters mkq starts; no kubeconfig is used)"
scripts/tour.sh
