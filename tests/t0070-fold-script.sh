#!/bin/sh
# pd-fold --input=script: perf script text folded as stackcollapse-perf.pl
# folds it.
# - FlameGraph's own regression oracles: every test/*.txt with --pid, --tid,
#   --kernel, --jit, --all and --addrs equals test/results/ byte for byte;
# - the default (no --pid) is the --pid output with the PIDs taken out;
# - pd-fold's own options on a small hand-written profile whose folding
#   is worked out below: --weight, --capture, --comm, --cpu, --time,
#   --filter (allow, deny, OR groups, --filter-mark), --merge;
# - with perf: selections on perf script text of testdata/ add up;
# - usage errors exit 2 naming the culprit; '-', -i and -o;
# - PD_STACKCOLLAPSE=/path/to/stackcollapse-perf.pl (never committed; it
#   is CDDL): also compared with the script itself on the corpus and on
#   perf script text of every testdata/ file.
. "$(dirname "$0")/lib.sh"

fold() { "$PD_BIN/pd-fold" -q --input=script "$@"; }

# --- FlameGraph's oracles -------------------------------------------------

# The results of --pid and --tid for java were recorded (2017-08) before
# stackcollapse-perf.pl's java detection became "name starts with java"
# (FlameGraph e54f142, 2017-10), which also strips the 'L' of class names
# in "java-PID" stacks. The script itself no longer reproduces them; they
# are compared here with that change applied to them.
java_fixed() {
	awk '/^java/ {
		n = split($0, f, ";"); s = f[1]
		for (i = 2; i <= n; i++) {
			if (f[i] ~ /^L/ && f[i] ~ /\//) f[i] = substr(f[i], 2)
			s = s ";" f[i]
		}
		print s; next
	} { print }' "$1" | LC_ALL=C sort
}

fg=$PD_CORPUS/brendangregg_FlameGraph/test
if [ ! -d "$fg/results" ]; then
	skip "corpus brendangregg_FlameGraph absent: stackcollapse oracles not run"
else
	for t in "$fg"/*.txt; do
		n=$(basename "$t" .txt)
		for opt in pid tid kernel jit all addrs; do
			want=$fg/results/$n-collapsed-$opt.txt
			fold --"$opt" "$t" >"$tmp/got" 2>"$tmp/err"
			case $n-$opt in
			perf-java-*-pid | perf-java-*-tid | perf-vertx-*-pid | perf-vertx-*-tid)
				java_fixed "$want" >"$tmp/want"
				want=$tmp/want
				what="equals results/ (with the 2017 java fix)" ;;
			*)	what="equals results/" ;;
			esac
			check "$n --$opt: $what" cmp -s "$want" "$tmp/got"
		done
	done

	# default: --pid's stacks with "-PID" taken off the process frame, summed
	unpid() {
		awk '{
			c = $NF; k = substr($0, 1, length($0) - length(c) - 1)
			i = index(k, ";"); if (i == 0) i = length(k) + 1
			head = substr(k, 1, i - 1); sub(/-[0-9?]+$/, "", head)
			sum[head substr(k, i)] += c
		} END { for (k in sum) printf "%s %d\n", k, sum[k] }' | LC_ALL=C sort
	}
	for t in "$fg"/*.txt; do
		n=$(basename "$t" .txt)
		fold --pid "$t" | unpid >"$tmp/want"
		fold "$t" | LC_ALL=C sort >"$tmp/got"
		check "$n: default = --pid without PIDs" cmp -s "$tmp/want" "$tmp/got"
	done

	# sorted bytewise, as Perl's sort (keys here have no byte below ' ')
	t=$fg/perf-vertx-stacks-01.txt
	fold "$t" >"$tmp/got"
	LC_ALL=C sort "$tmp/got" >"$tmp/want"
	check "output sorted bytewise" cmp -s "$tmp/want" "$tmp/got"

	# selections on a file that shows CPUs and times: the parts add up
	tc=$fg/perf-iperf-stacks-pidtid-01.txt
	sum_of() { fold "$@" "$tc" | awk '{ s += $NF } END { print s + 0 }'; }
	total=$(sum_of)
	cpus=$(awk '/^[^ \t#]/ { for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) print substr($i, 2, length($i) - 2) + 0 }' \
		"$tc" | sort -un)
	sum=0 ncpu=0
	for c in $cpus; do
		sum=$((sum + $(sum_of --cpu="$c"))) ncpu=$((ncpu + 1))
	done
	check "iperf: --cpu=N over the $ncpu CPUs adds up to the total ($total)" \
		[ "$ncpu" -gt 1 -a "$sum" = "$total" ]
	fold "$tc" >"$tmp/want"
	fold --cpu="$(echo $cpus | tr ' ' ',')" "$tc" >"$tmp/m"
	check "iperf: --cpu=every CPU = the whole" cmp -s "$tmp/want" "$tmp/m"
	# half a microsecond after the middle sample: no sample is on the edge
	mid=$(awk '/^[^ \t#]/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) t[++n] = $i }
		END { m = t[int(n / 2)]; sub(/:/, "", m); print m "5" }' "$tc")
	a=$(sum_of --time=",$mid") b=$(sum_of --time="$mid,")
	check "iperf: --time=,T + --time=T, = the total ($a + $b)" \
		[ "$a" -gt 0 -a "$b" -gt 0 -a $((a + b)) = "$total" ]

	# --merge: the folds of two halves (cut at a blank line) add up to the whole
	half=$(awk '/^$/ { b = NR } NR > 5000 && b { print b; exit }' "$t")
	head -n "$half" "$t" >"$tmp/h1"
	tail -n "+$((half + 1))" "$t" >"$tmp/h2"
	fold "$tmp/h1" >"$tmp/f1"
	fold "$tmp/h2" >"$tmp/f2"
	check "halves differ from the whole" sh -c "! cmp -s '$tmp/f1' '$tmp/got'"
	"$PD_BIN/pd-fold" --merge "$tmp/f1" "$tmp/f2" >"$tmp/m"
	check "--merge of two halves = the whole" cmp -s "$tmp/got" "$tmp/m"
	"$PD_BIN/pd-fold" --merge - <"$tmp/got" >"$tmp/m"
	check "--merge - of one file = the file" cmp -s "$tmp/got" "$tmp/m"
	"$PD_BIN/pd-fold" --merge "$tmp/got" "$tmp/got" | awk '{ print $NF / 2 }' >"$tmp/m"
	awk '{ print $NF }' "$tmp/got" >"$tmp/want"
	check "--merge of a file twice doubles every count" cmp -s "$tmp/want" "$tmp/m"

	# '-', -i, -o and the default standard input
	fold - <"$t" >"$tmp/s1"
	fold <"$t" >"$tmp/s2"
	fold -i "$t" -o "$tmp/s3"
	check "'-' reads standard input" cmp -s "$tmp/got" "$tmp/s1"
	check "--input=script reads standard input by default" cmp -s "$tmp/got" "$tmp/s2"
	check "-i FILE -o FILE" cmp -s "$tmp/got" "$tmp/s3"
fi

# --- pd-fold's options, on a profile worked out by hand --------------------

# Four samples, leaf first, with kernel frames in two of them:
#   prog 100/101 cpu 0 t 10.0001 period 5:  main work k_entry k_leaf
#   prog 100/102 cpu 1 t 10.5    period 7:  main helper(libh)
#   other 200/200 cpu 2 t 11     period 11: main(other) work(libfoo)
#   prog 100/101 cpu 3 t 12      period 13: as the first
tab=$(printf '\t')
cat >"$tmp/p.txt" <<END
# cmdline : /usr/bin/perf record -g ./prog
prog   100/101  [000] 10.000100:          5 cycles:
${tab}ffffffff81000010 k_leaf+0x10 ([kernel.kallsyms])
${tab}ffffffff81000020 k_entry+0x20 ([kernel.kallsyms])
${tab}            1010 work+0x10 (/usr/bin/prog)
${tab}            1020 main+0x20 (/usr/bin/prog)

prog   100/102  [001] 10.500000:          7 cycles:
${tab}            2010 helper+0x10 (/usr/lib/libh.so)
${tab}            1020 main+0x20 (/usr/bin/prog)

other  200/200  [002] 11.000000:         11 cycles:
${tab}            3010 work (/usr/lib/libfoo.so)
${tab}            3020 main (/usr/bin/other)

prog   100/101  [003] 12.000000:         13 cycles:
${tab}ffffffff81000010 k_leaf+0x10 ([kernel.kallsyms])
${tab}ffffffff81000020 k_entry+0x20 ([kernel.kallsyms])
${tab}            1010 work+0x10 (/usr/bin/prog)
${tab}            1020 main+0x20 (/usr/bin/prog)

END

# fold_is DESCRIPTION EXPECTED OPTIONS...: folding p.txt prints EXPECTED
fold_is() {
	d=$1 want=$2; shift 2
	printf '%s\n' "$want" >"$tmp/want"
	if ! fold "$@" "$tmp/p.txt" >"$tmp/got" 2>"$tmp/err"; then
		not_ok "$d (exit status $?: $(head -1 "$tmp/err"))"
	elif cmp -s "$tmp/want" "$tmp/got"; then
		ok "$d"
	else
		not_ok "$d"
		diff "$tmp/want" "$tmp/got" | sed 's/^/# /'
	fi
}

fold_is "default: the period as count" "other;main;work 11
prog;main;helper 7
prog;main;work;k_entry;k_leaf 18"
fold_is "--tid" "other-200/200;main;work 11
prog-100/101;main;work;k_entry;k_leaf 18
prog-100/102;main;helper 7" --tid
fold_is "--weight=samples" "other;main;work 1
prog;main;helper 1
prog;main;work;k_entry;k_leaf 2" --weight=samples
fold_is "--weight=period" "other;main;work 11
prog;main;helper 7
prog;main;work;k_entry;k_leaf 18" --weight=period
fold_is "--capture=user" "other;main;work 11
prog;main;helper 7
prog;main;work 18" --capture=user
fold_is "--capture=kernel (samples without kernel frames keep the process frame)" \
"other 11
prog 7
prog;k_entry;k_leaf 18" --capture=kernel
fold_is "--capture=both --kernel" "other;main;work 11
prog;main;helper 7
prog;main;work;k_entry_[k];k_leaf_[k] 18" --capture=both --kernel
fold_is "--comm=other" "other;main;work 11" --comm=other
fold_is "--comm=prog,nope" "prog;main;helper 7
prog;main;work;k_entry;k_leaf 18" --comm=prog,nope
fold_is "--cpu=0,3" "prog;main;work;k_entry;k_leaf 18" --cpu=0,3
fold_is "--cpu=1-2" "other;main;work 11
prog;main;helper 7" --cpu=1-2
fold_is "--time=10.5,11 (both ends included)" "other;main;work 11
prog;main;helper 7" --time=10.5,11
fold_is "--time=,10.4" "prog;main;work;k_entry;k_leaf 5" --time=,10.4
fold_is "--time=11.5," "prog;main;work;k_entry;k_leaf 13" --time=11.5,
fold_is "--time=10.0001,10.0001 (ns exact)" "prog;main;work;k_entry;k_leaf 5" --time=10.0001,10.0001
fold_is "--comm and --cpu and --time together" "prog;main;work;k_entry;k_leaf 13" \
	--comm=prog --cpu=0-3 --time=11,

cat >"$tmp/deny" <<END
# kernel functions
SYM ^k_
END
cat >"$tmp/allow-bin" <<END
EXEC ^/usr/bin/
END
cat >"$tmp/or" <<END
# main anywhere, or kernel functions from kallsyms

SYM ^main\$
OR
SYM ^k_
EXEC kallsyms
END
cat >"$tmp/and" <<END
SYM ^k_
EXEC libfoo
END
cat >"$tmp/any" <<END
ANY (libh|^work\$)
END
fold_is "--filter=deny:" "other;main;work 11
prog;main;helper 7
prog;main;work 18" --filter=deny:"$tmp/deny"
fold_is "--filter=deny: --filter-mark" "other;main;work 11
prog;main;helper 7
prog;main;work;(cut) 18" --filter=deny:"$tmp/deny" --filter-mark
fold_is "--filter=allow: (EXEC: the module path)" "other;main 11
prog;main 7
prog;main;work 18" --filter=allow:"$tmp/allow-bin"
fold_is "--filter=allow: --filter-mark" "other;main;(cut) 11
prog;main;(cut) 7
prog;main;work;(cut) 18" --filter=allow:"$tmp/allow-bin" --filter-mark
fold_is "--filter=allow: OR groups" "other;main 11
prog;main 7
prog;main;k_entry;k_leaf 18" --filter=allow:"$tmp/or"
fold_is "--filter=allow: OR groups --filter-mark" "other;main;(cut) 11
prog;main;(cut) 7
prog;main;(cut);k_entry;k_leaf 18" --filter=allow:"$tmp/or" --filter-mark
fold_is "--filter=allow: a group needs all its lines" "other 11
prog 25" --filter=allow:"$tmp/and"
fold_is "--filter=deny: ANY (symbol or module)" "other;main 11
prog;main 7
prog;main;k_entry;k_leaf 18" --filter=deny:"$tmp/any"
fold_is "--filter=allow: and deny: together" "other;main 11
prog;main 25" --filter=allow:"$tmp/or" --filter=deny:"$tmp/deny"

# the event filter: the first event seen, said once on stderr
sed 's/11 cycles:/11 instructions:/' "$tmp/p.txt" >"$tmp/ev.txt"
"$PD_BIN/pd-fold" --input=script "$tmp/ev.txt" >"$tmp/got" 2>"$tmp/err"
check "samples of other events left out" sh -c "! grep -q other '$tmp/got'"
check "... and said once on stderr" \
	[ "$(grep -c 'Filtering for events of type: cycles' "$tmp/err")" = 1 ]
fold --event-filter=instructions "$tmp/ev.txt" >"$tmp/got"
check "--event-filter=instructions" [ "$(cat "$tmp/got")" = "other;main;work 11" ]

# --- with perf: selections on testdata/ add up ---------------------------

if ! have_perf; then
	skip "perf not installed: selections on perf script text of testdata/ not run"
else
	# testdata/ is recorded per thread: no CPU field (--cpu: corpus above)
	perf script -F comm,pid,tid,time,period,event,ip,sym,dso \
		-i "$(perf_readable "$TD/threads.data")" >"$tmp/th.txt" 2>/dev/null </dev/null
	total=$(fold "$tmp/th.txt" | awk '{ s += $NF } END { print s + 0 }')
	mid=$(awk '/^[^ \t]/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) t[++n] = $i }
		END { m = t[int(n / 2)]; sub(/:/, "", m); print m "5" }' "$tmp/th.txt")
	a=$(fold --time=",$mid" "$tmp/th.txt" | awk '{ s += $NF } END { print s + 0 }')
	b=$(fold --time="$mid," "$tmp/th.txt" | awk '{ s += $NF } END { print s + 0 }')
	check "threads.data: --time=,T + --time=T, = the total ($a + $b)" \
		[ "$a" -gt 0 -a "$b" -gt 0 -a $((a + b)) = "$total" ]
	"$PD_BIN/pd-fold" --input=script --cpu=0 "$tmp/th.txt" >"$tmp/got" 2>"$tmp/err"
	fold "$tmp/th.txt" >"$tmp/want"
	check "--cpu on text without CPUs keeps every sample" cmp -s "$tmp/want" "$tmp/got"
	check "... with one warning" [ "$(grep -c 'shows no CPU' "$tmp/err")" = 1 ]
	k=$(fold --kernel "$tmp/th.txt" | grep -c '_\[k\]')
	u=$(fold --capture=user --kernel "$tmp/th.txt" | grep -c '_\[k\]')
	check "threads.data: --capture=user drops the kernel frames ($k stacks had some)" \
		[ "$k" -gt 0 -a "$u" = 0 ]
	n=$(fold --capture=kernel --kernel "$tmp/th.txt" | awk '{ n = split($1, f, ";"); for (i = 2; i <= n; i++) if (f[i] !~ /_\[k\]$/) bad++ } END { print bad + 0 }')
	k2=$(fold --capture=kernel --kernel "$tmp/th.txt" | grep -c '_\[k\]')
	check "threads.data: --capture=kernel keeps the kernel frames only" [ "$n" = 0 -a "$k2" = "$k" ]
fi

# --- usage errors -----------------------------------------------------------

# usage_is DESCRIPTION PATTERN ARGS...: exit 2, PATTERN on stderr
usage_is() {
	d=$1 pat=$2; shift 2
	"$PD_BIN/pd-fold" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q -e "$pat" "$tmp/err"; then
		ok "$d"
	else
		not_ok "$d (exit $rc: $(head -1 "$tmp/err"))"
	fi
}
printf 'SYM ^ok$\nSYM (unclosed\n' >"$tmp/bad-re"
printf 'SYM ^ok$\nFUNC x\n' >"$tmp/bad-kind"
printf '# nothing\n\n' >"$tmp/empty"
usage_is "bad regex: exit 2 naming file and line" "bad-re:2: bad regex" \
	--input=script --filter=allow:"$tmp/bad-re" "$tmp/p.txt"
usage_is "bad rule kind: exit 2 naming file and line" "bad-kind:2:" \
	--input=script --filter=deny:"$tmp/bad-kind" "$tmp/p.txt"
usage_is "rule file without rules: exit 2" "empty: no rules" \
	--input=script --filter=deny:"$tmp/empty" "$tmp/p.txt"
usage_is "unreadable rule file: exit 2" "$tmp/nonexistent" \
	--input=script --filter=allow:"$tmp/nonexistent" "$tmp/p.txt"
usage_is "--filter without allow:/deny:" "allow:FILE or deny:FILE" \
	--input=script --filter="$tmp/or" "$tmp/p.txt"
usage_is "--input=FILE is refused" "takes 'data' or 'script'" --input="$tmp/p.txt"
usage_is "--weight=bad" "--weight" --input=script --weight=bytes "$tmp/p.txt"
usage_is "--capture=bad" "--capture" --input=script --capture=all "$tmp/p.txt"
usage_is "--cpu=bad" "--cpu" --input=script --cpu=3-1 "$tmp/p.txt"
usage_is "--time=bad" "--time" --input=script --time=5 "$tmp/p.txt"
usage_is "two inputs" "one input" --input=script "$tmp/p.txt" "$tmp/p.txt"
# rc_is DESCRIPTION RC PATTERN: the last command exited RC, PATTERN in $tmp/err
rc_is() {
	if [ "$rc" -eq "$2" ] && grep -q -e "$3" "$tmp/err"; then
		ok "$1"
	else
		not_ok "$1 (exit $rc: $(head -1 "$tmp/err"))"
	fi
}
"$PD_BIN/pd-fold" --help >"$tmp/err" 2>&1; rc=$?
rc_is "--help exits 0" 0 '--input=FORMAT' 
"$PD_BIN/pd-fold" --input=script "$tmp/nonexistent" >/dev/null 2>"$tmp/err"; rc=$?
rc_is "missing input: exit 1" 1 nonexistent
printf 'a;b 1\nnot folded\n' >"$tmp/badfold"
"$PD_BIN/pd-fold" --merge "$tmp/badfold" >"$tmp/out" 2>"$tmp/err"; rc=$?
rc_is "--merge of a non-folded line: exit 1 naming file and line" 1 'badfold:2'
check "... and no output" [ ! -s "$tmp/out" ]
fold -o "$tmp/nodir/out" "$tmp/p.txt" 2>"$tmp/err"; rc=$?
rc_is "unwritable -o: exit 1" 1 nodir
if [ -w /dev/full ]; then
	fold "$tmp/p.txt" >/dev/full 2>"$tmp/err"; rc=$?
	rc_is "write error (/dev/full): exit 1" 1 'write error' 
fi

# --- the script itself, when given ----------------------------------------

if [ -z "${PD_STACKCOLLAPSE:-}" ]; then
	skip "PD_STACKCOLLAPSE unset: not compared with stackcollapse-perf.pl itself"
else
	for t in "$fg"/*.txt; do
		[ -f "$t" ] || continue
		for opt in "" --pid --tid --all --addrs; do
			perl "$PD_STACKCOLLAPSE" $opt "$t" >"$tmp/want" 2>/dev/null
			fold $opt "$t" >"$tmp/got"
			check "$(basename "$t") $opt: = stackcollapse-perf.pl" cmp -s "$tmp/want" "$tmp/got"
		done
	done
	if have_perf; then
		for f in "$TD"/*.data; do
			perf script -i "$(perf_readable "$f")" >"$tmp/ps.txt" 2>/dev/null </dev/null
			for opt in "" --tid --all; do
				perl "$PD_STACKCOLLAPSE" $opt "$tmp/ps.txt" >"$tmp/want" 2>/dev/null
				fold $opt "$tmp/ps.txt" >"$tmp/got"
				check "perf script $(basename "$f") $opt: = stackcollapse-perf.pl" \
					cmp -s "$tmp/want" "$tmp/got"
			done
		done
	fi
fi
