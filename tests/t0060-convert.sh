#!/bin/sh
# pd-convert, checked by the system perf (6.1) reading what it writes:
# - every testdata/ file converted file->file, file->pipe, pipe->file and
#   to big-endian prints the same `perf script` as the original;
# - the corpus files perf 6.1 refuses because they are newer convert with
#   --target-perf=6.1 into files perf reads, with the samples (IPs and
#   callchains) pd-info --dump shows for the original;
# - testdata/ converted for older targets keeps the compat table's rules
#   (tests/tools/check-target);
# - an old-style pipe stream (perf 4.18 layout) that perf 6.1 refuses
#   opens after conversion;
# - --target-perf takes versions (5.15, 7.2, 5.10.223), what perf
#   --version prints and distributions (debian11, ubuntu22.04, centos8),
#   and --list-targets shows them with their builds;
# - a target's output is what its perf opens: file mode for a regular
#   file, even from a pipe; compressed only on --compress and only where
#   that perf decodes it; no attr bit it does not know; BUILD_ID pids of
#   the host (-1) where perf 7.x wrote the process's;
# - perf 6.1 reads what is converted for itself (its --version line) with
#   no warning line and the same samples, its own unreadable compressed
#   pipes included; Debian 11's perf 5.10 (a bullseye chroot, skipped
#   where absent) likewise, and names the hot function after the archive
#   route (--to=archive, then --from-archive --target-perf=debian11);
# - bad input or output leaves no output file behind; the input is never
#   the output.
# A perf older than the one that recorded testdata/ (Debian 11's 5.10)
# judges the copies made for it (perf_readable), and the newer corpus
# files are converted for its version instead of 6.1; what such a perf
# cannot read at all (compressed records without zstd) is said.
. "$(dirname "$0")/lib.sh"

CK=$PD_BIN/../tests/tools/check-target
conv() { "$PD_BIN/pd-convert" -q "$@"; }

# a perf built without zstd (Debian 11's) reads no compressed record
nozstd= dz=
if have_perf && perf version --build-options 2>/dev/null | grep -q 'zstd: \[ OFF'; then
	nozstd=1 dz=--decompress
fi

# perf script output, or nothing if perf cannot print this file
pscript() { perf script -i "$1" "$@" 2>"$tmp/ps.err" </dev/null; }

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): perf-read checks not run"
else
	for f in "$TD"/*.data; do
		n=$(basename "$f" .data)
		f=$(perf_readable "$f")
		perf script -i "$f" >"$tmp/want" 2>/dev/null </dev/null
		# perf stat record files: checked with perf stat report below
		[ "$n" = stat ] && continue
		# every comparison below is with this: perf must print it
		check "$n: perf script prints the original" test -s "$tmp/want"
		for how in "--file" "--pipe" "--endian=big" "--compress" "--decompress"; do
			if [ "$how" = --compress ] && [ -n "$nozstd" ]; then
				skip "$n $how: perf $(perf_version) was built without zstd"
				continue
			fi
			# perf 6.1 has no byte swapping for KSYMBOL and
			# BPF_EVENT (perf_event__swap_ops): it stops at the
			# first of them in a file of the other byte order
			if [ "$how" = --endian=big ] &&
			   "$PD_BIN/pd-info" --stats "$f" 2>/dev/null |
			   grep -q -E '(KSYMBOL|BPF_EVENT) events'; then
				skip "$n $how: perf 6.1 cannot read KSYMBOL or BPF_EVENT records in the other byte order (none of perf_event__swap_ops)"
				continue
			fi
			out=$tmp/$n$how.data
			if ! conv $how "$f" -o "$out" 2>"$tmp/err"; then
				not_ok "$n $how: converts ($(head -1 "$tmp/err"))"
				continue
			fi
			perf script -i "$out" >"$tmp/got" 2>/dev/null </dev/null
			# perf 6.1 leaves MMAP2's prot unswapped in a file of
			# the other byte order: an executable //anon map looks
			# non-executable and keeps its name (not perf-PID.map)
			sed 's|(/tmp/perf-[0-9]*\.map)$|(//anon)|' "$tmp/want" >"$tmp/want.be"
			w=$tmp/want
			[ "$how" = --endian=big ] && w=$tmp/want.be
			# perf 6.1 prints the callchains of tracepoint samples
			# read from a pipe with symbols only (no +offset, no
			# DSO), its own pipe recordings too
			if [ "$how" = --pipe ] &&
			   { [ "$n" = offcpu ] || [ "$n" = system-switch ]; }; then
				sed -E '/^	/{s/ \(.*\)$//;s/\+0x[0-9a-f]+$//;}' \
					"$tmp/want" >"$tmp/want.pipe"
				w=$tmp/want.pipe
			fi
			check "$n $how: perf script unchanged" cmp -s "$w" "$tmp/got"
		done
		# pipe -> file: back from the pipe form
		conv --file "$tmp/$n--pipe.data" -o "$tmp/$n.back.data" &&
			perf script -i "$tmp/$n.back.data" >"$tmp/got" 2>/dev/null </dev/null
		check "$n: pipe -> file: perf script unchanged" cmp -s "$tmp/want" "$tmp/got"
		# the pipe's build id records, which may follow the samples,
		# become the BUILD_ID feature (perf names the kernel by it)
		if is_pipe "$f" && perf_older_than 6.1; then
			skip "$n: pipe -> file: perf $(perf_version)'s buildid-list of a pipe names the DSOs it hit, with the build ids of this machine's files: nothing to compare with"
			continue
		fi
		perf buildid-list -i "$f" 2>/dev/null | sort >"$tmp/want.bid"
		perf buildid-list -i "$tmp/$n.back.data" 2>/dev/null | sort >"$tmp/got.bid"
		check "$n: pipe -> file: build ids kept" cmp -s "$tmp/want.bid" "$tmp/got.bid"
	done
	# stat record files: perf stat report
	# (perf names the command 'pipe' when it reads a pipe)
	st=$(perf_readable "$TD/stat.data")
	perf stat report -i "$st" 2>&1 | grep -v -e '^$' -e 'stats for' >"$tmp/want"
	conv --pipe "$st" -o "$tmp/stat.pipe" &&
		perf stat report -i "$tmp/stat.pipe" 2>&1 | grep -v -e '^$' -e 'stats for' >"$tmp/got"
	check "stat.data --pipe: perf stat report unchanged" cmp -s "$tmp/want" "$tmp/got"
fi

# Sample IPs and callchains (context markers left out) as pd-info --dump
# shows them, one line per sample: "ip: chain...".
dump_samples() {
	"$PD_BIN/pd-info" -q --dump "$1" | awk '
	/PERF_RECORD_SAMPLE/ {
		ip = ""; chain = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^[0-9]+\/[0-9]+:$/ && ip == "") ip = $(i + 1)
			if ($i == "callchain:") {
				for (j = i + 2; j <= NF; j++) {
					v = $j; gsub(/[\[\]]/, "", v)
					if (v == "") continue
					if (length(v) == 18 && v >= "0xfffffffffffff000") continue
					chain = chain " " v
					if ($j ~ /\]$/) break
				}
			}
		}
		print ip ":" chain
	}'
}

# The same from perf script: the sample IPs (-G hides callchains), and
# with callchains, one block per sample, one ip per line.
perf_ips() {
	perf script -i "$1" -G -F ip 2>/dev/null </dev/null | awk '{ print "0x" $1 }'
}
perf_chains() {
	perf script -i "$1" -F ip 2>/dev/null </dev/null |
		awk 'BEGIN { RS = "" } { c = ""; for (i = 1; i <= NF; i++) c = c " 0x" $i; print c }'
}

fx=$PD_CORPUS/mstange_linux-perf-data/tests/fixtures
# the perf at hand's target (6.1 here; 5.10 on Debian 11, decompressed
# for its perf built without zstd)
T=6.1
have_perf && T=$(perf_target)
for n in sleep.data sleep.compressed.data sleep.compressed2.data \
	 sleep.compressed.pipe.data; do
	f=$fx/$n
	if [ ! -f "$f" ]; then
		skip "corpus file $n absent"
		continue
	fi
	if ! have_perf; then
		skip "$n: perf not installed"
		continue
	fi
	if ! conv --target-perf="$T" $dz "$f" -o "$tmp/$n.61" 2>"$tmp/err"; then
		not_ok "$n: converts for $T ($(head -1 "$tmp/err"))"
		continue
	fi
	perf script -i "$tmp/$n.61" >/dev/null 2>"$tmp/err" </dev/null
	check "$n --target-perf=$T: perf $T reads it" \
		sh -c "[ $? -eq 0 ] && ! grep -q -E 'failed|incompatible|Error' '$tmp/err'"
	want=$("$PD_BIN/pd-info" -q --stats "$f" | awk '$1 == "SAMPLE" { print $3; exit }')
	if is_pipe "$tmp/$n.61" && perf_older_than 6.1; then
		# perf 5.10's report parses no sample of a pipe, even of its
		# own recordings ("Can't parse sample"): its script counts
		got=$(perf_ips "$tmp/$n.61" | wc -l)
	else
		got=$(perf report --stats -i "$tmp/$n.61" 2>/dev/null </dev/null |
		      awk '$1 == "SAMPLE" { print $3; exit }')
	fi
	check "$n --target-perf=$T: $want samples (perf counts ${got:-none})" \
		[ -n "$want" ] && [ "$want" = "$got" ]
	dump_samples "$f" >"$tmp/want"
	cut -d: -f1 "$tmp/want" >"$tmp/want.ip"
	perf_ips "$tmp/$n.61" >"$tmp/got.ip"
	check "$n --target-perf=$T: sample IPs equal the original's" \
		cmp -s "$tmp/want.ip" "$tmp/got.ip"
	if grep -q ': 0x' "$tmp/want"; then
		cut -d: -f2 "$tmp/want" >"$tmp/want.cc"
		perf_chains "$tmp/$n.61" >"$tmp/got.cc"
		check "$n --target-perf=$T: callchains equal the original's" \
			cmp -s "$tmp/want.cc" "$tmp/got.cc"
	fi
done

# Older targets: the converted files keep the table's rules.
# the versions table: up to the first empty line
targets() { "$PD_BIN/pd-convert" --list-targets | awk 'NR > 1 && !NF { exit } NR > 1 { print $1 }'; }
for t in $(targets); do
	for f in "$TD"/*.data; do
		n=$(basename "$f" .data)
		if ! conv --target-perf="$t" "$f" -o "$tmp/t.data" 2>"$tmp/err"; then
			# a clear refusal is acceptable only with its reason
			check "$n -> $t: refused with a reason" grep -q . "$tmp/err"
			continue
		fi
		"$CK" "$t" "$tmp/t.data" >"$tmp/ck" 2>&1
		check "$n -> $t: keeps the target's rules" [ $? -eq 0 ]
	done
	# the pipe form too
	if conv --pipe --target-perf="$t" "$TD/fp.data" -o "$tmp/t.pipe"; then
		"$CK" "$t" "$tmp/t.pipe" >"$tmp/ck" 2>&1
		check "fp.data -> $t --pipe: keeps the target's rules" [ $? -eq 0 ]
	else
		not_ok "fp.data -> $t --pipe: converts"
	fi
done
"$CK" 4.18 "$TD/fp.data" >/dev/null 2>&1
check "check-target flags a perf 6.1 file for 4.18" [ $? -eq 1 ]

# An old pipe stream: RHEL 8's layout (112-byte attrs, features ended by
# its own marker, 24). perf 6.1 takes 24 for DIR_FORMAT and stops there;
# converted for 6.1 it reads the whole stream. Upstream 4.18's marker, 23,
# carries 8 zero bytes that perf 6.1 reads as an empty CLOCKID
# (docs/compat.md, "Pipe end marker"): that stream it reads as it is.
# (The perf at hand reads the conversion for its own version, $T.)
if have_perf; then
	perf script -i "$(perf_readable "$TD/pipe.data")" >"$tmp/want" 2>/dev/null </dev/null
	conv --pipe --target-perf=rhel8 "$TD/pipe.data" -o "$tmp/old.pipe"
	perf script -i "$tmp/old.pipe" >/dev/null 2>"$tmp/err" </dev/null
	check "rhel8-layout pipe: perf $(perf_version) refuses it as it is" grep -q 'failed to process type: 80' "$tmp/err"
	conv --pipe --target-perf="$T" "$tmp/old.pipe" -o "$tmp/new.pipe"
	perf script -i "$tmp/new.pipe" >"$tmp/got" 2>"$tmp/err" </dev/null
	check "rhel8-layout pipe -> $T: perf script equals the original's" \
		test -s "$tmp/want" -a -z "$(diff "$tmp/want" "$tmp/got")"
	"$PD_BIN/pd-convert" --explain --pipe --target-perf=6.1 "$tmp/old.pipe" >"$tmp/ex" 2>/dev/null
	check "--explain names the marker fix" grep -q 'pipe-marker *applies: 1 changed' "$tmp/ex"
	conv --pipe --target-perf=4.18 "$TD/pipe.data" -o "$tmp/old.pipe"
	perf script -i "$tmp/old.pipe" >"$tmp/got" 2>"$tmp/err" </dev/null
	check "4.18-layout pipe: perf 6.1 reads it as it is, nothing on stderr" test $? -eq 0 -a ! -s "$tmp/err"
	"$PD_BIN/pd-info" -q --dump "$tmp/old.pipe" | grep -q '\[0x18\]: PERF_RECORD_FEATURE(misc 0) end of the features (id 23)$'
	check "4.18-layout pipe: marker 23 with 8 bytes" test $? -eq 0
fi

# A 3.10 pipe with several events suits both 3.10 perfs: upstream finds
# HEADER_ATTR ids after its 96-byte attr, RHEL 7 after 112 bytes. Each
# attr is 96 bytes, then 16 zero bytes (two ids 0 for upstream, zero
# fields for RHEL 7), then the ids (checked by hand with RHEL 7.9's perf,
# docs/compat.md).
if conv --pipe --target-perf=3.10 "$TD/multi.data" -o "$tmp/m310.pipe"; then
	# the first ATTR record: right after the 16-byte pipe header
	size=$(od -A n -t u2 -j 22 -N 2 "$tmp/m310.pipe" | tr -d ' ')
	asize=$(od -A n -t u4 -j 28 -N 4 "$tmp/m310.pipe" | tr -d ' ')
	pad=$(od -A n -t x1 -j $((16 + 8 + 96)) -N 16 "$tmp/m310.pipe" | tr -d ' \n')
	ids=$("$PD_BIN/pd-info" -q --dump "$tmp/m310.pipe" | awk '/PERF_RECORD_ATTR/ { print $NF; exit }')
	check "3.10 pipe: attr size 96 ($asize)" [ "$asize" = 96 ]
	check "3.10 pipe: 16 zero bytes after the attr" [ "$pad" = 00000000000000000000000000000000 ]
	check "3.10 pipe: ids after 112 bytes are the real ones ($size bytes, $ids ids after 96)" \
		[ $(( (size - 8 - 112) / 8 )) -eq $((ids - 2)) ] && [ "$ids" -gt 2 ]
	"$CK" 3.10 "$tmp/m310.pipe" >/dev/null 2>&1
	check "3.10 pipe: keeps the target's rules" [ $? -eq 0 ]
else
	not_ok "multi.data -> 3.10 --pipe: converts"
fi
conv --pipe --target-perf=4.1 "$TD/multi.data" -o "$tmp/m41.pipe"
pad=$(od -A n -t x1 -j $((16 + 8 + 112)) -N 8 "$tmp/m41.pipe" | tr -d ' \n')
check "4.1 pipe: no padding (the ids follow the 112-byte attr)" [ "$pad" != 0000000000000000 ]

# Read, write, read: the same records.
for f in "$TD"/fp.data "$TD"/pipe.data "$TD"/zstd.data "$TD"/tracepoint.data; do
	n=$(basename "$f")
	conv "$f" -o "$tmp/rt.data"
	"$PD_BIN/pd-info" -q --dump "$f" | grep -v -E 'COMPRESSED|FEATURE' |
		sed -E 's/^0x[0-9a-f]+(\+0x[0-9a-f]+)? //' >"$tmp/want"
	"$PD_BIN/pd-info" -q --dump "$tmp/rt.data" | grep -v -E 'COMPRESSED|FEATURE' |
		sed -E 's/^0x[0-9a-f]+(\+0x[0-9a-f]+)? //' >"$tmp/got"
	check "$n: read, write, read gives the same records" cmp -s "$tmp/want" "$tmp/got"
	conv --endian=big "$f" -o "$tmp/be.data" && conv --endian=little "$tmp/be.data" -o "$tmp/le.data"
	"$PD_BIN/pd-info" -q --dump "$tmp/le.data" | grep -v -E 'COMPRESSED|FEATURE' |
		sed -E 's/^0x[0-9a-f]+(\+0x[0-9a-f]+)? //' >"$tmp/got"
	check "$n: little -> big -> little gives the same records" cmp -s "$tmp/want" "$tmp/got"
	"$PD_BIN/pd-info" -q --stats "$tmp/be.data" |
		awk '$2 == "events:" && $1 !~ /COMPRESSED|FEATURE|TOTAL/ { print $1, $3 }' >"$tmp/got"
	"$PD_BIN/pd-info" -q --stats "$f" |
		awk '$2 == "events:" && $1 !~ /COMPRESSED|FEATURE|TOTAL/ { print $1, $3 }' >"$tmp/want"
	check "$n: big-endian copy has the same record counts" cmp -s "$tmp/want" "$tmp/got"
done

# Explain: what the 6.6 file needs for 6.1.
if [ -f "$fx/sleep.data" ]; then
	"$PD_BIN/pd-convert" --explain --target-perf=6.1 "$fx/sleep.data" >"$tmp/ex"
	check "--explain: attr-size 136 -> 128" grep -q 'attr size 136 -> 128' "$tmp/ex"
	check "--explain writes nothing" [ ! -e perf.data.explain ]
fi

# AUXTRACE data (Intel PT) is copied after its record, outside
# compression, and the AUXTRACE feature re-indexes it: perf 6.1 decodes
# the same trace from each result (perf script runs the PT decoder over
# the AUX bytes, so a byte out of place shows). perf 6.1 does not decode
# PT from a pipe ("not recommended"): the pipe form is checked by
# converting it back to a file.
pt=$PD_CORPUS/google_perf_data_converter/src/quipper/testdata/perf.data.intel_pt-4.14
if [ -f "$pt" ]; then
	if have_perf; then
		perf script -i "$pt" >"$tmp/want" 2>/dev/null </dev/null
		for how in --file --endian=big --compress; do
			if [ "$how" = --compress ] && [ -n "$nozstd" ]; then
				skip "AUXTRACE $how: perf $(perf_version) was built without zstd"
				continue
			fi
			conv $how "$pt" -o "$tmp/pt.data" &&
				perf script -i "$tmp/pt.data" >"$tmp/got" 2>/dev/null </dev/null
			check "AUXTRACE $how: perf script decodes the same trace ($(wc -l <"$tmp/want") lines)" \
				cmp -s "$tmp/want" "$tmp/got"
		done
		conv --pipe "$pt" -o "$tmp/pt.pipe" &&
			conv --file "$tmp/pt.pipe" -o "$tmp/pt.data" &&
			perf script -i "$tmp/pt.data" >"$tmp/got" 2>/dev/null </dev/null
		check "AUXTRACE --pipe, back to a file: perf script decodes the same trace" \
			cmp -s "$tmp/want" "$tmp/got"
		perf report --header-only -I -i "$pt" 2>/dev/null | grep -c 'AUX area' >"$tmp/want"
		perf report --header-only -I -i "$tmp/pt.data" 2>/dev/null | grep -c 'AUX area' >"$tmp/got"
		check "AUXTRACE: the AUX index feature is kept" cmp -s "$tmp/want" "$tmp/got"
	else
		skip "perf not installed: AUXTRACE copies not decoded"
	fi
	conv --target-perf=4.1 "$pt" -o "$tmp/pt.data"
	check "AUXTRACE dropped for 4.1: converts" [ $? -eq 0 ]
	"$PD_BIN/pd-info" -q --stats "$tmp/pt.data" | grep -q 'AUXTRACE events'
	check "AUXTRACE dropped for 4.1: no AUXTRACE record left" [ $? -ne 0 ]
else
	skip "corpus file perf.data.intel_pt-4.14 absent"
fi

# Failures leave nothing behind, and never touch the input.
cp "$TD/fp.data" "$tmp/in.data"
sum=$(cksum <"$tmp/in.data")
"$PD_BIN/pd-convert" -q "$tmp/in.data" -o "$tmp/in.data" 2>"$tmp/err"
check "output = input: refused with exit 2" [ $? -eq 2 ]
check "output = input: input unchanged" [ "$(cksum <"$tmp/in.data")" = "$sum" ]
head -c 3000 "$TD/fp.data" >"$tmp/trunc.data"
printf 'x' >"$tmp/keep.data"
mkdir "$tmp/outdir"
"$PD_BIN/pd-convert" -q "$tmp/trunc.data" -o "$tmp/outdir/out.data" 2>"$tmp/err"
rc=$?
check "truncated input: a complete output or none (rc $rc)" \
	sh -c "[ $rc -eq 0 ] || [ ! -e '$tmp/outdir/out.data' ]"
check "no temporary file left behind" [ -z "$(ls -A "$tmp/outdir" | grep -v '^out.data$')" ]
dd if=/dev/urandom of="$tmp/junk.data" bs=1k count=4 2>/dev/null
"$PD_BIN/pd-convert" -q "$tmp/junk.data" -o "$tmp/keep.data" 2>"$tmp/err"
check "junk input: exit 1" [ $? -eq 1 ]
check "junk input: existing output untouched" [ "$(cat "$tmp/keep.data")" = x ]
check "junk input: one-line error naming the file" \
	sh -c "[ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q junk.data '$tmp/err'"
"$PD_BIN/pd-convert" --target-perf=nope "$TD/fp.data" -o "$tmp/x" 2>"$tmp/err"
check "unknown target: exit 2, saying why" [ $? -eq 2 ] && grep -q 'nope.*neither a perf version' "$tmp/err"
"$PD_BIN/pd-convert" --target-perf=2.6.32 "$TD/fp.data" -o "$tmp/x" 2>"$tmp/err"
check "a perf older than every target: exit 2, naming the oldest" [ $? -eq 2 ] && grep -q 'older than the oldest perf known here (3.10)' "$tmp/err"
"$PD_BIN/pd-convert" --shim=nope "$TD/fp.data" -o "$tmp/x" 2>/dev/null
check "unknown shim: exit 2" [ $? -eq 2 ]
"$PD_BIN/pd-convert" --list-shims | grep -q '^attr-size '
check "--list-shims lists attr-size" [ $? -eq 0 ]
counts() { awk '$2 == "events:" && $1 !~ /FEATURE|TOTAL|ATTR|BUILD_ID/ { print $1, $3 }'; }
conv --pipe "$TD/fp.data" -o - | "$PD_BIN/pd-info" -q --stats - | counts >"$tmp/got2"
"$PD_BIN/pd-info" -q --stats "$TD/fp.data" | counts >"$tmp/want"
check "-o - writes a pipe stream to stdout" cmp -s "$tmp/want" "$tmp/got2"

# ---- naming the target perf ----
BE=$PD_BIN/../tests/tools/bid-edit
mode_of() { # file or pipe, from the header's size field
	case $(od -A n -t u8 -j 8 -N 8 "$1" | tr -d ' ') in
	104) echo file ;; 16) echo pipe ;; *) echo other ;;
	esac
}
for spec in 5.15 5.10.223 "perf version 5.10.223" "perf version 6.1.187" \
	    "perf version 4.18.0-553.el8_10.x86_64" debian11 ubuntu22.04 \
	    centos8 "Debian 12" 7.2; do
	if ! "$PD_BIN/pd-convert" -q --target-perf="$spec" "$TD/buildid-mmap.data" \
		-o "$tmp/spec.data" 2>"$tmp/err"; then
		not_ok "--target-perf='$spec': converts ($(head -1 "$tmp/err"))"
		continue
	fi
	"$CK" "$spec" "$tmp/spec.data" >"$tmp/ck" 2>&1
	check "--target-perf='$spec': the output keeps its rules ($(head -1 "$tmp/ck"))" [ $? -eq 0 ]
done
"$PD_BIN/pd-convert" --explain --target-perf=5.15 "$TD/fp.data" >"$tmp/ex"
check "5.15 reads as 5.14 (the newest known perf not newer)" \
	grep -q '^reads as: 5.15: perf 5.15 reads at least what 5.14 reads' "$tmp/ex"
"$PD_BIN/pd-convert" --explain --target-perf=ubuntu22.04 "$TD/fp.data" >"$tmp/ex"
check "ubuntu22.04: Ubuntu 22.04's perf 5.15, 5.14's facts" \
	grep -q "^reads as: ubuntu22.04: Ubuntu 22.04 LTS (jammy)'s perf 5.15.x, read as perf 5.14 reads" "$tmp/ex"
"$PD_BIN/pd-convert" --explain --target-perf="perf version 4.18.0-553.el8_10.x86_64" "$TD/fp.data" >"$tmp/ex"
check "perf --version of RHEL 8: the rhel8 target" grep -q "^target: RHEL 8 .*perf 4.18.0-\*.el8" "$tmp/ex"
"$PD_BIN/pd-convert" -q --target-perf=7.2 "$TD/fp.data" -o "$tmp/x" 2>"$tmp/err"
check "7.2 converts with the newest facts, no warning with -q" [ $? -eq 0 ] && [ ! -s "$tmp/err" ]
"$PD_BIN/pd-convert" --target-perf=7.2 "$TD/fp.data" -o "$tmp/x" 2>"$tmp/err"
check "7.2: one warning naming the newest perf known (6.16)" \
	[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'warning: perf 7.2 is newer than the newest perf known here (6.16)' "$tmp/err"
"$PD_BIN/pd-convert" --list-targets >"$tmp/lt"
check "--list-targets: Debian 11's perf 5.10.223, built without zstd" \
	grep -q '^debian11 *5.10.223 *5.10 *no .*linux-perf-5.10 5.10.223-1' "$tmp/lt"
check "--list-targets: the RHEL rebuilds' names (centos8, rocky9, ol8)" \
	sh -c "grep '^rhel8 ' '$tmp/lt' | grep -q 'centos8.*ol8' && grep '^rhel9 ' '$tmp/lt' | grep -q rocky9"
check "--list-targets: every distribution of the issue" \
	sh -c "for d in debian10 debian11 debian12 debian13 ubuntu18.04 ubuntu20.04 ubuntu22.04 ubuntu24.04 rhel7 rhel8 rhel9; do grep -q \"^\$d \" '$tmp/lt' || exit 1; done"

# ---- the output a target gets ----
conv --target-perf=5.10 "$TD/pipe.data" -o "$tmp/p2f.data"
check "pipe input, regular -o file, a target: file mode" [ "$(mode_of "$tmp/p2f.data")" = file ]
conv --target-perf=5.10 "$TD/pipe.data" >"$tmp/p2f.out" -o -
check "pipe input, stdout redirected to a file, a target: file mode" [ "$(mode_of "$tmp/p2f.out")" = file ]
conv --target-perf=5.10 "$TD/fp.data" -o - | cat >"$tmp/f2p.out"
check "file input, stdout a pipe: pipe mode" [ "$(mode_of "$tmp/f2p.out")" = pipe ]
conv --pipe --target-perf=5.10 "$TD/fp.data" -o "$tmp/f2p.data"
check "--pipe to a regular file: pipe mode" [ "$(mode_of "$tmp/f2p.data")" = pipe ]
conv "$TD/pipe.data" -o "$tmp/same.data"
check "no target: the input's mode (pipe)" [ "$(mode_of "$tmp/same.data")" = pipe ]
ncomp() { "$PD_BIN/pd-info" -q --stats "$1" | awk '$1 ~ /^COMPRESSED2?$/ { n += $3 } END { print n + 0 }'; }
explain_comp() { "$PD_BIN/pd-convert" --explain "$@" | sed -n 's/^compression: //p'; }
for t in 5.10 6.1 debian12 debian11 4.18; do
	conv --target-perf=$t "$TD/zstd.data" -o "$tmp/z.data"
	check "zstd.data for $t: uncompressed by default" [ "$(ncomp "$tmp/z.data")" -eq 0 ]
done
conv --compress --target-perf=5.10 "$TD/zstd.data" -o "$tmp/z.data"
check "--compress for 5.10 (build not known: asked): compressed" [ "$(ncomp "$tmp/z.data")" -gt 0 ]
conv --compress --target-perf=debian12 "$TD/zstd.data" -o "$tmp/z.data"
check "--compress for debian12 (built with zstd): compressed" [ "$(ncomp "$tmp/z.data")" -gt 0 ]
conv --compress --target-perf=debian11 "$TD/zstd.data" -o "$tmp/z.data"
check "--compress for debian11 (built without zstd): not compressed" [ "$(ncomp "$tmp/z.data")" -eq 0 ]
check "--explain says why: built without zstd" \
	sh -c "explain_comp() { \"$PD_BIN/pd-convert\" --explain \"\$@\" | sed -n 's/^compression: //p'; }
	       explain_comp --compress --target-perf=debian11 '$TD/zstd.data' | grep -q 'built without zstd'"
c=$(explain_comp --compress --target-perf=4.18 "$TD/zstd.data")
check "--explain for 4.18: knows no compressed records ($c)" sh -c "echo '$c' | grep -q 'knows no compressed records'"
c=$(explain_comp --pipe --compress --target-perf=6.1 "$TD/zstd.data")
check "--explain for a pipe: perf does not decompress from a pipe ($c)" sh -c "echo '$c' | grep -q 'from a pipe'"
c=$(explain_comp --target-perf=6.1 "$TD/zstd.data")
check "--explain: uncompressed for a target unless --compress ($c)" sh -c "echo '$c' | grep -q 'unless --compress'"

# ---- bits, pids ----
conv --target-perf=5.10 "$TD/buildid-mmap.data" -o "$tmp/b.data"
"$PD_BIN/pd-info" -q "$tmp/b.data" | grep '^# event :' >"$tmp/ev"
check "for 5.10: no build_id attr bit (5.12+), no read_format LOST (6.0+)" \
	sh -c "grep -q cpu-clock '$tmp/ev' && ! grep -q -e 'build_id' -e 'LOST' '$tmp/ev'"
"$PD_BIN/pd-convert" --explain --target-perf=5.10 "$TD/buildid-mmap.data" >"$tmp/ex"
check "--explain lists the attr bits removed (flag 34, read_format 4)" \
	sh -c "grep -q '^    flag bits removed: 34$' '$tmp/ex' && grep -q '^    read_format bits removed: 4$' '$tmp/ex'"
conv --target-perf=5.10 "$TD/read.data" -o "$tmp/r.data"
"$PD_BIN/pd-info" -q --dump "$TD/read.data" | awk '/PERF_RECORD_READ/ { sub(/:$/, "", $2); print $2 }' >"$tmp/want"
"$PD_BIN/pd-info" -q --dump "$tmp/r.data" | awk '/PERF_RECORD_READ/ { sub(/:$/, "", $2); print $2 }' >"$tmp/got"
check "READ records: 8 bytes shorter without the lost value ($(head -1 "$tmp/got"))" \
	sh -c "[ -s '$tmp/want' ] && [ \"\$(sort -u '$tmp/want')\" = '[0x48]' ] && [ \"\$(sort -u '$tmp/got')\" = '[0x40]' ]"
if have_perf; then
	perf report -D -i "$tmp/r.data" 2>/dev/null </dev/null | grep -A3 'PERF_RECORD_READ' | grep 'id  ' | sort -u >"$tmp/got"
	perf report -D -i "$TD/read.data" 2>/dev/null </dev/null | grep -A3 'PERF_RECORD_READ' | grep 'id  ' | sort -u >"$tmp/want"
	if [ ! -s "$tmp/want" ] && perf_older_than 6.1; then
		# perf 5.10 cannot read the original (128-byte attrs): its
		# ids as pd-convert --to=json gives them
		"$PD_BIN/pd-convert" -q --to=json "$TD/read.data" -o - |
			grep '"name":"READ"' | grep -o '"id":[0-9]*' | cut -d: -f2 | sort -u >"$tmp/want"
		sed 's/.*: *//' "$tmp/got" | sort -u >"$tmp/got.ids"
		mv "$tmp/got.ids" "$tmp/got"
	fi
	check "READ records: perf $(perf_version) reads the same ids from them" sh -c "[ -s '$tmp/want' ] && cmp -s '$tmp/want' '$tmp/got'"
fi
cp "$TD/fp.data" "$tmp/fp7.data"
n=$("$BE" pid 4242 "$tmp/fp7.data")
check "bid-edit: user BUILD_ID entries under pid 4242, a process's ($n)" [ "${n:-0}" -gt 0 ]
"$CK" 6.1 "$tmp/fp7.data" >/dev/null 2>&1
check "check-target flags BUILD_ID entries with a process's pid" [ $? -eq 1 ]
for t in 3.10 4.18 5.10 6.1 6.16 debian11; do
	conv --target-perf=$t "$tmp/fp7.data" -o "$tmp/fp7.$t.data"
	"$CK" $t "$tmp/fp7.$t.data" >"$tmp/ck" 2>&1
	check "pid 4242 entries for $t: the host's (-1) ($(head -1 "$tmp/ck"))" [ $? -eq 0 ]
done
"$PD_BIN/pd-convert" --explain --target-perf=5.10 "$tmp/fp7.data" >"$tmp/ex"
check "--explain counts the BUILD_ID entries moved to the host" grep -q '^shim build-id-pid *applies: 2 changed' "$tmp/ex"
conv --pipe --target-perf=5.10 "$tmp/fp7.data" -o "$tmp/fp7.pipe"
conv --target-perf=5.10 "$tmp/fp7.pipe" -o "$tmp/fp7.back"
"$CK" 5.10 "$tmp/fp7.back" >"$tmp/ck" 2>&1
check "pid 4242 entries through a pipe (HEADER_BUILD_ID records) and back: the host's" [ $? -eq 0 ]

# ---- perf 6.1 reads what is converted for it, warning-free ----
# samples as perf report --stats counts them
nsamples() { awk '$1 == "SAMPLE" && $2 == "events:" { print $3; exit }'; }
# stderr lines of perf (5.10 or 6.1) on a converted file ($1) that perf
# 6.1 does not print for the original ($2): a kernel whose kallsyms are
# not at hand is warned about whatever the file
new_warnings() {
	perf script -i "$2" 2>&1 >/dev/null </dev/null | sort -u >"$tmp/w.orig"
	# a perf that cannot read the original (perf 5.10, 128-byte
	# attrs) gives no baseline: the kernel's warning goes as above
	if grep -q 'incompatible file format' "$tmp/w.orig"; then
		sort -u "$1" | grep -v '^No kallsyms or vmlinux with build-id [0-9a-f]* was found$'
	else
		sort -u "$1" | comm -23 - "$tmp/w.orig"
	fi
}
if have_perf; then
	# the recording kernels' kallsyms, which perf script looks for
	testdata_buildid_cache
	me=$(perf --version)
	for f in "$TD"/*.data; do
		n=$(basename "$f" .data)
		[ "$n" = stat ] && continue
		want=$("$PD_BIN/pd-info" -q --stats "$f" | nsamples)
		if ! conv --target-perf="$me" "$f" -o "$tmp/me.data" 2>"$tmp/err"; then
			not_ok "$n for '$me': converts ($(head -1 "$tmp/err"))"
			continue
		fi
		got=$(perf report --stats -i "$tmp/me.data" 2>"$tmp/err" </dev/null | nsamples)
		check "$n for '$me': perf report --stats counts $want samples (${got:-none}), no warning ($(head -1 "$tmp/err"))" \
			[ "$want" = "$got" ] && [ ! -s "$tmp/err" ]
		perf script -i "$tmp/me.data" >/dev/null 2>"$tmp/err" </dev/null
		w=$(new_warnings "$tmp/err" "$f")
		check "$n for '$me': perf script prints no warning line the original has not (${w:-none})" [ -z "$w" ]
	done
	# perf's own compressed pipes: perf 6.1 fails on them
	# ("Couldn't decompress data"), as 6.12 and 7.x on theirs
	zp=$tmp/zpipe.data
	if perf record -q -z -g -o - -- "$TD/bin/burn" 100 >"$zp" 2>/dev/null &&
	   [ "$(ncomp "$zp")" -gt 0 ]; then
		what="perf record -z -o -"
	else
		conv --pipe "$TD/zstd.data" -o "$zp"	# as perf 6.1 writes it
		what="zstd.data as a pipe"
	fi
	perf report --stats -i "$zp" >"$tmp/out" 2>"$tmp/err" </dev/null
	if [ -n "$nozstd" ]; then
		# a perf without zstd (Debian 11's 5.10) says nothing: it
		# counts the compressed records and reads no sample in them
		ns=$(nsamples <"$tmp/out")
		check "$what: perf $(perf_version), without zstd, reads none of its samples (${ns:-none})" \
			test "${ns:-0}" = 0
	else
		check "$what: perf 6.1 cannot read it ($(head -1 "$tmp/err"))" grep -q -i 'decompress' "$tmp/err"
	fi
	want=$("$PD_BIN/pd-info" -q --stats "$zp" | nsamples)
	for o in "-o $tmp/zfixed.data" "--pipe -o $tmp/zfixed.data"; do
		if [ "${o%% *}" = --pipe ] && perf_older_than 6.1; then
			skip "$what, pd-convert --target-perf='$me' $o: perf $(perf_version)'s report parses no sample of a pipe, not even of its own recordings"
			continue
		fi
		conv --target-perf="$me" "$zp" $o
		got=$(perf report --stats -i "$tmp/zfixed.data" 2>"$tmp/err" </dev/null | nsamples)
		check "$what, pd-convert --target-perf='$me' $o: perf $(perf_version) reads its $want samples (${got:-none}), no warning" \
			[ "$want" = "$got" ] && [ ! -s "$tmp/err" ]
	done
else
	skip "perf not installed: perf 6.1's readings of converted files not checked"
fi

# ---- Debian 11's perf 5.10, in a bullseye chroot ----
# (tests/distro/ makes it: debootstrap --variant=minbase --include=linux-perf)
why=$(bullseye_perf_why)
if [ -n "$why" ]; then
	skip "$why: perf 5.10 checks not run"
else
	bullseye_dir t0060
	# the testdata binaries and kernels' kallsyms, in a build-id cache
	mkdir -p "$bd/cache"
	[ -n "${PERF_BUILDID_DIR:-}" ] && cp -a "$PERF_BUILDID_DIR/." "$bd/cache/"
	printf '[buildid]\n\tdir = %s/cache\n' "$in" >"$bd/perfconfig"
	# p510_reads WHAT FILE WANT [ORIGINAL]: perf 5.10's report --stats
	# counts WANT samples in FILE (under the chroot's $in) with nothing
	# on stderr, and its script prints no warning line: none at all, or
	# with ORIGINAL none perf 6.1 does not print for the original too
	p510_reads() {
		got=$(p510 report --stats -i "$in/$2" 2>"$tmp/err" </dev/null | nsamples)
		check "$1: perf 5.10 counts the $3 samples (${got:-none}), no warning ($(head -1 "$tmp/err"))" \
			[ "$3" = "$got" ] && [ ! -s "$tmp/err" ]
		p510 script -i "$in/$2" >/dev/null 2>"$tmp/err" </dev/null
		if [ -n "${4:-}" ] && have_perf; then
			w=$(new_warnings "$tmp/err" "$4")
		else
			w=$(cat "$tmp/err")
		fi
		check "$1: perf 5.10 script prints no warning line${4:+ perf 6.1 does not for the original} (${w:-none})" [ -z "$w" ]
	}
	for n in fp buildid-mmap zstd pipe read cgroups pagesize switch two-events \
		 multi tracepoint namespaces dwarf clock period; do
		f=$TD/$n.data
		[ -f "$f" ] || continue
		want=$("$PD_BIN/pd-info" -q --stats "$f" | nsamples)
		for t in debian11 5.10; do
			conv --target-perf=$t "$f" -o "$bd/$n.$t.data" || { not_ok "$n for $t: converts"; continue; }
			p510_reads "$n for $t" "$n.$t.data" "$want" "$f"
		done
	done
	# perf 6.12's and 7.2's own recordings (testdata/newer): the samples
	# their perf counted (newer/samples), no warning line, and burn's
	# hot function named through the build-id cache (the recorded path
	# is not in the chroot): the build ids of 7.2's MMAP2 records reach
	# a BUILD_ID table under the host's pid
	while read -r n want; do
		f=$TD/newer/$n
		for t in debian11 5.10; do
			conv --target-perf=$t "$f" -o "$bd/$n.$t" || { not_ok "newer/$n for $t: converts"; continue; }
			p510_reads "newer/$n for $t" "$n.$t" "$want"
		done
		# perf 6.12's pipe names no build id: the archive route below
		case $n in *dwarf*|perf6.12-zstd-pipe*) continue ;; esac
		top=$(p510 report --stdio --no-children --sort sym -i "$in/$n.debian11" 2>/dev/null </dev/null |
		      awk '/%/ { print $3; exit }')
		check "newer/$n for debian11: perf 5.10 names burn's hot function (${top:-none})" [ "$top" = inner_hot ]
	done <"$TD/newer/samples"
	# perf 7.x's kernel map is an MMAP2, which perf 5.10 takes for no
	# map ("Kernel address maps ... were restricted", raw kernel
	# addresses): kernel-mmap2 makes it an MMAP, and only it
	k=perf7.2-kernel.data
	"$PD_BIN/pd-convert" --explain --target-perf=debian11 "$TD/newer/$k" >"$tmp/ex"
	check "newer/$k for debian11: kernel-mmap2 changes its one kernel MMAP2, mmap2-to-mmap is off" \
		grep -q '^shim kernel-mmap2 *applies: 1 changed' "$tmp/ex" && ! grep -q '^shim mmap2-to-mmap' "$tmp/ex"
	"$PD_BIN/pd-info" --dump "$bd/$k.debian11" >"$tmp/dump"
	check "newer/$k for debian11: the kernel map an MMAP, burn's map still an MMAP2" \
		grep -q 'PERF_RECORD_MMAP(.*\[kernel.kallsyms\]_text' "$tmp/dump" &&
		grep -q 'PERF_RECORD_MMAP2(.*testdata/bin/burn' "$tmp/dump"
	for t in debian11 5.10; do
		p510 report --stdio --no-children --sort sym -g none -i "$in/$k.$t" >"$tmp/rep" 2>"$tmp/err" </dev/null
		check "newer/$k for $t: perf 5.10 report prints no warning ($(head -1 "$tmp/err")) and names a kernel function" \
			[ ! -s "$tmp/err" ] && grep -q '\[k\] [a-z_]' "$tmp/rep"
	done
	# its archive: the kernel's build id is its MMAP2's (no BUILD_ID
	# table in perf 7.x), which the manifest and the unpacked build-id
	# directory name, so perf 5.10 finds the kallsyms there
	kb=4a5a9b0affb66c437abcd455d2738af879985fa9
	"$PD_BIN/pd-convert" -q --to=archive --kallsyms="$TD/kallsyms/$kb" "$TD/newer/$k" -o "$tmp/k.tar.zst"
	"$PD_BIN/pd-convert" -q --from-archive --target-perf=debian11 "$tmp/k.tar.zst" -o "$bd/kar"
	check "newer/$k archived and unpacked: its kallsyms under [kernel.kallsyms]/$kb, the manifest names the build id" \
		sh -c "[ -s '$bd/kar/[kernel.kallsyms]/$kb/kallsyms' ] && grep -q '^kallsyms.*$kb\$' '$bd/kar/manifest'"
	printf '[buildid]\n\tdir = %s/kar\n' "$in" >"$bd/perfconfig"
	p510 report --stdio --no-children --sort sym -g none -i "$in/kar/perf.data" >"$tmp/rep" 2>"$tmp/err" </dev/null
	check "newer/$k, archive route for debian11: perf 5.10 names the kernel function from the archive's kallsyms ($(grep -o '\[k\] [a-z_]*' "$tmp/rep" | head -1)), no warning" \
		[ ! -s "$tmp/err" ] && grep -q '\[k\] [a-z_]' "$tmp/rep"
	printf '[buildid]\n\tdir = %s/cache\n' "$in" >"$bd/perfconfig"
	conv --target-perf=debian11 --no-shim=kernel-mmap2 "$TD/newer/$k" -o "$bd/k0.data"
	p510 report --stdio --no-children --sort sym -g none -i "$in/k0.data" >"$tmp/rep" 2>"$tmp/err" </dev/null
	check "(without kernel-mmap2: perf 5.10 warns 'Kernel address maps ... were restricted', kernel addresses raw)" \
		grep -q 'Kernel address maps' "$tmp/err" && ! grep -q '\[k\] [a-z_]' "$tmp/rep"
	# What the shims avoid, as the issue found it: without attr-bits
	# perf 5.10 warns; Debian 11's shows no sample of a compressed
	# file (its build has no zstd), and fails on a pipe-format file
	conv --target-perf=5.10 --no-shim=attr-bits "$TD/buildid-mmap.data" -o "$bd/bits.data"
	p510 report --stats -i "$in/bits.data" >/dev/null 2>"$tmp/err" </dev/null
	check "perf 5.10, without the attr-bits shim: 'Reserved bits are set unexpectedly'" \
		grep -q 'Reserved bits are set unexpectedly' "$tmp/err"
	conv --compress --target-perf=5.10 "$TD/zstd.data" -o "$bd/z.data"
	got=$(p510 report --stats -i "$in/z.data" 2>/dev/null </dev/null | nsamples)
	check "Debian 11's perf 5.10 (no zstd), compressed records: no sample (${got:-none})" [ "${got:-0}" -eq 0 ]
	conv --pipe --target-perf=5.10 "$TD/fp.data" -o "$bd/p.data"
	p510 report --stats -i "$in/p.data" >/dev/null 2>"$tmp/err" </dev/null
	check "perf 5.10, a pipe-format file: report --stats fails ($(head -1 "$tmp/err"))" [ -s "$tmp/err" ]
	# The route of docs/compat.md: a profile whose BUILD_ID entries carry
	# process pids, archived, unpacked and converted for
	# Debian 11: perf 5.10 names the hot function from the archive's
	# binaries, where the recorded path does not exist.
	"$PD_BIN/pd-convert" -q --to=archive "$tmp/fp7.data" -o "$tmp/fp7.tar.zst"
	"$PD_BIN/pd-convert" -q --from-archive --target-perf=debian11 "$tmp/fp7.tar.zst" -o "$bd/unpacked"
	printf '[buildid]\n\tdir = %s/unpacked\n' "$in" >"$bd/perfconfig"
	top=$(p510 report --stdio --no-children --sort sym -i "$in/unpacked/perf.data" 2>"$tmp/err" </dev/null |
	      awk '/%/ { print $3; exit }')
	check "archive route, --from-archive --target-perf=debian11: perf 5.10 names the hot function (${top:-none}), no warning" \
		[ "$top" = inner_hot ] && [ ! -s "$tmp/err" ]
	# a pipe recording names no build id: --from-archive names the
	# archive's files by theirs (its manifest), or perf 5.10 could not
	# find burn (made where the recording was: a symfs holding the
	# recorded path /work/main/testdata/bin)
	mkdir -p "$tmp/sfs/work/main/testdata"
	ln -s "$TD/bin" "$tmp/sfs/work/main/testdata/bin"
	"$PD_BIN/pd-convert" -q --to=archive --symfs="$tmp/sfs" \
		"$TD/newer/perf6.12-zstd-pipe.data" -o "$tmp/p612.tar.zst"
	"$PD_BIN/pd-convert" -q --from-archive --target-perf=debian11 "$tmp/p612.tar.zst" -o "$bd/p612"
	printf '[buildid]\n\tdir = %s/p612\n' "$in" >"$bd/perfconfig"
	top=$(p510 report --stdio --no-children --sort sym -i "$in/p612/perf.data" 2>"$tmp/err" </dev/null |
	      awk '/%/ { print $3; exit }')
	check "archive route of perf 6.12's -z pipe (no build id in it): perf 5.10 names the hot function (${top:-none}), no warning" \
		[ "$top" = inner_hot ] && [ ! -s "$tmp/err" ]
	printf '[buildid]\n\tdir = %s/cache\n' "$in" >"$bd/perfconfig"
	conv --target-perf=debian11 "$tmp/fp7.data" -o "$bd/fp7.data"
	top=$(p510 report --stdio --no-children --sort sym -i "$in/fp7.data" 2>/dev/null </dev/null |
	      awk '/%/ { print $3; exit }')
	check "pid 4242 entries moved to the host: perf 5.10 finds burn by build id (${top:-none})" [ "$top" = inner_hot ]
	conv --target-perf=debian11 --no-shim=build-id-pid "$tmp/fp7.data" -o "$bd/fp7.raw"
	top=$(p510 report --stdio --no-children --sort sym -i "$in/fp7.raw" 2>/dev/null </dev/null |
	      awk '/%/ { print $3; exit }')
	check "(the same entries left under pid 4242: perf 5.10 shows raw addresses: ${top:-none})" \
		sh -c "case '$top' in 0x*) exit 0 ;; *) exit 1 ;; esac"
fi

echo "1..$tap_n"
