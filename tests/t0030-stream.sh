#!/bin/sh
# Reading from standard input (pipe and file mode arriving on a pipe) gives
# the same records as reading the file; time order is time order.
. "$(dirname "$0")/lib.sh"

for f in $(perf_files "$TD" "$PD_CORPUS/google_perf_data_converter/src/quipper/testdata" | head -40); do
	"$PD_BIN/pd-info" -q --stats "$f" >"$tmp/a" 2>/dev/null || continue
	cat "$f" | "$PD_BIN/pd-info" -q --stats - >"$tmp/b" 2>/dev/null
	check "stdin equals file: $(basename "$f")" cmp -s "$tmp/a" "$tmp/b"
done

for f in $(perf_files "$TD" "$PD_CORPUS/google_perf_data_converter/src/quipper/testdata" | head -40); do
	"$PD_BIN/pd-info" -q --dump --ordered "$f" >"$tmp/d" 2>/dev/null || continue
	# timestamps of records that have one never go backwards
	if awk '$1 ~ /^0x/ && $3 ~ /^[0-9]+$/ { if ($3 + 0 < last) bad = 1; last = $3 + 0 } END { exit bad }' "$tmp/d"; then
		ok "ordered dump is in time order: $(basename "$f")"
	else
		not_ok "ordered dump is in time order: $(basename "$f")"
	fi
	"$PD_BIN/pd-info" -q --dump "$f" | wc -l >"$tmp/n1"
	wc -l <"$tmp/d" >"$tmp/n2"
	check "ordered dump has every record: $(basename "$f")" cmp -s "$tmp/n1" "$tmp/n2"
done

# The pipe's end-of-features marker carries the writer's last feature id,
# which is not that feature: --dump says what it is (perf 6.1's id 32,
# ours for 4.18: id 23 with 8 zero bytes)
"$PD_BIN/pd-info" --dump "$TD/pipe.data" 2>/dev/null | grep FEATURE | tail -1 >"$tmp/m"
check "pipe.data: the last FEATURE is shown as the end of the features (id 32)" \
	grep -q 'PERF_RECORD_FEATURE(misc 0) end of the features (id 32)$' "$tmp/m"
"$PD_BIN/pd-convert" -q --pipe --target-perf=4.18 "$TD/fp.data" -o "$tmp/p418.data"
"$PD_BIN/pd-info" --dump "$tmp/p418.data" 2>/dev/null | grep FEATURE >"$tmp/m"
check "a pipe for perf 4.18: its 24-byte marker is the end of the features (id 23)" \
	sh -c 'tail -1 "$1" | grep -q "\[0x18\]: PERF_RECORD_FEATURE(misc 0) end of the features (id 23)$" &&
		! grep -q "(CLOCKID)" "$1"' - "$tmp/m"
