#!/bin/sh
# The Python module perfdata (libperfdata/python/, docs/python.md): the
# tests of tests/python/, under pytest where it is installed (Debian:
# python3-pytest), else under tests/python/run.py; each test's result is
# a TAP line here. Their oracles are the system perf (perf script, perf
# report) and pd-fold, with testdata's programs in a private build-id
# cache, as the other tests have them.
. "$(dirname "$0")/lib.sh"

PY=${PYTHON:-python3}
# A sanitizer build's module (make sanitize, make asan) is instrumented
# and the interpreter is not: the interpreter runs with ASan's runtime
# loaded first ($RUN: LD_PRELOAD), without its leak report (the
# interpreter frees little at exit); UBSan's comes with the module.
asan_preload() {
	RUN=
	case ${PD_SAN:-} in *address*) ;; *) return 0 ;; esac
	_rt=$(${CC:-cc} -print-file-name=libasan.so 2>/dev/null)
	case $_rt in /*) [ -f "$_rt" ] || return 1 ;; *) return 1 ;; esac
	RUN="env LD_PRELOAD=$_rt ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
}
B=${PD_BIN%/bin}
mod=$(ls "$B"/python/perfdata*.so 2>/dev/null | head -n 1)
if ! command -v "$PY" >/dev/null 2>&1; then
	skip "no $PY (Debian: apt-get install python3): the module perfdata not tested"
elif [ -z "$mod" ]; then
	skip "the module perfdata is not built: make python (Debian: apt-get install python3-dev)"
elif ! asan_preload; then
	skip "the module perfdata in a sanitizer build ($PD_SAN) needs ASan's runtime preloaded into $PY: not found"
else
	# make install puts it where the interpreter finds a PREFIX's modules
	make -s -C "$PD_TOP" B="$B" PYTHON="$PY" install DESTDIR="$tmp/root" \
		PREFIX=/opt/pd >"$tmp/install.log" 2>&1
	check "make install succeeds" [ $? -eq 0 ]
	site=$(find "$tmp/root/opt/pd/lib" -name 'perfdata*.so' 2>/dev/null | head -n 1)
	check "make install installs the module (${site:-none})" [ -n "$site" ]
	site=${site%/*}
	# where PREFIX is on the interpreter's path: the path it has for it
	want=$("$PY" -c 'import sys, sysconfig; v = sys.version_info
print("/opt/pd/lib/python%d.%d/%s" % (v[0], v[1], "dist-packages" if any(p.endswith("dist-packages") for p in sys.path) else "site-packages"))')
	check "in $want" [ "${site#"$tmp/root"}" = "$want" ]
	check "the installed module imports and reads a file alone" \
		$RUN env PYTHONPATH="$site" "$PY" -S -c "import perfdata, sys; assert perfdata.__file__.startswith('$site'); sys.exit(sum(1 for _ in perfdata.open('$TD/fp.data').samples()) != 300)"
	make -s -C "$PD_TOP" B="$B" PYTHON="$PY" uninstall DESTDIR="$tmp/root" \
		PREFIX=/opt/pd >/dev/null 2>&1
	check "make uninstall removes it" [ ! -e "$site/perfdata${mod##*/perfdata}" ]

	have_perf && testdata_buildid_cache
	PYTHONPATH=$B/python${PYTHONPATH:+:$PYTHONPATH}
	# no __pycache__ in the tree
	PYTHONDONTWRITEBYTECODE=1
	export PYTHONPATH PD_BIN PD_TOP PYTHONDONTWRITEBYTECODE
	cd "$tmp" || exit 1
	if "$PY" -c 'import pytest' 2>/dev/null; then
		# -rA: a line per test, which becomes its TAP line
		$RUN "$PY" -m pytest -rA -q -p no:cacheprovider -p no:warnings \
			"$PD_TOP/tests/python" >"$tmp/out" 2>&1
		rc=$?
		awk '
		/^PASSED / { print "ok - " $2 }
		/^(FAILED|ERROR) / { print "not ok - " $2 }
		/^SKIPPED \[[0-9]+\] / {
			n = substr($2, 2, length($2) - 2) + 0
			why = $0; sub(/^SKIPPED \[[0-9]+\] [^ ]* /, "", why)
			at = $3; sub(/.*\//, "", at)
			for (i = 0; i < n; i++) print "ok - " at " # skip " why
		}' "$tmp/out" >"$tmp/tap"
		cat "$tmp/tap"
		tap_n=$(wc -l <"$tmp/tap")
		if [ "$rc" -ne 0 ]; then
			grep -q '^not ok' "$tmp/tap" || { tap_n=$((tap_n + 1)); echo "not ok $tap_n - pytest exited $rc"; }
			sed 's/^/# /' "$tmp/out" | head -n 200
		fi
	else
		skip "pytest not installed (Debian: apt-get install python3-pytest): tests/python/run.py runs the tests"
		$RUN "$PY" "$PD_TOP/tests/python/run.py" "$PD_TOP/tests/python" >"$tmp/tap" 2>&1
		cat "$tmp/tap"
		tap_n=$((tap_n + $(grep -c '^\(not \)\{0,1\}ok ' "$tmp/tap")))
	fi
fi
echo "1..$tap_n"
