#!/usr/bin/env bash
# completion_test.sh MKQ — `mkq completion bash|zsh|fish` and `mkq man` (issue 17,
# item 6). Each script loads in its shell without an error and completes what
# the parser accepts: commands, subcommands, flags (parents' flags that fall
# through included), a flag's set of values, file names for a policy's PATH.
# bash is always run; zsh and fish are run when installed (./setup.sh
# --test-deps installs them) and reported as skipped otherwise. The man page
# is checked with groff's warnings on, and must name every command.
set -u
mkq=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

check() {  # NAME EXPECTED ACTUAL
  if [ "$2" != "$3" ]; then
    echo "FAIL $1"; echo "     expected: $2"; echo "     actual:   $3"
    failures=$((failures + 1))
  else
    echo "ok   $1"
  fi
}

for shell in bash zsh fish; do
  "$mkq" completion "$shell" >"$work/mkq.$shell" || { echo "FAIL mkq completion $shell: exit $?"; failures=$((failures + 1)); }
done

# ---- bash: the words COMPREPLY gets for a command line (the last word is the one completed)
bash_complete() {
  bash --norc --noprofile -c '
    source "$1" || exit 3
    shift
    cd "$1" && shift
    COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    _mkq
    printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' _ "$work/mkq.bash" "$work/files" "$@"
}
mkdir -p "$work/files/policies"
touch "$work/files/fleet.mkq"
check "bash: the script loads and registers _mkq" "complete -o filenames -F _mkq mkq" \
  "$(bash --norc --noprofile -c 'source "$1" && complete -p mkq' _ "$work/mkq.bash" 2>&1)"
check "bash: commands" "plan " "$(bash_complete mkq pl)"
check "bash: every command" \
  "$("$mkq" --help | awk '/^Subcommands:/ {on=1; next} on && /^  [a-z]/ {print $1}' | sort | tr '\n' ' ')" \
  "$(bash_complete mkq '')"
check "bash: subcommands" "list " "$(bash_complete mkq state l)"
check "bash: nested after an option" "up " "$(bash_complete mkq sandbox --clusters a,b u)"
check "bash: a command's flags" "--auto-approve " "$(bash_complete mkq apply --auto)"
check "bash: a parent's flag falls through" "--no-color " "$(bash_complete mkq check --no-c)"
check "bash: a flag's values" "json text " "$(bash_complete mkq check --format '')"
check "bash: --flag=value" "json " "$(bash_complete mkq render --format = j)"
check "bash: a policy's PATH is a file" "fleet.mkq " "$(bash_complete mkq plan fl)"
check "bash: a DIR value is a directory" "policies " "$(bash_complete mkq check --import-root p)"
check "bash: completion's shells" "bash " "$(bash_complete mkq completion ba)"

# ---- zsh: loads after compinit and registers _mkq for mkq
if command -v zsh >/dev/null 2>&1; then
  check "zsh: the script parses" "" "$(zsh -n "$work/mkq.zsh" 2>&1)"
  check "zsh: the script loads and registers _mkq" "_mkq" \
    "$(HOME=$work zsh -f -c 'autoload -U compinit && compinit -u -D && source "$1" && print -r -- $_comps[mkq]' _ "$work/mkq.zsh" 2>&1)"
else
  echo "skip zsh: not installed (./setup.sh --test-deps installs it)"
fi

# ---- fish: `complete -C` asks fish what it would offer
if command -v fish >/dev/null 2>&1; then
  fish_complete() {
    (cd "$work/files" && HOME=$work XDG_CONFIG_HOME=$work/config fish --no-config -c \
      'source $argv[1]; complete -C $argv[2]' "$work/mkq.fish" "$1" 2>&1 | cut -f1 | sort | tr '\n' ' ')
  }
  check "fish: the script parses" "" "$(fish --no-execute "$work/mkq.fish" 2>&1)"
  check "fish: commands" "plan " "$(fish_complete 'mkq pl')"
  check "fish: subcommands" "list " "$(fish_complete 'mkq state l')"
  check "fish: a command's flags" "--auto-approve " "$(fish_complete 'mkq apply --auto')"
  check "fish: a flag's values" "json text " "$(fish_complete 'mkq check --format ')"
  check "fish: a policy's PATH is a file" "fleet.mkq " "$(fish_complete 'mkq plan fl')"
else
  echo "skip fish: not installed (./setup.sh --test-deps installs it)"
fi

# ---- the man page: no roff warning, and every command has its section
"$mkq" man >"$work/mkq.1"
if command -v groff >/dev/null 2>&1; then
  check "man: groff reads it without a warning" "" "$(groff -man -Tutf8 -ww -z "$work/mkq.1" 2>&1)"
  rendered=$(groff -man -Tutf8 -P-c -P-b -P-u "$work/mkq.1" 2>/dev/null)
  missing=
  for command in $("$mkq" --help | awk '/^Subcommands:/ {on=1; next} on && /^  [a-z]/ {print $1}'); do
    grep -q "^   mkq $command \[OPTIONS\]" <<<"$rendered" || missing+="$command "
  done
  check "man: a section for every command" "" "$missing"
  check "man: a flag with its values" "       --format text|json" \
    "$(grep -m1 -- '--format text|json' <<<"$rendered")"
else
  echo "skip man: groff is not installed"
fi

[ $failures -eq 0 ] || { echo "$failures failed"; exit 1; }
echo "all passed"
