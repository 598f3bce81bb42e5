#!/bin/sh
# pd-convert for a perf without PERF_SAMPLE_IDENTIFIER (upstream 3.10),
# which finds a record's event by an ID whose place depends on the
# sample_type and refuses a file whose events differ in it ("non
# matching sample_type"): every event gets one sample_type, what all had
# plus what any had of the fields a sample can be given (an empty RAW,
# the attr's period, an empty callchain), the others (a tracepoint's CPU)
# taken out. Checked on testdata's tracepoint-and-dummy recordings, and on
# fresh pd-record ones mixing a tracepoint with cpu-clock and a -c
# task-clock (no PERIOD) with a tracepoint: one sample_type, check-target
# finds none of 3.10's rules broken (and without the shim it does), and
# perf prints the same events, addresses, symbols and periods as for the
# original. A pipe input is converted as it comes, with a warning.
. "$(dirname "$0")/lib.sh"
private_buildid_cache

CK=$PD_BIN/../tests/tools/check-target

# the distinct sample_types of FILE's events
types() {
	"$PD_BIN/pd-info" --header "$1" | grep '^# event :' |
		sed -n 's/.*sample_type = \([A-Z_|]*\).*/\1/p' | sort -u
}

one_type() { # WHAT FILE
	"$PD_BIN/pd-convert" -q --target-perf=3.10 "$2" -o "$tmp/out.data"
	check "$1 for 3.10: one sample_type ($(types "$tmp/out.data" | tr '\n' ' '))" \
		test "$(types "$tmp/out.data" | wc -l)" -eq 1
	check "$1 for 3.10: check-target finds 3.10's rules kept" \
		"$CK" 3.10 "$tmp/out.data"
}

for f in offcpu system-switch; do
	check "$f.data's events differ in sample_type (the case)" \
		test "$(types "$TD/$f.data" | wc -l)" -gt 1
	one_type "$f.data" "$TD/$f.data"
done
"$PD_BIN/pd-convert" --explain --target-perf=3.10 "$TD/offcpu.data" >"$tmp/ex"
check "--explain: RAW (10) and PERIOD (8) given to the dummy event" \
	grep -q 'sample_type bits added (filled in): 8 10$' "$tmp/ex"
"$PD_BIN/pd-convert" -q --no-shim=sample-type --target-perf=3.10 \
	"$TD/offcpu.data" -o "$tmp/noshim.data"
"$CK" 3.10 "$tmp/noshim.data" >"$tmp/ck"
check "without the shim check-target sees the mismatch ($(grep 'not attr 0' "$tmp/ck" | head -1))" \
	grep -q 'sample_type 0x[0-9a-f]* is not attr 0' "$tmp/ck"
# pipe input: attrs are written as they come
"$PD_BIN/pd-convert" --pipe "$TD/offcpu.data" -o "$tmp/in.pipe"
"$PD_BIN/pd-convert" --target-perf=3.10 -o "$tmp/p.data" - \
	<"$tmp/in.pipe" 2>"$tmp/err"
check "pipe input for 3.10: converted, with a warning ($(head -1 "$tmp/err"))" \
	grep -q 'non matching sample_type.*--file' "$tmp/err"

# samples of two events that differ: recorded here, if tracepoints may be
if ! "$PD_BIN/pd-record" -q -e sched:sched_switch -o "$tmp/probe.data" -- true 2>"$tmp/perr"; then
	skip "sched:sched_switch not permitted here ($(head -1 "$tmp/perr")): no mixed recording"
	exit 0
fi
"$PD_BIN/pd-record" -q -g -e cpu-clock -e sched:sched_switch \
	-o "$tmp/mix.data" -- "$TD/bin/sleeper" >/dev/null 2>&1
"$PD_BIN/pd-record" -q -c 100000 -e task-clock -e sched:sched_switch \
	-o "$tmp/per.data" -- "$TD/bin/sleeper" >/dev/null 2>&1
for f in mix per; do
	check "$f: the recording's events differ in sample_type" \
		test "$(types "$tmp/$f.data" | wc -l)" -gt 1
	one_type "$f" "$tmp/$f.data"
	cp "$tmp/out.data" "$tmp/$f.310.data"
done
if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): the conversions not read by perf"
	exit 0
fi
for f in mix per; do
	o=$(perf_readable "$tmp/$f.data")
	perf script -F event,ip,sym,period -i "$o" 2>/dev/null </dev/null >"$tmp/want"
	perf script -F event,ip,sym,period -i "$tmp/$f.310.data" 2>"$tmp/err" </dev/null >"$tmp/got"
	n=$(grep -c 'sched:sched_switch' "$tmp/got")
	check "$f for 3.10: perf $(perf_version) prints the original's events, addresses, symbols and periods ($(wc -l <"$tmp/got") lines, $n sched_switch), nothing on stderr" \
		cmp -s "$tmp/want" "$tmp/got" && [ ! -s "$tmp/err" ] && [ "$n" -gt 0 ]
done
