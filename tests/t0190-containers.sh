#!/bin/sh
# Containers (issue 29): a program in its own mount and pid namespace,
# rooted in a tree with its own C library, profiled from the host, where
# another program (the decoy) is at the same path and the host's C
# library at the same path as the container's. Its frames must be named
# from the container's files, never from the host's:
#  1. pd-record of `unshare -m -p -f --mount-proc -R ROOT PROG` on the
#     host, pd-fold on the host;
#  2. perf record --buildid-mmap of the same, pd-fold --root=ROOT;
#  3. pd-record of `podman --runtime runc run --rootfs ROOT PROG` (skipped
#     without podman and runc);
#  4. perf record (build ids of the host's files, and -B: none) read on
#     the recording machine: no name from the decoy or the host's C
#     library; frames left unnamed have a warning naming the file.
# 1-3: at least 90% of the container program's samples (by weight)
# folded as the oracle folds them, and no frame named from the decoy or
# from the host's C library; 4: the latter.
#
# The oracle: perf script --symfs=ROOT, which reads every file from ROOT
# (right for the container's process), on a copy of the same recording
# that perf inject -b --known-build-ids gave ROOT's files' build ids
# (else perf refuses ROOT's files when the recording holds the host's),
# its text folded by stackcollapse-perf.pl ($PD_STACKCOLLAPSE) or by
# pd-fold --input=script (t0070 holds it to the script). "The container
# program's samples": those of comm prog from the time it mapped the
# container's C library on (not the exec itself, whose stack is still
# the host side's). A control checks the comparison can pass: pd-fold
# --symfs=ROOT on that copy folds as the oracle. Wrong names are found
# in pd-fold --script's frames, against nm: a frame of the program named
# by a decoy-only function, a frame of the C library named by a host
# C library symbol (libc6-dbg's included) that is not the container's
# there.
#
# Setup (root): the container's root is made here, from the Debian 13
# chroot of make distro-check (trixie-perf, with gcc), left unchanged:
# the program is compiled in it (its /tmp bound to a directory of ours in
# a mount namespace of its own), and copied with the ld.so and libraries
# it links into $tmp/root. The decoy (built with the host's cc) goes to
# a fresh directory /pd-t0190.XXXXXX, removed at exit. Each recording
# has its own build-id cache ($PERF_BUILDID_DIR, perf's buildid.dir).
# The program runs until it has used $PD_CONTAINER_MS ms of CPU time
# (default 300), sampled at 2000 Hz: about 600 samples whatever the load.
. "$(dirname "$0")/lib.sh"

REC=$PD_BIN/pd-record
FOLD=$PD_BIN/pd-fold
CT=${PD_DISTRO_CACHE:-/var/cache/perfdata-distro}/trixie-perf
MS=${PD_CONTAINER_MS:-300}
HZ=2000
unset DEBUGINFOD_URLS
SC=${PD_STACKCOLLAPSE:-}
if [ -n "$SC" ]; then
	folder="stackcollapse-perf.pl"
	fold_text() { perl "$SC" "$@" 2>/dev/null; }
else
	folder="pd-fold --input=script"
	fold_text() { "$FOLD" -q --input=script "$@"; }
fi

# ---- what it needs ----

why=
if [ "$(id -u)" -ne 0 ]; then
	why="needs root (namespaces, chroot, containers)"
elif ! have_perf; then
	why="perf not installed (apt-get install linux-perf)"
elif ! command -v nm >/dev/null 2>&1 || ! command -v readelf >/dev/null 2>&1; then
	why="nm and readelf not installed (apt-get install binutils)"
elif ! command -v unshare >/dev/null 2>&1; then
	why="unshare not installed (util-linux)"
elif ! command -v "${CC:-cc}" >/dev/null 2>&1; then
	why="no C compiler for the decoy (apt-get install gcc)"
elif [ ! -x "$CT/usr/bin/gcc" ]; then
	why="no Debian 13 chroot with gcc at $CT (make distro-check makes it)"
fi
if [ -n "$why" ]; then
	skip "$why"
	exit 0
fi

W=$(mktemp -d /pd-t0190.XXXXXX) || { not_ok "cannot make the decoy's directory in /"; exit 1; }
trap 'rm -rf "$tmp" "$W"' EXIT
trap 'exit 1' INT TERM HUP
ROOT=$tmp/root
mkdir -p "$tmp/src" "$ROOT$W" "$ROOT/proc"

cat >"$tmp/src/prog.c" <<'EOF'
/* The container's program: its time in its own functions and in its C
 * library's qsort, which calls back into it, until it has used the CPU
 * time given (milliseconds). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static int cmp_values(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}
__attribute__((noinline)) void container_sort(int *v, int n)
{
	qsort(v, n, sizeof *v, cmp_values);
}
__attribute__((noinline)) void container_fill(int *v, int n, int r)
{
	for (int i = 0; i < n; i++) {
		unsigned x = (unsigned)(i * 7919 + r);
		for (int k = 0; k < 128; k++)
			x = x * 1103515245u + 12345u + (x >> 7);
		v[i] = (int)(x % 10007u);
	}
}
__attribute__((noinline)) long container_work(long ms)
{
	int n = 20000, *v = malloc(n * sizeof *v);
	long s = 0;
	if (!v)
		return -1;
	while (clock() < ms * (CLOCKS_PER_SEC / 1000)) {
		container_fill(v, n, (int)s);
		container_sort(v, n);
		s += v[n / 2];
	}
	free(v);
	return s;
}
int main(int argc, char **argv)
{
	printf("%ld\n", container_work(argc > 1 ? atol(argv[1]) : 300));
	return 0;
}
EOF
cat >"$tmp/src/decoy.c" <<'EOF'
/* The host's program at the container program's path: other functions
 * where the container program has its own. */
#include <stdio.h>
#define D(n) __attribute__((noinline)) long decoy_##n(long x) { \
	for (int i = 0; i < 8; i++) x = x * 31 + (x >> 3) + i * #n[0]; return x; }
D(a) D(b) D(c) D(d) D(e) D(f) D(g) D(h) D(i) D(j) D(k) D(l) D(m) D(n) D(o) D(p)
D(q) D(r) D(s) D(t) D(u) D(v) D(w) D(x) D(y) D(z)
__attribute__((noinline)) long decoy_main(long x)
{
	x = decoy_a(decoy_b(decoy_c(decoy_d(decoy_e(decoy_f(decoy_g(decoy_h(x))))))));
	x = decoy_i(decoy_j(decoy_k(decoy_l(decoy_m(decoy_n(decoy_o(decoy_p(x))))))));
	x = decoy_q(decoy_r(decoy_s(decoy_t(decoy_u(decoy_v(decoy_w(decoy_x(x))))))));
	return decoy_y(decoy_z(x));
}
int main(int argc, char **argv)
{
	printf("%ld\n", decoy_main(argc));
	return 0;
}
EOF

# the program, built in the chroot against its C library; the chroot's
# own /tmp is bound to ours in a mount namespace that ends with it. Then
# each file it loads: "PATH REALPATH" as the chroot resolves them.
unshare -m sh -c '
	mount --bind "$1" "$2/tmp" || exit 1
	chroot "$2" gcc -O2 -fno-omit-frame-pointer -o /tmp/prog /tmp/prog.c || exit 1
	chroot "$2" ldd /tmp/prog | awk "/=> \\// { print \$3; next } /^\\t\\// { print \$1 }" |
		while read -r p; do echo "$p $(chroot "$2" readlink -f "$p")"; done' \
	sh "$tmp/src" "$CT" >"$tmp/libs" 2>"$tmp/build.err"
if [ $? -ne 0 ] || [ ! -x "$tmp/src/prog" ] || ! grep -q '/libc\.so\.6$' "$tmp/libs"; then
	not_ok "the container's program built in $CT ($(head -1 "$tmp/build.err"))"
	exit 1
fi
# its root: the chroot's top-level links (lib -> usr/lib, ...), the
# program at $W/prog, its libraries at their real paths and the links
# it names them by
for l in bin sbin lib lib32 lib64 libx32; do
	[ -L "$CT/$l" ] || continue
	ln -s "$(readlink "$CT/$l")" "$ROOT/$l"
	mkdir -p "$ROOT/$(readlink "$CT/$l" | sed 's|^/||')"
done
cp "$tmp/src/prog" "$ROOT$W/prog"
ids=
while read -r p real; do
	mkdir -p "$ROOT$(dirname "$real")" "$ROOT$(dirname "$p")"
	cp "$CT$real" "$ROOT$real"
	[ "$p" != "$real" ] && [ ! -e "$ROOT$p" ] && cp -P "$CT$p" "$ROOT$p"
	ids="$ids${ids:+,}$(readelf -n "$ROOT$real" | awk '/Build ID/ { print $3 }') $real"
done <"$tmp/libs"
LIBC=$(awk '$2 ~ /\/libc\.so\.6$/ { print $2; exit }' "$tmp/libs")
ids="$ids,$(readelf -n "$ROOT$W/prog" | awk '/Build ID/ { print $3 }') $W/prog"
bid() { readelf -n "$1" 2>/dev/null | awk '/Build ID/ { print $3; exit }'; }
if [ ! -f "$LIBC" ]; then
	skip "this machine has no C library at the container's path $LIBC"
	exit 0
elif [ "$(bid "$LIBC")" = "$(bid "$ROOT$LIBC")" ]; then
	skip "this machine's C library is the container's (Debian 13's, build id $(bid "$LIBC")): no other libc at its path"
	exit 0
fi

"${CC:-cc}" -O2 -falign-functions=1 -fno-omit-frame-pointer -o "$W/prog" "$tmp/src/decoy.c" 2>"$tmp/build.err"
check "the decoy built (${CC:-cc}) at $W/prog" test -x "$W/prog"
# the names that only the decoy has, and whether they lie where the
# container program has its functions
# hex(S) in awk: the number a hexadecimal string names (mawk has no strtonum)
HEX='function hex(s,   i, v) { v = 0; s = tolower(s)
	for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v }'
fnames() { nm "$1" 2>/dev/null | awk '$2 ~ /^[TtWw]$/ { print $3 }' | sort -u; }
fnames "$W/prog" >"$tmp/decoy.names"
fnames "$ROOT$W/prog" >"$tmp/prog.names"
comm -23 "$tmp/decoy.names" "$tmp/prog.names" >"$tmp/decoy.only"
nm -S "$ROOT$W/prog" | awk '$4 ~ /^container_/ { print $1 }' >"$tmp/prog.addrs"
n=$(nm -S "$W/prog" | awk "$HEX"'
	FNR == NR { a[NR] = hex($1); n = NR; next }
	$4 ~ /^decoy_/ { s = hex($1); e = s + hex($2)
		for (i = 1; i <= n; i++) if (a[i] >= s && a[i] < e) hit[i] = 1 }
	END { for (i in hit) c++; print c + 0 }' "$tmp/prog.addrs" - 2>/dev/null)
check "the decoy has a decoy_ function at each container_ function's address ($n of $(wc -l <"$tmp/prog.addrs"))" \
	test "${n:-0}" -eq "$(wc -l <"$tmp/prog.addrs")" -a "${n:-0}" -gt 0
# the host C library's names: its dynamic symbols and, with libc6-dbg,
# those of its debug file
hb=$(bid "$LIBC")
{ nm -D "$LIBC"; nm "/usr/lib/debug/.build-id/$(echo "$hb" | cut -c1-2)/$(echo "$hb" | cut -c3-).debug"; } 2>/dev/null |
	awk 'NF >= 3 { sub(/@.*/, "", $3); print $3 }' | sort -u >"$tmp/hostlibc.names"
# the container's files' functions: address, size, name (symtab and dynsym)
# ADDR SIZE NAME of each function; one without a size (crti's _init and
# _fini, a few instructions) ends where the next begins, as perf (and
# pd-fold) end it, and 4 KiB after its start at most
syms() { { nm -S --defined-only "$1"; nm -D -S --defined-only "$1"; } 2>/dev/null |
	awk 'NF == 4 && $3 ~ /^[TtWwiI]$/ { sub(/@.*/, "", $4); print $1, $2, $4 }
	     NF == 3 && $2 ~ /^[TtWwiI]$/ { sub(/@.*/, "", $3); print $1, "-", $3 }' |
	sort -u | awk "$HEX"'
	function hexs(v,   s) { s = ""; do { s = substr("0123456789abcdef", v % 16 + 1, 1) s; v = int(v / 16) } while (v); return s }
	{ a[NR] = $1; z[NR] = $2; nm[NR] = $3 }
	END { for (i = 1; i <= NR; i++) {
		if (z[i] == "-") {
			for (j = i + 1; j <= NR && hex(a[j]) == hex(a[i]); j++)
				;
			d = j <= NR ? hex(a[j]) - hex(a[i]) : 0
			z[i] = hexs(d < 4096 ? d : 4096)
		}
		print a[i], z[i], nm[i] } }'; }
syms "$ROOT$W/prog" >"$tmp/prog.syms"
syms "$ROOT$LIBC" >"$tmp/libc.syms"

cp /proc/kallsyms "$tmp/kallsyms"

# the container, as commands to record (no spaces in $tmp and $W); with
# podman: runc (crun fails where cgroups are hybrid), ulimits below the
# hard limits, and no network (its plugins are not needed)
UNSHARE="unshare -m -p -f --mount-proc -R $ROOT $W/prog"
PODMAN="podman --runtime runc run --rm --network=none --ulimit nofile=1024:1024 --ulimit nproc=1000:1000 --rootfs $ROOT $W/prog"
out=$($UNSHARE 1 2>"$tmp/run.err")
if ! echo "$out" | grep -q '^-\?[0-9][0-9]*$'; then
	skip "unshare -m -p -f --mount-proc -R cannot run the container here: $(head -1 "$tmp/run.err")"
	exit 0
fi
ok "the container's program runs in its own root with Debian 13's C library ($LIBC)"

# ---- the checks ----

# cache NAME: a build-id cache of its own for the recording NAME
cache() {
	mkdir -p "$tmp/cache.$1"
	printf '[buildid]\n\tdir = %s\n' "$tmp/cache.$1" >"$tmp/perfconfig.$1"
	PERF_BUILDID_DIR=$tmp/cache.$1 PERF_CONFIG=$tmp/perfconfig.$1
	export PERF_BUILDID_DIR PERF_CONFIG
}

# record NAME WHAT COMMAND...: runs the recording; "ok" when the container
# printed its result
record() {
	_n=$1 _w=$2
	shift 2
	"$@" >"$tmp/$_n.out" 2>"$tmp/$_n.rec.err"
	_rc=$?
	check "$_n: $_w ran the container (exit $_rc, it printed '$(head -c 40 "$tmp/$_n.out")')" \
		test $_rc -eq 0 -a -n "$(grep '^-\?[0-9][0-9]*$' "$tmp/$_n.out")"
	[ $_rc -eq 0 ] || head -3 "$tmp/$_n.rec.err"
}

# samples_of START: perf script text (stdin) of comm prog from START on
samples_of() {
	awk -v start="$1" '
	!/^\t/ && NF { keep = 0
		if ($1 == "prog") for (i = 2; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/) { keep = $i + 0 >= start + 0; break } }
	keep'
}

# share WANT GOT: identical weight of the two folded files, in % of WANT's
share() {
	awk 'FNR == NR { w[substr($0, 1, length($0) - length($NF) - 1)] += $NF; t += $NF; next }
		{ k = substr($0, 1, length($0) - length($NF) - 1); g[k] += $NF }
		END { for (k in g) if (k in w) s += (g[k] < w[k] ? g[k] : w[k])
			print t ? int(100 * s / t) : 0 }' "$1" "$2"
}
weight() { awk '{ s += $NF } END { print s + 0 }' "$1"; }
difflines() { # WANT GOT: the stacks whose weight differs, heaviest first
	awk 'FNR == NR { w[substr($0, 1, length($0) - length($NF) - 1)] += $NF; next }
		{ g[substr($0, 1, length($0) - length($NF) - 1)] += $NF }
		END { for (k in w) if (w[k] != g[k]) printf "%d\t- %s %d\n", w[k] - g[k], k, w[k]
			for (k in g) if (!(k in w)) printf "%d\t+ %s %d\n", g[k], k, g[k] }' "$1" "$2" |
		sort -rn | cut -f2 | head -"${3:-12}" | sed 's/^/#   /'
}

# wrong_names SCRIPT: pd-fold --script's frames of the container's files
# named otherwise than those files name them there: "COUNT KIND NAME
# ADDR" (KIND decoy: a decoy-only name in the program; hostlibc: a host
# C library name in the C library; prog: any other name in the program)
wrong_names() {
	awk -v prog="($W/prog)" -v libc="($LIBC)" -v dir="$tmp" "$HEX"'
	BEGIN {
		while ((getline l < (dir "/decoy.only")) > 0) decoy[l] = 1
		while ((getline l < (dir "/hostlibc.names")) > 0) hostlibc[l] = 1
		for (f = 1; f <= 2; f++) {
			file = dir (f == 1 ? "/prog.syms" : "/libc.syms")
			while ((getline l < file) > 0) {
				split(l, p, " ")
				n[f]++; a[f, n[f]] = hex(p[1])
				z[f, n[f]] = hex(p[2]); nm[f, n[f]] = p[3]
			}
		}
	}
	function theirs(f, name, addr,   i) {
		for (i = 1; i <= n[f]; i++)
			if (nm[f, i] == name && addr >= a[f, i] &&
			    (addr < a[f, i] + z[f, i] || addr == a[f, i]))
				return 1
		return 0
	}
	/^\t/ && ($NF == prog || $NF == libc) && $2 != "[unknown]" {
		name = $2; sub(/\+0x[0-9a-f]+$/, "", name)
		addr = hex($1)
		if ($NF == prog) {
			if (name ~ /@plt$/ || theirs(1, name, addr)) next
			kind = (name in decoy) ? "decoy" : "prog"
		} else {
			if (theirs(2, name, addr) || !(name in hostlibc)) next
			kind = "hostlibc"
		}
		c[kind " " name " " $1]++
	}
	END { for (k in c) print c[k], k }' | sort -rn
}

# analyse NAME DATA [PD-FOLD OPTIONS]: the oracle and pd-fold's view of
# the container program's samples in DATA. Sets $start, $nsamp, $rc and
# the files $tmp/NAME.{want,got,script,err}.
analyse() {
	_n=$1 _d=$2
	shift 2
	start=$(perf script --show-mmap-events -i "$_d" 2>/dev/null </dev/null |
		awk -v libc="$LIBC" '$1 == "prog" && /PERF_RECORD_MMAP/ && $NF == libc {
			for (i = 2; i < NF; i++) if ($(i + 1) ~ /^PERF_RECORD_MMAP/) {
				sub(/:$/, "", $i); print $i; exit } }')
	perf inject -b --known-build-ids="$ids" -i "$_d" -o "$tmp/$_n.oracle.data" \
		>/dev/null 2>"$tmp/$_n.inject.err" </dev/null
	perf script --symfs="$ROOT" --kallsyms="$tmp/kallsyms" -i "$tmp/$_n.oracle.data" \
		2>/dev/null </dev/null | samples_of "${start:-9e99}" >"$tmp/$_n.ps"
	fold_text "$tmp/$_n.ps" >"$tmp/$_n.want"
	nsamp=$(grep -c -v -e '^	' -e '^$' "$tmp/$_n.ps")
	check "$_n: the oracle has the container program's samples ($nsamp from $start on; >= 100)" \
		test "$nsamp" -ge 100
	_own=$(awk '$0 ~ /(^|;)(container_[a-z]+|cmp_values)( |;)/ { s += $NF } { t += $NF }
		END { print t ? int(100 * s / t) : 0 }' "$tmp/$_n.want")
	check "$_n: in the oracle ($folder), $_own% of them in the program's own functions (>= 30%)" \
		test "$_own" -ge 30
	# the control: pd-fold given ROOT's files and build ids
	"$FOLD" -q --symfs="$ROOT" --kallsyms="$tmp/kallsyms" --comm=prog --time="$start," \
		"$tmp/$_n.oracle.data" >"$tmp/$_n.control" 2>/dev/null
	_s=$(share "$tmp/$_n.want" "$tmp/$_n.control")
	check "$_n: control: pd-fold --symfs=ROOT on that copy folds $_s% as the oracle (>= 90%)" \
		test "$_s" -ge 90
	[ "$_s" -ge 90 ] || difflines "$tmp/$_n.want" "$tmp/$_n.control"
	"$FOLD" -q --script --symfs="$ROOT" --kallsyms="$tmp/kallsyms" "$tmp/$_n.oracle.data" \
		2>/dev/null | samples_of "${start:-9e99}" >"$tmp/$_n.control.script"
	wrong_names <"$tmp/$_n.control.script" >"$tmp/$_n.control.wrong"
	check "$_n: control: ... and its frames have no name the checks below call wrong ($(awk '{ s += $1 } END { print s + 0 }' "$tmp/$_n.control.wrong") frames)" \
		test ! -s "$tmp/$_n.control.wrong" -a -s "$tmp/$_n.control.script"
	head -5 "$tmp/$_n.control.wrong" | sed 's/^/#   /'
	# pd-fold as a user runs it
	"$FOLD" "$@" --kallsyms="$tmp/kallsyms" --comm=prog --time="$start," "$_d" \
		>"$tmp/$_n.got" 2>"$tmp/$_n.err"
	rc=$?
	# every sample as perf script prints them, selected as perf's
	"$FOLD" -q --script "$@" --kallsyms="$tmp/kallsyms" "$_d" 2>/dev/null |
		samples_of "${start:-9e99}" >"$tmp/$_n.script"
	[ $rc -eq 0 ] || sed 's/^/#   pd-fold: /' "$tmp/$_n.err" | head -3
}

# the checks of 1-3: the oracle's names, and no wrong ones
named_as_oracle() { # NAME WHAT
	_s=$(share "$tmp/$1.want" "$tmp/$1.got")
	check "$1: $2: $_s% of the container program's samples folded as the oracle (>= 90%; pd-fold exit $rc)" \
		test "$_s" -ge 90 -a $rc -eq 0
	[ "$_s" -ge 90 ] || difflines "$tmp/$1.want" "$tmp/$1.got"
}
no_wrong_names() { # NAME WHAT
	_t=$(weight "$tmp/$1.got") _wt=$(weight "$tmp/$1.want")
	check "$1: $2: pd-fold folds the container program's samples (weight $_t of $_wt; exit $rc)" \
		test $rc -eq 0 -a "$_t" -ge $((_wt * 9 / 10)) -a "$_t" -gt 0
	wrong_names <"$tmp/$1.script" >"$tmp/$1.wrong"
	for k in decoy hostlibc; do
		case $k in
		decoy) what="no frame named from the decoy's functions ($(wc -l <"$tmp/decoy.only") names)" ;;
		hostlibc) what="no C library frame named from the host's C library where the container's has no such function" ;;
		esac
		_c=$(awk -v k=$k '$2 == k { s += $1 } END { print s + 0 }' "$tmp/$1.wrong")
		check "$1: $2: $what ($_c frames)" test "$_c" -eq 0 -a -s "$tmp/$1.script"
		awk -v k=$k '$2 == k' "$tmp/$1.wrong" | head -5 | sed 's/^/#   /'
	done
}

# 1. pd-record on the host, pd-fold on the host
cache pdrec
# shellcheck disable=SC2086 # the command, split into its words
record pdrec "pd-record -g" "$REC" -q -g -e cpu-clock -F $HZ -o "$tmp/pdrec.data" -- $UNSHARE "$MS"
analyse pdrec "$tmp/pdrec.data"
named_as_oracle pdrec "pd-record, pd-fold"
no_wrong_names pdrec "pd-record, pd-fold"
# ... archived (pd-convert --to=archive takes the container's files from
# the cache pd-record kept), then read with an empty cache and the root
# gone: the archive's files name the frames as above
pdrec_start=$start
"$PD_BIN/pd-convert" -q --to=archive "$tmp/pdrec.data" -o "$tmp/pdrec.tar.zst" \
	2>"$tmp/arc.err"
check "pdrec: pd-convert --to=archive of the recording (exit $?)" test -s "$tmp/pdrec.tar.zst"
mv "$ROOT" "$ROOT.away"
mkdir -p "$tmp/cache.empty"
PERF_BUILDID_DIR=$tmp/cache.empty "$FOLD" --kallsyms="$tmp/kallsyms" --comm=prog \
	--time="$pdrec_start," "$tmp/pdrec.tar.zst" >"$tmp/arc.got" 2>"$tmp/arc.fold.err"
mv "$ROOT.away" "$ROOT"
_s=$(share "$tmp/pdrec.want" "$tmp/arc.got")
check "pdrec: the archive read without cache and root folds $_s% as the oracle (>= 90%)" \
	test "$_s" -ge 90
[ "$_s" -ge 90 ] || difflines "$tmp/pdrec.want" "$tmp/arc.got"

# 2. perf record --buildid-mmap on the host, pd-fold --root
cache bmmap
if ! perf record -q --buildid-mmap -e cpu-clock -o "$tmp/probe.data" -- true \
	>/dev/null 2>"$tmp/probe.err" </dev/null; then
	skip "perf record --buildid-mmap fails here (kernel before 5.12?): $(head -1 "$tmp/probe.err")"
else
	# shellcheck disable=SC2086 # the command, split into its words
	record bmmap "perf record --buildid-mmap -g" perf record -q --buildid-mmap -g \
		-e cpu-clock -F $HZ -o "$tmp/bmmap.data" -- $UNSHARE "$MS"
	analyse bmmap "$tmp/bmmap.data" --root="$ROOT"
	named_as_oracle bmmap "perf record --buildid-mmap, pd-fold --root=ROOT"
	no_wrong_names bmmap "perf record --buildid-mmap, pd-fold --root=ROOT"
fi

# 3. pd-record of podman run
cache podman
if ! command -v podman >/dev/null 2>&1 || ! command -v runc >/dev/null 2>&1; then
	skip "podman and runc not installed (apt-get install podman runc): no container runtime"
elif ! out=$($PODMAN 1 2>"$tmp/podman.err") || ! echo "$out" | grep -q '^-\?[0-9][0-9]*$'; then
	skip "podman --runtime runc cannot run a container here: $(grep -v '^$' "$tmp/podman.err" | tail -1)"
else
	# shellcheck disable=SC2086 # the command, split into its words
	record podman "pd-record -g of podman run" "$REC" -q -g -e cpu-clock -F $HZ \
		-o "$tmp/podman.data" -- $PODMAN "$MS"
	analyse podman "$tmp/podman.data"
	named_as_oracle podman "pd-record of podman, pd-fold"
	no_wrong_names podman "pd-record of podman, pd-fold"
fi

# 4. perf record, read where it was recorded: build ids of the host's
# files, or none (-B)
for v in perf perfB; do
	cache $v
	o=
	[ $v = perfB ] && o=-B
	# shellcheck disable=SC2086 # the command, split into its words
	record $v "perf record ${o:+$o }-g" perf record -q $o -g -e cpu-clock -F $HZ \
		-o "$tmp/$v.data" -- $UNSHARE "$MS"
	analyse $v "$tmp/$v.data"
	no_wrong_names $v "perf record${o:+ $o}, pd-fold"
	# frames of the program left unnamed: a warning names it
	un=$(grep -c "	 *[0-9a-f]* \[unknown\] ($W/prog)" "$tmp/$v.script")
	_c=$(awk '$2 == "prog" || $2 == "decoy" { s += $1 } END { print s + 0 }' "$tmp/$v.wrong")
	check "$v: perf record${o:+ $o}, pd-fold: the program's frames named as its own file names them, or unnamed with a warning naming $W/prog ($un unnamed, $_c named otherwise)" \
		test "$_c" -eq 0 -a \( "$un" -eq 0 -o -n "$(grep -F "$W/prog" "$tmp/$v.err")" \)
done

# ---- nothing stays ----
check "nothing of the test stays mounted" \
	test -z "$(grep -F -e "$tmp" -e "$W" /proc/self/mountinfo)"
