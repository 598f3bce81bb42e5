#!/bin/sh
# make bench, the mixed-workload part (tests/bench.sh runs it; it also runs
# alone): the four ratios of issue 20, on the profiles of a compiler,
# interpreters and a compressor that tests/bench-mixed-record.sh makes
# once, each next to the pipeline users run today, in the same run:
#   (a) pd-fold FILE                 vs perf script | stackcollapse-perf.pl
#       on the frame-pointer profile                           (goal 25x)
#   (b) pd-fold --no-inline FILE     vs perf script --no-inline |
#       stackcollapse-perf.pl, on the DWARF profile            (goal 5x)
#   (c) pd-unwind FILE -o OUT        vs perf script --no-inline (perf's
#       own unwinding), on the DWARF profile                   (goal 2x)
#   (d) pd-fold FILE (inline frames) vs pd-fold as it was at
#       $PD_BENCH_BASELINE (built from git into $B/bench/baseline),
#       on the DWARF profile                                   (goal 2x)
# The two sides run in turns: $PD_BENCH_MIXED_RUNS rounds (default 3) of
# one run of the slower side and as many of the faster as fit in that
# time (at most 10), so that both meet the same moments of a shared host;
# a 60 ms run falls wholly inside one of its hiccups, a 2 s run averages
# them, so the short side needs the more runs for its best to be its own
# time (as hyperfine runs short commands more often). Each side: its best
# wall time, less the harness's own (date and GNU time starting, 2-3 ms
# here, measured the same way on true), its CPU time and peak RSS (of
# the largest process of a pipeline). The
# outputs must be identical ((c): perf script prints the same stacks for
# pd-unwind's output as for its own unwinding), else the bench fails.
# stackcollapse-perf.pl is $PD_STACKCOLLAPSE, else the one on PATH.
# PD_BENCH_MIXED_PARTS=ac (say) runs only those of the four.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$top/$B ;; esac
dir=$B/bench
fp=$dir/mixed-fp.data
dw=$dir/mixed-dwarf.data
runs=${PD_BENCH_MIXED_RUNS:-3}
base_rev=${PD_BENCH_BASELINE:-fce08c2}
parts=${PD_BENCH_MIXED_PARTS:-abcd}
part() { case $parts in *$1*) return 0 ;; esac; return 1; }

if [ ! -x /usr/bin/time ]; then
	echo "bench-mixed: needs GNU time (apt-get install time)" >&2
	exit 1
fi
sc=${PD_STACKCOLLAPSE:-$(command -v stackcollapse-perf.pl || :)}
if [ -z "$sc" ] || [ ! -f "$sc" ]; then
	echo "bench-mixed: needs FlameGraph's stackcollapse-perf.pl (PD_STACKCOLLAPSE=PATH or on PATH)" >&2
	exit 1
fi
B=$B sh "$top/tests/bench-mixed-record.sh"

# the baseline pd-fold: our own code as it was, built once from git
base=$dir/baseline
base_fold=
if ! part d; then
	:
elif [ -x "$base/build/bin/pd-fold" ]; then
	base_fold=$base/build/bin/pd-fold
elif git -C "$top" rev-parse -q --verify "$base_rev^{commit}" >/dev/null 2>&1; then
	echo "bench-mixed: building pd-fold of $base_rev in $base (once)" >&2
	rm -rf "$base" && mkdir -p "$base"
	if git -C "$top" archive "$base_rev" | tar -x -C "$base" &&
		make -C "$base" -j2 B=build build/bin/pd-fold >"$base/make.log" 2>&1; then
		base_fold=$base/build/bin/pd-fold
	else
		echo "bench-mixed: building $base_rev failed (see $base/make.log)" >&2
	fi
fi

overhead=0
. "$top/tests/bench-turns.sh"
samples() {
	perf report --stats -i "$1" 2>/dev/null </dev/null |
		awk '/SAMPLE events:/ { print $3; exit }'
}
describe() { # FILE WHAT
	echo "$2: $(samples "$1") samples, $(awk -v s="$(stat -L -c %s "$1")" 'BEGIN { printf "%.0f", s / 1048576 }') MB"
}
side() { # NAME SECONDS RSS CPU
	printf '    %-52s %7.3f s %8.1f MB %7.2f s CPU\n' "$1" "$2" "$(awk -v k="$3" 'BEGIN { print k / 1024 }')" "$4"
}
failed=0
# LABEL OURS THEIRS GOAL SAME OUR-CPU THEIR-CPU: the wall-time ratio
# decides; the CPU-time one is shown, the fairer measure when other jobs
# share the machine
verdict() {
	awk -v l="$1" -v a="$2" -v b="$3" -v g="$4" -v s="$5" -v c="$6" -v d="$7" 'BEGIN {
		r = b / (a > 0 ? a : 0.001)
		printf "%s: %.1fx (goal %sx) %s; CPU time %.1fx; outputs %s\n", l, r, g,
			(r >= g ? "PASS" : "BELOW"), d / (c > 0 ? c : 0.01), s
	}'
}
same() { # A B: "identical" or, loudly, "DIFFERENT"
	if cmp -s "$1" "$2"; then
		echo "identical ($(wc -l <"$1") lines)"
	else
		echo "DIFFERENT ($(diff "$1" "$2" | grep -c '^[<>]') lines differ: $1 $2)"
	fi
}

for f in "$fp" "$dw"; do cat "$f" >/dev/null; done
_i=0 _o=
while [ $_i -lt 10 ]; do _o=$(better "$_o" "$(timed /dev/null true)"); _i=$((_i + 1)); done
overhead=${_o%% *}
echo "mixed workload (gcc, python3, perl, xz): $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); perf $(perf --version | awk '{ print $3 }'); best of each side's runs in $runs rounds, less the harness's $(awk -v o="$overhead" 'BEGIN { printf "%.1f", o * 1000 }') ms"
describe "$fp" "  frame pointers (-g -F 2999)"
describe "$dw" "  DWARF (--call-graph dwarf)"

# (a)
if part a; then
cmd_a='"$B/bin/pd-fold" -q "$fp"'
cmd_b='sh -c '\''perf script -i "$1" 2>/dev/null | perl "$2"'\'' - "$fp" "$sc"'
pair "$dir/mx-a.pd" "$dir/mx-a.pl"
set -- $pa; a_t=$1 a_c=$3
side "pd-fold FILE" "$@"
set -- $pb
side "perf script | stackcollapse-perf.pl" "$@"
s=$(same "$dir/mx-a.pl" "$dir/mx-a.pd"); case $s in DIFF*) failed=1 ;; esac
verdict "(a) pd-fold vs perf script | stackcollapse-perf.pl, frame pointers" "$a_t" "$1" 25 "$s" "$a_c" "$3"
fi

# (b)
if part b; then
cmd_a='"$B/bin/pd-fold" -q --no-inline "$dw"'
cmd_b='sh -c '\''perf script --no-inline -i "$1" 2>/dev/null | perl "$2"'\'' - "$dw" "$sc"'
pair "$dir/mx-b.pd" "$dir/mx-b.pl"
set -- $pa; b_t=$1 b_c=$3
side "pd-fold --no-inline FILE" "$@"
set -- $pb
side "perf script --no-inline | stackcollapse-perf.pl" "$@"
s=$(same "$dir/mx-b.pl" "$dir/mx-b.pd"); case $s in DIFF*) failed=1 ;; esac
verdict "(b) pd-fold --no-inline vs perf script --no-inline | stackcollapse-perf.pl, DWARF" "$b_t" "$1" 5 "$s" "$b_c" "$3"
fi

# (c): perf script prints pd-unwind's output as it prints its own
# unwinding, but for the frame of a zero return address that perf shows
# as "ffffffffffffffff [unknown]": no callchain can carry that address,
# pd-unwind writes 0 there (pd-unwind(1))
out=$dir/mx-unwound.data
if part c; then
cmd_a='"$B/bin/pd-unwind" -q "$dw" -o "$out"'
cmd_b='perf script --no-inline -i "$dw"'
pair /dev/null /dev/null
set -- $pa; c_t=$1 c_c=$3
side "pd-unwind FILE -o OUT" "$@"
set -- $pb
side "perf script --no-inline (perf's own unwinding)" "$@"
p_t=$1 p_c=$3
perf script -F comm,tid,ip,sym --no-inline -i "$dw" 2>/dev/null </dev/null |
	sed -E 's/^([[:space:]]*)fffffffffffff[0-9a-f]{3} \[unknown\]$/\1               0 [unknown]/' >"$dir/mx-c.perf"
perf script -F comm,tid,ip,sym --no-inline -i "$out" 2>/dev/null </dev/null >"$dir/mx-c.pd"
s=$(same "$dir/mx-c.perf" "$dir/mx-c.pd"); case $s in DIFF*) failed=1 ;; esac
verdict "(c) pd-unwind vs perf script --no-inline (perf's unwinding), DWARF" "$c_t" "$p_t" 2 "$s" "$c_c" "$p_c"
rm -f "$out"
fi

# (d)
if ! part d; then
	:
elif [ -n "$base_fold" ]; then
	cmd_a='"$B/bin/pd-fold" -q "$dw"'
	cmd_b='"$base_fold" -q "$dw"'
	pair "$dir/mx-d.pd" "$dir/mx-d.base"
	set -- $pa; d_t=$1 d_c=$3
	side "pd-fold FILE (inline frames)" "$@"
	set -- $pb
	side "pd-fold FILE of $base_rev" "$@"
	s=$(same "$dir/mx-d.base" "$dir/mx-d.pd"); case $s in DIFF*) failed=1 ;; esac
	verdict "(d) pd-fold with inline frames vs pd-fold of $base_rev, DWARF" "$d_t" "$1" 2 "$s" "$d_c" "$3"
else
	echo "(d) pd-fold with inline frames vs pd-fold of $base_rev: skipped (no git history to build it from)"
fi
rm -f "$dir/time"
if [ $failed -ne 0 ]; then
	echo "bench-mixed: outputs DIFFER (files kept in $dir/mx-*): the speeds above mean nothing" >&2
	exit 1
fi
rm -f "$dir"/mx-*.pd "$dir"/mx-*.pl "$dir"/mx-*.perf "$dir"/mx-*.base
