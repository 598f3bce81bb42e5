#!/bin/sh
# Stitching (pd-unwind --stitch and the tools that unwind) and the cut
# stack copies of pd-convert --stack-size that make stacks whose whole is
# known: a recording with large copies, cut, unwound with and without
# stitching, each read by perf script, sample by sample. The stitched
# chains must be the whole ones or cut ones with nothing wrong: every
# frame the one of the whole copy at that place.
. "$(dirname "$0")/lib.sh"

U=$PD_BIN/pd-unwind
C=$PD_BIN/pd-convert
F=$PD_BIN/pd-fold

# --stack-size's usage
for bad in 0 65529 abc -8; do
	"$C" --stack-size=$bad "$TD/dwarf.data" -o "$tmp/x.data" 2>/dev/null
	check "pd-convert --stack-size=$bad: bad usage (2)" [ $? -eq 2 ]
done

# testdata's recordings are perf 6.1's: an older perf (Debian 11's 5.10)
# refuses them as they are, and reads them converted for it (for_perf
# FILE: the file perf reads, on stdout)
for_perf() { echo "$1"; }
if have_perf && ! perf report --stats -i "$TD/dwarf.data" >/dev/null 2>&1 </dev/null; then
	pv=$(perf_version)
	echo "# perf $pv reads testdata's recordings converted for it (pd-convert --target-perf=$pv)"
	for_perf() {
		"$C" -q --target-perf="$pv" "$1" -o "$1.perf" 2>/dev/null
		echo "$1.perf"
	}
fi

# chains: perf script's user frames of each sample, one line a sample,
# in the samples' order (frame lines begin with a tab, a sample's first
# line with its tid, which may be padded with spaces)
chains() {
	perf script -i "$(for_perf "$1")" -F tid,time,ip 2>/dev/null </dev/null | awk '
	/^$/ { if (h) print cur; h = 0; next }
	/^\t/ { sub(/^[ \t]+/, ""); split($0, a, " "); cur = cur " " a[1]; next }
	{ if (h) print cur; h = 1; cur = "" }
	END { if (h) print cur }'
}

# compare FULL CUT STITCHED: "samples shortened whole wrong", where
# shortened are the samples whose cut chain is not the full one, whole
# those of them whose stitched chain is, and wrong the stitched chains
# (differing from the cut ones) with a frame the full chain does not
# have at that place. A chain still cut ends as perf ends one, with the
# [unknown] entry of the return address read beyond the copy (0 in the
# file): a chain stitched from a chain that was cut too, longer than
# the cut one but cut still, ends with that entry where the full chain
# goes on. It is the chain's end, not a frame: compared without it.
compare() {
	paste -d '|' "$1" "$2" "$3" | awk -F '|' '
	{ n++; full = $1; cut = $2; st = $3; s = st; sub(/ 0$/, "", s)
	  if (cut != full) { short++; if (st == full) whole++ }
	  if (st != cut && substr(full, 1, length(s)) != s) wrong++ }
	END { printf "%d %d %d %d\n", n, short, whole, wrong }'
}

"$C" --stitch "$TD/dwarf.data" -o "$tmp/x.data" 2>/dev/null
check "pd-convert --stitch without --to or --shim=unwind: bad usage (2)" [ $? -eq 2 ]

# testdata's DWARF recordings cut smaller: the frames of the whole copy
# known from the file itself
for fs in dwarf:512 inl-dwarf:384 fp-dwarf:512 threads-dwarf:128; do
	f=${fs%:*} size=${fs#*:}
	[ -f "$TD/$f.data" ] || continue
	if ! "$C" --stack-size=$size "$TD/$f.data" -o "$tmp/$f.cut" 2>"$tmp/err"; then
		not_ok "$f.data cut to $size bytes: $(head -1 "$tmp/err")"
		continue
	fi
	"$U" -q "$TD/$f.data" -o "$tmp/$f.full" &&
		"$U" -q "$tmp/$f.cut" -o "$tmp/$f.cutuw" &&
		"$U" --stitch "$tmp/$f.cut" -o "$tmp/$f.st" 2>"$tmp/$f.sum"
	check "pd-unwind --stitch of $f.data cut to $size bytes" [ $? -eq 0 ]
	if ! have_perf; then
		skip "perf not installed: $f.data's chains not compared"
		continue
	fi
	check "perf reads $f.data cut to $size bytes" \
		sh -c "perf report --stats -i '$(for_perf "$tmp/$f.cut")' >/dev/null 2>&1 </dev/null"
	chains "$tmp/$f.full" >"$tmp/$f.full.c"
	chains "$tmp/$f.cutuw" >"$tmp/$f.cut.c"
	chains "$tmp/$f.st" >"$tmp/$f.st.c"
	set -- $(compare "$tmp/$f.full.c" "$tmp/$f.cut.c" "$tmp/$f.st.c")
	echo "# $f.data cut to $size bytes: $1 samples, $2 shortened, $3 whole again by stitching, $4 wrong"
	check "$f.data: $1 samples, no stitched chain with a frame the whole copy's chain lacks" \
		[ "$1" -gt 0 ] && [ "$4" -eq 0 ]
done

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): no deep recording"
	exit 0
fi
deep=$(testdata_bin deep)
if ! perf record -q --no-buildid-cache --call-graph dwarf,65528 -e cpu-clock \
	-F 999 -o "$tmp/deep.data" -- "$deep" 400 >/dev/null 2>"$tmp/rec.err" </dev/null; then
	skip "perf record does not work here (perf_event_paranoid?): $(head -1 "$tmp/rec.err")"
	exit 0
fi
"$C" --stack-size=8192 "$tmp/deep.data" -o "$tmp/cut.data"
check "pd-convert --stack-size=8192 of the deep recording" [ $? -eq 0 ]
check "perf reads the cut file with 8 KiB copies" \
	sh -c "perf evlist -v -i '$tmp/cut.data' 2>/dev/null </dev/null | grep -q 'sample_stack_user: 8192'"
"$U" -q "$tmp/deep.data" -o "$tmp/full.uw" &&
	"$U" -q "$tmp/cut.data" -o "$tmp/cut.uw" &&
	"$U" --stitch "$tmp/cut.data" -o "$tmp/st.uw" 2>"$tmp/st.sum"
check "pd-unwind --stitch of the cut recording" [ $? -eq 0 ]
check "its summary counts the stitched samples" grep -q 'stitched' "$tmp/st.sum"
chains "$tmp/full.uw" >"$tmp/full.c"
chains "$tmp/cut.uw" >"$tmp/cut.c"
chains "$tmp/st.uw" >"$tmp/st.c"
set -- $(compare "$tmp/full.c" "$tmp/cut.c" "$tmp/st.c")
echo "# deep, 64 KiB copies cut to 8 KiB: $1 samples, $2 shortened, $3 whole again by stitching, $4 wrong"
check "the cut shortened samples ($2 of $1)" [ "$2" -gt 0 ]
check "stitching makes at least 95% of them whole again ($3 of $2)" \
	[ $(($3 * 100)) -ge $(($2 * 95)) ]
check "no stitched chain has a frame the 64 KiB chain lacks there ($4)" [ "$4" -eq 0 ]

# the other tools stitch as pd-unwind does (without inlined frames,
# which perf shows only for DWARF-unwound chains)
"$F" --no-inline --stitch "$tmp/cut.data" | sort >"$tmp/st.folded"
"$F" "$tmp/st.uw" | sort >"$tmp/uw.folded"
check "pd-fold --stitch folds what pd-unwind --stitch unwinds" \
	cmp -s "$tmp/st.folded" "$tmp/uw.folded"
"$F" --no-inline --jobs=2 --stitch "$tmp/cut.data" | sort >"$tmp/st2.folded"
check "... with --jobs=2 too" cmp -s "$tmp/st.folded" "$tmp/st2.folded"
"$U" -q --jobs=2 --stitch "$tmp/cut.data" -o "$tmp/st2.uw"
chains "$tmp/st2.uw" >"$tmp/st2.c"
check "pd-unwind --jobs=2 --stitch: the same chains" cmp -s "$tmp/st.c" "$tmp/st2.c"
"$C" -q --shim=unwind --stitch "$tmp/cut.data" -o "$tmp/conv.uw"
chains "$tmp/conv.uw" >"$tmp/conv.c"
check "pd-convert --shim=unwind --stitch: the same chains" cmp -s "$tmp/st.c" "$tmp/conv.c"
"$C" --to=script --stitch "$tmp/cut.data" -o "$tmp/st.script" &&
	"$C" --to=script "$tmp/cut.data" -o "$tmp/cut.script"
check "pd-convert --to=script --stitch gives more frames than without" \
	[ "$(wc -l <"$tmp/st.script")" -gt "$(wc -l <"$tmp/cut.script")" ]
"$PD_BIN/pd-diff" --no-inline --stitch "$tmp/cut.data" "$tmp/st.uw" >"$tmp/diff.out"
check "pd-diff --stitch of the cut file and its stitched unwinding: no change" \
	sh -c "[ -s '$tmp/diff.out' ] && ! awk '\$(NF-1) != \$NF' '$tmp/diff.out' | grep -q ."

# from a pipe: earlier chains only (no second reading), nothing wrong
"$U" -q --stitch - -o "$tmp/pipe.uw" <"$tmp/cut.data"
chains "$tmp/pipe.uw" >"$tmp/pipe.c"
set -- $(compare "$tmp/full.c" "$tmp/cut.c" "$tmp/pipe.c")
echo "# the same from a pipe: $3 of $2 whole again, $4 wrong"
check "pd-unwind --stitch from a pipe: no stitched chain with a wrong frame ($4)" \
	[ "$1" -gt 0 ] && [ "$4" -eq 0 ]
# nothing cut, nothing stitched: the output as without --stitch
"$U" -q "$TD/dwarf.data" -o "$tmp/plain.uw" &&
	"$U" -q --stitch "$TD/dwarf.data" -o "$tmp/plain-st.uw"
check "testdata/dwarf.data, with nothing cut: --stitch changes no byte" \
	cmp -s "$tmp/plain.uw" "$tmp/plain-st.uw"
# without --stitch nothing changes
"$U" -q "$tmp/cut.data" -o "$tmp/cut2.uw"
check "without --stitch, pd-unwind's output is as before" cmp -s "$tmp/cut.uw" "$tmp/cut2.uw"
