#!/bin/sh
# Signal frames as libunwind on x86_64 tells them (perf 6.1's DWARF
# unwinder): by the unwind table entry a step takes, whose CIE has the
# 'S' augmentation (glibc's __restore_rt has one), not by the code at the
# frame's pc. After a step by such an entry perf prints the frame stepped
# to at its exact address, where it prints any other caller less one.
# testdata/src/sigcfi.c spins in a function whose entry is marked so, and
# in a leaf it calls; a fresh recording of it:
#  - perf prints main's frame under spin_sigframe at the return address
#    itself (the oracle does what this test is about);
#  - pd-fold --script prints perf script's callchains, with and without
#    inlined frames;
#  - pd-unwind's callchains, read by perf script, are perf's own.
# A sample at __restore_rt's syscall is the case in the field: its
# interrupted frame comes next, exact (seen once in t0085's fresh
# recording of a shell that got SIGCHLD in wait4).
. "$(dirname "$0")/lib.sh"

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): nothing to compare with"
	echo "1..$tap_n"
	exit 0
fi
if [ "$(uname -m)" != x86_64 ] || ! command -v "${CC:-cc}" >/dev/null 2>&1; then
	skip "no C compiler (apt-get install gcc), or not x86_64: no workload"
	echo "1..$tap_n"
	exit 0
fi
if perf_older_than 6.1; then
	# Debian 11's perf 5.10 links the same libunwind rule; its other
	# unwinding rules are not pd-fold's (t0085)
	skip "perf $(perf_version): pd-fold unwinds as perf 6.1 does, no oracle here"
	echo "1..$tap_n"
	exit 0
fi

prog=$tmp/sigcfi
"${CC:-cc}" -O2 -g -fno-omit-frame-pointer -o "$prog" "$TD/src/sigcfi.c" 2>"$tmp/cc.err"
check "sigcfi built, with one CIE marked a signal frame" \
	sh -c "readelf --debug-dump=frames '$prog' 2>/dev/null | grep -q 'Augmentation: *\"zRS\"'"
if ! perf record -q --no-buildid-cache --call-graph dwarf,1024 -e cpu-clock \
	-F 999 -o "$tmp/sig.data" -- "$prog" 300000 >/dev/null 2>"$tmp/rec.err" </dev/null; then
	skip "perf record does not work here: $(grep -v '^$' "$tmp/rec.err" | head -1)"
	echo "1..$tap_n"
	exit 0
fi

# the return address of main's call of spin_sigframe, as perf prints it
ret=$(objdump -d "$prog" | awk '/call.*<spin_sigframe>/ { getline; sub(/:.*/, ""); sub(/^ +/, ""); print; exit }')
perf script -F ip,sym --no-inline -i "$tmp/sig.data" 2>/dev/null </dev/null >"$tmp/ps"
exact=$(awk -v ret="$ret" '$2 ~ /^spin_sigframe/ { after = 1; next }
	after && $2 ~ /^main/ { n++; if ($1 == ret) e++ } { after = 0 }
	END { print e + 0, n + 0 }' "$tmp/ps")
set -- $exact
check "perf prints main under spin_sigframe at the return address $ret, not less one ($1 of $2 frames)" \
	test "$2" -ge 10 -a "$1" -eq "$2"

for opt in --no-inline ""; do
	# shellcheck disable=SC2086
	perf script -i "$tmp/sig.data" $opt 2>/dev/null </dev/null | callchain_blocks >"$tmp/want"
	# shellcheck disable=SC2086
	"$PD_BIN/pd-fold" --script $opt "$tmp/sig.data" >"$tmp/got" 2>"$tmp/err"
	check "pd-fold --script ${opt:-(inlined frames too)}: perf script's callchains ($(grep -c '^$' "$tmp/want") samples)" \
		cmp -s "$tmp/want" "$tmp/got"
	diff "$tmp/want" "$tmp/got" | head -6
done

# (a zero return address, the end of a stack, perf prints as zero less
# one, ffffffffffffffff; a callchain pd-unwind writes holds it as 0, as
# t0100 says)
end_of_stack() { sed -E 's/^\t *(ffffffffffffffff|0) \[unknown\] \(\[unknown\]\)$/\t[end of stack]/'; }
if "$PD_BIN/pd-unwind" -q "$tmp/sig.data" -o "$tmp/unw.data" 2>"$tmp/unw.err"; then
	perf script -F ip,sym,symoff,dso --no-inline -i "$tmp/sig.data" 2>/dev/null </dev/null |
		end_of_stack >"$tmp/want"
	perf script -F ip,sym,symoff,dso --no-inline -i "$tmp/unw.data" 2>/dev/null </dev/null |
		end_of_stack >"$tmp/got"
	check "pd-unwind: perf script of its output prints perf's own unwinding" \
		cmp -s "$tmp/want" "$tmp/got"
	diff "$tmp/want" "$tmp/got" | head -6
else
	not_ok "pd-unwind failed: $(head -1 "$tmp/unw.err")"
fi
echo "1..$tap_n"
