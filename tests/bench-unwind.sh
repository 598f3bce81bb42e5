#!/bin/sh
# make bench, pd-unwind part (tests/bench.sh runs it; it also runs alone):
# wall time and peak RSS of `pd-unwind FILE -o OUT` (its default of one
# thread, and -j2: a helper reading the input again) next to perf's own
# unwinding,
# `perf script --no-inline -i FILE`, on the DWARF profile of bench-fold's
# mixed workload (made once with the system perf, kept in $B/bench/).
# Then the stacks perf script prints for pd-unwind's output must be
# those of its own unwinding, and the output's size is shown.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$top/$B ;; esac
dir=$B/bench
bin=$top/testdata/bin
rounds=${PD_BENCH_FOLD_ROUNDS:-24}
in=$dir/fold-dwarf.data
out=$dir/unwound.data

if ! command -v perf >/dev/null 2>&1 || [ ! -x /usr/bin/time ]; then
	echo "bench-unwind: needs perf and GNU time (apt-get install linux-perf time)" >&2
	exit 1
fi
mkdir -p "$dir"
if [ ! -s "$in" ]; then
	echo "bench-unwind: recording $in (once)" >&2
	perf record -q -o "$in" -e cpu-clock --call-graph dwarf -F 4000 -- sh -c \
		"i=0; while [ \$i -lt $((rounds / 4)) ]; do $bin/burn 500; $bin/threads; $bin/inl 300; i=\$((i + 1)); done" \
		>/dev/null 2>&1 || { echo "bench-unwind: perf record failed" >&2; exit 1; }
fi

# best SECONDS and RSS of 3 runs of CMD..., stdout to /dev/null
best() {
	_b= _r=
	for _i in 1 2 3; do
		rm -f "$out"
		/usr/bin/time -f '%e %M' -o "$dir/time" "$@" >/dev/null 2>/dev/null </dev/null || true
		_t=$(cut -d' ' -f1 "$dir/time")
		if [ -z "$_b" ] || awk -v a="$_t" -v b="$_b" 'BEGIN { exit !(a < b) }'; then
			_b=$_t _r=$(cut -d' ' -f2 "$dir/time")
		fi
	done
	echo "$_b $_r"
}

cat "$in" >/dev/null
n=$(perf report --stats -i "$in" 2>/dev/null </dev/null | awk '/SAMPLE events:/ { print $3; exit }')
mb=$(awk -v s="$(stat -c %s "$in")" 'BEGIN { printf "%.0f", s / 1048576 }')
echo "pd-unwind: DWARF profile, $n samples, $mb MB; $(nproc) CPUs; perf $(perf --version | awk '{ print $3 }')"
printf '%-40s %8s %10s\n' "" seconds "peak RSS"
set -- $(best "$B/bin/pd-unwind" -q "$in" -o "$out"); pd_t=$1
printf '%-40s %8.2f %7d KiB\n' "pd-unwind FILE -o OUT" "$1" "$2"
set -- $(best "$B/bin/pd-unwind" -q -j2 "$in" -o "$out"); two_t=$1
printf '%-40s %8.2f %7d KiB\n' "pd-unwind -j2 FILE -o OUT" "$1" "$2"
set -- $(best perf script --no-inline -i "$in"); perf_t=$1
printf '%-40s %8.2f %7d KiB\n' "perf script --no-inline -i FILE" "$1" "$2"
awk -v a="$pd_t" -v b="$perf_t" -v c="$two_t" 'BEGIN {
	printf "pd-unwind vs perf script --no-inline: %.1fx the speed (-j2: %.1fx)\n",
		b / ((a > 0) ? a : 0.01), b / ((c > 0) ? c : 0.01) }'

# the same stacks, or the speed means nothing
"$B/bin/pd-unwind" -q "$in" -o "$out"
awk -v a="$(stat -c %s "$in")" -v b="$(stat -c %s "$out")" \
	'BEGIN { printf "output: %.1f MB, %.0fx smaller\n", b / 1048576, a / b }'
perf script -F comm,tid,ip,sym --no-inline -i "$in" 2>/dev/null </dev/null >"$dir/unwind.perf"
perf script -F comm,tid,ip,sym --no-inline -i "$out" 2>/dev/null </dev/null >"$dir/unwind.pd"
d=$(diff "$dir/unwind.perf" "$dir/unwind.pd" | grep -c '^[<>]' || :)
echo "perf script on the output vs perf's own unwinding: $d of $(wc -l <"$dir/unwind.perf") lines differ"
rm -f "$out"
