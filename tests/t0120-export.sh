#!/bin/sh
# pd-convert --to=FORMAT, each format checked by a reader nobody here
# wrote:
# - script: `perf script` itself, on every testdata file (the samples
#   with callchains; tracepoint fields summarized as "...");
# - bad input: a file cut in its header gives one error line and no
#   output file; --to with the rewrite options is bad usage.
. "$(dirname "$0")/lib.sh"

CONV=$PD_BIN/pd-convert

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): --to=script not compared"
else
	testdata_buildid_cache
	for f in "$TD"/*.data; do
		n=$(basename "$f" .data)
		[ "$n" = stat ] && continue
		perf script -i "$f" 2>/dev/null </dev/null | callchain_blocks |
			sed -E 's/^([^	].* [a-z0-9_]+:[a-z0-9_]+: ).+$/\1.../' >"$tmp/want"
		"$CONV" -q --to=script "$f" -o "$tmp/got" 2>"$tmp/err"
		rc=$?
		check "$n: --to=script is perf script ($(grep -c '^$' "$tmp/want") samples, rc $rc)" \
			cmp -s "$tmp/want" "$tmp/got"
		diff "$tmp/want" "$tmp/got" | head -4
	done
fi

# bad input: cut in the file header
head -c 100 "$TD/fp.data" >"$tmp/cut.data"
for fmt in script; do
	"$CONV" --to=$fmt "$tmp/cut.data" -o "$tmp/out.$fmt" 2>"$tmp/err"
	rc=$?
	check "$fmt: a cut header is status 1 ($rc), one error line naming the file, no output" \
		sh -c '[ '$rc' = 1 ] && [ "$(wc -l <"$1")" = 1 ] && grep -q "cut.data" "$1" && ! ls "$2"* "$3"/.out.* >/dev/null 2>&1' \
		sh "$tmp/err" "$tmp/out.$fmt" "$tmp"
done
"$CONV" --to=script --target-perf=6.1 "$TD/fp.data" >/dev/null 2>&1
check "--to with --target-perf is bad usage" test $? = 2
"$CONV" --to=nosuch "$TD/fp.data" >/dev/null 2>&1
check "--to=nosuch is bad usage" test $? = 2
"$CONV" --symfs=/ "$TD/fp.data" -o "$tmp/x" >/dev/null 2>&1
check "--symfs without --to is bad usage" test $? = 2
