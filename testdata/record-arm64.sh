#!/bin/sh
# Regenerates testdata/arm64/ (recordings by Debian 12's arm64 perf 6.1
# on its arm64 kernel, the programs they profiled, and that perf's
# perf script of each): boots the arm64 guest of tests/arm64/lib.sh
# (made or found in $PD_ARM64_CACHE) with arm64/guest-record.sh, which
# builds src/leafcalls.c twice and records; see arm64/README.md.
# Run as root. The guest's /proc/kallsyms is trimmed to what the
# recordings sample (kallsyms/<guest kernel build id>, as trim-kallsyms.sh
# does for this machine's recordings).
set -eu
cd "$(dirname "$0")"
# the folded expectations (X.folded) of make check without FlameGraph
: "${PD_STACKCOLLAPSE:?set PD_STACKCOLLAPSE to stackcollapse-perf.pl}"
PD_TOP=$(cd .. && pwd)
. "$PD_TOP/tests/arm64/lib.sh"
arm64_setup
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
arm64_guest arm64/guest-record.sh "$work/out" src/leafcalls.c
o=$work/out
mkdir -p arm64/bin
cp "$o"/bin/leafcalls "$o"/bin/leafcalls-pac arm64/bin/
for f in fp dwarf pac-fp pac-dwarf; do
	cp "$o/$f.data" "$o/$f.script" "$o/$f.script-ip" "$o/$f.header" arm64/
	perl "$PD_STACKCOLLAPSE" "arm64/$f.script" >"arm64/$f.folded"
	# the deep kernel stacks make these text files large
	gzip -9nf "arm64/$f.script" "arm64/$f.script-ip"
	[ -s "$o/$f.script-err" ] && cp "$o/$f.script-err" arm64/ ||
		rm -f "arm64/$f.script-err"
done
cp "$o/guest.txt" "$o/kernel-buildid" arm64/
# the guest kernel's kallsyms, trimmed to the sampled addresses
bid=$(awk '{ print $1; exit }' "$o/kernel-buildid")
cp "$o/kallsyms" "kallsyms/$bid"
./trim-kallsyms.sh arm64/fp.data arm64/dwarf.data arm64/pac-fp.data arm64/pac-dwarf.data
