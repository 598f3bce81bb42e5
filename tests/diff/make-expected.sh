#!/bin/sh
# Writes NAME.out for every case in ./cases: FlameGraph's difffolded.pl
# on the pair, sorted bytewise (the script prints in Perl's hash order).
#
#   PD_DIFFFOLDED=/path/to/FlameGraph/difffolded.pl tests/diff/make-expected.sh
#
# The .out files here were made so with FlameGraph 41fee1f99f92 (2024-10-21)
# and perl 5.36.0. Nothing of FlameGraph is committed here.
set -eu
cd "$(dirname "$0")"
: "${PD_DIFFFOLDED:?set PD_DIFFFOLDED to difffolded.pl}"
: "${PD_CORPUS:=../../../shared/corpus}"
fg=$PD_CORPUS/brendangregg_FlameGraph/test/results
path() { case $1 in fg:*) echo "$fg/${1#fg:}.txt" ;; *) echo "$1" ;; esac; }
grep -v '^#' cases | while read -r name opts a b; do
	[ "$opts" = - ] && opts= || opts=$(printf '%s' "$opts" | tr , ' ')
	# shellcheck disable=SC2086
	perl "$PD_DIFFFOLDED" $opts "$(path "$a")" "$(path "$b")" 2>/dev/null |
		LC_ALL=C sort >"$name.out"
	echo "$name.out"
done
