#!/bin/sh
# Truncation sweep: every file in testdata/ cut at its header boundaries
# (file header, attrs section, data section start and end, feature table;
# pipe header), inside and at the end of its first records, and at evenly
# spaced offsets across its records, read by every tool: pd-info --stats
# and --dump, pd-convert (perf.data, --to=json, --to=pprof and
# --to=speedscope), pd-fold, pd-diff CUT CUT and, for the files with
# user stacks, pd-unwind. Each must end with status 0 and a warning on
# stderr (what could be read), or status 1 with one error line naming the
# file and an offset; never a signal, a hang, or a sanitizer report.
# pd-convert and pd-unwind leave no output when they fail.
#
# Time: exec is the cost here, so each file is cut once per offset, every
# tool runs on the cut, and one timeout covers the sweep of a file
# (ulimit -t 20 stops a tool spinning, the timeout one blocked); the
# spread is smaller in large files, and under a sanitizer build (PD_SAN)
# it is one offset.
. "$(dirname "$0")/lib.sh"

B=$PD_BIN
if [ -n "${PD_SAN:-}" ]; then spread=1; else spread=3; fi

u8() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }

# The sweep of one file: cuts it at each offset in CUTS and runs the
# tools on the cut: "TKEY CUT STATUS" per run, stderr in DIR/CUT.TKEY.
cat >"$tmp/sweep.sh" <<'EOS'
B=$1 f=$2 c=$3 o=$4 e=$5 diffopt=$6 unwind=$7 cuts=$8
ulimit -t 20
run() { # TKEY TOOL ARGS...
	tkey=$1 t=$2
	shift 2
	"$B/$t" "$@" >/dev/null 2>"$e/$cut.$tkey" </dev/null
	rc=$?
	if [ $rc -ne 0 ] && [ -e "$o" ]; then rc="$rc+output"; fi
	rm -f "$o"
	echo "$tkey $cut $rc"
}
for cut in $(cat "$cuts"); do
	head -c "$cut" "$f" >"$c"
	run info-stats pd-info --stats "$c"
	run info-dump pd-info --dump "$c"
	run convert pd-convert "$c" -o "$o"
	run to-json pd-convert --to=json "$c" -o "$o"
	run to-pprof pd-convert --to=pprof "$c" -o "$o"
	run to-speedscope pd-convert --to=speedscope "$c" -o "$o"
	run fold pd-fold "$c"
	run diff pd-diff $diffopt "$c" "$c"
	[ -z "$unwind" ] || run unwind pd-unwind "$c" -o "$o"
done
EOS

# judge: reads the runs of one file ($tmp/runs, stderr in $tmp/e/) and
# prints "TKEY CUT: what is wrong" for each unacceptable one. Status 0
# needs a warning, except for a pipe-mode stream cut at a record boundary
# (a complete stream as far as anyone can tell; boundaries in $tmp/bounds).
judge() {
	awk -v dir="$tmp/e" -v cname="$cname" -v bounds="$tmp/bounds" '
	BEGIN { while ((getline l < bounds) > 0) bound[l + 0] = 1 }
	{
		tkey = $1; cut = $2; rc = $3
		if (tkey == "timeout") {
			print "timeout: the sweep did not end within 300 s; last run: " last
			next
		}
		last = $0
		f = dir "/" cut "." tkey
		nerr = 0; loc = 0; warn = 0; san = 0; first = ""
		while ((getline l < f) > 0) {
			if (first == "") first = substr(l, 1, 200)
			if (l ~ /ERROR: (Address|Leak)Sanitizer|runtime error:/) san = 1
			else if (index(l, "error: ")) {
				nerr++
				if (index(l, cname) && l ~ /offset 0x/) loc = 1
			} else if (index(l, "warning")) warn = 1
		}
		close(f)
		bad = ""
		if (san) bad = "sanitizer report"
		else if (rc == "0") {
			if (nerr) bad = "status 0 with an error"
			else if (!warn && !((cut + 0) in bound)) bad = "status 0 without a warning"
		} else if (rc == "1") {
			if (nerr != 1 || !loc)
				bad = "status 1 with " nerr " error lines, file and offset named: " loc
		} else if (rc == "152") bad = "spinning (ulimit -t 20)"
		else bad = "status " rc
		if (bad != "") print tkey " " cut ": " bad ": " first
	}' "$tmp/runs"
}

dump_recs() { # FILE: "OFFSET SIZE" (decimal) of its records, as pd-info --dump locates them
	"$B/pd-info" -q --dump "$1" 2>/dev/null |
	sed -n 's/^0x\([0-9a-f]*\) \[0x\([0-9a-f]*\)\]:.*/\1 \2/p' |
	while read -r _o _s; do
		echo "$(printf '%d %d' "0x$_o" "0x$_s")"
	done
}

# cuts FILE NUMBER: the offsets to cut FILE at, one per line (unsorted).
# For a pipe-mode FILE, its record boundaries go to $tmp/bounds.
cuts() {
	_f=$1
	_size=$(wc -c <"$_f")
	: >"$tmp/bounds"
	_hsz=$(u8 "$_f" 8)
	if [ "$_hsz" != 16 ]; then
		_aoff=$(u8 "$_f" 24) _asz=$(u8 "$_f" 32)
		_doff=$(u8 "$_f" 40) _dsz=$(u8 "$_f" 48)
		_dend=$((_doff + _dsz))
		# in the file header, in the attrs, the data section empty,
		# the last record cut, no feature table, half a table entry
		for _o in $((_hsz - 1)) $((_aoff + _asz - 1)) "$_doff" \
			  $((_dend - 1)) "$_dend" $((_dend + 8)); do
			echo "$_o"
		done
		dump_recs "$_f" | head -n 2 >"$tmp/recs"
	else
		# pipe mode: in the 16-byte header, header only; any record
		# may be the last one
		echo 15
		echo 16
		_doff=16 _dend=$_size
		dump_recs "$_f" >"$tmp/recs"
		echo 16 >"$tmp/bounds"
		while read -r _o _s; do
			echo $((_o + _s))
		done <"$tmp/recs" >>"$tmp/bounds"
	fi
	# the first record: in its header, in its body; the second: its end
	head -n 2 "$tmp/recs" | {
		read -r _o _s && echo $((_o + 4)) && echo $((_o + _s - 1))
		read -r _o _s && echo $((_o + _s))
	}
	# a spread across the records, fewer in large files, placed
	# differently in each file (NUMBER) to cover more positions in all
	_n=$spread
	[ "$_size" -lt 65536 ] || _n=$(((_n + 1) / 2))
	_i=0
	while [ $_i -lt $_n ]; do
		echo $((_doff + (_dend - _doff) * (4 * _i + 1 + $2 % 3) / (4 * _n)))
		_i=$((_i + 1))
	done
	echo $((_size - 1))
}

sums=$(cat "$TD"/*.data | cksum)
mkdir "$tmp/e"
tools="timeout info-stats info-dump convert to-json to-pprof to-speedscope fold diff unwind"
nfiles=0
total=0
for f in "$TD"/*.data; do
	[ -f "$f" ] || continue
	name=${f##*/}
	nfiles=$((nfiles + 1))
	size=$(wc -c <"$f")
	cname=cut-$name
	c=$tmp/$cname
	# pd-unwind only on the files with user stacks to unwind
	unwind=
	"$B/pd-info" -q --header "$f" 2>/dev/null | grep -q 'STACK_USER' && unwind=1
	# pd-diff needs --event when the file has samples of several events
	diffopt=
	if "$B/pd-diff" "$f" "$f" >/dev/null 2>"$tmp/err"; [ $? -eq 2 ]; then
		diffopt=--event=$(sed -n 's/^Filtering for events of type: //p' "$tmp/err" | head -n 1)
	fi
	cuts "$f" $nfiles | sort -n -u |
	awk -v size="$size" '$1 > 0 && $1 < size' >"$tmp/cuts"
	n=$(wc -l <"$tmp/cuts")
	timeout 300 sh "$tmp/sweep.sh" "$B" "$f" "$c" "$tmp/o.data" "$tmp/e" \
		"$diffopt" "$unwind" "$tmp/cuts" >"$tmp/runs" ||
		echo "timeout" >>"$tmp/runs"
	total=$((total + n))
	judge >"$tmp/fail"
	for tkey in $tools; do
		[ "$tkey" != unwind ] || [ -n "$unwind" ] || continue
		if grep -q "^$tkey " "$tmp/fail"; then
			not_ok "$name cut at $n offsets: $tkey"
			grep "^$tkey " "$tmp/fail" | head -n 5 | sed 's/^/# /'
		elif [ "$tkey" != timeout ]; then
			ok "$name cut at $n offsets: $tkey exits 0 with a warning or 1 with a located error"
		fi
	done
	rm -f "$c" "$tmp/e"/*
done
[ $nfiles -gt 0 ] || not_ok "no testdata/*.data files"

# cut at 0: not a perf.data file; for pd-diff an empty folded file, which
# is legitimate (pd-fold prints nothing for a profile without samples)
# but worth a warning
: >"$tmp/empty.data"
for t in "pd-info --stats" "pd-info --dump" pd-fold "pd-convert -o $tmp/o.data" \
	 "pd-unwind -o $tmp/o.data"; do
	$B/$t "$tmp/empty.data" >/dev/null 2>"$tmp/err"
	rc=$?
	check "cut at 0: $t: status 1, one error line 'not a perf.data file' ($rc)" \
		sh -c '[ $1 -eq 1 ] && [ $(wc -l <"$2") -eq 1 ] && [ ! -e "$3" ] &&
		       grep -q "error: .*empty.data: offset 0x0: not a perf.data file" "$2"' \
		- $rc "$tmp/err" "$tmp/o.data"
done
"$B/pd-diff" "$tmp/empty.data" "$TD/fp.data" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "cut at 0: pd-diff: status 0, the empty input warned about ($rc)" \
	sh -c '[ $1 -eq 0 ] && [ -s "$2" ] && grep -q "warning: .*empty.data: empty input" "$3"' \
	- $rc "$tmp/out" "$tmp/err"
echo "# $total cuts of $nfiles files"
check "the input files untouched" [ "$(cat "$TD"/*.data | cksum)" = "$sums" ]
