#!/bin/sh
# Records tests/flame/*.rects: the frame rectangles (DEPTH X WIDTH NAME,
# extracted by tests/tools/flame-rects.awk) that FlameGraph's
# flamegraph.pl draws for the inputs below, so that t0110 checks
# pd-flame's layout against them where flamegraph.pl is not installed.
# Only these observations are kept, nothing of flamegraph.pl itself.
#
#   PD_FLAMEGRAPH=/path/to/flamegraph.pl sh tests/flame/record.sh
#
# Run from the top directory; the corpus cases read ../shared/corpus
# ($PD_CORPUS). Recorded with FlameGraph commit $commit below.
set -eu
FG=${PD_FLAMEGRAPH:?set PD_FLAMEGRAPH to the path of flamegraph.pl}
commit=41fee1f99f9276008b7cd112fca19dc3ea84ac32
corpus=${PD_CORPUS:-../shared/corpus}
fgt=corpus/brendangregg_FlameGraph/test/results

rec() { # rec NAME INPUT [OPTIONS...]; INPUT: tests/flame/... or corpus/...
	name=$1 input=$2
	shift 2
	case $input in
	corpus/*) path=$corpus/${input#corpus/} ;;
	*) path=$input ;;
	esac
	{
		echo "# command: flamegraph.pl${*:+ $*} ${input##*/} | awk -f tests/tools/flame-rects.awk | LC_ALL=C sort -k1,1n -k2,2n"
		echo "# flamegraph.pl: FlameGraph commit $commit"
		echo "# input: $input"
		echo "# options:${*:+ $*}"
		echo "# DEPTH X WIDTH NAME"
		perl "$FG" "$@" "$path" 2>/dev/null |
			awk -f tests/tools/flame-rects.awk | LC_ALL=C sort -k1,1n -k2,2n
	} >"tests/flame/$name.rects"
}

rec fp tests/flame/fp.folded
rec threads tests/flame/threads.folded
rec threads-inverted tests/flame/threads.folded --inverted
rec threads-reverse tests/flame/threads.folded --reverse
rec syscalls tests/flame/syscalls.folded
rec syscalls-reverse tests/flame/syscalls.folded --reverse
rec threads-flamechart tests/flame/threads-chrono.folded --flamechart
rec edge tests/flame/edge.folded
rec edge-reverse tests/flame/edge.folded --reverse
rec edge-inverted tests/flame/edge.folded --inverted
rec edge-flamechart tests/flame/edge.folded --flamechart
rec edge-narrow tests/flame/edge.folded --width=300 --minwidth=2
rec slowdown-diff tests/flame/slowdown.diff
rec slowdown-diff-negate tests/flame/slowdown.diff --negate
rec slowdown-diff-reverse tests/flame/slowdown.diff --reverse
rec fp-threads-diff tests/flame/fp-threads.diff --inverted
rec java-stacks $fgt/perf-java-stacks-01-collapsed-pid.txt
rec java-stacks-inverted $fgt/perf-java-stacks-01-collapsed-pid.txt --inverted
rec java-stacks-reverse $fgt/perf-java-stacks-01-collapsed-pid.txt --reverse
rec vertx-all $fgt/perf-vertx-stacks-01-collapsed-all.txt
rec vertx-all-pct $fgt/perf-vertx-stacks-01-collapsed-all.txt --width=800 --minwidth=0.5% --height=12
rec rust $fgt/perf-rust-Yamakaky-dcpu-collapsed-jit.txt
rec numa-flamechart $fgt/perf-numa-stacks-01-collapsed-kernel.txt --flamechart
# unsorted, stacks repeated: grouped by stack (flame-sort.c), C++ blanks
rec repeats tests/flame/repeats.folded
# "f" and "f 3D": a stack, then a blank, then more: the order of the
# lines depends on their counts
rec prefix tests/flame/prefix.folded
rec prefix-reverse tests/flame/prefix.folded --reverse
