#!/bin/sh
# pd-fold on perf.data against perf script: for every testdata recording
# and every corpus file perf 6.1 reads,
#  - `pd-fold --script FILE` prints what `perf script -i FILE` prints for
#    the samples with callchains, byte for byte (the text pd-fold folds);
#  - `pd-fold [OPT] FILE` equals `perf script -i FILE | pd-fold
#    --input=script [OPT]` for each of stackcollapse-perf.pl's options and
#    ours, where --input=script is itself checked against FlameGraph's
#    oracles (t0070), and with --filter (frames folded once and replayed
#    must give what folding each frame's text gives); with PD_STACKCOLLAPSE set (the path of
#    stackcollapse-perf.pl), also against the script itself.
# A perf older than the one that recorded testdata/ (Debian 11's 5.10)
# reads the copies made for it (perf_readable); its frame addresses are
# compared as both conventions agree on them (frame_addrs_as_perf) and
# folded from its text with 6.1's addresses (perf_script_file_addrs).
. "$(dirname "$0")/lib.sh"

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): nothing to compare with"
	exit 0
fi
testdata_buildid_cache
FOLD=$PD_BIN/pd-fold

# the first event name perf script prints (for --event-filter)
first_event() {
	awk '!/^\t/ && NF { for (i = 1; i <= NF; i++) if ($i ~ /:$/ && $i !~ /^[0-9.]+:$/) { sub(/:$/, "", $i); print $i; exit } }' "$1"
}

# --filter: frames dropped by module and kept by name, each with and
# without the "(cut)" marks that depend on the frames around them
printf 'EXEC kernel\nOR\nSYM ^_\n' >"$tmp/deny"
printf 'ANY (main|start)\n' >"$tmp/allow"

files=$(ls "$TD"/*.data | grep -v '/stat\.data$'; perf_files "$PD_CORPUS")
nfiles=0
for f in $files; do
	name=${f#"$PD_TOP/"}
	name=${name#"$PD_CORPUS/"}
	pf=$f
	case $f in "$TD"/*) pf=$(perf_readable "$f") ;; esac
	perf script -i "$pf" >"$tmp/ps" 2>"$tmp/ps.err" </dev/null
	if [ $? -ne 0 ] || grep -q -E 'failed to process|Failed to process|unknown events|incompatible' "$tmp/ps.err"; then
		continue	# perf cannot read it: nothing to compare with
	fi
	nfiles=$((nfiles + 1))
	: >"$tmp/offpage"
	if perf_older_than 6.1; then
		# the text with perf 6.1's addresses, which --inline looks up
		perf_script_file_addrs "$f" "" >"$tmp/ps"
		perf_offpage_dsos "$f" >"$tmp/offpage"
	fi
	# tracepoint fields included, as libtraceevent prints them
	callchain_blocks <"$tmp/ps" | frame_addrs_as_perf "$tmp/offpage" >"$tmp/want.script"
	"$FOLD" --script "$f" 2>"$tmp/err" | frame_addrs_as_perf "$tmp/offpage" >"$tmp/got.script"
	# DWARF callchains unwound through the recording machine's system
	# libraries: where this machine has others (another build id: a
	# Debian 11 chroot and testdata's Debian 12 libc), perf unwinds with
	# the files it finds and pd-fold refuses them; nothing to compare
	if why=$(elsewhere_unwound "$f" "$tmp/err") ||
	   why=$(foreign_unwound "$f"); then
		skip "$name: $why"
		continue
	fi
	check "$name: --script is perf script's callchain samples ($(grep -c '^$' "$tmp/want.script") samples)" \
		cmp -s "$tmp/want.script" "$tmp/got.script"
	diff "$tmp/want.script" "$tmp/got.script" | head -6
	# nothing to fold: one check that both agree on that
	if [ ! -s "$tmp/want.script" ]; then
		"$FOLD" -q "$f" >"$tmp/got" 2>"$tmp/err"
		"$FOLD" --input=script <"$tmp/ps" >"$tmp/want" 2>/dev/null
		check "$name: no callchains, same (empty) folding" cmp -s "$tmp/want" "$tmp/got"
		continue
	fi
	ev=$(first_event "$tmp/ps")
	cpu=$(awk '!/^\t/ && match($0, /\[[0-9]+\]/) { print substr($0, RSTART + 1, RLENGTH - 2) + 0; exit }' "$tmp/ps")
	comm=$(awk '!/^\t/ && NF { print $1; exit }' "$tmp/ps")
	t0=$(awk '!/^\t/ && match($0, / [0-9]+\.[0-9]+: /) { print substr($0, RSTART + 1, RLENGTH - 3); exit }' "$tmp/ps")
	for opts in "" "--pid" "--tid" "--kernel" "--jit" "--all" "--addrs" \
		    "--inline" "--inline --context" "--event-filter=$ev" \
		    "--weight=samples" "--weight=period" "--capture=user" \
		    "--capture=kernel" ${cpu:+"--cpu=$cpu"} ${comm:+"--comm=$comm"} \
		    ${t0:+"--time=$t0,"} "--pid --all --addrs" \
		    "--filter=deny:$tmp/deny" "--filter=deny:$tmp/deny --filter-mark" \
		    "--filter=allow:$tmp/allow --filter-mark"; do
		# shellcheck disable=SC2086
		"$FOLD" --input=script $opts <"$tmp/ps" 2>/dev/null |
			folded_addrs_as_perf "$tmp/offpage" >"$tmp/want"
		# shellcheck disable=SC2086
		"$FOLD" -q $opts "$f" >"$tmp/got.raw" 2>"$tmp/err"
		rc=$?
		folded_addrs_as_perf "$tmp/offpage" <"$tmp/got.raw" >"$tmp/got"
		check "$name ${opts:-(default)}: as perf script | fold ($(wc -l <"$tmp/want") stacks, rc $rc)" \
			cmp -s "$tmp/want" "$tmp/got"
		diff "$tmp/want" "$tmp/got" | head -4 | cut -c1-300
	done
	if [ -n "${PD_STACKCOLLAPSE:-}" ]; then
		perl "$PD_STACKCOLLAPSE" <"$tmp/ps" >"$tmp/want" 2>/dev/null
		"$FOLD" -q "$f" >"$tmp/got" 2>/dev/null
		check "$name: as stackcollapse-perf.pl itself" cmp -s "$tmp/want" "$tmp/got"
	fi
done
check "perf read files to compare ($nfiles)" test "$nfiles" -gt 20

# --script prints the samples the selections keep, as perf script's own
# --comm, --cpu and --time keep them
if have_perf; then
	t1=$(perf script -i "$(perf_readable "$TD/threads.data")" -F time 2>/dev/null |
		sed -n '20s/[: ]//gp')
	for sel in "threads|--comm=worker-a|--comm worker-a" \
		   "system|--cpu=1|--cpu 1" "threads|--time=$t1,|--time $t1,"; do
		f=$TD/${sel%%|*}.data sel=${sel#*|}
		ours=${sel%%|*} theirs=${sel#*|}
		# perf before 6.1 prints user frames' addresses as the process
		# saw them: compared as the whole-file check above compares
		: >"$tmp/offpage"
		perf_older_than 6.1 && perf_offpage_dsos "$f" >"$tmp/offpage"
		perf_script_file_addrs "$f" "$ours" $theirs | callchain_blocks |
			frame_addrs_as_perf "$tmp/offpage" >"$tmp/want.sel"
		"$FOLD" --script $ours "$f" 2>/dev/null |
			frame_addrs_as_perf "$tmp/offpage" >"$tmp/got.sel"
		check "${f##*/}: --script $ours prints perf script $theirs's samples ($(grep -c '^$' "$tmp/want.sel"))" \
			sh -c '[ -s "$1" ] && cmp -s "$1" "$2"' - "$tmp/want.sel" "$tmp/got.sel"
	done
fi
if [ -z "${PD_STACKCOLLAPSE:-}" ]; then
	skip "PD_STACKCOLLAPSE unset: not compared with stackcollapse-perf.pl itself"
fi
