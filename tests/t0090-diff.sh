#!/bin/sh
# pd-diff: two profiles compared.
# - golden cases (tests/diff/cases): the lines equal what FlameGraph's
#   difffolded.pl printed (tests/diff/*.out, sorted; README there) on
#   hand-written corner cases, folded testdata and FlameGraph's folded
#   results, with -n and -s; with PD_DIFFFOLDED=/path/to/difffolded.pl
#   also against the script itself, run now;
# - perf.data inputs equal their pd-fold output as inputs (options
#   included), from files, pipes and standard input;
# - --report: a deliberate slowdown of checksum() (testdata/slowdown
#   before and after) ranks it first; the table, tsv, --sort, --limit and
#   --threshold on a profile whose shares are worked out below;
# - events (refused when mixed, --event), build ids (a warning), errors
#   and usage.
. "$(dirname "$0")/lib.sh"

DIFF=$PD_BIN/pd-diff
FOLD=$PD_BIN/pd-fold
D=$PD_TOP/tests/diff
fg=$PD_CORPUS/brendangregg_FlameGraph/test/results

# --- golden cases ---------------------------------------------------------

case_path() { case $1 in fg:*) echo "$fg/${1#fg:}.txt" ;; *) echo "$D/$1" ;; esac; }
case_opts() { [ "$1" = - ] || printf '%s' "$1" | tr , ' '; }

nfg=0
while read -r name opts a b; do
	case $name in '#'* | '') continue ;; esac
	case $a$b in
	*fg:*) if [ ! -d "$fg" ]; then nfg=$((nfg + 1)); continue; fi ;;
	esac
	pa=$(case_path "$a"); pb=$(case_path "$b"); o=$(case_opts "$opts")
	# shellcheck disable=SC2086
	"$DIFF" -q $o "$pa" "$pb" >"$tmp/got" 2>"$tmp/err"
	check "golden $name: pd-diff $o equals difffolded.pl's lines" \
		cmp -s "$D/$name.out" "$tmp/got"
	diff "$D/$name.out" "$tmp/got" | head -5
	if [ -n "${PD_DIFFFOLDED:-}" ]; then
		# shellcheck disable=SC2086
		perl "$PD_DIFFFOLDED" $o "$pa" "$pb" 2>/dev/null | LC_ALL=C sort >"$tmp/want"
		check "live $name: pd-diff $o equals difffolded.pl run now (sorted)" \
			cmp -s "$tmp/want" "$tmp/got"
	fi
done <"$D/cases"
[ "$nfg" -eq 0 ] || skip "corpus brendangregg_FlameGraph absent: $nfg golden cases not run"
[ -n "${PD_DIFFFOLDED:-}" ] ||
	skip "PD_DIFFFOLDED unset (the path of FlameGraph's difffolded.pl): golden outputs not compared with the script run now"

# the output is sorted bytewise whatever the input order
sort -r "$D/edge-b.folded" >"$tmp/b-rev"
"$DIFF" -q "$D/edge-a.folded" "$tmp/b-rev" >"$tmp/got"
check "lines sorted bytewise whatever the input order" cmp -s "$D/edge.out" "$tmp/got"

# corner cases spelled out (the golden file holds them; these say why)
"$DIFF" -q "$D/edge-a.folded" "$D/edge-b.folded" >"$tmp/edge"
check "a line ' 9' and lines without a count share the empty stack" \
	grep -qx ' 9 0' "$tmp/edge"
check "blanks before the count but the last stay in the stack" \
	grep -qx 'main;run;idle  7 0' "$tmp/edge"
check "counts are summed, '12.' is 12, '007' is 7, 1.5 stays" \
	sh -c 'grep -qx "main;run;work 8 2" "$1" && grep -qx "main;dot 12 0" "$1" &&
	       grep -qx "main;lead 7 0" "$1" && grep -qx "main;frac 1.5 2.25" "$1"' - "$tmp/edge"
check "a sum past 2^64 is printed as Perl prints a double" \
	grep -qx 'main;huge 1.84467440737096e+19 0' "$tmp/edge"
"$DIFF" "$D/edge-a.folded" "$D/edge-b.folded" 2>"$tmp/err" >/dev/null
check "lines without a count are warned about (5 in A)" \
	grep -q 'edge-a.folded: 5 lines without a count' "$tmp/err"

# -n with a total of 0: the script dies dividing by zero
: >"$tmp/empty"
"$DIFF" -n "$tmp/empty" "$D/fp.folded" >"$tmp/out" 2>"$tmp/err"
check "-n with A's total 0: exit 1, one error line naming A, no output" \
	sh -c '[ $1 -eq 1 ] && [ ! -s "$2" ] && [ $(grep -c "error: .*empty" "$3") -eq 1 ]' - $? "$tmp/out" "$tmp/err"
"$DIFF" -n "$tmp/empty" "$tmp/empty" >"$tmp/out" 2>"$tmp/err"
check "-n on two empty inputs: nothing, exit 0" sh -c '[ $1 -eq 0 ] && [ ! -s "$2" ]' - $? "$tmp/out"
check "an empty input (0 bytes) is warned about, once per input" \
	sh -c '[ $(grep -c "warning: .*empty: empty input (0 bytes): no stacks" "$1") -eq 2 ]' - "$tmp/err"

# --- perf.data inputs: as their pd-fold output ------------------------------

if have_perf; then
	testdata_buildid_cache
else
	skip "perf not installed: testdata's binaries found by their recorded paths only"
fi
same_as_folded() { # NAME A.data B.data [OPTIONS]: pd-diff on data = on folds
	_n=$1 _a=$2 _b=$3; shift 3
	fold_opts=$(printf '%s\n' "$@" | grep -v -x -e -n -e -s -e --report -e '--format=tsv' | tr '\n' ' ')
	# shellcheck disable=SC2086
	"$FOLD" -q $fold_opts "$TD/$_a" >"$tmp/fa" 2>/dev/null
	# shellcheck disable=SC2086
	"$FOLD" -q $fold_opts "$TD/$_b" >"$tmp/fb" 2>/dev/null
	"$DIFF" -q "$@" "$TD/$_a" "$TD/$_b" >"$tmp/got" 2>"$tmp/err"
	_rc=$?
	(cd "$TD" && "$DIFF" -q "$@" "$tmp/fa" "$tmp/fb") |
		sed "s|$tmp/fa|$TD/$_a|; s|$tmp/fb|$TD/$_b|" >"$tmp/want"
	check "$_n: pd-diff $* on perf.data = on pd-fold's output (rc $_rc)" \
		sh -c '[ $1 -eq 0 ] && [ -s "$2" ] && cmp -s "$2" "$3"' - $_rc "$tmp/want" "$tmp/got"
}
same_as_folded slowdown slowdown-before.data slowdown-after.data
same_as_folded "slowdown -n" slowdown-before.data slowdown-after.data -n
same_as_folded "slowdown --pid -s" slowdown-before.data slowdown-after.data --pid -s
same_as_folded "slowdown --report" slowdown-before.data slowdown-after.data --report
same_as_folded "burn fp/zstd --kernel" fp.data zstd.data --kernel
same_as_folded "burn fp/pipe --addrs" fp.data pipe.data --addrs
same_as_folded "procs --all --tid" threads.data syscalls.data --all --tid
same_as_folded "procs --weight=samples --report --format=tsv" threads.data syscalls.data --weight=samples --report --format=tsv
same_as_folded "dwarf --inline" dwarf.data inl-dwarf.data --inline
same_as_folded "--capture=user --comm" syscalls.data threads.data --capture=user --comm=syscalls,worker-a

"$DIFF" -q "$TD/slowdown-before.data" "$D/slowdown-after.folded" >"$tmp/mixed"
"$FOLD" -q "$TD/slowdown-before.data" >"$tmp/fa"
"$DIFF" -q "$tmp/fa" "$D/slowdown-after.folded" >"$tmp/want"
check "a perf.data and a folded file, told apart by content" cmp -s "$tmp/want" "$tmp/mixed"

"$DIFF" -q "$TD/fp.data" "$TD/pipe.data" >"$tmp/want"
cat "$TD/pipe.data" | "$DIFF" -q "$TD/fp.data" - >"$tmp/got"
check "pipe-mode perf.data from a pipe on standard input" cmp -s "$tmp/want" "$tmp/got"
"$DIFF" -q - "$TD/pipe.data" <"$TD/fp.data" >"$tmp/got2"
"$DIFF" -q "$TD/fp.data" "$TD/pipe.data" >"$tmp/want2"
check "file-mode perf.data on standard input (a file)" cmp -s "$tmp/want2" "$tmp/got2"
cat "$TD/fp.data" | "$DIFF" -q - "$TD/pipe.data" >"$tmp/got2"
check "file-mode perf.data from a pipe" cmp -s "$tmp/want2" "$tmp/got2"
mkfifo "$tmp/fifo"
cat "$TD/pipe.data" >"$tmp/fifo" &
"$DIFF" -q "$TD/fp.data" "$tmp/fifo" >"$tmp/got"
wait
check "perf.data from a named pipe" cmp -s "$tmp/want" "$tmp/got"
cat "$D/edge-b.folded" | "$DIFF" -q "$D/edge-a.folded" - >"$tmp/got"
check "folded text from a pipe" cmp -s "$D/edge.out" "$tmp/got"

# --- --report: the slowdown ------------------------------------------------

"$DIFF" --report "$TD/slowdown-before.data" "$TD/slowdown-after.data" >"$tmp/rep" 2>"$tmp/err"
first=$(grep -v '^#' "$tmp/rep" | head -1 | awk '{ print $NF }')
check "--report ranks checksum (made 4x slower) first (got '$first')" test "$first" = checksum
cat "$tmp/rep" | sed -n 1,10p | sed 's/^/# /'
"$DIFF" --report --format=tsv "$TD/slowdown-before.data" "$TD/slowdown-after.data" >"$tmp/tsv" 2>"$tmp/tsv.err"
check "--format=tsv: checksum first, its self share up by over 20 points, others down" \
	awk -F'\t' 'NR == 1 { ok = $0 == "function\tself_a\tself_b\tdelta_self\ttotal_a\ttotal_b\tdelta_total"; next }
		NR == 2 { ok = ok && $1 == "checksum" && $4 > 20 && $3 > 55 && $2 < 45; next }
		$1 == "parse_input" || $1 == "render_output" { ok = ok && $4 < -5 }
		END { exit !ok }' "$tmp/tsv"
"$DIFF" --report --format=tsv "$D/slowdown-before.folded" "$D/slowdown-after.folded" >"$tmp/tsv2"
# (folded on the recording machine: elsewhere, its libraries' frames may
# go unnamed in the recordings and the tables differ)
if grep -q 'has another build id than the recorded one' "$tmp/tsv.err"; then
	skip "--report on the same profiles folded: this machine has other builds of the recording's libraries ($(grep -m1 -o '[^ ]*: [^ ]* has another build id' "$tmp/tsv.err" | cut -d: -f1))"
else
	check "--report on the same profiles folded: the same table" cmp -s "$tmp/tsv" "$tmp/tsv2"
fi

# --all-frames: every frame a function, the first included
# A: 100 samples: a;b;c 50, a;b 30, a;d;a;d 20 (recursion)
# B: 200 samples: a;b;c 40, a;b 60, a;d;a;d 60, e 40
printf 'a;b;c 50\na;b 30\na;d;a;d 20\n' >"$tmp/ra"
printf 'a;b;c 40\na;b 60\na;d;a;d 60\ne 40\n' >"$tmp/rb"
# self: c 50 -> 20, b 30 -> 30, d 20 -> 30, e 0 -> 20, a 0 -> 0
# total: a 100 -> 80, b 80 -> 50, c 50 -> 20, d 20 -> 30, e 0 -> 20
cat >"$tmp/want" <<'EOF'
function	self_a	self_b	delta_self	total_a	total_b	delta_total
c	50.0000	20.0000	-30.0000	50.0000	20.0000	-30.0000
e	0.0000	20.0000	20.0000	0.0000	20.0000	20.0000
d	20.0000	30.0000	10.0000	20.0000	30.0000	10.0000
b	30.0000	30.0000	0.0000	80.0000	50.0000	-30.0000
a	0.0000	0.0000	0.0000	100.0000	80.0000	-20.0000
EOF
"$DIFF" --report --all-frames --format=tsv "$tmp/ra" "$tmp/rb" >"$tmp/got"
check "--report shares: self at the leaf, total once per stack (recursion)" cmp -s "$tmp/want" "$tmp/got"
diff "$tmp/want" "$tmp/got" | head -5
"$DIFF" --report --all-frames --format=tsv --sort=delta-total "$tmp/ra" "$tmp/rb" | cut -f1 | tr '\n' ' ' >"$tmp/got"
check "--sort=delta-total (ties by |delta self|): c b e a d" test "$(cat "$tmp/got")" = "function c b e a d "
"$DIFF" --report --all-frames --format=tsv --sort=total "$tmp/ra" "$tmp/rb" | cut -f1 | tr '\n' ' ' >"$tmp/got"
check "--sort=total (in B): a b d c e" test "$(cat "$tmp/got")" = "function a b d c e "
"$DIFF" --report --all-frames --format=tsv --sort=self "$tmp/ra" "$tmp/rb" | cut -f1 | tr '\n' ' ' >"$tmp/got"
check "--sort=self (in B, then A): b d c e a" test "$(cat "$tmp/got")" = "function b d c e a "
"$DIFF" --report --all-frames --format=tsv --sort=name --limit=2 "$tmp/ra" "$tmp/rb" | cut -f1 | tr '\n' ' ' >"$tmp/got"
check "--sort=name --limit=2: a b" test "$(cat "$tmp/got")" = "function a b "
"$DIFF" --report --all-frames --format=tsv --threshold=20 "$tmp/ra" "$tmp/rb" | cut -f1 | tr '\n' ' ' >"$tmp/got"
check "--threshold=20: c e b a (d moved 10 points)" test "$(cat "$tmp/got")" = "function c e b a "
"$DIFF" --report --all-frames "$tmp/ra" "$tmp/rb" >"$tmp/got"
cat >"$tmp/want" <<EOF
# A: $tmp/ra (total count 100)
# B: $tmp/rb (total count 200)
# 5 of 5 functions, by |delta self|; delta = B - A in percentage points
#
#    Self A    Self B    Delta    Total A   Total B    Delta  Function
#  ........  ........  .......   ........  ........  .......  ........
#
     50.00%    20.00%   -30.00     50.00%    20.00%   -30.00  c
      0.00%    20.00%   +20.00      0.00%    20.00%   +20.00  e
     20.00%    30.00%   +10.00     20.00%    30.00%   +10.00  d
     30.00%    30.00%    +0.00     80.00%    50.00%   -30.00  b
      0.00%     0.00%    +0.00    100.00%    80.00%   -20.00  a
EOF
check "--report text table" cmp -s "$tmp/want" "$tmp/got"
diff "$tmp/want" "$tmp/got" | head -5

# By default the first frame is the command, not a function: "a" counts
# only where it recurses below it, and B's "e 40" (the command alone)
# only in the total
cat >"$tmp/want" <<'EOF'
function	self_a	self_b	delta_self	total_a	total_b	delta_total
c	50.0000	20.0000	-30.0000	50.0000	20.0000	-30.0000
d	20.0000	30.0000	10.0000	20.0000	30.0000	10.0000
b	30.0000	30.0000	0.0000	80.0000	50.0000	-30.0000
a	0.0000	0.0000	0.0000	20.0000	30.0000	10.0000
EOF
"$DIFF" --report --format=tsv "$tmp/ra" "$tmp/rb" >"$tmp/got"
check "--report: the first frame is the command, not a function" cmp -s "$tmp/want" "$tmp/got"
diff "$tmp/want" "$tmp/got" | head -5
"$DIFF" --report --format=tsv --limit=0 "$TD/slowdown-before.data" "$TD/slowdown-after.data" | cut -f1 >"$tmp/got"
check "--report on perf.data: the command (slowdown) is not listed" sh -c '! grep -qx slowdown "$1" && grep -qx checksum "$1"' - "$tmp/got"
"$DIFF" --report --all-frames --format=tsv --limit=0 "$TD/slowdown-before.data" "$TD/slowdown-after.data" | cut -f1 >"$tmp/got"
check "--report --all-frames: the command listed too" grep -qx slowdown "$tmp/got"

# --- events and build ids ---------------------------------------------------

"$DIFF" "$TD/two-events.data" "$TD/slowdown-after.data" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "two events in A without --event: refused, exit 2, naming --event (rc $rc)" \
	sh -c '[ $1 -eq 2 ] && [ ! -s "$2" ] && grep -q "two-events.data: samples of more than one event.*--event" "$3"' - $rc "$tmp/out" "$tmp/err"
"$DIFF" -q --event=cpu-clock --report --format=tsv "$TD/two-events.data" "$TD/slowdown-after.data" >"$tmp/out"
check "--event=cpu-clock picks one: checksum first" \
	sh -c '[ $1 -eq 0 ] && sed -n 2p "$2" | grep -q "^checksum	"' - $? "$tmp/out"
"$DIFF" --event=task-clock "$TD/two-events.data" "$TD/slowdown-after.data" >/dev/null 2>"$tmp/err"
check "--event=task-clock: B has none, said" \
	grep -q 'slowdown-after.data: no samples of event task-clock' "$tmp/err"
"$DIFF" "$TD/fp.data" "$TD/offcpu.data" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "cpu-clock against sched:sched_switch: refused, exit 1 (rc $rc)" \
	sh -c '[ $1 -eq 1 ] && [ ! -s "$2" ] && grep -q "cpu-clock.*sched:sched_switch.*do not compare" "$3"' - $rc "$tmp/out" "$tmp/err"

if command -v perl >/dev/null 2>&1; then
	bid=32a5f75380edfbfacfe952b55dd7fdc7d6b9ce8b	# testdata/bin/slowdown's
	hex() { printf '%s' "$1" | sed 's/../\\x&/g'; }
	perl -0777 -pe "s/$(hex $bid)/$(hex 0123456789abcdef0123456789abcdef01234567)/g" \
		"$TD/slowdown-after.data" >"$tmp/rebuilt.data"
	"$DIFF" "$TD/slowdown-before.data" "$tmp/rebuilt.data" >/dev/null 2>"$tmp/err"
	check "another build of the same binary: warned, naming it and both ids (rc $?)" \
		grep -q "bin/slowdown: build id $bid in .*slowdown-before.data, 0123456789abcdef0123456789abcdef01234567 in .*rebuilt.data" "$tmp/err"
	"$DIFF" "$TD/slowdown-before.data" "$TD/slowdown-after.data" >/dev/null 2>"$tmp/err"
	not_elsewhere "$tmp/err" >"$tmp/err.here"
	check "the same binary: no build-id warning" sh -c '! grep -q "build id" "$1"' - "$tmp/err.here"
else
	skip "perl missing: no copy with another build id"
fi

# --- errors and usage --------------------------------------------------------

"$DIFF" "$tmp/nonexistent" "$D/fp.folded" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "missing input: exit 1, one line naming it (rc $rc)" \
	sh -c '[ $1 -eq 1 ] && [ $(wc -l <"$2") -eq 1 ] && grep -q "nonexistent: No such file" "$2"' - $rc "$tmp/err"
# the first record's header zeroed: a record of size 0 at 0x108
cp "$TD/fp.data" "$tmp/bad.data"
printf '\0\0\0\0\0\0\0\0' | dd of="$tmp/bad.data" bs=1 seek=264 conv=notrunc 2>/dev/null
"$DIFF" "$TD/fp.data" "$tmp/bad.data" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "corrupt perf.data: exit 1, one error naming the file and the offset (rc $rc)" \
	sh -c '[ $1 -eq 1 ] && [ ! -s "$2" ] && grep -q "error: .*bad.data: offset 0x108: " "$3"' - $rc "$tmp/out" "$tmp/err"
"$DIFF" "$D/fp.folded" "$D/" >"$tmp/out" 2>"$tmp/err"
check "a directory: exit 1, naming it" sh -c '[ $1 -eq 1 ] && grep -q "diff/" "$2"' - $? "$tmp/err"
usage() { # DESCRIPTION ARGS...: exit 2
	_d=$1; shift
	"$DIFF" "$@" >/dev/null 2>"$tmp/err"
	check "usage: $_d exits 2" sh -c '[ $1 -eq 2 ] && grep -q "pd-diff --help" "$2"' - $? "$tmp/err"
}
usage "one input" "$D/fp.folded"
usage "three inputs" "$D/fp.folded" "$D/fp.folded" "$D/fp.folded"
usage "both on stdin" - -
usage "--sort=bogus" --report --sort=bogus "$D/fp.folded" "$D/fp.folded"
usage "--limit=x" --report --limit=x "$D/fp.folded" "$D/fp.folded"
usage "--threshold=-1" --report --threshold=-1 "$D/fp.folded" "$D/fp.folded"
usage "--format=csv" --report --format=csv "$D/fp.folded" "$D/fp.folded"
usage "--weight=bogus" --weight=bogus "$D/fp.folded" "$D/fp.folded"
usage "-n with --report" -n --report "$D/fp.folded" "$D/fp.folded"
usage "--bogus" --bogus "$D/fp.folded" "$D/fp.folded"
"$DIFF" --help >"$tmp/out" 2>&1
check "--help exits 0 and names --report" sh -c '[ $1 -eq 0 ] && grep -q -- --report "$2"' - $? "$tmp/out"
"$DIFF" -o "$tmp/o.txt" "$D/edge-a.folded" "$D/edge-b.folded" 2>/dev/null
check "-o FILE" cmp -s "$D/edge.out" "$tmp/o.txt"
"$DIFF" "$D/edge-a.folded" "$D/edge-b.folded" 2>/dev/null >/dev/full
check "a write error: exit 1" test $? -eq 1

