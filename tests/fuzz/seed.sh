#!/bin/sh
# Seed corpus of a fuzz target, made from testdata/ (and, for the script
# target, FlameGraph's perf script texts of ../shared/corpus), into DIR:
#
#   tests/fuzz/seed.sh fuzz-file DIR
#
# PD_BIN (default build/bin) gives the pd-convert that makes pipe-mode
# and big-endian copies. Nothing here is committed: make fuzz runs this.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
target=$1
dir=$2
: "${PD_BIN:=$top/build/bin}"
: "${PD_CORPUS:=$top/../shared/corpus}"
TD=$top/testdata
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

u64() { od -An --endian="${E:-little}" -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
byte() { printf "\\$(printf '%03o' "$1")"; }

# file-mode testdata files (pipe.data is the pipe-mode one)
file_mode() {
	for f in "$TD"/*.data; do
		[ "$(u64 "$f" 8)" = 104 ] && echo "$f"
	done
}

# Each feature section of FILE: id byte, byte-order byte, section.
features() { # FILE SWAP-BYTE NAME
	bits=$(u64 "$1" 72)
	off=$(( $(u64 "$1" 40) + $(u64 "$1" 48) ))
	id=0
	while [ $id -lt 64 ]; do
		if [ $(( (bits >> id) & 1 )) -eq 1 ]; then
			soff=$(u64 "$1" $off)
			ssize=$(u64 "$1" $((off + 8)))
			out=$dir/$3-$2-$id
			{ byte $id; byte "$2"; tail -c +$((soff + 1)) "$1" | head -c "$ssize"; } >"$out"
			off=$((off + 16))
		fi
		id=$((id + 1))
	done
}

case $target in
fuzz-file)
	cp "$TD"/*.data "$dir/"
	;;
fuzz-roundtrip)
	# the last byte picks the output: keep the files whole, plus copies
	# ending in each choice
	cp "$TD"/*.data "$dir/"
	for f in "$TD"/fp.data "$TD"/zstd.data "$TD"/tracepoint.data "$TD"/dwarf.data; do
		for how in 1 2 4 8; do
			{ cat "$f"; byte $how; } >"$dir/$(basename "$f" .data)-how$how"
		done
	done
	;;
fuzz-pipe)
	cp "$TD"/pipe.data "$dir/"
	for f in $(file_mode); do
		"$PD_BIN/pd-convert" -q --pipe "$f" -o "$dir/$(basename "$f" .data).pipe" || true
	done
	"$PD_BIN/pd-convert" -q --pipe --endian=big "$TD/fp.data" -o "$dir/fp-be.pipe" || true
	;;
fuzz-features)
	for f in $(file_mode); do
		n=$(basename "$f" .data)
		features "$f" 0 "$n"
		if "$PD_BIN/pd-convert" -q --endian=big "$f" -o "$tmp/be.data"; then
			# the header of the other order: its numbers read swapped
			E=big
			features "$tmp/be.data" 1 "$n"
			E=little
		fi
	done
	;;
fuzz-compressed)
	# flags, the first attr cut or padded to 128 bytes, the data section
	for f in $(file_mode); do
		n=$(basename "$f" .data)
		aoff=$(u64 "$f" 24)
		asize=$(( $(u64 "$f" 16) - 16 ))
		{ tail -c +$((aoff + 1)) "$f" | head -c "$asize"; head -c 128 /dev/zero; } |
			head -c 128 >"$tmp/attr"
		tail -c +$(( $(u64 "$f" 40) + 1 )) "$f" | head -c "$(u64 "$f" 48)" >"$tmp/recs"
		for flags in 0 1 4 253; do
			{ byte $flags; cat "$tmp/attr" "$tmp/recs"; } >"$dir/$n-$flags"
		done
	done
	;;
fuzz-script)
	for f in "$PD_CORPUS"/brendangregg_FlameGraph/test/perf-*.txt; do
		[ -f "$f" ] || continue
		{ byte 0; head -c 65536 "$f"; } >"$dir/$(basename "$f" .txt)"
		{ byte 31; head -c 16384 "$f"; } >"$dir/$(basename "$f" .txt)-all"
	done
	if command -v perf >/dev/null 2>&1; then
		for n in fp inl offcpu jit; do
			{ byte 0; perf script -i "$TD/$n.data" 2>/dev/null </dev/null |
			  head -c 65536; } >"$dir/$n.script" || true
		done
	fi
	;;
fuzz-flame)
	# folded and differential inputs of pd-flame's tests, each under a
	# few option bytes
	for f in "$top"/tests/flame/*.folded "$top"/tests/flame/*.diff; do
		for o in 0 1 2 4 13 150; do
			{ byte $o; head -c 65536 "$f"; } >"$dir/$(basename "$f")-$o"
		done
	done
	;;
fuzz-archive)
	# small archives made by pd-convert: the profile, its small
	# binaries (found under a private --symfs where the profile
	# recorded them), the testdata kernel's kallsyms; each as a tar to
	# be compressed (mode bytes 4 and 5: checksums rewritten) and as
	# the compressed files themselves (2, 3)
	ks=$(ls "$TD"/kallsyms/* | head -1)
	for n in inl mangled syscalls threads fp pipe; do
		rm -rf "$tmp/fs"
		mkdir -p "$tmp/fs"
		"$PD_BIN/pd-convert" -q --to=archive --symfs="$tmp/fs" \
			"$TD/$n.data" -o "$tmp/a.tar.gz" 2>/dev/null || continue
		gzip -dc "$tmp/a.tar.gz" | tar -xOf - manifest |
			awk -F'\t' '$1 == "missing" { print $3 }' |
			while read -r p; do
				b=$TD/bin/${p##*/}
				[ -f "$b" ] && [ "$(stat -c %s "$b")" -lt 65536 ] || continue
				mkdir -p "$tmp/fs${p%/*}"
				cp "$b" "$tmp/fs$p"
			done
		for z in gz zst; do
			"$PD_BIN/pd-convert" -q --to=archive --symfs="$tmp/fs" \
				--kallsyms="$ks" "$TD/$n.data" -o "$tmp/a.tar.$z" \
				2>/dev/null || continue
		done
		{ byte 2; cat "$tmp/a.tar.zst"; } >"$dir/$n-zst"
		{ byte 3; cat "$tmp/a.tar.gz"; } >"$dir/$n-gz"
		{ byte 4; gzip -dc "$tmp/a.tar.gz"; } >"$dir/$n-tar"
		{ byte 5; gzip -dc "$tmp/a.tar.gz"; } >"$dir/$n-tar-gz"
	done
	# JIT files (the dump and perf map of jit.data) and a vmlinux
	rm -rf "$tmp/fs"
	rec=$("$PD_BIN/pd-info" --dump "$TD/jit.data" 2>/dev/null |
		grep -o '/[^ ]*/jit-[0-9]*\.dump' | head -1)
	pid=${rec##*/jit-}
	pid=${pid%.dump}
	if [ -n "$rec" ] && [ -f "$TD/jit-$pid.dump" ]; then
		mkdir -p "$tmp/fs${rec%/*}" "$tmp/fs/tmp"
		cp "$TD/jit-$pid.dump" "$tmp/fs$rec"
		cp "$TD/perf-$pid.map" "$tmp/fs/tmp/"
		"$PD_BIN/pd-convert" -q --to=archive --symfs="$tmp/fs" \
			--kallsyms="$ks" "$TD/jit.data" -o "$tmp/j.tar.gz" 2>/dev/null &&
			{ byte 5; gzip -dc "$tmp/j.tar.gz"; } >"$dir/jit-tar"
	fi
	mkv=$PD_BIN/../tests/tools/mkvmlinux
	if [ -x "$mkv" ] && "$mkv" -p v_ "$ks" "$tmp/vml" 2>/dev/null; then
		mkdir -p "$tmp/empty"
		"$PD_BIN/pd-convert" -q --to=archive --symfs="$tmp/empty" \
			--vmlinux="$tmp/vml" --kallsyms="$ks" "$TD/syscalls.data" \
			-o "$tmp/v.tar.gz" \
			2>/dev/null && { byte 4; gzip -dc "$tmp/v.tar.gz"; } >"$dir/vmlinux-tar"
	fi
	;;
*)
	echo "seed.sh: unknown target $target" >&2
	exit 2
	;;
esac
