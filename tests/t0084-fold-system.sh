#!/bin/sh
# System-wide recordings (perf record -a -g), folded as perf script |
# stackcollapse-perf.pl folds them: kernel frames past _etext (init text:
# start_kernel under swapper's idle stacks), BPF programs (KSYMBOL
# records), kernel threads.
#  1. testdata/system.data (cpu-clock) and system-switch.data
#     (sched_switch), with their kernel's kallsyms (testdata/kallsyms/) and
#     no user-space files (an empty --symfs, so that any machine names the
#     same): pd-fold folds as the *.folded files perf script |
#     stackcollapse-perf.pl made when they were recorded
#     (testdata/fold-system.sh). This runs everywhere.
#  2. With perf: perf script prints those files as pd-fold --script and
#     pd-convert --to=script do, and its text still folds to the *.folded
#     files.
#  3. Live, with perf, as root (or a low perf_event_paranoid): recordings
#     of this machine, whatever runs on it, folded by both on the same
#     file (deterministic, however racy the recording), with a copy of
#     /proc/kallsyms: perf would read /proc/kcore next to /proc/kallsyms
#     where it can, which pd-fold does not emulate.
# perf script's text is folded by stackcollapse-perf.pl when
# PD_STACKCOLLAPSE names it, else by pd-fold --input=script (which t0070
# holds to stackcollapse-perf.pl): the names are perf's either way.
. "$(dirname "$0")/lib.sh"

FOLD=$PD_BIN/pd-fold
BPFLOAD=$(dirname "$PD_BIN")/tests/tools/bpf-load
SC=${PD_STACKCOLLAPSE:-}
# fold_text [OPTIONS] FILE: perf script's text folded
if [ -n "$SC" ]; then
	folder="perf script | stackcollapse-perf.pl"
	fold_text() { perl "$SC" "$@" 2>/dev/null; }
else
	folder="perf script | pd-fold --input=script"
	fold_text() { "$FOLD" -q --input=script "$@"; }
fi
mkdir -p "$tmp/empty"
# the options of each *.folded file: FILE.folded and FILE.all-tid.folded
opts_of() { case $1 in all-tid) echo "--all --tid" ;; *) echo "" ;; esac; }

kernel_bid() {
	"$PD_BIN/pd-info" --header "$1" 2>/dev/null |
		awk '$2 == "build" && $6 == "[kernel.kallsyms]" { print $5; exit }'
}

# ---- 1. the committed expectations ----

for name in system system-switch; do
	f=$TD/$name.data
	bid=$(kernel_bid "$f")
	ks=$TD/kallsyms/$bid
	if [ -z "$bid" ] || [ ! -f "$ks" ]; then
		not_ok "$name.data: its kernel's kallsyms in testdata/kallsyms/ (build id '$bid')"
		continue
	fi
	for v in plain all-tid; do
		want=$TD/$name.$v.folded
		# shellcheck disable=SC2046
		"$FOLD" -q --symfs="$tmp/empty" --kallsyms="$ks" $(opts_of $v) \
			"$f" >"$tmp/got" 2>"$tmp/err"
		check "$name.data $(opts_of $v): folds as perf script | stackcollapse-perf.pl did ($(wc -l <"$want") stacks)" \
			cmp -s "$want" "$tmp/got"
		diff "$want" "$tmp/got" | head -6
	done
	# pd-diff folds its perf.data inputs the same way: A against
	# itself, "STACK N N" per stack
	"$PD_BIN/pd-diff" -q --symfs="$tmp/empty" --kallsyms="$ks" "$f" "$f" \
		>"$tmp/diff" 2>/dev/null
	awk '$(NF - 1) == $NF { sub(/ [0-9]+ [0-9]+$/, ""); print }' \
		"$tmp/diff" >"$tmp/got"
	sed 's/ [0-9]*$//' "$TD/$name.plain.folded" >"$tmp/want"
	check "$name.data: pd-diff names its stacks as the expectation does" \
		cmp -s "$tmp/want" "$tmp/got"
done

# what the recordings exercise, in the expectations themselves
exp=$TD/system.plain.folded
n=$(grep -c '^swapper;.*;start_kernel;' "$exp")
check "system.data: swapper's idle stacks through start_kernel (init text, past _etext) ($n)" \
	test "$n" -ge 1
check "... and no swapper frame unnamed" \
	sh -c '! grep "^swapper;" "$1" | grep -q "\[unknown\]"' - "$exp"
n=$(grep -c ';bpf_test_run;bpf_prog_[0-9a-f]*_pdfold ' "$exp")
check "system.data: samples in a BPF program, named by its KSYMBOL (bpf_prog_<tag>_pdfold under bpf_test_run) ($n)" \
	test "$n" -ge 1
exp=$TD/system-switch.all-tid.folded
n=$(grep -c '^\(kworker\|rcu_\|ksoftirqd\|migration\)[^;]*;ret_from_fork_asm_\[k\];ret_from_fork_\[k\];kthread_\[k\];' "$exp")
check "system-switch.data: kernel threads' stacks, every frame annotated _[k] ($n)" \
	test "$n" -ge 1

# ---- 2. perf on the same files ----

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): the expectations are not remade"
else
	for name in system system-switch; do
		f=$TD/$name.data
		ks=$TD/kallsyms/$(kernel_bid "$f")
		pf=$(perf_readable "$f")
		perf script --symfs="$tmp/empty" --kallsyms="$ks" -i "$pf" \
			>"$tmp/ps" 2>/dev/null </dev/null
		"$FOLD" -q --script --symfs="$tmp/empty" --kallsyms="$ks" "$f" \
			>"$tmp/ours" 2>/dev/null
		if perf_older_than 6.1; then
			# perf 5.10 prints an unresolved user frame's absolute
			# address, 6.1 (whose text --script follows) its offset
			skip "$name.data: --script text follows perf 6.1's, not perf $(perf_version)'s"
		else
			check "$name.data: pd-fold --script prints what perf script prints ($(grep -c '^	' "$tmp/ps") frames)" \
				cmp -s "$tmp/ps" "$tmp/ours"
			diff "$tmp/ps" "$tmp/ours" | head -6
			"$PD_BIN/pd-convert" -q --to=script --symfs="$tmp/empty" \
				--kallsyms="$ks" "$f" >"$tmp/ours" 2>/dev/null
			check "$name.data: pd-convert --to=script prints what perf script prints" \
				cmp -s "$tmp/ps" "$tmp/ours"
			diff "$tmp/ps" "$tmp/ours" | head -6
		fi
		for v in plain all-tid; do
			# shellcheck disable=SC2046
			fold_text $(opts_of $v) "$tmp/ps" >"$tmp/want"
			check "$name.data $(opts_of $v): $folder still folds to $name.$v.folded" \
				cmp -s "$tmp/want" "$TD/$name.$v.folded"
		done
	done
fi

# ---- 3. live: this machine, both tools on one recording ----

if ! have_perf; then
	skip "perf not installed: no live recording"
	exit 0
fi
mkdir -p "$tmp/ks"
cp /proc/kallsyms "$tmp/ks/kallsyms" 2>/dev/null
if ! awk '$1 !~ /^0+$/ { found = 1; exit } END { exit !found }' "$tmp/ks/kallsyms"; then
	skip "/proc/kallsyms shows no addresses (kptr_restrict, not root): no live kernel names"
	exit 0
fi
# a workload with samples in a BPF program where the kernel allows it
work="$BPFLOAD --run 300 pdlive"
if [ ! -x "$BPFLOAD" ] || ! "$BPFLOAD" --run 0 pdprobe 2>/dev/null; then
	work="sleep 0.3"
fi

# kernel addresses perf names from a module's own DSO: its .ko file, which
# pd-fold does not read (it names them from kallsyms)
module_frames() {
	perf script --kallsyms="$tmp/ks/kallsyms" -F ip,dso -i "$1" 2>/dev/null </dev/null |
		awk '$1 ~ /^ffff[89a-f][0-9a-f]{12}$/ && $2 != "([kernel.kallsyms])" &&
		     $2 != "([unknown])" && $2 !~ /^\(bpf_/ { n++ } END { print n + 0 }'
}

live() { # NAME EVENT-OPTIONS...
	lname=$1
	shift
	# shellcheck disable=SC2086
	if ! perf record -q -a -g "$@" -o "$tmp/$lname.data" -- $work \
		>/dev/null 2>"$tmp/rec.err"; then
		skip "live $lname: perf record -a not permitted here: $(grep -v '^$' "$tmp/rec.err" | head -1)"
		return
	fi
	mods=$(module_frames "$tmp/$lname.data")
	# perf before 6.x loads no symbol of a kallsyms that lists a
	# "[__builtin__ftrace]" module (an ftrace trampoline, which the kernel
	# keeps once something traced): it names no kernel frame, and is no
	# oracle then
	if grep -q '	\[__builtin__' "$tmp/ks/kallsyms" &&
	   ! perf script --kallsyms="$tmp/ks/kallsyms" -i "$tmp/$lname.data" \
		2>/dev/null </dev/null |
		awk '$NF == "([kernel.kallsyms])" && $2 != "[unknown]" { found = 1 } END { exit !found }'; then
		skip "live $lname: perf $(perf_version) names no kernel frame from a kallsyms with [__builtin__ftrace] lines (an ftrace trampoline here): no oracle"
		return
	fi
	for sf in "" "--symfs=$tmp/empty"; do
		perf script $sf --kallsyms="$tmp/ks/kallsyms" -i "$tmp/$lname.data" \
			>"$tmp/ps" 2>/dev/null </dev/null
		for o in "" "--all --tid"; do
			fold_text $o "$tmp/ps" >"$tmp/want"
			"$FOLD" $sf --kallsyms="$tmp/ks/kallsyms" $o \
				"$tmp/$lname.data" >"$tmp/got" 2>"$tmp/fold.err"
			what="live $lname $sf $o: pd-fold folds as $folder ($(wc -l <"$tmp/want") stacks)"
			if [ -z "$sf" ] && [ "$mods" -gt 0 ] && ! cmp -s "$tmp/want" "$tmp/got"; then
				skip "$what: $mods frames in modules that perf names from their .ko files, not read by pd-fold"
				continue
			fi
			if why=$(refused_files "$tmp/fold.err") &&
			   ! cmp -s "$tmp/want" "$tmp/got"; then
				skip "$what: $why"
				continue
			fi
			check "$what" cmp -s "$tmp/want" "$tmp/got"
			diff "$tmp/want" "$tmp/got" | head -6
		done
	done
}
live cpu-clock -e cpu-clock -F 199
live sched_switch -e sched:sched_switch
