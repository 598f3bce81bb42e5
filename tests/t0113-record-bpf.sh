#!/bin/sh
# pd-record and what was there before it started: BPF programs already
# loaded (held by tests/tools/bpf-load --hold: one plain, one calling a
# second function, one with BTF function info) get the KSYMBOL and
# BPF_EVENT records perf record synthesizes, which perf 6.1 prints alike
# (perf script --show-bpf-events, perf report -D), and the BPF_PROG_INFO
# and BPF_BTF features, which 'perf report --header-only -I' prints alike
# and which are perf record's byte for byte; --target-perf=5.10 cuts each
# struct bpf_prog_info to the size that perf knows; 4.18 gets none of it;
# an unprivileged user gets no programs and no complaint; a program
# loaded while recording gets its info and BTF too. Then the PMU
# capabilities (CPU_PMU_CAPS, PMU_CAPS) of this machine's sysfs and of a
# made-up one (a private mount namespace), compared with perf record's.
. "$(dirname "$0")/lib.sh"
private_buildid_cache

REC=$PD_BIN/pd-record
INFO=$PD_BIN/pd-info
TOOLS=$(dirname "$PD_BIN")/tests/tools
BPFLOAD=$TOOLS/bpf-load
FEAT=$TOOLS/feat-bytes

if ! "$REC" -q -o "$tmp/probe.data" -- true 2>"$tmp/probe.err"; then
	skip "perf_event_open not permitted here: $(head -1 "$tmp/probe.err")"
	exit 0
fi
if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): no oracle"
	exit 0
fi
# with a perf before 6.1 (Debian 11's 5.10), pd-record writes for it
RT=
perf_older_than 6.1 && RT=--target-perf=$(perf_target)
if [ ! -x "$FEAT" ]; then
	skip "tests/tools not built (make check builds them)"
	exit 0
fi
perf_header() { perf report --header-only -I -i "$1" 2>/dev/null </dev/null; }
# the bytes of feature $1 of file $2, in hex (BPF_PROG_INFO's alignment
# padding as zeros: perf writes it from malloc()'d memory, feat-bytes -p)
feat_hex() { "$FEAT" -p "$1" "$2" | od -An -tx1 -v | tr -d ' \n'; }

# ---- BPF programs loaded before the recording ----

# hold NAME FD OPTIONS...: load a program kept until fd FD closes; sets
# held_id and held_btf, or returns 1 with the reason in $tmp/hold.err
hold() {
	name=$1 fd=$2
	shift 2
	rm -f "$tmp/in$fd" "$tmp/out$fd"
	mkfifo "$tmp/in$fd" "$tmp/out$fd" || return 1
	"$BPFLOAD" --hold "$@" "$name" <"$tmp/in$fd" >"$tmp/out$fd" 2>"$tmp/hold.err" &
	eval "exec $fd>\"\$tmp/in$fd\""
	read -r word held_id word held_btf <"$tmp/out$fd"
	[ -n "$held_id" ]
}
release() {
	exec 3>&- 4>&- 5>&-
	wait
}

bpf_ok=
if [ ! -x "$BPFLOAD" ]; then
	skip "tests/tools/bpf-load not built: BPF programs not tested"
elif [ "$(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null)" = 0 ]; then
	skip "the BPF JIT is off (net.core.bpf_jit_enable=0): no program has symbols to record"
elif ! hold pd_t113 3; then
	skip "bpf() does not let us load a program here ($(head -1 "$tmp/hold.err")): BPF programs not tested"
	release
else
	id1=$held_id
	if hold pd_t113_sub 4 --sub && id2=$held_id &&
	   hold pd_t113_btf 5 --btf --sub && id3=$held_id && btf3=$held_btf; then
		bpf_ok=1
	else
		skip "bpf-load --sub/--btf refused ($(head -1 "$tmp/hold.err")): BPF programs not tested"
	fi
fi
if [ -n "$bpf_ok" ]; then
	echo "# held programs $id1, $id2, $id3 (BTF $btf3)"
	"$REC" $RT -q -a -o "$tmp/pd.data" -- true
	check "pd-record -a with programs loaded: exit 0" test $? -eq 0
	perf record -q -a -o "$tmp/perf.data" -- true 2>/dev/null
	"$REC" -q -a --target-perf=5.10 -o "$tmp/pd510.data" -- true
	"$REC" -q -a --target-perf=4.18 -o "$tmp/pd418.data" -- true
	"$REC" $RT -q -o "$tmp/pdcmd.data" -- true
	if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null &&
	   [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 2 ]; then
		nb=$(mktemp -d) && chmod 777 "$nb"
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
			"$REC" $RT -q -o "$nb/u.data" -- true 2>"$tmp/nobody.err"
		nobody_rc=$?
		cp "$nb/u.data" "$tmp/nobody.data" 2>/dev/null
		rm -rf "$nb"
	fi
	release

	ours=" $id1 $id2 $id3 "
	# the records of our programs: each program's KSYMBOLs come just
	# before its BPF_EVENT, which has its id
	ours_only() {
		grep -E -o 'PERF_RECORD_(KSYMBOL|BPF_EVENT).*' |
			awk -v ours="$ours" '/KSYMBOL/ { k = k $0 "\n"; next }
				{ if (index(ours, " " $NF " ")) printf "%s%s\n", k, $0; k = "" }'
	}
	events() { # FILE: as perf script shows them
		perf script --show-bpf-events -i "$1" 2>/dev/null </dev/null | ours_only
	}
	events "$tmp/perf.data" >"$tmp/want"
	events "$tmp/pd.data" >"$tmp/got"
	check "perf script --show-bpf-events: the KSYMBOL and BPF_EVENT records perf record writes for them ($(wc -l <"$tmp/want"): 1+2+2 symbols, 3 loads)" \
		test "$(wc -l <"$tmp/want")" -eq 8 -a -z "$(diff "$tmp/want" "$tmp/got")"
	diff "$tmp/want" "$tmp/got" | head -6
	grep -q "name bpf_prog_[0-9a-f]*_pd_t113$" "$tmp/got"
	check "one sub-program: named after the program" test $? -eq 0
	test "$(grep -c "name bpf_prog_[0-9a-f]*_F$" "$tmp/got")" -eq 2
	check "two sub-programs without BTF: both named F" test $? -eq 0
	grep -q "name bpf_prog_[0-9a-f]*_pd_t113_btf_sub$" "$tmp/got"
	check "with BTF function info: named after the BTF functions" test $? -eq 0

	dump() { perf report -D -i "$1" 2>/dev/null </dev/null | ours_only; }
	dump "$tmp/perf.data" >"$tmp/want"
	dump "$tmp/pd.data" >"$tmp/got"
	check "perf report -D: the same records ($(wc -l <"$tmp/want"))" \
		test -s "$tmp/want" -a -z "$(diff "$tmp/want" "$tmp/got")"

	progs() { # FILE: perf's header lines for our programs and their BTF
		perf_header "$1" | awk -v ours="$ours" -v btf="$btf3" '
			/^# bpf_prog_info / { id = $3; sub(":", "", id)
				keep = index(ours, " " id " ") }
			/^# bpf_prog_info / || /^# \tsub_prog / { if (keep) print; next }
			{ keep = 0 }
			$0 == "# btf info of id " btf { print }'
	}
	progs "$tmp/perf.data" >"$tmp/want"
	progs "$tmp/pd.data" >"$tmp/got"
	check "perf report --header-only -I: the bpf_prog_info and btf lines of perf record's file ($(wc -l <"$tmp/want"))" \
		test "$(wc -l <"$tmp/want")" -eq 8 -a \
		-n "$(grep "btf info of id $btf3" "$tmp/want")" -a -z "$(diff "$tmp/want" "$tmp/got")"
	diff "$tmp/want" "$tmp/got" | head -6
	all_ids() { perf_header "$1" | grep -E -o '^# bpf_prog_info [0-9]*'; }
	if [ "$(all_ids "$tmp/perf.data")" = "$(all_ids "$tmp/pd.data")" ]; then
		if perf_older_than 6.1; then
			# perf 5.10 packs each program's arrays one after the
			# other (its libbpf's layout), 6.1 aligns each to 8
			canon() { "$FEAT" -c 25 "$1" | od -An -tx1 -v | tr -d ' \n'; }
			check "BPF_PROG_INFO: perf record's section, each program's info and arrays (perf $(perf_version) lays them out unaligned)" \
				test -n "$(canon "$tmp/perf.data")" -a "$(canon "$tmp/perf.data")" = "$(canon "$tmp/pd.data")"
		else
			check "BPF_PROG_INFO: perf record's section byte for byte" \
				test "$(feat_hex 25 "$tmp/perf.data")" = "$(feat_hex 25 "$tmp/pd.data")"
		fi
		check "BPF_BTF: perf record's section byte for byte" \
			test "$(feat_hex 26 "$tmp/perf.data")" = "$(feat_hex 26 "$tmp/pd.data")"
	else
		skip "another program came or went between the two recordings: sections not compared"
	fi

	events "$tmp/pdcmd.data" >"$tmp/got"
	check "recording a command: the loaded programs synthesized too, as perf does" \
		test "$(wc -l <"$tmp/got")" -eq 8

	progs "$tmp/pd510.data" >"$tmp/got510"
	check "--target-perf=5.10: perf $(perf_version) prints the same program lines" \
		cmp -s "$tmp/want" "$tmp/got510"
	len510=$(feat_hex 25 "$tmp/pd510.data" | cut -c9-16)
	check "--target-perf=5.10: each bpf_prog_info cut to perf 5.10's 208 bytes (info_len d0000000: $len510)" \
		test "$len510" = d0000000
	events "$tmp/pd418.data" >"$tmp/got418"
	check "--target-perf=4.18: no KSYMBOL or BPF_EVENT records" test ! -s "$tmp/got418"
	"$FEAT" 25 "$tmp/pd418.data" >/dev/null
	check "--target-perf=4.18: no BPF_PROG_INFO" test $? -ne 0

	if [ -n "${nobody_rc:-}" ]; then
		check "unprivileged: the recording succeeds, nothing said about bpf()" \
			test "$nobody_rc" -eq 0 -a ! -s "$tmp/nobody.err"
		events "$tmp/nobody.data" >"$tmp/gotnb"
		check "unprivileged: no program records (bpf() refused)" test ! -s "$tmp/gotnb"
		check "unprivileged: BPF_PROG_INFO present and empty, as perf writes it" \
			test "$(feat_hex 25 "$tmp/nobody.data")" = 00000000
	else
		skip "not root or no setpriv: the unprivileged case not run"
	fi
fi

# a program loaded while recording and still loaded at the end (its
# holder outlives the recorded command): its info and BTF in the header,
# as perf record's side-band thread adds them
if [ -n "$bpf_ok" ]; then
	rm -f "$tmp/in6" "$tmp/out6"
	mkfifo "$tmp/in6" "$tmp/out6"
	"$REC" $RT -q -a -o "$tmp/during.data" -- \
		"$BPFLOAD" --hold --detach --btf pd_t113_during <"$tmp/in6" >"$tmp/out6" &
	recpid=$!
	exec 6>"$tmp/in6"
	read -r word id6 word btf6 <"$tmp/out6"
	wait $recpid
	rc=$?
	exec 6>&-
	check "a program loaded while recording: exit 0" test $rc -eq 0 -a -n "$id6"
	perf script --show-bpf-events -i "$tmp/during.data" 2>/dev/null </dev/null |
		sed -n 's/.*PERF_RECORD_KSYMBOL addr \([0-9a-f]*\) len \([0-9]*\) .* name \(.*_pd_t113_during\)$/\3 addr 0x\1 size \2/p' >"$tmp/want"
	perf_header "$tmp/during.data" |
		sed -n "s/^# bpf_prog_info $id6: //p" >"$tmp/got"
	check "and its bpf_prog_info in the header, as its KSYMBOL names it ($(cat "$tmp/got"))" \
		test -s "$tmp/want" -a -z "$(diff "$tmp/want" "$tmp/got")"
	perf_header "$tmp/during.data" | grep -q "^# btf info of id $btf6\$"
	check "and its BTF" test $? -eq 0
fi

# ---- PMU capabilities ----

caps_lines() { grep -E '^# [^ ]* pmu capabilities:'; }
perf record -q -o "$tmp/pc.data" -- true 2>/dev/null
"$REC" $RT -q -o "$tmp/dc.data" -- true
perf_header "$tmp/pc.data" | caps_lines >"$tmp/want"
perf_header "$tmp/dc.data" | caps_lines >"$tmp/got"
check "this machine's PMU caps: perf prints the same lines ($(wc -l <"$tmp/want")) as for perf record's file" \
	cmp -s "$tmp/want" "$tmp/got"
for f in 28 31; do
	check "feature $f: present as in perf record's file, the same bytes" \
		test "$(feat_hex $f "$tmp/pc.data")" = "$(feat_hex $f "$tmp/dc.data")"
done

# a made-up sysfs PMU directory: this machine's PMUs (their type only)
# plus a "cpu" PMU with caps, a hybrid one (cpu_core, listed first by
# perf), one with a two-word value and one without newline, one without
# caps
S=/sys/bus/event_source/devices
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 && [ -d $S ]; then
	F=$tmp/fakepmu
	mkdir -p "$F"
	for d in "$S"/*; do
		[ -r "$d/type" ] || continue
		mkdir -p "$F/${d##*/}"
		cat "$d/type" >"$F/${d##*/}/type"
	done
	mkdir -p "$F/cpu/caps" "$F/cpu_core/caps" "$F/pd_fake/caps" "$F/pd_nocaps"
	echo 4 >"$F/cpu/type"
	echo 32 >"$F/cpu/caps/branches"
	echo 3 >"$F/cpu/caps/max_precise"
	echo skylake >"$F/cpu/caps/pmu_name"
	echo 10 >"$F/cpu_core/type"
	echo 0 >"$F/cpu_core/cpus"
	echo 8 >"$F/cpu_core/caps/slots"
	echo alderlake_hybrid >"$F/cpu_core/caps/pmu_name"
	echo 11 >"$F/pd_fake/type"
	echo 'two words' >"$F/pd_fake/caps/mode"
	printf 'nonl' >"$F/pd_fake/caps/x"
	echo 12 >"$F/pd_nocaps/type"
	if unshare -m sh -c "mount --bind '$F' $S &&
		perf record -q -e cpu-clock -o '$tmp/pf.data' -- true &&
		'$REC' $RT -q -o '$tmp/df.data' -- true &&
		'$REC' -q --target-perf=5.14 -o '$tmp/d514.data' -- true" 2>"$tmp/ns.err"; then
		perf_header "$tmp/pf.data" | caps_lines >"$tmp/want"
		perf_header "$tmp/df.data" | caps_lines >"$tmp/got"
		check "made-up PMU caps: perf prints the same $(wc -l <"$tmp/want") lines, in the same order, as for perf record's file" \
			test "$(wc -l <"$tmp/want")" -eq 3 -a -z "$(diff "$tmp/want" "$tmp/got")"
		diff "$tmp/want" "$tmp/got" | head -6
		for f in 28 31; do
			check "made-up PMU caps: feature $f the bytes perf record writes" \
				test -n "$(feat_hex $f "$tmp/df.data")" -a \
				"$(feat_hex $f "$tmp/pf.data")" = "$(feat_hex $f "$tmp/df.data")"
		done
		"$INFO" "$tmp/df.data" | caps_lines >"$tmp/info"
		check "pd-info prints those caps as perf does" cmp -s "$tmp/want" "$tmp/info"
		check "--target-perf=5.14: CPU_PMU_CAPS kept, no PMU_CAPS (its feature 31 had another layout)" \
			test -z "$(feat_hex 31 "$tmp/d514.data")" -a \
			"$(feat_hex 28 "$tmp/d514.data")" = "$(feat_hex 28 "$tmp/pf.data")"
	else
		skip "no private mount namespace here ($(head -1 "$tmp/ns.err")): made-up PMU caps not checked"
	fi
else
	skip "not root or no unshare: PMU caps not checked on a made-up sysfs"
fi

