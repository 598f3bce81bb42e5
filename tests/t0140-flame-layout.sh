#!/bin/sh
# pd-flame's layout is flamegraph.pl's: every frame rectangle (name, x,
# width, depth) pd-flame draws is one flamegraph.pl draws for the same
# input and options, within one pixel, and no frame is missing or extra.
# - always: against tests/flame/*.rects, the rectangles flamegraph.pl
#   (FlameGraph commit 41fee1f) drew, recorded by tests/flame/record.sh,
#   on folded testdata, hand-made corner cases (fractional counts, empty
#   frames, escapes, UTF-8, bad lines), pd-diff's differential lines and
#   FlameGraph's own folded results; default, --inverted, --reverse,
#   --flamechart, --negate, --width/--minwidth/--height;
# - with flamegraph.pl ($PD_FLAMEGRAPH or on PATH): against flamegraph.pl
#   run now, on the same cases and on every folded result of FlameGraph's
#   test corpus and every testdata file folded by pd-fold, default,
#   --inverted and --reverse, plus differential lines from pd-diff.
. "$(dirname "$0")/lib.sh"

FLAME=$PD_BIN/pd-flame
F=$PD_TOP/tests/flame
RECTS=$PD_TOP/tests/tools/flame-rects.awk

rects() { awk -f "$RECTS" | LC_ALL=C sort -k1,1n -k2,2n; }

# same_rects WANT GOT: depth and name equal, x and width within 1 px
same_rects() {
	awk 'FNR == 1 { f++ }
	/^#/ { next }
	f == 1 { want[++n] = $0; next }
	{
		m++
		split(want[m], w, " ")
		nw = want[m]; sub(/^[^ ]* [^ ]* [^ ]* ?/, "", nw)
		ng = $0; sub(/^[^ ]* [^ ]* [^ ]* ?/, "", ng)
		dx = w[2] - $2; dw = w[3] - $3
		if (w[1] != $1 || nw != ng || dx > 1 || dx < -1 || dw > 1 || dw < -1) {
			printf "# frame %d: want \"%s\", got \"%s\"\n", m, want[m], $0
			bad = 1
			exit
		}
	}
	END {
		if (!bad && m != n) {
			printf "# %d frames, want %d\n", m, n
			bad = 1
		}
		exit bad
	}' "$1" "$2"
}

# --- recorded observations ------------------------------------------------

ncorpus=0
for r in "$F"/*.rects; do
	name=$(basename "$r" .rects)
	input=$(sed -n 's/^# input: //p' "$r")
	opts=$(sed -n 's/^# options: *//p' "$r")
	case $input in
	corpus/*)
		path=$PD_CORPUS/${input#corpus/}
		if [ ! -f "$path" ]; then
			ncorpus=$((ncorpus + 1))
			continue
		fi ;;
	*) path=$PD_TOP/$input ;;
	esac
	# shellcheck disable=SC2086
	"$FLAME" -q $opts "$path" | rects >"$tmp/got"
	check "$name: pd-flame $opts draws flamegraph.pl's rectangles (recorded, $(grep -vc '^#' "$r") frames)" \
		same_rects "$r" "$tmp/got"
done
[ "$ncorpus" -eq 0 ] ||
	skip "corpus brendangregg_FlameGraph absent: $ncorpus recorded cases not run"

# the recordings are what the record script makes: one per rec line
check "every case of tests/flame/record.sh is recorded" \
	test "$(grep -c '^rec ' "$F/record.sh")" -eq "$(ls "$F"/*.rects | wc -l)"

# --- flamegraph.pl run now ------------------------------------------------

FG=${PD_FLAMEGRAPH:-$(command -v flamegraph.pl 2>/dev/null || true)}
if [ -z "$FG" ] || [ ! -f "$FG" ]; then
	skip "flamegraph.pl not found (PD_FLAMEGRAPH unset, none on PATH): layouts not compared with flamegraph.pl run now"
	exit 0
fi

# live FILE OPTS: one comparison; failures name the case
nlive=0 bad=
live() {
	# shellcheck disable=SC2086
	perl "$FG" $2 "$1" 2>/dev/null | rects >"$tmp/want"
	# shellcheck disable=SC2086
	"$FLAME" -q $2 "$1" | rects >"$tmp/got"
	nlive=$((nlive + 1))
	if ! same_rects "$tmp/want" "$tmp/got" >"$tmp/why"; then
		bad="$bad
# $1 $2: $(cat "$tmp/why")"
	fi
}

for r in "$F"/*.rects; do
	input=$(sed -n 's/^# input: //p' "$r")
	opts=$(sed -n 's/^# options: *//p' "$r")
	case $input in
	corpus/*) path=$PD_CORPUS/${input#corpus/}; [ -f "$path" ] || continue ;;
	*) path=$PD_TOP/$input ;;
	esac
	perl "$FG" $opts "$path" 2>/dev/null | rects >"$tmp/want"
	check "$(basename "$r" .rects): the recording equals flamegraph.pl run now" \
		same_rects "$r" "$tmp/want"
done

for d in "$TD"/*.data; do
	n=$(basename "$d" .data)
	"$PD_BIN/pd-fold" -q "$d" >"$tmp/$n.folded" 2>/dev/null || continue
	[ -s "$tmp/$n.folded" ] || continue
	for o in "" --inverted --reverse; do
		live "$tmp/$n.folded" "$o"
	done
done
"$PD_BIN/pd-diff" -q "$TD/slowdown-before.data" "$TD/slowdown-after.data" >"$tmp/d1"
"$PD_BIN/pd-diff" -q -n "$tmp/fp.folded" "$tmp/threads.folded" >"$tmp/d2"
for o in "" --negate --inverted --reverse; do
	live "$tmp/d1" "$o"
	live "$tmp/d2" "$o"
done
"$PD_BIN/pd-fold" -q --chronological "$TD/threads.data" >"$tmp/chrono"
live "$tmp/chrono" --flamechart
fgr=$PD_CORPUS/brendangregg_FlameGraph/test/results
if [ -d "$fgr" ]; then
	for f in "$fgr"/*collapsed*.txt; do
		for o in "" --inverted --reverse; do
			live "$f" "$o"
		done
	done
else
	skip "corpus brendangregg_FlameGraph absent: its folded results not drawn"
fi
if [ -z "$bad" ]; then
	ok "flamegraph.pl run now: the same rectangles in all $nlive cases (testdata folded, FlameGraph results, differential; default, --inverted, --reverse)"
else
	not_ok "flamegraph.pl run now: rectangles differ$bad"
fi
