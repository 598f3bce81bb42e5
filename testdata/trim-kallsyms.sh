#!/bin/sh
# Writes kallsyms/<kernel-build-id>: the few lines of that kernel's
# /proc/kallsyms that every kernel address sampled in the recordings here
# (sample ips and callchain entries, as `perf script -F ip` prints them)
# needs to resolve exactly as with the whole file. tests/lib.sh installs
# them in a private build-id cache as [kernel.kallsyms]/<id>/kallsyms, so
# perf and pd-fold name the kernel frames on any machine.
#
# Usage: trim-kallsyms.sh [FILE.data...]   (default: every *.data here)
#
# Run it on the kernel the recordings were made on (their kernel build id
# is the running one's, `perf buildid-list -k`); a kernel whose file is
# already in kallsyms/ is trimmed again from that file (the same lines).
#
# What perf 6.1 does with kallsyms (dso__load_kallsyms, symbols__fixup_end,
# symbols__fixup_duplicate), and why these lines suffice:
#  - it keeps T, W, D and B symbols (either case), not names starting
#    with '$'; each gets size 0, then ends where the next kept symbol
#    starts (the last one, or the last before the module symbols, on the
#    next page); of the symbols at one address, one is chosen by binding,
#    underscores and length. So for each sampled address: every line at
#    the address of the symbol containing it and at the next kept address;
#  - it finds the kernel map's relocation through the symbol the
#    recording's kernel MMAP names (_text; _stext on old kernels), and
#    narrows the kernel map to its first and last symbols: those lines,
#    and _etext's, are kept too.
# The script checks the result: perf script -F ip,sym,symoff,dso prints
# the same with --kallsyms=kallsyms/<id> as with the running kernel's.
set -eu
cd "$(dirname "$0")"
running=$(perf buildid-list -k 2>/dev/null || :)
[ $# -gt 0 ] || set -- *.data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p kallsyms

# the kernel addresses perf script prints for FILE (callchains included)
kernel_addrs() {
	perf script -F ip -i "$1" 2>/dev/null </dev/null | awk '{
		for (i = 1; i <= NF; i++)
			if (length($i) == 16 && $i ~ /^ffff[89a-f][0-9a-f]*$/)
				print $i
	}'
}

for f; do
	kernel_addrs "$f" >"$tmp/addrs"
	[ -s "$tmp/addrs" ] || continue
	bid=$(perf buildid-list -i "$f" 2>/dev/null </dev/null |
		awk '$2 == "[kernel.kallsyms]" { print $1; exit }')
	if [ -z "$bid" ]; then
		echo "$f: kernel samples but no kernel build id: perf reads the running kernel's /proc/kallsyms for it; nothing to trim" >&2
		continue
	fi
	cat "$tmp/addrs" >>"$tmp/$bid.addrs"
	echo "$f" >>"$tmp/$bid.files"
done

for a in "$tmp"/*.addrs; do
	[ -f "$a" ] || continue
	bid=${a##*/}; bid=${bid%.addrs}
	if [ "$bid" = "$running" ]; then
		src=/proc/kallsyms
	elif [ -s "kallsyms/$bid" ]; then
		src=$tmp/$bid.src
		cp "kallsyms/$bid" "$src"
	else
		echo "kernel $bid ($(tr '\n' ' ' <"$tmp/$bid.files")): not the running kernel and no kallsyms/$bid: record these on the machine that has it" >&2
		continue
	fi
	# the kept symbols' addresses ("K", c = core, m = module) and the
	# sampled ones ("S"), in address order (K before S at one address)
	{
		awk '$2 ~ /^[TtWwDdBb]$/ && $3 !~ /^\$/ {
			print $1, "K", (NF > 3 ? "m" : "c")
		}
		$3 == "_text" || $3 == "_stext" || $3 == "_etext" {
			print $1, "N"
		}' "$src"
		sed 's/$/ S/' "$a"
	} | LC_ALL=C sort -u >"$tmp/merged"
	awk '
	$2 == "N" { print $1; next }
	$2 == "K" {
		if (want) { print $1; want = 0 }
		last = $1
		if ($3 == "c") { if (first == "") first = $1; lastcore = $1 }
		next
	}
	$2 == "S" && last != "" { print last; want = 1 }
	END { if (first != "") print first; if (lastcore != "") print lastcore }
	' "$tmp/merged" | sort -u >"$tmp/need"
	awk 'NR == FNR { need[$1] = 1; next } $1 in need' "$tmp/need" "$src" \
		>"$tmp/out"
	if awk 'NF > 3 { found = 1 } END { exit !found }' "$tmp/out"; then
		echo "kernel $bid: samples in module code; perf also needs the kernel's modules file for those" >&2
	fi
	mv "$tmp/out" "kallsyms/$bid"
	echo "kallsyms/$bid: $(wc -l <"kallsyms/$bid") lines for $(sort -u "$a" | wc -l) addresses in $(tr '\n' ' ' <"$tmp/$bid.files")"
	[ "$src" = /proc/kallsyms ] || continue
	# the check: every file names its kernel frames as with the full file
	while read -r f; do
		perf script -F ip,sym,symoff,dso -i "$f" >"$tmp/full" 2>/dev/null </dev/null
		perf script -F ip,sym,symoff,dso --kallsyms="kallsyms/$bid" -i "$f" \
			>"$tmp/trim" 2>/dev/null </dev/null
		if ! cmp -s "$tmp/full" "$tmp/trim"; then
			echo "$f: kernel frames differ with kallsyms/$bid:" >&2
			diff "$tmp/full" "$tmp/trim" | head >&2
			exit 1
		fi
	done <"$tmp/$bid.files"
done
