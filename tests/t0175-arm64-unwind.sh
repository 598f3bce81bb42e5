#!/bin/sh
# arm64 recordings unwound on this machine as the arm64 perf unwinds
# them: what only testdata/arm64/'s committed recordings (made by Debian
# 12's arm64 perf 6.1 on its arm64 kernel in a qemu guest,
# testdata/record-arm64.sh) are checked for. Their comparisons with that
# perf's own reading, which a fresh guest run repeats, are
# tests/arm64/checks.sh's (t0172, tests/arm64/t-guest.sh): pd-unwind's
# callchains frame for frame, pd-fold against perf script |
# stackcollapse-perf.pl, the pac-ret build's DWARF stacks in the call
# tree. Here, against the perf script text kept compressed next to them:
#  - frame pointers (-g, fp.data) and DWARF (dwarf.data): pd-fold --script
#    and pd-convert --to=script print the guest perf's perf script, frame
#    for frame (for -g the leaf functions' callers the arm64 perf takes
#    from the link register, which perf here leaves out); pd-fold folds
#    them from a pipe as from the file; pd-diff shows the same counts;
#  - pd-unwind unwinds every DWARF sample, pac-ret's too, to its root,
#    and its callchains fold as the guest perf's unwinding;
#  - pointer authentication: every stack of the pac-ret build's
#    recordings, DWARF and -g alike, is one the plain build's recordings
#    have (from _start), each leaf reached under its callers as there;
#    pd-fold --script prints the arm64 perf's text of pac-fp.data but
#    the sampled functions perf 6.1 repeats.
. "$(dirname "$0")/lib.sh"

A64=$TD/arm64
if [ ! -f "$A64/fp.data" ]; then
	skip "testdata/arm64/ absent: no arm64 recordings"
	echo "1..$tap_n"
	exit 0
fi
FOLD=$PD_BIN/pd-fold
# the guest perf's perf script text, kept compressed
S=$tmp/script
mkdir -p "$S"
for f in fp dwarf pac-fp; do
	gzip -dc "$A64/$f.script.gz" >"$S/$f.script"
done
gzip -dc "$A64/dwarf.script-ip.gz" >"$S/dwarf.script-ip"
# the programs were recorded at /testdata/arm64/bin/, as in a checkout
bid=$("$PD_BIN/pd-info" -q "$A64/fp.data" | awk '/^# build id : .*\[kernel.kallsyms\]$/ { print $5; exit }')
SYM="--symfs=$PD_TOP --kallsyms=$TD/kallsyms/$bid"
check "the guest kernel's symbols are in testdata/kallsyms/ ($bid)" test -f "$TD/kallsyms/$bid"

# the user part of each folded stack (the program's functions), once
user_stacks() {
	# shellcheck disable=SC2086
	"$FOLD" -q --capture=user $SYM "$1" | sed 's/ [0-9]*$//; s/^[^;]*;//' | sort -u
}

for f in fp dwarf; do
	# shellcheck disable=SC2086
	"$FOLD" --script $SYM "$A64/$f.data" >"$tmp/got" 2>"$tmp/err"
	check "$f.data: pd-fold --script is the arm64 perf's perf script ($(grep -c '^$' "$S/$f.script") samples, no warning)" \
		sh -c 'cmp -s "$1" "$2" && ! test -s "$3"' sh "$S/$f.script" "$tmp/got" "$tmp/err"
	diff "$S/$f.script" "$tmp/got" | head -6
	cat "$tmp/err"
	# a pipe: the architecture and the events come as records (pd-fold
	# of the file is t0172's, against stackcollapse-perf.pl)
	"$PD_BIN/pd-convert" -q --pipe "$A64/$f.data" -o "$tmp/pipe"
	# shellcheck disable=SC2086
	"$FOLD" -q $SYM - <"$tmp/pipe" >"$tmp/got"
	check "$f.data as a pipe (pd-convert --pipe): pd-fold folds as stackcollapse-perf.pl folded the arm64 perf's text ($(wc -l <"$A64/$f.folded") stacks)" \
		cmp -s "$A64/$f.folded" "$tmp/got"
	# shellcheck disable=SC2086
	"$PD_BIN/pd-convert" -q --to=script $SYM "$A64/$f.data" -o "$tmp/conv"
	check "$f.data: pd-convert --to=script is the arm64 perf's perf script" \
		cmp -s "$S/$f.script" "$tmp/conv"
	# shellcheck disable=SC2086
	"$PD_BIN/pd-diff" -q $SYM "$A64/$f.folded" "$A64/$f.data" >"$tmp/diff"
	check "$f.data: pd-diff against the arm64 perf's folded stacks: every count the same ($(wc -l <"$tmp/diff") stacks)" \
		sh -c 'test -s "$1" && awk "\$(NF - 1) != \$NF { bad = 1 } END { exit bad }" "$1"' sh "$tmp/diff"
done

# the leaf callers: the kernel's frame-pointer walk misses each leaf's
# caller (the leaves push no frame record); the arm64 perf adds them
n=$(awk 'p ~ /(spin|sys_getpid|sys_read|sys_write)\+/ && /(via_a|via_b|ask_pid|from_zero|to_null)\+/ { n++ } { p = $0 } END { print n + 0 }' "$S/fp.script")
check "fp.data: the arm64 perf's text has leaf callers from the link register ($n)" test "$n" -gt 10

# pd-unwind: callchains this machine's perf prints as the guest's perf
# printed its DWARF unwinding, sample for sample
"$PD_BIN/pd-unwind" --symfs="$PD_TOP" "$A64/dwarf.data" -o "$tmp/u.data" 2>"$tmp/err"
sed 's/^/# /' "$tmp/err"
n=$(grep -c '^leafcalls' "$S/dwarf.script-ip")
check "pd-unwind dwarf.data: every sample to its root ($n)" \
	grep -q "dwarf.data: $n samples unwound: $n fully, 0 partly, 0 not at all" "$tmp/err"
# shellcheck disable=SC2086
"$FOLD" -q $SYM "$tmp/u.data" >"$tmp/got"
check "pd-unwind dwarf.data: its callchains fold as the arm64 perf's unwinding" \
	cmp -s "$A64/dwarf.folded" "$tmp/got"

# pointer authentication: the pac-ret build's stacks reach _start through
# the functions of the plain build's (each one the beginning of a stack
# of fp.data or dwarf.data: the same call tree, sampled elsewhere)
{ user_stacks "$A64/fp.data"; user_stacks "$A64/dwarf.data"; } | sort -u >"$tmp/plain"
# libdw before 0.188 gives no frame's registers: a signed return address
# in a DWARF chain cannot be stripped and resumed from (pd-fold warns)
# shellcheck disable=SC2086
"$FOLD" $SYM "$A64/pac-dwarf.data" 2>"$tmp/pacerr" >/dev/null
for f in pac-fp pac-dwarf; do
	if [ $f = pac-dwarf ] && grep -q 'elfutils older than 0.188' "$tmp/pacerr"; then
		skip "pac-dwarf.data: this build's elfutils is older than 0.188: pac-ret chains end early (pd-fold warns so), not compared"
		continue
	fi
	user_stacks "$A64/$f.data" >"$tmp/pac"
	bad=$(awk 'FILENAME == ARGV[1] { plain[++n] = $0 ";"; next }
		{ ok = 0; for (i = 1; i <= n; i++) if (index(plain[i], $0 ";") == 1) ok = 1
		  if (!ok || $0 !~ /^_start;start_c;main;run/) print }' "$tmp/plain" "$tmp/pac")
	check "$f.data: every stack from _start through the plain build's functions ($(wc -l <"$tmp/pac") stacks)" \
		test -s "$tmp/pac" -a -z "$bad"
	[ -z "$bad" ] || echo "$bad" | head -4 | sed 's/^/# /'
	for leaf in 'via_a;spin' 'via_b;spin' 'ask_pid;sys_getpid' 'from_zero;sys_read' 'to_null;sys_write'; do
		check "$f.data: ...;$leaf unwound to _start, as in the plain build" \
			sh -c 'grep -q "^_start;start_c;main;run;.*;$1$" "$2" && grep -q "^_start;start_c;main;run;.*;$1$" "$3"' \
			sh "$leaf" "$tmp/pac" "$tmp/plain"
	done
done
"$PD_BIN/pd-unwind" --symfs="$PD_TOP" "$A64/pac-dwarf.data" -o "$tmp/pu.data" 2>"$tmp/err"
sed 's/^/# /' "$tmp/err"
check "pd-unwind pac-dwarf.data: every sample to its root, no 'return address outside every map'" \
	sh -c 'grep -q "pac-dwarf.data: \([0-9]*\) samples unwound: \1 fully, 0 partly, 0 not at all" "$1"' sh "$tmp/err"
# -g: the arm64 perf 6.1 takes every leaf caller of pac-ret code from the
# link register (libunwind 1.6.2 stops at the CFI's
# DW_CFA_AARCH64_negate_ra_state), which repeats the sampled function once
# its frame record is pushed; otherwise pd-fold prints what it prints
# shellcheck disable=SC2086
"$FOLD" --script $SYM "$A64/pac-fp.data" >"$tmp/got" 2>/dev/null
diff --old-line-format='-%dn
' --new-line-format='+
' --unchanged-line-format= "$S/pac-fp.script" "$tmp/got" >"$tmp/d"
# each line perf has and pd-fold has not: the function of the line above
bad=$(awk 'function fn(l) { split(l, w, " "); sub(/\+0x[0-9a-f]*$/, "", w[2]); return w[2] }
	FILENAME == ARGV[1] { line[FNR] = $0; next }
	/^\+/ { print "added a line"; next }
	{ n = substr($0, 2) + 0; if (line[n - 1] !~ /^\t/ || fn(line[n]) != fn(line[n - 1])) print line[n] }' \
	"$S/pac-fp.script" "$tmp/d")
check "pac-fp.data: the arm64 perf's text but its $(grep -c '^-' "$tmp/d") repeated functions" \
	test -z "$bad"
[ -z "$bad" ] || echo "$bad" | head -4 | sed 's/^/# /'

echo "1..$tap_n"
