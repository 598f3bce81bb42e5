#!/bin/sh
# pd-fold --off-cpu on testdata/offcpu.data (sched:sched_switch with
# callchains, recorded with -a so that switch-ins are seen too):
#  - equals an independent oracle: an awk script over perf script's text
#    that keeps each task's stack when it leaves the CPU (prev_pid) and
#    charges the time until it is switched in again (next_pid) to it, in
#    ns (a wait of 0 counts 1, as pd-fold weighs it); the result folded
#    by pd-fold --input=script (and stackcollapse-perf.pl itself with
#    PD_STACKCOLLAPSE);
#  - per task, adds up to the wait times perf sched timehist prints;
#  - without --off-cpu, equals perf script | pd-fold --input=script.
# perf reads offcpu.data as it can (perf_readable: Debian 11's perf 5.10
# a copy made for it).
. "$(dirname "$0")/lib.sh"

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): nothing to compare with"
	exit 0
fi
testdata_buildid_cache
FOLD=$PD_BIN/pd-fold
f=$TD/offcpu.data

# perf script text of the off-CPU periods: one sample per switch-in of a
# task whose switch-out was seen, weighted by the time between them
offcpu_oracle() {
	perf script --ns -F comm,pid,tid,cpu,time,event,trace,ip,sym,dso \
		-i "$1" 2>/dev/null </dev/null | awk '
	function num(s, k) {	# the number after "k=" in s
		if (!match(s, " " k "=-?[0-9]+"))
			return ""
		return substr(s, RSTART + length(k) + 2, RLENGTH - length(k) - 2) + 0
	}
	function done() {
		if (!inblock)
			return
		inblock = 0
		if (nxt in pt) {
			w = t - pt[nxt]
			if (w <= 0)
				w = 1
			printf "%s %d %d.%09d: %d off-cpu:\n%s\n", pc[nxt], nxt,
				int(t / 1e9), t % 1e9, w, ps[nxt]
			delete pt[nxt]
		}
		if (prev > 0) {
			pt[prev] = t
			ps[prev] = stack
			pc[prev] = comm
		}
	}
	/^\t/ { if (inblock) stack = stack $0 "\n"; next }
	/^$/ { done(); next }
	/ sched:sched_switch: / {
		done()
		comm = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^[0-9]+\/[0-9]+$/)
				break
			comm = comm (comm == "" ? "" : " ") $i
		}
		for (; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/) {
				split(substr($i, 1, length($i) - 1), tt, ".")
				t = tt[1] * 1e9 + tt[2]
				break
			}
		prev = num($0, "prev_pid")
		nxt = num($0, "next_pid")
		stack = ""
		inblock = 1
		next
	}
	END { done() }'
}

if [ ! -f "$f" ]; then
	not_ok "testdata/offcpu.data exists (testdata/record.sh)"
	exit 0
fi
pf=$(perf_readable "$f")
offcpu_oracle "$pf" >"$tmp/oracle.txt"
n=$(grep -c ' off-cpu:$' "$tmp/oracle.txt")
check "the oracle finds off-CPU periods in offcpu.data ($n)" test "$n" -gt 5
for o in "" --tid --kernel "--pid --all"; do
	# shellcheck disable=SC2086
	"$FOLD" --input=script $o "$tmp/oracle.txt" >"$tmp/want" 2>/dev/null
	# shellcheck disable=SC2086
	"$FOLD" -q --off-cpu $o "$f" >"$tmp/got" 2>"$tmp/err"
	rc=$?
	check "--off-cpu ${o:-(default)}: as the awk oracle over perf script ($(wc -l <"$tmp/want") stacks, rc $rc)" \
		cmp -s "$tmp/want" "$tmp/got"
	diff "$tmp/want" "$tmp/got" | head -6 | cut -c1-300
done
if [ -n "${PD_STACKCOLLAPSE:-}" ]; then
	perl "$PD_STACKCOLLAPSE" <"$tmp/oracle.txt" >"$tmp/want" 2>/dev/null
	"$FOLD" -q --off-cpu "$f" >"$tmp/got" 2>/dev/null
	check "--off-cpu: as stackcollapse-perf.pl over the oracle's text" \
		cmp -s "$tmp/want" "$tmp/got"
else
	skip "PD_STACKCOLLAPSE unset: oracle not folded by stackcollapse-perf.pl itself"
fi

# per task: the waits perf sched timehist shows (ms, 3 decimals) add up
# to pd-fold's off-CPU time of that tid, within what timehist cuts
# off (it prints whole microseconds, truncated)
"$FOLD" -q --off-cpu --tid "$f" | awk '{
	n = split($1, fr, ";"); tid = fr[1]; sub(/.*\//, "", tid)
	s[tid] += $NF
} END { for (t in s) print t, s[t] }' | sort >"$tmp/ours"
if perf sched timehist -i "$pf" >"$tmp/th" 2>/dev/null </dev/null &&
   grep -q 'wait time' "$tmp/th"; then
	awk '$1 ~ /^[0-9]+\.[0-9]+$/ && $3 ~ /\[[0-9]+\]$/ {
		tid = $3; sub(/.*\[/, "", tid); sub(/\]/, "", tid)
		w[tid] += $4 * 1e6; c[tid]++
	} END { for (t in w) if (w[t] > 0) printf "%s %.0f %d\n", t, w[t], c[t] }' \
		"$tmp/th" | sort >"$tmp/theirs"
	bad=$(join "$tmp/theirs" "$tmp/ours" | awk '{
		d = $2 - $4; if (d < 0) d = -d
		if (d > 1000 * $3) print
	}')
	nt=$(wc -l <"$tmp/theirs")
	check "per task, the time off CPU equals perf sched timehist's wait times ($nt tasks)" \
		test -z "$bad" -a "$nt" -gt 0 -a "$nt" = "$(join "$tmp/theirs" "$tmp/ours" | wc -l)"
	[ -z "$bad" ] || echo "# tid timehist-ns entries pd-fold-ns: $bad"
else
	skip "perf sched timehist cannot read offcpu.data"
fi

# without --off-cpu: samples counted as perf script shows them
perf script -i "$pf" 2>/dev/null </dev/null | "$FOLD" --input=script >"$tmp/want"
"$FOLD" -q "$f" >"$tmp/got"
check "without --off-cpu: as perf script | pd-fold --input=script ($(wc -l <"$tmp/want") stacks)" \
	cmp -s "$tmp/want" "$tmp/got"
diff "$tmp/want" "$tmp/got" | head -4

# a recording of only the task's switch-outs (no -a): nothing to charge,
# and one warning that says why
"$FOLD" --off-cpu "$TD/tracepoint.data" >"$tmp/got" 2>"$tmp/err"
check "--off-cpu without callchains: exit 0, nothing folded, one warning" \
	test $? -eq 0 -a ! -s "$tmp/got" -a "$(wc -l <"$tmp/err")" -eq 1
