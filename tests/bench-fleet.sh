#!/bin/sh
# make bench-fleet: docs/fleet.md's scale measurement. $PD_BENCH_FLEET_N
# profiles (10000 unless set), copies of testdata recordings of several
# kinds (tests/tools/fleet-lib.sh: frame pointers, DWARF, kernel), in
# $B/bench/fleet (removed at the end). With GNU parallel on this
# machine:
#  - each profile folded by its own pd-fold at 1, 2 and 4 job slots
#    (wall time), the folds merged by one pd-fold --merge (wall time, peak
#    RSS); the three merges must be identical;
#  - the same merge as a tree (groups of 100, then their merges);
#  - --raw folds at 4 slots, merged, one --symbolize (times, bytes);
#  - the reference: one pd-fold of every profile, which each merge must
#    equal.
# Never part of make check: it takes minutes, and times are not checked.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$top/$B ;; esac
export PD_TOP="$top" PD_BIN="$B/bin"
. "$top/tests/lib.sh"
. "$top/tests/tools/fleet-lib.sh"
n=${PD_BENCH_FLEET_N:-10000}
FOLD=$PD_BIN/pd-fold
for p in parallel /usr/bin/time; do
	command -v "$p" >/dev/null 2>&1 || {
		echo "bench-fleet: needs $p (apt-get install ${p##*/})" >&2
		exit 1
	}
done
have_perf && testdata_buildid_cache
work=$B/bench/fleet
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work" "$tmp"' EXIT

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
# timed OUT CMD...: CMD's wall time and peak RSS (MB) as "S MB"
timed() {
	_o=$1
	shift
	/usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >"$_o"
	awk '{ printf "%s %.1f", $1, $2 / 1024 }' "$tmp/time"
}

echo "bench-fleet: $n profiles, $(nproc) CPUs"
fleet_make "$work/p" "$n"
find "$work/p" -name '*.data' | sort >"$work/list"
echo "  profiles: $(du -sh "$work/p" | cut -f1) ($FLEET_KINDS)"

t0=$(now)
xargs -a "$work/list" -x -s 2000000 "$FOLD" -q >"$work/one" 2>/dev/null
t1=$(now)
one=$(secs "$t0" "$t1")
echo "  one pd-fold of all: ${one} s, $(wc -l <"$work/one") stacks"

sed 's/$/.folded/' "$work/list" >"$work/folds"
status=0
for j in 1 2 4; do
	find "$work/p" -name '*.folded' -delete
	t0=$(now)
	parallel --will-cite -j"$j" "$FOLD" -q {} -o {}.folded <"$work/list" 2>/dev/null
	t1=$(now)
	m=$(timed "$work/merged-$j" xargs -a "$work/folds" -x -s 2000000 "$FOLD" --merge)
	same=identical
	cmp -s "$work/one" "$work/merged-$j" || { same=DIFFERENT; status=1; }
	echo "  slots $j: fold $(secs "$t0" "$t1") s; merge ${m% *} s, peak RSS ${m#* } MB; $same"
	eval "fold_$j=$(secs "$t0" "$t1") merge_$j='$m' same_$j=$same"
done

# the tree: 100 folds a merge, 4 at a time, then one merge of those
mkdir "$work/t"
t0=$(now)
parallel --will-cite -j4 -N100 "$FOLD" --merge {} -o "$work/t/{#}.folded" <"$work/folds"
t1=$(now)
m=$(timed "$work/tree" sh -c "\"$FOLD\" --merge \"$work\"/t/*.folded")
same=identical
cmp -s "$work/one" "$work/tree" || { same=DIFFERENT; status=1; }
echo "  tree of 100: level 1 $(secs "$t0" "$t1") s ($(ls "$work/t" | wc -l) merges), level 2 ${m% *} s, peak RSS ${m#* } MB; $same"

# symbolized late
t0=$(now)
parallel --will-cite -j4 "$FOLD" -q --raw {} -o {}.raw <"$work/list" 2>/dev/null
t1=$(now)
sed 's/$/.raw/' "$work/list" >"$work/raws"
m=$(timed "$work/merged.raw" xargs -a "$work/raws" -x -s 2000000 "$FOLD" --merge)
s=$(timed "$work/named" "$FOLD" -q --symbolize "$work/merged.raw")
same=identical
cmp -s "$work/one" "$work/named" || { same=DIFFERENT; status=1; }
echo "  --raw, slots 4: fold $(secs "$t0" "$t1") s, $(cat $(cat "$work/raws") | wc -c | awk '{ printf "%.1f MB", $1 / 1048576 }') raw text ($(wc -c <"$work/merged.raw" | awk '{ printf "%.0f KB", $1 / 1024 }') merged); merge ${m% *} s, ${m#* } MB; --symbolize ${s% *} s, ${s#* } MB; $same"
exit $status
