#!/bin/sh
# Symbolize late: pd-fold --raw leaves user frames as BUILDID+0xOFFSET@PATH
# (fold-raw.h) and reads no symbol table or debug info; pd-fold
# --symbolize names them once. For every testdata recording, --raw then
# --symbolize gives what pd-fold gives; --raw's output is the same on a
# machine without the binaries (frame pointers); --symbolize finds the
# files through an archive as through the build-id cache. And 240
# profiles folded --raw apart (GNU parallel), merged raw and symbolized
# once: the sum of the per-file folds. --raw-kernel: frames of the
# kernel proper raw too (KBUILDID+0xOFFSET@[kernel.kallsyms]_text, the
# offset from _text), with or without the kernel's symbols on the host;
# --symbolize names them from an archive's kallsyms (of this boot or of
# another, with another KASLR slide), a vmlinux, the build-id cache, as
# pd-fold names kernel frames from them; without any, they stay
# unresolved as pd-fold leaves kernel frames, with one warning.
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
kbad=
for f in "$TD"/*.data; do
	b=$tmp/d/$(basename "$f" .data)
	"$FOLD" -q "$f" >"$b.want" 2>/dev/null || continue
	"$FOLD" -q --raw "$f" >"$b.raw" 2>/dev/null &&
		"$FOLD" -q --symbolize "$b.raw" >"$b.got" &&
		cmp -s "$b.want" "$b.got" || bad="$bad ${f##*/}"
	"$FOLD" -q --raw --raw-kernel "$f" >"$b.rawk" 2>/dev/null &&
		"$FOLD" -q --symbolize "$b.rawk" >"$b.got" &&
		cmp -s "$b.want" "$b.got" || kbad="$kbad ${f##*/}"
	n=$((n + 1))
done
check "--raw, then --symbolize: pd-fold's output, for each of $n recordings${bad:+ (not:$bad)}" test -z "$bad"
check "--raw --raw-kernel, then --symbolize (the build-id cache's kallsyms): the same${kbad:+ (not:$kbad)}" test -z "$kbad"
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

# --raw-kernel. kernel_names FOLDED: the kernel's names in it (frames
# that are symbols of kallsyms $ks)
kernel_names() {
	sed 's/ [0-9]*$//' "$1" | tr ';' '\n' | sort -u >"$tmp/frames"
	awk '{ print $3 }' "$ks" | sort -u | comm -12 - "$tmp/frames"
}
for k in syscalls system; do
	f=$TD/$k.data
	kid=$("$PD_BIN/pd-info" "$f" |
		sed -n 's/^# build id : \([0-9a-f]*\) \[kernel.kallsyms\]$/\1/p')
	ks=$TD/kallsyms/$kid
	if [ -z "$kid" ] || [ ! -f "$ks" ]; then
		not_ok "$k.data: a kernel build id with its kallsyms in testdata/kallsyms"
		continue
	fi
	"$FOLD" -q --kallsyms="$ks" "$f" >"$tmp/$k.want"
	# a host with its kernel's symbols, and one without any
	"$FOLD" -q --raw --raw-kernel --kallsyms="$ks" "$f" >"$tmp/$k.rawk"
	PERF_BUILDID_DIR=$tmp/empty/.debug "$FOLD" -q --raw --raw-kernel \
		--kallsyms=/dev/null "$f" >"$tmp/$k.rawk0"
	check "$k.data --raw --raw-kernel: no kernel name ($(kernel_names "$tmp/$k.want" | wc -l) without it)" \
		test -z "$(kernel_names "$tmp/$k.rawk")"
	check "... but raw kernel frames: kernel build id, offset from _text" \
		grep -q -E ";$kid\+0x[0-9a-f]+@\[kernel\.kallsyms\]_text[; ]" "$tmp/$k.rawk"
	check "... the same with no kernel symbols on the host" cmp -s "$tmp/$k.rawk" "$tmp/$k.rawk0"

	"$PD_BIN/pd-convert" -q --to=archive --kallsyms="$ks" "$f" -o "$tmp/$k.tar.zst"
	PERF_BUILDID_DIR=$tmp/empty/.debug PERF_CONFIG=/dev/null "$FOLD" -q \
		--symbolize --archive="$tmp/$k.tar.zst" "$tmp/$k.rawk" >"$tmp/got"
	check "$k.data: --symbolize --archive (its kallsyms): pd-fold --kallsyms's stacks, byte for byte" \
		cmp -s "$tmp/$k.want" "$tmp/got"
	"$FOLD" -q --kernel --kallsyms="$ks" "$f" >"$tmp/want"
	PERF_BUILDID_DIR=$tmp/empty/.debug PERF_CONFIG=/dev/null "$FOLD" -q \
		--symbolize --kernel --archive="$tmp/$k.tar.zst" "$tmp/$k.rawk" >"$tmp/got"
	check "... and with --kernel, pd-fold --kernel's (_[k])" cmp -s "$tmp/want" "$tmp/got"

	# another boot of that kernel: every address 0x3a000000 further
	if command -v perl >/dev/null 2>&1; then
		perl -ne 'if (/^([0-9a-f]{16}) (.*)$/s) { printf "%016x %s", hex($1) + 0x3a000000, $2 } else { print }' \
			"$ks" >"$tmp/slid"
		"$PD_BIN/pd-convert" -q --to=archive --kallsyms="$tmp/slid" "$f" \
			-o "$tmp/slid.tar.zst"
		PERF_BUILDID_DIR=$tmp/empty/.debug PERF_CONFIG=/dev/null "$FOLD" -q \
			--symbolize --archive="$tmp/slid.tar.zst" "$tmp/$k.rawk" >"$tmp/got"
		check "... from the kallsyms of a boot with another KASLR slide: the same" \
			cmp -s "$tmp/$k.want" "$tmp/got"
		"$FOLD" -q --kallsyms="$tmp/slid" "$f" >"$tmp/got"
		cmp -s "$tmp/$k.want" "$tmp/got"
		check "... (which names the recording's own addresses otherwise)" \
			test $? -ne 0
	else
		skip "perl missing (apt-get install perl): no kallsyms of another boot"
	fi
done

# a vmlinux (tests/tools/mkvmlinux: linked 16 MiB below the recorded
# addresses, a section .init.text of its own): as pd-fold --vmlinux names
MKV=$PD_BIN/../tests/tools/mkvmlinux
if [ -x "$MKV" ] && "$MKV" -p vml_ -d 1000000 -s do_vmi_munmap "$ks" "$tmp/vml"; then
	"$FOLD" -q --vmlinux="$tmp/vml" "$TD/system.data" >"$tmp/want"
	"$FOLD" -q --symbolize --vmlinux="$tmp/vml" "$tmp/system.rawk" >"$tmp/got"
	check "--symbolize --vmlinux: pd-fold --vmlinux's stacks ($(grep -c vml_ "$tmp/want") with its names)" \
		cmp -s "$tmp/want" "$tmp/got"
	"$PD_BIN/pd-convert" -q --to=archive --vmlinux="$tmp/vml" "$TD/system.data" \
		-o "$tmp/vml.tar.zst"
	PERF_BUILDID_DIR=$tmp/empty/.debug PERF_CONFIG=/dev/null "$FOLD" -q \
		--symbolize --archive="$tmp/vml.tar.zst" "$tmp/system.rawk" >"$tmp/got"
	check "... and from an archive's vmlinux" cmp -s "$tmp/want" "$tmp/got"
else
	not_ok "tests/tools/mkvmlinux makes a vmlinux (make check builds it)"
fi

# a kernel whose symbols are nowhere: unresolved as pd-fold leaves
# kernel frames it cannot name, one warning naming the build id; an
# archive of another kernel names nothing of it
fake=00000000000000000000000000000000c0ffee00
kid=$("$PD_BIN/pd-info" "$TD/syscalls.data" |
	sed -n 's/^# build id : \([0-9a-f]*\) \[kernel.kallsyms\]$/\1/p')
sed "s/$kid/$fake/g" "$tmp/syscalls.rawk" >"$tmp/fake.rawk"
PERF_BUILDID_DIR=$tmp/empty/.debug "$FOLD" -q --kallsyms=/dev/null \
	"$TD/syscalls.data" >"$tmp/want"
PERF_BUILDID_DIR=$tmp/empty/.debug PERF_CONFIG=/dev/null "$FOLD" \
	--symbolize "$tmp/fake.rawk" >"$tmp/got" 2>"$tmp/err"
check "unknown kernel: exit 0, its frames unresolved as pd-fold shows them" \
	test $? -eq 0 -a -s "$tmp/got" && cmp -s "$tmp/want" "$tmp/got"
# (the user frames' warnings aside: testdata's programs are not at their
# recorded paths in every checkout, nor its C library in every root)
check "... with one warning, naming the build id" \
	test "$(grep -c kernel "$tmp/err")" -eq 1 -a "$(grep -c "build id $fake" "$tmp/err")" -eq 1
# the kernel frames alone (the archive holds testdata's programs, which
# the empty cache does not: their frames may differ)
sed -E 's/;[^; ]*@\/[^; ]*//g' "$tmp/fake.rawk" >"$tmp/fakek.rawk"
PERF_BUILDID_DIR=$tmp/empty/.debug PERF_CONFIG=/dev/null "$FOLD" -q \
	--symbolize "$tmp/fakek.rawk" >"$tmp/got"
PERF_BUILDID_DIR=$tmp/empty/.debug PERF_CONFIG=/dev/null "$FOLD" -q \
	--symbolize --archive="$tmp/syscalls.tar.zst" "$tmp/fakek.rawk" >"$tmp/got2"
check "... an archive of another kernel does not name it" \
	sh -c "[ -s '$tmp/got' ] && ! grep -q '@/' '$tmp/fakek.rawk' && cmp -s '$tmp/got' '$tmp/got2'"

# malformed raw kernel frames are no raw frames: kept as they are
printf '%s\n' "a;ab+0x10@[kernel.kallsyms];x 1" \
	"a;ab+0x10i@[kernel.kallsyms]_text 2" "a;[kernel.kallsyms]_text+0x10 3" \
	"a;ab+0x10@[kernel.kallsyms]_t%zzext 4" "a;ab-0x10@/usr/lib/libc.so.6 5" \
	"a;ab-0x11111111111111111@[kernel.kallsyms]_text 6" >"$tmp/badk.raw"
"$FOLD" --symbolize "$tmp/badk.raw" >"$tmp/got" 2>"$tmp/err"
check "malformed raw kernel frames: exit 0, kept as they are, no message" \
	test $? -eq 0 -a ! -s "$tmp/err" && sort "$tmp/badk.raw" | cmp -s - "$tmp/got"
printf 'a;%s+0xffffffffffff0000@[kernel.kallsyms]_text;%s-0x7fffffffffffffff@[kernel.kallsyms]_text 1\n' \
	"$kid" "$kid" >"$tmp/far.raw"
PERF_BUILDID_DIR=$tmp/empty/.debug PERF_CONFIG=/dev/null "$FOLD" -q \
	--symbolize --archive="$tmp/syscalls.tar.zst" "$tmp/far.raw" >"$tmp/got"
check "offsets far outside the kernel: no map, [unknown]" \
	test "$(cat "$tmp/got")" = "a;[unknown];[unknown] 1"

# usage and bad input
"$FOLD" --raw-kernel "$TD/fp.data" >/dev/null 2>&1
check "--raw-kernel without --raw: bad usage" test $? -eq 2
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
