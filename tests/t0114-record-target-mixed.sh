#!/bin/sh
# pd-record --target-perf for a perf without PERF_SAMPLE_IDENTIFIER (3.10):
# such a perf finds a record's event by its ID, at a place that depends on
# the sample_type, and upstream 3.10 refuses a file whose events differ in
# sample_type ("non matching sample_type"; RHEL 7's perf one whose ID
# is not at the same place in all events). So a tracepoint (RAW, CPU)
# recorded with cpu-clock, or with a -c event (no PERIOD), gives every
# event the same sample_type there, in file and pipe mode; a target with
# IDENTIFIER (rhel7) keeps each event's own. perf reads the 3.10 file
# without a warning and prints both events' samples.
. "$(dirname "$0")/lib.sh"
private_buildid_cache

REC=$PD_BIN/pd-record
INFO=$PD_BIN/pd-info
SLEEPER=$TD/bin/sleeper

if ! "$REC" -q -e sched:sched_switch -o "$tmp/probe.data" -- true 2>"$tmp/probe.err"; then
	skip "sched:sched_switch not permitted here: $(head -1 "$tmp/probe.err")"
	exit 0
fi

# the events' sample_types in FILE, one a line
sample_types() {
	"$INFO" --header "$@" | grep '^# event :' |
		sed -n 's/.*sample_type = \([A-Z_|]*\).*/\1/p'
}

# the sample_types of the ATTR records at the start of a little-endian
# stream (no EVENT_DESC for 3.10, which knows no FEATURE records), in hex:
# type (u32) and size (u16) in the record header, sample_type 24 bytes
# into the attr after it
pipe_sample_types() { # STREAM
	off=16
	while [ "$(od -An -tu4 -j $off -N4 "$1" | tr -d ' ')" = 64 ]; do
		od -An -tx8 -j $((off + 32)) -N8 "$1" | tr -d ' '
		off=$((off + $(od -An -tu2 -j $((off + 6)) -N2 "$1" | tr -d ' ')))
	done
}

"$REC" -q -g --target-perf=3.10 -e cpu-clock -e sched:sched_switch \
	-o "$tmp/m.data" -- "$SLEEPER" 2>"$tmp/err" >/dev/null
check "3.10, cpu-clock and sched:sched_switch: exit 0, nothing on stderr" \
	test $? -eq 0 -a ! -s "$tmp/err"
sample_types "$tmp/m.data" >"$tmp/st"
check "3.10: two events, one sample_type with the tracepoint's RAW and CPU and an ID, no IDENTIFIER ($(sort -u "$tmp/st" | tr '\n' ' '))" \
	test "$(wc -l <"$tmp/st")" -eq 2 -a "$(sort -u "$tmp/st" | wc -l)" -eq 1 -a \
	-n "$(grep '|ID|' "$tmp/st" | grep 'RAW' | grep 'CPU')" -a \
	-z "$(grep IDENTIFIER "$tmp/st")"

"$REC" -q -c 100000 --target-perf=3.10 -e task-clock -e sched:sched_switch \
	-o - -- "$SLEEPER" 2>"$tmp/err" >"$tmp/c.pipe"
check "3.10, -c with a tracepoint, pipe mode: exit 0, nothing on stderr" \
	test $? -eq 0 -a ! -s "$tmp/err"
pipe_sample_types "$tmp/c.pipe" >"$tmp/st"
# PERIOD is 1 << 8 (shifted 4 more past the appended 0, which keeps an
# empty value a number)
period=$(( 0x$(head -1 "$tmp/st")0 >> 12 & 1 ))
check "3.10 pipe: one sample_type, with PERIOD ($(sort -u "$tmp/st" | tr '\n' ' '))" \
	test "$(wc -l <"$tmp/st")" -eq 2 -a "$(sort -u "$tmp/st" | wc -l)" -eq 1 -a \
	"$period" -eq 1

"$REC" -q -g --target-perf=rhel7 -e cpu-clock -e sched:sched_switch \
	-o "$tmp/r7.data" -- "$SLEEPER" 2>"$tmp/err" >/dev/null
sample_types "$tmp/r7.data" >"$tmp/st"
check "rhel7 (IDENTIFIER): each event keeps its own sample_type, RAW for the tracepoint only" \
	test "$(sort -u "$tmp/st" | wc -l)" -eq 2 -a \
	"$(grep -c RAW "$tmp/st")" -eq 1 -a "$(grep -c IDENTIFIER "$tmp/st")" -eq 2

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): the 3.10 file not read by perf"
	exit 0
fi
perf script -F event -i "$tmp/m.data" >"$tmp/script" 2>"$tmp/script.err" </dev/null
rc=$?
nc=$(grep -c 'cpu-clock' "$tmp/script")
ns=$(grep -c 'sched:sched_switch' "$tmp/script")
check "perf $(perf_version) script reads the 3.10 file, nothing on stderr, samples of both events ($nc cpu-clock, $ns sched_switch)" \
	test $rc -eq 0 -a ! -s "$tmp/script.err" -a "$nc" -gt 0 -a "$ns" -gt 0
head -3 "$tmp/script.err"
