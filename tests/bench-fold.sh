#!/bin/sh
# make bench, pd-fold part (tests/bench.sh runs it; it also runs alone):
# wall time and peak RSS of `pd-fold FILE` next to `perf script -i FILE |
# stackcollapse-perf.pl` (when $PD_STACKCOLLAPSE names the script or it is
# in PATH; else next to `perf script` alone), on a frame-pointer profile
# of a mixed workload (testdata's burn, threads and inl in turn; a few
# hundred thousand samples) and on a DWARF one, in the same run; the two
# foldings must be identical. Then pd-fold's peak RSS on a profile about
# 4x larger: memory must not grow with the input. The recordings are
# made once with the system perf and kept in $B/bench/.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$top/$B ;; esac
dir=$B/bench
bin=$top/testdata/bin
rounds=${PD_BENCH_FOLD_ROUNDS:-24}

if ! command -v perf >/dev/null 2>&1 || [ ! -x /usr/bin/time ]; then
	echo "bench-fold: needs perf and GNU time (apt-get install linux-perf time)" >&2
	exit 1
fi
sc=${PD_STACKCOLLAPSE:-$(command -v stackcollapse-perf.pl || :)}
mkdir -p "$dir"

# the workload: burn, threads (3 threads) and inl in turn, N rounds of
# about 1.5 s
workload() {
	echo "i=0; while [ \$i -lt $1 ]; do $bin/burn 500; $bin/threads; $bin/inl 300; i=\$((i + 1)); done"
}
record() { # FILE ROUNDS PERF-RECORD-OPTIONS...
	_f=$1 _s=$2; shift 2
	[ -s "$_f" ] && return 0
	echo "bench-fold: recording $_f (once)" >&2
	perf record -q -o "$_f" -e cpu-clock "$@" -- sh -c "$(workload "$_s")" \
		>/dev/null 2>&1 || { echo "bench-fold: perf record failed" >&2; exit 1; }
}
record "$dir/fold-fp.data" "$rounds" -g -F 20000
record "$dir/fold-fp4.data" $((rounds * 4)) -g -F 20000
record "$dir/fold-dwarf.data" $((rounds / 4)) --call-graph dwarf -F 4000

# measure OUT CMD...: one run; prints "seconds peak-RSS-KiB cpu-seconds"
# (RSS: the largest process of a pipeline; CPU: user + system of all of
# it, the fairer measure on a machine busy with other jobs), output in OUT
measure() {
	_o=$1; shift
	/usr/bin/time -f '%e %M %U %S' -o "$dir/time" "$@" >"$_o" 2>/dev/null </dev/null || true
	awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' "$dir/time"
}
samples() {
	perf report --stats -i "$1" 2>/dev/null </dev/null |
		awk '/SAMPLE events:/ { print $3; exit }'
}

echo "pd-fold: $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); perf $(perf --version | awk '{ print $3 }')"
if [ -n "$sc" ]; then
	theirs="perf script | stackcollapse-perf.pl"
else
	theirs="perf script (no stackcollapse-perf.pl: PD_STACKCOLLAPSE)"
fi
printf '%-42s %8s %10s %8s\n' "" seconds "peak RSS" "CPU s"
for kind in fp dwarf; do
	f=$dir/fold-$kind.data
	mb=$(awk -v s="$(stat -c %s "$f")" 'BEGIN { printf "%.0f", s / 1048576 }')
	echo "$kind: $(samples "$f") samples, $mb MB"
	cat "$f" >/dev/null
	set -- $(measure "$dir/fold.pd" "$B/bin/pd-fold" -q "$f")
	pd_t=$1 pd_c=$3
	printf '%-42s %8.2f %6d KiB %8.2f\n' "  pd-fold FILE" "$1" "$2" "$3"
	if [ -n "$sc" ]; then
		set -- $(measure "$dir/fold.pl" sh -c 'perf script -i "$1" 2>/dev/null | perl "$2"' - "$f" "$sc")
	else
		set -- $(measure "$dir/fold.pl" perf script -i "$f")
	fi
	printf '%-42s %8.2f %6d KiB %8.2f\n' "  $theirs" "$1" "$2" "$3"
	awk -v a="$pd_t" -v b="$1" -v c="$pd_c" -v d="$3" 'BEGIN {
		printf "  pd-fold: %.1fx the speed (%.1fx less CPU time)\n",
			b / (a > 0 ? a : 0.01), d / (c > 0 ? c : 0.01) }'
	if [ -n "$sc" ]; then
		if cmp -s "$dir/fold.pd" "$dir/fold.pl"; then
			echo "  folded stacks: OK (identical, $(wc -l <"$dir/fold.pd") lines)"
		else
			echo "  folded stacks: DIFFERENT"
			diff "$dir/fold.pl" "$dir/fold.pd" | head -4 | cut -c1-200
		fi
	fi
done
f=$dir/fold-fp4.data
set -- $(measure "$dir/fold.pd" "$B/bin/pd-fold" -q "$f")
echo "memory: pd-fold on $(samples "$f") samples ($(awk -v s="$(stat -c %s "$f")" 'BEGIN { printf "%.0f", s / 1048576 }') MB): $1 s, $2 KiB peak RSS"
rm -f "$dir/fold.pd" "$dir/fold.pl" "$dir/time"
