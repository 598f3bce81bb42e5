#!/bin/sh
# Kernel module maps as MMAP2 records, converted for perfs before 5.11.
#
# perf 5.12 and later write the kernel's and every module's map as an
# MMAP2 with `perf record --buildid-mmap` (perf 7.x: by default); perf
# before 5.11 reads a kernel-mode MMAP2's name at MMAP's offset and makes
# no map of it (docs/compat.md, "The kernel map"). This machine's kernel
# may have no modules, so tests/tools/mkkmods writes the profile as perf
# 6.1 synthesizes it (synthetic-events.c): "[kernel.kallsyms]_text" and
# three modules named the ways perf names them (a .ko's path, a .ko.xz's,
# the "[name]" of /proc/modules), each with a build id (and, with -B,
# the modules without), kernel samples in each, and a kallsyms naming a
# function in each. Checked:
#  - pd-convert --target-perf=5.10 makes all four maps MMAPs, their build
#    ids a BUILD_ID table under the maps' names; for 6.1 nothing changes;
#  - perf 6.1 (this machine) puts each module's samples in the module's
#    DSO and function, in the original and in the 5.10 conversion;
#  - Debian 11's perf 5.10 (the bullseye chroot of make distro-check)
#    does the same on the 5.10 and debian11 conversions, file and pipe,
#    with no warning; on the original and on a conversion without the
#    kernel-mmap2 shim it warns "Kernel address maps ... were
#    restricted" and attributes no sample to a module.
. "$(dirname "$0")/lib.sh"

MK=$PD_BIN/../tests/tools/mkkmods
MODS="/lib/modules/6.1.0-pd-amd64/kernel/fs/ext4/ext4.ko
/lib/modules/6.1.0-pd-amd64/kernel/sound/pci/hda/snd-hda-intel.ko.xz
[pd_dummy]"

conv() { "$PD_BIN/pd-convert" -q "$@"; }
# perf report -n --sort dso,sym lines as "SAMPLES DSO SYMBOL", sorted
attributed() {
	awk '!/^#/ && /%/ { print $2, $3, $5 }' "$1" | sort
}
cat >"$tmp/want" <<'EOF'
2 [kernel.kallsyms] pd_kernel_fn
4 [ext4] ext4_pd_fn
4 [pd_dummy] pd_dummy_pd_fn
4 [snd_hda_intel] snd_hda_intel_pd_fn
EOF
sort -o "$tmp/want" "$tmp/want"

# shellcheck disable=SC2086 # MODS: one name a line, none with a space
(IFS='
'; "$MK" "$tmp/k.data" "$tmp/k.kallsyms" $MODS && "$MK" -B "$tmp/kb.data" "$tmp/kb.kallsyms" $MODS)
check "mkkmods writes the profile and its kallsyms" \
	test -s "$tmp/k.data" -a -s "$tmp/kb.data" -a -s "$tmp/k.kallsyms"

# ---- the conversion ----
"$PD_BIN/pd-convert" --explain --target-perf=5.10 "$tmp/k.data" >"$tmp/ex"
check "for 5.10: kernel-mmap2 changes the kernel's and the 3 modules' MMAP2s" \
	grep -q '^shim kernel-mmap2 *applies: 4 changed' "$tmp/ex"
for f in k kb; do
	conv --target-perf=5.10 "$tmp/$f.data" -o "$tmp/$f.5.10.data"
	"$PD_BIN/pd-info" --dump "$tmp/$f.5.10.data" >"$tmp/dump"
	n=$(grep -c 'PERF_RECORD_MMAP(misc 0x1) -1/0: .*\(\[kernel.kallsyms\]_text\|ext4\.ko\|snd-hda-intel\.ko\.xz\|\[pd_dummy\]\)$' "$tmp/dump")
	check "$f for 5.10: the 4 maps are MMAPs of pid -1, misc KERNEL ($n), no MMAP2 left" \
		[ "$n" = 4 ] && ! grep -q MMAP2 "$tmp/dump"
done
"$PD_BIN/pd-info" --header "$tmp/k.5.10.data" >"$tmp/hdr"
check "for 5.10: the modules' build ids in the BUILD_ID table under their maps' names, the kernel's under [kernel.kallsyms]" \
	grep -q '^# build id : aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa \[kernel.kallsyms\]$' "$tmp/hdr" &&
	grep -q '^# build id : 1111111111111111111111111111111111111111 /lib/modules/.*/ext4\.ko$' "$tmp/hdr" &&
	grep -q '^# build id : 1212121212121212121212121212121212121212 /lib/modules/.*/snd-hda-intel\.ko\.xz$' "$tmp/hdr" &&
	grep -q '^# build id : 1313131313131313131313131313131313131313 \[pd_dummy\]$' "$tmp/hdr"
"$PD_BIN/pd-info" --header "$tmp/kb.5.10.data" >"$tmp/hdr"
check "kb for 5.10: the kernel's build id alone in the table (the modules had none)" \
	sh -c "[ \$(grep -c '^# build id :' '$tmp/hdr') = 1 ]"
conv --target-perf=6.1 "$tmp/k.data" -o "$tmp/k.6.1.data"
n=$("$PD_BIN/pd-info" --dump "$tmp/k.6.1.data" | grep -c 'PERF_RECORD_MMAP2(misc 0x4001) -1/0')
check "for 6.1: the 4 MMAP2s kept with their build ids ($n)" [ "$n" = 4 ]

# ---- the perf on PATH (6.1 here; Debian 11's 5.10 in t-bullseye-build,
# which reads the conversions only: the originals are what it fails on,
# checked below) ----
if have_perf; then
	files="k.data k.5.10.data kb.data kb.5.10.data"
	perf_older_than 5.11 && files="k.5.10.data kb.5.10.data"
	for f in $files; do
		perf report -f --stdio -n --sort dso,sym --kallsyms "$tmp/k.kallsyms" \
			-i "$tmp/$f" >"$tmp/rep" 2>"$tmp/err" </dev/null
		attributed "$tmp/rep" >"$tmp/got"
		check "perf $(perf_version) on $f: each module's samples in its DSO and function, no warning ($(head -1 "$tmp/err"))" \
			cmp -s "$tmp/want" "$tmp/got" && [ ! -s "$tmp/err" ]
		cmp -s "$tmp/want" "$tmp/got" || sed 's/^/# got: /' "$tmp/got"
	done
else
	skip "perf not installed (apt-get install linux-perf): perf 6.1's readings not checked"
fi

# ---- Debian 11's perf 5.10, in a bullseye chroot ----
why=$(bullseye_perf_why)
if [ -n "$why" ]; then
	skip "$why: perf 5.10 checks not run"
	echo "1..$tap_n"
	exit 0
fi
bullseye_dir t0063
cp "$tmp/k.kallsyms" "$bd/"
# p510_report WHAT FILE [PIPE]: perf 5.10's report of FILE ("-": PIPE
# on standard input) into $tmp/rep, its stderr into $tmp/err
p510_report() {
	if [ "$2" = - ]; then
		p510 report --stdio -n --sort dso,sym --kallsyms "$in/k.kallsyms" -i - \
			<"$3" >"$tmp/rep" 2>"$tmp/err"
	else
		p510 report --stdio -n --sort dso,sym --kallsyms "$in/k.kallsyms" -i "$in/$2" \
			>"$tmp/rep" 2>"$tmp/err" </dev/null
	fi
	attributed "$tmp/rep" >"$tmp/got"
}
for f in k kb; do
	for t in 5.10 debian11; do
		conv --target-perf=$t "$tmp/$f.data" -o "$bd/$f.$t.data"
		p510_report "$f for $t" "$f.$t.data"
		check "perf 5.10 on $f for $t: each module's samples in its DSO and function, no warning ($(head -1 "$tmp/err"))" \
			cmp -s "$tmp/want" "$tmp/got" && [ ! -s "$tmp/err" ]
		cmp -s "$tmp/want" "$tmp/got" || sed 's/^/# got: /' "$tmp/got"
		p510 script -F ip,sym,dso --kallsyms "$in/k.kallsyms" -i "$in/$f.$t.data" \
			>"$tmp/script" 2>"$tmp/err" </dev/null
		# the DSO as the module's path where the BUILD_ID table
		# named it so, else as its [name]
		n=$(grep -c ' ext4_pd_fn (\(/lib/modules/.*/ext4\.ko\|\[ext4\]\))$' "$tmp/script")
		n=$n/$(grep -c ' snd_hda_intel_pd_fn (\(/lib/modules/.*/snd-hda-intel\.ko\.xz\|\[snd_hda_intel\]\))$' "$tmp/script")
		n=$n/$(grep -c ' pd_dummy_pd_fn (\[pd_dummy\])$' "$tmp/script")
		check "perf 5.10 script on $f for $t: 4 samples in each module's function and DSO ($n), no warning" \
			[ "$n" = 4/4/4 ] && [ ! -s "$tmp/err" ]
	done
	conv --pipe --target-perf=debian11 "$tmp/$f.data" -o "$tmp/$f.pipe"
	p510_report "$f for debian11, a pipe" - "$tmp/$f.pipe"
	check "perf 5.10 on $f for debian11 as a pipe: each module's samples in its DSO and function, no warning ($(head -1 "$tmp/err"))" \
		cmp -s "$tmp/want" "$tmp/got" && [ ! -s "$tmp/err" ]
	# the failure the shim is for: the original, and the conversion
	# without it
	cp "$tmp/$f.data" "$bd/$f.data"
	conv --no-shim=kernel-mmap2 --target-perf=debian11 "$tmp/$f.data" -o "$bd/$f.noshim.data"
	for g in "$f.data" "$f.noshim.data"; do
		p510_report "$g" "$g"
		check "perf 5.10 on $g (MMAP2s): no sample in a module, \"Kernel address maps ... were restricted\"" \
			grep -q 'Kernel address maps' "$tmp/err" && ! grep -q '_pd_fn' "$tmp/got"
	done
done
echo "1..$tap_n"
