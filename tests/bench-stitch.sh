#!/bin/sh
# make bench-stitch: the share of DWARF samples whose chain reaches its
# thread's outermost frame (pd-unwind's "fully"), without and with
# --stitch, on
#   - the mixed bench's DWARF profile (tests/bench-mixed-record.sh makes
#     it once, with 16 KiB stack copies), as recorded and cut to perf's
#     default 8 KiB (pd-convert --stack-size=8192);
#   - testdata's DWARF recordings, as recorded and cut smaller;
#   - the deep program (testdata/src/deep.c) recorded here with 64 KiB
#     copies, as recorded and cut to 8 KiB.
# The recordings are the system perf's; nothing is timed.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$top/$B ;; esac
dir=$B/bench
td=$top/testdata
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v perf >/dev/null 2>&1; then
	echo "bench-stitch: needs perf (apt-get install linux-perf)" >&2
	exit 1
fi
mkdir -p "$dir"

# share FILE [pd-unwind OPTION]: "SAMPLES FULL STITCHED" of pd-unwind's summary
share() {
	_f=$1
	shift
	"$B/bin/pd-unwind" "$@" "$_f" -o "$tmp/out.data" 2>&1 >/dev/null </dev/null |
		awk '/samples unwound:/ {
			for (i = 1; i <= NF; i++) {
				if ($(i + 1) == "samples") n = $i
				if ($(i + 1) == "fully,") f = $i
				if ($(i + 1) == "stitched") s = $i
			}
		} END { printf "%d %d %d\n", n, f, s }'
}

# row NAME FILE: the shares without and with --stitch
row() {
	set -- "$1" "$2" $(share "$2") $(share "$2" --stitch)
	awk -v name="$1" -v n="$3" -v f0="$4" -v f1="$7" -v s="$8" 'BEGIN {
		if (!n) { printf "%-44s %8s\n", name, "no samples"; exit }
		printf "%-44s %8d %7.1f%% %7.1f%% %8d\n", name, n,
			100 * f0 / n, 100 * f1 / n, s }'
}

# cut NAME FILE SIZE: the file's stack copies cut to SIZE bytes, its row
cut() {
	"$B/bin/pd-convert" --stack-size="$3" "$2" -o "$tmp/cut-$3.data"
	row "$1" "$tmp/cut-$3.data"
}

printf '%-44s %8s %8s %8s %8s\n' "reaching the root" samples before \
	"--stitch" stitched

mixed=$dir/mixed-dwarf.data
if [ ! -s "$mixed" ]; then
	echo "bench-stitch: recording the mixed bench's profiles (once)" >&2
	B=$B sh "$top/tests/bench-mixed-record.sh" >&2
fi
row "mixed DWARF profile (16 KiB copies)" "$mixed"
cut "mixed DWARF profile cut to 8 KiB" "$mixed" 8192
cut "mixed DWARF profile cut to 4 KiB" "$mixed" 4096

for f in dwarf inl-dwarf fp-dwarf threads-dwarf; do
	row "testdata/$f.data" "$td/$f.data"
	cut "testdata/$f.data cut to 512 bytes" "$td/$f.data" 512
	cut "testdata/$f.data cut to 256 bytes" "$td/$f.data" 256
done

deep=$dir/deep-64k.data
if [ ! -s "$deep" ]; then
	perf record -q --no-buildid-cache --call-graph dwarf,65528 \
		-e cpu-clock -F 999 -o "$deep" -- "$td/bin/deep" 400 \
		>/dev/null 2>&1 </dev/null ||
		{ echo "bench-stitch: perf record failed" >&2; exit 1; }
fi
row "deep (64 KiB copies)" "$deep"
cut "deep cut to 8 KiB" "$deep" 8192
