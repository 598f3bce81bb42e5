#!/bin/sh
# Unwinding through a signal frame on arm64 against the arm64 perf (issue
# 23): in the guest of tests/arm64/lib.sh, tests/arm64/signal-job.sh
# builds tests/arm64/sigframe.c against the guest's C library and records
# it with DWARF callchains by the guest's perf 6.1, most samples in a
# signal handler: their stacks go through the kernel's signal frame
# (the vDSO's __kernel_rt_sigreturn) back into raise() and main. With
# the files the recording names and the vDSO perf saved, copied out of
# the guest:
#  - the guest perf unwinds through the signal frame (the oracle is one);
#  - for the samples in the handler, pd-unwind's callchains are the
#    guest perf's (perf script --no-inline: perf adds inlined frames to
#    DWARF callchains only), sample by sample and frame for frame, as
#    this machine's perf script prints them;
#  - pd-fold's stacks in the handler equal the guest's perf script |
#    stackcollapse-perf.pl.
# Only those: elsewhere perf's libunwind has quirks on garbage, a rare
# sample at most in a run (a return address still signed in ld.so's
# _dl_runtime_resolve: perf prints the bad frame twice, pd-unwind once).
. "$(dirname "$0")/../lib.sh"
. "$PD_TOP/tests/arm64/lib.sh"
. "$PD_TOP/tests/arm64/checks.sh"

arm64_setup
G=$tmp/guest
arm64_guest "$PD_TOP/tests/arm64/signal-job.sh" "$G" "$PD_TOP/tests/arm64/sigframe.c"
# PD_ARM64_KEEP=DIR: a copy of what the guest wrote, to look into
[ -z "${PD_ARM64_KEEP:-}" ] || cp -r "$G" "$PD_ARM64_KEEP"
ok "the arm64 guest recorded sigframe with $(head -1 "$G/guest.txt")"

# the guest's files at their paths, and its perf's build-id cache (the
# vDSO, by build id) where --symfs=DIR looks, DIR/.debug
sym=$G/root
cp -r "$G/debug" "$sym/.debug"

# the guest perf's stacks through the signal frame: in_handler, on_usr1,
# the vDSO's trampoline, then raise() and run in the C library and the
# program
arm64_blocks <"$G/sig.script-ip" >"$tmp/want.b"
through=$(grep -c 'in_handler+.*on_usr1+.*__kernel_rt_sigreturn+.*raise+.*run+.*main+' "$tmp/want.b")
check "the guest perf unwinds through the signal frame: $through of $(wc -l <"$tmp/want.b") samples go from in_handler through __kernel_rt_sigreturn to main" \
	test "$through" -ge 10

if ! have_perf; then
	skip "perf not installed: pd-unwind's output not read back"
elif "$PD_BIN/pd-unwind" -q --symfs="$sym" \
	"$G/sig.data" -o "$tmp/unw.data" 2>"$tmp/unw.err"; then
	perf script -F comm,tid,time,ip,sym,symoff,dso --symfs="$sym" \
		--kallsyms="$G/kallsyms" -i "$(perf_readable "$tmp/unw.data")" \
		2>/dev/null </dev/null | frame_addrs_as_perf | arm64_blocks >"$tmp/got.b"
	frame_addrs_as_perf <"$G/sig.script-ip" | arm64_blocks >"$tmp/want.b"
	# the samples in the handler, side by side: the guest's, ours
	paste -d '\n' "$tmp/want.b" "$tmp/got.b" |
		awk -v want="$tmp/want.h" -v got="$tmp/got.h" '
		NR % 2 { w = $0; next }
		w ~ /in_handler\+.*on_usr1\+.*__kernel_rt_sigreturn\+/ { print w >want; print >got }'
	echo "# sig.data: pd-unwind equals the guest perf on $(arm64_same "$tmp/want.b" "$tmp/got.b") of $(wc -l <"$tmp/want.b") samples in all"
	arm64_blocks_check "$tmp/want.h" "$tmp/got.h" "sig.data: pd-unwind's callchains through the signal frame"
else
	not_ok "sig.data: pd-unwind failed: $(head -1 "$tmp/unw.err")"
fi

# the stacks in the handler
arm64_guest_folded "$G" sig >"$tmp/guest.folded"
grep ';__kernel_rt_sigreturn;on_usr1;in_handler' "$tmp/guest.folded" >"$tmp/want.folded"
"$PD_BIN/pd-fold" --symfs="$sym" --kallsyms="$G/kallsyms" "$G/sig.data" 2>"$tmp/fold.err" |
	grep ';__kernel_rt_sigreturn;on_usr1;in_handler' | sort >"$tmp/got.folded"
if [ -s "$tmp/want.folded" ] && cmp -s "$tmp/want.folded" "$tmp/got.folded"; then
	ok "sig.data: pd-fold's stacks in the handler equal the arm64 perf script | $_how ($(wc -l <"$tmp/want.folded") stacks)"
else
	not_ok "sig.data: pd-fold's stacks in the handler equal the arm64 perf script | $_how ($(comm -12 "$tmp/want.folded" "$tmp/got.folded" | wc -l) of $(wc -l <"$tmp/want.folded") stacks the same)"
	head -2 "$tmp/fold.err" | sed 's/^/# pd-fold: /'
	diff "$tmp/want.folded" "$tmp/got.folded" | head -6 | sed 's/^/# /'
fi
echo "1..$tap_n"
