#!/bin/sh
# Regenerates newer/: recordings made by perfs newer than this machine's,
# Debian 13's perf 6.12 and unstable's perf 7.x, each in the debootstrap
# chroot the distro tests use (tests/distro/lib.sh: trixie-perf and
# sid-perf, cached in $PD_DISTRO_CACHE, made on first use). Run as root,
# after build.sh. The programs are this directory's static bin/burn and
# bin/burn-nofp, copied to /work/main/testdata/bin in the chroot, so the
# recordings name them where the other recordings here do.
#
# User-space samples only (cpu-clock:u): the chroot runs this machine's
# kernel, whose symbols another machine has not got; these files are
# about what the newer perf writes, not about kernels. One exception,
# perf 7.x's kernel map (an MMAP2): its -kernel file samples the kernel
# too; run trim-kallsyms.sh on it (converted for 6.1) for kallsyms/.
#
# Each file's sample count as its own perf counts it goes to
# newer/samples ("FILE N"), the tests' reference (t0160). perf 6.12 and
# 7.x cannot read their own -z pipe streams (issue 18): for those the
# count is the samples perf script printed before it stopped, or none.
set -eu
cd "$(dirname "$0")"
TOP=$(cd .. && pwd)
. "$TOP/tests/distro/lib.sh"
# the same package lists as tests/distro/t-newer-perf.sh: one cache
PKGS="linux-perf binutils gcc libc6-dev"
mkdir -p newer
: >newer/samples.new

# record CHROOT FILE ARGS...: perf record ARGS in the chroot's
# /work/main/testdata, writing newer/FILE (-o - ARGS: its stdout)
record() {
	_c=$1 _f=$2
	shift 2
	case " $* " in
	*" -o - "*) chroot "$_c" sh -c 'cd /work/main/testdata && exec perf "$@"' perf record "$@" >"newer/$_f" ;;
	*) chroot "$_c" sh -c 'cd /work/main/testdata && exec perf "$@"' perf record -o "/pd-newer/$_f" "$@"
	   cp "$_c/pd-newer/$_f" "newer/$_f" ;;
	esac
	cp "newer/$_f" "$_c/pd-newer/$_f"
	_n=$(chroot "$_c" perf report --stats -i "/pd-newer/$_f" 2>/dev/null </dev/null |
		awk '/Aggregated stats/ { a = 1 } /SAMPLE events:/ && (a || !s) && n == "" { n = $3 } /SAMPLE events:/ { s = 1 } END { print n + 0 }')
	if [ "$_n" -eq 0 ]; then
		_n=$(chroot "$_c" perf script -i "/pd-newer/$_f" 2>/dev/null </dev/null | grep -c 'cpu-clock' || true)
	fi
	echo "$_f $_n" >>newer/samples.new
	echo "recorded: newer/$_f ($_n samples)"
}

trap 'distro_umount' EXIT
for suite in trixie sid; do
	c=$(distro_chroot "$suite-perf" "$suite" "$PKGS")
	distro_mount "$c"
	rm -rf "$c/pd-newer"
	mkdir -p "$c/pd-newer" "$c/work/main/testdata/bin"
	cp bin/burn bin/burn-nofp "$c/work/main/testdata/bin/"
	v=$(chroot "$c" perf --version | sed -n 's/^perf version \([0-9]*\.[0-9]*\).*/\1/p')
	case $suite in
	trixie)
		record "$c" "perf$v-fp.data" --no-buildid-cache -g -e cpu-clock:u -F 499 bin/burn 100
		record "$c" "perf$v-zstd-pipe.data" --no-buildid-cache -z -g -e cpu-clock:u -F 499 -o - bin/burn 100
		;;
	sid)
		record "$c" "perf$v-fp.data" --no-buildid-cache -g -e cpu-clock:u -F 499 bin/burn 100
		record "$c" "perf$v-zstd.data" --no-buildid-cache -z -g -e cpu-clock:u -F 499 bin/burn 100
		record "$c" "perf$v-dwarf.data" --no-buildid-cache --call-graph dwarf,1024 -e cpu-clock:u -F 199 bin/burn-nofp 100
		record "$c" "perf$v-pipe.data" --no-buildid-cache -g -e cpu-clock:u -F 499 -o - bin/burn 100
		record "$c" "perf$v-kernel.data" --no-buildid-cache -g -e cpu-clock -F 499 bin/burn 100
		;;
	esac
	echo "$suite: $(chroot "$c" perf --version), kernel $(uname -r)" >>newer/samples.new.ver
	rm -rf "$c/pd-newer"
done
mv newer/samples.new newer/samples
cat newer/samples.new.ver && rm -f newer/samples.new.ver
