#!/bin/sh
# arm64 profiles against a fresh run of the arm64 perf (issue 23): the
# arm64 Debian 12 guest of tests/arm64/lib.sh (qemu-system-aarch64, its
# root file system and kernel cached in $PD_ARM64_CACHE, made on first
# use: about 5 minutes) builds testdata/src/leafcalls.c and records it
# with its perf 6.1 as testdata/arm64/guest-record.sh says, on its own
# kernel, and prints its perf script of each recording. Here:
#  - the guest's gcc builds testdata/arm64/bin/ byte for byte (the
#    committed recordings are of the committed source);
#  - tests/arm64/checks.sh on the fresh recordings: pd-unwind's
#    callchains are the guest perf's DWARF unwinding, frame for frame;
#    pd-fold equals the guest's perf script | stackcollapse-perf.pl
#    (or, without PD_STACKCOLLAPSE, the guest's perf script folded by
#    pd-fold --input=script, which t0070 holds to stackcollapse-perf.pl);
#    the pac-ret build unwinds to _start like the plain one.
. "$(dirname "$0")/../lib.sh"
. "$PD_TOP/tests/arm64/lib.sh"
. "$PD_TOP/tests/arm64/checks.sh"

arm64_setup
G=$tmp/guest
arm64_guest "$TD/arm64/guest-record.sh" "$G" "$TD/src/leafcalls.c"
ok "the arm64 guest recorded with $(head -1 "$G/guest.txt") on kernel $(sed -n 2p "$G/guest.txt" | awk '{ print $3 }')"
check "pointer authentication is on in the guest ($(grep '^pacia' "$G/guest.txt"))" \
	awk '/^pacia/ && $2 != $4 { signed = 1 } END { exit !signed }' "$G/guest.txt"
for b in leafcalls leafcalls-pac; do
	check "the guest's gcc builds testdata/arm64/bin/$b byte for byte" \
		cmp -s "$G/bin/$b" "$TD/arm64/bin/$b"
done
arm64_checks "$G" "$G/kallsyms"
echo "1..$tap_n"
