# Debian chroots with a distribution's own packages (its perf, its
# toolchain), made by debootstrap from Debian's archive and cached
# outside the checkout, for the distro tests (tests/distro/*.sh).
#
#	PD_DISTRO_CACHE	where the chroots are kept (/var/cache/perfdata-distro)
#	PD_DISTRO_MIRROR	the archive (http://deb.debian.org/debian)
#
# Needs root (debootstrap, chroot, mount) and debootstrap itself.

: "${PD_DISTRO_CACHE:=/var/cache/perfdata-distro}"
: "${PD_DISTRO_MIRROR:=http://deb.debian.org/debian}"
distro_mounted=""

distro_die() { echo "distro: $*" >&2; exit 1; }

# distro_chroot NAME SUITE PACKAGES: the chroot's directory on stdout,
# made on first use. A chroot is reused while its package list is the
# same (a stamp file holds it); one left half made is made again.
distro_chroot() {
	_dir=$PD_DISTRO_CACHE/$1
	_want="$2 $3"
	if [ -f "$_dir/.pd-stamp" ] && [ "$(cat "$_dir/.pd-stamp")" = "$_want" ]; then
		echo "$_dir"
		return 0
	fi
	command -v debootstrap >/dev/null 2>&1 ||
		distro_die "debootstrap is not installed (apt-get install debootstrap)"
	rm -rf "$_dir"
	mkdir -p "$PD_DISTRO_CACHE"
	echo "distro: debootstrap $2 into $_dir" >&2
	if ! debootstrap --variant=minbase --include="$(echo $3 | tr ' ' ,)" \
		"$2" "$_dir" "$PD_DISTRO_MIRROR" >"$PD_DISTRO_CACHE/$1.log" 2>&1; then
		tail -5 "$PD_DISTRO_CACHE/$1.log" >&2
		distro_die "debootstrap $2 failed (log: $PD_DISTRO_CACHE/$1.log)"
	fi
	echo "$_want" >"$_dir/.pd-stamp"
	echo "$_dir"
}

# distro_mount DIR: /proc, /sys and /dev of this machine inside DIR,
# undone by distro_umount (which the caller's EXIT trap runs).
distro_mount() {
	for _m in proc sys dev dev/pts; do
		mountpoint -q "$1/$_m" && continue
		mkdir -p "$1/$_m"
		mount --bind "/$_m" "$1/$_m" || distro_die "cannot bind-mount /$_m in $1"
		distro_mounted="$1/$_m $distro_mounted"
	done
}

distro_umount() {
	for _m in $distro_mounted; do
		umount "$_m" 2>/dev/null || umount -l "$_m"
	done
	distro_mounted=""
}

# distro_copy_tree DIR DEST: this checkout's files (tracked and new, not
# ignored: the work tree as it is) into DEST inside the chroot DIR.
distro_copy_tree() {
	rm -rf "${1:?}/$2"
	mkdir -p "$1/$2"
	(cd "$PD_TOP" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 tar -cf - --no-recursion 2>/dev/null) | tar -xf - -C "$1/$2"
}
