#!/bin/sh
# JIT code (testdata/jit.data, made by bin/jit, which describes its code
# in a jitdump and in /tmp/perf-PID.map):
#  (a) with the jitdump where the recording names it, pd-fold FILE equals
#      perf inject --jit, perf script on its output, then folding; so does
#      --script (perf script's text), with --symfs too;
#  (b) without it, pd-fold FILE equals perf script | fold: names from
#      /tmp/perf-PID.map when present, else [unknown], and one warning;
#  (c) hostile dumps (truncated, bad magic, huge sizes, code sizes beyond
#      the file, garbage): exit 0, at most one warning about the dump, and
#      the records before the damage used.
# The dump's recorded directory and the perf map are shared paths in
# /tmp: the test creates them only when absent (the directory doubles as
# a lock against a concurrent run) and removes them at once. Where the
# kernel allows it (root, as in CI), the test runs in a mount namespace of
# its own with a private /tmp, so that the perf map it creates for a moment
# is never seen by another checkout's tests folding jit.data at that time.
# Not where the checkout, the tools or the corpus are under /tmp themselves:
# the fresh /tmp would hide them.
under_tmp() {
	for _d in "$(dirname "$0")" "${PD_TOP:-.}" "${PD_BIN:-.}" "${PD_CORPUS:-.}"; do
		case "$(cd "$_d" 2>/dev/null && pwd -P)" in
		/tmp | /tmp/*) return 0 ;;
		esac
	done
	return 1
}
if [ -z "${PD_PRIVATE_TMP:-}" ] && ! under_tmp && unshare -m true 2>/dev/null; then
	PD_PRIVATE_TMP=1 exec unshare -m sh -c \
		'mount -t tmpfs tmpfs /tmp 2>/dev/null; exec sh "$0"' "$0"
fi
. "$(dirname "$0")/lib.sh"

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): nothing to compare with"
	exit 0
fi
testdata_buildid_cache
FOLD=$PD_BIN/pd-fold
f=$TD/jit.data
# perf reads jit.data as it can (perf_readable: perf 5.10 a copy made for
# it); addresses in its text as perf 6.1 prints them (frame_addrs_as_perf)
pf=$(perf_readable "$f")
rec=$(perf script -i "$pf" --show-mmap-events 2>/dev/null |
	grep -o '/[^ ]*/jit-[0-9]*\.dump' | head -1)
pid=${rec##*/jit-}
pid=${pid%.dump}
dump=$TD/jit-$pid.dump
pmap=$TD/perf-$pid.map
if [ -z "$rec" ] || [ ! -f "$dump" ] || [ ! -f "$pmap" ]; then
	not_ok "jit.data names a jitdump kept in testdata (found '$rec')"
	exit 0
fi
dir=${rec%/*}
mine_dir=
mine_map=
trap 'rm -rf "$tmp" $mine_dir $mine_map' EXIT

OPTS="default --jit --all --pid --addrs --tid"
opt() { [ "$1" = default ] || echo "$1"; }

# (a) the oracle needs the dump at the recorded path
i=0
while ! mkdir "$dir" 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 60 ]; then
		skip "$dir exists (another run's, or left over): perf inject --jit comparisons not run"
		break
	fi
	sleep 1
done
if [ $i -le 60 ]; then
	mine_dir=$dir
	cp "$dump" "$rec"
	perf inject --jit -i "$pf" -o "$tmp/inj.data" 2>"$tmp/inj.err"
	check "perf inject --jit reads the dump" test $? -eq 0
	perf script -i "$tmp/inj.data" >"$tmp/inj.script" 2>/dev/null
	mkdir -p "$tmp/sf$dir"
	cp "$rec" "$dir"/jitted-*.so "$tmp/sf$dir/"
	"$FOLD" -q --script "$f" >"$tmp/got.script" 2>"$tmp/err"
	for o in $OPTS; do
		# shellcheck disable=SC2046
		"$FOLD" -q $(opt $o) "$f" >"$tmp/got.$o" 2>&1
	done
	"$FOLD" "$f" >/dev/null 2>"$tmp/err.a"
	rm -rf "$dir"
	mine_dir=

	callchain_blocks <"$tmp/inj.script" | frame_addrs_as_perf >"$tmp/want.script"
	frame_addrs_as_perf <"$tmp/got.script" >"$tmp/got.script.a"
	mv "$tmp/got.script.a" "$tmp/got.script"
	check "--script is perf script's text of perf inject's output ($(grep -c '^$' "$tmp/want.script") samples)" \
		cmp -s "$tmp/want.script" "$tmp/got.script"
	diff "$tmp/want.script" "$tmp/got.script" | head -6
	check "JIT frames named from the dump (jitted-$pid-N.so, jit::hot demangled)" \
		grep -q "jit::hot+0x[0-9a-f]* ($dir/jitted-$pid-1.so)" "$tmp/got.script"
	check "no warning with the dump in place" test -z "$(not_elsewhere "$tmp/err.a")"
	for o in $OPTS; do
		# shellcheck disable=SC2046
		"$FOLD" --input=script $(opt $o) <"$tmp/inj.script" |
			folded_addrs_as_perf >"$tmp/want.$o"
		folded_addrs_as_perf <"$tmp/got.$o" >"$tmp/got.$o.a"
		mv "$tmp/got.$o.a" "$tmp/got.$o"
		check "$o: as perf inject --jit + perf script + fold ($(wc -l <"$tmp/want.$o") stacks)" \
			cmp -s "$tmp/want.$o" "$tmp/got.$o"
		diff "$tmp/want.$o" "$tmp/got.$o" | head -4
	done

	# the same under --symfs, the dump and perf inject's files there
	# (kernel symbols from the same file for both)
	perf script --symfs="$tmp/sf" --kallsyms=/proc/kallsyms \
		-i "$tmp/inj.data" 2>/dev/null | "$FOLD" --input=script >"$tmp/want.sf"
	"$FOLD" -q --symfs="$tmp/sf" --kallsyms=/proc/kallsyms "$f" >"$tmp/got.sf"
	check "--symfs: the dump read there, as perf script --symfs on perf inject's output" \
		cmp -s "$tmp/want.sf" "$tmp/got.sf"
	diff "$tmp/want.sf" "$tmp/got.sf" | head -4
fi

# (b) no dump: what perf script makes of the recording itself
"$FOLD" "$f" >"$tmp/got.nodump" 2>"$tmp/err.b"
check "no dump: exit 0, one warning naming it" \
	test $? -eq 0 -a "$(grep -c "jit-$pid.dump" "$tmp/err.b")" -eq 1
if [ ! -e "/tmp/perf-$pid.map" ]; then
	perf script -i "$pf" 2>/dev/null | "$FOLD" --input=script >"$tmp/want.nodump"
	check "no dump, no perf map: as perf script | fold" \
		cmp -s "$tmp/want.nodump" "$tmp/got.nodump"
fi
if (set -C; cat "$pmap" >"/tmp/perf-$pid.map") 2>/dev/null; then
	mine_map=/tmp/perf-$pid.map
	perf script -i "$pf" >"$tmp/map.script" 2>/dev/null
	for o in $OPTS; do
		# shellcheck disable=SC2046
		"$FOLD" -q $(opt $o) "$f" >"$tmp/got.map.$o" 2>&1
	done
	"$FOLD" -q --script "$f" >"$tmp/got.map.script"
	"$PD_BIN/pd-convert" -q --endian=big "$pf" -o "$tmp/be.data"
	perf script -i "$tmp/be.data" >"$tmp/be.script" 2>/dev/null
	"$FOLD" -q "$tmp/be.data" >"$tmp/got.be"
	rm -f "$mine_map"
	mine_map=
	callchain_blocks <"$tmp/map.script" | frame_addrs_as_perf >"$tmp/want.map.script"
	frame_addrs_as_perf <"$tmp/got.map.script" >"$tmp/got.map.script.a"
	check "perf map: --script is perf script's text" \
		cmp -s "$tmp/want.map.script" "$tmp/got.map.script.a"
	check "perf map: JIT frames named from it (raw _ZN3jit3hotEm)" \
		grep -q "_ZN3jit3hotEm+0x[0-9a-f]* (/tmp/perf-$pid.map)" "$tmp/got.map.script"
	for o in $OPTS; do
		# shellcheck disable=SC2046
		"$FOLD" --input=script $(opt $o) <"$tmp/map.script" |
			folded_addrs_as_perf >"$tmp/want.map.$o"
		folded_addrs_as_perf <"$tmp/got.map.$o" >"$tmp/got.map.$o.a"
		check "perf map, $o: as perf script | fold" \
			cmp -s "$tmp/want.map.$o" "$tmp/got.map.$o.a"
	done
	# perf 6.1 leaves MMAP2's prot unswapped in the other byte order:
	# the JIT code's map is then "//anon", not the perf map
	"$FOLD" --input=script <"$tmp/be.script" >"$tmp/want.be"
	check "big-endian copy: as perf script | fold (//anon, prot unswapped)" \
		sh -c 'cmp -s "$1" "$2" && grep -q "\[anon\]" "$2"' - "$tmp/want.be" "$tmp/got.be"
else
	skip "/tmp/perf-$pid.map exists: perf map comparisons not run"
fi

# (c) hostile dumps, read under --symfs
h=$tmp/h
mkdir -p "$h$dir"
hd=$h$rec
poke() { # FILE OFFSET OCTAL-BYTES
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
hostile() { # NAME: folds with $hd in place
	"$FOLD" --symfs="$h" "$f" >"$tmp/h.out" 2>"$tmp/h.err"
	rc=$?
	nw=$(grep -c "jit-$pid.dump" "$tmp/h.err")
	check "hostile dump, $1: exit 0, one warning (rc $rc, $nw warnings)" \
		test $rc -eq 0 -a "$nw" -eq 1
}
"$FOLD" --symfs="$tmp/empty" "$f" >"$tmp/h.none" 2>/dev/null
for n in 0 20 39 41 100 117 200; do
	head -c $n "$dump" >"$hd"
	hostile "truncated to $n bytes"
done
# the first load (jit_outer) ends at byte 118: a cut after it keeps it
check "truncated after the first load: jit_outer named, jit::hot not" \
	sh -c 'grep -q jit_outer "$1" && ! grep -q "jit::hot" "$1"' - "$tmp/h.out"
cp "$dump" "$hd"; poke "$hd" 0 'XXXX'
hostile "bad magic"
check "bad magic: as without a dump" cmp -s "$tmp/h.none" "$tmp/h.out"
cp "$dump" "$hd"; poke "$hd" 44 '\377\377\377\377'
hostile "record size 4 GiB"
cp "$dump" "$hd"; poke "$hd" 80 '\377\377\377\177'
hostile "code size 2 GiB (beyond the file)"
check "code size beyond the file: that load left out, the others used" \
	sh -c '! grep -q jit_outer "$1" && grep -q "jit::hot" "$1"' - "$tmp/h.out"
cp "$dump" "$hd"; poke "$hd" 80 '\377\377\377\377\377\377\377\377'
hostile "code size 2^64 - 1"
cp "$dump" "$hd"; poke "$hd" 8 '\377\377\377\377'
hostile "header size 4 GiB"
{ head -c 40 "$dump"; head -c 5000 "$TD/bin/jit"; } >"$hd"
"$FOLD" --symfs="$h" "$f" >/dev/null 2>"$tmp/h.err"
rc=$?
check "garbage records: exit 0, at most one warning (rc $rc)" \
	test $rc -eq 0 -a "$(grep -c "jit-$pid.dump" "$tmp/h.err")" -le 1
