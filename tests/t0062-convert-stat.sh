#!/bin/sh
# pd-convert of `perf stat record` files (testdata/stat.data, perf 6.1,
# per task: the CPU map { -1 }) for older perfs, checked by the system
# perf's reading of the records (`perf report -D`) and `perf stat report`:
# - STAT records name their CPU as the target reads it: by position in
#   the CPU map before 5.19 (cpu 0, where perf 6.1 wrote -1), by number
#   from 5.19; real perf 4.18, RHEL 8's and RHEL 7's showed "<not
#   counted>" (or zeros in perf script) for the unconverted numbers;
# - for perf before 4.19 the msec unit and 1e-6 scale of task-clock
#   (EVENT_UPDATE) are dropped, which perf 4.18 applied on top of its own
#   ns->ms conversion (0.000101 msec for 100.96); RHEL 8 keeps them;
# - a file with positions (perf 4.18's layout, here made by converting
#   for 4.18) is refused by perf 6.1 ("Invalid CPU 0 for event") and
#   reads right after --target-perf=6.1, its counts those of the original;
# - tests/tools/check-target finds the STAT cpu rule kept for each target,
#   and broken with --no-shim=stat-cpu (no perf needed);
# - a perf older than 6.1 (Debian 11's 5.10), which cannot read perf
#   6.1's file, reads the conversion for its version: positions, and the
#   original's task-clock (nothing counted without the shim).
. "$(dirname "$0")/lib.sh"

CK=$PD_BIN/../tests/tools/check-target

conv() { "$PD_BIN/pd-convert" -q "$@"; }
# STAT records' cpu fields as perf prints them with -D
# (FILE, or - with a pipe stream on standard input)
stat_cpus() { perf report -D -i "$@" 2>/dev/null |
	sed -n 's/^\.\.\. id [0-9]*, cpu \(-*[0-9]*\), thread.*/\1/p' | tr '\n' ' '; }
units() { perf report -D -i "$@" 2>/dev/null | grep -c '^\.\.\. \(unit\|scale\):'; }
# task-clock's count as perf stat report prints it (to standard error)
tclock() { perf stat report -i "$1" 2>&1 >/dev/null </dev/null |
	awk '$2 == "msec" && $3 == "task-clock" { print $1; exit }'; }

S=$TD/stat.data
for t in 3.10 4.18 rhel7 rhel8 5.14 6.1 newest; do
	"$PD_BIN/pd-convert" -q --target-perf=$t "$S" -o "$tmp/ck.data"
	check "check-target $t: the converted stat file keeps the rules" \
		"$CK" $t "$tmp/ck.data"
done
for t in 4.18 rhel8; do
	"$PD_BIN/pd-convert" -q --no-shim=stat-cpu --target-perf=$t "$S" -o "$tmp/ck.data"
	"$CK" $t "$tmp/ck.data" >"$tmp/ck.out"
	check "check-target $t without the shim: $(head -1 "$tmp/ck.out")" \
		grep -q 'STAT cpu -1 is not a position' "$tmp/ck.out"
done

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): stat conversion checks not run"
	echo "1..$tap_n"
	exit 0
fi

# task-clock's count as perf stat report prints it, from the first STAT
# record's value in nanoseconds (pd-info's dump of the original)
want=$("$PD_BIN/pd-info" -q --dump "$S" | awk '
	/PERF_RECORD_STAT\(/ { for (i = 1; i < NF; i++) if ($i == "val") {
		printf "%.2f\n", $(i + 1) / 1e6; exit } }')
if perf_older_than 6.1; then
	# perf 5.10 (Debian 11) refuses perf 6.1's 128-byte attrs: it reads
	# the file pd-convert makes for it, with positions, as a user's would
	t=$(perf_target)
	conv --target-perf="$t" "$S" -o "$tmp/own.data"
	got=$(stat_cpus "$tmp/own.data")
	check "perf $(perf_version) reads the $t conversion's STAT cpus as positions ($got)" \
		test "$got" = "0 0 "
	got=$(tclock "$tmp/own.data")
	check "perf $(perf_version) stat report shows the original's task-clock ($got, want $want)" \
		test -n "$want" -a "$got" = "$want"
	conv --no-shim=stat-cpu --target-perf="$t" "$S" -o "$tmp/noshim.data"
	got=$(tclock "$tmp/noshim.data")
	check "without the stat-cpu shim perf $(perf_version) counts nothing (task-clock '$got')" \
		test -z "$got"
	skip "perf $(perf_version) cannot read perf 6.1's stat.data itself: the checks of the original as perf 6.1 reads it not run"
	echo "1..$tap_n"
	exit 0
fi

orig=$(stat_cpus "$S")
check "the original names the CPU -1 (perf 6.1's number) in its 2 STAT records ($orig)" \
	test "$orig" = "-1 -1 "
for t in 4.18 rhel8 rhel7 5.14; do
	conv --target-perf=$t "$S" -o "$tmp/$t.data"
	got=$(stat_cpus "$tmp/$t.data")
	check "$t: STAT cpu is the position 0 in { -1 } ($got)" test "$got" = "0 0 "
done
# (perf 6.1 stops at the end marker of a RHEL pipe: docs/compat.md)
for t in 4.18 5.14; do
	conv --pipe --target-perf=$t "$S" -o "$tmp/$t.pipe"
	got=$(stat_cpus - <"$tmp/$t.pipe")
	check "$t pipe: STAT cpu is the position 0 ($got)" test "$got" = "0 0 "
done
n=$(units "$S")
check "the original gives task-clock a unit and scale ($n EVENT_UPDATEs)" test "$n" -ge 2
n=$(units "$tmp/4.18.data")
check "4.18: no unit or scale left for task-clock ($n)" test "$n" = 0
n=$(units "$tmp/rhel8.data")
check "rhel8 (which scales task-clock by its unit) keeps them ($n)" test "$n" -ge 2
"$PD_BIN/pd-convert" --explain --target-perf=4.18 "$S" >"$tmp/explain"
check "--explain names both shims" \
	sh -c "grep -q 'stat-cpu .*applies: 2 changed' '$tmp/explain' &&
	       grep -q 'clock-unit .*applies: 0 changed, 2 dropped' '$tmp/explain'"

conv --target-perf=6.1 "$S" -o "$tmp/6.1.data"
check "6.1: the original's CPU numbers stay" test "$(stat_cpus "$tmp/6.1.data")" = "-1 -1 "
got=$(tclock "$S")
check "perf stat report reads the original (task-clock $got, want $want)" \
	test -n "$want" -a "$got" = "$want"
if perf_older_than 5.19; then
	skip "perf $(perf_version) reads positions itself: the 5.19+ checks not run"
else
	perf stat report -i "$tmp/4.18.data" >/dev/null 2>"$tmp/err" </dev/null
	check "perf $(perf_version) refuses positions: $(grep -m1 Invalid "$tmp/err")" \
		grep -q 'Invalid CPU 0 for event' "$tmp/err"
	conv --target-perf=6.1 "$tmp/4.18.data" -o "$tmp/back.data"
	check "converted back for 6.1: numbers again" \
		test "$(stat_cpus "$tmp/back.data")" = "-1 -1 "
	got=$(tclock "$tmp/back.data")
	check "and perf stat report shows the original's task-clock ($got, want $want)" \
		test "$got" = "$want"
fi

echo "1..$tap_n"
