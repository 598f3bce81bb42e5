#!/bin/sh
# Lossless conversion: every testdata/ file converted and back gives the
# same records, as pd-info --dump decodes them (file offsets left out):
# - file -> pipe -> file (a pipe-mode file: pipe -> file -> pipe);
# - native -> big-endian -> native;
# - -> compressed -> uncompressed.
# Compressed records are compared by what they hold (their containers
# left out): zstd.data comes back recompressed or uncompressed.
# Allowed difference, warned about by pd-convert: in pipe mode the
# BPF_PROG_INFO and BPF_BTF feature records (25, 26) do not convert to
# the other byte order and are dropped.
# Byte for byte where the format allows: for an uncompressed file-mode
# file, the data section after the byte-order and the compression round
# trips equals the original's. (t0060 checks what perf script prints of
# one-way conversions; this checks the records, without perf.)
. "$(dirname "$0")/lib.sh"

conv() { "$PD_BIN/pd-convert" -q "$@" 2>>"$tmp/conv.err"; }
u8() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }

# the records of FILE, as pd-info --dump prints them, without offsets
# and without the containers of compressed records
records() {
	"$PD_BIN/pd-info" -q --dump "$1" |
		sed -e 's/^0x[0-9a-fx+]* //' -e '/PERF_RECORD_COMPRESSED2*(/d'
}

# same_data A B: the data sections of file-mode A and B hold the same bytes
same_data() {
	_s=$(u8 "$1" 48)
	[ "$_s" = "$(u8 "$2" 48)" ] &&
		cmp -s -n "$_s" -i "$(u8 "$1" 40):$(u8 "$2" 40)" "$1" "$2"
}

for f in "$TD"/*.data; do
	n=${f##*/}
	records "$f" >"$tmp/want"
	if [ "$(u8 "$f" 8)" = 16 ]; then
		there=--file back=--pipe pipe=1
	else
		there=--pipe back=--file pipe=
	fi
	compressed=
	"$PD_BIN/pd-info" -q --dump "$f" | grep -q 'PERF_RECORD_COMPRESSED' &&
		compressed=1

	rm -f "$tmp/a" "$tmp/b"
	conv $there "$f" -o "$tmp/a" && conv $back "$tmp/a" -o "$tmp/b"
	records "$tmp/b" >"$tmp/got" 2>/dev/null
	check "$n: $there and back: the same records" cmp -s "$tmp/want" "$tmp/got"

	rm -f "$tmp/a" "$tmp/b"
	conv --endian=big "$f" -o "$tmp/a" && conv --endian=native "$tmp/a" -o "$tmp/b"
	records "$tmp/b" >"$tmp/got" 2>/dev/null
	w=$tmp/want
	if [ -n "$pipe" ]; then
		grep -v -E 'PERF_RECORD_FEATURE.* feature (25|26) ' "$tmp/want" >"$tmp/want.be"
		w=$tmp/want.be
	fi
	check "$n: big-endian and back: the same records" cmp -s "$w" "$tmp/got"
	if [ -z "$pipe" ] && [ -z "$compressed" ]; then
		check "$n: big-endian and back: the same data section bytes" \
			same_data "$f" "$tmp/b"
	fi

	rm -f "$tmp/a" "$tmp/b"
	conv --compress "$f" -o "$tmp/a" && conv --decompress "$tmp/a" -o "$tmp/b"
	check "$n: compressed: records in compressed form" \
		sh -c '"$1/pd-info" -q --dump "$2" | grep -q PERF_RECORD_COMPRESSED' - "$PD_BIN" "$tmp/a"
	records "$tmp/b" >"$tmp/got" 2>/dev/null
	check "$n: compressed and back: the same records" cmp -s "$tmp/want" "$tmp/got"
	if [ -z "$pipe" ] && [ -z "$compressed" ]; then
		check "$n: compressed and back: the same data section bytes" \
			same_data "$f" "$tmp/b"
	fi
done
