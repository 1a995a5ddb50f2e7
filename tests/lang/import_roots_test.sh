#!/usr/bin/env bash
# import_roots_test.sh MKQ
# Imports are confined to the policy's directory and std/ (docs/language.md,
# "Imports"): `import "/etc/passwd"` is refused without a line of the file in
# the diagnostic, as text or JSON; --import-root allows another directory.
# The control run with `--import-root /etc` shows that the same grep does find
# the file's text when the import is allowed, so the check cannot pass by
# accident.
set -u
mkq=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

if [ ! -r /etc/passwd ] || [ ! -s /etc/passwd ]; then
  echo "SKIPPED: /etc/passwd is not readable" && exit 77
fi
# Every non-empty line of /etc/passwd, as fixed strings to look for.
grep -v '^$' /etc/passwd >"$work/passwd-lines"
first_line=$(head -n 1 "$work/passwd-lines")

cd "$here"
case_file=error/import-absolute.mkq

# -- refused: text and JSON, exit 1, E2085, no text of the file
for format in text json; do
  "$mkq" --no-color check --format "$format" "$case_file" >"$work/out" 2>&1
  status=$?
  [ $status = 1 ] || fail "check --format $format exited $status, expected 1"
  grep -q 'E2085' "$work/out" || fail "check --format $format: no E2085 in: $(cat "$work/out")"
  if grep -F -q -f "$work/passwd-lines" "$work/out"; then
    fail "check --format $format quotes /etc/passwd: $(grep -F -f "$work/passwd-lines" "$work/out")"
  fi
done
# The other commands that compile refuse it the same way (before any cluster).
for command in eval render graph; do
  "$mkq" --no-color "$command" "$case_file" >"$work/out" 2>&1
  status=$?
  [ $status = 1 ] || fail "$command exited $status, expected 1"
  grep -q 'E2085' "$work/out" || fail "$command: no E2085 in: $(cat "$work/out")"
  grep -F -q -f "$work/passwd-lines" "$work/out" && fail "$command quotes /etc/passwd"
done

# -- control: allowed with --import-root /etc, the file is read (it is no
# policy, so it fails to parse) and its first line is quoted: the grep works.
"$mkq" --no-color check --import-root /etc "$case_file" >"$work/out" 2>&1
grep -F -q -- "$first_line" "$work/out" ||
  fail "control: with --import-root /etc the diagnostic should quote /etc/passwd's first line; got: $(cat "$work/out")"
grep -q 'E2085' "$work/out" && fail "control: --import-root /etc still refused the import"

# -- allowed: a shared directory beside the policy, named by --import-root
mkdir -p "$work/policy" "$work/shared"
printf 'let cpu = 4\n' >"$work/shared/teams.mkq"
printf 'import "../shared/teams.mkq"\nmanager "m" {}\nflavor "f" {}\nclusterqueue "q" {\n  quota "f" { cpu = teams.cpu }\n}\n' \
  >"$work/policy/main.mkq"
"$mkq" --no-color check "$work/policy" >"$work/out" 2>&1 && fail "check without --import-root should refuse ../shared"
grep -q 'E2085' "$work/out" || fail "check without --import-root: no E2085 in: $(cat "$work/out")"
"$mkq" --no-color check --import-root "$work/shared" "$work/policy" >"$work/out" 2>&1 ||
  fail "check --import-root shared: $(cat "$work/out")"
"$mkq" --no-color eval "$work/policy" --import-root "$work/shared" >"$work/out" 2>&1 ||
  fail "eval --import-root shared: $(cat "$work/out")"
grep -q '"nominal_quota"\|"cpu"' "$work/out" || fail "eval --import-root shared printed no model: $(cat "$work/out")"
# A root that is not a directory is a usage error.
"$mkq" --no-color check --import-root "$work/none" "$work/policy" >"$work/out" 2>&1 &&
  fail "check --import-root of a missing directory should fail"
grep -q 'none' "$work/out" || fail "--import-root of a missing directory: the message does not name it: $(cat "$work/out")"

if [ $failures != 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "ok"
