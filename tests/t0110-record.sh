#!/bin/sh
# pd-record: profiles of testdata's burn, in file mode, pipe mode,
# compressed and for perf 4.18, read by the system perf (report and
# script, nothing on stderr) and folded by pd-fold with burn's known hot
# path; pd-fold's folding equals perf script's text folded; the build id
# is burn's, and burn is in the build-id cache; the command's exit
# status, a missing command, SIGINT, a hardware event on a machine
# without PMU, and what an unprivileged user is told.
# pd-record writes the newest format unless told which perf it writes for:
# a perf before 6.1 (Debian 11's 5.10) refuses it, and its user records
# with --target-perf=its version, as this test does then ($RT). What that
# perf cannot read at all is said: compressed records when it has no
# zstd, any pipe's samples in its perf report. Dynamic programs of
# testdata/ run as testdata_bin makes them run here.
. "$(dirname "$0")/lib.sh"
private_buildid_cache

REC=$PD_BIN/pd-record
FOLD=$PD_BIN/pd-fold
BURN=$TD/bin/burn

"$REC" --help >"$tmp/help" 2>&1
check "--help exits 0 and describes -e" test $? -eq 0 -a -n "$(grep -e '--event' "$tmp/help")"
"$REC" -o "$tmp/x.data" 2>"$tmp/err"
check "no command: usage error (exit 2)" test $? -eq 2
"$REC" -F 99 -c 5 -o "$tmp/x.data" true 2>"$tmp/err"
check "-F with -c: usage error (exit 2)" test $? -eq 2

if ! "$REC" -q -o "$tmp/probe.data" -- true 2>"$tmp/probe.err"; then
	skip "perf_event_open not permitted here: $(head -1 "$tmp/probe.err")"
	exit 0
fi

RT= nozstd=
if have_perf; then
	perf_older_than 6.1 && RT=--target-perf=$(perf_target)
	perf version --build-options 2>/dev/null | grep -q 'zstd: \[ OFF' && nozstd=1
fi

# no warning from perf: stderr empty (perf prints its warnings there)
perf_reads() { # FILE NAME
	if ! have_perf; then
		skip "perf not installed (apt-get install linux-perf): $2 not read by perf"
		return
	fi
	if [ -n "$nozstd" ] && perf_unzstd "$1"; then
		skip "$2: perf $(perf_version) was built without zstd: it reads no compressed record"
		return
	fi
	if is_pipe "$1" && perf_older_than 6.1; then
		skip "$2: perf $(perf_version)'s report parses no sample of a pipe, not even of its own recordings"
	else
		perf report --stdio -i "$1" >"$tmp/report" 2>"$tmp/report.err" </dev/null
		check "$2: perf report reads it, nothing on stderr" \
			test $? -eq 0 -a ! -s "$tmp/report.err"
		head -3 "$tmp/report.err"
	fi
	perf script -i "$1" >"$tmp/script" 2>"$tmp/script.err" </dev/null
	check "$2: perf script reads it, nothing on stderr, inner_hot under main" \
		test $? -eq 0 -a ! -s "$tmp/script.err" -a \
		"$(grep -c 'inner_hot+' "$tmp/script")" -gt 10
	head -3 "$tmp/script.err"
}

# burn spends ~85% in main>run>outer>middle>inner_hot, the rest in
# main>run>other_work>leaf_cold (interrupts may add kernel frames below)
hot_path() { # FOLDED NAME
	awk '{ n = $NF; t += n }
	     $1 ~ /;main;run;outer;middle;inner_hot(;|$)/ { h += n }
	     $1 ~ /;main;run;other_work;leaf_cold(;|$)/ { c += n }
	     END { exit !(t > 0 && h > 0.6 * t && h + c > 0.8 * t) }' "$1"
	check "$2: pd-fold shows main;run;outer;middle;inner_hot hot (over 60%; with leaf_cold over 80%)" test $? -eq 0
}

"$REC" $RT -g -F 999 -o "$tmp/fp.data" -- "$BURN" 300 >"$tmp/out" 2>"$tmp/err"
rc=$?
check "file mode: exit 0, perf's summary lines" \
	test $rc -eq 0 -a "$(grep -c '^\[ pd-record: ' "$tmp/err")" -eq 2
grep -q 'Captured and wrote [0-9.]* MB .*/fp.data ([0-9]* samples)' "$tmp/err" ||
	cat "$tmp/err"
perf_reads "$tmp/fp.data" "file mode"
# burn kept in the build-id cache, as perf record keeps it
bid=$(readelf -n "$BURN" | awk '/Build ID/ { print $3 }')
check "build-id cache: burn copied to .build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-)/elf" \
	cmp -s "$PERF_BUILDID_DIR/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-)/elf" "$BURN"
"$FOLD" "$tmp/fp.data" >"$tmp/fp.folded" 2>"$tmp/fold.err"
check "file mode: pd-fold reads it, no warning" test $? -eq 0 -a ! -s "$tmp/fold.err"
hot_path "$tmp/fp.folded" "file mode"
if have_perf; then
	perf script -i "$tmp/fp.data" 2>/dev/null </dev/null |
		"$FOLD" --input=script >"$tmp/want"
	check "file mode: pd-fold equals perf script's text folded ($(wc -l <"$tmp/want") stacks)" \
		cmp -s "$tmp/want" "$tmp/fp.folded"
	want=$(readelf -n "$BURN" | awk '/Build ID/ { print $3 }')
	got=$(perf buildid-list -i "$tmp/fp.data" 2>/dev/null | awk -v p="$BURN" '$2 == p { print $1 }')
	check "BUILD_ID feature: burn's build id ($want)" test -n "$want" -a "$want" = "$got"
	perf_stats_check "$tmp/fp.data" "pd-record file mode"
	perf_header_check "$tmp/fp.data" "pd-record file mode" ||
		not_ok "perf reads pd-record's header without complaint"
fi

# kernel and shared-library samples: their build ids too (the kernel's
# is the running one's, as perf buildid-list -k says; libc is libc.so.6,
# or libc-2.31.so before glibc 2.34)
if have_perf; then
	"$REC" $RT -q -g -o "$tmp/k.data" -- "$(testdata_bin syscalls)" 200
	perf buildid-list -i "$tmp/k.data" >"$tmp/bids" 2>/dev/null </dev/null
	kb=$(perf buildid-list -k 2>/dev/null)
	check "BUILD_ID feature: the running kernel's ($kb) and libc's" \
		test -n "$kb" -a "$(awk '$2 == "[kernel.kallsyms]" { print $1 }' "$tmp/bids")" = "$kb" -a \
		-n "$(grep -E 'libc(-[0-9.]+)?\.so' "$tmp/bids")"
fi

# perf 4.18's format, read by perf 6.1 all the same
"$REC" -q -g -F 999 --target-perf=4.18 -o "$tmp/old.data" -- "$BURN" 300 2>"$tmp/err"
check "--target-perf=4.18: exit 0, nothing on stderr with -q" test $? -eq 0 -a ! -s "$tmp/err"
perf_reads "$tmp/old.data" "--target-perf=4.18"
"$FOLD" "$tmp/old.data" >"$tmp/old.folded"
hot_path "$tmp/old.folded" "--target-perf=4.18"
ls "$tmp" | grep -q 'pd-record-' &&
	not_ok "--target-perf: the temporary file is removed" ||
	ok "--target-perf: the temporary file is removed"

# pipe mode to standard output; the command's own output goes to stderr
"$REC" $RT -q -g -F 999 -o - -- sh -c "echo hello; exec $BURN 300" >"$tmp/pipe.data" 2>"$tmp/err"
check "pipe mode: exit 0, the command's output on stderr" \
	test $? -eq 0 -a "$(cat "$tmp/err")" = hello
check "pipe mode: the stream starts with the pipe header" \
	test "$(head -c 8 "$tmp/pipe.data")" = PERFILE2
perf_reads "$tmp/pipe.data" "pipe mode"
"$FOLD" - <"$tmp/pipe.data" >"$tmp/pipe.all"
grep '^burn;' "$tmp/pipe.all" >"$tmp/pipe.folded"
hot_path "$tmp/pipe.folded" "pipe mode (pd-fold -, burn's stacks)"
"$REC" -o - true 2>/dev/null >/dev/null </dev/null
check "pipe mode: refuses nothing when stdout is not a terminal" test $? -eq 0

# compressed (COMPRESSED records, as perf 6.1 writes and reads them)
"$REC" $RT -q -z -g -F 999 -o "$tmp/z.data" -- "$BURN" 300
check "-z: exit 0" test $? -eq 0
"$PD_BIN/pd-info" --stats "$tmp/z.data" >"$tmp/zs" 2>&1
check "-z: the records are compressed" grep -q 'COMPRESSED' "$tmp/zs"
perf_reads "$tmp/z.data" "-z"

# the command's exit status, and a command that cannot run
"$REC" -o "$tmp/st.data" -- sh -c 'exit 3' 2>"$tmp/err"
check "a command exiting 3: recorded (exit 0), its status reported" \
	test $? -eq 0 -a -n "$(grep 'exited with status 3' "$tmp/err")"
"$REC" -o "$tmp/none.data" -- "$tmp/no-such-program" 2>"$tmp/err"
rc=$?
check "a missing command: exit 1, one line naming it, no output" \
	test $rc -eq 1 -a "$(wc -l <"$tmp/err")" -eq 1 -a ! -e "$tmp/none.data" -a \
	-n "$(grep 'no-such-program' "$tmp/err")"

# SIGINT (Ctrl-C) or SIGTERM to pd-record, sent by the command itself
# once it runs: the file is complete, the command is stopped
for sig in INT TERM; do
	"$REC" $RT -q -g -o "$tmp/sig.data" -- sh -c "kill -$sig \$PPID; exec $BURN 5000" 2>"$tmp/err"
	check "SIG$sig: exit 0" test $? -eq 0
	if have_perf; then
		perf report --stats -i "$tmp/sig.data" >/dev/null 2>"$tmp/perr" </dev/null
		check "SIG$sig: a complete file perf reads without complaint" \
			test $? -eq 0 -a ! -s "$tmp/perr"
	fi
	rm -f "$tmp/sig.data"
done

# hardware events: recorded where the PMU has them, else cpu-clock with
# a warning, as perf falls back
"$REC" -e cycles -F 999 -o "$tmp/hw.data" -- "$BURN" 100 2>"$tmp/err"
rc=$?
if grep -q 'recording cpu-clock instead' "$tmp/err"; then
	check "cycles without a PMU: falls back to cpu-clock with one warning" \
		test $rc -eq 0 -a "$("$PD_BIN/pd-info" "$tmp/hw.data" | grep -c 'name = cpu-clock')" -eq 1
else
	check "cycles with a PMU: recorded as cycles" \
		test $rc -eq 0 -a "$("$PD_BIN/pd-info" "$tmp/hw.data" | grep -c 'name = cycles')" -eq 1
fi

# two events: samples told apart by their IDENTIFIER
"$REC" $RT -q -e cpu-clock,task-clock -F 499 -o "$tmp/two.data" -- "$BURN" 200
check "two events: exit 0" test $? -eq 0
if have_perf; then
	perf script -F event -i "$tmp/two.data" 2>"$tmp/perr" </dev/null | sort | uniq -c >"$tmp/evs"
	check "two events: perf script sees samples of both, nothing on stderr" \
		test "$(wc -l <"$tmp/evs")" -eq 2 -a ! -s "$tmp/perr"
fi

# DWARF callchains: registers and stack copies, unwound by perf and by
# pd-fold alike, through the whole of burn-nofp (no frame pointers)
"$REC" $RT -q --call-graph dwarf,4096 -F 199 -o "$tmp/dwarf.data" -- "$TD/bin/burn-nofp" 300
check "--call-graph dwarf: exit 0" test $? -eq 0
"$FOLD" "$tmp/dwarf.data" >"$tmp/dwarf.folded" 2>"$tmp/err"
check "--call-graph dwarf: pd-fold unwinds to _start > main > run > outer > middle > inner_hot" \
	grep -q '^burn-nofp;_start;.*;main;run;outer;middle;inner_hot' "$tmp/dwarf.folded"
if have_perf; then
	perf script -i "$tmp/dwarf.data" 2>"$tmp/perr" </dev/null | "$FOLD" --input=script >"$tmp/want"
	same=$(cmp -s "$tmp/want" "$tmp/dwarf.folded" && echo yes)
	# Built with an elfutils before 0.188 (Debian 11's), pd-fold's
	# chains end at a frame without unwind tables that is not the first
	# (it warns so): a sample in crtstuff's __do_global_dtors_aux or
	# frame_dummy loses its callers. Then each stack is perf's or the
	# leaf end of one of perf's, and the weights add up the same.
	if [ "$same" != yes ] && grep -q 'elfutils older than 0.188' "$tmp/err"; then
		same=$(awk '
			FNR == NR { w = $NF; sub(/ [0-9]+$/, ""); want[$0] = w; total += w; next }
			{ w = $NF; sub(/ [0-9]+$/, ""); got += w
			  if ($0 in want) next
			  comm = $0; sub(/;.*/, "", comm); rest = substr($0, length(comm) + 1)
			  ok = 0
			  for (s in want)
				if (index(s, comm ";") == 1 && length(s) > length($0) &&
				    substr(s, length(s) - length(rest) + 1) == rest) { ok = 1; break }
			  if (!ok) bad++ }
			END { if (!bad && got == total) print "yes" }' "$tmp/want" "$tmp/dwarf.folded")
	fi
	check "--call-graph dwarf: perf unwinds it the same (or, elfutils before 0.188, chains cut at a frame without unwind tables), nothing on stderr ($(wc -l <"$tmp/want") stacks)" \
		test "$same" = yes -a ! -s "$tmp/perr"
	test -s "$tmp/perr" && head -3 "$tmp/perr"
	cmp -s "$tmp/want" "$tmp/dwarf.folded" || diff "$tmp/want" "$tmp/dwarf.folded" | head -5
fi

# a running process (-p): its name and maps synthesized from /proc,
# recorded until it exits
# (long enough for pd-record to attach on a loaded machine)
"$BURN" 2000 &
bpid=$!
"$REC" $RT -q -g -F 999 -p "$bpid" -o "$tmp/pid.data" 2>"$tmp/err"
rc=$?
wait "$bpid"
check "-p PID: exit 0 once the process ends" test $rc -eq 0
"$FOLD" "$tmp/pid.data" >"$tmp/pid.folded"
hot_path "$tmp/pid.folded" "-p PID"
if have_perf; then
	perf script -F comm,pid -i "$tmp/pid.data" 2>"$tmp/perr" </dev/null |
		awk '{ print $1, $2 }' | sort -u >"$tmp/who"
	check "-p PID: perf script names every sample burn $bpid, nothing on stderr" \
		test "$(cat "$tmp/who")" = "burn $bpid" -a ! -s "$tmp/perr"
fi

# system-wide while a command runs
"$REC" $RT -q -a -g -F 999 -o "$tmp/all.data" -- "$BURN" 300
check "-a: exit 0" test $? -eq 0
"$FOLD" -q "$tmp/all.data" | grep '^burn;' >"$tmp/all.folded"
hot_path "$tmp/all.folded" "-a (burn's stacks)"
perf_reads "$tmp/all.data" "-a"

# a ring buffer too small for any sample (one 4 KiB page, 8 KiB stack
# copies): the kernel writes LOST records instead, counted at the end
# as perf counts them
"$REC" $RT --call-graph dwarf,8192 -m 1 -F 999 -o "$tmp/lost.data" -- "$BURN" 200 2>"$tmp/err"
rc=$?
nlost=$(sed -n 's/.* records lost in \([0-9]*\) LOST records.*/\1/p' "$tmp/err")
check "LOST: exit 0 and a warning counting the LOST records ($nlost)" \
	test $rc -eq 0 -a -n "$nlost"
if have_perf && [ -n "$nlost" ]; then
	perf report --stdio -i "$tmp/lost.data" >/dev/null 2>"$tmp/perr" </dev/null
	check "LOST: perf counts the same ($(grep -o 'lost [0-9]* chunks' "$tmp/perr"))" \
		grep -q "lost $nlost chunks" "$tmp/perr"
fi

# an unprivileged user: its own command is recorded (user space only,
# as perf does with perf_event_paranoid 2); system-wide is refused with
# the sysctl named
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$@"; }
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null &&
   [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ] &&
   as_nobody test -x "$REC" -a -x "$BURN"; then
	nb=$(mktemp -d) && chmod 777 "$nb"
	as_nobody "$REC" -q -g -F 999 -o "$nb/u.data" -- "$BURN" 200 2>"$tmp/err"
	check "unprivileged: its own command is recorded" test $? -eq 0
	if [ -s "$nb/u.data" ]; then
		"$FOLD" "$nb/u.data" >"$tmp/u.folded"
		hot_path "$tmp/u.folded" "unprivileged"
	fi
	as_nobody "$REC" -a -o "$nb/a.data" -- true 2>"$tmp/err"
	rc=$?
	check "unprivileged -a: exit 1, one line naming perf_event_paranoid and its value" \
		test $rc -eq 1 -a "$(wc -l <"$tmp/err")" -eq 1 -a \
		-n "$(grep "perf_event_paranoid is $(cat /proc/sys/kernel/perf_event_paranoid)" "$tmp/err")"
	rm -rf "$nb"
else
	skip "not root, no setpriv, perf_event_paranoid below 1, or the checkout closed to nobody: unprivileged cases not run"
fi
