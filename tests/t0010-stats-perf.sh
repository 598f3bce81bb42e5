#!/bin/sh
# pd-info --stats equals perf report --stats on every file the system perf
# reads (testdata/ and the external corpus); files perf refuses because
# they are newer get counts stated here.
. "$(dirname "$0")/lib.sh"

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): oracle comparison not run"
else
	for f in $(perf_files "$TD" "$PD_CORPUS"); do
		# compared only where perf reads the whole file without complaint
		perf_stats_check "$f" "${f#"$PD_CORPUS"/}"
	done
fi

# perf 6.1 cannot read these (136-byte attrs, COMPRESSED2, compressed pipe
# records); counts checked against what the files hold, as stated by
# their producer (perf 6.16 'sleep' fixtures, see the corpus README).
fx=$PD_CORPUS/mstange_linux-perf-data/tests/fixtures
expect() { # FILE TYPE COUNT
	if [ ! -f "$fx/$1" ]; then
		skip "corpus file $1 absent"
		return
	fi
	n=$("$PD_BIN/pd-info" -q --stats "$fx/$1" | awk -v t="$2" '$1 == t && $2 == "events:" { print $3; exit }')
	check "$1: $2 = $3 (got ${n:-none})" [ "${n:-x}" = "$3" ]
}
expect sleep.data TOTAL 20
expect sleep.data SAMPLE 7
expect sleep.data MMAP2 4
# the same workload compressed: COMPRESSED2 records hold the 7 samples
expect sleep.compressed2.data TOTAL 21
expect sleep.compressed2.data SAMPLE 7
expect sleep.compressed2.data COMPRESSED2 1
expect sleep.compressed.data SAMPLE 8
expect sleep.compressed.data KSYMBOL 15
expect sleep.compressed.data COMPRESSED 1
# pipe mode: attrs and features arrive as records
expect sleep.compressed.pipe.data SAMPLE 8
expect sleep.compressed.pipe.data FEATURE 21
expect sleep.compressed.pipe.data ATTR 1
