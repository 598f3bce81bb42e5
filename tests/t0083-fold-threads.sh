#!/bin/sh
# pd-fold folds a perf.data input's samples on a second thread when the
# machine has a CPU free (fold-ahead.c), and then also reads the records
# ahead (the library's stream-ahead.c) and loads symbols ahead
# (sym-preload.c) on threads of their own; PD_FOLD_THREADS=1 or 2 forces
# one way. The output must not depend on it: on every recording here, and
# on a fresh one long enough for the samples to fill many of the batches
# the threads pass (and the reading threads to wait for free ones), cut
# short, and compressed, pd-fold prints the same stacks, the same
# messages in the same order (but the folder's "Filtering for events"
# note, which the folding thread prints when it gets there) and exits the
# same with one thread and with two, --no-inline and --pid too. (That the
# folding itself is right, t0080 and t0084 check against perf script |
# stackcollapse-perf.pl.)
. "$(dirname "$0")/lib.sh"

FOLD=$PD_BIN/pd-fold

# same_both DESCRIPTION FILE [OPTION...]: both ways give the same
same_both() {
	_d=$1; _f=$2; shift 2
	PD_FOLD_THREADS=1 "$FOLD" "$@" "$_f" >"$tmp/one" 2>"$tmp/one.err"
	_r1=$?
	PD_FOLD_THREADS=2 "$FOLD" "$@" "$_f" >"$tmp/two" 2>"$tmp/two.err"
	_r2=$?
	if [ "$_r1" = "$_r2" ] && cmp -s "$tmp/one" "$tmp/two"; then
		ok "$_d: one thread and two agree ($(wc -l <"$tmp/one") stacks, rc $_r1)"
	else
		not_ok "$_d: one thread (rc $_r1) and two (rc $_r2) differ"
		diff "$tmp/one" "$tmp/two" | head -5 | sed 's/^/    /'
	fi
	grep -v '^Filtering for events' "$tmp/one.err" >"$tmp/one.msg"
	grep -v '^Filtering for events' "$tmp/two.err" >"$tmp/two.msg"
	if cmp -s "$tmp/one.msg" "$tmp/two.msg"; then
		ok "$_d: the same $(wc -l <"$tmp/one.msg") messages, in the same order"
	else
		not_ok "$_d: one thread and two print other messages"
		diff "$tmp/one.msg" "$tmp/two.msg" | head -5 | sed 's/^/    /'
	fi
}

for f in "$PD_TOP"/testdata/*.data "$PD_TOP"/testdata/newer/*.data \
	"$PD_TOP"/testdata/arm64/*.data; do
	[ -f "$f" ] || continue
	same_both "${f#"$PD_TOP"/}" "$f"
done
same_both "testdata/dwarf.data --no-inline" "$PD_TOP/testdata/dwarf.data" --no-inline
same_both "testdata/system.data --pid" "$PD_TOP/testdata/system.data" --pid

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): no long recording"
	exit 0
fi
# a frame takes 40 bytes of a 64 KiB batch, a sample 100 more: 15000
# frames fill well over the 8 batches in flight at most. How long the
# workload runs depends on the machine (and its shell): it doubles until
# the recording is that long.
loops=250000 n=0
while [ "$n" -le 15000 ] && [ "$loops" -le 8000000 ]; do
	if ! perf record -q -g -e cpu-clock -F 2999 -o "$tmp/long.data" -- \
		sh -c "i=0; while [ \$i -lt $loops ]; do i=\$((i + 1)); done; ls -lR /usr/lib >/dev/null 2>&1" \
		>/dev/null 2>&1 </dev/null; then
		skip "perf record does not work here (perf_event_paranoid?): no long recording"
		exit 0
	fi
	n=$(perf script -i "$tmp/long.data" -F ip 2>/dev/null </dev/null | wc -l)
	loops=$((loops * 2))
done
check "the long recording has $n frames (over 15000)" [ "$n" -gt 15000 ]
same_both "a long recording" "$tmp/long.data"
same_both "a long recording --pid" "$tmp/long.data" --pid
# cut short in a record: the reader's warning where the records stop
size=$(wc -c <"$tmp/long.data")
head -c $((size * 2 / 3 + 3)) "$tmp/long.data" >"$tmp/cut.data"
same_both "the long recording cut short" "$tmp/cut.data"
check "... which pd-fold says (two threads)" grep -q truncated "$tmp/two.err"
# COMPRESSED records: decompressed on the reading-ahead thread
if perf record -q -z -g -e cpu-clock -F 2999 -o "$tmp/z.data" -- \
	sh -c "i=0; while [ \$i -lt $((loops / 2)) ]; do i=\$((i + 1)); done" \
	>/dev/null 2>&1 </dev/null; then
	same_both "a long compressed recording (-z)" "$tmp/z.data"
else
	skip "perf record -z does not work here (perf built without zstd?)"
fi
