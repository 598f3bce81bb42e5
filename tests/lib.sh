# Helpers for the shell tests: TAP output and common checks.
# Sourced by tests/t*.sh; PD_BIN, PD_TOP and PD_CORPUS come from run.sh.
: "${PD_TOP:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${PD_BIN:=$PD_TOP/build/bin}"
: "${PD_CORPUS:=$PD_TOP/../shared/corpus}"
TD=$PD_TOP/testdata
tap_n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
not_ok() { tap_n=$((tap_n + 1)); echo "not ok $tap_n - $*"; }
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n # skip $*"; }
check() { # check DESCRIPTION COMMAND...
	d=$1; shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}
have_perf() { command -v perf >/dev/null 2>&1; }

# Files perf.data-like under a directory (not oracles or text).
perf_files() {
	find "$@" -type f \( -name '*.data' -o -name 'perf.data.*' \) 2>/dev/null |
		grep -v -E '\.(buildids|pb_text|xz|txt|md)$' | sort
}
