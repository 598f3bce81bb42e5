# The checks of arm64 recordings against the arm64 perf that made them
# (issue 23), on a directory of what testdata/arm64/guest-record.sh
# writes in the guest: testdata/arm64/ (tests/t0170-arm64.sh) or a fresh
# guest run (tests/arm64/t-guest.sh). Sourced after tests/lib.sh.
#
# arm64_checks DIR KALLSYMS: for DIR's fp.data, dwarf.data (the program
# bin/leafcalls: frame pointers, DWARF) and pac-fp.data, pac-dwarf.data
# (bin/leafcalls-pac, its return addresses signed), with DIR/X.script
# and DIR/X.script-ip the guest perf's perf script (default fields; and
# -F comm,tid,time,ip,sym,symoff,dso), KALLSYMS the guest kernel's
# symbols:
#  1. pd-unwind's callchains of dwarf.data are the guest perf's DWARF
#     unwinding, sample by sample and frame for frame (address, symbol,
#     offset, DSO), as this machine's perf script prints pd-unwind's
#     output;
#  2. pd-fold prints what the guest's perf script | stackcollapse-perf.pl
#     does, stack for stack and count for count, for fp.data, dwarf.data
#     and pac-fp.data (the folded expectation: stackcollapse-perf.pl run
#     now on X.script when PD_STACKCOLLAPSE names it, else DIR/X.folded,
#     the same made when the recordings were);
#  3. the pac-ret build unwinds like the plain one: every user stack of
#     pac-dwarf.data, in pd-fold and in pd-unwind, starts at _start and
#     is a path of leafcalls' call tree, as every stack of the guest
#     perf's plain dwarf.data is, and the functions with 5% or more of
#     the samples are the plain recording's.
# The guest perf's own reading of pac-dwarf.data is no oracle: it stops
# two frames in, at the first signed return address (issue 23).

# arm64_cat FILE: FILE's text, or FILE.gz's (testdata keeps the guest's
# perf script output compressed)
arm64_cat() {
	if [ -f "$1" ]; then cat "$1"; else gzip -dc "$1.gz"; fi
}

# the binaries as the recordings name them (/testdata/arm64/bin/...),
# under a symfs root
arm64_symfs() {
	_s=$tmp/symfs.$$
	mkdir -p "$_s/testdata"
	ln -sfn "$(cd "$1" && pwd)" "$_s/testdata/arm64"
	echo "$_s"
}

# arm64_user_stacks PROGRAM: the user part of the folded stacks on
# stdin, with their counts: the comm dropped, then the frames up to the
# first one that is none of PROGRAM's functions (nor [unknown]): the
# kernel frames come after the user ones
arm64_user_stacks() {
	readelf -sW "$1" | awk '$4 == "FUNC" { print $8 }' >"$tmp/funcs"
	awk 'NR == FNR { fn[$1] = 1; next }
	{
		n = $NF; s = $0; sub(/ [0-9]+$/, "", s)
		k = split(s, f, ";"); u = ""
		for (i = 2; i <= k && (f[i] in fn || f[i] == "[unknown]"); i++)
			u = u (u == "" ? "" : ";") f[i]
		print u, n
	}' "$tmp/funcs" -
}

# leafcalls' call tree, root first (descend recursing 0-6 more times);
# every user stack of a sample is a path of it from _start
ARM64_TREE='^_start(;start_c(;main(;(run|parse_ms)(;(now_ms|sys_open|sys_close|descend(;descend)*(;(via_a|via_b)(;spin)?)?|syscalls(;(ask_pid(;sys_getpid)?|from_zero(;sys_read)?|to_null(;sys_write)?))?))?)?|;sys_exit)?)?$'

# arm64_tree_misfits: the folded stacks on stdin (user frames) that are
# not a path of the call tree from _start, with their counts
arm64_tree_misfits() {
	awk -v re="$ARM64_TREE" '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s)
		if (s !~ re) print }'
}

# arm64_hot: the functions under which 5% or more of the samples are,
# one a line (each function counted once a stack)
arm64_hot() {
	awk '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s); total += n
		k = split(s, f, ";"); delete seen
		for (i = 1; i <= k; i++) if (!(f[i] in seen)) { seen[f[i]] = 1; c[f[i]] += n } }
		END { for (x in c) if (c[x] * 20 >= total) print x }' | sort
}

# arm64_blocks: perf script -F ...ip... text on stdin as one line a
# sample (header, then its frames), samples without frames too
arm64_blocks() {
	awk '/^$/ { if (b != "") print b; b = ""; next }
		{ sub(/^[ \t]+/, ""); gsub(/[ \t]+/, " "); b = b (b == "" ? "" : " | ") $0 }
		END { if (b != "") print b }'
}

arm64_checks() {
	_d=$1 _ks=$2
	_sym=$(arm64_symfs "$_d")
	_sc=${PD_STACKCOLLAPSE:-}

	# 1. pd-unwind against the guest perf's DWARF unwinding
	if ! have_perf; then
		skip "dwarf.data: perf not installed, pd-unwind's output not read back"
	elif "$PD_BIN/pd-unwind" -q --symfs="$_sym" "$_d/dwarf.data" -o "$tmp/unw.data" 2>"$tmp/unw.err"; then
		perf script -F comm,tid,time,ip,sym,symoff,dso --symfs="$_sym" \
			--kallsyms="$_ks" -i "$tmp/unw.data" >"$tmp/unw.script" 2>/dev/null </dev/null
		arm64_cat "$_d/dwarf.script-ip" | arm64_blocks >"$tmp/want.b"
		arm64_blocks <"$tmp/unw.script" >"$tmp/got.b"
		_n=$(wc -l <"$tmp/want.b")
		_same=$(paste -d '\n' "$tmp/want.b" "$tmp/got.b" |
			awk 'NR % 2 { w = $0; next } $0 == w { s++ } END { print s + 0 }')
		echo "# dwarf.data: pd-unwind equals the guest perf on $_same of $_n samples"
		if [ "$_n" -gt 0 ] && cmp -s "$tmp/want.b" "$tmp/got.b"; then
			ok "dwarf.data: pd-unwind's callchains are the arm64 perf's, all $_n samples frame for frame"
		else
			not_ok "dwarf.data: pd-unwind's callchains are the arm64 perf's ($_same of $_n samples agree)"
			diff "$tmp/want.b" "$tmp/got.b" | head -6 | sed 's/^/# /'
		fi
	else
		not_ok "dwarf.data: pd-unwind failed: $(head -1 "$tmp/unw.err")"
	fi

	# 2. pd-fold against the guest's perf script | stackcollapse-perf.pl
	for _f in fp dwarf pac-fp; do
		if [ -n "$_sc" ]; then
			arm64_cat "$_d/$_f.script" | perl "$_sc" >"$tmp/want.$_f" 2>/dev/null
		elif [ -f "$_d/$_f.folded" ]; then
			cp "$_d/$_f.folded" "$tmp/want.$_f"
		else
			skip "$_f.data: no PD_STACKCOLLAPSE to fold the guest's perf script with, nor $_f.folded"
			continue
		fi
		sort "$tmp/want.$_f" -o "$tmp/want.$_f"
		"$PD_BIN/pd-fold" --symfs="$_sym" --kallsyms="$_ks" "$_d/$_f.data" \
			2>"$tmp/fold.err.$_f" | sort >"$tmp/got.$_f"
		if [ -s "$tmp/want.$_f" ] && cmp -s "$tmp/want.$_f" "$tmp/got.$_f"; then
			ok "$_f.data: pd-fold equals the arm64 perf script | stackcollapse-perf.pl ($(wc -l <"$tmp/want.$_f") stacks)"
		else
			not_ok "$_f.data: pd-fold equals the arm64 perf script | stackcollapse-perf.pl ($(comm -12 "$tmp/want.$_f" "$tmp/got.$_f" | wc -l) of $(wc -l <"$tmp/want.$_f") stacks the same)"
			head -2 "$tmp/fold.err.$_f" | sed 's/^/# pd-fold: /'
			diff "$tmp/want.$_f" "$tmp/got.$_f" | head -6 | sed 's/^/# /'
		fi
	done

	# 3. the pac-ret build: the plain build's call tree, from _start
	if [ -n "$_sc" ]; then
		arm64_cat "$_d/dwarf.script" | perl "$_sc" 2>/dev/null
	else
		cat "$_d/dwarf.folded" 2>/dev/null
	fi | arm64_user_stacks "$_d/bin/leafcalls" >"$tmp/plain.user"
	arm64_tree_misfits <"$tmp/plain.user" >"$tmp/plain.misfit"
	if [ ! -s "$tmp/plain.user" ]; then
		skip "pac-dwarf.data: no folded guest perf script of dwarf.data to compare with"
		return 0
	fi
	# the guest perf's plain DWARF stacks validate the call tree itself
	check "dwarf.data: every stack the arm64 perf unwinds is a path of leafcalls' call tree from _start" \
		test ! -s "$tmp/plain.misfit"
	arm64_hot <"$tmp/plain.user" >"$tmp/plain.hot"
	"$PD_BIN/pd-fold" --symfs="$_sym" --kallsyms="$_ks" "$_d/pac-dwarf.data" 2>/dev/null |
		arm64_user_stacks "$_d/bin/leafcalls-pac" >"$tmp/pac.user"
	arm64_tree_misfits <"$tmp/pac.user" >"$tmp/pac.misfit"
	if [ -s "$tmp/pac.user" ] && [ ! -s "$tmp/pac.misfit" ] &&
		cmp -s "$tmp/plain.hot" "$(arm64_hot <"$tmp/pac.user" >"$tmp/pac.hot"; echo "$tmp/pac.hot")"; then
		ok "pac-dwarf.data: pd-fold unwinds the pac-ret build to _start through the plain build's functions"
	else
		not_ok "pac-dwarf.data: pd-fold unwinds the pac-ret build to _start through the plain build's functions ($(wc -l <"$tmp/pac.misfit") of $(wc -l <"$tmp/pac.user") stacks are not)"
		head -3 "$tmp/pac.misfit" | sed 's/^/# /'
	fi
	if ! have_perf; then
		skip "pac-dwarf.data: perf not installed, pd-unwind's output not read back"
		return 0
	fi
	"$PD_BIN/pd-unwind" -q --symfs="$_sym" "$_d/pac-dwarf.data" -o "$tmp/pac-unw.data" 2>/dev/null
	perf script --symfs="$_sym" --kallsyms="$_ks" -i "$tmp/pac-unw.data" 2>/dev/null </dev/null |
		if [ -n "$_sc" ]; then perl "$_sc"; else "$PD_BIN/pd-fold" --input=script; fi |
		arm64_user_stacks "$_d/bin/leafcalls-pac" >"$tmp/pacu.user"
	arm64_tree_misfits <"$tmp/pacu.user" >"$tmp/pacu.misfit"
	arm64_hot <"$tmp/pacu.user" >"$tmp/pacu.hot"
	if [ -s "$tmp/pacu.user" ] && [ ! -s "$tmp/pacu.misfit" ] &&
		cmp -s "$tmp/plain.hot" "$tmp/pacu.hot"; then
		ok "pac-dwarf.data: pd-unwind unwinds the pac-ret build to _start through the plain build's functions"
	else
		not_ok "pac-dwarf.data: pd-unwind unwinds the pac-ret build to _start through the plain build's functions ($(wc -l <"$tmp/pacu.misfit") of $(wc -l <"$tmp/pacu.user") stacks are not)"
		head -3 "$tmp/pacu.misfit" | sed 's/^/# /'
	fi
}
