# Helpers for the shell tests: TAP output and common checks.
# Sourced by tests/t*.sh; PD_BIN, PD_TOP and PD_CORPUS come from run.sh.
: "${PD_TOP:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${PD_BIN:=$PD_TOP/build/bin}"
: "${PD_CORPUS:=$PD_TOP/../shared/corpus}"
TD=$PD_TOP/testdata
tap_n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# testdata's recordings are copies, dated when they were checked out; on
# a machine made from the image that recorded them, that date can fall
# when, by this boot's clock, a recording ended, and the tools would take
# it for one made here (session-origin.c). They are dated long ago.
touch -c -d '2001-01-01 00:00:00' "$TD"/*.data "$TD"/newer/*.data 2>/dev/null

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

# Debian 11's perf_5.10, in the bullseye chroot make distro-check keeps
# (tests/distro/): bullseye_perf_why prints why it cannot run here
# (nothing when it can); bullseye_dir NAME makes a scratch directory in
# the chroot, $bd here and $in the same seen from inside, removed on exit;
# p510 ARG... runs perf_5.10 there with this machine's /proc (perf script
# reads its own maps), in a mount namespace of its own: the chroot, which
# others use, stays as it is. PERF_CONFIG is $in/perfconfig when the test
# writes one.
BULL=${PD_BULLSEYE_ROOT:-/var/cache/perfdata-distro/bullseye-build}
bullseye_perf_why() {
	if [ ! -x "$BULL/usr/bin/perf_5.10" ]; then
		echo "no Debian 11 chroot with perf_5.10 at $BULL (make distro-check makes one)"
	elif [ "$(id -u)" -ne 0 ] ||
	     ! unshare -m chroot "$BULL" perf_5.10 version >/dev/null 2>&1; then
		echo "cannot run perf_5.10 in $BULL (needs root, chroot and unshare)"
	fi
}
bullseye_dir() {
	bd=$(mktemp -d "$BULL/tmp/$1.XXXXXX")
	trap 'rm -rf "$tmp" "$bd"' EXIT
	in=/tmp/${bd##*/}
}
p510() {
	_cfg=
	[ -f "$bd/perfconfig" ] && _cfg=PERF_CONFIG=$in/perfconfig
	unshare -m sh -c 'mount --bind /proc "$0/proc" && exec chroot "$0" "$@"' \
		"$BULL" env -i PATH=/usr/bin:/bin HOME=/root $_cfg perf_5.10 "$@"
}

# perf_target: the pd-convert --target-perf for the perf compared with:
# its version, or the newest upstream target before it.
perf_target() {
	"$PD_BIN/pd-convert" --list-targets 2>/dev/null | awk -v v="$(perf_version)" '
		function num(s, a) { split(s, a, "."); return a[1] * 1000 + a[2] }
		NR > 1 && $1 ~ /^[0-9]+\.[0-9]+$/ && num($1) <= num(v) &&
			num($1) > best { best = num($1); t = $1 }
		END { print t }'
}

# perf_unzstd FILE: FILE holds zstd-compressed records and the perf
# compared with was built without zstd (Debian 11's 5.10): it counts
# those records but cannot read what they hold.
perf_unzstd() {
	perf version --build-options 2>/dev/null | grep -q 'zstd: \[ OFF' &&
		"$PD_BIN/pd-info" -q --stats "$1" 2>/dev/null |
			grep -q -E '^ *COMPRESSED2? events:'
}

# perf_readable FILE: the path of FILE as the perf compared with reads it:
# FILE itself, or, when that perf refuses it as too new (perf 5.10 and
# testdata/'s 128-byte attrs of perf 6.1) or cannot decompress it, a copy
# pd-convert made for its version, as a user of that perf would. The
# oracle then judges our view of FILE by perf's view of the copy.
perf_readable() {
	_d=
	perf_unzstd "$1" && _d=--decompress
	# perf script: perf 5.10's report reads no samples of any pipe
	perf script -i "$1" >/dev/null 2>"$tmp/readable.err" </dev/null
	if [ $? -eq 0 ] && [ -z "$_d" ] &&
	   ! grep -q -E 'incompatible|unsupported|failed to process' "$tmp/readable.err"; then
		echo "$1"
		return
	fi
	_r=$tmp/readable.$(echo "$1" | tr / _)
	if [ -f "$_r" ] || "$PD_BIN/pd-convert" -q --target-perf="$(perf_target)" \
		$_d "$1" -o "$_r" 2>/dev/null; then
		echo "$_r"
	else
		echo "$1"
	fi
}

# folded_addrs_as_perf: the same for folded stacks with --addrs, whose
# unnamed frames hold the address perf script printed ("[dso <addr>]"),
# sorted again (the addresses ordered them).
folded_addrs_as_perf() {
	if perf_older_than 6.1; then
		awk -v offpage="${1:-/dev/null}" '
		BEGIN { while ((getline l < offpage) > 0) { sub(/.*\//, "", l); off[l] = 1 } }
		{
			out = ""; s = $0
			while (match(s, /\[[^][<]* <[0-9a-f]+>\]/)) {
				f = substr(s, RSTART, RLENGTH); d = f
				sub(/^\[/, "", d); sub(/ <.*/, "", d)
				a = f; sub(/.*</, "", a); sub(/>\]$/, "", a)
				a = (d in off) ? "" : substr("00" a, length(a))
				out = out substr(s, 1, RSTART - 1) "[" d " <..." a ">]"
				s = substr(s, RSTART + RLENGTH)
			}
			print out s
		}' | LC_ALL=C sort
	else
		cat
	fi
}

# not_elsewhere FILE: the warnings in FILE but those that the recording
# machine's files are not here: system libraries with another build id
# (testdata/ was recorded on Debian 12, whose libc a Debian 11 chroot does
# not have) and testdata's programs at the recorded path (/work/main/...)
# when the recording names no build id for them.
not_elsewhere() {
	grep -v -e 'has another build id than the recorded one' \
		-e '/testdata/bin/[^:]*: not found' "$1"
}

# elsewhere_unwound DATA ERRFILE: DATA has DWARF callchains (user stack
# copies) and pd-fold's warnings in ERRFILE say some system library it
# unwinds through is here in another build (testdata/'s Debian 12 libc in
# a Debian 11 chroot): perf unwinds with whatever file is at the path,
# pd-fold does not, so their callchains cannot be compared. The reason is
# printed, for a skip.
elsewhere_unwound() {
	grep -q 'has another build id than the recorded one' "$2" &&
		"$PD_BIN/pd-info" -q "$1" 2>/dev/null | grep -q '^# event : .*STACK_USER' &&
		echo "DWARF callchains through libraries this machine has other builds of ($(grep -m1 -o '[^ ]*: [^ ]* has another build id' "$2" | cut -d: -f1))"
}

# foreign_unwound DATA: DATA's samples carry user stack copies (DWARF
# callchains) recorded on another architecture than this machine's: perf
# here does not unwind them ("unwind: target platform=arm64 is not
# supported", or silently where it cannot read the binaries), pd-fold
# unwinds them as the recording machine's perf does (tests/t0175 compares
# it with the arm64 perf), so their callchains cannot be compared. The
# reason is printed, for a skip.
foreign_unwound() {
	_fa=$("$PD_BIN/pd-info" -q "$1" 2>/dev/null | sed -n 's/^# arch : //p')
	case $_fa in "" | "$(uname -m)") return 1 ;; esac
	"$PD_BIN/pd-info" -q -D "$1" 2>/dev/null |
		grep -q -m1 'PERF_RECORD_SAMPLE.* user_stack: [1-9]' || return 1
	echo "DWARF callchains of $_fa: perf on $(uname -m) does not unwind them, pd-fold does as $_fa's perf (t0175)"
}

# perf_script_file_addrs DATA PD-FOLD-OPTS [perf script options]: perf
# script's text of DATA (as that perf reads it) with each frame's address
# as perf 6.1 prints it, in the file mapped there: a perf older than 6.1
# prints the address the process saw, and a frame line of its output
# takes the address pd-fold --script PD-FOLD-OPTS prints for the same
# frame (the same symbol, offset and DSO; or for an unnamed one, the same
# DSO and page offset: see frame_addrs_as_perf). Symbols, offsets and
# everything else stay perf's.
perf_script_file_addrs() {
	_d=$1 _o=$2
	shift 2
	perf script -i "$(perf_readable "$_d")" "$@" 2>/dev/null </dev/null >"$tmp/psfa.perf"
	if ! perf_older_than 6.1; then
		cat "$tmp/psfa.perf"
		return
	fi
	"$PD_BIN/pd-fold" -q --script $_o "$_d" 2>/dev/null | grep '^	' >"$tmp/psfa.ours"
	awk 'function dso(l) { return l ~ /\)$/ ? substr(l, match(l, /\([^()]*\)$/)) : "" }
		FILENAME == ARGV[1] { ours[++n] = $0; next }
		function low(x) { return substr("00" x, length(x)) }
		/^\t *[0-9a-f]+ / && k < n {
			o = ours[++k]; a = $1
			split(o, of, " "); b = of[1]
			rest = $0; sub(/^\t *[0-9a-f]+/, "", rest)
			orest = o; sub(/^\t *[0-9a-f]+/, "", orest)
			if ((rest == orest && rest !~ /^ \[unknown\]/) ||
			    (dso($0) == dso(o) && low(a) == low(b)))
				$0 = sprintf("\t%16s%s", b, rest)
		}
		{ print }' "$tmp/psfa.ours" "$tmp/psfa.perf"
}

# perf before 6.1 (Debian 11's 5.10) prints a user frame's address in
# perf script as the process saw it; 6.1, and pd-fold --script, print it
# in the file mapped there. The two agree in the page offset (maps start
# on page boundaries at page-aligned file offsets): frame_addrs_as_perf
# keeps of an unnamed frame's address (a callchain's, or a sample's ip
# on its line) its last three hex digits, and of
# a named one none (its symbol and offset in its DSO say where it is; a
# JIT map of perf inject's starts mid-page), when perf is older, so the
# rest of the text is compared whole. A filter; its argument, a file of
# DSOs some map of which starts at another page offset than its file
# offset (perf_offpage_dsos), whose unnamed frames keep no address.
perf_offpage_dsos() { # DATA -> the DSOs, one a line
	perf script --show-mmap-events -i "$(perf_readable "$1")" 2>/dev/null </dev/null |
		awk '/PERF_RECORD_MMAP/ && match($0, /\[0x[0-9a-f]+\(0x[0-9a-f]+\) @ (0x)?[0-9a-f]+/) {
			m = substr($0, RSTART + 3, RLENGTH - 3)
			split(m, p, /\(|\) @ /); pg = p[3]; sub(/^0x/, "", pg)
			if (substr("00" p[1], length(p[1])) != substr("00" pg, length(pg)))
				print $NF
		}' | sort -u
}
frame_addrs_as_perf() {
	if perf_older_than 6.1; then
		awk -v offpage="${1:-/dev/null}" '
		BEGIN { while ((getline l < offpage) > 0) off["(" l ")"] = 1 }
		function norm(a, rest,   d) {
			d = substr(rest, match(rest, /\([^()]*\)$/))
			if (rest ~ /^ \[unknown\] / && !(d in off))
				return "..." substr("00" a, length(a))
			return "-"
		}
		/^\t *[0-9a-f]+ / {
			a = $1; rest = $0; sub(/^\t *[0-9a-f]+/, "", rest)
			$0 = "\t" norm(a, rest) rest
		}
		# a sample without callchain: its ip after the event name,
		# the last ": ADDR " of a line that ends with a DSO
		!/^\t/ && /\([^()]*\)$/ {
			l = $0; at = 0
			while (match(substr(l, at + 1), /: +[0-9a-f]+ /))
				at += RSTART + 1
			if (at) {
				head = substr(l, 1, at - 1); rest = substr(l, at)
				sub(/^ +/, "", rest); a = rest; sub(/ .*/, "", a)
				sub(/^[0-9a-f]+/, "", rest)
				$0 = head " " norm(a, rest) rest
			}
		}
		{ print }'
	else
		cat
	fi
}
# The browser tests drive headless Chromium through chromedriver
# (tests/tools/webdriver.mjs, Node's fetch); Debian: chromium chromium-driver nodejs.
have_browser() {
	command -v node >/dev/null 2>&1 &&
		command -v "${PD_CHROMEDRIVER:-chromedriver}" >/dev/null 2>&1 &&
		[ -x "${PD_CHROMIUM:-/usr/bin/chromium}" ]
}

# testdata_bin NAME: the path of testdata's program NAME as it runs here:
# bin/NAME, or, where that needs a newer C library than this system's
# (the dynamic ones were built on Debian 12 against glibc 2.36; Debian 11
# has 2.31), the same source built here into $tmp with its line of
# testdata/build.sh. Such a build has other build ids: for recording,
# not for comparisons with testdata's recordings.
testdata_bin() {
	if ! ldd "$TD/bin/$1" 2>&1 | grep -q 'not found'; then
		echo "$TD/bin/$1"
		return
	fi
	if [ ! -x "$tmp/td/bin/$1" ]; then
		mkdir -p "$tmp/td/bin" && cp -r "$TD/src" "$tmp/td/"
		(cd "$tmp/td" && CC=${CC:-cc} FP=-fno-omit-frame-pointer \
			STATIC="-static -Wl,--eh-frame-hdr" MAP="-fdebug-prefix-map=$tmp/td=." &&
			eval "$(grep -- " -o bin/$1 " "$TD/build.sh")") >/dev/null 2>&1
	fi
	if [ -x "$tmp/td/bin/$1" ]; then
		echo "$tmp/td/bin/$1"
	else
		echo "$TD/bin/$1"
	fi
}

# refused_files ERRFILE: when pd-fold's messages say it refused files
# whose device and inode are not the mapped one's (a system-wide recording
# made in a chroot, as make distro-check's are, sees the host's processes,
# whose files are others at the same paths: perf names their frames from
# the chroot's files, pd-fold leaves them unresolved, issue 29), why the
# folded stacks cannot be perf's, on stdout; else false.
refused_files() {
	_rf=$(grep -o 'symbols: [^:]*: [^(]*(another device or inode' "$1" |
		sed 's/^symbols: \([^:]*\):.*/\1/' | sort -u | head -3 | tr '\n' ' ')
	[ -n "$_rf" ] || return 1
	echo "pd-fold refused files that are not the ones mapped (${_rf% }), which perf names frames from"
}

# pd-record copies the files that got samples into the build-id cache, as
# perf record does: a test recording with it keeps them in its own
# ($tmp/buildid-cache, where testdata_buildid_cache puts testdata's
# programs too), never in the user's ~/.debug. pd tools reading the
# recordings look there first; perf still reads its own configuration's.
private_buildid_cache() {
	PERF_BUILDID_DIR=$tmp/buildid-cache
	export PERF_BUILDID_DIR
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

# is_pipe FILE: a pipe-mode stream (a 16-byte header, in either order)
is_pipe() {
	case $(od -An -tx1 -j8 -N8 "$1" | tr -d ' \n') in
	1000000000000000|0000000000000010) return 0 ;;
	esac
	return 1
}

# The oracle comparisons, shared by the tests that run them on the
# original files (t0010, t0040) and on converted copies (t0015).

# Whether perf report --stats's output (from its "Aggregated stats" line)
# has the older layout, perf 5.10's (Debian 11): every record type it
# knows, zeros included, without shares, and no per-event stats. pd-info
# prints perf 6.1's (the types that occurred with their share, then each
# event's); against the older layout the aggregated counts are compared,
# which are all that perf prints. Told by the layout itself, so that any
# perf between the two is compared by what it prints.
stats_old_layout() {
	awk 'NR > 1 && !/ events: / { exit }
		/ events: / && $1 != "TOTAL" && !/%\)$/ { old = 1 }
		END { exit !old }' "$1"
}

# stats_as_perf WANT GOT: perf's and pd-info's --stats, from "Aggregated
# stats", made comparable in place: for perf's older layout, its counts
# other than zero and ours without shares or per-event stats.
stats_as_perf() {
	stats_old_layout "$1" || return 0
	grep -v ' events: *0$' "$1" >"$1.nz"
	mv "$1.nz" "$1"
	awk 'NR > 1 && !/ events: / { exit }
		{ sub(/  \( *[0-9.]+%\)$/, ""); print }' "$2" >"$2.old"
	mv "$2.old" "$2"
}

# perf_stats_check FILE NAME: "ok" when pd-info --stats prints what perf
# report --stats prints for FILE. Returns 1 without a TAP line when perf
# does not read the whole file (then there is nothing to compare with).
perf_stats_check() {
	perf_unzstd "$1" && return 1
	perf report --stats -i "$1" >"$tmp/perf.out" 2>"$tmp/perf.err" </dev/null
	if [ $? -ne 0 ] || ! grep -q 'Aggregated stats' "$tmp/perf.out" ||
	   grep -q -E 'failed to process|Failed to process|unknown events|incompatible' "$tmp/perf.err" "$tmp/perf.out"; then
		return 1
	fi
	sed -n '/Aggregated stats/,$p' "$tmp/perf.out" >"$tmp/want"
	"$PD_BIN/pd-info" -q --stats "$1" >"$tmp/got.all" 2>"$tmp/err"
	_rc=$?
	sed -n '/Aggregated stats/,$p' "$tmp/got.all" >"$tmp/got"
	stats_as_perf "$tmp/want" "$tmp/got"
	if [ $_rc -eq 0 ] && cmp -s "$tmp/want" "$tmp/got"; then
		ok "stats equal perf: $2"
	else
		not_ok "stats equal perf: $2 (rc $_rc)"
		diff "$tmp/want" "$tmp/got" | head -10
	fi
	return 0
}

# The header features by id, as perf names them in "missing features".
feature_names="RESERVED TRACING_DATA BUILD_ID HOSTNAME OSRELEASE VERSION ARCH
NRCPUS CPUDESC CPUID TOTAL_MEM CMDLINE EVENT_DESC CPU_TOPOLOGY NUMA_TOPOLOGY
BRANCH_STACK PMU_MAPPINGS GROUP_DESC AUXTRACE STAT CACHE SAMPLE_TIME
MEM_TOPOLOGY CLOCKID DIR_FORMAT BPF_PROG_INFO BPF_BTF COMPRESSED CPU_PMU_CAPS
CLOCK_DATA HYBRID_TOPOLOGY PMU_CAPS CPU_DOMAIN_INFO E_MACHINE CLN_SIZE"

# How many features the perf compared with knows (pd-convert's table of
# targets: 32 for 6.1, 30 for 5.10); those after it it never lists.
perf_nr_features() {
	_t=$(perf_target)
	"$PD_BIN/pd-convert" --list-targets 2>/dev/null |
		awk -v t="${_t:-6.1}" '$1 == t { print $4 }'
}

# pd-info's header view without the lines perf does not print: build
# ids, tracing data, features newer than perf 6.1, and features the perf
# compared with does not know, which it never lists as missing.
header_ours() {
	# perf names only the read_format bits it knows: LOST came with 6.0
	_rf=
	perf_older_than 6.0 && _rf='/^# event : /s/(read_format = [A-Z_|]*)\|LOST/\1/'
	sed -E -e '/^# build id : /d' -e '/^# tracing data : /d' -e "$_rf" \
	    -e '/^# tracepoint : /d' -e '/^# unknown feature /d' \
	    -e '/^# (e_machine|cache line size|schedstat version|maximum sched domains|cpu [0-9]+ domain) /d' "$1" |
	awk -v names="$feature_names" -v n="$(perf_nr_features)" '
		BEGIN { k = split(names, f); for (i = (n ? n : 32) + 1; i <= k; i++) unknown[f[i]] = 1 }
		/^# missing features: / {
			line = "# missing features: "
			for (i = 4; i <= NF; i++) if (!($i in unknown)) line = line $i " "
			$0 = line
		}
		{ print }'
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
	# perf 5.10's --header-only reads no records, so of a pipe, whose
	# features are records, it prints the header block alone (6.1 reads
	# the features); ours is compared as far as perf prints
	_what=
	if is_pipe "$1" && perf_older_than 6.1; then
		head -n "$(wc -l <"$tmp/perf.out")" "$tmp/got" >"$tmp/got.head"
		mv "$tmp/got.head" "$tmp/got"
		_what=" (the header block: perf $(perf_version) prints no pipe features)"
	fi
	if [ $_rc -eq 0 ] && cmp -s "$tmp/perf.out" "$tmp/got"; then
		ok "header equals perf: $2$_what"
	else
		not_ok "header equals perf: $2 (rc $_rc)"
		diff "$tmp/perf.out" "$tmp/got" | head -10
	fi
	return 0
}
