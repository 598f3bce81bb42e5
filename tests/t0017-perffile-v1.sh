#!/bin/sh
# The old PERFFILE v1 form (magic "PERFFILE", 72-byte header without the
# feature bitmap), made from testdata/ by tests/tools/mkv1 after
# pd-convert --target-perf=3.10 (96-byte attrs: perf accepts a v1 file only
# with a pre-VER5 attr size, from which it also takes the byte order).
# pd-info --stats and --dump read it; --stats equals perf report --stats
# (and the header view perf's) on the same v1 file; a cut header gives
# the usual one-line error.
. "$(dirname "$0")/lib.sh"

MKV1=$PD_BIN/../tests/tools/mkv1
# Tracepoint names come from TRACING_DATA, a feature, which v1 files do
# not have: there they are "unknown tracepoint" (perf refuses such files).
# Records compare the same with the names masked.
names() { sed -E -e 's/^0x[0-9a-f]+(\+0x[0-9a-f]+)? //' -e 's/sched:[a-z_]+|unknown tracepoint/TRACEPOINT/g' "$@"; }
n_ok=0
for f in "$TD"/*.data; do
	n=$(basename "$f" .data)
	for e in little big; do
		v1=$tmp/$n.$e.v1
		# pipe streams and files the 3.10 target refuses have no v1 form
		"$PD_BIN/pd-convert" -q --file --target-perf=3.10 --endian=$e "$f" \
			-o "$tmp/v2.data" 2>/dev/null || continue
		if ! "$MKV1" "$tmp/v2.data" "$v1" 2>"$tmp/err"; then
			not_ok "$n $e: mkv1 ($(cat "$tmp/err"))"
			continue
		fi
		check "$n $e v1: magic PERFFILE" [ "$(head -c 8 "$v1")" = PERFFILE ]
		"$PD_BIN/pd-info" -q --stats "$v1" >"$tmp/v1.all" 2>"$tmp/err"
		rc=$?
		names "$tmp/v1.all" >"$tmp/v1.stats"
		"$PD_BIN/pd-info" -q --stats "$tmp/v2.data" 2>/dev/null | names >"$tmp/v2.stats"
		check "$n $e v1: --stats reads it, the records of its PERFILE2 form (rc $rc)" \
			sh -c "[ $rc -eq 0 ] && cmp -s '$tmp/v2.stats' '$tmp/v1.stats'"
		"$PD_BIN/pd-info" -q --dump "$v1" | names >"$tmp/v1.dump"
		"$PD_BIN/pd-info" -q --dump "$tmp/v2.data" | names >"$tmp/v2.dump"
		check "$n $e v1: --dump reads it, the records of its PERFILE2 form" \
			sh -c "[ -s '$tmp/v1.dump' ] && cmp -s '$tmp/v2.dump' '$tmp/v1.dump'"
		"$PD_BIN/pd-info" -q "$v1" >"$tmp/v1.hdr"
		check "$n $e v1: header version 0 (perf's PERF_HEADER_VERSION_1), no features" \
			sh -c "grep -q '^# header version : 0\$' '$tmp/v1.hdr' && ! grep -q -E '^# (hostname|cmdline) ' '$tmp/v1.hdr'"
		if have_perf; then
			perf_stats_check "$v1" "$n $e v1" && n_ok=$((n_ok + 1))
			perf_header_check "$v1" "$n $e v1"
		fi
	done
done
if have_perf; then
	check "perf read v1 files of both byte orders ($n_ok)" [ "$n_ok" -ge 20 ]
else
	skip "perf not installed (apt-get install linux-perf): oracle comparison not run"
fi

# a cut v1 header: one line naming the file and offset, exit 1
"$PD_BIN/pd-convert" -q --target-perf=3.10 "$TD/fp.data" -o "$tmp/v2.data"
"$MKV1" "$tmp/v2.data" "$tmp/fp.v1"
for cut in 12 40 71; do
	head -c $cut "$tmp/fp.v1" >"$tmp/cut.v1"
	for how in --stats --dump --header; do
		"$PD_BIN/pd-info" $how "$tmp/cut.v1" >/dev/null 2>"$tmp/err"
		rc=$?
		check "v1 header cut at $cut, $how: exit 1, one line naming file and offset (rc $rc)" \
			sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q 'cut.v1: offset 0x[0-9a-f]*: ' '$tmp/err'"
	done
done
# an attr size perf never wrote with PERFFILE: the byte order is unknown
cp "$tmp/fp.v1" "$tmp/bad.v1"
printf '\220' | dd of="$tmp/bad.v1" bs=1 seek=16 conv=notrunc 2>/dev/null
"$PD_BIN/pd-info" --stats "$tmp/bad.v1" >/dev/null 2>"$tmp/err"
rc=$?
check "v1 with attr size 144: exit 1, names the attr size (rc $rc)" \
	sh -c "[ $rc -eq 1 ] && grep -q 'PERFFILE v1 with unknown attr size 144' '$tmp/err'"

echo "1..$tap_n"
