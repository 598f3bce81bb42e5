#!/bin/sh
# Writes are atomic and never touch the input:
# - pd-convert and pd-unwind killed (SIGKILL) in the middle of a conversion leaves no
#   output file, and an existing output as it was; the writer's temporary
#   file (".NAME.XXXXXX" next to the output) is the only thing SIGKILL can
#   leave behind (see writer.h);
# - a write error (the file size limit, ulimit -f, hit with SIGXFSZ
#   ignored: EFBIG) ends with status 1, one error line naming the output,
#   no output and no temporary file;
# - a pipe-mode stream to a full device (/dev/full) ends with status 1 and
#   one error line;
# - the input is byte-identical after every one of these.
. "$(dirname "$0")/lib.sh"

in=$TD/fp.data
sum=$(cksum <"$in")
psum=$(cksum <"$TD/pipe.data")

# SIGKILL while pd-convert waits for the rest of its input: a pipe-mode
# stream whose first half arrives, then nothing until the kill.
mkdir "$tmp/k"
half=$(( $(wc -c <"$TD/pipe.data") / 2 ))
for out in new existing; do
	[ $out = existing ] && printf 'old' >"$tmp/k/$out.data"
	mkfifo "$tmp/k/fifo"
	"$PD_BIN/pd-convert" -q - -o "$tmp/k/$out.data" <"$tmp/k/fifo" 2>/dev/null &
	pid=$!
	exec 3>"$tmp/k/fifo"
	head -c "$half" "$TD/pipe.data" >&3
	# the first records written: the temporary file exists and grows
	i=0
	while [ $i -lt 50 ] && [ -z "$(ls -A "$tmp/k" | grep '^\.')" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	check "killed mid-way ($out output): it was writing (a temporary file)" \
		[ -n "$(ls -A "$tmp/k" | grep '^\.')" ]
	kill -9 $pid
	wait $pid 2>/dev/null
	exec 3>&-
	rm -f "$tmp/k/fifo"
	if [ $out = new ]; then
		check "killed mid-way: no output file" [ ! -e "$tmp/k/new.data" ]
	else
		check "killed mid-way: the existing output unchanged" \
			[ "$(cat "$tmp/k/existing.data")" = old ]
	fi
	rm -f "$tmp/k"/.*.data.* 2>/dev/null
done
check "killed mid-way: input unchanged" [ "$(cksum <"$TD/pipe.data")" = "$psum" ]

# Write errors: EFBIG from the file size limit, for each output form.
mkdir "$tmp/f"
for how in --file --pipe --compress --endian=big; do
	( trap '' XFSZ; ulimit -f 8
	  exec "$PD_BIN/pd-convert" -q $how "$in" -o "$tmp/f/out.data" ) 2>"$tmp/err"
	rc=$?
	check "write error ($how): status 1 ($rc)" [ $rc -eq 1 ]
	check "write error ($how): one error line naming the output" \
		sh -c "[ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q 'error: .*out.data' '$tmp/err'"
	check "write error ($how): no output, no temporary file" \
		[ -z "$(ls -A "$tmp/f")" ]
	check "write error ($how): input unchanged" [ "$(cksum <"$in")" = "$sum" ]
done

# A full device as standard output (pipe mode).
"$PD_BIN/pd-convert" -q --pipe "$in" -o - >/dev/full 2>"$tmp/err"
rc=$?
check "/dev/full: status 1 ($rc)" [ $rc -eq 1 ]
check "/dev/full: one error line" \
	sh -c "[ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q 'error: ' '$tmp/err'"
check "/dev/full: input unchanged" [ "$(cksum <"$in")" = "$sum" ]

# A device or FIFO named as the output is written where it is: a file
# renamed over it would take its place (-o /dev/null made /dev/null a
# file). A null device of the test's own (mknod, root only), and a FIFO.
if mknod "$tmp/null" c 1 3 2>/dev/null; then
	"$PD_BIN/pd-unwind" -q "$TD/dwarf.data" -o "$tmp/null" 2>"$tmp/err"
	r1=$?
	"$PD_BIN/pd-convert" -q --to=script "$in" -o "$tmp/null" 2>>"$tmp/err"
	r2=$?
	"$PD_BIN/pd-fold" -q "$TD/fp.data" >"$tmp/fp.folded" 2>/dev/null
	"$PD_BIN/pd-flame" -q "$tmp/fp.folded" -o "$tmp/null" 2>>"$tmp/err"
	r3=$?
	check "-o a null device (pd-unwind, pd-convert --to=script, pd-flame): exit 0, still a character device, nothing beside it ($r1 $r2 $r3)" \
		sh -c "[ $r1$r2$r3 = 000 ] && [ -c '$tmp/null' ] && [ -z \"\$(ls -A '$tmp' | grep '^\\.null')\" ]"
else
	skip "mknod of a null device not permitted here (root only)"
fi
mkfifo "$tmp/out.fifo"
cat "$tmp/out.fifo" >"$tmp/fifo.got" &
cpid=$!
"$PD_BIN/pd-convert" -q --to=script "$in" -o "$tmp/out.fifo" 2>"$tmp/err"
rc=$?
wait $cpid
"$PD_BIN/pd-convert" -q --to=script "$in" -o - >"$tmp/fifo.want" 2>/dev/null
check "-o a FIFO: written through it ($rc), still a FIFO" \
	sh -c "[ $rc = 0 ] && [ -p '$tmp/out.fifo' ] && [ -s '$tmp/fifo.got' ] && cmp -s '$tmp/fifo.got' '$tmp/fifo.want'"
# (a reader after 3 s, should pd-unwind open the FIFO and wait for one:
# the test then fails rather than hangs; ended here however far it got,
# so that nothing is left blocked on the FIFO after the test)
(sleep 3; exec cat "$tmp/out.fifo" >/dev/null) &
rpid=$!
"$PD_BIN/pd-unwind" -q "$TD/dwarf.data" -o "$tmp/out.fifo" 2>"$tmp/err"
rc=$?
kill $rpid 2>/dev/null
wait $rpid 2>/dev/null
check "pd-unwind -o a FIFO (a file, not a stream): status 1 ($rc), one error line, still a FIFO" \
	sh -c "[ $rc = 1 ] && [ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q 'regular file' '$tmp/err' && [ -p '$tmp/out.fifo' ]"

# pd-unwind: the same writer, the same promises.
din=$TD/dwarf.data
dsum=$(cksum <"$din")
mkdir "$tmp/u"
"$PD_BIN/pd-convert" -q --pipe "$din" -o "$tmp/dwarf.pipe"
dpsum=$(cksum <"$tmp/dwarf.pipe")
half=$(( $(wc -c <"$tmp/dwarf.pipe") / 2 ))
mkfifo "$tmp/u/fifo"
"$PD_BIN/pd-unwind" -q - -o "$tmp/u/new.data" <"$tmp/u/fifo" 2>/dev/null &
pid=$!
exec 3>"$tmp/u/fifo"
head -c "$half" "$tmp/dwarf.pipe" >&3
i=0
while [ $i -lt 50 ] && [ -z "$(ls -A "$tmp/u" | grep '^\.')" ]; do
	sleep 0.1
	i=$((i + 1))
done
check "pd-unwind killed mid-way: it was writing (a temporary file)" \
	[ -n "$(ls -A "$tmp/u" | grep '^\.')" ]
kill -9 $pid
wait $pid 2>/dev/null
exec 3>&-
rm -f "$tmp/u/fifo"
check "pd-unwind killed mid-way: no output file" [ ! -e "$tmp/u/new.data" ]
check "pd-unwind killed mid-way: input unchanged" \
	[ "$(cksum <"$tmp/dwarf.pipe")" = "$dpsum" ]
rm -f "$tmp/u"/.*.data.* 2>/dev/null

for how in --file --pipe --compress; do
	( trap '' XFSZ; ulimit -f 8
	  exec "$PD_BIN/pd-unwind" -q $how "$din" -o "$tmp/u/out.data" ) 2>"$tmp/err"
	rc=$?
	check "pd-unwind write error ($how): status 1 ($rc)" [ $rc -eq 1 ]
	check "pd-unwind write error ($how): one error line naming the output" \
		sh -c "[ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q 'error: .*out.data' '$tmp/err'"
	check "pd-unwind write error ($how): no output, no temporary file" \
		[ -z "$(ls -A "$tmp/u")" ]
	check "pd-unwind write error ($how): input unchanged" [ "$(cksum <"$din")" = "$dsum" ]
done

# An output naming the input is refused before anything is written, by
# every tool that takes -o (pd-fold and pd-diff wrote folded text over it).
mkdir -p "$tmp/same"
cp "$TD/fp.data" "$tmp/same/in.data"
ssum=$(cksum <"$tmp/same/in.data")
for cmd in "pd-fold -o IN IN" "pd-fold --merge -o IN IN" "pd-diff -o IN IN $TD/fp.data" \
	   "pd-convert --target-perf=6.1 -o IN IN" "pd-unwind -o IN IN"; do
	# shellcheck disable=SC2086
	set -- $(echo "$cmd" | sed "s|IN|$tmp/same/in.data|g")
	t=$1; shift
	"$PD_BIN/$t" "$@" >/dev/null 2>"$tmp/same/err"
	rc=$?
	check "$cmd: refused (status 2: $rc), the input unchanged" \
		sh -c "[ $rc -eq 2 ] && [ '$(cksum <"$tmp/same/in.data")' = '$ssum' ]"
done
