#!/bin/sh
# No name from a wrong file (issue 29), without containers: a program
# (a copy of testdata's burn at $tmp/w/prog) recorded with the system
# perf, then another program (testdata's sleeper, "the decoy") put at its
# path, a new inode, as a container's file is another than the host's at
# the same path.
#  1. perf record -g: the BUILD_ID table names prog: the decoy has another
#     build id and is not used (as before).
#  2. prog replaced while perf records: perf writes the decoy's build id
#     in its table, as perf 6.1 writes the host file's for a process in a
#     container. Read here: no name from the decoy, one warning saying the
#     id is that file's; perf itself names the frames from the decoy.
#  3. pipe mode (no build id at all): the MMAP2's device and inode are
#     not the decoy's: no name, one warning.
#  4. The profiles of 2 and 3 read as if on another machine (a copy whose
#     HOSTNAME differs, tests/tools/host-edit), or later (a copy dated an
#     hour on): perf's rules, the folding perf script's text gives.
#  5. --root=DIR: perf record --buildid-mmap, prog moved under DIR at its
#     path: pd-fold, pd-convert --to=script and --to=archive, and
#     pd-unwind (a DWARF recording) name burn's frames through DIR; a
#     root is never used without the recorded build id, and never shadows
#     the right file at the path.
. "$(dirname "$0")/lib.sh"

FOLD=$PD_BIN/pd-fold
HOSTEDIT=$(dirname "$PD_BIN")/tests/tools/host-edit
W=$tmp/w
mkdir -p "$W" "$tmp/root$W" "$tmp/home"
# no build-id cache but an empty one of our own: the files are where the
# test puts them, and perf record copies none (-N)
HOME=$tmp/home PERF_BUILDID_DIR=$tmp/cache PERF_CONFIG=/dev/null
export HOME PERF_BUILDID_DIR PERF_CONFIG
cp "$TD/bin/burn" "$tmp/burn"
cp "$TD/bin/sleeper" "$tmp/decoy"

# prog: burn, or the decoy, put at the path as a new file (a new inode)
put() { cp "$1" "$W/prog.new" && mv -f "$W/prog.new" "$W/prog"; }
# record OUT PERF_OPTIONS...: perf record of prog (burn) for 300 ms,
# started by a shell, whose maps (this machine's sh and libc) tell that
# the recording was made here (pd_session__recorded_here())
record() {
	_o=$1; shift
	put "$tmp/burn"
	perf record -q -N "$@" -o "$_o" -- sh -c "'$W/prog' 300; :" \
		>/dev/null 2>&1 && [ -s "$_o" ]
}
# prog's user frames, folded (--capture=user, prog's samples)
userfold() { "$FOLD" -q --capture=user --comm=prog "$@" 2>/dev/null | sort; }
# as_absent GOT CMD ARG...: GOT, what CMD printed with the decoy at
# prog's path, is what it prints with no file at that path at all: the
# decoy named no frame and changed no stack. (The names left are those of
# the files that were mapped: the shell's libc around the exec, ld.so,
# the vdso; a sample in them is a matter of chance, so "no name at all"
# is no test.)
as_absent() {
	_g=$1; shift
	mv "$W/prog" "$W/prog.aside" || return 1
	"$@" >"$_g.absent"
	mv "$W/prog.aside" "$W/prog"
	[ -s "$_g" ] && cmp -s "$_g" "$_g.absent"
}
# prog's user frames as pd-convert --to=script names them, folded
scriptfold() {
	"$PD_BIN/pd-convert" -q --to=script "$@" 2>/dev/null |
		"$FOLD" -q --input=script --capture=user --comm=prog | sort
}
# ... or some function's name
some_names() {
	awk '{ n = split($1, f, ";"); for (i = 2; i <= n; i++)
		if (f[i] !~ /^\[/ && f[i] !~ /vdso/) named = 1 }
	     END { exit !named }' "$1"
}
# the build id the table names for prog
table_bid() {
	"$PD_BIN/pd-info" "$1" 2>/dev/null |
		awk -v p="$W/prog" '$2 == "build" && $6 == p { print $5; exit }'
}
# perf script's text of FILE, folded as pd-fold folds (perf's names)
perf_fold() {
	perf script -i "$1" 2>/dev/null </dev/null |
		"$FOLD" -q --input=script --capture=user --comm=prog | sort
}
hot='main;run;outer;middle;inner_hot'

if ! have_perf; then
	skip "no perf on this machine: nothing recorded"
	echo "1..$tap_n"
	exit 0
fi
if ! record "$tmp/probe.data" -g; then
	skip "perf record failed here (not root, perf_event_paranoid?): nothing recorded"
	echo "1..$tap_n"
	exit 0
fi

# ---- 1. perf record -g, the decoy put at the path after ----
record "$tmp/a.data" -g
userfold "$tmp/a.data" >"$tmp/a.want"
check "1: prog in place: burn's hot path named" grep -q "$hot" "$tmp/a.want"
put "$tmp/decoy"
userfold "$tmp/a.data" >"$tmp/a.got"
"$FOLD" "$tmp/a.data" >/dev/null 2>"$tmp/a.err"
check "1: the decoy at the path (another build id): no name from it" as_absent "$tmp/a.got" userfold "$tmp/a.data"
check "1: one warning names the path and the other build id" \
	sh -c "[ \$(grep -c '$W/prog: .*another build id' '$tmp/a.err') -eq 1 ]"

# ---- 2. the table names the decoy's build id (perf read it at the end) ----
put "$tmp/burn"
# (replaced once prog runs: its comm is the program's from its exec,
# which opened the file first; a loaded machine may start it late)
perf record -q -N -g -o "$tmp/b.data" -- sh -c \
	"'$W/prog' 400 & p=\$!; n=0
	 until [ \"\$(cat /proc/\$p/comm 2>/dev/null)\" = prog ] || [ \$n -ge 500 ]; do sleep 0.01; n=\$((n + 1)); done
	 sleep 0.1; cp '$tmp/decoy' '$W/prog.new'; mv -f '$W/prog.new' '$W/prog'; wait" \
	>/dev/null 2>&1
dbid=$(table_bid "$tmp/b.data")
if [ -z "$dbid" ] || [ "$dbid" = "$(table_bid "$tmp/a.data")" ]; then
	skip "2: perf wrote no other build id than burn's for $W/prog (got '$dbid'): the case is not made"
else
	perf_fold "$tmp/b.data" >"$tmp/b.perf"
	check "2: perf script names prog's frames from the decoy (the bug this guards against)" \
		some_names "$tmp/b.perf"
	userfold "$tmp/b.data" >"$tmp/b.got"
	"$FOLD" "$tmp/b.data" >/dev/null 2>"$tmp/b.err"
	check "2: read here, no name from the decoy" as_absent "$tmp/b.got" userfold "$tmp/b.data"
	check "2: one warning: the recorded build id is the file's at the path, not the mapped one's" \
		sh -c "[ \$(grep -c '$W/prog: the recorded build id is that of' '$tmp/b.err') -eq 1 ]"
	scriptfold "$tmp/b.data" >"$tmp/b.script"
	check "2: pd-convert --to=script: no name from the decoy either" as_absent "$tmp/b.script" scriptfold "$tmp/b.data"
	# ---- 4. the same profile, recorded elsewhere ----
	cp "$tmp/b.data" "$tmp/b-else.data"
	if "$HOSTEDIT" not-this-host "$tmp/b-else.data"; then
		userfold "$tmp/b-else.data" >"$tmp/b-else.got"
		check "4: another host name: perf's rules, as perf script names the frames" \
			cmp -s "$tmp/b-else.got" "$tmp/b.perf"
	else
		not_ok "4: host-edit could not set the copy's HOSTNAME"
	fi
	cp "$tmp/b.data" "$tmp/b-late.data"
	touch -d '+1 hour' "$tmp/b-late.data"
	userfold "$tmp/b-late.data" >"$tmp/b-late.got"
	check "4: a copy written an hour after its last sample: perf's rules" \
		cmp -s "$tmp/b-late.got" "$tmp/b.perf"
	# the real prog in a root: the table's id is the decoy's, never
	# burn's: the root is not used
	cp "$tmp/burn" "$tmp/root$W/prog"
	userfold --root="$tmp/root" "$tmp/b.data" >"$tmp/b.root"
	check "2: --root holding the mapped program: not used for the decoy's build id" \
		as_absent "$tmp/b.root" userfold "$tmp/b.data"
fi

# ---- 3. no build id (pipe mode) ----
put "$tmp/burn"
perf record -q -N -g -o - -- sh -c "'$W/prog' 300; :" 2>/dev/null >"$tmp/c.data"
userfold "$tmp/c.data" >"$tmp/c.want"
check "3: pipe mode, prog in place (the mapped file): burn's hot path named" \
	grep -q "$hot" "$tmp/c.want"
put "$tmp/decoy"
userfold "$tmp/c.data" >"$tmp/c.got"
"$FOLD" "$tmp/c.data" >/dev/null 2>"$tmp/c.err"
check "3: the decoy at the path, no build id recorded: no name from it" as_absent "$tmp/c.got" userfold "$tmp/c.data"
check "3: one warning: not the file the profile mapped" \
	sh -c "[ \$(grep -c '$W/prog: the file at this path is not the file the profile mapped' '$tmp/c.err') -eq 1 ]"
cp "$tmp/burn" "$tmp/root$W/prog"
userfold --root="$tmp/root" "$tmp/c.data" >"$tmp/c.root"
check "3: no build id: --root is not used, even holding the mapped program" \
	as_absent "$tmp/c.root" userfold "$tmp/c.data"
cat "$tmp/c.data" | "$FOLD" -q --capture=user --comm=prog - 2>/dev/null | sort >"$tmp/c.pipe"
check "3: read from a pipe (now): the same" cmp -s "$tmp/c.got" "$tmp/c.pipe"
perf_fold "$tmp/c.data" >"$tmp/c.perf"
touch -d '+1 hour' "$tmp/c.data"
userfold "$tmp/c.data" >"$tmp/c.late"
check "4: no build id, a copy written an hour later: perf's rules (the decoy's names, as perf script's)" \
	cmp -s "$tmp/c.late" "$tmp/c.perf"

# ---- 5. --root with the kernel's build ids (perf record --buildid-mmap) ----
if ! record "$tmp/d.data" -g --buildid-mmap; then
	skip "5: perf record --buildid-mmap failed here (perf before 5.12 or kernel)"
else
	userfold "$tmp/d.data" >"$tmp/d.want"
	mv "$W/prog" "$tmp/root$W/prog"
	cp "$tmp/decoy" "$W/prog"
	userfold "$tmp/d.data" >"$tmp/d.got"
	check "5: prog moved away, the decoy at the path: no name from it" as_absent "$tmp/d.got" userfold "$tmp/d.data"
	userfold --root="$tmp/root" "$tmp/d.data" >"$tmp/d.root"
	check "5: --root=DIR holding prog at its path: named as with prog in place" \
		sh -c "grep -q '$hot' '$tmp/d.root' && cmp -s '$tmp/d.want' '$tmp/d.root'"
	"$FOLD" -q --root="$tmp/nowhere" "$tmp/d.data" >/dev/null 2>&1
	check "5: --root=DIR that is no directory: bad usage (exit 2)" test $? -eq 2
	"$PD_BIN/pd-convert" -q --to=script --root="$tmp/root" "$tmp/d.data" 2>/dev/null |
		"$FOLD" -q --input=script --capture=user --comm=prog | sort >"$tmp/d.script"
	check "5: pd-convert --to=script --root names the same" cmp -s "$tmp/d.want" "$tmp/d.script"
	"$PD_BIN/pd-convert" -q --to=archive --root="$tmp/root" "$tmp/d.data" \
		-o "$tmp/d.tar.zst" 2>/dev/null
	mv "$tmp/root$W/prog" "$tmp/prog.away"
	userfold "$tmp/d.tar.zst" >"$tmp/d.arch"
	check "5: pd-convert --to=archive --root stored prog: the archive names the same, DIR gone" \
		cmp -s "$tmp/d.want" "$tmp/d.arch"
	# a root with the decoy, the right file at the path: not shadowed
	mv "$tmp/prog.away" "$W/prog"
	cp "$tmp/decoy" "$tmp/root$W/prog"
	userfold --root="$tmp/root" "$tmp/d.data" >"$tmp/d.shadow"
	check "5: a root's other file at the path never shadows the right one here" \
		cmp -s "$tmp/d.want" "$tmp/d.shadow"

	# DWARF: the unwinder reads the files the symbolizer accepted
	if record "$tmp/e.data" --call-graph dwarf --buildid-mmap; then
		userfold "$tmp/e.data" >"$tmp/e.want"
		"$PD_BIN/pd-unwind" -q "$tmp/e.data" -o "$tmp/e.unw0" 2>/dev/null
		userfold "$tmp/e.unw0" >"$tmp/e.unwant"
		mv "$W/prog" "$tmp/root$W/prog"
		cp "$tmp/decoy" "$W/prog"
		userfold "$tmp/e.data" >"$tmp/e.got"
		check "5: DWARF, the decoy at the path: nothing unwound or named through it" \
			as_absent "$tmp/e.got" userfold "$tmp/e.data"
		userfold --root="$tmp/root" "$tmp/e.data" >"$tmp/e.root"
		check "5: DWARF, --root: unwound and named as with prog in place" \
			sh -c "grep -q '$hot' '$tmp/e.root' && cmp -s '$tmp/e.want' '$tmp/e.root'"
		"$PD_BIN/pd-unwind" -q --root="$tmp/root" "$tmp/e.data" -o "$tmp/e.unw" 2>/dev/null
		userfold --root="$tmp/root" "$tmp/e.unw" >"$tmp/e.unwound"
		check "5: pd-unwind --root: the callchains pd-unwind gives with prog in place" \
			sh -c "grep -q '$hot' '$tmp/e.unwound' && cmp -s '$tmp/e.unwant' '$tmp/e.unwound'"
	else
		skip "5: perf record --call-graph dwarf failed here"
	fi
fi
echo "1..$tap_n"
