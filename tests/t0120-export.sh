#!/bin/sh
# pd-convert --to=FORMAT, each format checked by a reader nobody here
# wrote:
# - script: `perf script` itself, byte for byte, on every testdata file
#   and every corpus file perf script reads without complaint, samples
#   with and without callchains, tracepoint fields included;
# - pprof: `go tool pprof` reads it; per event, -top's total is the
#   number of samples perf script prints and its flat/cum sample counts
#   per function are those pd-fold's folded stacks give; -raw shows the
#   mappings with their build ids, -tags the pid/tid/comm labels;
# - speedscope: speedscope itself (tests/browser, its built web app in
#   headless Chromium) loads the file without error, and the total
#   weight it computes for each thread's profile is the number of samples
#   perf script prints for that thread; --per-process adds them up per
#   process; the JSON parses (node);
# - json: every line parses (node); the input rebuilt from the lines'
#   bytes is the input, byte for byte (lossless), and the records are
#   those pd-info --dump shows, with the same offsets, sizes, types and
#   sample fields (tests/tools/json-check.mjs), for every testdata and
#   corpus file pd-info reads;
# - bad input: a file cut in its header gives one error line and no
#   output file; --to with the rewrite options is bad usage.
# perf reads testdata/ as it can (perf_readable: Debian 11's perf 5.10 a
# copy made for it); a perf before 6.1 prints addresses otherwise, which
# are compared as both conventions agree on them (frame_addrs_as_perf).
. "$(dirname "$0")/lib.sh"

CONV=$PD_BIN/pd-convert

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): --to=script not compared"
else
	testdata_buildid_cache
	for f in "$TD"/*.data; do
		n=$(basename "$f" .data)
		[ "$n" = stat ] && continue
		perf script -i "$(perf_readable "$f")" 2>/dev/null </dev/null |
			frame_addrs_as_perf >"$tmp/want"
		"$CONV" --to=script "$f" -o - 2>"$tmp/err" | frame_addrs_as_perf >"$tmp/got"
		rc=$?
		if why=$(elsewhere_unwound "$f" "$tmp/err"); then
			skip "$n: $why"
			continue
		fi
		check "$n: --to=script is perf script ($(grep -c -v '^	' "$tmp/want") lines not frames, rc $rc)" \
			test -s "$tmp/want" -a -z "$(cmp "$tmp/want" "$tmp/got" 2>&1)"
		diff "$tmp/want" "$tmp/got" | head -4
	done
	# the corpus's tracepoint recordings that perf script reads (the
	# one there, simpleperf's, has no tracing data and perf refuses it)
	for f in $(perf_files "$PD_CORPUS"); do
		perf evlist -v -i "$f" 2>/dev/null </dev/null | grep -q 'type: 2,' || continue
		perf script -i "$f" >"$tmp/want.raw" 2>"$tmp/want.err" </dev/null
		rc=$?
		if [ $rc != 0 ] || grep -q -i -E 'incompatible|failed|unknown' "$tmp/want.err"; then
			echo "# ${f#"$PD_CORPUS/"}: perf script does not read it (rc $rc)"
			continue
		fi
		frame_addrs_as_perf <"$tmp/want.raw" >"$tmp/want"
		"$CONV" -q --to=script "$f" -o - 2>"$tmp/err" | frame_addrs_as_perf >"$tmp/got"
		check "${f#"$PD_CORPUS/"}: --to=script is perf script, tracepoint fields included" \
			cmp -s "$tmp/want" "$tmp/got"
		diff "$tmp/want" "$tmp/got" | head -4
	done
fi

# selections, pd-fold's options: --to=script with one is perf script
# with the matching option (--comms, --cpu, --time); --event-filter
# (perf script has no such option) is perf script's samples of that
# event, whole blocks
if have_perf; then
	sel_check() {
		f=$TD/$1.data ours=$2 theirs=$3
		perf script $theirs -i "$(perf_readable "$f")" 2>/dev/null </dev/null |
			frame_addrs_as_perf >"$tmp/want"
		"$CONV" -q --to=script $ours "$f" -o - 2>"$tmp/err" | frame_addrs_as_perf >"$tmp/got"
		rc=$?
		check "$1: --to=script $ours is perf script $theirs ($(grep -c -v '^	' "$tmp/want") lines not frames, rc $rc)" \
			sh -c '[ -s "$1" ] && cmp -s "$1" "$2"' sh "$tmp/want" "$tmp/got"
		diff "$tmp/want" "$tmp/got" | head -4
	}
	sel_check threads "--comm=worker-a,worker-c" "--comms=worker-a,worker-c"
	sel_check tracepoint "--cpu=1" "--cpu=1"
	sel_check offcpu "--cpu=0" "--cpu=0"
	sel_check fp "--time=16886.741711,16886.841810" "--time=16886.741711,16886.841810"
	sel_check fp "--time=16886.8," "--time=16886.8,"
	sel_check offcpu "--comm=sleeper,sed --cpu=1 --time=5719.4,99999" "--comms=sleeper,sed --cpu=1 --time=5719.4,99999"
	perf script -i "$(perf_readable "$TD/two-events.data")" 2>/dev/null </dev/null |
		awk '/^[^\t]/ && NF { keep = / task-clock: / } keep' | frame_addrs_as_perf >"$tmp/want"
	"$CONV" -q --to=script --event-filter=task-clock "$TD/two-events.data" -o - |
		frame_addrs_as_perf >"$tmp/got"
	check "two-events: --to=script --event-filter=task-clock is perf script's task-clock samples ($(grep -c -v '^	' "$tmp/want") lines)" \
		sh -c '[ -s "$1" ] && cmp -s "$1" "$2"' sh "$tmp/want" "$tmp/got"
fi
"$CONV" -q --to=json --comm=x "$TD/fp.data" -o "$tmp/j" 2>/dev/null
check "--to=json with a selection is bad usage (json is the whole file)" test $? = 2
"$CONV" -q --to=script --time=5,4 "$TD/fp.data" -o "$tmp/j" 2>/dev/null
check "--time with END before START is bad usage" test $? = 2
"$CONV" -q --comm=x "$TD/fp.data" -o "$tmp/j" 2>/dev/null
check "--comm without --to is bad usage" test $? = 2

# pprof_expect FOLDED: "FUNC FLAT CUM" from folded stacks (comm first),
# each function counted once per stack for its cum, as pprof counts;
# unknown frames ([...]) left out.
pprof_expect() {
	awk '{
		n = $NF; sub(/ [0-9]+$/, "")
		k = split($0, fr, ";")
		delete seen
		for (i = 2; i <= k; i++) {
			if (fr[i] ~ /^\[/) continue
			if (!(fr[i] in seen)) cum[fr[i]] += n
			seen[fr[i]] = 1
		}
		if (fr[k] !~ /^\[/) flat[fr[k]] += n
		all[fr[k]] = 1
	}
	END { for (f in cum) print f, flat[f] + 0, cum[f] }' "$1" | sort
}
# pprof_got TOPOUT: the same from go tool pprof -top, function names
# as stackcollapse-perf.pl tidies them (cut at the first "("), without
# pprof's " (inline)" mark; its unsymbolized "<unknown>" left out.
pprof_got() {
	awk '/^ *flat/ { on = 1; next }
	on && NF >= 6 {
		f = $6; for (i = 7; i <= NF; i++) f = f " " $i
		sub(/ \(inline\)$/, "", f)
		sub(/\(.*/, "", f)
		if (f == "<unknown>" || f == "" || f ~ /^\[/) next
		print f, $1, $4
	}' "$1" | sort
}

if ! command -v go >/dev/null 2>&1; then
	skip "go not installed (apt-get install golang-go): pprof output not checked"
else
	# go tool pprof keeps a cache and settings under $HOME
	export HOME=$tmp/home GOCACHE=$tmp/gocache
	mkdir -p "$HOME"
	for n in fp inl dwarf inl-dwarf threads two-events mangled jit syscalls; do
		f=$TD/$n.data
		"$CONV" -q --to=pprof "$f" -o "$tmp/p.pb.gz" 2>"$tmp/err"
		rc=$?
		check "$n: --to=pprof (rc $rc)" test $rc = 0 -a -s "$tmp/p.pb.gz"
		"$PD_BIN/pd-fold" -q --script "$f" | grep -v '^[[:space:]]' | grep -v '^$' |
			awk '{ for (i = 2; i <= NF; i++) if ($i ~ /:$/ && $i !~ /^[0-9.]+:$/) { sub(/:$/, "", $i); print $i; break } }' |
			sort | uniq -c >"$tmp/events"
		nev=$(wc -l <"$tmp/events")
		while read -r cnt ev; do
			if [ "$nev" = 1 ]; then si=samples; else si="samples:$ev"; fi
			go tool pprof -symbolize=none -top -nodecount=100000 -nodefraction=0 \
				-sample_index="$si" "$tmp/p.pb.gz" >"$tmp/top" 2>"$tmp/top.err"
			total=$(sed -n 's/^Showing nodes accounting for [0-9]*, [0-9.]*% of \([0-9]*\) total$/\1/p' "$tmp/top")
			check "$n $ev: pprof -top total is perf's sample count ($cnt = ${total:-none})" \
				test "$cnt" = "$total"
			"$PD_BIN/pd-fold" -q --weight=samples --event-filter="$ev" "$f" >"$tmp/folded"
			pprof_expect "$tmp/folded" >"$tmp/want"
			pprof_got "$tmp/top" >"$tmp/got"
			check "$n $ev: pprof flat/cum per function are pd-fold's ($(wc -l <"$tmp/want") functions)" \
				cmp -s "$tmp/want" "$tmp/got"
			diff "$tmp/want" "$tmp/got" | head -5
		done <"$tmp/events"
		go tool pprof -symbolize=none -raw "$tmp/p.pb.gz" 2>/dev/null >"$tmp/raw"
		bid=$(file -L "$TD/bin/${n%%-*}" 2>/dev/null | sed -n 's/.*BuildID\[sha1\]=\([0-9a-f]*\).*/\1/p')
		check "$n: pprof -raw lists mappings with build ids" \
			grep -q -E '^[0-9]+: 0x[0-9a-f]+/0x[0-9a-f]+/0x[0-9a-f]+ .* [0-9a-f]{40}' "$tmp/raw"
		go tool pprof -tags "$tmp/p.pb.gz" 2>/dev/null >"$tmp/tags"
		comm=$(awk '!/^[ \t]/ && NF { print $1; exit }' "$tmp/ps" 2>/dev/null)
		check "$n: pprof -tags shows pid, tid and comm labels" \
			sh -c 'grep -q "^ *pid: Total" "$1" && grep -q "^ *tid: Total" "$1" && grep -q "^ *comm: Total" "$1"' sh "$tmp/tags"
	done
	"$CONV" --to=pprof "$TD/fp.data" -o - >/dev/null 2>&1 </dev/null
	check "pprof to a pipe is fine" test $? = 0
	# a terminal: script(1) runs it on a pty
	if command -v script >/dev/null 2>&1; then
		script -qec "'$CONV' --to=pprof '$TD/fp.data'" /dev/null </dev/null >"$tmp/tty.out" 2>&1
		rc=$?
		check "pprof to a terminal is refused (rc $rc), one error line, no binary" \
			sh -c '[ $1 = 2 ] && [ "$(wc -l <"$2")" = 1 ] && grep -q "refusing to write binary data to a terminal" "$2" && ! LC_ALL=C grep -q "[^[:print:][:space:]]" "$2"' \
			sh $rc "$tmp/tty.out"
		script -qec "'$CONV' --to=pprof '$TD/fp.data' -o '$tmp/tty.pb.gz'" /dev/null </dev/null >/dev/null 2>&1
		rc=$?
		check "pprof with -o FILE from a terminal is fine (rc $rc)" \
			sh -c '[ $1 = 0 ] && gzip -t "$2"' sh $rc "$tmp/tty.pb.gz"
	else
		skip "no script(1) (util-linux): pprof to a terminal not checked"
	fi

	# selections drop samples from the totals: as many as perf script
	# prints with the matching option
	if have_perf; then
		for sel in "threads --comm=worker-b --comms=worker-b samples" \
			   "fp --time=16886.8, --time=16886.8, samples" \
			   "offcpu --cpu=0 --cpu=0 samples:sched:sched_switch" \
			   "two-events --event-filter=cpu-clock - samples:cpu-clock"; do
			set -- $sel
			si=$4
			if [ "$1" = two-events ]; then
				want=$(perf script -F event -i "$(perf_readable "$TD/$1.data")" 2>/dev/null </dev/null | grep -c '^ *cpu-clock:')
			else
				want=$(perf script $3 -F tid -i "$(perf_readable "$TD/$1.data")" 2>/dev/null </dev/null | wc -l)
			fi
			"$CONV" -q --to=pprof $2 "$TD/$1.data" -o "$tmp/p.pb.gz"
			go tool pprof -symbolize=none -top -sample_index="$si" "$tmp/p.pb.gz" >"$tmp/top" 2>/dev/null
			total=$(sed -n 's/^Showing nodes accounting for [0-9]*, [0-9.]*% of \([0-9]*\) total$/\1/p' "$tmp/top")
			all=$(perf script -F tid -i "$(perf_readable "$TD/$1.data")" 2>/dev/null </dev/null | wc -l)
			check "$1 $2: pprof total is perf's selected samples ($want = ${total:-none}, of $all)" \
				test "$want" = "$total" -a "$want" -lt "$all"
		done
	fi

	# the profile's time, duration and period, as go tool pprof -raw
	# and -top show them, against perf: the first sample's wall-clock
	# time is perf script -F tod's (CLOCK_DATA), the duration the span
	# of perf script's sample times, the period perf evlist's
	# sample_period (-c) or 1e9/freq ns for cpu-clock -F
	if have_perf; then
		f=$TD/clock.data
		"$CONV" -q --to=pprof "$f" -o "$tmp/p.pb.gz"
		want=$(TZ=UTC perf script -F tod -i "$(perf_readable "$f")" 2>/dev/null </dev/null | head -1 | sed 's/ *$//')
		got=$(TZ=UTC go tool pprof -raw "$tmp/p.pb.gz" 2>/dev/null | sed -n 's/^Time: \(.\{26\}\).* UTC$/\1/p')
		check "clock: pprof Time is perf script -F tod of the first sample ($want = $got)" \
			test -n "$want" -a "$want" = "$got"
		span=$(perf script -F time -i "$(perf_readable "$f")" 2>/dev/null </dev/null | tr -d ': ' |
			awk 'NR == 1 { a = $1 } { b = $1 } END { printf "%.2f", (b - a) * 1000 }')
		dur=$(go tool pprof -top -symbolize=none "$tmp/p.pb.gz" 2>/dev/null | sed -n 's/^Duration: \([0-9.]*\)ms,.*/\1/p')
		check "clock: pprof Duration is the samples' span in perf script (${span}ms = ${dur}ms)" \
			awk -v a="$span" -v b="$dur" 'BEGIN { d = a - b; exit !(b != "" && d < 0.011 && d > -0.011) }'
		for n in period fp two-events; do
			f=$TD/$n.data
			"$CONV" -q --to=pprof "$f" -o "$tmp/p.pb.gz"
			go tool pprof -raw "$tmp/p.pb.gz" 2>/dev/null >"$tmp/raw"
			ev=$(perf evlist -v -i "$(perf_readable "$f")" 2>/dev/null </dev/null | head -1)
			per=$(echo "$ev" | sed -n 's/.*{ sample_period, sample_freq }: \([0-9]*\),.*/\1/p')
			case $ev in
			*" freq: 1,"*) per=$((1000000000 / per)) ;;
			esac
			check "$n: pprof PeriodType and Period are the first event's ($per ns)" \
				sh -c 'grep -q "^PeriodType: cpu-clock nanoseconds$" "$1" && grep -q "^Period: $2$" "$1"' sh "$tmp/raw" "$per"
		done
		"$CONV" -q --to=pprof "$TD/fp.data" -o "$tmp/p.pb.gz"
		go tool pprof -raw "$tmp/p.pb.gz" 2>/dev/null >"$tmp/raw"
		check "fp (no CLOCK_DATA): pprof has a Time (the file's mtime less the span)" \
			grep -q "^Time: " "$tmp/raw"
	fi
fi

# speedscope: "TID COUNT" from perf script, "TID WEIGHT" from speedscope
SSDIR=$PD_TOP/tests/browser
if ! have_perf; then
	skip "perf not installed: speedscope sample counts not compared"
elif ! have_browser || [ ! -d "$SSDIR/node_modules/speedscope" ]; then
	skip "no browser or no speedscope (cd tests/browser && npm ci; apt-get install chromium chromium-driver): speedscope not checked"
else
	for n in fp threads two-events dwarf read offcpu; do
		f=$TD/$n.data
		"$CONV" -q --to=speedscope --weight=samples "$f" -o "$tmp/s.json" 2>"$tmp/err"
		rc=$?
		node -e 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$tmp/s.json" 2>/dev/null
		jrc=$?
		check "$n: --to=speedscope (rc $rc) parses as JSON" test $rc = 0 -a $jrc = 0
		perf script -F tid -i "$(perf_readable "$f")" 2>/dev/null </dev/null | awk '{ n[$1]++ } END { for (t in n) print t, n[t] }' |
			sort >"$tmp/want"
		node "$SSDIR/speedscope-load.mjs" "$tmp/s.json" "$tmp" >"$tmp/ss" 2>"$tmp/ss.err"
		rc=$?
		# "WEIGHT<tab>comm (pid P, tid T)[ event]": add up per tid
		cat "$tmp/ss" | sed -n 's/^\([0-9]*\)	.*, tid \([0-9-]*\)).*/\2 \1/p' |
			awk '{ n[$1] += $2 } END { for (t in n) print t, n[t] }' | sort >"$tmp/got"
		check "$n: speedscope loads it (rc $rc) with perf's samples per thread ($(awk '{ s += $2 } END { print s }' "$tmp/want") samples, $(wc -l <"$tmp/want") threads)" \
			sh -c '[ '$rc' = 0 ] && cmp -s "$1" "$2"' sh "$tmp/want" "$tmp/got"
		diff "$tmp/want" "$tmp/got" | head -4
		head -2 "$tmp/ss.err"
	done
	# a selection: only the selected command's threads, with perf's
	# counts for them
	f=$TD/threads.data
	"$CONV" -q --to=speedscope --weight=samples --comm=worker-a,worker-c "$f" -o "$tmp/s.json"
	node "$SSDIR/speedscope-load.mjs" "$tmp/s.json" "$tmp" >"$tmp/ss" 2>&1
	perf script --comms=worker-a,worker-c -F tid -i "$(perf_readable "$f")" 2>/dev/null </dev/null | awk '{ n[$1]++ } END { for (t in n) print t, n[t] }' | sort >"$tmp/want"
	sed -n 's/^\([0-9]*\)	.*, tid \([0-9-]*\)).*/\2 \1/p' "$tmp/ss" | sort >"$tmp/got"
	check "threads --comm=worker-a,worker-c: speedscope has perf script --comms' threads and samples ($(wc -l <"$tmp/want") threads)" \
		sh -c '[ -s "$1" ] && cmp -s "$1" "$2"' sh "$tmp/want" "$tmp/got"
	"$CONV" -q --to=speedscope --per-process "$f" -o "$tmp/s.json"
	node "$SSDIR/speedscope-load.mjs" "$tmp/s.json" "$tmp" >"$tmp/ss" 2>&1
	perf script -F pid -i "$(perf_readable "$f")" 2>/dev/null </dev/null | awk '{ n[$1]++ } END { for (t in n) print t, n[t] }' | sort >"$tmp/want"
	sed -n 's/^\([0-9]*\)	.*(pid \([0-9-]*\)).*/\2 \1/p' "$tmp/ss" | sort >"$tmp/got"
	check "threads --per-process: one profile per process with its samples ($(cat "$tmp/want"))" \
		cmp -s "$tmp/want" "$tmp/got"
fi
"$CONV" -q --to=speedscope --weight=time "$TD/fp.data" -o "$tmp/s.json"
if ! command -v node >/dev/null 2>&1; then
	skip "node not installed: --weight=time's profile not read"
else
	check "--weight=time of cpu-clock: nanoseconds, the period" \
	node -e 'const p = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).profiles[0];
		if (p.unit !== "nanoseconds" || p.endValue !== 300 * 1001001) process.exit(1)' "$tmp/s.json"
fi
"$CONV" -q --to=speedscope --weight=time "$TD/period.data" -o "$tmp/s.json" 2>"$tmp/err"
rm -f "$tmp/s.json"
"$CONV" -q --to=speedscope --weight=time "$TD/tracepoint.data" -o "$tmp/s.json" 2>"$tmp/err"
rc=$?
check "--weight=time of a tracepoint is refused (rc $rc), no output" \
	sh -c '[ '$rc' != 0 ] && [ ! -e "$1" ] && grep -q "does not count time" "$2"' sh "$tmp/s.json" "$tmp/err"

# json
if ! command -v node >/dev/null 2>&1; then
	skip "node not installed: --to=json not checked"
else
	n=0
	for f in "$TD"/*.data $(perf_files "$PD_CORPUS"); do
		"$PD_BIN/pd-info" -q --dump "$f" >"$tmp/dump" 2>/dev/null || continue
		name=${f#"$PD_TOP/"}
		name=${name#"$PD_CORPUS/"}
		n=$((n + 1))
		"$CONV" -q --to=json "$f" -o "$tmp/j.jsonl" 2>"$tmp/err"
		rc=$?
		out=$(node "$PD_TOP/tests/tools/json-check.mjs" "$f" "$tmp/j.jsonl" "$tmp/dump" 2>&1)
		jrc=$?
		check "$name: --to=json (rc $rc) is lossless and has pd-info's records: $out" \
			test $rc = 0 -a $jrc = 0
	done
	check "json: files checked ($n)" test "$n" -gt 30
	"$CONV" -q --to=json - <"$TD/pipe.data" >"$tmp/j.jsonl"
	"$PD_BIN/pd-info" -q --dump "$TD/pipe.data" >"$tmp/dump.pipe"
	check "json from standard input: the records, raw in host order" \
		sh -c 'head -1 "$1" | grep -q "\"raw_source\":\"host-order\"" && [ "$(grep -c "\"type\":\"record\"" "$1")" = "$(grep -c "^0x" "$2")" ]' \
		sh "$tmp/j.jsonl" "$tmp/dump.pipe"
fi

# json's decoded features and records against perf: the header strings
# perf report --header-only prints, and perf script's switch-outs
if command -v node >/dev/null 2>&1 && have_perf; then
	f=$TD/fp.data
	"$CONV" -q --to=json "$f" -o "$tmp/j.jsonl"
	node -e '
		const d = {};
		for (const l of require("fs").readFileSync(process.argv[1], "utf8").split("\n")) {
			if (!l) continue;
			const o = JSON.parse(l);
			if (o.type === "feature" && o.decoded) d[o.name] = o.decoded;
		}
		console.log("# hostname : " + d.HOSTNAME.hostname);
		console.log("# os release : " + d.OSRELEASE.osrelease);
		console.log("# perf version : " + d.VERSION.version);
		console.log("# arch : " + d.ARCH.arch);
		console.log("# nrcpus online : " + d.NRCPUS.online);
		console.log("# nrcpus avail : " + d.NRCPUS.avail);
		console.log("# total memory : " + d.TOTAL_MEM.total_mem_kb + " kB");
		console.log("# cmdline : " + d.CMDLINE.argv.join(" ") + " ");
	' "$tmp/j.jsonl" >"$tmp/got" 2>&1
	perf report --header-only -i "$f" 2>/dev/null </dev/null |
		grep -E "^# (hostname|os release|perf version|arch|nrcpus online|nrcpus avail|total memory|cmdline) :" >"$tmp/want"
	check "json: decoded HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS, TOTAL_MEM, CMDLINE are perf report --header-only's" \
		sh -c '[ "$(wc -l <"$1")" = 8 ] && cmp -s "$1" "$2"' sh "$tmp/want" "$tmp/got"
	diff "$tmp/want" "$tmp/got" | head -4
	f=$TD/switch.data
	want=$(perf script --show-switch-events -i "$(perf_readable "$f")" 2>/dev/null </dev/null | grep -c "PERF_RECORD_SWITCH.* OUT")
	got=$("$CONV" -q --to=json "$f" | grep '"name":"SWITCH' | grep -c '"out":true')
	check "json: SWITCH records decoded, as many switch-outs as perf script shows ($want = $got)" \
		test "$want" -gt 0 -a "$want" = "$got"
fi

# bad input: cut in the file header
head -c 100 "$TD/fp.data" >"$tmp/cut.data"
for fmt in script pprof speedscope json; do
	"$CONV" --to=$fmt "$tmp/cut.data" -o "$tmp/out.$fmt" 2>"$tmp/err"
	rc=$?
	check "$fmt: a cut header is status 1 ($rc), one error line naming the file, no output" \
		sh -c '[ '$rc' = 1 ] && [ "$(wc -l <"$1")" = 1 ] && grep -q "cut.data" "$1" && ! ls "$2"* "$3"/.out.* >/dev/null 2>&1' \
		sh "$tmp/err" "$tmp/out.$fmt" "$tmp"
done
"$CONV" --to=script --target-perf=6.1 "$TD/fp.data" >/dev/null 2>&1
check "--to with --target-perf is bad usage" test $? = 2
"$CONV" --to=nosuch "$TD/fp.data" >/dev/null 2>&1
check "--to=nosuch is bad usage" test $? = 2
"$CONV" --symfs=/ "$TD/fp.data" -o "$tmp/x" >/dev/null 2>&1
check "--symfs without --to is bad usage" test $? = 2
