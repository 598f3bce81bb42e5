#!/bin/sh
# make bench, pd-record part (tests/bench.sh runs it; it also runs alone):
# how much recording slows a CPU-bound program with a fixed amount of work
# (testdata's plt, $PD_BENCH_RECORD_ROUNDS rounds, about a second), with
# frame-pointer callchains at 999 Hz: bare, under perf record and under
# pd-record, the three interleaved, best of $PD_BENCH_RECORD_RUNS each, in
# the same run. Wall time and CPU time (user + system of the whole process
# tree: the recorder, its kernel work, the program) are both shown, as
# slowdowns against the bare run.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$top/$B ;; esac
dir=$B/bench
prog=$top/testdata/bin/plt
rounds=${PD_BENCH_RECORD_ROUNDS:-70000000}
runs=${PD_BENCH_RECORD_RUNS:-5}

if ! command -v perf >/dev/null 2>&1 || [ ! -x /usr/bin/time ]; then
	echo "bench-record: needs perf and GNU time (apt-get install linux-perf time)" >&2
	exit 1
fi
mkdir -p "$dir"

# one run: "WALL CPU" seconds
timed() {
	/usr/bin/time -f '%e %U %S' -o "$dir/rtime" "$@" >/dev/null 2>&1 </dev/null || {
		echo "bench-record: failed: $*" >&2; exit 1; }
	awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$dir/rtime"
}
best() { # OLD NEW: the smaller
	awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b < a) ? b : a }'
}

bw= bc= pw= pc= dw= dc=
i=0
while [ $i -lt "$runs" ]; do
	set -- $(timed "$prog" "$rounds"); bw=$(best "$bw" "$1"); bc=$(best "$bc" "$2")
	set -- $(timed perf record -q -g -e cpu-clock -F 999 -o "$dir/rec-perf.data" -- "$prog" "$rounds")
	pw=$(best "$pw" "$1"); pc=$(best "$pc" "$2")
	set -- $(timed "$B/bin/pd-record" -q -g -e cpu-clock -F 999 -o "$dir/rec-pd.data" -- "$prog" "$rounds")
	dw=$(best "$dw" "$1"); dc=$(best "$dc" "$2")
	i=$((i + 1))
done
samples() {
	"$B/bin/pd-info" --stats "$1" 2>/dev/null | awk '/SAMPLE events/ { print $3; exit }'
}
echo "recording: testdata/bin/plt $rounds, -g -e cpu-clock -F 999, best of $runs; $(nproc) CPUs"
printf '%-14s %8s %8s %14s %14s %9s\n' "" "wall s" "CPU s" "wall slowdown" "CPU slowdown" samples
row() { # NAME WALL CPU SAMPLES
	awk -v n="$1" -v w="$2" -v c="$3" -v bw="$bw" -v bc="$bc" -v s="$4" 'BEGIN {
		printf "%-14s %8.2f %8.2f %13.1f%% %13.1f%% %9s\n", n, w, c,
			100 * (w - bw) / bw, 100 * (c - bc) / bc, s
	}'
}
row "bare" "$bw" "$bc" "-"
row "perf record" "$pw" "$pc" "$(samples "$dir/rec-perf.data")"
row "pd-record" "$dw" "$dc" "$(samples "$dir/rec-pd.data")"
awk -v p="$pw" -v d="$dw" -v pc="$pc" -v dc="$dc" 'BEGIN {
	printf "pd-record slows the program %s perf record does (wall %.2f s vs %.2f s, CPU %.2f s vs %.2f s)\n",
		(d <= p * 1.02 && dc <= pc * 1.02) ? "no more than" : "MORE than", d, p, dc, pc
}'
rm -f "$dir/rec-perf.data" "$dir/rec-pd.data" "$dir/rtime"
