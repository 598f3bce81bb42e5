#!/bin/sh
# The fuzz targets (tests/fuzz/fuzz-*.c) built with the compiler of this
# build, without libFuzzer (tests/fuzz/replay.c), run over:
# - every crash the fuzzers ever found (tests/fuzz/regress/TARGET/);
# - their seed corpora, made from testdata/ by tests/fuzz/seed.sh;
# - for the file, pipe and read-write-read targets, the quipper fuzzer
#   crash files (t0020 runs pd-info on them; here they also go through
#   the session and a write-back).
# Each input must run to its end: no crash, no sanitizer report, no
# difference between a file and its written-back copy (the targets abort).
. "$(dirname "$0")/lib.sh"

FZ=$PD_BIN/../fuzz
# leaks inside libtraceevent are its own (make asan)
LSAN_OPTIONS=suppressions=$PD_TOP/tests/fuzz/lsan.supp
export LSAN_OPTIONS
quipper=$PD_CORPUS/google_perf_data_converter/src/quipper/corpus

replay() { # TARGET DESCRIPTION DIR-OR-FILE...
	_t=$1 _d=$2
	shift 2
	timeout 300 "$FZ/replay-$_t" "$@" >"$tmp/out" 2>"$tmp/err"
	_rc=$?
	if [ $_rc -eq 0 ] && grep -q '^replay: [1-9][0-9]* inputs' "$tmp/out"; then
		ok "$_t: $_d: $(sed 's/^replay: //' "$tmp/out") run"
	else
		not_ok "$_t: $_d: status $_rc"
		grep -m 5 -E 'ERROR|SUMMARY|runtime error|finding|replay:' "$tmp/err"
	fi
}

n=0
for src in "$PD_TOP"/tests/fuzz/fuzz-*.c; do
	t=$(basename "$src" .c)
	n=$((n + 1))
	if [ ! -x "$FZ/replay-$t" ]; then
		not_ok "$t: replay program $FZ/replay-$t not built"
		continue
	fi
	reg=$PD_TOP/tests/fuzz/regress/$t
	if [ -d "$reg" ] && [ -n "$(ls -A "$reg")" ]; then
		replay "$t" "regression cases" "$reg"
	fi
	PD_BIN=$PD_BIN "$PD_TOP/tests/fuzz/seed.sh" "$t" "$tmp/seed-$t" 2>/dev/null
	replay "$t" "seed corpus" "$tmp/seed-$t"
	rm -rf "$tmp/seed-$t"
	case $t in
	fuzz-file|fuzz-pipe|fuzz-roundtrip)
		if [ -d "$quipper" ]; then
			replay "$t" "quipper fuzzer crash files" "$quipper"
		else
			skip "$t: quipper corpus absent"
		fi ;;
	esac
done
check "fuzz targets found ($n)" [ $n -ge 6 ]
