#!/bin/sh
# make bench, pd-flame part (tests/bench.sh runs it after bench-fold.sh,
# whose frame-pointer profile it draws; it also runs alone): wall time,
# CPU time and peak RSS of `pd-flame FOLDED` next to `flamegraph.pl
# FOLDED` ($PD_FLAMEGRAPH, else flamegraph.pl on PATH; without it only
# pd-flame is timed), on two inputs made from the profile:
#   sorted  pd-fold's output (one line per distinct stack);
#   time    pd-fold --chronological's (a line per run of equal samples:
#           about 50 times the lines, unsorted), drawn as a flame graph
#           (both tools sort it) and as a flame chart (--flamechart).
# The rectangles of the two SVGs must agree (tests/tools/flame-rects.awk,
# within a pixel), or the speed means nothing. The two tools take turns,
# five rounds, and each keeps its best round: on a shared machine other
# jobs only ever add time, so the best round is the least disturbed.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$top/$B ;; esac
dir=$B/bench
prof=$dir/fold-fp.data
rects=$top/tests/tools/flame-rects.awk

if [ ! -s "$prof" ]; then
	echo "bench-flame: $prof missing: run tests/bench-fold.sh (make bench) first" >&2
	exit 1
fi
if [ ! -x /usr/bin/time ]; then
	echo "bench-flame: needs GNU time (apt-get install time)" >&2
	exit 1
fi
fg=${PD_FLAMEGRAPH:-$(command -v flamegraph.pl || :)}

"$B/bin/pd-fold" -q "$prof" >"$dir/flame.folded"
"$B/bin/pd-fold" -q --chronological "$prof" >"$dir/flame-time.folded"

# per_run K OUT CMD...: K runs in a row, timed together (the runs are
# short: one alone is below GNU time's 10 ms resolution, and a busy
# machine's noise); prints per run "seconds peak-KiB cpu-seconds"
per_run() {
	_k=$1 _o=$2; shift 2
	/usr/bin/time -f '%e %M %U %S' -o "$dir/time" sh -c '
		k=$1 o=$2; shift 2
		i=0; while [ $i -lt $k ]; do "$@" >"$o" 2>/dev/null </dev/null; i=$((i + 1)); done
	' - "$_k" "$_o" "$@" || true
	awk -v k="$_k" '{ printf "%.4f %s %.4f", $1 / k, $2, ($3 + $4) / k }' "$dir/time"
}

# best A B: the smaller of two per_run results, field by field
best() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a == "") { print b; exit }
		split(a, x, " "); split(b, y, " ")
		for (i = 1; i <= 3; i++) printf "%s%s", (y[i] + 0 < x[i] + 0 ? y[i] : x[i]), (i < 3 ? " " : "\n")
	}'
}
ROUNDS=${PD_BENCH_ROUNDS:-5}
echo "pd-flame: $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)"
if [ -z "$fg" ]; then
	echo "  (flamegraph.pl not found: set PD_FLAMEGRAPH to its path to compare; pd-flame alone)"
fi
echo "  (best of $ROUNDS rounds, taken in turns; a round: 20 runs of pd-flame, 3 of flamegraph.pl)"
printf '%-44s %8s %10s %8s\n' "" "s/run" "peak RSS" "CPU s"
for c in "sorted flame.folded" "time flame-time.folded" "time flame-time.folded --flamechart"; do
	set -- $c
	name=$1 in=$dir/$2 opt=${3:-}
	echo "$name${opt:+ $opt}: $(wc -l <"$in") lines, $(awk -v s="$(stat -c %s "$in")" 'BEGIN { printf "%.1f", s / 1048576 }') MB"
	pd= pl= r=0
	while [ $r -lt "$ROUNDS" ]; do
		# shellcheck disable=SC2086
		pd=$(best "$pd" "$(per_run 20 "$dir/flame.svg" "$B/bin/pd-flame" -q $opt "$in")")
		if [ -n "$fg" ]; then
			# shellcheck disable=SC2086
			pl=$(best "$pl" "$(per_run 3 "$dir/flame-pl.svg" perl "$fg" $opt "$in")")
		fi
		r=$((r + 1))
	done
	set -- $pd
	pd_t=$1 pd_c=$3
	printf '%-44s %8.4f %6d KiB %8.4f\n' "  pd-flame" "$1" "$2" "$3"
	[ -n "$fg" ] || continue
	set -- $pl
	printf '%-44s %8.4f %6d KiB %8.4f\n' "  flamegraph.pl" "$1" "$2" "$3"
	awk -v a="$pd_t" -v b="$1" -v c="$pd_c" -v d="$3" 'BEGIN {
		printf "  pd-flame: %.1fx the speed (%.1fx less CPU time)\n",
			b / (a > 0 ? a : 0.001), d / (c > 0 ? c : 0.001) }'
	awk -f "$rects" "$dir/flame.svg" | LC_ALL=C sort -k1,1n -k2,2n >"$dir/flame.rects"
	awk -f "$rects" "$dir/flame-pl.svg" | LC_ALL=C sort -k1,1n -k2,2n >"$dir/flame-pl.rects"
	if awk 'FNR == 1 { f++ } f == 1 { w[FNR] = $0; n = FNR; next }
		{ split(w[FNR], a, " "); m = FNR
		  if (a[1] != $1 || a[2] - $2 > 1 || $2 - a[2] > 1 || a[3] - $3 > 1 || $3 - a[3] > 1) exit 1 }
		END { exit m != n }' "$dir/flame-pl.rects" "$dir/flame.rects"; then
		echo "  rectangles: OK (the same $(wc -l <"$dir/flame.rects") frames, within a pixel)"
	else
		echo "  rectangles: DIFFERENT"
		exit 1
	fi
done
rm -f "$dir/flame.svg" "$dir/flame-pl.svg" "$dir/flame.rects" "$dir/flame-pl.rects" "$dir/time"
