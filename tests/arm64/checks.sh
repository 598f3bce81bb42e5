# The checks of arm64 recordings against the arm64 perf that made them
# (issue 23), on a directory of what testdata/arm64/guest-record.sh
# writes in the guest: testdata/arm64/ (tests/t0172-arm64.sh) or a fresh
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
#     offset, DSO; a perf older than 6.1 prints other user addresses:
#     symbol, offset, DSO), as this machine's perf script prints
#     pd-unwind's output;
#  2. pd-fold prints what the guest's perf script | stackcollapse-perf.pl
#     does, stack for stack and count for count, for fp.data, dwarf.data
#     and pac-fp.data (the folded expectation: arm64_guest_folded), but
#     for pac-fp.data's samples where perf 6.1 adds a wrong leaf caller
#     (arm64_lr_undone; every other sample as perf prints it), and
#     pac-fp.data's stacks paths of the plain build's call tree;
#  3. the pac-ret build unwinds like the plain one: every user stack of
#     pac-dwarf.data, in pd-fold and in pd-unwind, starts at _start and
#     is a path of leafcalls' call tree, as every stack of the guest
#     perf's plain dwarf.data is, and each function under which a fifth
#     or more of the plain recording's samples are is in its stacks.
# The guest perf's own reading of pac-dwarf.data is no oracle: it stops
# two frames in, at the first signed return address (issue 23).

# arm64_cat FILE: FILE's text, or FILE.gz's (testdata keeps the guest's
# perf script output compressed)
arm64_cat() {
	if [ -f "$1" ]; then cat "$1"; else gzip -dc "$1.gz"; fi
}

# the binaries as the recordings name them (/testdata/arm64/bin/...),
# under a symfs root
# arm64_pac_tree TOOL BASE: BASE.user, the pac-ret build's user stacks as
# TOOL unwound them, are paths of the call tree from _start through every
# main function of the plain build ($tmp/plain.hot)
arm64_pac_tree() {
	arm64_tree_misfits <"$2.user" >"$2.misfit"
	arm64_funcs 0 <"$2.user" >"$2.funcs"
	if [ -s "$2.user" ] && [ ! -s "$2.misfit" ] &&
		[ -z "$(comm -23 "$tmp/plain.hot" "$2.funcs")" ]; then
		ok "pac-dwarf.data: $1 unwinds the pac-ret build to _start through the plain build's functions"
	else
		not_ok "pac-dwarf.data: $1 unwinds the pac-ret build to _start through the plain build's functions ($(wc -l <"$2.misfit") of $(wc -l <"$2.user") stacks are not)"
		head -3 "$2.misfit" | sed 's/^/# /'
	fi
}

arm64_symfs() {
	_s=$tmp/symfs.$$
	mkdir -p "$_s/testdata"
	ln -sfn "$(cd "$1" && pwd)" "$_s/testdata/arm64"
	echo "$_s"
}

# arm64_user_stacks PROGRAM: the user part of the folded stacks on
# stdin, with their counts: the comm dropped, then the frames up to the
# first one that is none of PROGRAM's functions (nor [unknown]): the
# kernel frames come after the user ones. Samples in the execve that
# starts the program are left out: their user registers are still the
# process's before it (perf's, in perf's C library).
arm64_user_stacks() {
	readelf -sW "$1" | awk '$4 == "FUNC" { print $8 }' >"$tmp/funcs"
	awk 'NR == FNR { fn[$1] = 1; next }
	/;__arm64_sys_execve(;| )/ { next }
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

# arm64_lr_undone PERF_TEXT PD_TEXT: PERF_TEXT (perf script, default
# fields) with the frame perf 6.1 adds wrongly to -g samples of pac-ret
# code taken out where PD_TEXT (pd-fold --script of the same recording,
# sample for sample) has not got it; on stderr the count of samples so
# undone, then of those that differ otherwise (left as perf has them).
# Perf takes every leaf's caller from the link register, put after the
# first user frame: its libunwind stops at the CFI's
# DW_CFA_AARCH64_negate_ra_state, so it cannot tell that the sampled
# function has already pushed its frame record (the link register then
# points into that function itself: ...;syscalls;syscalls, a descend
# too many) or signed its return address (a value in no map:
# ...;run;[unknown];descend). Only such a frame is taken out: right
# after the first user frame, the function of that frame or [unknown].
arm64_lr_undone() {
	awk 'function fn(l, w) { split(l, w, " "); sub(/\+0x[0-9a-f]+$/, "", w[2]); return w[2] }
	function user(l) { return l !~ /\(\[kernel\.kallsyms\]\)$/ }
	BEGIN { RS = ""; FS = "\n" }
	NR == FNR { pd[FNR] = $0; npd = FNR; next }
	{
		out = $0
		if ($0 != pd[FNR]) {
			np = split($0, p, "\n")
			for (u = 2; u < np && !user(p[u]); u++)
				;
			j = u + 1; t = ""
			for (i = 1; i <= np; i++) if (i != j) t = t (t == "" ? "" : "\n") p[i]
			if (j <= np && t == pd[FNR] &&
				(fn(p[j]) == fn(p[u]) || fn(p[j]) == "[unknown]")) {
				out = t; undone++
			} else {
				other++
			}
		}
		printf "%s\n\n", out
	}
	END { if (FNR != npd) other++; print undone + 0, other + 0 >"/dev/stderr" }' "$2" "$1"
}

# arm64_funcs PERCENT: the functions under which PERCENT % or more of
# the samples of the folded stacks on stdin are (each function counted
# once a stack), one a line
arm64_funcs() {
	awk -v pc="$1" '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s); total += n
		k = split(s, f, ";"); delete seen
		for (i = 1; i <= k; i++) if (!(f[i] in seen)) { seen[f[i]] = 1; c[f[i]] += n } }
		END { for (x in c) if (c[x] * 100 >= total * pc && x != "") print x }' | sort
}

# arm64_blocks: perf script -F ...ip... text on stdin as one line a
# sample (header, then its frames), samples without frames too. A
# kernel frame is compared by its address alone, as "ADDR [kernel]":
# how perf names a frame in a module depends on the machine that
# prints, not on the recording. perf script --kallsyms=the guest's still
# reads that machine's /proc/modules: the guest perf 6.1 printed
# virtblk_request_done+0x40 ([kernel.kallsyms]), the same perf on a
# host that loads virtio_blk as a module virtblk_request_done+0x40
# ([virtio_blk]), on one without modules [unknown] ([virtio_blk]).
# Nothing of ours is in those names: pd-unwind leaves the kernel's
# frames as recorded, and pd-fold's names of them are checked against
# the guest's folded stacks.
arm64_blocks() {
	awk '/^$/ { if (b != "") print b; b = ""; next }
		{ frame = /^[ \t]/
		  sub(/^[ \t]+/, ""); gsub(/[ \t]+/, " ")
		  if (frame && match($0, /\(\[[^]]*\]\)$/) &&
		      $0 !~ /\(\[(vdso|unknown|vsyscall|vectors)\]\)$/)
			$0 = $1 " [kernel]"
		  b = b (b == "" ? "" : " | ") $0 }
		END { if (b != "") print b }'
}

# arm64_same WANT GOT: how many lines of WANT GOT has at the same place
arm64_same() {
	paste -d '\n' "$1" "$2" |
		awk 'NR % 2 { w = $0; next } $0 == w { s++ } END { print s + 0 }'
}

# arm64_blocks_check WANT GOT WHAT: WANT and GOT, samples as arm64_blocks
# prints them, are the same and not empty: WHAT are the arm64 perf's
arm64_blocks_check() {
	_n=$(wc -l <"$1")
	if [ "$_n" -gt 0 ] && cmp -s "$1" "$2"; then
		ok "$3 are the arm64 perf's, all $_n samples frame for frame"
	else
		not_ok "$3 are the arm64 perf's ($(arm64_same "$1" "$2") of $_n samples agree)"
		diff "$1" "$2" | head -6 | sed 's/^/# /'
	fi
}

# arm64_guest_folded DIR X: the guest perf's perf script of X.data
# folded: by stackcollapse-perf.pl when PD_STACKCOLLAPSE names it, else
# as it folded it when the recordings were made (X.folded), else (a
# fresh guest run without FlameGraph) by pd-fold --input=script, which
# t0070 compares with stackcollapse-perf.pl; sorted. $_how says which.
arm64_guest_folded() {
	if [ -n "${PD_STACKCOLLAPSE:-}" ]; then
		_how=stackcollapse-perf.pl
		arm64_cat "$1/$2.script" | perl "$PD_STACKCOLLAPSE" 2>/dev/null | sort
	elif [ -f "$1/$2.folded" ]; then
		_how="stackcollapse-perf.pl (testdata/arm64/$2.folded)"
		sort "$1/$2.folded"
	else
		_how="pd-fold --input=script (PD_STACKCOLLAPSE unset)"
		arm64_cat "$1/$2.script" | "$PD_BIN/pd-fold" --input=script 2>/dev/null | sort
	fi
}

arm64_checks() {
	_d=$1 _ks=$2
	_sym=$(arm64_symfs "$_d")

	# 1. pd-unwind against the guest perf's DWARF unwinding
	if ! have_perf; then
		skip "dwarf.data: perf not installed, pd-unwind's output not read back"
	elif "$PD_BIN/pd-unwind" -q --symfs="$_sym" "$_d/dwarf.data" -o "$tmp/unw.data" 2>"$tmp/unw.err"; then
		# a perf older than 6.1 (Debian 11's, make distro-check) reads
		# a copy made for it, and prints user addresses otherwise:
		# those frames are compared by symbol, offset and DSO there
		perf script -F comm,tid,time,ip,sym,symoff,dso --symfs="$_sym" \
			--kallsyms="$_ks" -i "$(perf_readable "$tmp/unw.data")" \
			2>/dev/null </dev/null | frame_addrs_as_perf >"$tmp/unw.script"
		arm64_cat "$_d/dwarf.script-ip" | frame_addrs_as_perf | arm64_blocks >"$tmp/want.b"
		arm64_blocks <"$tmp/unw.script" >"$tmp/got.b"
		echo "# dwarf.data: pd-unwind equals the guest perf on $(arm64_same "$tmp/want.b" "$tmp/got.b") of $(wc -l <"$tmp/want.b") samples"
		arm64_blocks_check "$tmp/want.b" "$tmp/got.b" "dwarf.data: pd-unwind's callchains"
	else
		not_ok "dwarf.data: pd-unwind failed: $(head -1 "$tmp/unw.err")"
	fi

	# 2. pd-fold against the guest's perf script | stackcollapse-perf.pl
	for _f in fp dwarf pac-fp; do
		arm64_guest_folded "$_d" "$_f" >"$tmp/want.$_f"
		_but=
		if [ "$_f" = pac-fp ]; then
			# perf 6.1's wrong leaf callers taken out (see
			# arm64_lr_undone), then folded as perf's text is:
			# the only difference allowed
			"$PD_BIN/pd-fold" --script --symfs="$_sym" --kallsyms="$_ks" \
				"$_d/$_f.data" 2>/dev/null >"$tmp/pd.script"
			arm64_cat "$_d/$_f.script" >"$tmp/perf.script"
			arm64_lr_undone "$tmp/perf.script" "$tmp/pd.script" \
				>"$tmp/undone.script" 2>"$tmp/undone.n"
			read -r _undone _other <"$tmp/undone.n"
			[ -n "${PD_STACKCOLLAPSE:-}" ] ||
				_how="pd-fold --input=script (PD_STACKCOLLAPSE unset)"
			if [ -n "${PD_STACKCOLLAPSE:-}" ]; then
				perl "$PD_STACKCOLLAPSE" "$tmp/undone.script" 2>/dev/null
			else
				"$PD_BIN/pd-fold" --input=script "$tmp/undone.script" 2>/dev/null
			fi | sort >"$tmp/want.$_f"
			# and pd-fold's stacks paths of the plain build's call tree
			arm64_user_stacks "$_d/bin/leafcalls-pac" <"$tmp/want.$_f" |
				arm64_tree_misfits >"$tmp/pacfp.misfit"
			_but=", $_undone samples but perf 6.1's wrong leaf caller, $_other otherwise different, $(wc -l <"$tmp/pacfp.misfit") stacks off the call tree"
			[ "$_other" = 0 ] && [ ! -s "$tmp/pacfp.misfit" ] || : >"$tmp/want.$_f"
		fi
		"$PD_BIN/pd-fold" --symfs="$_sym" --kallsyms="$_ks" "$_d/$_f.data" \
			2>"$tmp/fold.err.$_f" | sort >"$tmp/got.$_f"
		if [ -s "$tmp/want.$_f" ] && cmp -s "$tmp/want.$_f" "$tmp/got.$_f"; then
			ok "$_f.data: pd-fold equals the arm64 perf script | $_how ($(wc -l <"$tmp/want.$_f") stacks$_but)"
		else
			not_ok "$_f.data: pd-fold equals the arm64 perf script | $_how ($(comm -12 "$tmp/want.$_f" "$tmp/got.$_f" | wc -l) of $(wc -l <"$tmp/want.$_f") stacks the same$_but)"
			head -2 "$tmp/fold.err.$_f" | sed 's/^/# pd-fold: /'
			diff "$tmp/want.$_f" "$tmp/got.$_f" | head -6 | sed 's/^/# /'
		fi
	done

	# 3. the pac-ret build: the plain build's call tree, from _start
	arm64_guest_folded "$_d" dwarf >"$tmp/plain.folded"
	arm64_user_stacks "$_d/bin/leafcalls" <"$tmp/plain.folded" >"$tmp/plain.user"
	arm64_tree_misfits <"$tmp/plain.user" >"$tmp/plain.misfit"
	# the guest perf's plain DWARF stacks validate the call tree itself
	if [ -s "$tmp/plain.user" ] && [ ! -s "$tmp/plain.misfit" ]; then
		ok "dwarf.data: every stack the arm64 perf unwinds is a path of leafcalls' call tree from _start ($(wc -l <"$tmp/plain.user") stacks)"
	else
		not_ok "dwarf.data: every stack the arm64 perf unwinds is a path of leafcalls' call tree from _start ($(wc -l <"$tmp/plain.misfit") of $(wc -l <"$tmp/plain.user") stacks are not)"
		head -3 "$tmp/plain.misfit" | sed 's/^/# /'
	fi
	# the plain build's main functions (a fifth of the samples or more
	# each: all of them in a few samples of the pac-ret build's too)
	arm64_funcs 20 <"$tmp/plain.user" >"$tmp/plain.hot"
	"$PD_BIN/pd-fold" --symfs="$_sym" --kallsyms="$_ks" "$_d/pac-dwarf.data" 2>"$tmp/pac.err" |
		arm64_user_stacks "$_d/bin/leafcalls-pac" >"$tmp/pac.user"
	# libdw before 0.188 gives no frame's registers: a signed return
	# address cannot be stripped and resumed from (pd-fold warns)
	if grep -q 'elfutils older than 0.188' "$tmp/pac.err"; then
		skip "pac-dwarf.data: this build's elfutils is older than 0.188: pac-ret chains end early (pd-fold warns so), not compared"
		return 0
	fi
	arm64_pac_tree pd-fold "$tmp/pac"
	if ! have_perf; then
		skip "pac-dwarf.data: perf not installed, pd-unwind's output not read back"
		return 0
	fi
	"$PD_BIN/pd-unwind" -q --symfs="$_sym" "$_d/pac-dwarf.data" -o "$tmp/pac-unw.data" 2>/dev/null
	perf script --symfs="$_sym" --kallsyms="$_ks" -i "$(perf_readable "$tmp/pac-unw.data")" 2>/dev/null </dev/null |
		"$PD_BIN/pd-fold" --input=script |
		arm64_user_stacks "$_d/bin/leafcalls-pac" >"$tmp/pacu.user"
	arm64_pac_tree pd-unwind "$tmp/pacu"
}
