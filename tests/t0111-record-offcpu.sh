#!/bin/sh
# pd-record --off-cpu: testdata's waiter sleeps three times as long in
# wait_long as in wait_short and measures both itself (clock_gettime
# around the calls, printed on stderr). pd-fold --off-cpu of the
# recording charges each function the time the program measured (within
# 5% and 2 ms), so the shares are 75/25; perf reads the file (sched_switch
# samples with callchains, SWITCH records, tracing data) without a
# warning; the same in pipe mode through pd-fold -. With a perf before
# 6.1 (Debian 11's 5.10) the recordings are made for it (--target-perf,
# as its user would), and its report, which parses no pipe's samples, is
# not asked about the stream. waiter runs as testdata_bin makes it run.
. "$(dirname "$0")/lib.sh"
private_buildid_cache

REC=$PD_BIN/pd-record
FOLD=$PD_BIN/pd-fold
W=$(testdata_bin waiter)
RT=
have_perf && perf_older_than 6.1 && RT=--target-perf=$(perf_target)

if ! "$REC" -q --off-cpu -o "$tmp/probe.data" -- true 2>"$tmp/probe.err"; then
	skip "sched:sched_switch with callchains not permitted here: $(head -1 "$tmp/probe.err")"
	exit 0
fi

# off-CPU nanoseconds of the stacks through FUNC in folded input
through() { # FOLDED FUNC
	awk -v f=";$2;" '{ s = $1 ";" } index(s, f) { t += $NF } END { printf "%d\n", t }' "$1"
}
measured() { # PROGRAM-STDERR FUNC
	awk -v f="$2" '$1 == f { print $2 }' "$1"
}
close_to() { # GOT WANT: within 5% and 2 ms
	awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(w > 0 && d <= 0.05 * w + 2000000) }'
}

offcpu_checks() { # FOLDED PROGRAM-STDERR NAME
	long=$(through "$1" wait_long)
	short=$(through "$1" wait_short)
	ml=$(measured "$2" wait_long)
	ms=$(measured "$2" wait_short)
	check "$3: wait_long off CPU $long ns, as the program measured ($ml ns)" close_to "$long" "$ml"
	check "$3: wait_short off CPU $short ns, as the program measured ($ms ns)" close_to "$short" "$ms"
	# the sleeps ask for 75/25; a busy machine's wake-up latency adds
	# to both, which the program's own clock sees as well
	share=$(awk -v l="$long" -v s="$short" 'BEGIN { printf "%.1f", 100 * l / (l + s) }')
	mshare=$(awk -v l="$ml" -v s="$ms" 'BEGIN { printf "%.1f", 100 * l / (l + s) }')
	check "$3: wait_long's share is $share% (75% asked; $mshare% measured by the program, within 2 points)" \
		awk -v a="$share" -v b="$mshare" 'BEGIN { d = a - b; exit !(d < 2 && d > -2 && a > 60) }'
	check "$3: the stacks go through nap under run (frame pointers)" \
		grep -q ';main;run;wait_long;nap;' "$1"
}

# switch-outs perf script prints: sched_switch with its fields decoded
# from the tracing data, or context-switches where tracepoints cannot be
# used (no tracefs)
switch_outs() { # PERF-SCRIPT-OUTPUT
	grep -c -E 'sched:sched_switch: prev_comm=waiter|^ *waiter .* cs: *$' "$1"
}

"$REC" $RT -q --off-cpu -o "$tmp/w.data" -- "$W" 3 20 2>"$tmp/prog.err"
check "--off-cpu: exit 0" test $? -eq 0
"$FOLD" --off-cpu "$tmp/w.data" >"$tmp/w.folded" 2>"$tmp/fold.err"
check "pd-fold --off-cpu reads it without a warning" test $? -eq 0 -a ! -s "$tmp/fold.err"
cat "$tmp/fold.err"
offcpu_checks "$tmp/w.folded" "$tmp/prog.err" "file mode"

if have_perf; then
	perf script -i "$tmp/w.data" >"$tmp/script" 2>"$tmp/script.err" </dev/null
	check "perf script reads it, nothing on stderr, waiter's switch-outs" \
		test $? -eq 0 -a ! -s "$tmp/script.err" -a \
		"$(switch_outs "$tmp/script")" -ge 6
	head -3 "$tmp/script.err"
	perf report --stdio -i "$tmp/w.data" >/dev/null 2>"$tmp/report.err" </dev/null
	check "perf report reads it, nothing on stderr" test $? -eq 0 -a ! -s "$tmp/report.err"
	head -3 "$tmp/report.err"
else
	skip "perf not installed: the off-CPU recording not read by perf"
fi

"$REC" $RT -q --off-cpu -o - -- "$W" 3 20 2>"$tmp/prog2.err" >"$tmp/p.data"
"$FOLD" --off-cpu - <"$tmp/p.data" >"$tmp/p.folded"
offcpu_checks "$tmp/p.folded" "$tmp/prog2.err" "pipe mode"
if have_perf; then
	perf script -i - <"$tmp/p.data" >"$tmp/script" 2>"$tmp/script.err"
	check "pipe mode: perf script reads the stream, nothing on stderr, waiter's switch-outs" \
		test $? -eq 0 -a ! -s "$tmp/script.err" -a \
		"$(switch_outs "$tmp/script")" -ge 6
fi

# the context-switches software event (what --off-cpu records where
# tracepoints are not allowed but kernel samples are: paranoid 1)
"$REC" $RT -q -e cs -c 1 -g --switch-events -o "$tmp/cs.data" -- "$W" 3 20 2>"$tmp/prog3.err"
"$FOLD" --off-cpu "$tmp/cs.data" >"$tmp/cs.folded" 2>"$tmp/fold.err"
check "-e cs -c 1 -g --switch-events: pd-fold --off-cpu reads it without a warning" \
	test $? -eq 0 -a ! -s "$tmp/fold.err"
offcpu_checks "$tmp/cs.folded" "$tmp/prog3.err" "context-switches"

# without kernel samples there is no stack at the switch: refused, with
# the sysctl named
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$@"; }
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null &&
   [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ] &&
   as_nobody test -x "$REC"; then
	as_nobody "$REC" --off-cpu -o /dev/null -- "$W" 1 1 >/dev/null 2>"$tmp/err"
	rc=$?
	check "unprivileged --off-cpu at perf_event_paranoid 2: exit 1, one line naming the sysctl" \
		test $rc -eq 1 -a "$(wc -l <"$tmp/err")" -eq 1 -a \
		-n "$(grep 'perf_event_paranoid is 2' "$tmp/err")"
else
	skip "not root, no setpriv, perf_event_paranoid below 2, or the checkout closed to nobody: the refusal is not shown"
fi
