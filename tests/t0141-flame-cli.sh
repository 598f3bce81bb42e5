#!/bin/sh
# pd-flame, pd-fold --svg, pd-diff --svg, pd-fold --chronological:
# - usage errors exit 2 with one line (bad numbers, palettes, notes,
#   flame options without --svg); --help exits 0;
# - bad lines are skipped with one warning naming the first; no counts
#   at all: exit 1, one error line, and an SVG that says so;
# - huge counts, counts past a double, deep stacks and very long names
#   give a well-formed SVG (xmllint) of bounded size;
# - the same input gives the same bytes; a name keeps its colour from one
#   graph to the next;
# - pd-fold --svg and pd-diff --svg write what the pipes into pd-flame
#   write; --chronological keeps perf script's sample order (perf as the
#   oracle) and adds up to the sorted folding;
# - quickstart's step (pd-fold testdata/fp.data | pd-flame) is a valid SVG.
. "$(dirname "$0")/lib.sh"

FLAME=$PD_BIN/pd-flame
FOLD=$PD_BIN/pd-fold
DIFF=$PD_BIN/pd-diff
F=$PD_TOP/tests/flame

# well_formed FILE: xmllint when there is one, else the frame structure
if command -v xmllint >/dev/null 2>&1; then
	well_formed() { xmllint --noout "$1" 2>"$tmp/xmllint.err"; }
	wf_how="xmllint"
else
	well_formed() {
		head -c 5 "$1" | grep -q '^<?xml' && tail -n 1 "$1" | grep -qx '</svg>' &&
			[ "$(grep -c '<g data-s=' "$1")" -eq "$(grep -c '</text></g>$' "$1")" ]
	}
	wf_how="a structural check (no xmllint)"
fi

# usage_error DESCRIPTION COMMAND...: exit 2, the problem in one line (and
# getopt's own for an unknown option), then "Try --help" 
usage_error() {
	d=$1; shift
	"$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -le 3 ] && [ ! -s "$tmp/out" ]; then
		ok "usage: $d (exit 2)"
	else
		not_ok "usage: $d (exit $rc)"
		sed 's/^/# /' "$tmp/err"
	fi
}

echo 'a;b 1' >"$tmp/one"
usage_error "--width=abc" "$FLAME" --width=abc "$tmp/one"
usage_error "--width=0" "$FLAME" --width=0 "$tmp/one"
usage_error "--height=-3" "$FLAME" --height=-3 "$tmp/one"
usage_error "--fontsize=1e3" "$FLAME" --fontsize=1e3 "$tmp/one"
usage_error "--minwidth=wide" "$FLAME" --minwidth=wide "$tmp/one"
usage_error "--minwidth=%" "$FLAME" --minwidth=% "$tmp/one"
usage_error "--colors=nope" "$FLAME" --colors=nope "$tmp/one"
usage_error "--bgcolors=#12345" "$FLAME" --bgcolors='#12345' "$tmp/one"
usage_error "--notes with --" "$FLAME" --notes='a -- b' "$tmp/one"
usage_error "--total=-1" "$FLAME" --total=-1 "$tmp/one"
usage_error "unknown option --random (output is deterministic)" "$FLAME" --random "$tmp/one"
usage_error "pd-fold --title without --svg" "$FOLD" --title=x "$TD/fp.data"
usage_error "pd-fold --svg --script" "$FOLD" --svg --script "$TD/fp.data"
usage_error "pd-diff --colors without --svg" "$DIFF" --colors=red "$tmp/one" "$tmp/one"
usage_error "pd-diff --svg --report" "$DIFF" --svg --report "$tmp/one" "$tmp/one"
usage_error "the output is an input" "$FLAME" -o "$tmp/one" "$tmp/one"
check "the input survives a refused run" grep -qx 'a;b 1' "$tmp/one"
"$FLAME" --help >"$tmp/help" 2>&1
check "--help exits 0 and names flamegraph.pl's options" \
	grep -q -- '--flamechart' "$tmp/help"
for p in hot mem io wakeup chain java js perl red green blue aqua yellow purple orange; do
	"$FLAME" --colors=$p "$F/edge.folded" >"$tmp/p.svg" 2>/dev/null || echo "# --colors=$p failed"
done
check "every flamegraph.pl palette is accepted and drawn" well_formed "$tmp/p.svg"

# --- bad lines, no counts ---------------------------------------------------

printf 'a;b 3\nno count here\na;c 2\n\nalso bad x\na;d 1.5.5\n' >"$tmp/bad"
"$FLAME" "$tmp/bad" >"$tmp/bad.svg" 2>"$tmp/err"
check "bad lines skipped: exit 0" test $? -eq 0
check "one warning, naming the first bad line and the count" \
	sh -c "[ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q '$tmp/bad:2: .* 3 such lines ignored' '$tmp/err'"
check "bad lines skipped: the good ones drawn" \
	sh -c "grep -c '<g data-s=' '$tmp/bad.svg' | grep -qx 4"
"$FLAME" -q "$tmp/bad" >/dev/null 2>"$tmp/err"
check "-q: no warning" test ! -s "$tmp/err"

: >"$tmp/empty"
"$FLAME" "$tmp/empty" >"$tmp/empty.svg" 2>"$tmp/err"
rc=$?
check "empty input: exit 1" test "$rc" -eq 1
check "empty input: one error line" \
	sh -c "[ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q 'no stack counts' '$tmp/err'"
check "empty input: an SVG saying so, well-formed ($wf_how)" \
	sh -c "grep -q 'no stack counts' '$tmp/empty.svg' && xmllint --noout '$tmp/empty.svg' 2>/dev/null || ! command -v xmllint >/dev/null"
printf 'x 0\ny;z 0\n' | "$FLAME" >/dev/null 2>"$tmp/err"
check "only zero counts: exit 1 (nothing to draw)" test $? -eq 1
"$FLAME" -o "$tmp/o.svg" "$tmp/empty" 2>/dev/null
check "-o with no counts: the SVG saying so is written" grep -q 'no stack counts' "$tmp/o.svg"
"$FLAME" -o "$tmp/nodir/o.svg" "$tmp/one" 2>"$tmp/err"
check "-o in a missing directory: exit 1, one line" \
	sh -c "[ $? -eq 1 ] && [ \$(wc -l <'$tmp/err') -eq 1 ]"
"$FLAME" "$tmp/missing" >/dev/null 2>"$tmp/err"
check "missing input: exit 1, one line naming it" \
	sh -c "[ $? -eq 1 ] && grep -q 'missing' '$tmp/err' && [ \$(wc -l <'$tmp/err') -eq 1 ]"
"$FLAME" -o "$tmp/o.svg" "$F/edge.folded" 2>/dev/null
"$FLAME" "$F/edge.folded" 2>/dev/null | cmp -s - "$tmp/o.svg"
check "-o FILE writes what standard output gets" test $? -eq 0
check "-o leaves no temporary file" test "$(ls "$tmp" | grep -c 'o\.svg\.')" -eq 0

# --- sizes ------------------------------------------------------------------

printf 'big;a 18446744073709551615\nbig;b 99999999999999999999999999\nsmall 1\n' >"$tmp/huge"
"$FLAME" "$tmp/huge" >"$tmp/huge.svg" 2>"$tmp/err"
check "counts past 2^64: drawn (exit 0)" test $? -eq 0
check "counts past 2^64: well-formed ($wf_how)" well_formed "$tmp/huge.svg"
check "counts past 2^64: titles as flamegraph.pl's (doubles, %.0f, separators)" grep -q '<title>b (100,000,000,000,000,004,764,729,344 samples, 100.00%)' "$tmp/huge.svg"
awk 'BEGIN { s = "9"; for (i = 0; i < 9; i++) s = s s; print "a " s; print "b " s }' >"$tmp/inf"
"$FLAME" "$tmp/inf" >"$tmp/inf.svg" 2>"$tmp/err"
check "counts adding up past a double: exit 1, one line" \
	sh -c "[ $? -eq 1 ] && [ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q 'add up' '$tmp/err'"

awk 'BEGIN { s = "f0"; for (i = 1; i < 20000; i++) s = s ";f" i; print s " 5"; print "f0;g 1" }' >"$tmp/deep"
"$FLAME" "$tmp/deep" >"$tmp/deep.svg" 2>"$tmp/err"
check "a stack 20000 frames deep: exit 0" test $? -eq 0
check "a stack 20000 frames deep: every frame drawn, well-formed" \
	sh -c "[ \$(grep -c '<g data-s=' '$tmp/deep.svg') -eq 20002 ] && { ! command -v xmllint >/dev/null || xmllint --noout --huge '$tmp/deep.svg'; }"

awk 'BEGIN { s = "x"; for (i = 0; i < 20; i++) s = s s; print "main;" s " 3"; print "main;short 1" }' >"$tmp/long"
"$FLAME" "$tmp/long" >"$tmp/long.svg" 2>"$tmp/err"
check "a name of 1 MiB: exit 0" test $? -eq 0
check "a name of 1 MiB: its label is cut to the frame ('..'), the file stays near the input's size" \
	sh -c "grep -q '>xxxxxxxxxx*\\.\\.</text>' '$tmp/long.svg' && [ \$(wc -c <'$tmp/long.svg') -lt 1200000 ]"
grep -o '>x*\.\.</text>' "$tmp/long.svg" >"$tmp/labels"
check "a name of 1 MiB: labels no longer than the 1180 px frame holds (166 characters)" \
	awk 'length($0) > 166 + 10 { bad = 1 } END { exit bad || NR == 0 }' "$tmp/labels"

printf 'ctl;a\001b\033c 2\nbad;\377\376utf 3\namp;a&b<c>"d" 1\n' >"$tmp/ctl"
"$FLAME" "$tmp/ctl" >"$tmp/ctl.svg" 2>/dev/null
check "control characters, broken UTF-8 and &<>\": well-formed ($wf_how)" well_formed "$tmp/ctl.svg"
check "names escaped in titles" grep -q '<title>a&amp;b&lt;c&gt;&quot;d&quot; (1 samples' "$tmp/ctl.svg"
"$FLAME" -q "$F/edge.folded" >"$tmp/e.svg"
check "corner cases (tests/flame/edge.folded): well-formed ($wf_how)" well_formed "$tmp/e.svg"

# --- deterministic ----------------------------------------------------------

for o in "" --hash --colors=java "--colors=mem --inverted"; do
	# shellcheck disable=SC2086
	"$FLAME" -q $o "$F/syscalls.folded" >"$tmp/d1.svg"
	# shellcheck disable=SC2086
	"$FLAME" -q $o "$F/syscalls.folded" >"$tmp/d2.svg"
	check "same input, same bytes ($o)" cmp -s "$tmp/d1.svg" "$tmp/d2.svg"
done
# a function's colour depends on its name only, not on the graph
fill_of() { grep -o "<title>$1 ([^<]*</title><rect [^>]*fill=\"[^\"]*\"" "$2" | sed 's/.*fill=//' | sort -u; }
"$FLAME" "$F/fp.folded" >"$tmp/c1.svg"
"$FLAME" "$F/syscalls.folded" >"$tmp/c2.svg"
c1=$(fill_of __libc_start_call_main "$tmp/c1.svg")
c2=$(fill_of __libc_start_call_main "$tmp/c2.svg")
check "a name has one colour across graphs ($c1)" test -n "$c1" -a "$c1" = "$c2"
"$FLAME" --hash "$F/syscalls.folded" >"$tmp/h.svg"
check "--hash: a name's colour does not depend on its annotation (_[k])" \
	test "$(printf 'a;foo 1\nb;foo_[k] 1\n' | "$FLAME" --hash | grep -o '<title>foo ([^<]*</title><rect [^>]*fill="[^"]*"' | sed 's/.*fill=//' | sort -u | wc -l)" -eq 1

# --- the in-process shortcuts -----------------------------------------------

"$FOLD" "$TD/fp.data" | "$FLAME" --title=T --width=900 --colors=blue --hash >"$tmp/pipe.svg"
"$FOLD" --svg --title=T --width=900 --colors=blue --hash "$TD/fp.data" >"$tmp/svg.svg"
check "pd-fold --svg equals pd-fold | pd-flame (options passed)" cmp -s "$tmp/pipe.svg" "$tmp/svg.svg"
"$FOLD" --chronological "$TD/threads.data" | "$FLAME" --flamechart >"$tmp/pipe.svg"
"$FOLD" --svg --chronological "$TD/threads.data" >"$tmp/svg.svg"
check "pd-fold --svg --chronological equals pd-fold --chronological | pd-flame --flamechart" \
	cmp -s "$tmp/pipe.svg" "$tmp/svg.svg"
"$DIFF" "$TD/slowdown-before.data" "$TD/slowdown-after.data" | "$FLAME" --negate --title=D >"$tmp/pipe.svg"
"$DIFF" --svg --negate --title=D "$TD/slowdown-before.data" "$TD/slowdown-after.data" >"$tmp/svg.svg"
check "pd-diff --svg equals pd-diff | pd-flame" cmp -s "$tmp/pipe.svg" "$tmp/svg.svg"
"$DIFF" --svg -o "$tmp/out.svg" "$TD/slowdown-before.data" "$TD/slowdown-after.data"
check "pd-diff --svg -o FILE" cmp -s "$tmp/out.svg" "$("$DIFF" --svg "$TD/slowdown-before.data" "$TD/slowdown-after.data" >"$tmp/o2.svg"; echo "$tmp/o2.svg")"
check "differential titles carry the change" grep -q '%; [+-][0-9]*\.[0-9][0-9]%)</title>' "$tmp/out.svg"

# --- --chronological --------------------------------------------------------

# Every folding below names the recording kernel's frames from testdata's
# kallsyms (testdata_buildid_cache), so none depends on what this machine's
# ~/.debug happens to hold: the first folding ran without it and gave
# [[kernel.kallsyms]] frames where the later ones, and perf, named them.
testdata_buildid_cache 2>/dev/null
"$FOLD" --chronological "$TD/threads.data" >"$tmp/chrono"
"$FOLD" --merge "$tmp/chrono" >"$tmp/merged"
"$FOLD" "$TD/threads.data" >"$tmp/sorted"
check "--chronological adds up to the sorted folding" cmp -s "$tmp/merged" "$tmp/sorted"
check "--chronological: the kernel frames named from testdata's kallsyms" \
	sh -c "! grep -q '\[\[kernel.kallsyms\]\]' '$tmp/chrono'"
check "--chronological: no two neighbouring lines share a stack" \
	sh -c "awk '{ sub(/ [0-9]+\$/, \"\") } \$0 == last { exit 1 } { last = \$0 }' '$tmp/chrono'"
check "--chronological: the order is not the sorted one" \
	sh -c "! LC_ALL=C sort -c '$tmp/chrono' 2>/dev/null"
if have_perf; then
	perf script -i "$(perf_readable "$TD/threads.data")" 2>/dev/null |
		"$FOLD" --input=script --chronological >"$tmp/perf-chrono"
	check "--chronological: perf script's sample order (perf 'script | pd-fold --input=script' equal)" \
		cmp -s "$tmp/perf-chrono" "$tmp/chrono"
else
	skip "perf not installed: sample order not compared with perf script's"
fi
"$FOLD" --script "$TD/threads.data" | "$FOLD" --input=script --chronological >"$tmp/script-chrono"
check "--chronological: perf.data and its script text give the same order" \
	cmp -s "$tmp/script-chrono" "$tmp/chrono"

# --- quickstart -------------------------------------------------------------

"$FOLD" "$TD/fp.data" | "$FLAME" >"$tmp/fp.svg"
check "quickstart's step: pd-fold testdata/fp.data | pd-flame is well-formed ($wf_how)" well_formed "$tmp/fp.svg"
check "quickstart draws fp.svg with pd-fold --svg" grep -q 'pd-fold --svg .*-o fp.svg testdata/fp.data' "$PD_TOP/tools/quickstart.sh"
check "the SVG needs nothing from outside (no http(s) references but the namespace)" \
	sh -c "! grep -v 'xmlns=\"http://www.w3.org/2000/svg\"' '$tmp/fp.svg' | grep -q 'https\\?://'"
