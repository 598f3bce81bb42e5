#!/bin/sh
# make bench: pd-info --stats throughput next to perf report --stats on the
# same large recording, measured in the same run. The recording (several
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

# run CMD...: best wall time of 3 runs (s) and peak RSS (KiB) via GNU time
run() {
	best=
	for i in 1 2 3; do
		/usr/bin/time -f '%e %M' -o "$dir/time" "$@" >/dev/null 2>&1 </dev/null || true
		t=$(cut -d' ' -f1 "$dir/time"); rss=$(cut -d' ' -f2 "$dir/time")
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$t
		fi
	done
	echo "$best $rss"
}
if [ ! -x /usr/bin/time ]; then
	echo "bench: needs GNU time (apt-get install time)" >&2
	exit 1
fi
cat /dev/null "$big" >/dev/null	# warm the page cache for both
set -- $(run "$B/bin/pd-info" --stats "$big"); pd_t=$1; pd_rss=$2
set -- $(run perf report --stats -i "$big"); perf_t=$1; perf_rss=$2
awk -v mb="$mb" -v pt="$pd_t" -v pr="$pd_rss" -v ft="$perf_t" -v fr="$perf_rss" 'BEGIN {
	printf "input: %s MB (DWARF callchains, 64 KiB stacks)\n", mb
	printf "%-28s %8s %10s %12s\n", "", "seconds", "MB/s", "peak RSS"
	printf "%-28s %8.2f %10.0f %9d KiB\n", "pd-info --stats", pt, mb / (pt > 0 ? pt : 0.01), pr
	printf "%-28s %8.2f %10.0f %9d KiB\n", "perf report --stats", ft, mb / (ft > 0 ? ft : 0.01), fr
	printf "pd-info is %.1fx the speed of perf report --stats\n", ft / (pt > 0 ? pt : 0.01)
}'
