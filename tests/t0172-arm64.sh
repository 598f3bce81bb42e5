#!/bin/sh
# arm64 profiles read on this machine (issue 23): testdata/arm64/'s
# recordings, made by Debian 12's arm64 perf 6.1 on an arm64 kernel in
# an emulated arm64 guest (testdata/record-arm64.sh), checked against
# that perf's own reading of them, made there and kept next to them (no
# guest needed here; tests/arm64/t-guest.sh checks a fresh recording):
#  - pd-unwind's callchains of the DWARF recording are the arm64 perf's
#    unwinding, sample by sample, frame for frame (address, symbol,
#    offset, DSO);
#  - pd-fold prints the arm64 perf script | stackcollapse-perf.pl of
#    the frame-pointer, DWARF and pac-ret frame-pointer recordings
#    (stackcollapse-perf.pl run on the kept perf script text when
#    PD_STACKCOLLAPSE names it, else its output kept at recording time),
#    but the leaf callers perf 6.1 adds wrongly to samples of pac-ret
#    code (the sampled function repeated, or [unknown]): there pd-fold
#    prints the plain build's stack;
#  - the pac-ret build's DWARF recording unwinds (pd-fold, pd-unwind) to
#    _start through the call tree the plain build's does.
# See tests/arm64/checks.sh; what only the committed recordings are
# checked for is t0175's.
. "$(dirname "$0")/lib.sh"
. "$PD_TOP/tests/arm64/checks.sh"

D=$TD/arm64
# the guest kernel's symbols, trimmed to what the samples need
ks=$TD/kallsyms/$(cat "$D/kernel-buildid")
arm64_checks "$D" "$ks"
echo "1..$tap_n"
