#!/bin/sh
# pd-flame's SVG in a browser (headless Chromium through chromedriver,
# tests/tools/webdriver.mjs; the checks are in tests/flame/browser.mjs):
# hovering shows a frame's name, count and share; clicking a frame zooms
# (it spans the width, its children scale, its ancestors are dimmed,
# frames outside its subtree are hidden); Reset Zoom and the root undo
# it; searching (from script, the Search button's prompt, ?s=REGEX)
# highlights matches and reports the share of the counts under them,
# which must equal the share worked out from the folded input, in the
# whole graph and in a zoom. A screenshot of the default view is kept in
# $B/test-artifacts/flame-default.png.
. "$(dirname "$0")/lib.sh"

if ! have_browser; then
	skip "node, chromedriver or chromium missing (apt-get install chromium chromium-driver nodejs): SVG not tried in a browser"
	exit 0
fi

# a profile whose shares are easy to state
cat >"$tmp/small.folded" <<'END'
main;alpha;work 30
main;alpha;idle 10
main;beta;work 25
main;beta;sleep 15
other;work 20
END
"$PD_BIN/pd-flame" "$tmp/small.folded" >"$tmp/small.svg"

# a real one, nothing left out (--minwidth=0), and the share of the
# samples whose stack has a frame matching the regex, from the folded lines
re=worker
"$PD_BIN/pd-flame" --minwidth=0 "$PD_TOP/tests/flame/threads.folded" >"$tmp/real.svg"
share=$(awk -v re="$re" '{
	n = $NF; s = $0; sub(/ [0-9.]+$/, "", s)
	k = split(s, fr, ";"); hit = 0
	for (i = 1; i <= k; i++) if (fr[i] ~ re) hit = 1
	total += n; if (hit) m += n
} END { printf "%.2f", 100 * m / total }' "$PD_TOP/tests/flame/threads.folded")
case $share in 0.00 | 100.00) not_ok "the real profile's share of '$re' is $share: no test" ;; esac

art=$PD_BIN/../test-artifacts
mkdir -p "$art"
node "$PD_TOP/tests/flame/browser.mjs" "$tmp/small.svg" "$tmp/real.svg" "$re" "$share" \
	"$art/flame-default.png" >"$tmp/out" 2>"$tmp/err"
rc=$?
while IFS='|' read -r st what detail; do
	case $st in
	ok) ok "$what" ;;
	"not ok") not_ok "$what"; echo "# $detail" ;;
	esac
done <"$tmp/out"
if [ "$rc" -ne 0 ]; then
	not_ok "browser script failed (exit $rc)"
	sed 's/^/# /' "$tmp/err" | head -20
fi
check "screenshot of the default view kept: $(cd "$art" && pwd)/flame-default.png" \
	sh -c "[ -s '$art/flame-default.png' ] && head -c 8 '$art/flame-default.png' | grep -q PNG"
