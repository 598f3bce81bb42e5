#!/bin/sh
# make static: each pd-* tool is one file that runs with nothing else
# installed. In an empty root (a directory holding only the tool, a
# perf.data and the program it profiled, entered with chroot) pd-info
# --stats and pd-fold print what the dynamically linked tools print;
# pd-record's static build records a program that pd-fold then names.
. "$(dirname "$0")/lib.sh"
private_buildid_cache

B=${PD_BIN%/bin}
if [ -n "${PD_SAN:-}" ]; then
	skip "sanitizer build: sanitizers link dynamically; the plain build's run checks make static"
	exit 0
fi
if ! printf 'int main(void) { return 0; }\n' |
	${CC:-cc} -static -x c -o "$tmp/probe" - 2>/dev/null; then
	skip "no static C library here (Debian: libc6-dev): make static not checked"
	exit 0
fi
make -s -C "$PD_TOP" B="$B" -j2 static >"$tmp/make.log" 2>&1
rc=$?
grep -v "warning: Using 'dlopen'\|in function \`" "$tmp/make.log" | sed 's/^/# /' | tail -5
check "make static succeeds" [ $rc -eq 0 ]
S=$B/static
for t in "$PD_BIN"/pd-*; do
	t=${t##*/}
	check "make static: $t is statically linked" \
		sh -c "[ -x '$S/$t' ] && ! LC_ALL=C readelf -l '$S/$t' | grep -q 'Requesting program interpreter'"
done

# An empty root: the two tools, the recording, and the program it
# profiled at the path the recording names.
root=$tmp/root
mkdir -p "$root/work/main/testdata/bin"
cp "$S/pd-info" "$S/pd-fold" "$TD/fp.data" "$root/"
cp "$TD/bin/burn" "$root/work/main/testdata/bin/"
enter() { # enter ROOT CMD...: run CMD with ROOT as /
	if [ "$(id -u)" -eq 0 ]; then
		chroot "$@"
	else
		unshare -r chroot "$@"
	fi
}
if enter "$root" /pd-info --version >/dev/null 2>&1 ||
	enter "$root" /pd-info --help >/dev/null 2>&1; then
	(cd "$TD" && "$PD_BIN/pd-info" --stats fp.data) >"$tmp/want" 2>&1
	enter "$root" /pd-info --stats fp.data >"$tmp/got" 2>&1
	check "empty root: pd-info --stats prints what the dynamic build prints ($(grep -c events "$tmp/want") lines of counts)" \
		sh -c "grep -q 'SAMPLE events' '$tmp/got' && cmp -s '$tmp/want' '$tmp/got'"
	"$PD_BIN/pd-fold" --symfs="$root" "$TD/fp.data" >"$tmp/want" 2>"$tmp/want.err"
	enter "$root" /pd-fold /fp.data >"$tmp/got" 2>"$tmp/got.err"
	check "empty root: pd-fold folds as the dynamic build, functions named (main;run;outer;middle;inner_hot)" \
		sh -c "grep -q 'main;run;outer;middle;inner_hot' '$tmp/got' && cmp -s '$tmp/want' '$tmp/got'"
	check "empty root: pd-fold warns of nothing" [ ! -s "$tmp/got.err" ]
	sed 's/^/# /' "$tmp/got.err" | head -3
else
	skip "chroot is not permitted here (neither root nor user namespaces): empty root not entered"
fi

if "$S/pd-record" -q -o "$tmp/probe.data" -- true 2>"$tmp/probe.err"; then
	"$S/pd-record" -q -g -o "$tmp/rec.data" -- "$TD/bin/burn" 100 2>"$tmp/rec.err"
	check "static pd-record records a program" [ $? -eq 0 ]
	"$S/pd-fold" "$tmp/rec.data" >"$tmp/rec.fold" 2>/dev/null
	check "static pd-fold names its hot path (inner_hot)" grep -q 'main;run;outer;middle;inner_hot' "$tmp/rec.fold"
else
	skip "perf_event_open not permitted here: $(head -1 "$tmp/probe.err")"
fi

echo "1..$tap_n"
