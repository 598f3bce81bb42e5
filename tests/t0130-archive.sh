#!/bin/sh
# Profile archives (pd-convert --to=archive, docs/archive.md):
# - made from a profile whose binaries are then moved away (a fresh perf
#   record of a copy of testdata's burn, or testdata/fp.data found through
#   a private build-id cache that is then removed), the archive folds as
#   the original did, also after being copied elsewhere, from a pipe, as
#   .tar.gz, and pd-info / pd-diff / pd-unwind open it;
# - --from-archive gives a perf.data and a build-id directory on which the
#   system perf prints what it printed for the original (perf the oracle);
# - hostile archives (absolute names, "..", links, bad checksum, huge
#   size, truncation, perf.data twice, no perf.data): one error line
#   naming the archive and an offset, exit 1, nothing written outside the
#   private temporary directory, which is gone afterwards.
. "$(dirname "$0")/lib.sh"

conv() { "$PD_BIN/pd-convert" "$@"; }
fold() { "$PD_BIN/pd-fold" "$@"; }
# our temporary files go to a private TMPDIR: leaks show there
mkdir -p "$tmp/t" "$tmp/home"
TMPDIR=$tmp/t
HOME=$tmp/home
export TMPDIR HOME
no_leak() { [ -z "$(ls -A "$tmp/t")" ]; }

# must_show NAME PROFILE BINARY...: archive, move the binaries, fold
must_show() {
	_n=$1 _p=$2
	shift 2
	_samples() { "$PD_BIN/pd-info" --stats "$1" 2>/dev/null | grep 'SAMPLE events' | awk '{ print $3 }'; }
	fold "$_p" >"$tmp/$_n.want" 2>/dev/null
	check "$_n: folds with symbols before" grep -q ';main;' "$tmp/$_n.want"
	conv -q --to=archive "$_p" -o "$tmp/$_n.tar.zst" 2>"$tmp/err"
	check "$_n: archive made" test -s "$tmp/$_n.tar.zst"
	conv -q --to=archive "$_p" -o "$tmp/$_n.tar.gz" 2>"$tmp/err"
	mkdir -p "$tmp/away"
	for _b; do mv "$_b" "$tmp/away/"; done
	fold "$_p" >"$tmp/$_n.gone" 2>/dev/null
	# (testdata's recordings name /work/main/testdata/bin/..., there
	# in the project's own checkout)
	if [ "$_n" = fresh ]; then
		check "$_n: without the binaries the profile alone folds otherwise" \
			sh -c "! cmp -s '$tmp/$_n.want' '$tmp/$_n.gone'"
	fi
	fold "$tmp/$_n.tar.zst" >"$tmp/$_n.got" 2>"$tmp/err"
	check "$_n: the archive folds identically without the binaries" \
		cmp -s "$tmp/$_n.want" "$tmp/$_n.got"
	mkdir -p "$tmp/elsewhere/$_n"
	cp "$tmp/$_n.tar.zst" "$tmp/elsewhere/$_n/copy.tar.zst"
	(cd "$tmp/elsewhere/$_n" && fold copy.tar.zst) >"$tmp/$_n.got2" 2>/dev/null
	check "$_n: copied to another directory, the same" \
		cmp -s "$tmp/$_n.want" "$tmp/$_n.got2"
	cat "$tmp/$_n.tar.zst" | fold - >"$tmp/$_n.got3" 2>/dev/null
	check "$_n: from a pipe, the same" cmp -s "$tmp/$_n.want" "$tmp/$_n.got3"
	fold "$tmp/$_n.tar.gz" >"$tmp/$_n.got4" 2>/dev/null
	check "$_n: .tar.gz, the same" cmp -s "$tmp/$_n.want" "$tmp/$_n.got4"
	# the archive's records are compressed: the sample counts compare
	_samples "$_p" >"$tmp/i.want"
	_samples "$tmp/$_n.tar.zst" >"$tmp/i.got"
	check "$_n: pd-info reads the archive: the same samples" \
		sh -c "test -s '$tmp/i.want' && cmp -s '$tmp/i.want' '$tmp/i.got'"
	"$PD_BIN/pd-diff" "$tmp/$_n.want" "$tmp/$_n.tar.zst" >"$tmp/d.got" 2>/dev/null
	check "$_n: pd-diff against the original folding: no difference" \
		sh -c "awk '\$(NF-1) != \$NF { bad = 1 } END { exit bad || NR == 0 }' '$tmp/d.got'"
	"$PD_BIN/pd-unwind" -q "$tmp/$_n.tar.zst" -o "$tmp/$_n.unw.data" 2>/dev/null
	check "$_n: pd-unwind reads the archive" test -s "$tmp/$_n.unw.data"
	check "$_n: no temporary directory left" no_leak
}

# 1. a fresh recording of a copy of burn, if perf may record here
mkdir -p "$tmp/rec"
cp "$TD/bin/burn" "$tmp/rec/burn"
if have_perf && (cd "$tmp/rec" && perf record -q -N -g -o fresh.data ./burn 200) \
	>/dev/null 2>&1 && [ -s "$tmp/rec/fresh.data" ]; then
	must_show fresh "$tmp/rec/fresh.data" "$tmp/rec/burn"
	# burn (gone from its recorded path) in a build-id cache that only
	# perf's configuration names (buildid.dir), as perf finds it
	printf '[buildid]\n\tdir = %s\n' "$tmp/confcache" >"$tmp/conf.config"
	PERF_CONFIG=$tmp/conf.config perf buildid-cache -a "$tmp/away/burn" 2>/dev/null
	PERF_CONFIG=$tmp/conf.config conv -q --to=archive "$tmp/rec/fresh.data" \
		-o "$tmp/conf.tar.zst" 2>/dev/null
	check "buildid.dir of \$PERF_CONFIG: burn found in that cache" \
		sh -c "zstd -dc '$tmp/conf.tar.zst' | tar -xOf - manifest | grep -q '^elf	.*/burn	$tmp/confcache/'"
	PERF_CONFIG=$tmp/conf.config fold "$tmp/rec/fresh.data" >"$tmp/conf.fold" 2>/dev/null
	check "buildid.dir of \$PERF_CONFIG: pd-fold finds burn there as perf does (folds as with burn in place)" \
		cmp -s "$tmp/fresh.want" "$tmp/conf.fold"
	PERF_CONFIG=/dev/null fold "$tmp/rec/fresh.data" >"$tmp/conf.fold" 2>/dev/null
	check "no buildid.dir configured: pd-fold does not find burn (the check can fail)" \
		sh -c "! cmp -s '$tmp/fresh.want' '$tmp/conf.fold'"
	cp "$tmp/conf.config" "$HOME/.perfconfig"
	fold "$tmp/rec/fresh.data" >"$tmp/conf.fold" 2>/dev/null
	check "buildid.dir of ~/.perfconfig: pd-fold finds burn there" \
		cmp -s "$tmp/fresh.want" "$tmp/conf.fold"
	conv -q --to=archive "$tmp/rec/fresh.data" -o "$tmp/conf2.tar.zst" 2>/dev/null
	check "buildid.dir of ~/.perfconfig: burn found in that cache" \
		sh -c "zstd -dc '$tmp/conf2.tar.zst' | tar -xOf - manifest | grep -q '^elf	.*/burn	$tmp/confcache/'"
	PERF_CONFIG=/dev/null conv -q --to=archive "$tmp/rec/fresh.data" \
		-o "$tmp/conf3.tar.zst" 2>/dev/null
	check "no buildid.dir configured: burn not found (the check can fail)" \
		sh -c "zstd -dc '$tmp/conf3.tar.zst' | tar -xOf - manifest | grep -q '^missing	.*/burn	'"
	rm -rf "$HOME/.perfconfig" "$tmp/confcache"
	# the manifest names the binary and its checksum, which sha256sum
	# computes alike
	zstd -dc "$tmp/fresh.tar.zst" | tar -xOf - manifest >"$tmp/manifest"
	sum=$(sha256sum "$tmp/away/burn" | cut -d' ' -f1)
	check "fresh: manifest: burn's path, size and sha256" \
		grep -q "^elf	.build-id/..*	$(stat -c %s "$tmp/away/burn")	$sum	.*	$tmp/rec/burn	" "$tmp/manifest"
	check "fresh: manifest first, perf.data last in the tar" \
		sh -c "zstd -dc '$tmp/fresh.tar.zst' | tar -tf - | sed -n '1p;\$p' | tr '\n' ' ' | grep -qx 'manifest perf.data '"
	# --from-archive, read by perf with buildid.dir pointing at it
	mv "$tmp/away/burn" "$tmp/rec/burn"
	perf script -i "$tmp/rec/fresh.data" >"$tmp/ps.want" 2>/dev/null </dev/null
	mv "$tmp/rec/burn" "$tmp/away/burn"
	conv --from-archive "$tmp/fresh.tar.zst" -o "$tmp/ext" 2>"$tmp/err"
	printf '[buildid]\n\tdir = %s\n' "$tmp/ext" >"$tmp/ext.config"
	PERF_CONFIG=$tmp/ext.config perf script -i "$tmp/ext/perf.data" \
		>"$tmp/ps.got" 2>/dev/null </dev/null
	check "--from-archive: perf script with buildid.dir there prints what it printed for the original" \
		cmp -s "$tmp/ps.want" "$tmp/ps.got"
	check "--from-archive: perf script printed symbols of burn" grep -q 'inner_hot' "$tmp/ps.got"
	perf script -i "$tmp/ext/perf.data" >"$tmp/ps.none" 2>/dev/null </dev/null
	check "--from-archive: without the config perf does not find them (the oracle can fail)" \
		sh -c "! grep -q inner_hot '$tmp/ps.none'"
	# pipe-mode input: no build id table, the manifest maps the paths
	mv "$tmp/away/burn" "$tmp/rec/burn"
	conv -q --pipe "$tmp/rec/fresh.data" -o "$tmp/pipe.data"
	fold "$tmp/pipe.data" >"$tmp/pipe.want" 2>/dev/null
	cat "$tmp/pipe.data" | conv -q --to=archive - -o "$tmp/pipe.tar.zst"
	mv "$tmp/rec/burn" "$tmp/away/burn"
	fold "$tmp/pipe.tar.zst" >"$tmp/pipe.got" 2>/dev/null
	check "pipe-mode input archived from stdin folds the same" \
		cmp -s "$tmp/pipe.want" "$tmp/pipe.got"
	rm -f "$tmp/away/burn"
else
	skip "perf record not possible here: fresh-recording checks not run"
fi

# 2. testdata/fp.data: burn found through a private build-id cache
if have_perf; then
	testdata_buildid_cache
	must_show cache "$TD/fp.data" "$PERF_BUILDID_DIR"
	unset PERF_BUILDID_DIR PERF_CONFIG
else
	skip "perf not installed: build-id cache checks not run"
fi

# 3. nothing found: warns, still an archive of the profile
mkdir -p "$tmp/emptyfs"
conv --to=archive --symfs="$tmp/emptyfs" "$TD/fp.data" -o "$tmp/bare.tar.zst" 2>"$tmp/err"
check "no binaries found: exit 0 and an archive" test -s "$tmp/bare.tar.zst"
check "no binaries found: one warning with a summary" \
	grep -q 'files not found, their frames will stay unresolved' "$tmp/err"
check "no binaries found: manifest lists them as missing" \
	sh -c "zstd -dc '$tmp/bare.tar.zst' | tar -xOf - manifest | grep -q '^missing	.*/burn	'"

# 3b. kernel symbols: the archive's kallsyms names kernel frames, but a
# --vmlinux given to the reader stays the kernel's only source, as it is
# for the plain profile (tests/tools/mkvmlinux: every name prefixed vml_)
bid=abf9ec0ec5946600c90641cf5db998472fac410b
MKV=$PD_BIN/../tests/tools/mkvmlinux
if [ -x "$MKV" ] && "$MKV" -p vml_ -d 1000000 "$TD/kallsyms/$bid" "$tmp/vml"; then
	conv -q --to=archive --kallsyms="$TD/kallsyms/$bid" "$TD/syscalls.data" \
		-o "$tmp/sys.tar.zst" 2>/dev/null
	fold --kallsyms="$TD/kallsyms/$bid" "$TD/syscalls.data" >"$tmp/ks.want" 2>/dev/null
	fold "$tmp/sys.tar.zst" >"$tmp/ks.got" 2>/dev/null
	check "kernel frames named from the archive's kallsyms" \
		sh -c 'grep -q ";do_syscall_64;" "$1" && cmp -s "$1" "$2"' - "$tmp/ks.want" "$tmp/ks.got"
	fold --vmlinux="$tmp/vml" "$TD/syscalls.data" >"$tmp/vml.want" 2>/dev/null
	fold --vmlinux="$tmp/vml" "$tmp/sys.tar.zst" >"$tmp/vml.got" 2>/dev/null
	check "--vmlinux with an archive: kernel frames from the vmlinux, not the archive's kallsyms" \
		sh -c 'grep -q ";vml_do_syscall_64;" "$1" && ! grep -q ";do_syscall_64;" "$1" && cmp -s "$2" "$1"' \
		- "$tmp/vml.got" "$tmp/vml.want"
	check "no temporary directory left (kernel symbols)" no_leak
else
	not_ok "tests/tools/mkvmlinux built and made a vmlinux (make check builds it)"
fi

# 3c. --vmlinux given to pd-convert: stored (by build id), and read
# instead of kallsyms as perf prefers a vmlinux
if [ -s "$tmp/vml" ]; then
	conv -q --to=archive --vmlinux="$tmp/vml" --kallsyms="$TD/kallsyms/$bid" \
		"$TD/syscalls.data" -o "$tmp/sysv.tar.zst" 2>/dev/null
	mv "$tmp/vml" "$tmp/vml.away"
	fold "$tmp/sysv.tar.zst" >"$tmp/vmla.got" 2>/dev/null
	check "the archive's vmlinux names kernel frames (the vmlinux itself gone)" \
		sh -c 'grep -q ";vml_do_syscall_64;" "$1" && cmp -s "$1" "$2"' - "$tmp/vmla.got" "$tmp/vml.want"
	check "manifest: the vmlinux with the recording kernel's build id" \
		sh -c "zstd -dc '$tmp/sysv.tar.zst' | tar -xOf - manifest | grep -q '^vmlinux	vmlinux	[0-9]*	[0-9a-f]*	$bid	'"
	"$MKV" -p vml_ -b 00000000000000000000000000000000c0ffee00 \
		"$TD/kallsyms/$bid" "$tmp/vml-other"
	conv --to=archive --vmlinux="$tmp/vml-other" "$TD/syscalls.data" \
		-o "$tmp/sysw.tar.zst" 2>"$tmp/err"
	check "a vmlinux of another build id: not stored, one warning why" \
		sh -c "! zstd -dc '$tmp/sysw.tar.zst' | tar -tf - | grep -qx vmlinux &&
			grep -q 'vml-other not stored: its build id is not the recording kernel' '$tmp/err'"
	# an archive of the archive keeps its vmlinux (the file itself still
	# away): the same kernel frames
	conv --to=archive "$tmp/sysv.tar.zst" -o "$tmp/sysv2.tar.zst" 2>"$tmp/err"
	fold "$tmp/sysv2.tar.zst" >"$tmp/vmla2.got" 2>/dev/null
	check "an archive made from the archive keeps its vmlinux: the same kernel frames" \
		sh -c "zstd -dc '$tmp/sysv2.tar.zst' | tar -tf - | grep -qx vmlinux && cmp -s '$tmp/vmla.got' '$tmp/vmla2.got'"
	check "archive of the archive: no warning about its vmlinux" sh -c "! grep -q vmlinux '$tmp/err'"
	mv "$tmp/vml.away" "$tmp/vml"
	conv -q --from-archive "$tmp/sysv.tar.zst" -o "$tmp/extv" 2>/dev/null
	check "--from-archive: DIR/vmlinux is the vmlinux given" cmp -s "$tmp/vml" "$tmp/extv/vmlinux"
fi

# 3d. JIT symbols: the jitdump the recording names and the perf map of
# its process, found under --symfs (where pd-fold reads the dump too)
# and stored; folding the archive after they are gone gives what pd-fold
# gave with them, and nothing is read from this machine's /tmp
rec=$("$PD_BIN/pd-info" --dump "$TD/jit.data" 2>/dev/null |
	grep -o '/[^ ]*/jit-[0-9]*\.dump' | head -1)
pid=${rec##*/jit-}
pid=${pid%.dump}
if [ -n "$rec" ] && [ -f "$TD/jit-$pid.dump" ] && [ -f "$TD/perf-$pid.map" ]; then
	jbin=$("$PD_BIN/pd-info" --dump "$TD/jit.data" 2>/dev/null |
		grep -o '/[^ ]*/bin/jit' | head -1)
	jfs=$tmp/jitfs
	mkdir -p "$jfs${rec%/*}" "$jfs/tmp" "$jfs${jbin%/*}" "$tmp/jitempty"
	cp "$TD/bin/jit" "$jfs$jbin"
	cp "$TD/jit-$pid.dump" "$jfs$rec"
	K=$TD/kallsyms/$bid
	fold --symfs="$jfs" --kallsyms="$K" "$TD/jit.data" >"$tmp/jit.want" 2>/dev/null
	conv -q --to=archive --symfs="$jfs" --kallsyms="$K" "$TD/jit.data" \
		-o "$tmp/jit.tar.zst" 2>/dev/null
	rm -f "$jfs$rec"
	fold --symfs="$jfs" --kallsyms="$K" "$TD/jit.data" >"$tmp/jit.nodump" 2>/dev/null
	check "jit: the dump names JIT frames (jit::hot), without it they stay unnamed" \
		sh -c 'grep -q ";jit::hot " "$1" && ! grep -q ";jit::hot " "$2"' - "$tmp/jit.want" "$tmp/jit.nodump"
	fold --symfs="$tmp/jitempty" "$tmp/jit.tar.zst" >"$tmp/jit.got" 2>"$tmp/err"
	check "jit: the archive folds identically with the dump gone (and no other file)" \
		cmp -s "$tmp/jit.want" "$tmp/jit.got"
	conv -q --to=archive --symfs="$tmp/jitempty" "$tmp/jit.tar.zst" -o "$tmp/jit2.tar.zst" 2>/dev/null
	fold --symfs="$tmp/jitempty" "$tmp/jit2.tar.zst" >"$tmp/jit2.got" 2>/dev/null
	check "jit: an archive made from the archive keeps the dump: the same folding" \
		sh -c "zstd -dc '$tmp/jit2.tar.zst' | tar -tf - | grep -qx jit/1.dump && cmp -s '$tmp/jit.want' '$tmp/jit2.got'"
	conv -q --from-archive "$tmp/jit.tar.zst" -o "$tmp/extj" 2>/dev/null
	check "jit: --from-archive: DIR/jit/1.dump is the dump" \
		cmp -s "$TD/jit-$pid.dump" "$tmp/extj/jit/1.dump"
	check "jit: manifest names the dump's recorded path" \
		sh -c "zstd -dc '$tmp/jit.tar.zst' | tar -xOf - manifest | grep -q '^jitdump	jit/1.dump	.*	$rec	'"
	# the perf map alone (no dump): pd-fold reads /tmp/perf-PID.map,
	# in a private /tmp where the kernel allows one (relative paths:
	# $tmp is under the /tmp that the mount hides)
	cp "$TD/perf-$pid.map" "$jfs/tmp/perf-$pid.map"
	conv -q --to=archive --symfs="$jfs" --kallsyms="$K" "$TD/jit.data" \
		-o "$tmp/jitmap.tar.zst" 2>/dev/null
	rm -f "$jfs/tmp/perf-$pid.map"
	cp "$TD/perf-$pid.map" "$tmp/perf-map.copy"
	fold --symfs="$tmp/jitempty" "$tmp/jitmap.tar.zst" >"$tmp/jitmap.got" 2>/dev/null
	check "jit: the archive's perf map names JIT frames (jit_warm) with it gone" \
		grep -q ";jit_warm " "$tmp/jitmap.got"
	conv -q --to=archive --symfs="$tmp/jitempty" "$tmp/jitmap.tar.zst" -o "$tmp/jitmap2.tar.zst" 2>/dev/null
	fold --symfs="$tmp/jitempty" "$tmp/jitmap2.tar.zst" >"$tmp/jitmap2.got" 2>/dev/null
	check "jit: an archive made from the archive keeps the perf map: the same folding" \
		cmp -s "$tmp/jitmap.got" "$tmp/jitmap2.got"
	if (cd "$tmp" && unshare -m sh -c 'mount -t tmpfs tmpfs /tmp &&
		cp perf-map.copy /tmp/perf-$1.map &&
		"$2" --symfs=jitfs --kallsyms="$3" "$4" >jitmap.want 2>/dev/null' \
		- "$pid" "$PD_BIN/pd-fold" "$K" "$TD/jit.data") 2>/dev/null; then
		check "jit: perf map: the archive folds as pd-fold did with /tmp/perf-$pid.map" \
			cmp -s "$tmp/jitmap.want" "$tmp/jitmap.got"
	else
		skip "no private /tmp here (unshare -m): perf-map comparison not run"
	fi
	# an archive without the dump: the dump is never read from here
	conv --to=archive --symfs="$jfs" --kallsyms="$K" "$TD/jit.data" \
		-o "$tmp/jitnone.tar.zst" 2>"$tmp/err"
	check "jit: a dump not found when archiving: one warning naming it" \
		test "$(grep -c "jitdump $rec not found" "$tmp/err")" -eq 1
	cp "$TD/jit-$pid.dump" "$jfs$rec"
	fold --symfs="$jfs" "$tmp/jitnone.tar.zst" >"$tmp/jitnone.got" 2>"$tmp/err"
	rm -f "$jfs$rec"
	check "jit: a dump the archive lacks is not read from this machine (one warning)" \
		sh -c '! grep -q ";jit::hot " "$1" && test "$(grep -c "$2: not in the archive" "$3")" -eq 1' \
		- "$tmp/jitnone.got" "$rec" "$tmp/err"
	check "no temporary directory left (JIT)" no_leak
else
	not_ok "jit.data names a jitdump kept in testdata (found '$rec')"
fi

# usage
conv --to=archive "$TD/fp.data" -o "$tmp/x.zip" 2>/dev/null
check "an archive name must end in .tar.zst or .tar.gz (exit 2)" test $? -eq 2
conv --from-archive "$TD/fp.data" -o "$tmp/notarch" 2>"$tmp/err"
check "--from-archive of a plain perf.data: exit 1" test $? -eq 1

# 4. hostile archives
mkdir -p "$tmp/h/sub" "$tmp/victim"
cp "$TD/fp.data" "$tmp/h/perf.data"
# a tar's header checksum, rewritten after a field was changed
fix_sum() { # TARFILE BLOCKOFFSET
	_s=$(dd if="$1" bs=1 skip="$2" count=512 2>/dev/null | od -An -tu1 -v |
		awk '{ for (i = 1; i <= NF; i++) { n++; s += (n > 148 && n <= 156) ? 32 : $i } } END { print s }')
	printf '%06o\0 ' "$_s" | dd of="$1" bs=1 seek=$(($2 + 148)) conv=notrunc 2>/dev/null
}
hostile() { # NAME TARFILE PATTERN
	gzip -c "$2" >"$tmp/h/$1.tar.gz"
	fold "$tmp/h/$1.tar.gz" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	   grep -q "$1.tar.gz: offset 0x[0-9a-f]*: .*$3" "$tmp/err" && no_leak; then
		ok "hostile $1: one line naming the archive, the offset and '$3'"
	else
		not_ok "hostile $1 (rc $rc): $(head -2 "$tmp/err")"
	fi
}
(cd "$tmp/h" && tar --format=ustar -cf "$tmp/h/ok.tar" perf.data)
(cd "$tmp/h" && tar --format=ustar -P -cf "$tmp/h/abs.tar" "$tmp/h/perf.data")
hostile abs "$tmp/h/abs.tar" 'absolute path'
(cd "$tmp/h/sub" && tar --format=ustar -P -cf "$tmp/h/dotdot.tar" ../perf.data)
hostile dotdot "$tmp/h/dotdot.tar" "'..' in the path"
ln -sf "$tmp/victim/x" "$tmp/h/manifest"
(cd "$tmp/h" && tar --format=ustar -cf "$tmp/h/symlink.tar" manifest perf.data)
rm -f "$tmp/h/manifest"
hostile symlink "$tmp/h/symlink.tar" 'symbolic link'
ln -f "$tmp/h/perf.data" "$tmp/h/kallsyms"
(cd "$tmp/h" && tar --format=ustar -cf "$tmp/h/hardlink.tar" perf.data kallsyms)
rm -f "$tmp/h/kallsyms"
hostile hardlink "$tmp/h/hardlink.tar" 'hard link'
cp "$tmp/h/ok.tar" "$tmp/h/badsum.tar"
printf 'q' | dd of="$tmp/h/badsum.tar" bs=1 seek=0 conv=notrunc 2>/dev/null
hostile badsum "$tmp/h/badsum.tar" 'checksum mismatch'
cp "$tmp/h/ok.tar" "$tmp/h/huge.tar"
printf '77777777777\0' | dd of="$tmp/h/huge.tar" bs=1 seek=124 conv=notrunc 2>/dev/null
fix_sum "$tmp/h/huge.tar" 0
hostile huge "$tmp/h/huge.tar" 'truncated'
cp "$tmp/h/ok.tar" "$tmp/h/twice.tar"
(cd "$tmp/h" && tar --format=ustar -rf "$tmp/h/twice.tar" perf.data)
hostile twice "$tmp/h/twice.tar" "member 'perf.data' appears twice"
printf 'perfdata-archive\t1\n' >"$tmp/h/manifest"
(cd "$tmp/h" && tar --format=ustar -cf "$tmp/h/noprofile.tar" manifest)
hostile noprofile "$tmp/h/noprofile.tar" 'no perf.data member'
# perf.data's data ends at 512 + its size; its padding and the end
# blocks follow
size=$(($(stat -c %s "$tmp/h/perf.data") + 512))
end=$(((size + 511) / 512 * 512))
for cut in 100 512 1000 $((size / 2)) $((size - 1)) $size $end $((end + 100)); do
	head -c "$cut" "$tmp/h/ok.tar" >"$tmp/h/cut$cut.tar"
	hostile "cut$cut" "$tmp/h/cut$cut.tar" 'truncated'
done
# the compressed stream itself cut short
zstd -q -c "$tmp/h/ok.tar" >"$tmp/h/ok.tar.zst"
head -c $(($(stat -c %s "$tmp/h/ok.tar.zst") - 20)) "$tmp/h/ok.tar.zst" >"$tmp/h/zcut.tar.zst"
fold "$tmp/h/zcut.tar.zst" >/dev/null 2>"$tmp/err"
check "zstd stream cut short: exit 1, one line naming the compressed offset" \
	sh -c "test \$? -eq 1 || true; grep -q 'zcut.tar.zst: offset 0x[0-9a-f]*: compressed data truncated' '$tmp/err' && test \$(wc -l <'$tmp/err') -eq 1"
fold "$tmp/h/ok.tar.zst" >/dev/null 2>&1
check "a tar.zst made by tar and zstd reads" test $? -eq 0
check "nothing written outside the private directories" \
	sh -c "[ -z \"\$(ls -A '$tmp/victim')\" ] && [ ! -e '$tmp/perf.data' ] && [ ! -e '$tmp/h/sub/perf.data' ]"
check "no temporary directory left after the hostile archives" no_leak

echo "1..$tap_n"
