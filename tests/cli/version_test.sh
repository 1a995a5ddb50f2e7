#!/usr/bin/env bash
# version_test.sh MKQ — `mkq version` names the commit the binary was built
# from (the checkout's HEAD when the tests run from a git checkout, as in CI)
# and the Kueue API versions mkq writes; `--format json` is one JSON document
# with the same facts and a format_version.
set -u
mkq=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
failures=0

text=$("$mkq" version) || { echo "FAIL text: exit $?"; exit 1; }
json=$("$mkq" version --format json) || { echo "FAIL json: exit $?"; exit 1; }
head=$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)

if printf '%s\n' "$text" | grep -qx "commit $head" && printf '%s\n' "$text" | grep -qx "Kueue API kueue.x-k8s.io/v1beta2 (configuration config.kueue.x-k8s.io/v1beta2)"; then
  echo "ok   text"
else
  echo "FAIL text (HEAD $head):"; printf '%s\n' "$text"; failures=$((failures + 1))
fi

if /usr/bin/python3 - "$head" <<EOF2 <<<"$json"
import json, sys
doc = json.load(sys.stdin)
assert doc["format_version"] == 1, doc
assert doc["commit"] == sys.argv[1], (doc["commit"], sys.argv[1])
assert doc["kueue_api_versions"] == ["kueue.x-k8s.io/v1beta2"], doc
assert doc["kueue_config_api_version"] == "config.kueue.x-k8s.io/v1beta2", doc
assert doc["version"].count(".") == 2, doc
EOF2
then
  echo "ok   json"
else
  echo "FAIL json:"; printf '%s\n' "$json"; failures=$((failures + 1))
fi

[ $failures -eq 0 ] || { echo "$failures failed"; exit 1; }
