#!/bin/sh
# --target-perf=PATH and =auto: the perf binary is probed (compat/probe.c)
# - probing this machine's perf 6.1 finds the facts of the 6.1 entry of
#   compat/targets.c: converting for auto, for the path and for 6.1
#   gives the same bytes;
# - the result is cached by the binary (a wrapper script: its bytes and
#   its perf's version), so a second conversion runs it only for
#   --version;
# - --explain names the probed perf; something that is not a perf is
#   refused with one line, exit 2.
# The distro perfs are probed in tests/distro/t-newer-perf.sh. Another
# perf than 6.1 here (Debian 11's perf 5.10, built without zstd) is
# probed the same way and must give its own target's conversion (5.10,
# records decompressed).
. "$(dirname "$0")/lib.sh"

if ! have_perf; then
	skip "no perf on this machine: nothing to probe"
	echo "1..$tap_n"
	exit 0
fi
XDG_CACHE_HOME=$tmp/cache
TMPDIR=$tmp/t
export XDG_CACHE_HOME TMPDIR
mkdir -p "$TMPDIR"
P=$(command -v perf)
conv() { "$PD_BIN/pd-convert" "$@"; }
# the perf here: its version, its target, and decompression without zstd
V=$(perf_version)
T=$(perf_target)
dz=
perf version --build-options 2>/dev/null | grep -q 'zstd: \[ OFF' && dz=--decompress

for f in fp zstd pipe multi tracepoint switch buildid-mmap; do
	conv -q --target-perf="$T" $dz "$TD/$f.data" -o "$tmp/want.data" 2>/dev/null
	conv -q --target-perf=auto "$TD/$f.data" -o "$tmp/auto.data" 2>"$tmp/err"
	check "$f: --target-perf=auto (perf $V) writes what --target-perf=$T${dz:+ $dz} writes" \
		sh -c "[ -s '$tmp/want.data' ] && cmp -s '$tmp/want.data' '$tmp/auto.data' && [ ! -s '$tmp/err' ]"
	conv -q --target-perf="$P" "$TD/$f.data" -o "$tmp/path.data" 2>/dev/null
	check "$f: --target-perf=$P the same" cmp -s "$tmp/want.data" "$tmp/path.data"
done
check "the probe's result is cached by the binary's build id" \
	sh -c "ls '$XDG_CACHE_HOME/perfdata/' | grep -q -E '^perf-[0-9a-f]{40}\$'"
check "no probe file left in \$TMPDIR" sh -c "[ -z \"\$(ls -A '$TMPDIR')\" ]"
# perf 6.1 takes a kernel MMAP2 for the kernel map and knows attr flag
# bits 0-37 (up to sigtrap), as the 6.1 entry says: found, not inherited.
# Debian 11's perf 5.10 makes no kernel map of an MMAP2 (5.11 began to)
# and knows bits 0-33 (up to text_poke; build_id, 34, came with 5.12).
cat "$XDG_CACHE_HOME"/perfdata/perf-* >"$tmp/cached"
if perf_older_than 5.11; then
	check "the probe finds perf $V makes no kernel map of an MMAP2" \
		grep -q '^the kernel map as an MMAP2: no kernel map' "$tmp/cached"
else
	check "the probe finds perf $V makes the kernel map of an MMAP2" \
		grep -q '^the kernel map as an MMAP2: taken for the kernel map' "$tmp/cached"
fi
bits=37
[ "$V" = 5.10 ] && bits=33
check "the probe finds perf $V's attr flag bits 0-$bits" \
	grep -q "^attr flag bits: 0-$bits known, $((bits + 1)) warned of" "$tmp/cached"

# a wrapper that counts its runs
printf '#!/bin/sh\necho run >>"%s"\nexec "%s" "$@"\n' "$tmp/runs" "$P" >"$tmp/perf-wrapper"
chmod +x "$tmp/perf-wrapper"
conv --explain --target-perf="$tmp/perf-wrapper" "$TD/fp.data" >"$tmp/explain" 2>&1
n1=$(wc -l <"$tmp/runs")
check "--explain names the probed perf and its nearest target" \
	grep -q "^target: perf $(echo "$V" | sed 's/\./\\./')\.[0-9]* at $tmp/perf-wrapper, probed (nearest known target $(echo "$T" | sed 's/\./\\./')[,)]" "$tmp/explain"
conv -q --target-perf="$tmp/perf-wrapper" "$TD/fp.data" -o "$tmp/w.data"
n2=$(wc -l <"$tmp/runs")
check "a wrapper script is probed once ($n1 runs), then only asked its version ($((n2 - n1)) run)" \
	[ "$n1" -gt 10 ] && [ $((n2 - n1)) -eq 1 ]
conv -q --target-perf="$T" $dz "$TD/fp.data" -o "$tmp/want.data" 2>/dev/null
check "the wrapper's conversion is the $T one" cmp -s "$tmp/want.data" "$tmp/w.data"

# a perf at a path longer than a target's name holds (63 bytes): named
# "..." and the path's end inside; --explain cites the path whole
long=$tmp/a-directory-whose-name-is-long/and-below-it/another-level/of-directories
mkdir -p "$long" && ln -s "$tmp/perf-wrapper" "$long/perf"
conv --explain --target-perf="$long/perf" "$TD/fp.data" >"$tmp/explain" 2>&1
conv -q --target-perf="$long/perf" "$TD/fp.data" -o "$tmp/l.data"
check "a perf at a path of $(printf %s "$long/perf" | wc -c) bytes: --explain cites it whole, and it converts as $T" \
	sh -c "grep -qF 'reads as: $long/perf: perf ' '$tmp/explain' && cmp -s '$tmp/want.data' '$tmp/l.data'"
grep -F 'reads as: ' "$tmp/explain" | head -1 | cut -c1-200 | sed 's/^/# /'

conv -q --target-perf=/bin/true "$TD/fp.data" -o "$tmp/x.data" 2>"$tmp/err"
rc=$?
check "/bin/true is no perf: exit 2, nothing written" sh -c "[ $rc -eq 2 ] && [ ! -e '$tmp/x.data' ]"
check "... with a line naming it" grep -q '/bin/true' "$tmp/err"
conv -q --target-perf="$tmp/no-such-perf" "$TD/fp.data" -o "$tmp/x.data" 2>"$tmp/err"
check "a missing binary: exit 2" [ $? -eq 2 ]
echo "1..$tap_n"
