#!/bin/sh
# Runs every test: the unit test programs built in $B/tests and the shell
# tests tests/t*.sh; or only the shell tests given as arguments. Each prints TAP lines ("ok N - what", "not ok N - what",
# "ok N # skip why"); this counts them and ends with "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$top/$B ;; esac
export PD_BIN="$B/bin" PD_TOP="$top" PD_CORPUS="${PD_CORPUS:-$top/../shared/corpus}"
pass=0 fail=0 skip=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

run_one() {
	name=$1; shift
	"$@" >"$log" 2>&1
	rc=$?
	p=$(grep -c '^ok ' "$log" | tr -d ' ')
	s=$(grep -c '^ok .*# [Ss][Kk][Ii][Pp]' "$log" | tr -d ' ')
	f=$(grep -c '^not ok ' "$log" | tr -d ' ')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "not ok - $name exited with status $rc" >>"$log"
	fi
	pass=$((pass + p - s)); skip=$((skip + s)); fail=$((fail + f))
	if [ "$f" -ne 0 ]; then
		echo "FAIL $name"
		grep -v '^ok ' "$log" | head -40 | sed 's/^/    /'
	else
		echo "ok   $name ($((p - s)) passed${s:+, $s skipped})" | sed 's/, 0 skipped//'
		grep '# [Ss][Kk][Ii][Pp]' "$log" | sort -u | head -5 | sed 's/^/    /'
	fi
}

if [ $# -gt 0 ]; then
	# the shell tests named (make distro-check: tests/distro/t-*.sh)
	for t in "$@"; do
		run_one "$(basename "$t")" sh "$t"
	done
else
	# (the unit tests read testdata too: dated as tests/lib.sh dates it)
	touch -c -d '2001-01-01 00:00:00' "$top"/testdata/*.data \
		"$top"/testdata/newer/*.data 2>/dev/null
	for t in "$B"/tests/test-*; do
		[ -x "$t" ] || continue
		run_one "$(basename "$t")" "$t"
	done
	for t in "$top"/tests/t[0-9]*.sh; do
		[ -f "$t" ] || continue
		run_one "$(basename "$t")" sh "$t"
	done
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
