#!/bin/sh
# Writes NAME.plain.folded and NAME.all-tid.folded for the system-wide
# recordings: what perf script | stackcollapse-perf.pl (plain, and with
# --all --tid) fold them to, with the recording kernel's kallsyms
# (kallsyms/<build-id>, see trim-kallsyms.sh) and no user-space files (an
# empty --symfs), so that they fold the same on any machine.
# tests/t0084-fold-system.sh compares pd-fold with them.
#
# Usage: PD_STACKCOLLAPSE=/path/to/stackcollapse-perf.pl ./fold-system.sh
# (record.sh runs it after trim-kallsyms.sh)
set -eu
cd "$(dirname "$0")"
sc=${PD_STACKCOLLAPSE:?set PD_STACKCOLLAPSE to FlameGraph\'s stackcollapse-perf.pl}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/empty"
for name in system system-switch; do
	bid=$(perf buildid-list -i "$name.data" 2>/dev/null </dev/null |
		awk '$2 == "[kernel.kallsyms]" { print $1; exit }')
	perf script --symfs="$tmp/empty" --kallsyms="kallsyms/$bid" \
		-i "$name.data" >"$tmp/ps" 2>/dev/null </dev/null
	perl "$sc" "$tmp/ps" >"$name.plain.folded"
	perl "$sc" --all --tid "$tmp/ps" >"$name.all-tid.folded"
	echo "$name: $(wc -l <"$name.plain.folded") and $(wc -l <"$name.all-tid.folded") stacks"
done
