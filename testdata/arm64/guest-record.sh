#!/bin/sh
# The arm64 recordings of testdata/arm64/, made in an arm64 Debian 12
# guest (qemu-system-aarch64 -cpu max,sve=off: tests/arm64/lib.sh) by
# its perf 6.1, on its kernel. This runs in the guest, as root, in a
# directory holding leafcalls.c; testdata/record-arm64.sh boots the
# guest with it and copies what it writes to /pd/out back here, and
# tests/arm64/t-guest.sh does the same to check a fresh recording.
# Each command below is the exact one that made the file.
set -eu
out=/pd/out
# the programs live at the same path in the guest as in a checkout
# (testdata/arm64/bin/), so --symfs=TOP finds them
dir=/testdata/arm64
mkdir -p $dir/bin
cp leafcalls.c $dir/
cd $dir

{
	perf --version
	uname -a
	gcc --version | head -1
	grep -m1 Features /proc/cpuinfo
} >$out/guest.txt 2>&1

# No C library (so a few KB each): static, with .eh_frame_hdr for
# DWARF unwinders, without the build directory in the debug info.
# leafcalls-pac signs its return addresses (paciasp/autiasp).
CFLAGS="-O2 -g -fno-omit-frame-pointer -ffreestanding -fno-stack-protector -nostdlib -static -Wl,--eh-frame-hdr -Wl,--build-id -fdebug-prefix-map=$dir=."
gcc $CFLAGS -o bin/leafcalls leafcalls.c
gcc $CFLAGS -mbranch-protection=pac-ret -o bin/leafcalls-pac leafcalls.c

# pointer authentication is on: a PACIA of a pointer changes its top
# bits (where the CPU has no PAuth it traps, where the kernel leaves
# it disabled it is a no-op)
cat >/tmp/pac-check.c <<'SRC'
#include <stdio.h>
int main(void)
{
	unsigned long p = (unsigned long)&main, q = p;

	__asm__ volatile(".arch armv8.3-a\n\tpacia %0, sp" : "+r"(q));
	printf("pacia %lx -> %lx\n", p, q);
	return q == p;
}
SRC
gcc -O2 -o /tmp/pac-check /tmp/pac-check.c
/tmp/pac-check >>$out/guest.txt
objdump -d bin/leafcalls-pac | grep -q paciasp || {
	echo "no paciasp in bin/leafcalls-pac"
	exit 1
}

# the recordings: frame pointers (perf adds the user LR register on
# arm64) and DWARF (1 KB of user stack is more than these stacks use)
perf record --no-buildid-cache -g -e cpu-clock -F 499 -o fp.data bin/leafcalls 600
perf record --no-buildid-cache --call-graph dwarf,1024 -e cpu-clock -F 199 -o dwarf.data bin/leafcalls 600
perf record --no-buildid-cache -g -e cpu-clock -F 499 -o pac-fp.data bin/leafcalls-pac 600
perf record --no-buildid-cache --call-graph dwarf,1024 -e cpu-clock -F 199 -o pac-dwarf.data bin/leafcalls-pac 600

# the oracle: the guest perf's reading of each, on the machine that
# recorded it (its kernel's /proc/kallsyms, the programs in place)
for f in fp dwarf pac-fp pac-dwarf; do
	perf script -i $f.data >$f.script 2>$f.script-err
	perf script -F comm,tid,time,ip,sym,symoff,dso -i $f.data >$f.script-ip 2>/dev/null
	perf report --header-only -i $f.data >$f.header 2>&1
done
perf buildid-list -k >kernel-buildid
cp /proc/kallsyms $out/kallsyms
cp -r bin *.data *.script *.script-err *.script-ip *.header kernel-buildid $out/
