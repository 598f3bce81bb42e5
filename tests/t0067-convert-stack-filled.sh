#!/bin/sh
# pd-convert --stack-size=filled cuts each sample's user stack copy to
# what the kernel filled of it (its dyn_size, rounded up to 8 bytes): the
# kernel skips the rest of the copy in its buffer and leaves stale bytes
# there, and perf's unwinding reads only dyn_size bytes. A recording with
# 40 KiB copies of a program with a shallow stack (most of each copy
# unfilled) gets smaller several times over, and what perf script prints
# of it, unwinding, is the same, as are pd-fold's and pd-unwind's
# outputs; every copy is its dyn_size rounded up; with --target-perf=4.18
# too. testdata's recordings, whose copies are all full, keep their
# stacks. Bad values are bad usage.
. "$(dirname "$0")/lib.sh"

CONV=$PD_BIN/pd-convert

# copy_sizes FILE: "size dyn_size" of each sample's stack copy
copy_sizes() {
	"$CONV" --to=json "$1" 2>/dev/null |
		sed -n 's/.*"user_stack_size":\([0-9]*\),"user_stack_dyn_size":\([0-9]*\).*/\1 \2/p'
}

for bad in 0 65529 fill -8; do
	"$CONV" --stack-size=$bad "$TD/dwarf.data" -o "$tmp/x.data" 2>"$tmp/err"
	check "--stack-size=$bad: bad usage (2) naming filled" \
		sh -c "[ $? -eq 2 ] && grep -q 'or filled' '$tmp/err'"
done

for f in dwarf threads-dwarf; do
	"$CONV" -q --stack-size=filled "$TD/$f.data" -o "$tmp/$f.filled"
	copy_sizes "$TD/$f.data" >"$tmp/want"
	copy_sizes "$tmp/$f.filled" >"$tmp/got"
	check "testdata/$f.data (copies all full): the same copies ($(wc -l <"$tmp/want") samples)" \
		sh -c "[ -s '$tmp/want' ] && cmp -s '$tmp/want' '$tmp/got'"
done

if have_perf && perf record -q --no-buildid-cache --call-graph dwarf,40960 \
	-e cpu-clock -F 499 -o "$tmp/big.data" -- "$TD/bin/burn-nofp" 300 \
	>/dev/null 2>&1 </dev/null && [ -s "$tmp/big.data" ]; then
	for target in "" --target-perf=4.18; do
		what="--stack-size=filled${target:+ $target}"
		rm -f "$tmp/filled.data" "$tmp/plain.data"
		"$CONV" -q $target "$tmp/big.data" -o "$tmp/plain.data"
		"$CONV" -q $target --stack-size=filled "$tmp/big.data" -o "$tmp/filled.data"
		check "$what: written" test -s "$tmp/filled.data"
		in=$(wc -c <"$tmp/plain.data") out=$(wc -c <"$tmp/filled.data")
		check "$what: $in bytes to $out (at most a quarter)" \
			test "$out" -le $((in / 4))
		copy_sizes "$tmp/filled.data" >"$tmp/sizes"
		check "$what: each copy its dyn_size rounded up to 8 ($(wc -l <"$tmp/sizes") samples)" \
			sh -c "[ -s '$tmp/sizes' ] && awk '\$1 != int((\$2 + 7) / 8) * 8 { bad = 1 } END { exit bad }' '$tmp/sizes'"
		for fields in comm,tid,time,ip,sym,dso; do
			perf script --no-inline -F $fields -i "$tmp/plain.data" >"$tmp/want" 2>/dev/null </dev/null
			perf script --no-inline -F $fields -i "$tmp/filled.data" >"$tmp/got" 2>/dev/null </dev/null
			check "$what: perf script prints the same, unwinding ($(grep -c . "$tmp/want") lines)" \
				sh -c "[ -s '$tmp/want' ] && cmp -s '$tmp/want' '$tmp/got'"
		done
		"$PD_BIN/pd-fold" -q "$tmp/plain.data" >"$tmp/want"
		"$PD_BIN/pd-fold" -q "$tmp/filled.data" >"$tmp/got"
		check "$what: pd-fold folds the same ($(wc -l <"$tmp/want") stacks)" \
			sh -c "[ -s '$tmp/want' ] && cmp -s '$tmp/want' '$tmp/got'"
		"$PD_BIN/pd-unwind" -q "$tmp/plain.data" -o "$tmp/uw-want.data"
		"$PD_BIN/pd-unwind" -q "$tmp/filled.data" -o "$tmp/uw-got.data"
		perf script -F comm,tid,time,ip,sym -i "$tmp/uw-want.data" >"$tmp/want" 2>/dev/null </dev/null
		perf script -F comm,tid,time,ip,sym -i "$tmp/uw-got.data" >"$tmp/got" 2>/dev/null </dev/null
		check "$what: pd-unwind's callchains the same, as perf script prints them ($(grep -c . "$tmp/want") lines)" \
			sh -c "[ -s '$tmp/want' ] && cmp -s '$tmp/want' '$tmp/got'"
	done
	PD_CONVERT_KERNEL_COPY=0 "$CONV" -q --stack-size=filled "$tmp/big.data" -o "$tmp/mem.data"
	PD_CONVERT_KERNEL_COPY=1 "$CONV" -q --stack-size=filled "$tmp/big.data" -o "$tmp/k.data"
	check "--stack-size=filled: the same bytes with records through memory" \
		cmp -s "$tmp/mem.data" "$tmp/k.data"
else
	skip "perf record -g dwarf does not work here (apt-get install linux-perf; perf_event_paranoid): no partly filled copies cut"
fi

echo "1..$tap_n"
