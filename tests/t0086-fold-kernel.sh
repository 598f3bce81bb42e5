#!/bin/sh
# Kernel frames of testdata/ named the same on any machine: for each
# recording with kernel samples and a kernel build id,
#  - testdata/kallsyms/<build-id> exists, and through the private
#    build-id cache perf script names every sampled kernel address;
#  - on the recording kernel, perf script names them the same with that
#    file (--kallsyms) as with the whole /proc/kallsyms: it is complete;
#  - pd-fold folds the same with it as without;
#  - a copy whose kernel build id is another (so that no machine runs
#    it) is named from the cache alone: perf script and pd-fold print
#    what they print for the original;
# and syscalls.data has deep kernel stacks, folded as perf script shows.
# A perf older than the one that recorded testdata/ (Debian 11's 5.10)
# reads the copies made for it (perf_readable), and so the copy with
# another kernel build id is made from that.
. "$(dirname "$0")/lib.sh"

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): nothing to compare with"
	exit 0
fi
testdata_buildid_cache
FOLD=$PD_BIN/pd-fold
running=$(perf buildid-list -k 2>/dev/null || :)
fake=00000000000000000000000000000000c0ffee00

kernel_bid() {
	perf buildid-list -i "$1" 2>/dev/null </dev/null |
		awk '$2 == "[kernel.kallsyms]" { print $1; exit }'
}
# kernel lines of perf script -F ip,sym,symoff,dso (sample ips and
# callchains)
# (ffffffffffffffff is no kernel address: perf prints a DWARF-unwound
# return address of 0, less 1, so)
kernel_lines() {
	perf script -F ip,sym,symoff,dso "$@" 2>/dev/null </dev/null |
		awk '{ for (i = 1; i <= NF; i++) if (length($i) == 16 && $i ~ /^ffff[89a-f]/ && $i != "ffffffffffffffff") { print; break } }'
}

nfiles=0
for f in "$TD"/*.data; do
	name=${f##*/}
	pf=$(perf_readable "$f")
	kernel_lines -i "$pf" >"$tmp/k"
	[ -s "$tmp/k" ] || continue
	bid=$(kernel_bid "$pf")
	[ -n "$bid" ] || continue	# zstd.data: no build id, the running kernel's
	nfiles=$((nfiles + 1))
	ks=$TD/kallsyms/$bid
	if [ ! -f "$ks" ]; then
		not_ok "$name: testdata/kallsyms/$bid exists (run testdata/trim-kallsyms.sh on that kernel)"
		continue
	fi
	n=$(wc -l <"$tmp/k")
	check "$name: perf script names all $n kernel addresses" \
		sh -c '! grep -q "\[unknown\]" "$1"' - "$tmp/k"
	grep '\[unknown\]' "$tmp/k" | head -3
	if [ "$bid" = "$running" ]; then
		kernel_lines --kallsyms="$ks" -i "$pf" >"$tmp/k2"
		check "$name: kallsyms/$bid names them as /proc/kallsyms does" \
			cmp -s "$tmp/k" "$tmp/k2"
		diff "$tmp/k" "$tmp/k2" | head -4
	fi
	"$FOLD" -q --kernel "$f" >"$tmp/want" 2>/dev/null
	"$FOLD" -q --kernel --kallsyms="$ks" "$f" >"$tmp/got" 2>/dev/null
	check "$name: pd-fold --kernel folds the same with kallsyms/$bid" \
		cmp -s "$tmp/want" "$tmp/got"
	if ! command -v perl >/dev/null 2>&1; then
		skip "$name: perl missing: no copy with another kernel build id"
		continue
	fi
	# the same recording from a kernel no machine runs
	hex() { printf '%s' "$1" | sed 's/../\\x&/g'; }
	perl -0777 -pe "s/$(hex "$bid")/$(hex "$fake")/g" "$pf" >"$tmp/other.data"
	mkdir -p "$PERF_BUILDID_DIR/[kernel.kallsyms]/$fake"
	cp "$ks" "$PERF_BUILDID_DIR/[kernel.kallsyms]/$fake/kallsyms"
	perf script -i "$pf" >"$tmp/ps" 2>/dev/null </dev/null
	perf script -i "$tmp/other.data" >"$tmp/ps2" 2>/dev/null </dev/null
	check "$name, another kernel build id: perf script names the kernel from the cache" \
		test "$(kernel_bid "$tmp/other.data")" = "$fake" -a -s "$tmp/ps" \
		-a "$(cmp "$tmp/ps" "$tmp/ps2" 2>&1)" = ""
	diff "$tmp/ps" "$tmp/ps2" | head -4
	"$FOLD" -q --kernel "$tmp/other.data" >"$tmp/got" 2>/dev/null
	check "$name, another kernel build id: pd-fold --kernel folds the same" \
		cmp -s "$tmp/want" "$tmp/got"
	diff "$tmp/want" "$tmp/got" | head -4
	rm -rf "$PERF_BUILDID_DIR/[kernel.kallsyms]/$fake"
	grep -q '^	' "$tmp/ps" || continue	# no callchains: nothing folded
	perf script -i "$tmp/other.data" 2>/dev/null </dev/null |
		"$FOLD" --input=script --kernel >"$tmp/want"
	"$FOLD" --kernel "$tmp/other.data" >"$tmp/got" 2>"$tmp/err"
	if why=$(elsewhere_unwound "$tmp/other.data" "$tmp/err"); then
		skip "$name, another kernel build id: $why"
		continue
	fi
	check "$name, another kernel build id, no kallsyms for it: kernel frames unresolved as perf script leaves them" \
		sh -c 'cmp -s "$1" "$2" && grep -q "\[\[kernel.kallsyms\]\]_\[k\]" "$2"' - "$tmp/want" "$tmp/got"
	check "... with one warning naming the missing kallsyms" \
		test "$(grep -c "not the running one and .*kallsyms is missing" "$tmp/err")" -eq 1
done
check "recordings with kernel samples and a kernel build id ($nfiles)" test "$nfiles" -ge 5

# syscalls.data: most samples in the kernel, deep kernel stacks
f=$TD/syscalls.data
if [ -f "$f" ]; then
	perf script -i "$(perf_readable "$f")" 2>/dev/null </dev/null |
		"$FOLD" --input=script --kernel >"$tmp/want"
	"$FOLD" -q --kernel "$f" >"$tmp/got"
	check "syscalls.data --kernel: as perf script | pd-fold --input=script ($(wc -l <"$tmp/want") stacks)" \
		cmp -s "$tmp/want" "$tmp/got"
	deep=$(awk '{ n = gsub(/_\[k\]/, ""); if (n > m) m = n } END { print m + 0 }' "$tmp/got")
	ksh=$(awk '/_\[k\]/ { k += $NF } { t += $NF } END { printf "%d", 100 * k / (t ? t : 1) }' "$tmp/got")
	check "syscalls.data: deep kernel stacks ($deep kernel frames at most, $ksh% of the weight in the kernel)" \
		test "$deep" -ge 8 -a "$ksh" -ge 50
	for fn in from_zero to_null ask_pid open_proc; do
		check "syscalls.data: $fn under main > run" grep -q ";main;run;$fn" "$tmp/got"
	done
else
	not_ok "testdata/syscalls.data exists (testdata/record.sh)"
fi
