#!/bin/sh
# make bench, the system-wide part (tests/bench.sh runs it; it also runs
# alone, and `make bench-system` runs it alone): issue 28's scale table.
# A busy machine, the mixed workload of tests/bench-mixed-record.sh (gcc
# -O2, python3, perl, xz in a loop) and a loop starting thousands of
# short processes (sh -c true, a small C program, /bin/true, then a
# sleep: $PD_BENCH_SYSTEM_SHORT_RATE a second, 100 unless set; "max"
# starts them as fast as one shell can, about 2,800 a second here, a
# hundred thousand and more in a recording), recorded with the system
# perf, made once per size and rate and kept in $B/bench/:
#   system-dwarf-SIZE.data  perf record -a -e cpu-clock --call-graph
#                           dwarf,65528 -F $PD_BENCH_SYSTEM_DWARF_FREQ
#                           (499), stopped (SIGINT) once the file has
#                           reached SIZE
#   system-fp-SIZE.data     perf record -a -e cpu-clock -g -F
#                           $PD_BENCH_SYSTEM_FREQ (2999) for as long as
#                           the DWARF recording took (frame-pointer
#                           records are 50x smaller: the same time, not
#                           the same bytes)
#   system-kernel-SIZE.data perf record -a -e cpu-clock -g -F (the same)
#                           for as long again, while a kernel-heavy load
#                           runs instead (find over /usr, tar of it into
#                           a pipe, dd with 64-byte blocks, /bin/true in
#                           a loop): most frames in the kernel
# SIZE is each of $PD_BENCH_SYSTEM_SIZES ("1G" unless set; "1G 3G 10G"
# for the whole curve; M and G suffixes; empty skips this part). For each
# size, each of our tools next to what users run today, in turns as
# tests/bench-mixed.sh runs them ($PD_BENCH_SYSTEM_RUNS rounds, 3 unless
# set), best wall time less the harness's own, peak RSS (GNU time's %M,
# of the largest process of a pipeline):
#   pd-fold --no-inline   vs perf script --no-inline | stackcollapse-perf.pl
#   pd-unwind -o OUT      vs perf script --no-inline (perf's own unwinding)
#   pd-fold (FP profile)  vs perf script | stackcollapse-perf.pl
#   pd-fold (kernel-heavy FP profile, with a copy of /proc/kallsyms
#           taken at recording, for both) vs the same
#   pd-info --stats       vs perf report --stats
#   pd-convert --target-perf=4.18 -o OUT  vs perf inject -i IN -o OUT
#                         (and cat IN >OUT, timed alone: both write
#                         every byte again, and cannot beat a copy; and
#                         pd-convert --stack-size=filled alone, which
#                         writes only the filled part of each stack copy)
# stackcollapse-perf.pl is $PD_STACKCOLLAPSE, else the one on PATH;
# without it the bench says so and folds perf script's text with pd-fold
# --input=script instead. Outputs are compared in the same run: the
# folded stacks by the share of the sample weight on stacks whose counts
# differ, pd-unwind's by perf script's stacks of each sample, the stats
# as text, the conversions by their samples; differences are printed,
# never fatal here (issue 28 tracks them). Then the scale table, every
# size's lines together, and the issue's goals.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$top/$B ;; esac
dir=$B/bench
work=$dir/system-work
mixed=$dir/mixed-work
sizes=${PD_BENCH_SYSTEM_SIZES-1G}
runs=${PD_BENCH_SYSTEM_RUNS:-3}
dfreq=${PD_BENCH_SYSTEM_DWARF_FREQ:-499}
freq=${PD_BENCH_SYSTEM_FREQ:-2999}
rate=${PD_BENCH_SYSTEM_SHORT_RATE:-100}
case $rate in
max) pace= ;;
*[!0-9]* | '' | 0)
	echo "bench-system: PD_BENCH_SYSTEM_SHORT_RATE is a number of processes a second, or max" >&2
	exit 1 ;;
*) pace=$(awk -v r="$rate" 'BEGIN { printf "%.4f", 4 / r }') ;;
esac

if [ -z "$sizes" ]; then
	echo "bench-system: skipped (PD_BENCH_SYSTEM_SIZES is empty)"
	exit 0
fi
if [ ! -x /usr/bin/time ]; then
	echo "bench-system: needs GNU time as /usr/bin/time (Debian: apt-get install time)" >&2
	exit 1
fi
missing=
for p in perf gcc awk; do
	command -v "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "bench-system: needs$missing (Debian: linux-perf gcc gawk)" >&2
	exit 1
fi
sc=${PD_STACKCOLLAPSE:-$(command -v stackcollapse-perf.pl || :)}
if [ -n "$sc" ] && [ -f "$sc" ]; then
	collapse='perl "$2"' collapse_arg=$sc
	collapse_name=stackcollapse-perf.pl
else
	echo "bench-system: no stackcollapse-perf.pl (PD_STACKCOLLAPSE=PATH or on PATH):" \
		"perf script's text is folded by pd-fold --input=script instead" >&2
	sc=
	collapse='"$2" -q --input=script -' collapse_arg=$B/bin/pd-fold
	collapse_name="pd-fold --input=script"
fi
# the mixed workload's inputs and programs, as bench-mixed records them
B=$B sh "$top/tests/bench-mixed-record.sh" --prepare
mkdir -p "$work"

# SIZE in bytes: 1G, 500M, or bytes
bytes() {
	awk -v s="$1" 'BEGIN {
		n = s + 0; u = toupper(substr(s, length(s)))
		if (u == "G") n *= 1073741824; else if (u == "M") n *= 1048576; else if (u == "K") n *= 1024
		printf "%.0f\n", n
	}'
}

# the load: the mixed workload in a loop, and short processes at the rate
# asked (or as fast as one shell starts them); both stop at the next program once
# $work/stop exists
[ -x "$work/tiny" ] || {
	cat >"$work/tiny.c" <<'EOF'
/* a short process: a few hundred microseconds of work in a call chain */
#include <stdlib.h>
static unsigned long leaf(unsigned long x) { return x * 2654435761u ^ (x >> 7); }
static unsigned long mid(unsigned long x, int n)
{
	unsigned long s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += leaf(x + i);
	return s;
}
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100000;

	return (int)(mid((unsigned long)argc, n) & 1);
}
EOF
	gcc -O1 -g -fno-omit-frame-pointer -o "$work/tiny" "$work/tiny.c"
}
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
cat >"$work/mixed-loop.sh" <<EOF
while [ ! -e "$work/stop" ]; do
	gcc -O2 -c "$mixed/big.c" -o "$work/big.o"
	[ ! -e "$work/stop" ] || break
	$py "$mixed/snippet.py" >/dev/null
	[ ! -e "$work/stop" ] || break
	perl "$mixed/snippet.pl" >/dev/null
	[ ! -e "$work/stop" ] || break
	xz -6 -T1 -c "$mixed/text" >"$work/text.xz"
done
EOF
# the kernel-heavy load: system calls, the page cache, directory walks,
# process creation
cat >"$work/kernel-loop.sh" <<EOF
while [ ! -e "$work/stop" ]; do
	find /usr -xdev >/dev/null 2>&1
	[ ! -e "$work/stop" ] || break
	tar cf - /usr/share/doc /usr/include 2>/dev/null | cat >/dev/null
	[ ! -e "$work/stop" ] || break
	dd if=/dev/zero of=/dev/null bs=64 count=300000 2>/dev/null
	i=0
	while [ \$i -lt 100 ] && [ ! -e "$work/stop" ]; do /bin/true; i=\$((i + 1)); done
done
EOF
# (a paced loop's sleep is its fourth short process: 4 in 4 / rate s,
# less the time the other three take)
cat >"$work/short-loop.sh" <<EOF
n=0
while [ ! -e "$work/stop" ]; do
	sh -c true
	"$work/tiny" 200000
	/bin/true
	n=\$((n + 3))
	[ -z "$pace" ] || { sleep $pace; n=\$((n + 1)); }
done
echo \$n >"$work/short-count"
EOF
# (an interrupted bench stops them and its perf record too, on its way out)
_pid=
# load_start [LOOP LOOP]: two loads in the background, the mixed workload
# and the short processes unless named (kernel-loop.sh twice for the
# kernel-heavy recording)
load_start() {
	rm -f "$work/stop" "$work/short-count"
	trap 'touch "$work/stop"; [ -z "$_pid" ] || kill -INT "$_pid" 2>/dev/null' EXIT
	trap 'exit 1' INT TERM HUP
	sh "$work/${1:-mixed-loop.sh}" >/dev/null 2>&1 &
	load_a=$!
	sh "$work/${2:-short-loop.sh}" >/dev/null 2>&1 &
	load_b=$!
	sleep 1
}
load_stop() {
	touch "$work/stop"
	wait "$load_a" "$load_b" || :
	trap - EXIT INT TERM HUP
	rm -f "$work/stop" "$work/big.o" "$work/text.xz"
}
now() { date +%s%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) / 1e9 }'; }

# record SIZE: both recordings of one size, once; $info keeps how
record() {
	_dw=$dir/system-dwarf-$1.data _fp=$dir/system-fp-$1.data
	_kn=$dir/system-kernel-$1.data
	_info=$dir/system-$1.info
	# (recorded again when made at another rate of short processes)
	[ -s "$_dw" ] && [ -s "$_fp" ] && [ -s "$_kn" ] && [ -s "$_kn.kallsyms" ] &&
		[ -s "$_info" ] && [ "$(cut -d' ' -f4 "$_info")" = "$rate" ] && return 0
	_want=$(bytes "$1")
	echo "bench-system: recording $_dw (perf record -a, DWARF, until $1) and $_fp (once)" >&2
	rm -f "$_dw" "$_fp" "$_kn" "$_kn.kallsyms" "$_info" "$_dw.tmp" "$_fp.tmp" \
		"$_kn.tmp" "$_dw.tmp.old" "$_fp.tmp.old" "$_kn.tmp.old"
	load_start
	_t0=$(now)
	perf record -q -a -e cpu-clock --call-graph dwarf,65528 -F "$dfreq" \
		-o "$_dw.tmp" >/dev/null 2>"$work/record.err" &
	_pid=$!
	while kill -0 "$_pid" 2>/dev/null; do
		_s=$(stat -c %s "$_dw.tmp" 2>/dev/null || echo 0)
		[ "$_s" -lt "$_want" ] || break
		sleep 0.2
	done
	_t1=$(now)
	kill -INT "$_pid" 2>/dev/null || :
	wait "$_pid" || :
	_pid=
	_t2=$(now)
	_dsec=$(secs "$_t0" "$_t1")
	perf record -q -a -e cpu-clock -g -F "$freq" -o "$_fp.tmp" \
		-- sleep "$_dsec" >/dev/null 2>>"$work/record.err" || :
	load_stop
	_short=$(cat "$work/short-count" 2>/dev/null || echo 0)
	# (perf script reads /proc/kallsyms of now: a copy, for both sides)
	cp /proc/kallsyms "$_kn.kallsyms"
	load_start kernel-loop.sh kernel-loop.sh
	perf record -q -a -e cpu-clock -g -F "$freq" -o "$_kn.tmp" \
		-- sleep "$_dsec" >/dev/null 2>>"$work/record.err" || :
	load_stop
	for _f in "$_dw" "$_fp" "$_kn"; do
		if ! perf report --stats -i "$_f.tmp" >/dev/null 2>&1 </dev/null; then
			echo "bench-system: perf record made no readable $_f:" >&2
			head -5 "$work/record.err" >&2
			exit 1
		fi
		mv "$_f.tmp" "$_f"
	done
	echo "$_dsec $(secs "$_t1" "$_t2") $_short $rate" >"$_info"
}

overhead=0
. "$top/tests/bench-turns.sh"

# top(BY, TOTAL) in awk: the three commands (first frames) with the most
# of the difference, as shares of all ("; most in python3 2.99%, ..."),
# those of 0.01% or more
top_awk='function top(by, total,  c, i, m, best, sep) {
	sep = "; most in "
	for (i = 0; i < 3; i++) {
		m = 0; best = ""
		for (c in by) if (by[c] > m) { m = by[c]; best = c }
		if (best == "" || 100 * m / (total > 0 ? total : 1) < 0.01) break
		printf "%s%s %.2f%%", sep, best, 100 * m / (total > 0 ? total : 1)
		delete by[best]; sep = ", "
	}
	printf "\n"
}
'
# weight A B: the folded outputs compared: "identical (N lines)" or the
# share of the sample weight on stacks whose counts differ (the sum of
# the differences over the sum of both)
weight() {
	if cmp -s "$1" "$2"; then
		echo "identical ($(wc -l <"$1") lines)"
		return
	fi
	awk "$top_awk"'FNR == 1 { f++ }
	{
		n = $NF; k = $0; sub(/ [0-9]+$/, "", k)
		if (f == 1) a[k] += n; else b[k] += n
		t += n
	}
	function add(k, x,  c) {
		c = k; sub(/;.*/, "", c)
		d += x; by[c] += x
	}
	END {
		for (k in a) { add(k, a[k] > b[k] ? a[k] - b[k] : b[k] - a[k]); if (a[k] != b[k]) s++ }
		for (k in b) if (!(k in a)) { add(k, b[k]); s++ }
		printf "differ: %.3f%% of the sample weight on %d differing stacks", 100 * d / (t > 0 ? t : 1), s
		top(by, t)
	}' "$1" "$2"
}
# samples A B: perf script's stacks, one line per sample, compared in
# order: "identical (N samples)" or the share of samples that differ
samples_same() {
	awk 'BEGIN { RS = ""; FS = "\n" } { gsub(/\n/, " | "); print }' "$1" >"$1.s"
	awk 'BEGIN { RS = ""; FS = "\n" } { gsub(/\n/, " | "); print }' "$2" >"$2.s"
	if cmp -s "$1.s" "$2.s"; then
		echo "identical ($(wc -l <"$1.s") samples)"
	else
		awk -v other="$2.s" "$top_awk"'{
			n++
			if ((getline o <other) <= 0) { gone++; next }
			if (o != $0) { d++; c = $0; sub(/^[[:space:]]*/, "", c); sub(/ .*/, "", c); by[c]++ }
		}
		END {
			while ((getline o <other) > 0) extra++
			printf "differ: %d of %d samples (%.3f%%)%s", d + gone, n, 100 * (d + gone) / (n > 0 ? n : 1),
				(gone + extra > 0 ? sprintf(", counts %d vs %d", n, n - gone + extra) : "")
			top(by, n)
		}' "$1.s"
	fi
	rm -f "$1.s" "$2.s"
}
nsamples() {
	perf report --stats -i "$1" 2>/dev/null </dev/null | awk '/SAMPLE events:/ { print $3; exit }'
}
mb() { awk -v s="$(stat -c %s "$1")" 'BEGIN { printf "%.0f", s / 1048576 }'; }

# one table line per comparison, for the scale table at the end
table=$dir/system-table
: >"$table"
side() { # NAME SECONDS RSS CPU
	printf '    %-58s %8.3f s %8.1f MB %8.2f s CPU\n' "$1" "$2" \
		"$(awk -v k="$3" 'BEGIN { print k / 1024 }')" "$4"
}
# line SIZE TOOL GOAL OUTPUTS: after a pair; prints the verdict, adds a
# table line
line() {
	set -- "$1" "$2" "$3" "$4" $pa $pb
	side "$2" "$5" "$6" "$7"
	side "$theirs" "$8" "$9" "${10}"
	awk -v z="$1" -v t="$2" -v g="$3" -v a="$5" -v b="$8" -v ra="$6" -v rb="$9" \
		-v ca="$7" -v cb="${10}" -v o="$4" -v tab="$table" 'BEGIN {
		r = b / (a > 0 ? a : 0.001)
		printf "  %s: %.1fx (goal %sx) %s; CPU time %.1fx; outputs %s\n", t, r, g,
			(r >= g ? "PASS" : "BELOW"), cb / (ca > 0 ? ca : 0.01), o
		printf "%s\t%s\t%.3f\t%.3f\t%.1fx\t%sx %s\t%.0f\t%.0f\t%s\n", z, t, a, b, r, g,
			(r >= g ? "PASS" : "BELOW"), ra / 1024, rb / 1024, o >>tab
	}'
}

_i=0 _o=
while [ $_i -lt 10 ]; do _o=$(better "$_o" "$(timed /dev/null true)"); _i=$((_i + 1)); done
overhead=${_o%% *}
out=$dir/system-out.data
out2=$dir/system-out2.data
echo "system-wide (perf record -a; mixed workload and short processes): $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); perf $(perf --version | awk '{ print $3 }'); load average $(cut -d' ' -f1-3 /proc/loadavg); best of each side's runs in $runs rounds, less the harness's $(awk -v o="$overhead" 'BEGIN { printf "%.1f", o * 1000 }') ms"
[ -n "$sc" ] || echo "  (no stackcollapse-perf.pl: perf script's text folded by pd-fold --input=script)"

for size in $sizes; do
	record "$size"
	dw=$dir/system-dwarf-$size.data fp=$dir/system-fp-$size.data
	kn=$dir/system-kernel-$size.data
	read -r dsec bsec nshort _rate <"$dir/system-$size.info"
	cat "$dw" "$fp" "$kn" >/dev/null
	echo "$size: recorded for $dsec s (perf's build-id pass after it $bsec s), $nshort short processes started ($rate a second asked);" \
		"DWARF $(mb "$dw") MB, $(nsamples "$dw") samples; frame pointers $(mb "$fp") MB, $(nsamples "$fp") samples;" \
		"kernel-heavy $(mb "$kn") MB, $(nsamples "$kn") samples"

	pre_a=: pre_b=:
	theirs="perf script --no-inline | $collapse_name"
	cmd_a='"$B/bin/pd-fold" -q --no-inline "$dw"'
	cmd_b='sh -c '\''perf script --no-inline -i "$1" 2>/dev/null | '"$collapse"\'' - "$dw" "$collapse_arg"'
	pair "$dir/sys-b.pd" "$dir/sys-b.pl"
	line "$size" "pd-fold --no-inline (DWARF)" 5 "$(weight "$dir/sys-b.pl" "$dir/sys-b.pd")"

	theirs="perf script --no-inline (perf's own unwinding)"
	pre_a='rm -f "$out"' pre_b=:
	cmd_a='"$B/bin/pd-unwind" -q "$dw" -o "$out"'
	cmd_b='perf script --no-inline -i "$dw"'
	pair /dev/null /dev/null
	perf script -F comm,tid,ip,sym --no-inline -i "$dw" 2>/dev/null </dev/null |
		sed -E 's/^([[:space:]]*)fffffffffffff[0-9a-f]{3} \[unknown\]$/\1               0 [unknown]/' >"$dir/sys-c.perf" || :
	perf script -F comm,tid,ip,sym --no-inline -i "$out" 2>/dev/null </dev/null >"$dir/sys-c.pd" || :
	line "$size" "pd-unwind -o OUT (DWARF)" 5 "$(samples_same "$dir/sys-c.perf" "$dir/sys-c.pd")"
	rm -f "$out" "$dir/sys-c.perf" "$dir/sys-c.pd"

	pre_a=: pre_b=:
	theirs="perf script | $collapse_name"
	cmd_a='"$B/bin/pd-fold" -q "$fp"'
	cmd_b='sh -c '\''perf script -i "$1" 2>/dev/null | '"$collapse"\'' - "$fp" "$collapse_arg"'
	pair "$dir/sys-a.pd" "$dir/sys-a.pl"
	line "$size" "pd-fold (frame pointers)" 25 "$(weight "$dir/sys-a.pl" "$dir/sys-a.pd")"

	theirs="perf script --kallsyms=COPY | $collapse_name"
	cmd_a='"$B/bin/pd-fold" -q --kallsyms="$kn.kallsyms" "$kn"'
	cmd_b='sh -c '\''perf script --kallsyms="$1.kallsyms" -i "$1" 2>/dev/null | '"$collapse"\'' - "$kn" "$collapse_arg"'
	pair "$dir/sys-k.pd" "$dir/sys-k.pl"
	line "$size" "pd-fold (FP, kernel-heavy, $(mb "$kn") MB)" 25 "$(weight "$dir/sys-k.pl" "$dir/sys-k.pd")"

	theirs="perf report --stats"
	cmd_a='"$B/bin/pd-info" -q --stats "$dw"'
	cmd_b='perf report --stats -i "$dw"'
	pair "$dir/sys-d.pd" "$dir/sys-d.perf"
	sed -n '/Aggregated stats/,$p' "$dir/sys-d.pd" >"$dir/sys-d.pd2"
	sed -n '/Aggregated stats/,$p' "$dir/sys-d.perf" >"$dir/sys-d.perf2"
	if cmp -s "$dir/sys-d.pd2" "$dir/sys-d.perf2"; then s="identical stats"
	else s="DIFFERENT stats ($(diff "$dir/sys-d.perf2" "$dir/sys-d.pd2" | grep -c '^[<>]') lines)"; fi
	line "$size" "pd-info --stats (DWARF)" 2 "$s"

	# perf inject without options is perf's one command that reads every
	# record and writes a whole perf.data again, in file order as
	# pd-convert does (-b would add build ids and sort the records)
	theirs="perf inject -i IN -o OUT"
	pre_a='rm -f "$out"' pre_b='rm -f "$out2"'
	cmd_a='"$B/bin/pd-convert" -q --target-perf=4.18 "$dw" -o "$out"'
	cmd_b='perf inject -i "$dw" -o "$out2"'
	pair /dev/null /dev/null
	s="samples $(nsamples "$out") vs $(nsamples "$out2"), $(mb "$out") MB vs $(mb "$out2") MB"
	line "$size" "pd-convert --target-perf=4.18 (DWARF)" 2 "$s"
	rm -f "$out" "$out2"
	# what copying the file takes, in the same moments: the floor of any
	# tool that writes every byte again (the page cache's copies)
	_c=
	for _i in $(seq "$runs"); do
		rm -f "$out2"
		_c=$(better "$_c" "$(timed /dev/null sh -c 'cat "$1" >"$2"' - "$dw" "$out2")")
	done
	rm -f "$out2"
	side "cat IN >OUT (copying the file: the floor of both)" ${_c}
	# not perf inject's work (it keeps every byte): the stack copies
	# cut to what the kernel filled, all that perf's unwinding reads
	_c=
	for _i in $(seq "$runs"); do
		rm -f "$out2"
		_c=$(better "$_c" "$(timed /dev/null "$B/bin/pd-convert" -q --target-perf=4.18 --stack-size=filled "$dw" -o "$out2")")
	done
	side "pd-convert --stack-size=filled (to $(mb "$out2") MB)" ${_c}
	rm -f "$out2"
done

echo "scale table (issue 28): seconds are the best runs, RSS the peak of the largest process"
awk -F '\t' '
	{ printf "  %-5s %-38s %8s s %8s s %7s  %-12s %5s MB %6s MB  %s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }
	$2 ~ /^pd-fold/ && $7 > rss { rss = $7 }
	END { printf "pd-fold peak RSS at most %d MB at any size (goal 300 MB): %s\n", rss, (rss <= 300 ? "PASS" : "ABOVE") }
' "$table"
echo "goals: pd-fold --no-inline >= 5x, pd-unwind >= 5x, pd-fold (frame pointers, and kernel-heavy) >= 25x, pd-info --stats >= 2x, pd-convert >= 2x; folded outputs within 0.1% of the sample weight"
rm -f "$dir/time" "$dir"/sys-*
