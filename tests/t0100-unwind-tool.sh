#!/bin/sh
# pd-unwind: DWARF samples (REGS_USER + STACK_USER) rewritten with their
# unwound user stacks as callchains. The oracle is perf 6.1 itself:
#  - perf script -F comm,tid,ip,sym --no-inline on pd-unwind's output
#    agrees with perf's own DWARF unwinding of the original for >= 99%
#    of the samples (the same frames, or perf's frames followed by more
#    where perf gave up early), and the share of samples whose stack
#    reaches a root frame is at least perf's; both are printed;
#  - the output has no REGS_USER/STACK_USER (perf report -D), and is at
#    least 50 times smaller than a DWARF recording with perf's default
#    8 KiB stack copies (a fresh one, when perf record works here);
#  - pd-convert --shim=unwind writes the same samples; stdin and pipe
#    output work; --keep-stack, --max-stack; bad input fails with one
#    line naming file and offset, and no output file.
# perf reads every file as it can (perf_readable: Debian 11's perf 5.10 a
# copy made for it, of the inputs and of our outputs alike); recordings
# unwound through system libraries this machine has other builds of are
# not compared (elsewhere_unwound).
. "$(dirname "$0")/lib.sh"

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): nothing to compare with"
	echo "1..$tap_n"
	exit 0
fi
testdata_buildid_cache
UNWIND=$PD_BIN/pd-unwind
ROOTS='(_start|__libc_start_main[^ ]*|start_thread|clone|clone3)'

# script FILE OUT: what the comparison reads
script() {
	perf script -i "$(perf_readable "$1")" -F comm,tid,ip,sym --no-inline \
		2>/dev/null </dev/null >"$2"
}
# same WANT GOT: perf printed stacks, and the same
same() { test -s "$1" && cmp -s "$1" "$2"; }

# agree WANT GOT: "N M R1 R2": samples, samples agreeing, samples whose
# stack reaches a root frame in WANT and in GOT. A sample agrees when its
# frames equal perf's, or begin with all of perf's. The frame libunwind
# gives for a zero return address, the end of the stack (perf prints
# ffffffffffffffff [unknown], zero minus one), is 0 [unknown] in the
# callchains pd-unwind writes, which cannot hold that address: the two
# are the same frame.
agree() {
	awk -v roots=" $ROOTS\$" '
	function blocks(file, arr,   n, line, cur) {
		n = 0; cur = ""
		while ((getline line < file) > 0) {
			if (line == "") { if (cur != "") arr[++n] = cur; cur = ""; continue }
			if (line ~ /^\t *(fffffffffffff[0-9a-f][0-9a-f][0-9a-f]|0) \[unknown\]$/)
				line = "\t[end of stack]"
			cur = cur line "\n"
		}
		if (cur != "") arr[++n] = cur
		return n
	}
	function root(b,   k, i, l) {
		k = split(b, l, "\n")
		for (i = 1; i <= k; i++)
			if (l[i] ~ /^\t/ && l[i] ~ roots) return 1
		return 0
	}
	BEGIN {
		n = blocks(ARGV[1], w); m = blocks(ARGV[2], g)
		same = 0; rw = 0; rg = 0
		for (i = 1; i <= n; i++) {
			if (i <= m && (g[i] == w[i] || index(g[i], w[i]) == 1)) same++
			if (root(w[i])) rw++
			if (i <= m && root(g[i])) rg++
		}
		if (m != n) same = 0
		print n, same, rw, rg
		exit
	}' "$1" "$2"
}

total=0
total_same=0
for f in dwarf inl-dwarf threads-dwarf fp-dwarf; do
	in=$TD/$f.data
	[ -f "$in" ] || { skip "$f.data: not in testdata"; continue; }
	"$UNWIND" "$in" -o "$tmp/$f.out" 2>"$tmp/err"
	rc=$?
	check "$f.data: pd-unwind exits 0 and prints a summary" \
		grep -q "samples unwound: .* fully, .* partly, .* not at all" "$tmp/err"
	[ $rc -eq 0 ] || { cat "$tmp/err"; continue; }
	sed 's/^/# /' "$tmp/err"
	if why=$(elsewhere_unwound "$in" "$tmp/err"); then
		skip "$f.data: $why"
		continue
	fi
	script "$in" "$tmp/want"
	script "$tmp/$f.out" "$tmp/got"
	set -- $(agree "$tmp/want" "$tmp/got")
	n=$1 same=$2 rw=$3 rg=$4
	total=$((total + n))
	total_same=$((total_same + same))
	check "$f.data: perf script agrees with perf's unwinding for $same of $n samples (>= 99%)" \
		test "$n" -gt 0 -a $((same * 100)) -ge $((n * 99))
	check "$f.data: samples reaching a root frame: ours $rg of $n, perf's $rw of $n" \
		test "$rg" -ge "$rw"
	[ "$same" = "$n" ] || diff "$tmp/want" "$tmp/got" | head -10
	# libunwind's frame of a zero return address, carried as 0
	nz=$(grep -c '^	 *ffffffffffffffff \[unknown\]$' "$tmp/want")
	if [ "$nz" -gt 0 ]; then
		check "$f.data: the $nz frames of a zero return address (ffffffffffffffff [unknown]) are 0 [unknown] in the output" \
			test "$(grep -c '^	 *0 \[unknown\]$' "$tmp/got")" -eq "$nz"
	fi
	# the stack copies are gone, the callchain has the user part
	perf report -D -i "$(perf_readable "$tmp/$f.out")" 2>/dev/null </dev/null >"$tmp/dump"
	check "$f.data: no user regs or stack copies left (perf report -D)" \
		test "$(grep -c -E '^\.\.\. (user regs|ustack)' "$tmp/dump")" -eq 0 \
		-a "$(grep -c -E '^\.+ +[0-9]+: fffffffffffffe00$' "$tmp/dump")" -gt 0
	sin=$(wc -c <"$in")
	sout=$(wc -c <"$tmp/$f.out")
	echo "# $f.data: $sin -> $sout bytes ($((sin / sout))x smaller)"
done
[ $total -gt 0 ] && echo "# all testdata DWARF files: $total_same of $total samples agree"

# Size: perf's default DWARF recording (8 KiB stack copies) shrinks at
# least 50 times. testdata's files are too small for that: 40 samples
# of 4 KiB and 51 of 1 KiB copies next to 7 KiB of maps, attrs and
# header features that stay.
if perf record -q --no-buildid-cache --call-graph dwarf -e cpu-clock -F 999 \
	-o "$tmp/fresh.data" -- "$TD/bin/burn-nofp" 1000 >/dev/null 2>&1 </dev/null &&
	[ -s "$tmp/fresh.data" ]; then
	"$UNWIND" -q "$tmp/fresh.data" -o "$tmp/fresh.out" 2>"$tmp/err"
	sin=$(wc -c <"$tmp/fresh.data")
	sout=$(wc -c <"$tmp/fresh.out" 2>/dev/null || echo 1)
	check "fresh --call-graph dwarf recording: $sin -> $sout bytes, $((sin / sout))x smaller (>= 50x)" \
		test $((sin / sout)) -ge 50
	script "$tmp/fresh.data" "$tmp/want"
	script "$tmp/fresh.out" "$tmp/got"
	set -- $(agree "$tmp/want" "$tmp/got")
	# a fresh recording's samples fall anywhere: the 1% of them allowed
	# to differ may be ones where perf reached the root and we did not
	# (1 of 1000, once in about 90 runs in Debian 11)
	check "fresh recording: perf script agrees for $2 of $1 samples (>= 99%); root reached: ours $4, perf's $3 (>= 99%)" \
		test "$1" -gt 0 -a $(($2 * 100)) -ge $(($1 * 99)) -a $(($4 * 100)) -ge $(($3 * 99))
	[ "$2" = "$1" ] || diff "$tmp/want" "$tmp/got" | head -20 | sed 's/^/# /'
	# two threads (a helper reads the input again and unwinds every
	# other batch of 64 samples): the same output, byte for byte
	"$UNWIND" -j1 "$tmp/fresh.data" -o "$tmp/j1.out" 2>/dev/null
	"$UNWIND" -j2 "$tmp/fresh.data" -o "$tmp/j2.out" 2>"$tmp/err"
	check "-j2 (summary: $(grep -o '([0-9]* threads)' "$tmp/err")) writes what -j1 writes, byte for byte" \
		sh -c "grep -q '(2 threads)' '$tmp/err' && cmp -s '$tmp/j1.out' '$tmp/j2.out'"
	# without -j, the records read ahead on a second thread (which
	# passes the samples' filled parts only): the same output
	PD_UNWIND_THREADS=2 "$UNWIND" -q "$tmp/fresh.data" -o "$tmp/ra.out" 2>/dev/null
	check "records read on a second thread (PD_UNWIND_THREADS=2): what -j1 writes, byte for byte" \
		cmp -s "$tmp/j1.out" "$tmp/ra.out"
else
	skip "perf record does not work here (perf_event_paranoid?): no fresh recording for the size check"
fi

# every testdata recording, its records read on the caller's thread and
# on a second one (PD_UNWIND_THREADS, which -j1 overrides): the same
# output and messages
for in in "$TD"/*.data "$TD"/newer/*.data; do
	[ -f "$in" ] || continue
	PD_UNWIND_THREADS=1 "$UNWIND" "$in" -o "$tmp/one.out" >"$tmp/one.err" 2>&1
	r1=$?
	PD_UNWIND_THREADS=2 "$UNWIND" "$in" -o "$tmp/two.out" >"$tmp/two.err" 2>&1
	r2=$?
	check "${in#"$TD"/}: read on one thread and on two, the same output and messages (rc $r1)" \
		sh -c "[ $r1 = $r2 ] && cmp -s '$tmp/one.err' '$tmp/two.err' && { [ $r1 != 0 ] || cmp -s '$tmp/one.out' '$tmp/two.out'; }"
	rm -f "$tmp/one.out" "$tmp/two.out"
done

# aarch64 recordings (simpleperf's) on this host: the binaries are not
# in the corpus, so each sample's caller is its link register (the arm64
# perf's libunwind falls back to it when a frame's file is missing), and
# the chain ends at the next missing file; the summary names each missing
# one per DSO
a64=$PD_CORPUS/GrapheneOS_platform_system_extras/simpleperf/testdata/perf_no_unwind.data
if [ -f "$a64" ]; then
	"$UNWIND" "$a64" -o "$tmp/a64.out" 2>"$tmp/err"
	rc=$?
	grep -v 'unknown feature' "$tmp/err" | sed 's/^/# /'
	check "aarch64 DWARF recording: 8 samples, each with its link register's caller, cut by a missing ELF, named in the summary" \
		sh -c "test $rc -eq 0 && grep -q ': 8 samples unwound: 0 fully, 8 partly, 0 not at all' '$tmp/err' && \
		       grep -q 'missing ELF: /system/lib64/libc.so (4 samples)' '$tmp/err' && \
		       grep -q 'missing ELF: /vendor/lib64/libgsl.so (4 samples)' '$tmp/err'"
else
	skip "$a64 absent: no aarch64 DWARF recording"
fi

in=$TD/dwarf.data
script "$in" "$tmp/want"

# pd-convert's shim writes what pd-unwind writes
"$PD_BIN/pd-convert" -q --shim=unwind "$in" -o "$tmp/conv.data" 2>"$tmp/err"
script "$tmp/conv.data" "$tmp/got"
check "pd-convert --shim=unwind: perf script prints the same stacks" \
	same "$tmp/want" "$tmp/got"
# ... and for an old perf: no REGS_USER/STACK_USER bits to drop any more
"$PD_BIN/pd-convert" -q --target-perf=4.1 --shim=unwind "$in" -o "$tmp/old.data" 2>"$tmp/err"
script "$tmp/old.data" "$tmp/got"
check "pd-convert --target-perf=4.1 --shim=unwind: perf script prints the same stacks" \
	same "$tmp/want" "$tmp/got"

# stdin to a pipe on stdout, and a file from stdin
"$UNWIND" -q - -o - <"$in" 2>"$tmp/err" | cat >"$tmp/pipe.out"
script "$tmp/pipe.out" "$tmp/got"
# a pipe-mode header: magic, then its size, 16
hsize=$(od -An -tu8 -j8 -N8 "$tmp/pipe.out" | tr -d ' ')
check "stdin to stdout: pipe mode output (header size $hsize), same stacks" \
	test "$hsize" = 16 -a -s "$tmp/want" -a -z "$(cmp "$tmp/want" "$tmp/got" 2>&1)"
"$UNWIND" -q -o "$tmp/stdin.out" - <"$in" 2>"$tmp/err"
script "$tmp/stdin.out" "$tmp/got"
check "stdin to a file: same stacks" same "$tmp/want" "$tmp/got"

# --keep-stack: REGS_USER and STACK_USER stay, perf still reads it
"$UNWIND" -q --keep-stack "$in" -o "$tmp/keep.out" 2>"$tmp/err"
perf report -D -i "$(perf_readable "$tmp/keep.out")" 2>/dev/null </dev/null >"$tmp/dump"
check "--keep-stack: stack copies kept, callchains added" \
	test "$(grep -c '^\.\.\. ustack' "$tmp/dump")" -eq 40 \
	-a "$(grep -c -E '^\.+ +[0-9]+: fffffffffffffe00$' "$tmp/dump")" -eq 40

# --max-stack=3: three user frames at most
"$UNWIND" -q --max-stack=3 "$in" -o "$tmp/max.out" 2>"$tmp/err"
script "$tmp/max.out" "$tmp/got"
check "--max-stack=3: 3 frames per sample, perf's first three" \
	sh -c "test \"\$(awk '/^\t/ { n++ } /^\$/ { if (n != 3) bad++; n = 0 } END { print bad + 0 }' '$tmp/got')\" = 0 && \
	       awk '/^\t/ { if (++n <= 3) print; next } { n = 0; print }' '$tmp/want' | cmp -s - '$tmp/got'"

# usage
"$UNWIND" --help >"$tmp/help" 2>&1
check "--help exits 0 and shows the options" grep -q -- '--keep-stack' "$tmp/help"
"$UNWIND" "$in" >/dev/null 2>&1
check "no -o: usage error (exit 2)" test $? -eq 2

# Bad input: one line naming the file and an offset, exit 1, and the
# output never appears (not even half).
size=$(wc -c <"$in")
for cut in 3000 $((size / 2)) $((size - 100)); do
	head -c $cut "$in" >"$tmp/cut.data"
	rm -f "$tmp/cut.out"
	"$UNWIND" "$tmp/cut.data" -o "$tmp/cut.out" 2>"$tmp/err"
	rc=$?
	check "input cut at $cut: exit 1, one error line with the file and an offset, no output" \
		test $rc -eq 1 -a ! -e "$tmp/cut.out" \
		-a "$(grep -c 'error:' "$tmp/err")" -eq 1 \
		-a "$(grep -c "error: $tmp/cut.data: .*offset 0x" "$tmp/err")" -eq 1
	cat "$tmp/err" | head -2 | sed 's/^/# /'
done
# a record size of 0 in the middle of the data
cp "$in" "$tmp/bad.data"
off=$("$PD_BIN/pd-info" -D "$in" 2>/dev/null | awk '/PERF_RECORD_SAMPLE/ { n++; if (n == 20) { print $1; exit } }')
off=$(printf '%d' "$off")
printf '\000\000' | dd of="$tmp/bad.data" bs=1 seek=$((off + 6)) conv=notrunc 2>/dev/null
rm -f "$tmp/bad.out"
"$UNWIND" "$tmp/bad.data" -o "$tmp/bad.out" 2>"$tmp/err"
rc=$?
check "a zero record size at offset $off: exit 1, one error line naming file and offset, no output" \
	test $rc -eq 1 -a ! -e "$tmp/bad.out" \
	-a "$(grep -c "error: $tmp/bad.data: offset 0x" "$tmp/err")" -eq 1
sed 's/^/# /' "$tmp/err" | head -2

echo "1..$tap_n"
