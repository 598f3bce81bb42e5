#!/bin/sh
# make fuzz: runs each libFuzzer target given for FUZZ_TIME seconds, one
# at a time, niced, on a corpus that grows in $B/corpus/TARGET (seeded by
# seed.sh) plus the target's regression cases. A crash leaves its input in
# $B/crash/TARGET/; keep it as a regression case:
#   cp $B/crash/TARGET/crash-* tests/fuzz/regress/TARGET/
# Run times are appended to $B/fuzz-times (target, seconds, result).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${B:-build-fuzz}
: "${FUZZ_TIME:=60}"
failed=
LSAN_OPTIONS=suppressions=$top/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}
export LSAN_OPTIONS
for t in "$@"; do
	corpus=$B/corpus/$t
	crash=$B/crash/$t
	regress=$top/tests/fuzz/regress/$t
	mkdir -p "$corpus" "$crash" "$regress"
	if [ -z "$(ls -A "$corpus")" ]; then
		"$top/tests/fuzz/seed.sh" "$t" "$corpus" ||
			{ echo "fuzz: $t: seeding failed" >&2; failed="$failed $t"; continue; }
	fi
	echo "fuzz: $t for ${FUZZ_TIME}s"
	start=$(date +%s)
	nice -n 10 "$B/fuzz/bin/$t" -max_total_time="$FUZZ_TIME" -timeout=20 \
		-rss_limit_mb=2048 -max_len=262144 -print_final_stats=1 \
		-artifact_prefix="$crash/" "$corpus" "$regress" \
		>"$B/fuzz-$t.log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	grep -E '^(stat::number_of_executed_units|stat::new_units_added|Done )' \
		"$B/fuzz-$t.log" | sed "s/^/fuzz: $t: /"
	if [ $rc -ne 0 ]; then
		echo "fuzz: $t: FAILED (status $rc), input in $crash/, log $B/fuzz-$t.log" >&2
		grep -m 3 -E 'ERROR|SUMMARY|fuzz finding' "$B/fuzz-$t.log" >&2
		failed="$failed $t"
		echo "$t $secs failed" >>"$B/fuzz-times"
	else
		echo "$t $secs ok" >>"$B/fuzz-times"
	fi
done
if [ -n "$failed" ]; then
	echo "fuzz: findings in:$failed" >&2
	exit 1
fi
