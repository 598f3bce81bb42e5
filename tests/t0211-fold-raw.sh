#!/bin/sh
# Symbolize late: pd-fold --raw leaves user frames as BUILDID+0xOFFSET@PATH
# (fold-raw.h) and reads no symbol table or debug info; pd-fold
# --symbolize names them once. For every testdata recording, --raw then
# --symbolize gives what pd-fold gives; --raw's output is the same on a
# machine without the binaries (frame pointers); --symbolize finds the
# files through an archive as through the build-id cache. And 240
# profiles folded --raw apart (GNU parallel), merged raw and symbolized
# once: the sum of the per-file folds.
. "$(dirname "$0")/lib.sh"
. "$PD_TOP/tests/tools/fleet-lib.sh"

FOLD=$PD_BIN/pd-fold
if have_perf; then
	testdata_buildid_cache
else
	echo "# no perf (apt-get install linux-perf): testdata's binaries are named at their recorded paths only"
fi
mkdir "$tmp/d"

n=0 bad=
for f in "$TD"/*.data; do
	b=$tmp/d/$(basename "$f" .data)
	"$FOLD" -q "$f" >"$b.want" 2>/dev/null || continue
	"$FOLD" -q --raw "$f" >"$b.raw" 2>/dev/null &&
		"$FOLD" -q --symbolize "$b.raw" >"$b.got" &&
		cmp -s "$b.want" "$b.got" || bad="$bad ${f##*/}"
	n=$((n + 1))
done
check "--raw, then --symbolize: pd-fold's output, for each of $n recordings${bad:+ (not:$bad)}" test -z "$bad"
check "raw frames: build id, offset, path" \
	grep -q -E ';[0-9a-f]{40}\+0x[0-9a-f]+@/[^;]*/bin/burn[; ]' "$tmp/d/fp.raw"
check "DWARF-unwound frames are marked for their inlined functions" \
	grep -q -E ';[0-9a-f]{40}\+0x[0-9a-f]+i@/' "$tmp/d/inl-dwarf.raw"
check "kernel frames are named on the host" grep -q ';entry_SYSCALL_64' "$tmp/d/system.raw"
check "lines that become equal are added up" \
	test "$(wc -l <"$tmp/d/fp.raw")" -gt "$(wc -l <"$tmp/d/fp.want")"
"$FOLD" -q --symbolize <"$tmp/d/fp.raw" >"$tmp/got"
check "--symbolize reads standard input" cmp -s "$tmp/d/fp.want" "$tmp/got"
"$FOLD" -q -S 1K --symbolize "$tmp/d/system.raw" "$tmp/d/fp.raw" -o "$tmp/got"
fleet_sum "$tmp/d/system.want" "$tmp/d/fp.want" >"$tmp/want"
check "several inputs, spilled: their sum, named" cmp -s "$tmp/want" "$tmp/got"

# a host without the binaries (an empty --symfs, an empty build-id
# cache): frame-pointer recordings fold --raw all the same, with the
# paths of files whose build id was not recorded; named centrally, the
# same stacks
mkdir -p "$tmp/empty/.debug"
bad= same=
for k in fp inl mangled threads; do
	# the host's own kernel symbols: the recording kernel's
	kid=$("$PD_BIN/pd-info" "$TD/$k.data" |
		sed -n 's/^# build id : \([0-9a-f]*\) \[kernel.kallsyms\]$/\1/p')
	ks=
	[ -f "$TD/kallsyms/$kid" ] && ks=--kallsyms=$TD/kallsyms/$kid
	PERF_BUILDID_DIR=$tmp/empty/.debug "$FOLD" -q --raw --symfs="$tmp/empty" \
		$ks "$TD/$k.data" >"$tmp/bare.raw" 2>/dev/null &&
		"$FOLD" -q --symbolize "$tmp/bare.raw" >"$tmp/got" &&
		cmp -s "$tmp/d/$k.want" "$tmp/got" || bad="$bad $k"
	cmp -s "$tmp/d/$k.raw" "$tmp/bare.raw" && same="$same $k"
done
check "--raw on a host without the binaries, named centrally: the same${bad:+ (not:$bad)}" test -z "$bad"
check "... and the same raw frames where the build ids were recorded (fp)" \
	test "$same" != "${same#* fp}"

# an archive carries the binaries: --symbolize with nothing else
if "$PD_BIN/pd-convert" -q --to=archive "$TD/fp.data" -o "$tmp/fp.tar.zst" 2>/dev/null; then
	PERF_BUILDID_DIR=$tmp/empty PERF_CONFIG=/dev/null "$FOLD" -q --symbolize \
		--symfs="$tmp/empty" --archive="$tmp/fp.tar.zst" "$tmp/d/fp.raw" >"$tmp/got"
	check "--symbolize --archive: named from the archive's files" cmp -s "$tmp/d/fp.want" "$tmp/got"
else
	skip "pd-convert --to=archive failed"
fi

# usage and bad input
"$FOLD" --raw --filter=deny:/dev/null "$TD/fp.data" >/dev/null 2>&1
check "--raw --filter: bad usage (--symbolize takes it)" test $? -eq 2
"$FOLD" --archive=x "$TD/fp.data" >/dev/null 2>&1
check "--archive without --symbolize: bad usage" test $? -eq 2
printf 'a;b 1\nno count\n' >"$tmp/bad.raw"
"$FOLD" --symbolize "$tmp/bad.raw" >/dev/null 2>"$tmp/err"
check "--symbolize of a bad line: exit 1" test $? -eq 1
check "... naming file and line" grep -q 'bad.raw:2: not a folded stack line' "$tmp/err"

# Must show: 240 profiles --raw apart, merged raw, symbolized once
fleet_make "$tmp/fleet" 240
ls "$tmp"/fleet/*/*.data | sort >"$tmp/list"
if command -v parallel >/dev/null 2>&1; then
	parallel -j2 --will-cite "$FOLD" -q --raw {} -o {}.raw <"$tmp/list"
	parallel -j2 --will-cite "$FOLD" -q {} -o {}.folded <"$tmp/list"
	how="GNU parallel"
else
	while read -r f; do
		"$FOLD" -q --raw "$f" -o "$f.raw"
		"$FOLD" -q "$f" -o "$f.folded"
	done <"$tmp/list"
	how="one by one: no GNU parallel (apt-get install parallel)"
fi
check "240 profiles folded --raw apart ($how)" \
	test "$(ls "$tmp"/fleet/*/*.raw | wc -l)" -eq 240
"$FOLD" --merge "$tmp"/fleet/*/*.raw -o "$tmp/merged.raw"
"$FOLD" -q --symbolize "$tmp/merged.raw" -o "$tmp/named"
fleet_sum "$tmp"/fleet/*/*.folded >"$tmp/sum"
check "merged raw, symbolized once: the sum of the per-file folds" cmp -s "$tmp/sum" "$tmp/named"
echo "# raw: $(cat "$tmp"/fleet/*/*.raw | wc -c) bytes from 240 profiles, merged $(wc -c <"$tmp/merged.raw")"
