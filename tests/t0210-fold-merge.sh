#!/bin/sh
# pd-fold --merge, a k-way merge with bounded memory: sorted files merged
# as they are, others sorted once through temporary runs; its output is
# the sum of its inputs in pd-fold's order (fleet_sum, awk and sort(1)
# alone), whatever spills, the number of inputs or their order. And 240
# profiles (copies of testdata recordings of several kinds) folded apart
# with GNU parallel and merged: the same as folding them all in one
# pd-fold run, the merge's peak RSS at most 64 MB.
. "$(dirname "$0")/lib.sh"
. "$PD_TOP/tests/tools/fleet-lib.sh"

FOLD=$PD_BIN/pd-fold
have_perf && testdata_buildid_cache
# temporary runs go to a private $TMPDIR: nothing may be left there
TMPDIR=$tmp/tmpdir
export TMPDIR
mkdir -p "$TMPDIR" "$tmp/f"

for f in "$TD"/*.data; do
	"$FOLD" -q "$f" >"$tmp/f/$(basename "$f" .data).folded" 2>/dev/null
done
fleet_sum "$tmp"/f/*.folded >"$tmp/want"
check "the testdata folds are something to merge" test "$(wc -l <"$tmp/want")" -gt 100

"$FOLD" --merge "$tmp"/f/*.folded >"$tmp/got"
check "--merge of sorted files: their sum" cmp -s "$tmp/want" "$tmp/got"
"$FOLD" -S 1K --merge "$tmp"/f/*.folded >"$tmp/got"
check "the same with -S 1K (runs spilled)" cmp -s "$tmp/want" "$tmp/got"

for f in "$tmp"/f/*.folded; do
	# reversed: unsorted, and a stack after its extensions
	sort -r "$f" >"${f%.folded}.rev"
done
"$FOLD" --merge "$tmp"/f/*.rev >"$tmp/got"
check "--merge of unsorted files: the same" cmp -s "$tmp/want" "$tmp/got"
"$FOLD" --buffer-size=2K --merge "$tmp"/f/*.rev -o "$tmp/got.o"
check "unsorted, spilled, -o FILE: the same" cmp -s "$tmp/want" "$tmp/got.o"
cat "$tmp"/f/*.rev | "$FOLD" -S 3K --merge >"$tmp/got"
check "standard input, spilled: the same" cmp -s "$tmp/want" "$tmp/got"
cat "$tmp"/f/*.rev | "$FOLD" --merge "$tmp/f/fp.folded" - "$tmp/f/fp.folded" >"$tmp/got"
fleet_sum "$tmp"/f/*.folded "$tmp/f/fp.folded" "$tmp/f/fp.folded" >"$tmp/want2"
check "files and - mixed, a file twice: their sum" cmp -s "$tmp/want2" "$tmp/got"

# more inputs than are read at once (FOLD_SORT_FANIN, 128): a tree
mkdir "$tmp/many"
i=0
while [ $i -lt 300 ]; do
	cp "$tmp/f/system.folded" "$tmp/many/$i.folded"
	i=$((i + 1))
done
fleet_sum "$tmp"/many/*.folded >"$tmp/want3"
"$FOLD" --merge "$tmp"/many/*.folded >"$tmp/got"
check "300 sorted files (merged in a tree): their sum" cmp -s "$tmp/want3" "$tmp/got"
for f in "$tmp"/many/*.folded; do sort -r "$f" -o "$f"; done
"$FOLD" -S 8K --merge "$tmp"/many/*.folded >"$tmp/got"
check "300 unsorted files, spilled: their sum" cmp -s "$tmp/want3" "$tmp/got"
check "no temporary run left in \$TMPDIR" test -z "$(ls "$TMPDIR")"

# bad input: one line naming the file and line, exit 1, no output file
printf 'a;b 1\nnot folded\n' >"$tmp/bad.folded"
"$FOLD" --merge "$tmp/f/fp.folded" "$tmp/bad.folded" -o "$tmp/bad.out" 2>"$tmp/err"
check "a line that is no folded stack: exit 1" test $? -eq 1
check "... named by file and line" grep -q "bad.folded:2: not a folded stack line" "$tmp/err"
check "... and no output file" test ! -e "$tmp/bad.out"
check "... nor a temporary one" test -z "$(ls "$tmp" | grep 'bad.out')"
"$FOLD" --merge -S 12X "$tmp/f/fp.folded" >/dev/null 2>"$tmp/err"
check "a bad --buffer-size: bad usage" test $? -eq 2
"$FOLD" --merge --raw "$tmp/f/fp.folded" >/dev/null 2>&1
check "--merge --raw: bad usage" test $? -eq 2

# Must show: 240 profiles folded apart, merged
fleet_make "$tmp/fleet" 240
ls "$tmp"/fleet/*/*.data | sort >"$tmp/list"
check "240 profiles" test "$(wc -l <"$tmp/list")" -eq 240
if command -v parallel >/dev/null 2>&1; then
	parallel -j2 --will-cite "$FOLD" -q {} -o {}.folded <"$tmp/list"
	how="GNU parallel"
else
	while read -r f; do "$FOLD" -q "$f" -o "$f.folded"; done <"$tmp/list"
	how="one by one: no GNU parallel (apt-get install parallel)"
fi
check "240 folded apart ($how)" test "$(ls "$tmp"/fleet/*/*.folded | wc -l)" -eq 240
# the one-process fold of every profile, the reference
xargs "$FOLD" -q <"$tmp/list" >"$tmp/one" 2>/dev/null
fleet_sum "$tmp"/fleet/*/*.folded >"$tmp/sum"
check "one pd-fold of all 240 is the sum of the per-file folds" cmp -s "$tmp/sum" "$tmp/one"
rss=$(peak_rss_kb "$tmp/merged" "$FOLD" --merge $(sed 's/$/.folded/' "$tmp/list"))
check "the merge of the 240 folds: identical to it" cmp -s "$tmp/one" "$tmp/merged"
if [ -n "$rss" ]; then
	echo "# merge peak RSS: $rss KB"
	check "the merge's peak RSS is at most 64 MB ($rss KB)" test "$rss" -le 65536
else
	skip "no python3 to measure the merge's peak RSS"
fi

# a FIFO or device named as the output is written in place, not replaced
mkfifo "$tmp/fifo"
cat "$tmp/fifo" >"$tmp/from-fifo" &
"$FOLD" --merge "$tmp/f/fp.folded" -o "$tmp/fifo"
wait
check "-o FIFO: the merge through it, the FIFO left one" \
	sh -c "cmp -s '$tmp/f/fp.folded' '$tmp/from-fifo' && test -p '$tmp/fifo'"
