# An arm64 Debian 12 machine emulated on this one (qemu-system-aarch64,
# TCG), to record with the arm64 perf on an arm64 kernel: the oracle for
# arm64 profiles read here (issue 23). Made of Debian packages only:
#  - a minbase arm64 root file system (mmdebstrap --arch=arm64, run
#    through qemu-user's binfmt handler) with linux-perf and gcc, made
#    into an ext4 image without mounting (mkfs.ext4 -d);
#  - Debian's arm64 kernel package, fetched with apt-get download and
#    not installed: its vmlinuz is an uncompressed Image that qemu boots
#    directly; installing it in the root file system would run
#    mkinitramfs under emulation for 25 minutes;
#  - a small initrd instead: Debian's static arm64 busybox and the
#    modules the root disk needs (virtio-mmio, virtio-blk, ext4 and its
#    dependencies, crc32c for its checksums), which mounts the disk and switch_roots to
#    tests/arm64/guest-init.
# A job (a shell script) runs in the guest on files put in its /pd/in,
# writes /pd/out, and the guest powers off; /pd/out is copied out of the
# disk image with debugfs.
#
#	PD_ARM64_CACHE	where the root file system, its image, the kernel
#			and the initrd are kept (/var/cache/perfdata-arm64),
#			each remade when its package list or version changes
#	PD_ARM64_MIRROR	the archive (http://deb.debian.org/debian)
#	PD_ARM64_TIMEOUT	seconds a guest may run (600)
#
# Needs root, mmdebstrap, qemu-user-static with binfmt-support,
# qemu-system-arm and e2fsprogs (debugfs, mkfs.ext4).

: "${PD_ARM64_CACHE:=/var/cache/perfdata-arm64}"
: "${PD_ARM64_MIRROR:=http://deb.debian.org/debian}"
: "${PD_ARM64_TIMEOUT:=600}"
ARM64_SUITE=bookworm
# what the guest needs: the arm64 perf 6.1, a compiler and C library for
# the programs it profiles, libc6-dbg as users have it
ARM64_PKGS="linux-perf gcc libc6-dev libc6-dbg binutils"
# the initrd's modules, in load order (ext4's dependencies first)
ARM64_MODULES="crc16 mbcache jbd2 crc32c_generic ext4 virtio_mmio virtio_blk"
# this directory (the tests and scripts that source this file set PD_TOP)
ARM64_HERE=${PD_TOP:?}/tests/arm64

arm64_die() { echo "arm64: $*" >&2; exit 1; }
arm64_log() { echo "arm64: $* ($(date -u +%H:%M:%S))" >&2; }

arm64_need() {
	for _c in mmdebstrap arch-test qemu-system-aarch64 qemu-aarch64-static debugfs \
		mkfs.ext4 update-binfmts dpkg-deb apt-get timeout; do
		command -v "$_c" >/dev/null 2>&1 ||
			arm64_die "$_c is not installed (apt-get install mmdebstrap arch-test qemu-system-arm qemu-user-static binfmt-support e2fsprogs)"
	done
}

# arm64 programs run here through qemu-user: mmdebstrap runs the
# packages' scripts that way. binfmt_misc is not mounted on every
# machine (containers, minimal VMs); only the aarch64 handler is enabled.
arm64_binfmt() {
	[ -f /proc/sys/fs/binfmt_misc/status ] ||
		mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc ||
		arm64_die "cannot mount binfmt_misc"
	[ -f /proc/sys/fs/binfmt_misc/qemu-aarch64 ] ||
		update-binfmts --enable qemu-aarch64 ||
		arm64_die "cannot enable the qemu-aarch64 binfmt handler"
}

# apt on this machine knows arm64 packages (for apt-get download)
arm64_apt() {
	dpkg --print-foreign-architectures | grep -qx arm64 ||
		dpkg --add-architecture arm64
	if ! apt-cache show linux-image-arm64:arm64 >/dev/null 2>&1; then
		apt-get update -qq || arm64_die "apt-get update failed"
	fi
}

# arm64_fetch PKG DIR: PKG (arm64) unpacked into DIR, remade when the
# archive's version changes; the version on stdout
arm64_fetch() {
	_ver=$(apt-cache show --no-all-versions "$1:arm64" 2>/dev/null |
		awk '/^Version:/ { print $2; exit }')
	[ -n "$_ver" ] || arm64_die "no arm64 package $1 in apt's lists"
	if [ "$(cat "$2/.pd-stamp" 2>/dev/null)" != "$1 $_ver" ]; then
		rm -rf "$2" "$2.deb"
		mkdir -p "$2.deb"
		(cd "$2.deb" && apt-get download -qq "$1:arm64" 2>/dev/null) ||
			arm64_die "apt-get download $1:arm64 failed"
		dpkg-deb -x "$2.deb"/*.deb "$2" || arm64_die "cannot unpack $1"
		rm -rf "$2.deb"
		echo "$1 $_ver" >"$2/.pd-stamp"
	fi
	echo "$_ver"
}

# the kernel: the package linux-image-arm64 depends on today
arm64_kernel() {
	_k=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ { sub(":arm64", "", $2); print $2; exit }')
	[ -n "$_k" ] || arm64_die "cannot resolve linux-image-arm64:arm64"
	arm64_fetch "$_k" "$PD_ARM64_CACHE/kernel" >/dev/null
	ARM64_KVER=${_k#linux-image-}
	ARM64_VMLINUZ=$PD_ARM64_CACHE/kernel/boot/vmlinuz-$ARM64_KVER
	[ -f "$ARM64_VMLINUZ" ] || arm64_die "no $ARM64_VMLINUZ in $_k"
}

# the initrd: busybox, the modules, tests/arm64/initrd-init as /init
arm64_initrd() {
	arm64_fetch busybox-static "$PD_ARM64_CACHE/busybox" >/dev/null
	ARM64_BUSYBOX=$PD_ARM64_CACHE/busybox/bin/busybox
	ARM64_INITRD=$PD_ARM64_CACHE/initrd-$ARM64_KVER.cpio
	_stamp="$(cat "$PD_ARM64_CACHE/busybox/.pd-stamp") $ARM64_MODULES $(cksum <"$ARM64_HERE/initrd-init")"
	[ -f "$ARM64_INITRD" ] && [ "$(cat "$ARM64_INITRD.stamp" 2>/dev/null)" = "$_stamp" ] &&
		return 0
	_d=$PD_ARM64_CACHE/initrd.tmp
	rm -rf "$_d"
	mkdir -p "$_d/bin" "$_d/lib/modules" "$_d/proc" "$_d/sys" "$_d/dev" "$_d/newroot"
	cp "$ARM64_BUSYBOX" "$_d/bin/busybox"
	cp "$ARM64_HERE/initrd-init" "$_d/init"
	chmod 755 "$_d/init"
	for _m in $ARM64_MODULES; do
		_f=$(find "$PD_ARM64_CACHE/kernel/lib/modules/$ARM64_KVER" -name "$_m.ko" | head -1)
		[ -n "$_f" ] || arm64_die "no module $_m.ko in the kernel package"
		cp "$_f" "$_d/lib/modules/"
	done
	echo "$ARM64_MODULES" >"$_d/lib/modules/order"
	# the initrd's cpio, made by its own busybox (through qemu-user)
	(cd "$_d" && find . | sed 1d | "$ARM64_BUSYBOX" cpio -o -H newc) \
		>"$ARM64_INITRD" 2>/dev/null || arm64_die "cannot make the initrd"
	rm -rf "$_d"
	echo "$_stamp" >"$ARM64_INITRD.stamp"
}

# the root file system and its ext4 image (the image is what each guest
# run starts from: a copy of it, with the job written in by debugfs)
arm64_rootfs() {
	_dir=$PD_ARM64_CACHE/rootfs
	_want="$ARM64_SUITE $ARM64_PKGS"
	ARM64_IMAGE=$PD_ARM64_CACHE/rootfs.img
	if [ "$(cat "$_dir/.pd-stamp" 2>/dev/null)" != "$_want" ]; then
		rm -rf "$_dir" "$ARM64_IMAGE" "$ARM64_IMAGE.stamp"
		arm64_log "mmdebstrap --arch=arm64 $ARM64_SUITE into $_dir"
		if ! mmdebstrap --arch=arm64 --variant=minbase \
			--include="$(echo $ARM64_PKGS | tr ' ' ,)" \
			"$ARM64_SUITE" "$_dir" "$PD_ARM64_MIRROR" \
			>"$PD_ARM64_CACHE/mmdebstrap.log" 2>&1; then
			tail -5 "$PD_ARM64_CACHE/mmdebstrap.log" >&2
			arm64_die "mmdebstrap failed (log: $PD_ARM64_CACHE/mmdebstrap.log)"
		fi
		echo "$_want" >"$_dir/.pd-stamp"
	fi
	[ -f "$ARM64_IMAGE" ] && [ "$(cat "$ARM64_IMAGE.stamp" 2>/dev/null)" = "$_want" ] &&
		return 0
	arm64_log "making $ARM64_IMAGE"
	# 512 MB free for the jobs
	_mb=$(( $(du -sm "$_dir" | cut -f1) + 512 ))
	rm -f "$ARM64_IMAGE"
	mkfs.ext4 -q -F -L pdroot -d "$_dir" "$ARM64_IMAGE" "${_mb}M" ||
		arm64_die "mkfs.ext4 -d $_dir failed"
	echo "$_want" >"$ARM64_IMAGE.stamp"
}

# arm64_setup: everything above, made or found in the cache
arm64_setup() {
	[ "$(id -u)" = 0 ] || arm64_die "needs root (mmdebstrap, binfmt_misc)"
	arm64_need
	mkdir -p "$PD_ARM64_CACHE"
	arm64_binfmt
	arm64_apt
	arm64_kernel
	arm64_initrd
	arm64_rootfs
}

# arm64_guest JOB OUT [FILE...]: boots the guest on a copy of the image
# with the files in /pd/in, runs the shell script JOB there (in /pd/in,
# as root), and copies its /pd/out to OUT: job.log (its output),
# status (its exit status), what it wrote. Fails when the guest does
# not finish within PD_ARM64_TIMEOUT or the job fails.
arm64_guest() {
	_job=$1 _out=$2
	shift 2
	_img=$_out.img
	mkdir -p "$_out"
	cp --sparse=always "$ARM64_IMAGE" "$_img"
	{
		echo "mkdir /pd"
		echo "mkdir /pd/in"
		echo "mkdir /pd/out"
		echo "write $ARM64_HERE/guest-init /pd/guest-init"
		echo "sif /pd/guest-init mode 0100755"
		echo "write $ARM64_BUSYBOX /pd/busybox"
		echo "sif /pd/busybox mode 0100755"
		echo "write $_job /pd/job"
		for _f; do
			echo "write $_f /pd/in/${_f##*/}"
		done
	} >"$_out/debugfs.in"
	if ! debugfs -w -f "$_out/debugfs.in" "$_img" >"$_out/debugfs.log" 2>&1; then
		rm -f "$_img"
		arm64_die "debugfs could not write the job into the guest's disk"
	fi
	arm64_log "guest: $(basename "$_job") (console: $_out/console.log)"
	# -cpu max: pointer authentication (with the faster impdef
	# algorithm) for the pac-ret programs; without SVE, as perf 6.1
	# refuses DWARF callchains with cpu-clock when SVE registers are
	# in the user register set
	# (no network: none is needed, and its boot ROM is another package)
	_rc=0
	timeout "$PD_ARM64_TIMEOUT" qemu-system-aarch64 -M virt \
		-cpu max,sve=off,pauth-impdef=on -smp 2 -m 1024 -nic none \
		-nographic -no-reboot -monitor none -serial stdio \
		-kernel "$ARM64_VMLINUZ" -initrd "$ARM64_INITRD" \
		-append "console=ttyAMA0 nokaslr panic=-1 quiet" \
		-drive if=none,id=root,format=raw,file="$_img" \
		-device virtio-blk-device,drive=root \
		</dev/null >"$_out/console.log" 2>&1 || _rc=$?
	if [ $_rc -ne 0 ]; then
		tail -20 "$_out/console.log" >&2
		rm -f "$_img"
		[ $_rc -eq 124 ] &&
			arm64_die "the guest did not power off within ${PD_ARM64_TIMEOUT}s"
		arm64_die "qemu-system-aarch64 failed (status $_rc)"
	fi
	_rc=0
	debugfs -R "rdump /pd/out $_out" "$_img" >>"$_out/debugfs.log" 2>&1 || _rc=$?
	rm -f "$_img"
	[ $_rc -eq 0 ] || arm64_die "debugfs could not copy /pd/out out of the guest's disk"
	# rdump makes OUT/out
	if [ -d "$_out/out" ]; then
		(cd "$_out/out" && tar -cf - .) | (cd "$_out" && tar -xf -)
		rm -rf "$_out/out"
	fi
	_st=$(cat "$_out/status" 2>/dev/null)
	if [ "$_st" != 0 ]; then
		tail -20 "$_out/job.log" >&2 2>/dev/null || tail -20 "$_out/console.log" >&2
		arm64_die "the job $(basename "$_job") failed in the guest (status: ${_st:-none}; log: $_out/job.log)"
	fi
}
