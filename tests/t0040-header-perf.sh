#!/bin/sh
# pd-info's header view equals 'perf report --header-only -I' on every file
# the system perf reads (testdata/ and the external corpus). Lines perf
# does not print are ours (build ids, features newer than perf 6.1) and
# are left out of the comparison.
. "$(dirname "$0")/lib.sh"

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): oracle comparison not run"
else
	n=0
	for f in $(perf_files "$TD" "$PD_CORPUS"); do
		rel=${f#"$PD_CORPUS"/}
		case $rel in
		# its CPUDESC section is empty: perf 6.1 prints "(null)" and
		# zeros for every later feature; we warn and print the rest
		*perf.data.armv7.perf_3.14-3.8)
			"$PD_BIN/pd-info" "$f" >"$tmp/got" 2>"$tmp/err"
			check "empty CPUDESC: warned, later features still read" \
				grep -q '^# cmdline : /usr/bin/perf record -a -- sleep 2 $' "$tmp/got"
			check "empty CPUDESC: warning names the feature" grep -q 'CPUDESC' "$tmp/err"
			continue ;;
		esac
		# only where perf reads the header without complaint; of
		# testdata/, the copy made for an older perf (perf_readable)
		case $f in
		"$TD"/*) r=$(perf_readable "$f")
			[ "$r" = "$f" ] || rel="$rel (converted for perf $(perf_target))" ;;
		*) r=$f ;;
		esac
		perf_header_check "$r" "$rel" && n=$((n + 1))
	done
	check "perf read at least one file to compare ($n)" [ "$n" -gt 0 ]
fi

# the build ids perf keeps in the header, as 'perf buildid-list' lists them
# (of the file as the perf compared with reads it: see perf_readable)
if have_perf && [ -f "$TD/fp.data" ]; then
	perf buildid-list -i "$(perf_readable "$TD/fp.data")" 2>/dev/null | sort >"$tmp/want"
	"$PD_BIN/pd-info" "$TD/fp.data" | sed -n 's/^# build id : //p' | sort >"$tmp/got"
	check "build ids equal perf buildid-list" cmp -s "$tmp/want" "$tmp/got"
	check "fp.data has build ids" [ -s "$tmp/got" ]
fi

# --brief: full-only features are announced, not printed (of the copy an
# older perf reads, for both: the header block names its sizes)
if [ -f "$TD/fp.data" ]; then
	fp=$TD/fp.data
	have_perf && fp=$(perf_readable "$fp")
	"$PD_BIN/pd-info" --brief "$fp" >"$tmp/brief"
	check "--brief announces CPU_TOPOLOGY" grep -q '^# CPU_TOPOLOGY info available, use -I to display' "$tmp/brief"
	check "--brief omits sibling lines" sh -c "! grep -q '^# sibling' '$tmp/brief'"
	if have_perf; then
		perf report --header-only -i "$fp" >"$tmp/perf.brief" 2>/dev/null </dev/null
		header_ours "$tmp/brief" >"$tmp/brief.f"
		check "--brief equals perf without -I" cmp -s "$tmp/perf.brief" "$tmp/brief.f"
	fi
fi
