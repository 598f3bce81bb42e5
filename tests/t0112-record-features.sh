#!/bin/sh
# pd-record's machine and clock features: CACHE, NUMA_TOPOLOGY,
# MEM_TOPOLOGY and, with -k/--clockid, CLOCKID and CLOCK_DATA. perf 6.1's
# 'perf report --header-only -I' prints the same lines for them from a
# pd-record file as from a 'perf record' file made here at the same
# moment (only the free memory of a node may move between the two); pd-info
# prints them as perf does; -k stamps samples with the chosen clock
# (realtime: 'perf script -F time' shows the wall clock of the run); each
# --target-perf keeps exactly the features that target reads (the feats
# column of pd-convert --list-targets). With a perf before 6.1 (Debian
# 11's 5.10) pd-record writes for it (--target-perf=its version, $RT), and
# what a target newer than that perf keeps is read by pd-info.
. "$(dirname "$0")/lib.sh"
private_buildid_cache

REC=$PD_BIN/pd-record
INFO=$PD_BIN/pd-info

"$REC" -k nosuchclock -o "$tmp/x.data" -- true 2>"$tmp/err"
check "-k with an unknown clock: usage error (exit 2) naming it" \
	test $? -eq 2 -a -n "$(grep nosuchclock "$tmp/err")"
"$REC" --help | grep -q -e '--clockid'
check "--help describes -k/--clockid" test $? -eq 0

if ! "$REC" -q -o "$tmp/probe.data" -- true 2>"$tmp/probe.err"; then
	skip "perf_event_open not permitted here: $(head -1 "$tmp/probe.err")"
	exit 0
fi
if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): no oracle for the header features"
	exit 0
fi
RT=
perf_older_than 6.1 && RT=--target-perf=$(perf_target)
# newer T: a target newer than the perf at hand (which reads none of it)
newer() {
	[ "$(printf '%s\n%s\n' "$(perf_version)" "$1" | sort -t. -k1,1n -k2,2n | tail -1)" != "$(perf_version)" ]
}

# the feature lines of perf's header view; node free memory masked
feature_lines() { # FILE-OR-TEXT via stdin
	grep -E '^# (node[0-9]+ (meminfo|cpu list)|CPU cache info:|memory nodes|clockid)|^# +(L[0-9]+ |[0-9]+ \[)' |
		sed 's/free = [0-9]* kB/free = N kB/'
}
perf_header() { # FILE
	perf report --header-only -I -i "$1" 2>/dev/null </dev/null
}

if ! perf record -q -o "$tmp/perf.data" -- true 2>"$tmp/perf.err" ||
   ! perf record -q -k monotonic -o "$tmp/perfk.data" -- true 2>>"$tmp/perf.err"; then
	skip "perf record fails here: $(head -1 "$tmp/perf.err")"
	exit 0
fi
"$REC" $RT -q -o "$tmp/pd.data" -- true
"$REC" $RT -q -k monotonic -o "$tmp/pdk.data" -- true
check "-k monotonic: exit 0" test $? -eq 0

perf_header "$tmp/perf.data" | feature_lines >"$tmp/want"
perf_header "$tmp/pd.data" | feature_lines >"$tmp/got"
check "CACHE, NUMA_TOPOLOGY, MEM_TOPOLOGY: perf prints the same lines as for perf record's file ($(wc -l <"$tmp/want") lines)" \
	cmp -s "$tmp/want" "$tmp/got"
diff "$tmp/want" "$tmp/got" | head -10
for what in 'node[0-9]* meminfo' 'memory nodes' 'CPU cache info'; do
	if grep -q "^# $what" "$tmp/want"; then
		check "perf record writes '$what' here, and so does pd-record" \
			grep -q "^# $what" "$tmp/got"
	else
		skip "perf record writes no '$what' line on this machine (sysfs lacks it)"
	fi
done
[ -n "$(ls /sys/devices/system/cpu/cpu0/cache 2>/dev/null)" ] ||
	echo "# this machine has no /sys/devices/system/cpu/cpu0/cache: CACHE holds no level"

# CACHE with caches to describe: sysfs' CPU directory replaced, in a
# private mount namespace, by a copy of its topology plus made-up cache
# levels (4 per CPU, L1 per CPU, L3 shared, a type with a trailing
# blank; perf 6.1 frees a value with a leading blank wrongly); perf
# record and pd-record both read it there.
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
   [ -r /sys/devices/system/cpu/possible ]; then
	S=/sys/devices/system/cpu
	F=$tmp/fakecpu
	mkdir -p "$F"
	for f in possible present online offline kernel_max; do
		[ -r "$S/$f" ] && cat "$S/$f" >"$F/$f"
	done
	for c in "$S"/cpu[0-9]*; do
		n=${c##*/}
		mkdir -p "$F/$n/topology"
		for f in "$c"/topology/*; do
			cat "$f" >"$F/$n/topology/${f##*/}" 2>/dev/null
		done
		for i in 0 1 2 3; do
			d=$F/$n/cache/index$i
			mkdir -p "$d"
			echo $((i == 0 ? 1 : i)) >"$d/level"
			echo 64 >"$d/coherency_line_size"
			echo $((64 * (i + 1))) >"$d/number_of_sets"
			echo $((8 + i)) >"$d/ways_of_associativity"
			case $i in 0) t=Data ;; 1) t=Instruction ;; *) t=Unified ;; esac
			echo "$t " >"$d/type"
			echo "$((32 << i))K" >"$d/size"
			if [ $i -lt 3 ]; then echo "${n#cpu}"; else cat "$S/possible"; fi \
				>"$d/shared_cpu_list"
		done
	done
	if unshare -m sh -c "mount --bind '$F' $S &&
		perf record -q -o '$tmp/pc.data' -- true &&
		'$REC' $RT -q -o '$tmp/dc.data' -- true" 2>"$tmp/ns.err"; then
		perf_header "$tmp/pc.data" | feature_lines >"$tmp/want"
		perf_header "$tmp/dc.data" | feature_lines >"$tmp/got"
		check "CACHE of made-up sysfs caches: perf prints the same $(grep -c '^# *L[0-9]' "$tmp/want") levels, in the same order, as for perf record's file" \
			test "$(grep -c '^# *L[0-9]' "$tmp/want")" -gt 0 -a -z "$(diff "$tmp/want" "$tmp/got")"
		diff "$tmp/want" "$tmp/got" | head -6
		"$INFO" "$tmp/dc.data" | feature_lines >"$tmp/info"
		check "pd-info prints those cache levels as perf does" \
			cmp -s "$tmp/want" "$tmp/info"
	else
		skip "no private mount namespace here ($(head -1 "$tmp/ns.err")): CACHE not checked with caches"
	fi
else
	skip "not root or no unshare: CACHE not checked with caches (this machine's sysfs may have none)"
fi

perf_header "$tmp/perfk.data" | feature_lines >"$tmp/want"
perf_header "$tmp/pdk.data" | feature_lines >"$tmp/got"
check "-k monotonic: CLOCKID and CLOCK_DATA lines as perf record -k monotonic's" \
	cmp -s "$tmp/want" "$tmp/got"
diff "$tmp/want" "$tmp/got" | head -10
grep -q '^# clockid: monotonic (1)' "$tmp/got"
check "-k monotonic: perf names the clock" test $? -eq 0
perf_header "$tmp/pdk.data" | grep -q \
	'^# reference time: [0-9-]* [0-9:.]* = [0-9.]* (TOD) = [0-9.]* (monotonic)'
check "CLOCK_DATA: perf prints the reference time" test $? -eq 0
perf_header "$tmp/pdk.data" | grep -q 'use_clockid = 1.*clockid = 1'
check "-k monotonic: the attr has use_clockid and clockid 1" test $? -eq 0
perf_header "$tmp/pd.data" | grep -q -e 'clockid'
check "without -k: no clockid in attr or header" test $? -ne 0

"$INFO" "$tmp/pdk.data" | feature_lines >"$tmp/info"
perf_header "$tmp/pdk.data" | feature_lines >"$tmp/want"
check "pd-info prints the new features as perf does" cmp -s "$tmp/want" "$tmp/info"
diff "$tmp/want" "$tmp/info" | head -6

# realtime: the samples' times are the wall clock of the run
t0=$(date +%s.%N)
"$REC" $RT -q -k realtime -o "$tmp/rt.data" -- sh -c \
	'i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done'
t1=$(date +%s.%N)
perf script -F time -i "$tmp/rt.data" 2>"$tmp/script.err" </dev/null |
	tr -d ': ' >"$tmp/times"
n=$(wc -l <"$tmp/times")
awk -v a="$t0" -v b="$t1" '$1 < a || $1 > b { bad++ } END { exit !(NR > 0 && !bad) }' "$tmp/times"
check "-k realtime: perf script -F time reads $n samples, all between the wall clock before ($t0) and after ($t1)" \
	test $? -eq 0 -a ! -s "$tmp/script.err"
perf_header "$tmp/rt.data" | grep -q '^# clockid: realtime (0)'
check "-k realtime: CLOCK_DATA names realtime (0)" test $? -eq 0
"$REC" $RT -q -k 4 -o "$tmp/raw.data" -- true
perf_header "$tmp/raw.data" | grep -q '^# clockid: monotonic_raw (4)'
check "-k 4: a clock by number (monotonic_raw)" test $? -eq 0

# --target-perf: a feature stays when the target knows its id (below the
# feats column of --list-targets)
"$PD_BIN/pd-convert" --list-targets >"$tmp/targets"
feats() { awk -v t="$1" '!NF { exit } $1 == t { print $4 }' "$tmp/targets"; }
for t in 4.3 4.18 5.4 6.1; do
	"$REC" -q -k monotonic --target-perf=$t -o "$tmp/t$t.data" -- true
	if newer $t; then
		"$INFO" "$tmp/t$t.data" >"$tmp/t$t.h"
	else
		perf_header "$tmp/t$t.data" >"$tmp/t$t.h"
	fi
	last=$(feats $t)
	got=
	want=
	for f in 14:'node[0-9]* meminfo' 20:'CPU cache info' \
		 22:'memory nodes' 23:'clockid frequency' 29:'clockid:'; do
		id=${f%%:*}
		[ "$id" -lt "$last" ] && want="$want $id"
		grep -q "^# ${f#*:}" "$tmp/t$t.h" && got="$got $id"
	done
	check "--target-perf=$t: features$got, those the target reads (below $last)$(newer $t && echo ", as pd-info reads them")" \
		test "$got" = "$want"
done

# --target-perf takes what pd-convert's takes (pd_perf_target__resolve()):
# a version between targets, perf --version's line, a distribution, a
# perf binary (probed; its cache this test's own); each file keeps the
# rules of what the spec names (tests/tools/check-target)
CK=$(dirname "$PD_BIN")/tests/tools/check-target
specs="5.15|perf version 5.10.223|debian11|ubuntu22.04|7.2"
command -v perf >/dev/null 2>&1 && specs="$specs|auto"
IFS='|'
for t in $specs; do
	unset IFS
	XDG_CACHE_HOME=$tmp/cache "$REC" -q --target-perf="$t" -o "$tmp/spec.data" -- true 2>"$tmp/err"
	rc=$?
	XDG_CACHE_HOME=$tmp/cache "$CK" "$t" "$tmp/spec.data" >"$tmp/ck" 2>&1
	check "--target-perf='$t': recorded (rc $rc, $(head -1 "$tmp/err")), the file keeps its rules ($(head -1 "$tmp/ck"))" \
		[ "$rc" -eq 0 ] && [ ! -s "$tmp/ck" ]
done
unset IFS
"$REC" -q --target-perf=2.6 -o "$tmp/spec.data" -- true 2>"$tmp/err"
check "--target-perf=2.6 (older than every target): refused, saying why ($(head -1 "$tmp/err"))" \
	sh -c "[ $? -ne 0 ] && grep -q -- '--target-perf=2.6: ' '$tmp/err'"

# Pipe mode for every target. A stream ends its features with the
# target's last feature id (its perf stops on any other); perf 6.1 takes
# ids 23, 28 and 30 (the 4.18, 5.4 and 5.10 markers) for features and
# reads them from the 8 zero bytes the marker carries. The RHEL 7 and 8
# marker, 24, is DIR_FORMAT to perf 6.1, which refuses it outside a
# directory whatever it holds ("failed to process type: 80", as for RHEL
# perf's own pipes): such a stream is for its target; converted for 6.1
# it opens.
for t in $(awk 'NR > 1 && !NF { exit } NR > 1 { print $1 }' "$tmp/targets"); do
	# perf 5.10 reads no stream for a newer perf (6.1 reads 6.6's)
	case $t in rhel7) v=3.10 ;; rhel8) v=4.18 ;; rhel9) v=5.14 ;; *) v=$t ;; esac
	if perf_older_than 6.1 && newer $v; then
		skip "pipe for $t: perf $(perf_version) reads no stream of a newer perf"
		continue
	fi
	"$REC" -q --target-perf=$t -o - -- true >"$tmp/p$t.data"
	last=$(feats $t)
	marker=$("$INFO" -D "$tmp/p$t.data" 2>/dev/null |
		awk '/PERF_RECORD_FEATURE/ { id = $6 }
		/PERF_RECORD_FEATURE.* end of the features/ { id = $NF; gsub(/[^0-9]/, "", id) }
		END { print id }')
	perf script -i - <"$tmp/p$t.data" >"$tmp/p.script" 2>"$tmp/p.err"
	rc=$?
	case $t in
	3.10|4.1|4.3)
		check "pipe for $t: no features (that perf takes none from a pipe); perf $(perf_version) reads it, nothing on stderr" \
			test -z "$marker" -a $rc -eq 0 -a ! -s "$tmp/p.err" ;;
	rhel7|rhel8)
		check "pipe for $t: ends with marker $last; perf $(perf_version) stops on it (DIR_FORMAT), as on that perf's own pipes" \
			test "$marker" = "$last" -a -n "$(grep 'failed to process type: 80' "$tmp/p.err")"
		"$PD_BIN/pd-convert" --target-perf="$(perf_target)" "$tmp/p$t.data" -o - 2>/dev/null |
			perf script -i - >/dev/null 2>"$tmp/p.err"
		check "pipe for $t converted for $(perf_target): perf $(perf_version) reads it, nothing on stderr" \
			test $? -eq 0 -a ! -s "$tmp/p.err" ;;
	*)
		check "pipe for $t: ends with marker $last; perf $(perf_version) reads it, nothing on stderr" \
			test "$marker" = "$last" -a $rc -eq 0 -a ! -s "$tmp/p.err" ;;
	esac
	head -2 "$tmp/p.err"
done

# The kernel's map: from _text to _etext, as perf record synthesizes it
kmap() { perf report -D -i "$1" 2>/dev/null </dev/null |
	grep 'PERF_RECORD_MMAP -1/0: .*kernel.kallsyms' |
	sed 's/^.*PERF_RECORD_MMAP/PERF_RECORD_MMAP/'; }
kmap "$tmp/perf.data" >"$tmp/want"
kmap "$tmp/pd.data" >"$tmp/got"
if [ -s "$tmp/want" ]; then
	check "the kernel's MMAP as perf record's: $(cat "$tmp/want")" cmp -s "$tmp/want" "$tmp/got"
	diff "$tmp/want" "$tmp/got" | head -4
else
	skip "perf record synthesizes no kernel map here (kernel addresses hidden)"
fi

# Kernel modules: one MMAP per module (pid -1, misc kernel) as perf record
# synthesizes them, same addresses, sizes and paths, in the same order.
if [ ! -r /proc/modules ] || [ ! -s /proc/modules ]; then
	skip "no loaded kernel modules here (/proc/modules missing or empty: a kernel without module support): module maps not compared"
else
	perf record -q -a -o "$tmp/pm.data" -- true 2>/dev/null
	"$REC" $RT -q -a -o "$tmp/dm.data" -- true
	mods() { perf report -D -i "$1" 2>/dev/null </dev/null |
		grep 'PERF_RECORD_MMAP -1/0:' | grep -v 'kernel.kallsyms' |
		sed 's/^.*PERF_RECORD_MMAP/PERF_RECORD_MMAP/'; }
	mods "$tmp/pm.data" >"$tmp/want"
	mods "$tmp/dm.data" >"$tmp/got"
	if [ ! -s "$tmp/want" ]; then
		skip "perf record synthesizes no module map here (addresses hidden?): nothing to compare"
	else
		check "module maps: the $(wc -l <"$tmp/want") MMAPs perf record synthesizes" \
			cmp -s "$tmp/want" "$tmp/got"
		diff "$tmp/want" "$tmp/got" | head -6
	fi
fi

# KSYMBOL and BPF_EVENT: asked for on the side-band event where the
# target reads them (5.1+); a BPF program the command loads is named.
BPFLOAD=$(dirname "$PD_BIN")/tests/tools/bpf-load
perf_header "$tmp/pd.data" | grep -q 'ksymbol = 1, bpf_event = 1'
check "the side-band event asks for ksymbol and bpf_event" test $? -eq 0
"$REC" -q --target-perf=4.18 -o "$tmp/k418.data" -- true
perf_header "$tmp/k418.data" | grep -q 'ksymbol'
check "--target-perf=4.18 (no KSYMBOL records): not asked for" test $? -ne 0
if [ ! -x "$BPFLOAD" ]; then
	skip "tests/tools/bpf-load not built (make check builds it): KSYMBOL not tested"
elif ! "$BPFLOAD" pd_probe 2>"$tmp/bpf.err"; then
	skip "this kernel does not let us load a BPF program ($(head -1 "$tmp/bpf.err")): KSYMBOL not tested"
elif [ "$(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null)" = 0 ]; then
	skip "the BPF JIT is off (net.core.bpf_jit_enable=0): no KSYMBOL to record"
else
	"$REC" $RT -q -o "$tmp/bpf.data" -- "$BPFLOAD" pd_ksym_test
	perf report -D -i "$tmp/bpf.data" 2>/dev/null </dev/null >"$tmp/bpf.dump"
	grep -q 'PERF_RECORD_KSYMBOL .* type 1 flags 0x0 name bpf_prog_[0-9a-f]*_pd_ksym_test' "$tmp/bpf.dump"
	check "a BPF program loaded while recording: perf reads its KSYMBOL (bpf_prog_TAG_pd_ksym_test)" test $? -eq 0
	grep -q 'PERF_RECORD_BPF_EVENT type 1' "$tmp/bpf.dump"
	check "and its BPF_EVENT (program loaded)" test $? -eq 0
	perf record -q -o "$tmp/pbpf.data" -- "$BPFLOAD" pd_ksym_test 2>/dev/null
	kinds() { perf report -D -i "$1" 2>/dev/null </dev/null |
		grep -E -o 'PERF_RECORD_(KSYMBOL|BPF_EVENT) .*(type [0-9]*,? flags [0-9a-fx]*)' |
		sed 's/addr [0-9a-f]* //; s/, id [0-9]*//'; }
	kinds "$tmp/pbpf.data" >"$tmp/want"
	kinds "$tmp/bpf.data" >"$tmp/got"
	check "KSYMBOL and BPF_EVENT records of the kinds perf record writes ($(wc -l <"$tmp/want"))" \
		cmp -s "$tmp/want" "$tmp/got"
	diff "$tmp/want" "$tmp/got" | head -4
fi
