#!/bin/sh
# pd-convert copies the records it leaves unchanged from the input file
# by the kernel (copy_file_range(): one copy of each byte, none through
# the process), and then does not read the stack copies of samples at
# all; it does so by default on one thread (PD_CONVERT_THREADS=1), not
# with a second thread reading ahead; PD_CONVERT_KERNEL_COPY=1 forces
# it, 0 takes every record through memory. What it writes must not
# depend on it: for every recording here and in the
# corpus (both byte orders, PERFFILE v1, compressed, pipe mode, AUX
# data, simpleperf's), converted as it is, for perf 4.18 and for 3.10
# (samples rewritten), the same bytes, messages and exit status both
# ways, on one thread and on two. Then the outputs where the kernel
# cannot copy or the bytes must go through a buffer: stdout redirected
# to a file, appended to one (O_APPEND: copy_file_range() refuses it),
# a pipe; an input on stdin, and a recording cut short inside a sample
# (a recorder killed mid-write).
. "$(dirname "$0")/lib.sh"

CONV=$PD_BIN/pd-convert

# both DESCRIPTION FILE [OPTION...]: the same output copied and not
both() {
	_d=$1; _f=$2; shift 2
	rm -f "$tmp/mem.data" "$tmp/k.data"
	PD_CONVERT_KERNEL_COPY=0 "$CONV" -v "$@" "$_f" -o "$tmp/mem.data" >"$tmp/mem.err" 2>&1
	_r1=$?
	PD_CONVERT_KERNEL_COPY=1 "$CONV" -v "$@" "$_f" -o "$tmp/k.data" >"$tmp/k.err" 2>&1
	_r2=$?
	# (the messages name the output; -v's counts copied differ)
	sed -e "s|$tmp/mem.data|OUT|g" -e 's/ ([0-9]* copied from the input as they are)//' \
		"$tmp/mem.err" >"$tmp/mem.msg"
	sed -e "s|$tmp/k.data|OUT|g" -e 's/ ([0-9]* copied from the input as they are)//' \
		"$tmp/k.err" >"$tmp/k.msg"
	copied=$(sed -n 's/.* (\([0-9]*\) copied from the input as they are)/\1/p' "$tmp/k.err")
	if [ "$_r1" = "$_r2" ] && cmp -s "$tmp/mem.msg" "$tmp/k.msg" &&
		{ [ "$_r1" != 0 ] || cmp -s "$tmp/mem.data" "$tmp/k.data"; }; then
		ok "$_d: the same copied by the kernel and through memory ($(wc -c <"$tmp/k.data" 2>/dev/null || echo 0) bytes, rc $_r1, ${copied:-0} records copied)"
	else
		not_ok "$_d: copied by the kernel (rc $_r2) and through memory (rc $_r1) differ"
		diff "$tmp/mem.msg" "$tmp/k.msg" | head -5 | sed 's/^/    /'
		cmp "$tmp/mem.data" "$tmp/k.data" 2>&1 | sed 's/^/    /'
	fi
}

# (a perf.data file of any kind: the first 8 bytes)
is_perf_data() {
	case $(head -c 8 "$1" 2>/dev/null | tr -d '\000') in
	PERFILE2 | 2ELIFREP | PERFFILE | ELIFFREP) return 0 ;;
	esac
	return 1
}

# copyable FILE: a file-mode recording of this host's byte order without
# compressed records, whose records are all copied as they are
copyable() {
	[ "$(head -c 8 "$1")" = PERFILE2 ] && [ "$(u8 "$1" 8)" = 104 ] &&
		! "$PD_BIN/pd-info" -q --dump "$1" | grep -q PERF_RECORD_COMPRESSED
}
u8() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }

n=0
for f in "$PD_TOP"/testdata/*.data "$PD_TOP"/testdata/newer/*.data; do
	[ -f "$f" ] || continue
	rel=${f#"$PD_TOP"/}
	both "$rel" "$f"
	if copyable "$f"; then
		total=$(sed -n 's/.* \([0-9]*\) out (.*/\1/p' "$tmp/k.err")
		check "$rel: all $total records out copied from the input (${copied:-0})" \
			test "${copied:-0}" = "$total" -a "${total:-0}" -gt 0
	else
		check "$rel: pipe mode or compressed: none copied (${copied:-0})" \
			test "${copied:-0}" = 0
	fi
	both "$rel --target-perf=4.18" "$f" --target-perf=4.18
	n=$((n + 1))
done
check "recordings converted: $n (at least 30)" test "$n" -ge 30

for threads in 1 2; do
	export PD_CONVERT_THREADS=$threads
	both "testdata/dwarf.data, $threads thread(s)" "$TD/dwarf.data"
	both "testdata/threads-dwarf.data, $threads thread(s), for 4.18" \
		"$TD/threads-dwarf.data" --target-perf=4.18
done
unset PD_CONVERT_THREADS

# the default: the kernel's copy on one thread, not with two
PD_CONVERT_THREADS=1 "$CONV" -v --target-perf=4.18 "$TD/dwarf.data" -o "$tmp/d1.data" 2>"$tmp/err"
one=$(sed -n 's/.*(\([0-9]*\) copied from the input as they are)/\1/p' "$tmp/err")
PD_CONVERT_THREADS=2 "$CONV" -v --target-perf=4.18 "$TD/dwarf.data" -o "$tmp/d2.data" 2>"$tmp/err"
two=$(sed -n 's/.*(\([0-9]*\) copied from the input as they are)/\1/p' "$tmp/err")
check "by default the kernel copies on one thread ($one records), not with a second reading ahead ($two)" \
	test "${one:-0}" -gt 0 -a "${two:-1}" = 0
check "... and both write the same bytes" cmp -s "$tmp/d1.data" "$tmp/d2.data"
both "testdata/dwarf.data for 3.10 (samples rewritten: stacks read)" "$TD/dwarf.data" --target-perf=3.10
both "testdata/dwarf.data --stack-size=1024 (stacks cut: read)" "$TD/dwarf.data" --stack-size=1024
both "testdata/dwarf.data --endian=big (no copy)" "$TD/dwarf.data" --endian=big

if [ -d "$PD_CORPUS" ]; then
	nc=0
	for f in $(find "$PD_CORPUS" -type f -size -20M | sort); do
		is_perf_data "$f" || continue
		both "corpus ${f#"$PD_CORPUS"/}" "$f"
		both "corpus ${f#"$PD_CORPUS"/} --target-perf=4.18" "$f" --target-perf=4.18
		nc=$((nc + 1))
	done
	check "corpus recordings converted: $nc (at least 100)" test "$nc" -ge 100
else
	skip "$PD_CORPUS absent: the corpus's recordings not converted"
fi

# outputs and inputs that are not plain files
PD_CONVERT_KERNEL_COPY=0 "$CONV" -q --target-perf=4.18 "$TD/dwarf.data" -o "$tmp/want.data"
PD_CONVERT_KERNEL_COPY=1 "$CONV" -v --target-perf=4.18 "$TD/dwarf.data" -o - >"$tmp/stdout.data" 2>"$tmp/err"
check "stdout redirected to a file: the same bytes ($(sed -n 's/.*(\([0-9]*\) copied.*/\1/p' "$tmp/err") records copied)" \
	cmp -s "$tmp/want.data" "$tmp/stdout.data"
: >"$tmp/append.data"
PD_CONVERT_KERNEL_COPY=1 "$CONV" -q --target-perf=4.18 --pipe "$TD/dwarf.data" -o - >>"$tmp/append.data"
PD_CONVERT_KERNEL_COPY=0 "$CONV" -q --target-perf=4.18 --pipe "$TD/dwarf.data" -o "$tmp/want.pipe"
check "stdout appended to a file (O_APPEND: through a buffer), pipe mode: the same bytes" \
	cmp -s "$tmp/want.pipe" "$tmp/append.data"
PD_CONVERT_KERNEL_COPY=1 "$CONV" -q --target-perf=4.18 --pipe "$TD/dwarf.data" -o - | cat >"$tmp/piped.data"
check "into a pipe: the same bytes" cmp -s "$tmp/want.pipe" "$tmp/piped.data"
PD_CONVERT_KERNEL_COPY=1 "$CONV" -q --target-perf=4.18 - -o "$tmp/stdin.data" <"$TD/dwarf.data"
check "a file on stdin: the same bytes" cmp -s "$tmp/want.data" "$tmp/stdin.data"
cat "$TD/dwarf.data" | PD_CONVERT_KERNEL_COPY=1 "$CONV" -q --target-perf=4.18 - -o "$tmp/stdin-pipe.data"
check "a file through a pipe on stdin: the same bytes" cmp -s "$tmp/want.data" "$tmp/stdin-pipe.data"

# a recorder killed mid-write: the data section ends inside a sample
size=$(wc -c <"$TD/dwarf.data")
doff=$(od -An -t u8 -j 40 -N 8 "$TD/dwarf.data" | tr -d ' ')
dsize=$(od -An -t u8 -j 48 -N 8 "$TD/dwarf.data" | tr -d ' ')
head -c $((doff + dsize / 2 + 1000)) "$TD/dwarf.data" >"$tmp/cut.data"
both "testdata/dwarf.data cut inside its data section (${size} bytes to $((doff + dsize / 2 + 1000)))" \
	"$tmp/cut.data" --target-perf=4.18
check "... and what it wrote reads to its end" "$PD_BIN/pd-info" -q --stats "$tmp/k.data"

echo "1..$tap_n"
