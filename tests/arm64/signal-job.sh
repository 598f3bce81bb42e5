#!/bin/sh
# Runs in the arm64 guest (tests/arm64/t-guest-signal.sh, through
# tests/arm64/lib.sh's arm64_guest), in a directory holding sigframe.c:
# builds it against the guest's C library, records it with DWARF
# callchains by the guest's perf, and writes to /pd/out the recording,
# the guest perf's reading of it, the files it names (under root/, at
# their paths) and perf's build-id cache (the vDSO perf saved).
set -eu
out=/pd/out
dir=/testsig
mkdir -p $dir/bin
cp sigframe.c $dir/
cd $dir
perf --version >$out/guest.txt
gcc -O2 -g -fno-omit-frame-pointer -fdebug-prefix-map=$dir=. -o bin/sigframe sigframe.c
# 16 KB of user stack: the signal frame alone takes more than 4 KB.
# The build-id cache keeps the vDSO that the offline readers unwind
# through (its __kernel_rt_sigreturn is the signal frame)
perf record --call-graph dwarf,16384 -e cpu-clock -F 299 -o sig.data bin/sigframe 1500
perf script -i sig.data >sig.script 2>sig.script-err
perf script --no-inline -F comm,tid,time,ip,sym,symoff,dso -i sig.data >sig.script-ip 2>/dev/null
cp sig.data sig.script sig.script-ip sig.script-err $out/
mkdir -p $out/root
perf buildid-list -i sig.data 2>/dev/null | awk '{ print $2 }' | while read -r f; do
	case $f in /*) [ -f "$f" ] && cp --parents "$f" $out/root/ ;; esac
done
cp -r /root/.debug $out/debug
cp /proc/kallsyms $out/kallsyms
