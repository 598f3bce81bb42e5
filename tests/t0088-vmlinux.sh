#!/bin/sh
# Kernel symbols from a vmlinux (--vmlinux=FILE), against perf script
# --vmlinux=FILE. No real vmlinux of the recording kernel is at hand:
# tests/tools/mkvmlinux makes one from testdata/kallsyms/<build-id>, with
#  - every name prefixed "vml_", so names from kallsyms cannot pass;
#  - link addresses 16 MiB below the recorded ones, so only a reader that
#    relocates by the recorded _text (KASLR) names anything;
#  - ELF sizes up to the next symbol;
#  - (vml-split) symbols from do_vmi_munmap on in a section .init.text,
#    whose frames perf prints as [kernel.kallsyms].init.text.
# For each, on recordings with kernel frames:
#  - pd-fold --script prints perf script's callchain samples;
#  - pd-fold folds as perf script | pd-fold --input=script does.
# A vmlinux with another build id, and a relative path missing under
# --symfs, leave kernel frames unresolved in both, with one warning
# naming the file and why. A missing absolute path: perf script refuses
# it ("Invalid file"); pd-fold warns the same way and names nothing.
# perf reads the recordings as it can (perf_readable: Debian 11's perf 5.10
# a copy made for it); frame addresses compared as both conventions agree
# on them (frame_addrs_as_perf).
. "$(dirname "$0")/lib.sh"

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): nothing to compare with"
	exit 0
fi
testdata_buildid_cache
FOLD=$PD_BIN/pd-fold
MKV=$PD_BIN/../tests/tools/mkvmlinux
if [ ! -x "$MKV" ]; then
	not_ok "tests/tools/mkvmlinux built (make check builds it)"
	exit 0
fi
bid=abf9ec0ec5946600c90641cf5db998472fac410b
ks=$TD/kallsyms/$bid
files="syscalls threads offcpu multi"

"$MKV" -p vml_ -d 1000000 "$ks" "$tmp/vml" &&
"$MKV" -p vml_ -d 1000000 -s do_vmi_munmap "$ks" "$tmp/vml-split" &&
"$MKV" -p vml_ -b 00000000000000000000000000000000c0ffee00 "$ks" "$tmp/vml-other"
check "mkvmlinux makes the vmlinux files" test $? -eq 0

# compare VMLINUX-OPTION DESCRIPTION [pd-fold options]: perf script and
# pd-fold on each file
compare() {
	vopt=$1 desc=$2
	shift 2
	for n in $files; do
		f=$TD/$n.data
		perf script "$@" $vopt -i "$(perf_readable "$f")" >"$tmp/ps" 2>/dev/null </dev/null
		callchain_blocks <"$tmp/ps" | frame_addrs_as_perf >"$tmp/want.script"
		"$FOLD" -q --script "$@" $vopt "$f" >"$tmp/got.$n" 2>/dev/null
		frame_addrs_as_perf <"$tmp/got.$n" >"$tmp/got.script"
		check "$n.data, $desc: --script is perf script's ($(grep -c '^$' "$tmp/want.script") samples)" \
			cmp -s "$tmp/want.script" "$tmp/got.script"
		diff "$tmp/want.script" "$tmp/got.script" | head -6
		"$FOLD" --input=script <"$tmp/ps" >"$tmp/want" 2>/dev/null
		"$FOLD" -q "$@" $vopt "$f" >"$tmp/got" 2>/dev/null
		check "$n.data, $desc: folds as perf script | fold ($(wc -l <"$tmp/want") stacks)" \
			cmp -s "$tmp/want" "$tmp/got"
		diff "$tmp/want" "$tmp/got" | head -4 | cut -c1-300
	done
}

compare "--vmlinux=$tmp/vml" "vmlinux"
check "the names come from the vmlinux (vml_ in perf script's and pd-fold's frames)" \
	grep -q '^	 *ffffffff[0-9a-f]* vml_.*(\[kernel\.kallsyms\])$' "$tmp/got.syscalls"
compare "--vmlinux=$tmp/vml-split" "vmlinux with .init.text"
check "frames in .init.text are in [kernel.kallsyms].init.text" \
	grep -q 'vml_.*(\[kernel\.kallsyms\]\.init\.text)$' "$tmp/got.syscalls"
compare "--vmlinux=$tmp/vml-other" "vmlinux of another build id"
check "another build id: no kernel frame named" \
	sh -c '! grep -q "^	 *ffffffff[0-9a-f]* [^[]" "$1"' - "$tmp/got.syscalls"

# a relative path is read under --symfs (dso__load_vmlinux()); the symfs
# then also hides user-space files, so both sides lose those too
mkdir -p "$tmp/symfs"
cd "$tmp" || exit 1
compare "--vmlinux=vml" "relative vmlinux missing under --symfs" \
	--symfs="$tmp/symfs"
cp "$tmp/vml" "$tmp/symfs/vml"
compare "--vmlinux=vml" "relative vmlinux under --symfs" --symfs="$tmp/symfs"
check "relative vmlinux under --symfs: names from it" grep -q vml_ "$tmp/got.syscalls"

# the warnings: one, naming the file and the reason
warn_check() { # DESC FILE REASON [options]
	desc=$1 vml=$2 reason=$3
	shift 3
	"$FOLD" "$@" --vmlinux="$vml" "$TD/syscalls.data" >/dev/null 2>"$tmp/err"
	check "$desc: one warning naming $vml and why" \
		test "$(grep -c vmlinux "$tmp/err")" = 1 -a \
		"$(grep -c -F "$vml: $reason" "$tmp/err")" = 1
	cat "$tmp/err" | head -3
}
warn_check "another build id" "$tmp/vml-other" "its build id is not the recording kernel's"
warn_check "missing" "$tmp/missing" "not found"
rm "$tmp/symfs/vml"
warn_check "relative, missing under --symfs" "vml" "not found" --symfs="$tmp/symfs"

# a missing absolute path: perf refuses the option; pd-fold names no
# kernel frame, as with a vmlinux of another build id
perf script --vmlinux="$tmp/missing" -i "$(perf_readable "$TD/syscalls.data")" \
	>"$tmp/pout" 2>"$tmp/perr" </dev/null
if perf_older_than 6.1; then
	# perf 5.10 takes the missing file and names no kernel frame
	check "missing vmlinux: perf $(perf_version) names no kernel frame (6.1 refuses the option)" \
		sh -c 'grep -q "^	 *ffffffff" "$1" && ! grep -q "^	 *ffffffff[0-9a-f]* [^[]" "$1"' - "$tmp/pout"
else
	check "missing vmlinux: perf script refuses it" grep -q 'Invalid file' "$tmp/perr"
fi
"$FOLD" -q --script --vmlinux="$tmp/vml-other" "$TD/syscalls.data" >"$tmp/want" 2>/dev/null
"$FOLD" -q --script --vmlinux="$tmp/missing" "$TD/syscalls.data" >"$tmp/got" 2>/dev/null
check "missing vmlinux: pd-fold names no kernel frame" cmp -s "$tmp/want" "$tmp/got"

# --kallsyms wins over --vmlinux (dso__load_kernel_sym())
perf script --kallsyms="$ks" --vmlinux="$tmp/vml" -i "$(perf_readable "$TD/syscalls.data")" \
	2>/dev/null </dev/null | callchain_blocks | frame_addrs_as_perf >"$tmp/want"
"$FOLD" -q --script --kallsyms="$ks" --vmlinux="$tmp/vml" "$TD/syscalls.data" 2>/dev/null |
	frame_addrs_as_perf >"$tmp/got"
check "--kallsyms with --vmlinux: kallsyms names, as perf" \
	sh -c 'cmp -s "$1" "$2" && ! grep -q vml_ "$2"' - "$tmp/want" "$tmp/got"

echo "1..$tap_n"
