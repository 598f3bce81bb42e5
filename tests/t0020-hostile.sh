#!/bin/sh
# Bad input: non-perf files, truncated headers, zero and oversized record
# sizes, and the fuzzer crash files of quipper's corpus. Each must end with
# status 0 (what could be read, with a warning) or 1 with a one-line error
# naming the file and an offset; never a signal, a hang, or runaway memory.
. "$(dirname "$0")/lib.sh"

pdinfo() { # MODE FILE -> sets rc, err
	# a memory limit catches runaway allocation (ASan needs its own)
	( [ -n "${PD_ASAN:-}" ] || ulimit -v 1000000
	  exec timeout 20 "$PD_BIN/pd-info" "$1" "$2" ) \
		>"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
}

clean_exit() { # DESCRIPTION FILE
	for mode in --stats --dump --header; do
		pdinfo $mode "$2"
		lines=$(wc -l <"$tmp/err")
		case $rc in
		0) ok "$1 $mode: exit 0" ;;
		1)
			if [ "$lines" -ge 1 ] && tail -n 1 "$tmp/err" | grep -q "error: .*$(basename "$2").*offset 0x"; then
				ok "$1 $mode: exit 1 with a located error"
			else
				not_ok "$1 $mode: exit 1 but error lacks file/offset: $(tail -n 1 "$tmp/err")"
			fi ;;
		*) not_ok "$1 $mode: exit status $rc (signal, hang or crash)"; head -3 "$tmp/err" ;;
		esac
	done
}

expect_error() { # DESCRIPTION FILE PATTERN
	pdinfo --stats "$2"
	if [ $rc -eq 1 ] && [ "$(grep -c 'error:' "$tmp/err")" -eq 1 ] &&
	   grep -q "$3" "$tmp/err"; then
		ok "$1"
	else
		not_ok "$1 (rc $rc: $(cat "$tmp/err"))"
	fi
}

printf 'hello, this is not a profile\n' >"$tmp/text.data"
expect_error "text file rejected" "$tmp/text.data" "text.data: offset 0x0: not a perf.data file"
: >"$tmp/empty.data"
expect_error "empty file rejected" "$tmp/empty.data" "empty.data: offset 0x0: not a perf.data file"

src=$TD/fp.data
[ -f "$src" ] || src=$PD_CORPUS/google_perf_data_converter/src/quipper/testdata/perf.data.singleprocess-3.8
if [ -f "$src" ]; then
	head -c 50 "$src" >"$tmp/hdr.data"
	expect_error "truncated header rejected" "$tmp/hdr.data" "hdr.data: offset 0x0: file header truncated"
	# data offset and size from the header
	doff=$(od -An -t u8 -j 40 -N 8 "$src" | tr -d ' ')
	# first record with size 0
	cp "$src" "$tmp/zero.data"
	printf '\000\000' | dd of="$tmp/zero.data" bs=1 seek=$((doff + 6)) conv=notrunc 2>/dev/null
	expect_error "record size 0 rejected" "$tmp/zero.data" "offset $(printf '%#x' "$doff"): record size 0"
	# first record claiming 65535 bytes: past the data section or garbage
	cp "$src" "$tmp/big.data"
	printf '\377\377' | dd of="$tmp/big.data" bs=1 seek=$((doff + 6)) conv=notrunc 2>/dev/null
	clean_exit "oversized record" "$tmp/big.data"
	# attrs section far beyond the file
	cp "$src" "$tmp/attrs.data"
	printf '\377\377\377\377\377\377\000\000' | dd of="$tmp/attrs.data" bs=1 seek=32 conv=notrunc 2>/dev/null
	expect_error "huge attrs section rejected" "$tmp/attrs.data" "attrs section .* outside the file"
	# killed recorder: data size 0, nothing after the records, the last
	# one cut short -> what is there is read, with a warning
	dsize=$(od -An -t u8 -j 48 -N 8 "$src" | tr -d ' ')
	head -c $((doff + dsize - 5)) "$src" >"$tmp/killed.data"
	dd if=/dev/zero of="$tmp/killed.data" bs=1 seek=48 count=8 conv=notrunc 2>/dev/null
	pdinfo --stats "$tmp/killed.data"
	check "data size 0: records read with a warning" \
		sh -c "[ $rc -eq 0 ] && grep -q 'data size is 0' '$tmp/err' && grep -q 'SAMPLE events' '$tmp/out'"
	# truncation sweep over the data section
	size=$(wc -c <"$src")
	for cut in 104 $((doff + 3)) $((doff + 8)) $((size / 3)) $((size / 2)) $((size * 3 / 4)) $((size - 1)); do
		head -c "$cut" "$src" >"$tmp/cut$cut.data"
		clean_exit "cut at $cut" "$tmp/cut$cut.data"
	done
else
	skip "no source file for synthetic corruptions"
fi

n=0
for f in "$PD_CORPUS"/google_perf_data_converter/src/quipper/corpus/*; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	clean_exit "fuzzer case $(basename "$f" | cut -c1-40)" "$f"
done
[ $n -gt 0 ] || skip "quipper fuzzer corpus absent"
