#!/bin/sh
# make bench: pd-info --stats throughput next to perf report --stats,
# pd-convert's next to perf inject (the perf tool that rewrites a whole
# file), on the same large recording, measured in the same run. The recording (several
# hundred MB of DWARF-callchain samples) is made once with the system perf
# and kept in $B/bench/.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$top/$B ;; esac
dir=$B/bench
big=$dir/dwarf-big.data
mb_wanted=${PD_BENCH_MB:-400}

if ! command -v perf >/dev/null 2>&1; then
	echo "bench: perf not installed (apt-get install linux-perf); it makes the input and is the baseline" >&2
	exit 1
fi
mkdir -p "$dir"
if [ ! -s "$big" ]; then
	echo "bench: recording $big (about $mb_wanted MB, once)" >&2
	# 64 KiB of user stack per sample: big records, as DWARF users get
	secs=1
	while :; do
		perf record -q -o "$big" -e cpu-clock -F 4000 --call-graph dwarf,65528 \
			-- "$top/testdata/bin/burn" $((secs * 1000)) >/dev/null 2>&1 || {
			echo "bench: perf record failed" >&2; exit 1; }
		mb=$(( $(stat -c %s "$big") / 1048576 ))
		[ "$mb" -ge "$mb_wanted" ] || [ "$secs" -ge 64 ] && break
		secs=$(( secs * 2 ))
		[ "$mb" -gt 0 ] && secs=$(( (mb_wanted * secs / 2 + mb - 1) / mb + 1 ))
	done
fi
size=$(stat -c %s "$big")
mb=$(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1048576 }')

# run CMD...: best wall time of 3 runs (s) and peak RSS (KiB) via GNU time.
# $out is removed before each run: replacing a file of several hundred MB
# costs the kernel as much as writing it, and is not what is measured.
out=$dir/out.data
run() {
	best=
	for i in 1 2 3; do
		rm -f "$out"
		/usr/bin/time -f '%e %M' -o "$dir/time" "$@" >/dev/null 2>&1 </dev/null || true
		t=$(cut -d' ' -f1 "$dir/time"); rss=$(cut -d' ' -f2 "$dir/time")
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$t
		fi
	done
	osize=0
	[ -f "$out" ] && osize=$(stat -c %s "$out")
	rm -f "$out"
	echo "$best $rss $osize"
}
if [ ! -x /usr/bin/time ]; then
	echo "bench: needs GNU time (apt-get install time)" >&2
	exit 1
fi
cat /dev/null "$big" >/dev/null	# warm the page cache for all
echo "input: $mb MB (DWARF callchains, 64 KiB stacks); $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)"
printf '%-34s %8s %8s %12s %10s\n' "" seconds MB/s "peak RSS" "output MB"
line() { # NAME SECONDS RSS OUTPUT_BYTES
	awk -v n="$1" -v t="$2" -v r="$3" -v o="$4" -v mb="$mb" 'BEGIN {
		# (parenthesised: a bare ">" among printf arguments redirects)
		printf "%-34s %8.2f %8.0f %8d KiB %10s\n", n, t, mb / (t > 0 ? t : 0.01), r,
			((o > 0) ? sprintf("%.1f", o / 1048576) : "-")
	}'
}
ratio() { # WHAT OURS THEIRS
	awk -v w="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%s: %.1fx the speed\n", w, b / ((a > 0) ? a : 0.01) }'
}

set -- $(run "$B/bin/pd-info" --stats "$big"); pd_t=$1
line "pd-info --stats" "$@"
set -- $(run perf report --stats -i "$big"); perf_t=$1
line "perf report --stats" "$@"
set -- $(run perf inject -i "$big" -o "$out"); inj_t=$1
line "perf inject -i IN -o OUT" "$@"
for how in --target-perf=4.18 --compress --endian=big; do
	set -- $(run "$B/bin/pd-convert" -q $how "$big" -o "$out")
	line "pd-convert $how" "$@"
	ratio "pd-convert $how vs perf inject" "$1" "$inj_t"
done
ratio "pd-info --stats vs perf report --stats" "$pd_t" "$perf_t"

# the stats themselves must agree, or the speed means nothing
"$B/bin/pd-info" -q --stats "$big" | sed -n '/Aggregated stats/,$p' >"$dir/stats.pd"
perf report --stats -i "$big" 2>/dev/null </dev/null | sed -n '/Aggregated stats/,$p' >"$dir/stats.perf"
if cmp -s "$dir/stats.pd" "$dir/stats.perf"; then
	echo "pd-info --stats equals perf report --stats on this file"
else
	echo "bench: pd-info --stats differs from perf report --stats:" >&2
	diff "$dir/stats.perf" "$dir/stats.pd" | head >&2
	exit 1
fi

# pd-fold next to perf script | stackcollapse-perf.pl, on its own inputs
B=$B sh "$top/tests/bench-fold.sh"

# pd-unwind next to perf script --no-inline (perf's own unwinding)
B=$B sh "$top/tests/bench-unwind.sh"

# the four ratios of issue 20 on the mixed workload (compiler, interpreters,
# compressor): pd-fold, pd-fold --no-inline, pd-unwind, pd-fold's inline
# frames against its own earlier self
B=$B sh "$top/tests/bench-mixed.sh"

# how much pd-record slows a program next to perf record, same settings
B=$B sh "$top/tests/bench-record.sh"

# pd-flame next to flamegraph.pl, on the folded output of bench-fold's profile
B=$B sh "$top/tests/bench-flame.sh"

# issue 28's scale table: perf record -a of a busy machine (the mixed
# workload and thousands of short processes), DWARF and frame pointers, at
# each size of $PD_BENCH_SYSTEM_SIZES (1G unless set; empty skips it)
B=$B sh "$top/tests/bench-system.sh"
