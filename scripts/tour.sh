#!/usr/bin/env bash
# mkq's main job, once: how ./setup.sh ends. Applies examples/quickstart to the
# sandbox and waits until every Kueue object is Active, shows their status (the
# MultiKueue tutorial's three checks, and the queues), shows that the next plan has
# no changes, and says how to look with kubectl and how to stop the sandbox.
#
# Run from the repository's root (setup.sh does), or from a directory laid out like
# it — build/mkq and examples/quickstart — as scripts/readme_transcripts.py does, so
# that every command and path it prints is one to type from there.
#
# `--sandbox`: the sandbox even where a kubeconfig exists; this never touches a
# real cluster. Idempotent: a second run applies nothing and shows the same end.
# Exit 0 only when the apply succeeded, every object is Active and the plan is clean.
set -euo pipefail

mkq=build/mkq
policy=examples/quickstart
sandbox=$policy/.mkq/sandbox

run() {
  echo
  echo "\$ $*"
  "$@"
}

run "$mkq" apply "$policy" --sandbox --auto-approve --wait
run "$mkq" status "$policy" --sandbox
run "$mkq" plan "$policy" --sandbox --detailed-exitcode
echo
echo "Look with kubectl: kubectl --kubeconfig $sandbox/kubeconfig --context manager-cluster get clusterqueues,admissionchecks,multikueueclusters"
echo "The sandbox keeps running (pid $(cat "$sandbox/sandbox.pid")); stop it with: $mkq sandbox down --dir $sandbox"
