#!/bin/sh
# DWARF unwinding (--call-graph dwarf) against perf 6.1's own:
#  - for the DWARF recordings in testdata, `pd-fold --script` prints
#    perf script's callchain samples line for line (kernel frames, the
#    unwound user frames, inlined frames), and with --no-inline what
#    perf script --no-inline prints;
#  - `pd-fold [OPT] FILE` equals `perf script -i FILE | pd-fold
#    --input=script [OPT]` for the stackcollapse options;
#  - when perf record works here, a fresh recording of a shell that
#    forks and execs dynamic programs (libc, ld.so at startup, maps kept
#    across exec, frames without unwind tables, stacks cut by the copy
#    size) unwinds as perf's does: the same frames, by address and DSO
#    (the names system libraries' frames get are the symbolizer's
#    business, t0075).
# A perf older than the one that recorded testdata/ (Debian 11's 5.10)
# reads the copies made for it (perf_readable); frame addresses compared
# as both conventions agree on them (frame_addrs_as_perf); recordings
# unwound through system libraries this machine has other builds of are
# not compared (elsewhere_unwound); a fresh recording's unwinding is
# compared with perf 6.1's rules only. Built with an elfutils before
# 0.188, pd-fold's chains may end early (it says so): each must then be
# perf's or a beginning of it.
. "$(dirname "$0")/lib.sh"

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): nothing to compare with"
	exit 0
fi
testdata_buildid_cache
FOLD=$PD_BIN/pd-fold

# same_script FILE NAME [--no-inline] [PD-FOLD-OPTION]
same_script() {
	perf script -i "$(perf_readable "$1")" $3 2>/dev/null </dev/null |
		callchain_blocks | frame_addrs_as_perf >"$tmp/want"
	# shellcheck disable=SC2086
	"$FOLD" --script $3 $4 "$1" 2>"$tmp/err" | frame_addrs_as_perf >"$tmp/got"
	if why=$(elsewhere_unwound "$1" "$tmp/err"); then
		skip "$2${3:+ $3}${4:+ $4}: $why"
		return 1
	fi
	check "$2${3:+ $3}${4:+ $4}: --script is perf script's callchains ($(grep -c '^$' "$tmp/want") samples, $(grep -c '(inlined)$' "$tmp/want") inlined lines)" \
		cmp -s "$tmp/want" "$tmp/got"
	diff "$tmp/want" "$tmp/got" | head -6
}

# prefix_blocks WANT GOT: "N WHOLE SHORT BAD" over the samples (blocks of
# callchain_blocks): GOT's sample equal to WANT's, a beginning of it (its
# header and first frames), or neither (BAD; also for a count mismatch)
prefix_blocks() {
	awk '
	function blocks(file, arr,   n, line, cur) {
		n = 0; cur = ""
		while ((getline line < file) > 0) {
			if (line == "") { arr[++n] = cur; cur = ""; continue }
			cur = cur line "\n"
		}
		return n
	}
	BEGIN {
		n = blocks(ARGV[1], w); m = blocks(ARGV[2], g)
		whole = short = bad = 0
		for (i = 1; i <= n; i++) {
			if (i > m) bad++
			else if (g[i] == w[i]) whole++
			else if (index(w[i], g[i]) == 1 && g[i] ~ /\n\t/) short++
			else bad++
		}
		if (m > n) bad += m - n
		print n, whole, short, bad
		exit
	}' "$1" "$2"
}

# chains_check OLD-ELFUTILS-WHAT WHAT: pd-fold's $tmp/got is perf's
# $tmp/want byte for byte (WHAT); where $tmp/err says elfutils is older
# than 0.188, each sample of it is perf's or a beginning of perf's
# (OLD-ELFUTILS-WHAT): a library built with an elfutils without
# dwfl_frame_reg() (Debian 11's 0.183) cannot take libunwind's guessed
# step after a chain's first frame, so its chains may end early, but
# never differ otherwise
chains_check() {
	if grep -q 'elfutils older than 0.188' "$tmp/err"; then
		set -- "$1" "$2" $(prefix_blocks "$tmp/want" "$tmp/got")
		check "$1 ($3 samples, $4 whole, $5 cut short)" \
			test "$3" -gt 0 -a "$6" -eq 0
	else
		check "$2" cmp -s "$tmp/want" "$tmp/got"
	fi
	diff "$tmp/want" "$tmp/got" | head -6
}

same_folds() { # FILE NAME
	perf script -i "$(perf_readable "$1")" 2>/dev/null </dev/null >"$tmp/ps"
	for opts in "" "--pid" "--tid" "--addrs" "--all" "--pid --all --addrs"; do
		# shellcheck disable=SC2086
		"$FOLD" --input=script $opts <"$tmp/ps" 2>/dev/null |
			folded_addrs_as_perf >"$tmp/want"
		# shellcheck disable=SC2086
		"$FOLD" -q $opts "$1" 2>"$tmp/err" | folded_addrs_as_perf >"$tmp/got"
		check "$2 ${opts:-(default)}: as perf script | fold ($(wc -l <"$tmp/want") stacks)" \
			cmp -s "$tmp/want" "$tmp/got"
		diff "$tmp/want" "$tmp/got" | head -4 | cut -c1-300
	done
}

for f in dwarf inl-dwarf; do
	same_script "$TD/$f.data" "$f.data" || continue
	same_script "$TD/$f.data" "$f.data" --no-inline
	same_folds "$TD/$f.data" "$f.data"
done
# --jobs=2: a helper thread reads the file again and unwinds the samples
# of seven of every eight 64 KiB stretches of it (forced: by itself it
# starts at 4 MiB)
for f in dwarf threads-dwarf; do
	same_script "$TD/$f.data" "$f.data" "" --jobs=2
done

# The samples really went through the unwinder: user frames down to
# _start, which the copied stacks alone do not name.
"$FOLD" -q "$TD/dwarf.data" >"$tmp/got" 2>/dev/null
check "dwarf.data: folded stacks reach _start through main" \
	grep -q '^burn-nofp;_start;__libc_start_main_impl;__libc_start_call_main;main;run;' "$tmp/got"

# A fresh recording: sh forks and execs (perf keeps the old image's maps,
# so libc's tables are missed and libunwind guesses from rbp), ld.so runs
# before main, 2 KiB stack copies cut deep stacks.
threads=$(testdata_bin threads) inl=$(testdata_bin inl)
if perf_older_than 6.1; then
	# pd-fold unwinds by perf 6.1's rules (its libunwind's, and where it
	# finds tables): perf 6.1 given a Debian 11 recording and its
	# libraries (--symfs) prints what pd-fold prints, while perf 5.10
	# steps from syscall stubs of libc 2.31 where 6.1 guesses from rbp
	skip "fresh recording: pd-fold unwinds as perf 6.1 does, perf $(perf_version) by other rules: no oracle here"
elif ! "$threads" >/dev/null 2>"$tmp/run.err" || ! "$inl" 1 >/dev/null 2>>"$tmp/run.err"; then
	skip "testdata's threads and inl do not run here, nor build ($(head -1 "$tmp/run.err")): no fresh recording"
elif perf record -q --no-buildid-cache --call-graph dwarf,2048 -e cpu-clock \
	-F 999 -o "$tmp/fresh.data" -- sh -c \
	"for i in 1 2; do $threads >/dev/null; ls -lR /usr/lib >/dev/null 2>&1; $inl 50 >/dev/null; done" \
	>/dev/null 2>&1 </dev/null && [ -s "$tmp/fresh.data" ]; then
	# addresses and DSOs: what the unwinder decides
	addr_dso() { sed -E 's/^(\t *[0-9a-f]+) .* \(([^()]*)\)$/\1 (\2)/'; }
	perf_offpage_dsos "$tmp/fresh.data" >"$tmp/offpage"
	perf script -i "$tmp/fresh.data" --no-inline 2>/dev/null </dev/null |
		callchain_blocks | frame_addrs_as_perf "$tmp/offpage" | addr_dso >"$tmp/want"
	"$FOLD" --script --no-inline "$tmp/fresh.data" 2>"$tmp/err" |
		frame_addrs_as_perf "$tmp/offpage" | addr_dso >"$tmp/got"
	chains_check "fresh sh/ls/threads/inl recording, elfutils before 0.188: every chain is perf's or a beginning of it, address and DSO" \
		"fresh sh/ls/threads/inl recording: the frames perf script --no-inline prints, address and DSO ($(grep -c '^$' "$tmp/want") samples, $(wc -l <"$tmp/want") lines)"
	# and everything perf script prints by default: symbols of system
	# libraries and their inlined frames (addr2line's names), signal
	# trampolines, frames through the vdso
	perf script -i "$tmp/fresh.data" 2>/dev/null </dev/null |
		callchain_blocks | frame_addrs_as_perf "$tmp/offpage" >"$tmp/want"
	"$FOLD" -q --script "$tmp/fresh.data" 2>/dev/null |
		frame_addrs_as_perf "$tmp/offpage" >"$tmp/got"
	chains_check "fresh recording, elfutils before 0.188: perf script's text or a beginning of each sample's, inlined frames included" \
		"fresh recording: perf script's text byte for byte, inlined frames included ($(wc -l <"$tmp/want") lines)"
	"$FOLD" -q --script --jobs=2 "$tmp/fresh.data" 2>/dev/null |
		frame_addrs_as_perf "$tmp/offpage" >"$tmp/got2"
	check "fresh recording, --jobs=2 ($(($(stat -c %s "$tmp/fresh.data") / 65536 + 1)) stretches of 64 KiB): what pd-fold prints with one thread" \
		cmp -s "$tmp/got" "$tmp/got2"
else
	skip "perf record does not work here (perf_event_paranoid?): no fresh recording"
fi

# The CFI rows kept per pc (unwind-row.c), per process and per file: two
# programs at the same addresses with other unwind tables (burn and
# burn-nofp are both linked at 0x400000, one with frame pointers), each
# run twice in turn, unwind as perf's unwinding does, with one thread
# and two.
burn=$(testdata_bin burn) nofp=$(testdata_bin burn-nofp)
if perf_older_than 6.1; then
	skip "burn/burn-nofp recording: pd-fold unwinds as perf 6.1 does, perf $(perf_version) by other rules: no oracle here"
elif perf record -q --no-buildid-cache --call-graph dwarf,4096 -e cpu-clock \
	-F 999 -o "$tmp/same-pc.data" -- sh -c \
	"$burn 150; $nofp 150; $burn 150; $nofp 150" \
	>/dev/null 2>&1 </dev/null && [ -s "$tmp/same-pc.data" ]; then
	perf script -i "$tmp/same-pc.data" --no-inline 2>/dev/null </dev/null |
		callchain_blocks | frame_addrs_as_perf >"$tmp/want"
	"$FOLD" --script --no-inline --jobs=1 "$tmp/same-pc.data" 2>"$tmp/err" |
		frame_addrs_as_perf >"$tmp/got"
	chains_check "burn/burn-nofp recording, elfutils before 0.188: every chain is perf's or a beginning of it" \
		"burn/burn-nofp recording (same pcs, other CFI, 4 processes): perf script --no-inline's frames ($(grep -c '^$' "$tmp/want") samples)"
	"$FOLD" --script --no-inline --jobs=2 "$tmp/same-pc.data" 2>/dev/null |
		frame_addrs_as_perf >"$tmp/got2"
	check "burn/burn-nofp recording, --jobs=2: what pd-fold prints with one thread" \
		cmp -s "$tmp/got" "$tmp/got2"
else
	skip "perf record does not work here (perf_event_paranoid?): no burn/burn-nofp recording"
fi

# Hostile samples (registers or stacks that lie) never crash the tools:
# the unit test test-unwind checks the rules; here, pd-convert's copies of
# a DWARF file cut at every 1 KiB must fold or fail cleanly.
size=$(wc -c <"$TD/dwarf.data")
bad=0
off=4096
while [ $off -lt "$size" ]; do
	head -c $off "$TD/dwarf.data" >"$tmp/cut.data"
	"$FOLD" -q "$tmp/cut.data" >/dev/null 2>&1
	rc=$?
	[ $rc -le 1 ] || { bad=$((bad + 1)); echo "# cut at $off: rc $rc"; }
	off=$((off + 1024))
done
check "dwarf.data cut at every 1 KiB: exit 0 or 1, never a crash" [ $bad -eq 0 ]

echo "1..$tap_n"
