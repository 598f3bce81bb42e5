#!/bin/sh
# pd-convert reads its input on a second thread when the machine has a
# CPU to spare (the library's read-ahead: the kernel's copy out of the
# page cache on one CPU, the writing on the other); PD_CONVERT_THREADS=1
# or 2 forces one way. What it writes must not depend on it: for every
# recording here, and the corpus's Intel PT one (AUXTRACE records and
# their data, which the caller's thread reads: the thread stops before
# each), each converted as it is, for perf 4.18, and unwound
# (--shim=unwind: time order, stack copies read as far as filled), the
# same bytes, the same messages and the same exit status both ways. A
# large DWARF sample (32 KiB or more) is written from where it is, not
# through the writer's buffer (with what the buffer holds before it, in
# one writev()): a fresh recording with 40 KiB stack copies, converted
# both ways, to a file and into a pipe read slowly (each write waits for
# room), gives the same bytes, and perf script prints the same.
. "$(dirname "$0")/lib.sh"

CONV=$PD_BIN/pd-convert

# same_both DESCRIPTION FILE [OPTION...]
same_both() {
	_d=$1; _f=$2; shift 2
	rm -f "$tmp/one.data" "$tmp/two.data"
	PD_CONVERT_THREADS=1 "$CONV" "$@" "$_f" -o "$tmp/one.data" >"$tmp/one.err" 2>&1
	_r1=$?
	PD_CONVERT_THREADS=2 "$CONV" "$@" "$_f" -o "$tmp/two.data" >"$tmp/two.err" 2>&1
	_r2=$?
	# (the messages name the output: the same name both ways)
	sed "s|$tmp/one.data|OUT|g" "$tmp/one.err" >"$tmp/one.msg"
	sed "s|$tmp/two.data|OUT|g" "$tmp/two.err" >"$tmp/two.msg"
	if [ "$_r1" = "$_r2" ] && cmp -s "$tmp/one.msg" "$tmp/two.msg" &&
		{ [ "$_r1" != 0 ] || cmp -s "$tmp/one.data" "$tmp/two.data"; }; then
		ok "$_d: one thread and two write the same ($(wc -c <"$tmp/one.data" 2>/dev/null || echo 0) bytes, rc $_r1, $(wc -l <"$tmp/one.msg") messages)"
	else
		not_ok "$_d: one thread (rc $_r1) and two (rc $_r2) differ"
		diff "$tmp/one.msg" "$tmp/two.msg" | head -5 | sed 's/^/    /'
		cmp "$tmp/one.data" "$tmp/two.data" 2>&1 | sed 's/^/    /'
	fi
}

n=0
for f in "$PD_TOP"/testdata/*.data "$PD_TOP"/testdata/newer/*.data; do
	[ -f "$f" ] || continue
	d=${f#"$PD_TOP"/}
	same_both "$d" "$f"
	same_both "$d --target-perf=4.18" "$f" --target-perf=4.18
	n=$((n + 1))
done
for f in dwarf threads-dwarf inl-dwarf; do
	same_both "testdata/$f.data --shim=unwind" "$PD_TOP/testdata/$f.data" --shim=unwind
done
check "recordings converted: $n (at least 30)" test "$n" -ge 30

if have_perf && perf record -q --no-buildid-cache --call-graph dwarf,40960 \
	-e cpu-clock -F 499 -o "$tmp/big.data" -- "$TD/bin/burn-nofp" 300 \
	>/dev/null 2>&1 </dev/null && [ -s "$tmp/big.data" ]; then
	same_both "fresh dwarf,40960 recording" "$tmp/big.data"
	same_both "fresh dwarf,40960 recording --pipe" "$tmp/big.data" --pipe
	PD_CONVERT_THREADS=2 "$CONV" -q --pipe "$tmp/big.data" -o - |
		{ sleep 1; cat; } >"$tmp/slow.data"
	check "fresh dwarf,40960 recording, into a pipe read slowly: the bytes written to a file ($(wc -c <"$tmp/slow.data") bytes)" \
		cmp -s "$tmp/slow.data" "$tmp/two.data"
	perf script -F comm,tid,ip,sym -i "$tmp/big.data" >"$tmp/want" 2>/dev/null </dev/null
	perf script -F comm,tid,ip,sym -i "$tmp/slow.data" >"$tmp/got" 2>/dev/null </dev/null
	check "... and perf script prints the same ($(grep -c . "$tmp/want") lines)" \
		sh -c "[ -s '$tmp/want' ] && cmp -s '$tmp/want' '$tmp/got'"
else
	skip "perf record -g dwarf does not work here (apt-get install linux-perf; perf_event_paranoid): no large samples written"
fi

pt=$PD_CORPUS/google_perf_data_converter/src/quipper/testdata/perf.data.intel_pt-4.14
if [ -f "$pt" ]; then
	same_both "corpus perf.data.intel_pt-4.14 (AUX data)" "$pt"
	same_both "corpus perf.data.intel_pt-4.14 (AUX data) --file" "$pt" --file
else
	skip "$pt absent: no AUX data converted"
fi

echo "1..$tap_n"
