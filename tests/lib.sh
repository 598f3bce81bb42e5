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
# Debian installs perf as perf_VERSION (perf_5.10), and /usr/bin/perf is a
# wrapper of another package (linux-base) that picks the running kernel's.
# Without perf on PATH, the first perf_* there stands in for it: a link
# named perf in a directory put first on PATH, so that the tests' own
# calls, command -v and perf's child processes all find it.
if ! command -v perf >/dev/null 2>&1; then
	_perf=$(IFS=:
		for _d in $PATH; do
			for _f in "$_d"/perf_*; do
				[ -f "$_f" ] && [ -x "$_f" ] && { echo "$_f"; exit 0; }
			done
		done)
	if [ -n "$_perf" ]; then
		mkdir -p "$tmp/perf-bin" && ln -s "$_perf" "$tmp/perf-bin/perf" &&
			PATH=$tmp/perf-bin:$PATH && export PATH
	fi
fi
have_perf() { command -v perf >/dev/null 2>&1; }
# perf_version: MAJOR.MINOR of the perf tests compare with ("5.10");
# perf_older_than X.Y: whether it is older. Expectations that depend on
# what a perf version reads or prints ask these.
perf_version() {
	perf version 2>/dev/null |
		sed -n 's/^perf version \([0-9]*\.[0-9]*\).*/\1/p'
}
perf_older_than() {
	_v=$(perf_version)
	[ -n "$_v" ] || return 1
	[ "${_v%%.*}" -lt "${1%%.*}" ] ||
		{ [ "${_v%%.*}" -eq "${1%%.*}" ] && [ "${_v#*.}" -lt "${1#*.}" ]; }
}
# The browser tests drive headless Chromium through chromedriver
# (tests/tools/webdriver.mjs, Node's fetch); Debian: chromium chromium-driver nodejs.
have_browser() {
	command -v node >/dev/null 2>&1 &&
		command -v "${PD_CHROMEDRIVER:-chromedriver}" >/dev/null 2>&1 &&
		[ -x "${PD_CHROMIUM:-/usr/bin/chromium}" ]
}

# The recordings name testdata's programs by the path they were recorded
# at (/work/main/testdata/bin/...), not this checkout's: a private
# build-id cache holding them lets perf, and our symbolizer, find them by
# build id wherever the checkout is.
testdata_buildid_cache() {
	PERF_BUILDID_DIR=$tmp/buildid-cache
	# perf reads its cache at buildid.dir of its config, else
	# ~/.debug: PERF_BUILDID_DIR only tells perf's child processes
	# where it is. A private config ($PERF_CONFIG) points it here.
	printf '[buildid]\n\tdir = %s\n' "$PERF_BUILDID_DIR" >"$tmp/perfconfig"
	PERF_CONFIG=$tmp/perfconfig
	export PERF_BUILDID_DIR PERF_CONFIG
	mkdir -p "$PERF_BUILDID_DIR"
	for _b in "$TD"/bin/*; do
		perf buildid-cache -a "$_b" 2>/dev/null ||
			echo "# perf buildid-cache -a $_b failed" >&2
	done
	# the recording kernels' symbols, trimmed to what the samples need
	# (testdata/trim-kallsyms.sh), where perf looks for the kallsyms of
	# a kernel that is not the running one
	for _k in "$TD"/kallsyms/*; do
		[ -f "$_k" ] || continue
		mkdir -p "$PERF_BUILDID_DIR/[kernel.kallsyms]/${_k##*/}"
		cp "$_k" "$PERF_BUILDID_DIR/[kernel.kallsyms]/${_k##*/}/kallsyms"
	done
}

# perf script's samples with callchains, from its text on stdin: a
# header line, frame lines (tab-indented), a blank line; one-line samples
# (no callchain) left out. What pd-fold --script prints.
callchain_blocks() {
	awk '
	function flush() { if (h != "" && n) printf "%s", buf; h = ""; buf = ""; n = 0 }
	/^\t/ { if (h != "") { buf = buf $0 "\n"; n++ }; next }
	/^$/ { if (h != "") { buf = buf "\n"; n++; flush() }; next }
	{ flush(); h = $0; buf = $0 "\n"; n = 0 }
	END { flush() }'
}

# Files perf.data-like under a directory (not oracles or text).
perf_files() {
	find "$@" -type f \( -name '*.data' -o -name 'perf.data.*' \) 2>/dev/null |
		grep -v -E '\.(buildids|pb_text|xz|txt|md)$' | sort
}

# The oracle comparisons, shared by the tests that run them on the
# original files (t0010, t0040) and on converted copies (t0015).

# perf_stats_check FILE NAME: "ok" when pd-info --stats prints what perf
# report --stats prints for FILE. Returns 1 without a TAP line when perf
# does not read the whole file (then there is nothing to compare with).
perf_stats_check() {
	perf report --stats -i "$1" >"$tmp/perf.out" 2>"$tmp/perf.err" </dev/null
	if [ $? -ne 0 ] || ! grep -q 'Aggregated stats' "$tmp/perf.out" ||
	   grep -q -E 'failed to process|Failed to process|unknown events|incompatible' "$tmp/perf.err" "$tmp/perf.out"; then
		return 1
	fi
	sed -n '/Aggregated stats/,$p' "$tmp/perf.out" >"$tmp/want"
	"$PD_BIN/pd-info" -q --stats "$1" >"$tmp/got.all" 2>"$tmp/err"
	_rc=$?
	sed -n '/Aggregated stats/,$p' "$tmp/got.all" >"$tmp/got"
	if [ $_rc -eq 0 ] && cmp -s "$tmp/want" "$tmp/got"; then
		ok "stats equal perf: $2"
	else
		not_ok "stats equal perf: $2 (rc $_rc)"
		diff "$tmp/want" "$tmp/got" | head -10
	fi
	return 0
}

# pd-info's header view without the lines perf 6.1 does not print: build
# ids, tracing data, features newer than perf 6.1 (never listed missing).
header_ours() {
	sed -E -e '/^# build id : /d' -e '/^# tracing data : /d' \
	    -e '/^# tracepoint : /d' -e '/^# unknown feature /d' \
	    -e '/^# (e_machine|cache line size|schedstat version|maximum sched domains|cpu [0-9]+ domain) /d' \
	    -e '/^# missing features: /s/CPU_DOMAIN_INFO |E_MACHINE |CLN_SIZE //g' "$1"
}

# perf 6.1 byte-swaps only the attr fields its perf_event__attr_swap()
# (util/session.c) lists: clockid and sample_regs_intr are not among them,
# so in a file of the other byte order it prints them still swapped. For
# such a file the expected values of these two come from perf's view of
# the same file in host order (ORIG_OUT), line for line.
unswapped_attr_fix() { # ORIG_OUT OTHER_ORDER_OUT
	awk 'FNR == NR {
		if ($0 ~ /^# event : /) {
			n++
			for (i = 1; i <= 2; i++) {
				f = i == 1 ? "clockid" : "sample_regs_intr"
				if (match($0, ", " f " = [^,]*"))
					v[n, f] = substr($0, RSTART, RLENGTH)
			}
		}
		next
	}
	/^# event : / {
		m++
		for (i = 1; i <= 2; i++) {
			f = i == 1 ? "clockid" : "sample_regs_intr"
			if ((m, f) in v && match($0, ", " f " = [^,]*"))
				$0 = substr($0, 1, RSTART - 1) v[m, f] substr($0, RSTART + RLENGTH)
		}
	}
	{ print }' "$1" "$2"
}

# perf_header_check FILE NAME [ORIG]: "ok" when pd-info's header view of
# FILE equals perf report --header-only -I. ORIG is given when FILE is ORIG
# in the other byte order (see unswapped_attr_fix). Returns 1 without a
# TAP line when perf complains about the header.
perf_header_check() {
	perf report --header-only -I -i "$1" >"$tmp/perf.out" 2>"$tmp/perf.err" </dev/null
	if [ $? -ne 0 ] || ! grep -q '^# ========' "$tmp/perf.out" || [ -s "$tmp/perf.err" ]; then
		return 1
	fi
	if [ -n "${3:-}" ]; then
		perf report --header-only -I -i "$3" >"$tmp/perf.orig" 2>/dev/null </dev/null
		unswapped_attr_fix "$tmp/perf.orig" "$tmp/perf.out" >"$tmp/perf.fixed"
		mv "$tmp/perf.fixed" "$tmp/perf.out"
	fi
	"$PD_BIN/pd-info" -q "$1" >"$tmp/got.all" 2>"$tmp/err"
	_rc=$?
	header_ours "$tmp/got.all" >"$tmp/got"
	if [ $_rc -eq 0 ] && cmp -s "$tmp/perf.out" "$tmp/got"; then
		ok "header equals perf: $2"
	else
		not_ok "header equals perf: $2 (rc $_rc)"
		diff "$tmp/perf.out" "$tmp/got" | head -10
	fi
	return 0
}
