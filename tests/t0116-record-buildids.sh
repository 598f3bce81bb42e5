#!/bin/sh
# pd-record takes build ids and files from each process's own view, for a
# process in a container (its own mount and pid namespace and root) whose
# program sits at a path where this machine has another program, a decoy:
# - its MMAP2 records carry the container's files' build ids (the
#   kernel's, or read through /proc/PID/map_files for the maps of a
#   process already running, -p), as perf script shows them; for a perf
#   that reads none (5.10) the records stay as they were;
# - the BUILD_ID table lists the container's program, never the decoy
#   (perf buildid-list);
# - the build-id cache ($PERF_BUILDID_DIR) holds the container's program
#   as perf keeps it (PATH/BUILDID/elf, .build-id/xx/rest linking to it),
#   and nothing with -N; so once the container is gone pd-fold and perf
#   name at least 90% of its samples with its own functions, none with
#   the decoy's;
# - a JIT in the container (testdata's jit, /tmp of its own): its perf map
#   is copied to /tmp/perf-PID.map here, its jitdump into the cache with
#   the host's pids, the marker's record naming the copy: pd-fold names
#   jit::hot from either, perf inject --jit and perf report too;
# - the same through a real runtime, podman with runc, where it runs.
# The container's root is the Debian 13 tree make distro-check keeps
# (its /w only is written), else a minimal one made here (this machine's
# loader and libc). The test runs in a mount namespace of its own (root
# only): a tmpfs on /w holds the decoy, and one on /tmp the perf maps.
under_tmp() {
	for _d in "$(dirname "$0")" "${PD_TOP:-.}" "${PD_BIN:-.}" "${PD_CORPUS:-.}"; do
		case "$(cd "$_d" 2>/dev/null && pwd -P)" in
		/tmp | /tmp/*) return 0 ;;
		esac
	done
	return 1
}
if [ -z "${PD_PRIVATE_NS:-}" ] && [ "$(id -u)" -eq 0 ] && ! under_tmp &&
   [ -d /w ] && unshare -m true 2>/dev/null; then
	PD_PRIVATE_NS=1 exec unshare -m sh -c \
		'mount -t tmpfs tmpfs /tmp && mount -t tmpfs tmpfs /w && exec sh "$0"' "$0"
fi
. "$(dirname "$0")/lib.sh"

REC=$PD_BIN/pd-record
INFO=$PD_BIN/pd-info
FOLD=$PD_BIN/pd-fold
if [ -z "${PD_PRIVATE_NS:-}" ]; then
	skip "needs root, unshare, a /w directory and the checkout outside /tmp (a mount namespace of its own)"
	exit 0
fi
if ! "$REC" -q -o "$tmp/probe.data" -- true 2>"$tmp/probe.err"; then
	skip "perf_event_open not permitted here: $(head -1 "$tmp/probe.err")"
	exit 0
fi
CC=${CC:-cc}

# the container's program and the decoy: the same shape, other names
cat >"$tmp/prog.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) long PFX_leaf(long n)
{
	volatile long s = 0;
	for (long i = 0; i < n; i++)
		s += i * i % 7;
	return s;
}
__attribute__((noinline)) long PFX_work(int rounds)
{
	long s = 0;
	for (int r = 0; r < rounds; r++)
		s += PFX_leaf(100000);
	return s;
}
int main(int argc, char **argv)
{
	printf("%ld\n", PFX_work(argc > 1 ? atoi(argv[1]) : 1000));
	return 0;
}
EOF

DISTRO=${PD_TRIXIE_ROOT:-/var/cache/perfdata-distro/trixie-perf}
if [ -x "$DISTRO/bin/sh" ] && [ -d "$DISTRO/w" ]; then
	ROOT=$DISTRO
	sub=$(mktemp -d "$ROOT/w/t0116.XXXXXX")
	trap 'rm -rf "$tmp" "$sub"' EXIT
	W=/w/${sub##*/}
	what="the Debian 13 tree $ROOT"
else
	ROOT=$tmp/root
	W=/w/t0116
	mkdir -p "$ROOT$W" "$ROOT/tmp" "$ROOT/proc"
	what="a minimal root (this machine's loader and libc)"
fi
mkdir -p "$W"
sed 's/PFX/container/g' "$tmp/prog.c" >"$tmp/c.c"
sed 's/PFX/decoy/g; s/i \* i % 7/i * 3 % 5/' "$tmp/prog.c" >"$tmp/d.c"
if ! $CC -O1 -fno-omit-frame-pointer -o "$ROOT$W/prog" "$tmp/c.c" ||
   ! $CC -O1 -fno-omit-frame-pointer -o "$W/prog" "$tmp/d.c"; then
	skip "no C compiler ($CC)"
	exit 0
fi
if [ "$ROOT" = "$tmp/root" ]; then
	for f in $(ldd "$ROOT$W/prog" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		mkdir -p "$ROOT${f%/*}" && cp -L "$f" "$ROOT$f"
	done
fi

# CMD in a mount and pid namespace of its own, rooted in ROOT, with a
# /tmp of its own: what unshare -m -p -f --mount-proc -R ROOT does, and
# what runtimes do
cat >"$tmp/container" <<'EOF'
#!/bin/sh
exec unshare -m -p -f sh -c 'mount -t tmpfs tmpfs "$0/tmp" &&
	mount -t proc proc "$0/proc" && exec chroot "$0" "$@"' "$@"
EOF
chmod +x "$tmp/container"
if ! "$tmp/container" "$ROOT" "$W/prog" 1 >/dev/null 2>&1; then
	skip "cannot run a program in $what with unshare and chroot"
	exit 0
fi

bid() { readelf -n "$1" 2>/dev/null | awk '/Build ID/ { print $3; exit }'; }
cid=$(bid "$ROOT$W/prog")
did=$(bid "$W/prog")
echo "# container: $what; $W/prog: $cid there, $did here (the decoy)"

export PERF_BUILDID_DIR=$tmp/cache
printf '[buildid]\n\tdir = %s\n' "$PERF_BUILDID_DIR" >"$tmp/perfconfig"
export PERF_CONFIG=$tmp/perfconfig

# The share of the samples of comm prog whose leaf is one of PREFIX's
# functions, in percent, from pd-fold's folding on stdin; 0 without any.
share() { # PREFIX
	awk -v p="$1" '$1 ~ /^prog;/ { n = split($1, f, ";"); t += $NF
		if (index(f[n], p "_") == 1) h += $NF }
		END { printf "%d\n", t ? 100 * h / t : 0 }'
}

"$REC" -q -g -e cpu-clock:u -o "$tmp/c.data" -- "$tmp/container" "$ROOT" \
	"$W/prog" 3000 >/dev/null 2>"$tmp/err"
check "a container's program recorded: exit 0, nothing on stderr" \
	test $? -eq 0 -a ! -s "$tmp/err"
cat "$tmp/err"

# the MMAP2 of the program: the container's build id, as perf reads it
if have_perf; then
	perf script --show-mmap-events -i "$tmp/c.data" 2>/dev/null </dev/null |
		grep 'PERF_RECORD_MMAP2' >"$tmp/mmaps"
	check "MMAP2 of $W/prog with the container's build id, as perf script shows it" \
		grep -q "<$cid>\]: r-xp $W/prog\$" "$tmp/mmaps"
	check "no MMAP2 with the decoy's build id" test -z "$(grep "$did" "$tmp/mmaps")"
	perf buildid-list -i "$tmp/c.data" >"$tmp/bids" 2>/dev/null </dev/null
	check "BUILD_ID table (perf buildid-list): $W/prog is the container's" \
		test "$(awk -v p="$W/prog" '$2 == p { print $1 }' "$tmp/bids")" = "$cid"
fi
# (in time order: the pid's maps before its exec into the container come
# from other CPUs' buffers, after the program's ones in the file at times)
"$INFO" --dump --ordered "$tmp/c.data" >"$tmp/dump"
"$INFO" "$tmp/c.data" | grep '^# build id : ' >"$tmp/table"
check "pd-info: the container's id in the MMAP2 and the table, the decoy's nowhere" \
	test -n "$(grep "build-id $cid .*: $W/prog\$" "$tmp/dump")" -a \
	-n "$(grep "$cid $W/prog\$" "$tmp/table")" -a \
	-z "$(grep "$did" "$tmp/dump" "$tmp/table")"
# every other file the program mapped: the container's, by build id
bad=
pid=$(awk -v p=": $W/prog" 'index($0, p) && / PERF_RECORD_MMAP2/ { print $6; exit }' "$tmp/dump" |
	cut -d/ -f1)
awk -v p=": $W/prog" -v t=" $pid/$pid: " 'index($0, p) { on = 1 }
	on && index($0, t) && /PERF_RECORD_MMAP2.* build-id /' "$tmp/dump" |
	sed 's/.* build-id \([0-9a-f]*\) .*\]: \(.*\)/\1 \2/' >"$tmp/files"
while read -r id path; do
	[ "$(bid "$ROOT$path")" = "$id" ] || bad="$bad $path"
done <"$tmp/files"
check "the program's other files ($(wc -l <"$tmp/files") maps): each MMAP2 id the container's file's${bad:+ (not:$bad)}" \
	test -s "$tmp/files" -a -z "$bad"

# the build-id cache, as perf keeps it
h2=$(echo "$cid" | cut -c1-2)
rest=$(echo "$cid" | cut -c3-)
check "build-id cache: $W/prog/$cid/elf is the container's program" \
	cmp -s "$PERF_BUILDID_DIR$W/prog/$cid/elf" "$ROOT$W/prog"
check "build-id cache: .build-id/$h2/$rest links to ../..$W/prog/$cid" \
	test "$(readlink "$PERF_BUILDID_DIR/.build-id/$h2/$rest")" = "../..$W/prog/$cid"
check "build-id cache: nothing of the decoy" \
	test -z "$(find "$PERF_BUILDID_DIR" -name "$did")"
# the container is gone: its program named from the cache
"$FOLD" "$tmp/c.data" >"$tmp/c.folded" 2>"$tmp/fold.err"
s=$(share container <"$tmp/c.folded")
check "pd-fold: ${s}% of the program's samples in its own functions (90% or more), none in the decoy's" \
	test "$s" -ge 90 -a -z "$(grep decoy_ "$tmp/c.folded")"
if have_perf; then
	perf script -i "$tmp/c.data" 2>/dev/null </dev/null |
		"$FOLD" --input=script >"$tmp/p.folded"
	s=$(share container <"$tmp/p.folded")
	check "perf script: ${s}% of the program's samples in its own functions, none in the decoy's" \
		test "$s" -ge 90 -a -z "$(grep decoy_ "$tmp/p.folded")"
fi

# -N: no cache written; the table as before
PERF_BUILDID_DIR=$tmp/cache-n "$REC" -q -N -g -e cpu-clock:u -o "$tmp/n.data" -- \
	"$tmp/container" "$ROOT" "$W/prog" 1000 >/dev/null 2>&1
check "-N: no build-id cache written" test ! -e "$tmp/cache-n"
"$INFO" "$tmp/n.data" | grep -q "^# build id : $cid $W/prog\$"
check "-N: the BUILD_ID table names the container's program" test $? -eq 0

# -p: a process running already; its maps synthesized from /proc, with
# build ids read through it (names as /proc/PID/maps shows them here)
"$tmp/container" "$ROOT" "$W/prog" 20000 >/dev/null 2>&1 &
cpid=$!
for i in 1 2 3 4 5 6 7 8 9 10; do
	p=$(pgrep -f "^$W/prog 20000" | head -1)
	[ -n "$p" ] && break
	sleep 0.1
done
if [ -z "$p" ]; then
	not_ok "-p: the container's program runs"
else
	rm -rf "$PERF_BUILDID_DIR"
	"$REC" -q -g -e cpu-clock:u -p "$p" -o "$tmp/p.data" 2>"$tmp/err" &
	rpid=$!
	# (long enough for samples of it after the maps' synthesis, which
	# takes most of a second under ASan)
	sleep 2
	kill -INT $rpid
	wait $rpid
	"$INFO" --dump "$tmp/p.data" >"$tmp/dump"
	check "-p: the synthesized MMAP2 of the program carries the container's id" \
		test -n "$(grep " PERF_RECORD_MMAP2(misc 0x4002) $p/$p: .* build-id $cid .*$W/prog\$" "$tmp/dump")"
	check "-p: the table names it, the cache holds it" \
		test -n "$("$INFO" "$tmp/p.data" | grep "^# build id : $cid .*$W/prog\$")" -a \
		-f "$PERF_BUILDID_DIR/.build-id/$h2/$rest/elf"
fi
kill $cpid 2>/dev/null
pkill -f "^$W/prog 20000" 2>/dev/null
wait $cpid 2>/dev/null

# a perf that reads no MMAP2 build id (5.10): none written, the table
# the same
"$REC" -q -g --target-perf=5.10 -o "$tmp/t.data" -- "$tmp/container" "$ROOT" \
	"$W/prog" 1000 >/dev/null 2>&1
"$INFO" --dump "$tmp/t.data" >"$tmp/dump"
check "--target-perf=5.10: no MMAP2 build id, the table names the container's program" \
	test -z "$(grep 'PERF_RECORD_MMAP2.*build-id' "$tmp/dump")" -a \
	-n "$("$INFO" "$tmp/t.data" | grep "^# build id : $cid $W/prog\$")"

# a JIT in the container: its perf map and jitdump in its own /tmp, its
# pid 1 there
JIT=$(testdata_bin jit)
if ! cp "$JIT" "$ROOT$W/jit" || ! "$ROOT$W/jit" 1 "$tmp" >/dev/null 2>&1; then
	skip "testdata's jit does not run here (x86_64 only)"
else
	rm -f /tmp/perf-*.map
	"$REC" -q -k 1 -g -o "$tmp/j.data" -- "$tmp/container" "$ROOT" \
		"$W/jit" 400 /tmp >/dev/null 2>"$tmp/err"
	check "JIT in the container: recorded, nothing on stderr" \
		test $? -eq 0 -a ! -s "$tmp/err"
	"$INFO" --dump "$tmp/j.data" >"$tmp/dump"
	marker=$(grep -o "$PERF_BUILDID_DIR/jit/pd-record-[^/]*/[0-9]*/jit-[0-9]*\.dump" "$tmp/dump" | head -1)
	jpid=${marker##*/jit-}
	jpid=${jpid%.dump}
	check "the marker's MMAP2 names the jitdump's copy in the cache, jit-PID the host's pid ($jpid)" \
		test -n "$marker" -a -s "$marker" -a \
		-n "$(grep " PERF_RECORD_MMAP2.* $jpid/$jpid: .*: $marker\$" "$tmp/dump")"
	check "the copy names the process by its host pid" \
		test "$(od -An -tu4 -j20 -N4 "$marker" 2>/dev/null | tr -d ' ')" = "$jpid"
	check "its perf map copied to /tmp/perf-$jpid.map" \
		grep -q ' jit_outer$' "/tmp/perf-$jpid.map"
	jit_share() { # FOLDED NAME
		awk -v n="$2" '$1 ~ /^jit;/ { t += $NF; if ($1 ~ ";" n "$") h += $NF }
			END { printf "%d\n", t ? 100 * h / t : 0 }' "$1"
	}
	"$FOLD" "$tmp/j.data" >"$tmp/j.folded" 2>/dev/null
	s=$(jit_share "$tmp/j.folded" 'jit::hot')
	check "pd-fold names jit::hot from the jitdump's copy (${s}% of jit's samples, 50% or more)" \
		test "$s" -ge 50
	mv "${marker%/*}" "$tmp/away"
	"$FOLD" "$tmp/j.data" >"$tmp/j.folded" 2>/dev/null
	s=$(jit_share "$tmp/j.folded" '_ZN3jit3hotEm')
	check "without it, pd-fold names _ZN3jit3hotEm from the perf map's copy (${s}%)" \
		test "$s" -ge 50
	mv "$tmp/away" "${marker%/*}"
	if have_perf; then
		(cd "$tmp" && perf inject --jit -i j.data -o ji.data) >/dev/null 2>&1 </dev/null
		perf report --stdio --no-children --comms jit --sort sym -i "$tmp/ji.data" \
			2>/dev/null </dev/null | grep -v '^#' >"$tmp/report"
		check "perf inject --jit, perf report: jit::hot first" \
			test "$(awk '/%/ { print $NF; exit }' "$tmp/report")" = "jit::hot"
	fi
fi

# a real runtime: podman with runc running the same root
if [ "$ROOT" != "$DISTRO" ] || ! command -v podman >/dev/null 2>&1 ||
   ! command -v runc >/dev/null 2>&1; then
	skip "podman with runc, or the Debian 13 tree, missing: no runtime tried"
elif ! podman --runtime runc run --rm --ulimit nofile=1024:1024 \
	--ulimit nproc=1000:1000 --rootfs "$ROOT" "$W/prog" 1 >/dev/null 2>"$tmp/err"; then
	skip "podman --runtime runc cannot run here: $(tail -1 "$tmp/err")"
else
	rm -rf "$PERF_BUILDID_DIR"
	"$REC" -q -g -e cpu-clock:u -o "$tmp/pod.data" -- podman --runtime runc \
		run --rm --ulimit nofile=1024:1024 --ulimit nproc=1000:1000 \
		--rootfs "$ROOT" "$W/prog" 3000 >/dev/null 2>&1
	check "podman: the table names the container's program, the cache holds it" \
		test -n "$("$INFO" "$tmp/pod.data" | grep "^# build id : $cid $W/prog\$")" -a \
		-f "$PERF_BUILDID_DIR/.build-id/$h2/$rest/elf"
	"$FOLD" "$tmp/pod.data" >"$tmp/pod.folded" 2>/dev/null
	s=$(share container <"$tmp/pod.folded")
	check "podman: pd-fold names ${s}% of the program's samples with its own functions, none with the decoy's" \
		test "$s" -ge 90 -a -z "$(grep decoy_ "$tmp/pod.folded")"
fi
