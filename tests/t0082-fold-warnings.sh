#!/bin/sh
# pd-fold when binaries are missing or changed since the recording: one
# warning per DSO naming the cause, -q silences it, the exit status stays
# 0, and the stacks equal perf script's under the same conditions
# (frames of such DSOs unresolved).
. "$(dirname "$0")/lib.sh"

FOLD=$PD_BIN/pd-fold
f=$TD/threads.data
# an empty build-id cache: only --symfs and the recorded paths remain
PERF_BUILDID_DIR=$tmp/empty-cache
export PERF_BUILDID_DIR
# perf reads the file as it can (perf_readable: perf 5.10 a copy for it)
pf=$f
have_perf && pf=$(perf_readable "$f")
recorded=$(perf buildid-list -i "$pf" 2>/dev/null | awk '$2 ~ /\/bin\/threads$/ {print $2}')
[ -n "$recorded" ] || recorded=/work/main/testdata/bin/threads

# changed on disk: another program at the recorded path
mkdir -p "$tmp/changed$(dirname "$recorded")"
cp "$TD/bin/burn" "$tmp/changed$recorded"
"$FOLD" --symfs="$tmp/changed" "$f" >"$tmp/got" 2>"$tmp/err"
check "changed binary: exit 0" test $? -eq 0
check "changed binary: one warning naming the build id mismatch" \
	test "$(grep -c "$recorded: .*another build id" "$tmp/err")" -eq 1
check "changed binary: one warning per DSO" \
	test "$(sort "$tmp/err" | uniq -d | wc -l)" -eq 0
check "changed binary: its frames unresolved (not named from the wrong file)" \
	sh -c '! grep -q -e "work_a" -e "other_work" "$1" && grep -q "\[threads\]" "$1"' - "$tmp/got"
"$FOLD" -q --symfs="$tmp/changed" "$f" >"$tmp/got.q" 2>"$tmp/err.q"
check "changed binary: -q prints nothing on stderr" test ! -s "$tmp/err.q"
check "changed binary: -q folds the same" cmp -s "$tmp/got" "$tmp/got.q"

# missing: nothing at the recorded path
"$FOLD" --symfs="$tmp/nothing" "$f" >"$tmp/got.m" 2>"$tmp/err.m"
check "missing binary: exit 0" test $? -eq 0
check "missing binary: one warning saying it was not found" \
	test "$(grep -c "$recorded: not found" "$tmp/err.m")" -eq 1

if have_perf; then
	perf script --symfs="$tmp/changed" -i "$pf" 2>/dev/null |
		"$FOLD" --input=script >"$tmp/want"
	check "changed binary: stacks as perf script --symfs shows them" \
		cmp -s "$tmp/want" "$tmp/got"
	diff "$tmp/want" "$tmp/got" | head -4
	perf script --symfs="$tmp/nothing" -i "$pf" 2>/dev/null |
		"$FOLD" --input=script >"$tmp/want"
	check "missing binary: stacks as perf script --symfs shows them" \
		cmp -s "$tmp/want" "$tmp/got.m"
	diff "$tmp/want" "$tmp/got.m" | head -4
else
	skip "perf not installed: stacks not compared with perf script"
fi
