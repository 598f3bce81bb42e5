#!/bin/sh
# Big-endian files, read end to end: every testdata/ file converted with
# pd-convert --endian=big gives the same pd-info --stats and header view
# as perf 6.1 prints for that big-endian file (the comparisons of t0010
# and t0040). Where perf cannot read the converted file's stats, pd-info's
# for it equal perf's for the original. perf 6.1 has no byte swap for
# HEADER_FEATURE records (no entry in perf_event__swap_ops[], util/
# session.c), so it cannot print the header of a big-endian pipe stream:
# pipe.data's header is not compared. A perf older than the one that
# recorded testdata/ (Debian 11's 5.10) compares the copies made for it
# (perf_readable) and their big-endian forms.
. "$(dirname "$0")/lib.sh"

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): oracle comparison not run"
	echo "1..$tap_n"
	exit 0
fi

ns=0 nh=0
for f in "$TD"/*.data; do
	n=$(basename "$f" .data)
	f=$(perf_readable "$f")
	be=$tmp/$n.be.data
	if ! "$PD_BIN/pd-convert" -q --endian=big "$f" -o "$be" 2>"$tmp/cerr"; then
		not_ok "$n: converts to big-endian ($(head -1 "$tmp/cerr"))"
		continue
	fi
	if perf_stats_check "$be" "$n.data big-endian"; then
		ns=$((ns + 1))
	elif is_pipe "$f" && perf_older_than 6.1; then
		skip "$n.data big-endian: perf $(perf_version)'s report parses no sample of a pipe, not even of its own recordings"
	else
		perf report --stats -i "$f" 2>/dev/null </dev/null |
			sed -n '/Aggregated stats/,$p' >"$tmp/want"
		"$PD_BIN/pd-info" -q --stats "$be" 2>/dev/null |
			sed -n '/Aggregated stats/,$p' >"$tmp/got"
		stats_as_perf "$tmp/want" "$tmp/got"
		check "$n.data big-endian (perf cannot read it): stats equal perf's for the original" \
			sh -c "[ -s '$tmp/want' ] && cmp -s '$tmp/want' '$tmp/got'"
	fi
	perf_header_check "$be" "$n.data big-endian" "$f" && nh=$((nh + 1))
done
# every file but, for the header, the pipe stream
check "perf read the stats of most big-endian copies ($ns)" [ "$ns" -ge 19 ]
check "perf read the header of most big-endian copies ($nh)" [ "$nh" -ge 18 ]

# The external corpus the same way, where pd-convert converts the file
# (not the corrupt ones, nor AUXTRACE data). perf 6.1 indexes its swap
# table with the record type before checking it (event_swap(), util/
# session.c), so it crashes on big-endian files with simpleperf's private
# records: such files count as unread.
nc=0
for f in $(perf_files "$PD_CORPUS"); do
	rel=${f#"$PD_CORPUS"/}
	"$PD_BIN/pd-convert" -q --endian=big "$f" -o "$tmp/c.be.data" 2>/dev/null || continue
	perf_stats_check "$tmp/c.be.data" "$rel big-endian" && nc=$((nc + 1))
	perf_header_check "$tmp/c.be.data" "$rel big-endian" "$f"
done
if [ -d "$PD_CORPUS" ]; then
	check "perf read big-endian copies of corpus files ($nc)" [ "$nc" -gt 0 ]
else
	skip "corpus absent: $PD_CORPUS"
fi

# A file without HOSTNAME (simpleperf writes none) gets an empty one when
# swapped: without it the feature bitmap of the other byte order cannot be
# told apart and readers fall back to BUILD_ID alone.
sp=$PD_CORPUS/GrapheneOS_platform_system_extras/simpleperf/testdata/perf_with_meta_info.data
if [ -f "$sp" ]; then
	"$PD_BIN/pd-convert" --endian=big "$sp" -o "$tmp/sp.be.data" 2>"$tmp/err"
	check "no HOSTNAME: converting to big-endian says it adds one" grep -q 'no HOSTNAME feature' "$tmp/err"
	"$PD_BIN/pd-info" -q "$tmp/sp.be.data" >"$tmp/got"
	check "no HOSTNAME: the big-endian copy keeps its arch and cmdline" \
		sh -c "grep -q '^# arch : aarch64' '$tmp/got' && grep -q '^# cmdline : ' '$tmp/got'"
else
	skip "corpus file perf_with_meta_info.data absent"
fi

# the two attr fields perf 6.1 does not swap are the ones pd-info reads
# back as in the original
for n in clock regs; do
	[ -f "$TD/$n.data" ] || continue
	"$PD_BIN/pd-convert" -q --endian=big "$TD/$n.data" -o "$tmp/be.data"
	"$PD_BIN/pd-info" -q "$TD/$n.data" | grep '^# event' >"$tmp/want"
	"$PD_BIN/pd-info" -q "$tmp/be.data" | grep '^# event' >"$tmp/got"
	check "$n.data big-endian: attr lines equal the original's" cmp -s "$tmp/want" "$tmp/got"
done

echo "1..$tap_n"
