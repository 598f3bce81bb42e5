#!/bin/sh
# Recordings of perfs newer than this machine's (testdata/newer/: Debian
# 13's perf 6.12, unstable's 7.x; testdata/record-newer.sh): without the
# chroots that made them (tests/distro/t-newer-perf.sh),
# - pd-info --stats counts the samples the recording perf counted
#   (newer/samples);
# - pd-fold folds every one of them, the hot path named;
# - after pd-convert --target-perf=6.1, this machine's perf 6.1 counts
#   them too and prints not one warning line in perf script and perf
#   report.
# Another perf here than 6.1 reads the conversion for its own version
# (perf_target): Debian 11's perf 5.10 decompressed (it has no zstd) and,
# since its report parses no sample of a pipe, as a file.
. "$(dirname "$0")/lib.sh"

N=$TD/newer
T=6.1 V=6.1 dz=
if have_perf; then
	testdata_buildid_cache
	T=$(perf_target) V=$(perf_version)
	perf version --build-options 2>/dev/null | grep -q 'zstd: \[ OFF' && dz=--decompress
fi
while read -r f want; do
	[ -f "$N/$f" ] || { not_ok "$f: in testdata/newer"; continue; }
	"$PD_BIN/pd-info" -q --stats "$N/$f" >"$tmp/i.out" 2>"$tmp/i.err"
	rc=$?
	got=$(awk '/SAMPLE events:/ { print $3; exit }' "$tmp/i.out")
	check "$f: pd-info --stats counts $want samples, as its perf (got ${got:-none}, rc $rc)" \
		sh -c "[ $rc -eq 0 ] && [ '$got' = '$want' ] && [ ! -s '$tmp/i.err' ]"

	"$PD_BIN/pd-fold" --weight=samples "$N/$f" >"$tmp/fold" 2>"$tmp/f.err"
	rc=$?
	folded=$(awk '{ n += $NF } END { print n + 0 }' "$tmp/fold")
	# (warnings that the recording machine's files are not here aside)
	not_elsewhere "$tmp/f.err" >"$tmp/f.here"
	check "$f: pd-fold folds the $want samples (got $folded, rc $rc)" \
		sh -c "[ $rc -eq 0 ] && [ '$folded' = '$want' ] && [ ! -s '$tmp/f.here' ]"
	sed 's/^/# /' "$tmp/f.err" | head -3
	if have_perf; then
		# a recording without burn's build id (a pipe's) finds it
		# at the recorded path only, which is where testdata/ was
		# recorded: elsewhere, through a --symfs holding it there
		if ! grep -q 'main;run;outer;middle;inner_hot' "$tmp/fold" &&
		   grep -q '/testdata/bin/burn: not found' "$tmp/f.err"; then
			rec=$(sed -n 's|.* \(/[^ :]*\)/burn: not found.*|\1|p' "$tmp/f.err" | head -1)
			mkdir -p "$tmp/sf$(dirname "$rec")"
			ln -sfn "$TD/bin" "$tmp/sf$rec"
			"$PD_BIN/pd-fold" -q --symfs="$tmp/sf" --weight=samples "$N/$f" >"$tmp/fold"
		fi
		check "$f: pd-fold names the hot path main;run;outer;middle;inner_hot" \
			grep -q 'main;run;outer;middle;inner_hot' "$tmp/fold"
	fi

	if ! have_perf; then
		skip "$f: no perf on this machine: not read by perf 6.1"
		continue
	fi
	mode=
	is_pipe "$N/$f" && perf_older_than 6.1 && mode=--file
	"$PD_BIN/pd-convert" -q --target-perf="$T" $dz $mode "$N/$f" -o "$tmp/$f" 2>"$tmp/c.err"
	check "$f: pd-convert --target-perf=$T${dz:+ $dz}${mode:+ $mode}" sh -c "[ -s '$tmp/$f' ] && [ ! -s '$tmp/c.err' ]"
	sed 's/^/# /' "$tmp/c.err" | head -3
	perf report --stats -i "$tmp/$f" >"$tmp/s.out" 2>"$tmp/s.err" </dev/null
	got=$(awk '/Aggregated stats/ { a = 1 } /SAMPLE events:/ && a { print $3; exit }' "$tmp/s.out")
	check "$f: perf $V counts $want samples in the converted file (got ${got:-none})" \
		sh -c "[ '$got' = '$want' ] && [ ! -s '$tmp/s.err' ]"
	sed 's/^/# /' "$tmp/s.err" | head -3
	for cmd in script "report --stdio"; do
		perf $cmd -i "$tmp/$f" >"$tmp/p.out" 2>"$tmp/p.err" </dev/null
		rc=$?
		{ cat "$tmp/p.err"; grep -i -E 'warning|failed to process|unknown event|reserved bits|incompatible|unsupported|couldn.t' "$tmp/p.out"; } >"$tmp/w"
		check "$f: perf $V $cmd on the converted file: no warning line (rc $rc)" \
			sh -c "[ $rc -eq 0 ] && [ ! -s '$tmp/w' ]"
		head -3 "$tmp/w" | sed 's/^/# /'
	done
done <"$N/samples"
echo "1..$tap_n"
