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
# - bad input or output leaves no output file behind; the input is never
#   the output.
. "$(dirname "$0")/lib.sh"

CK=$PD_BIN/../tests/tools/check-target
conv() { "$PD_BIN/pd-convert" -q "$@"; }

# perf script output, or nothing if perf cannot print this file
pscript() { perf script -i "$1" "$@" 2>"$tmp/ps.err" </dev/null; }

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): perf-read checks not run"
else
	for f in "$TD"/*.data; do
		n=$(basename "$f" .data)
		perf script -i "$f" >"$tmp/want" 2>/dev/null </dev/null
		# perf stat record files: checked with perf stat report below
		[ "$n" = stat ] && continue
		for how in "--file" "--pipe" "--endian=big" "--compress" "--decompress"; do
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
			if [ "$how" = --pipe ] && [ "$n" = offcpu ]; then
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
		perf buildid-list -i "$f" 2>/dev/null | sort >"$tmp/want.bid"
		perf buildid-list -i "$tmp/$n.back.data" 2>/dev/null | sort >"$tmp/got.bid"
		check "$n: pipe -> file: build ids kept" cmp -s "$tmp/want.bid" "$tmp/got.bid"
	done
	# stat record files: perf stat report
	# (perf names the command 'pipe' when it reads a pipe)
	perf stat report -i "$TD/stat.data" 2>&1 | grep -v -e '^$' -e 'stats for' >"$tmp/want"
	conv --pipe "$TD/stat.data" -o "$tmp/stat.pipe" &&
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
	if ! conv --target-perf=6.1 "$f" -o "$tmp/$n.61" 2>"$tmp/err"; then
		not_ok "$n: converts for 6.1 ($(head -1 "$tmp/err"))"
		continue
	fi
	perf script -i "$tmp/$n.61" >/dev/null 2>"$tmp/err" </dev/null
	check "$n --target-perf=6.1: perf 6.1 reads it" \
		sh -c "[ $? -eq 0 ] && ! grep -q -E 'failed|incompatible|Error' '$tmp/err'"
	want=$("$PD_BIN/pd-info" -q --stats "$f" | awk '$1 == "SAMPLE" { print $3; exit }')
	got=$(perf report --stats -i "$tmp/$n.61" 2>/dev/null </dev/null |
	      awk '$1 == "SAMPLE" { print $3; exit }')
	check "$n --target-perf=6.1: $want samples (perf counts ${got:-none})" \
		[ -n "$want" ] && [ "$want" = "$got" ]
	dump_samples "$f" >"$tmp/want"
	cut -d: -f1 "$tmp/want" >"$tmp/want.ip"
	perf_ips "$tmp/$n.61" >"$tmp/got.ip"
	check "$n --target-perf=6.1: sample IPs equal the original's" \
		cmp -s "$tmp/want.ip" "$tmp/got.ip"
	if grep -q ': 0x' "$tmp/want"; then
		cut -d: -f2 "$tmp/want" >"$tmp/want.cc"
		perf_chains "$tmp/$n.61" >"$tmp/got.cc"
		check "$n --target-perf=6.1: callchains equal the original's" \
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
if have_perf; then
	perf script -i "$TD/pipe.data" >"$tmp/want" 2>/dev/null </dev/null
	conv --pipe --target-perf=rhel8 "$TD/pipe.data" -o "$tmp/old.pipe"
	perf script -i "$tmp/old.pipe" >/dev/null 2>"$tmp/err" </dev/null
	check "rhel8-layout pipe: perf 6.1 refuses it as it is" grep -q 'failed to process type: 80' "$tmp/err"
	conv --pipe --target-perf=6.1 "$tmp/old.pipe" -o "$tmp/new.pipe"
	perf script -i "$tmp/new.pipe" >"$tmp/got" 2>"$tmp/err" </dev/null
	check "rhel8-layout pipe -> 6.1: perf script equals the original's" cmp -s "$tmp/want" "$tmp/got"
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

echo "1..$tap_n"
