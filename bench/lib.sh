# Sourced by the shell benchmarks: what each of them needs, in one place.
#
# bench_setup MKQ: a temporary directory $tmp, removed at exit with every
# sandbox started in it ($tmp/sb*; a `cleanup_extra` function, if defined, runs
# first), HOME set to it, no color, no KUBECONFIG: each run starts from nothing
# a user's files could change. Needs GNU time (/usr/bin/time).
bench_setup() {
  bench_mkq=$1
  [ -x /usr/bin/time ] || { echo "bench/$(basename "$0") needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
  tmp=$(mktemp -d)
  trap bench_cleanup EXIT
  export HOME=$tmp NO_COLOR=1
  unset KUBECONFIG
}
bench_cleanup() {
  if declare -F cleanup_extra >/dev/null; then cleanup_extra; fi
  for d in "$tmp"/sb*; do [ -d "$d" ] && "$bench_mkq" sandbox down --dir "$d" >/dev/null 2>&1 || true; done
  rm -rf "$tmp"
}
# Milliseconds since the epoch.
ms() { echo $(($(date +%s%N) / 1000000)); }
# The median of the numbers on standard input, one a line.
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# cpu_ms FILE: the user + system time GNU time wrote to FILE's last line (-f "%U %S ..."), in ms.
cpu_ms() { tail -1 "$1" | awk '{printf "%d", ($1 + $2) * 1000}'; }
# cpu_of PID: the CPU time (user + system) of process PID so far, in ms.
cpu_of() { awk -v hz="$(getconf CLK_TCK)" '{printf "%d", ($14 + $15) * 1000 / hz}' "/proc/$1/stat"; }
# clusters_of DIR: the clusters `mkq render` writes for the policy in DIR, in order, comma-separated.
clusters_of() { "$bench_mkq" render "$1" 2>/dev/null | sed -n 's/^# cluster: \([^ ]*\) .*/\1/p' | awk '!seen[$0]++' | paste -sd, -; }
# sandbox_pid DIR: the process serving the sandbox in DIR.
sandbox_pid() { sed -n 's/.*"pid": *\([0-9]*\).*/\1/p' "$1/state.json" | head -1; }
# peak_mib FILE: the peak RSS GNU time wrote to FILE's last line (-f "%U %S %M"), in MiB.
peak_mib() { tail -1 "$1" | awk '{printf "%.1f", $3 / 1024}'; }
# refresh_counts FILE: "N LISTs, M requests" from the refresh line `mkq plan -v` wrote to FILE.
refresh_counts() { sed -n 's/.*refresh.*(\([0-9]*\) LISTs, \([0-9]*\) requests in all).*/\1 LISTs, \2 requests/p' "$1"; }
