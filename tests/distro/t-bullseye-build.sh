#!/bin/sh
# The oldest toolchain we claim, Debian 11's (gcc 10, glibc 2.31,
# elfutils 0.183, libtraceevent 1.1.2, zstd 1.4.8, perf 5.10 as
# perf_5.10): docs/building.md's packages installed in a bullseye chroot, the
# project built there and its whole suite run there (its oracle is
# Debian 11's own perf), then this machine's make static tools run in
# that chroot and print what the tools built there print.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"

B=${PD_BIN%/bin}
# docs/building.md's build packages, what make static adds, and the tests' tools
# (g++: testdata's dynamic programs need glibc 2.34 and are rebuilt there,
# inl is C++)
PKGS="make gcc g++ pkg-config libelf-dev libdw-dev zlib1g-dev libzstd-dev
libtraceevent-dev libiberty-dev libbz2-dev liblzma-dev linux-perf binutils
zstd perl bc libxml2-utils"
C=$(distro_chroot bullseye-build bullseye "$(echo $PKGS)") || exit 1
trap 'distro_umount; rm -rf "$tmp"' EXIT
distro_mount "$C"
distro_copy_tree "$C" src/main
mkdir -p "$C/src/shared/corpus"
if [ -d "$PD_CORPUS" ] && ! mountpoint -q "$C/src/shared/corpus"; then
	mount --bind "$PD_CORPUS" "$C/src/shared/corpus" &&
		distro_mounted="$C/src/shared/corpus $distro_mounted"
fi

# a clean environment: this run's B, PD_BIN and the like name host paths
inside() { chroot "$C" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 sh -c "$1"; }
inside 'cd /src/main && make -j"$(nproc)"' >"$tmp/make.log" 2>&1
rc=$?
grep -E 'error|warning' "$tmp/make.log" | grep -v "Using 'dlopen'" | head -10 | sed 's/^/# /'
check "Debian 11: make succeeds" [ $rc -eq 0 ]
check "Debian 11: make builds warning-free (gcc 10)" \
	sh -c "! grep -q 'warning:' '$tmp/make.log'"

inside 'cd /src/main && make check' >"$tmp/check.log" 2>&1
last=$(tail -1 "$tmp/check.log")
# each failing test with what it printed (run.sh indents it), so that
# a failure on a machine no one can log in to says what differed
awk '/^FAIL / { f = 1; print; next } /^    / && f { print; next } { f = 0 }' \
	"$tmp/check.log" | head -60 | cut -c1-300 | sed 's/^/# /'
grep -E '# skip' "$tmp/check.log" | sort -u | head -20 | sed 's/^/# /'
check "Debian 11: make check ends '$last' (none failed)" \
	sh -c "echo '$last' | grep -qE '^[0-9]+ passed, 0 failed\$'"

# this machine's static tools, in that older userland
if [ -x "$B/static/pd-info" ] && [ -x "$B/static/pd-fold" ]; then
	mkdir -p "$C/opt/pd-static"
	cp "$B/static/pd-info" "$B/static/pd-fold" "$C/opt/pd-static/"
	for t in "pd-info --stats" "pd-fold"; do
		inside "cd /src/main/testdata && /src/main/build/bin/$t fp.data" >"$tmp/want" 2>&1
		inside "cd /src/main/testdata && /opt/pd-static/$t fp.data" >"$tmp/got" 2>&1
		check "Debian 11: make static's $t prints what the tools built there print" \
			sh -c "[ -s '$tmp/want' ] && cmp -s '$tmp/want' '$tmp/got'"
	done
else
	skip "no make static tools in $B/static (t0150 builds them): not run in Debian 11"
fi
echo "1..$tap_n"
