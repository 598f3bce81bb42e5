#!/bin/sh
# Progress on long reads (tools/common/progress.h): under a terminal, one
# line redrawn in place ("\r" ... "\033[K") naming the input and how much
# of it was read, cleared at the end and before a message; not one byte
# of it when stderr is a file or a pipe, or with -q; the output the same
# either way. The tools run under script(1) for a pseudo-terminal, with
# PD_PROGRESS_DELAY=0 (the first line after 0 s, not 1 s) as the inputs
# here are read in milliseconds.
. "$(dirname "$0")/lib.sh"

if ! command -v script >/dev/null 2>&1; then
	skip "script(1) missing (Debian package bsdutils): progress not checked"
	echo "1..$tap_n"
	exit 0
fi

CR=$(printf '\r')
ESC=$(printf '\033')
# under_tty LOG CMD: CMD (a shell command line) with stderr and stdin on
# a pseudo-terminal; what the terminal got in LOG
under_tty() {
	script -qec "$2" "$1" </dev/null >/dev/null 2>&1
}

F=$TD/system.data
run_case() { # run_case NAME CMD-WITH-%OUT% PATTERN
	name=$1 cmd=$2 pat=$3
	out=$tmp/$name.tty.out
	c=$(printf '%s' "$cmd" | sed "s|%OUT%|$out|")
	PD_PROGRESS_DELAY=0 under_tty "$tmp/$name.log" "$c"
	tr -d '\r' <"$tmp/$name.log" >/dev/null
	check "$name: a progress line under a terminal ($pat)" \
		grep -q "$CR[a-z-]*: $pat" "$tmp/$name.log"
	# every progress line is cleared: the last one ends in \r ESC[K
	# the last progress line is cleared: what follows its \r is ESC[K
	tr '\r' '\n' <"$tmp/$name.log" | awk '
		/^pd-[a-z]*: .*, [0-9]+\.[0-9] s\033\[K$/ { last = NR }
		{ line[NR] = $0 }
		END { exit !(last && substr(line[last + 1], 2, 2) == "[K") }'
	check "$name: the line is cleared at the end" [ $? -eq 0 ]
	# the same command with stderr in a file: no progress byte, and
	# the same output
	c=$(printf '%s' "$cmd" | sed "s|%OUT%|$tmp/$name.file.out|")
	PD_PROGRESS_DELAY=0 sh -c "$c" 2>"$tmp/$name.err" </dev/null
	check "$name: nothing of it with stderr in a file" \
		sh -c '! grep -q "$2" "$1" && ! grep -q "$3" "$1"' - "$tmp/$name.err" "$CR" "$ESC"
	check "$name: the same output with and without the terminal" \
		cmp -s "$out" "$tmp/$name.file.out"
	# and through a pipe
	c=$(printf '%s' "$cmd" | sed "s|%OUT%|/dev/null|")
	PD_PROGRESS_DELAY=0 sh -c "$c" 2>&1 </dev/null | cat >"$tmp/$name.pipe"
	check "$name: nothing of it with stderr in a pipe" \
		sh -c '! grep -q "$2" "$1"' - "$tmp/$name.pipe" "$ESC"
}

run_case fold "'$PD_BIN/pd-fold' '$F' >%OUT%" \
	"$F: [0-9.]* [kMG]*B of [0-9.]* kB ([0-9]*%), [0-9]*\.[0-9] s"
run_case fold-pipe "cat '$TD/pipe.data' | '$PD_BIN/pd-fold' - >%OUT%" \
	"<stdin>: [0-9]* records\{0,1\}, [0-9.]* [kMG]*B, [0-9]*\.[0-9] s"
run_case info-stats "'$PD_BIN/pd-info' --stats '$F' >%OUT%" "$F: .*%), "
run_case unwind "'$PD_BIN/pd-unwind' '$TD/dwarf.data' -o - >%OUT%" "$TD/dwarf.data: .*%), "
run_case convert "'$PD_BIN/pd-convert' --target-perf=4.18 '$F' -o - >%OUT%" "$F: .*%), "
run_case diff "'$PD_BIN/pd-diff' '$TD/slowdown-before.data' '$TD/slowdown-after.data' >%OUT%" \
	"$TD/slowdown-before.data: .*%), "
# text inputs: perf script's and folded lines
"$PD_BIN/pd-fold" "$F" >"$tmp/folded" 2>/dev/null
run_case merge "'$PD_BIN/pd-fold' --merge '$tmp/folded' '$tmp/folded' >%OUT%" \
	"$tmp/folded: .* of .* ([0-9]*%), "
run_case merge-pipe "cat '$tmp/folded' | '$PD_BIN/pd-fold' --merge - >%OUT%" \
	"<stdin>: [0-9]* lines\{0,1\}, "

# -q: nothing, under a terminal too
PD_PROGRESS_DELAY=0 under_tty "$tmp/q.log" "'$PD_BIN/pd-fold' -q '$F' >/dev/null"
check "-q: no progress under a terminal" sh -c '! grep -q "$2" "$1"' - "$tmp/q.log" "$ESC"
# the default delay: a read of milliseconds shows nothing
under_tty "$tmp/d.log" "'$PD_BIN/pd-fold' '$TD/fp.data' >/dev/null"
check "a read shorter than a second shows no progress" \
	sh -c '! grep -q "$2" "$1"' - "$tmp/d.log" "$ESC"
# a warning printed while the line stands takes the whole line: a pipe
# cut inside its last record
sz=$(wc -c <"$TD/pipe.data")
head -c $((sz - 50)) "$TD/pipe.data" >"$tmp/cut.data"
PD_PROGRESS_DELAY=0 under_tty "$tmp/w.log" "'$PD_BIN/pd-fold' - <'$tmp/cut.data' >/dev/null"
check "a warning clears the progress line first" \
	grep -q "$CR$ESC\[Kpd-fold: warning: <stdin>: offset 0x[0-9a-f]*: partial last record" "$tmp/w.log"

echo "1..$tap_n"
