#!/bin/sh
# pd-fold --symbol-memory: the symbolizer's files beyond the budget are
# released between folded lines (--symbolize) and after each --inline
# lookup, and loaded again when named again. With a budget of one byte,
# every file is released after every line: the output, and the warnings,
# must be what the default budget gives, byte for byte.
. "$(dirname "$0")/lib.sh"

FOLD=$PD_BIN/pd-fold
have_perf && testdata_buildid_cache
mkdir "$tmp/d"

n=0 bad=
for f in "$TD"/*.data; do
	b=$tmp/d/$(basename "$f" .data)
	"$FOLD" -q --raw "$f" >"$b.raw" 2>/dev/null || continue
	"$FOLD" --symbolize "$b.raw" >"$b.want" 2>"$b.want-err"
	"$FOLD" --symbol-memory=1 --symbolize "$b.raw" >"$b.got" 2>"$b.got-err"
	cmp -s "$b.want" "$b.got" && cmp -s "$b.want-err" "$b.got-err" ||
		bad="$bad ${f##*/}"
	n=$((n + 1))
done
check "--symbolize with a budget of 1 byte: as without, for each of $n recordings${bad:+ (not:$bad)}" \
	test -n "$n" -a -z "$bad"

# the lines of all recordings, shuffled together: each names files of
# several programs and libraries, over and over
cat "$tmp"/d/*.raw | awk '{ print NR % 7, $0 }' | sort -s -n -k1,1 |
	cut -d' ' -f2- >"$tmp/all.raw"
"$FOLD" --symbolize "$tmp/all.raw" >"$tmp/want" 2>"$tmp/want-err"
"$FOLD" --symbol-memory=1 --symbolize "$tmp/all.raw" >"$tmp/got" 2>"$tmp/got-err"
check "all recordings' lines mixed, 1 byte: the same stacks" cmp "$tmp/want" "$tmp/got"
check "... and the same warnings, none twice" cmp "$tmp/want-err" "$tmp/got-err"
PD_SYMBOL_MEMORY=64K "$FOLD" --symbolize "$tmp/all.raw" >"$tmp/got" 2>"$tmp/got-err"
check "PD_SYMBOL_MEMORY=64K: the same" cmp "$tmp/want" "$tmp/got"
"$FOLD" --symbol-memory=1 --symbolize <"$tmp/all.raw" >"$tmp/got" 2>/dev/null
check "standard input, 1 byte: the same" cmp "$tmp/want" "$tmp/got"

# --inline names frames through a symbolizer of its own, trimmed after
# each lookup
for k in inl inl-dwarf mangled; do
	[ -f "$TD/$k.data" ] || continue
	"$FOLD" -q --inline --context "$TD/$k.data" >"$tmp/want"
	"$FOLD" -q --inline --context --symbol-memory=1 "$TD/$k.data" >"$tmp/got"
	check "--inline --context on $k.data, 1 byte: the same" cmp "$tmp/want" "$tmp/got"
done

"$FOLD" --symbol-memory=0 --symbolize "$tmp/all.raw" >/dev/null 2>&1
check "--symbol-memory=0 is refused (usage)" test $? -eq 2
PD_SYMBOL_MEMORY=lots "$FOLD" --symbolize "$tmp/all.raw" >/dev/null 2>&1
check "PD_SYMBOL_MEMORY=lots is refused (usage)" test $? -eq 2
