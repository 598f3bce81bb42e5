#!/bin/sh
# Symbols from a debuginfod server, for a profile whose binaries are not
# on this machine. A real elfutils debuginfod (Debian package debuginfod)
# runs on 127.0.0.1, on a free port, indexing a folder that holds
# testdata's programs: burn as built, burn-nofp stripped beside its
# debug file (objcopy --only-keep-debug), so that one DSO comes whole
# from the executable and the other needs the debug info too. Profiles
# are recorded with perf record -N (no build-id cache) of copies of the
# programs; HOME is an empty folder (no ~/.debug). The oracle is our own
# output with the binaries present, and the server's own counters say
# what was asked (its /metrics, read with curl):
#  - binaries moved away: pd-fold of a frame-pointer and of a DWARF
#    profile, pd-unwind of the DWARF one (and -j2 of a larger one, its
#    helper thread asking nothing twice), pd-convert --shim=unwind,
#    pd-diff and pd-convert --to=script print what they print with the
#    binaries there; -v says what was fetched from which URL, one line
#    per file the server sent; a second run is served by the client's
#    cache ($DEBUGINFOD_CACHE_PATH) and asks the server nothing;
#    $DEBUGINFOD_PROGRESS shows the client's progress;
#  - pd-convert --to=archive fetches what is missing, and the archive
#    then folds the same with no server at all;
#  - --no-debuginfod (pd-fold, pd-unwind, pd-convert): no request;
#  - a server without the file (404), a stopped one (refused) and a
#    frozen one (SIGSTOP, $DEBUGINFOD_TIMEOUT): exit 0, the frames stay
#    unresolved, exactly one warning naming debuginfod, no hang (each
#    run under timeout(1), which would kill it: no timing assertion).
. "$(dirname "$0")/lib.sh"

end() { echo "1..$tap_n"; exit 0; }
for c in debuginfod curl objcopy strip readelf; do
	if ! command -v $c >/dev/null 2>&1; then
		skip "$c not installed (apt-get install debuginfod curl binutils): no debuginfod server to test with"
		end
	fi
done
if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): nothing records the profiles"
	end
fi

FOLD=$PD_BIN/pd-fold
srv_pid=
trap '[ -n "$srv_pid" ] && kill -CONT $srv_pid 2>/dev/null; [ -n "$srv_pid" ] && kill $srv_pid 2>/dev/null; rm -rf "$tmp"' EXIT
# nothing of this machine's: no build-id cache, no perf config, no
# servers but ours, the client's cache and its misses our own
mkdir -p "$tmp/home" "$tmp/bin" "$tmp/srv" "$tmp/away"
HOME=$tmp/home
export HOME
unset PERF_BUILDID_DIR PERF_CONFIG DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH \
	DEBUGINFOD_PROGRESS DEBUGINFOD_VERBOSE DEBUGINFOD_TIMEOUT \
	DEBUGINFOD_RETRY_LIMIT XDG_CACHE_HOME

# the programs, recorded where they will not be found afterwards
for p in burn burn-nofp inl; do
	cp "$(testdata_bin $p)" "$tmp/bin/$p"
done
rec() { # OUT PERF-RECORD-OPTIONS... -- CMD
	_o=$1; shift
	perf record -q -N -e cpu-clock -o "$tmp/$_o" "$@" >/dev/null 2>"$tmp/rec.err" </dev/null &&
		[ -s "$tmp/$_o" ]
}
if ! rec fp.data -g -F 999 -- "$tmp/bin/burn" 300 ||
   ! rec dwarf.data --call-graph dwarf,4096 -F 499 -- "$tmp/bin/burn-nofp" 300 ||
   ! rec inl.data -g -F 999 -- "$tmp/bin/inl" 200 ||
   ! rec big.data --call-graph dwarf -F 999 -- "$tmp/bin/burn-nofp" 2000; then
	skip "perf record does not work here ($(head -1 "$tmp/rec.err")): no profiles"
	end
fi

# run NAME TOOL ARGS...: stdout to $tmp/NAME.out, stderr to
# $tmp/NAME.err, exit code to $tmp/NAME.rc; killed after 120 s
run() {
	_n=$1; shift
	timeout 120 "$@" >"$tmp/$_n.out" 2>"$tmp/$_n.err" </dev/null
	echo $? >"$tmp/$_n.rc"
}
rc() { cat "$tmp/$1.rc"; }
# where an output differs from the one with the binaries present: the
# first lines of the difference, as comments
show_diff() { # WANT GOT
	cmp -s "$1" "$2" || diff "$1" "$2" | head -8 | sed 's/^/# /'
}
named() { grep -c -i debuginfod "$tmp/$1.err"; }

# the outputs with the binaries present
run want-fp "$FOLD" "$tmp/fp.data"
run want-dwarf "$FOLD" "$tmp/dwarf.data"
run want-unwind "$PD_BIN/pd-unwind" "$tmp/dwarf.data" -o "$tmp/want-unwind.data"
run want-big "$PD_BIN/pd-unwind" -j1 "$tmp/big.data" -o "$tmp/want-big.data"
run want-shim "$PD_BIN/pd-convert" --shim=unwind "$tmp/dwarf.data" -o "$tmp/want-shim.data"
run want-diff "$PD_BIN/pd-diff" "$tmp/fp.data" "$tmp/dwarf.data"
run want-script "$PD_BIN/pd-convert" --to=script "$tmp/dwarf.data"
check "with the binaries here: burn's and burn-nofp's frames are named (inner_hot, and mix inlined)" \
	sh -c "grep -q 'outer;middle;inner_hot ' '$tmp/want-fp.out' && grep -q 'inner_hot;mix ' '$tmp/want-dwarf.out'"

# the server's folder: burn whole, burn-nofp stripped and its debug file
mv "$tmp/bin/burn" "$tmp/srv/burn"
objcopy --only-keep-debug "$tmp/bin/burn-nofp" "$tmp/srv/burn-nofp.debug"
strip --strip-all -o "$tmp/srv/burn-nofp" "$tmp/bin/burn-nofp"
rm "$tmp/bin/burn-nofp"
mv "$tmp/bin/inl" "$tmp/away/inl"

# moved away, no server: the frames are not named, nothing says debuginfod
run gone "$FOLD" "$tmp/fp.data"
check "binaries moved away, DEBUGINFOD_URLS unset: frames unresolved, no word of debuginfod" \
	sh -c "test $(rc gone) = 0 && ! grep -q inner_hot '$tmp/gone.out' && test $(named gone) = 0"

# start_server DIR: our debuginfod on a free port, $port, $srv_pid,
# once it has indexed DIR's files
metric() { # NAME: the server's counter (0 when absent)
	curl -s "http://127.0.0.1:$port/metrics" 2>/dev/null |
		awk -v m="$1" 'index($0, m) == 1 { s += $NF } END { print s + 0 }'
}
start_server() {
	_want=$(ls "$1" | wc -l)
	for _try in 1 2 3 4 5; do
		port=$((20000 + ($$ * 7 + _try * 7919) % 40000))
		env -u DEBUGINFOD_URLS debuginfod -p $port -d "$tmp/db-$port.sqlite" \
			-F -t 0 -g 0 "$1" >"$tmp/srv-$port.log" 2>&1 </dev/null &
		srv_pid=$!
		# until it has scanned every file (or died: the port was taken)
		_i=0
		while kill -0 $srv_pid 2>/dev/null && [ $_i -lt 600 ]; do
			[ "$(metric scanned_files_total)" -ge "$_want" ] && return 0
			_i=$((_i + 1))
			sleep 0.1
		done
		kill $srv_pid 2>/dev/null
		wait $srv_pid 2>/dev/null
		srv_pid=
	done
	return 1
}
if ! start_server "$tmp/srv"; then
	skip "debuginfod did not start or index $tmp/srv: $(tail -1 "$tmp"/srv-*.log)"
	end
fi
echo "# debuginfod on 127.0.0.1:$port, pid $srv_pid"
# requests for files, and files sent (a retried request counts twice
# in the first, once in the second)
requests() { echo $(($(metric 'http_requests_total{type="executable"}') + $(metric 'http_requests_total{type="debuginfo"}'))); }
served() { metric 'http_responses_total{result="file"}'; }
URL=http://127.0.0.1:$port
DEBUGINFOD_URLS=$URL
DEBUGINFOD_CACHE_PATH=$tmp/cache
export DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH

# each tool fetches what it lacks; -v names each file fetched and the URL
r0=$(served)
run fp "$FOLD" -v "$tmp/fp.data"
r1=$(served)
if grep -q 'no debuginfod support' "$tmp/fp.err"; then
	skip "the tools were built without libdebuginfod (apt-get install libdebuginfod-dev): $(grep -m1 debuginfod "$tmp/fp.err")"
	end
fi
check "frame pointers: pd-fold's output equals the one with the binaries present" \
	sh -c "test $(rc fp) = 0 && cmp -s '$tmp/want-fp.out' '$tmp/fp.out'"
bid=$(readelf -n "$tmp/srv/burn" | awk '/Build ID/ { print $3 }')
check "-v: burn's executable fetched from $URL/buildid/$bid/executable, one file sent" \
	sh -c "grep -q 'burn (build id $bid): executable fetched from $URL/buildid/$bid/executable into $tmp/cache/' '$tmp/fp.err' && test $((r1 - r0)) = 1"
run dwarf "$FOLD" -v "$tmp/dwarf.data"
r2=$(served)
check "DWARF: pd-fold's output (unwound, inline frames) equals the one with the binaries present" \
	sh -c "test $(rc dwarf) = 0 && cmp -s '$tmp/want-dwarf.out' '$tmp/dwarf.out'"
show_diff "$tmp/want-dwarf.out" "$tmp/dwarf.out"
check "-v: burn-nofp's executable (stripped) and its debuginfo fetched: $(grep -c 'fetched from' "$tmp/dwarf.err") lines, $((r2 - r1)) files sent" \
	sh -c "grep -q 'burn-nofp (build id [0-9a-f]*): executable fetched from $URL/' '$tmp/dwarf.err' && \
	       grep -q 'burn-nofp (build id [0-9a-f]*): debuginfo fetched from $URL/' '$tmp/dwarf.err' && \
	       test $(grep -c 'fetched from' "$tmp/dwarf.err") = $((r2 - r1))"
# (but the vdso's: a sample that lands in it, a matter of chance, puts
# [vdso] in the build-id table, which perf and pd-fold then name only
# from a build-id cache, and this server has no vdso)
grep -h warning "$tmp/fp.err" "$tmp/dwarf.err" | grep -v '\[vdso\]' >"$tmp/warnings"
check "no warnings when the server has every file (the vdso aside)" \
	test ! -s "$tmp/warnings"
head -3 "$tmp/warnings" | cut -c1-300 | sed 's/^/# /'
r2=$(requests)
run unwind "$PD_BIN/pd-unwind" -v "$tmp/dwarf.data" -o "$tmp/unwind.data"
r3=$(requests)
check "pd-unwind: the same file as with the binaries present, byte for byte" \
	sh -c "test $(rc unwind) = 0 && cmp -s '$tmp/want-unwind.data' '$tmp/unwind.data'"
check "a second run: from the client's cache, the server not asked ($((r3 - r2)) requests)" \
	sh -c "grep -q \"executable from the debuginfod client's cache: $tmp/cache/\" '$tmp/unwind.err' && test $((r3 - r2)) = 0"
# two threads: the helper has its own symbolizer, and the build ids
# are still asked once (exec and debuginfo of burn-nofp: 2 files)
big=$(wc -c <"$tmp/big.data")
if [ "$big" -ge $((4 << 20)) ]; then
	r0=$(served)
	run big env DEBUGINFOD_CACHE_PATH="$tmp/cache-big" "$PD_BIN/pd-unwind" -j2 "$tmp/big.data" -o "$tmp/big.out"
	r1=$(served)
	check "pd-unwind -j2 ($big bytes, $(grep -o '([0-9]* threads)' "$tmp/big.err")): the -j1 output with the binaries present; $((r1 - r0)) files sent (2)" \
		sh -c "test $(rc big) = 0 && grep -q '(2 threads)' '$tmp/big.err' && cmp -s '$tmp/want-big.data' '$tmp/big.out' && test $((r1 - r0)) = 2"
	echo "# the server so far: $(requests) requests for files, $(served) files sent"
else
	skip "the big DWARF recording has $big bytes, under 4 MiB: pd-unwind starts no helper thread"
fi
run shim "$PD_BIN/pd-convert" --shim=unwind "$tmp/dwarf.data" -o "$tmp/shim.data"
check "pd-convert --shim=unwind: the same file as with the binaries present" \
	sh -c "test $(rc shim) = 0 && cmp -s '$tmp/want-shim.data' '$tmp/shim.data'"
# the client's own progress display ($DEBUGINFOD_PROGRESS), on stderr
run progress env DEBUGINFOD_PROGRESS=1 DEBUGINFOD_CACHE_PATH="$tmp/cache-progress" "$FOLD" "$tmp/fp.data"
check "DEBUGINFOD_PROGRESS=1: the client reports its download on standard error" \
	sh -c "test $(rc progress) = 0 && grep -q 'Downloading' '$tmp/progress.err' && cmp -s '$tmp/want-fp.out' '$tmp/progress.out'"
run diff "$PD_BIN/pd-diff" "$tmp/fp.data" "$tmp/dwarf.data"
check "pd-diff: the same output as with the binaries present" \
	sh -c "test $(rc diff) = 0 && test -s '$tmp/diff.out' && cmp -s '$tmp/want-diff.out' '$tmp/diff.out'"
show_diff "$tmp/want-diff.out" "$tmp/diff.out"
run script env DEBUGINFOD_CACHE_PATH="$tmp/cache2" "$PD_BIN/pd-convert" --to=script "$tmp/dwarf.data"
check "pd-convert --to=script (a fresh client cache): the same text as with the binaries present" \
	sh -c "test $(rc script) = 0 && cmp -s '$tmp/want-script.out' '$tmp/script.out'"
show_diff "$tmp/want-script.out" "$tmp/script.out"

# an archive made here, where the binaries are not, then read offline
run archive env DEBUGINFOD_CACHE_PATH="$tmp/cache3" "$PD_BIN/pd-convert" -v --to=archive "$tmp/dwarf.data" -o "$tmp/dwarf.tar.zst"
run archive-fp env DEBUGINFOD_CACHE_PATH="$tmp/cache3" "$PD_BIN/pd-convert" --to=archive "$tmp/fp.data" -o "$tmp/fp.tar.zst"
run offline-dwarf env -u DEBUGINFOD_URLS "$FOLD" "$tmp/dwarf.tar.zst"
run offline-fp env -u DEBUGINFOD_URLS "$FOLD" "$tmp/fp.tar.zst"
check "pd-convert --to=archive fetches burn-nofp's files (-v says so), and the archive folds as the binaries did, with no server" \
	sh -c "test $(rc archive) = 0 && grep -q 'burn-nofp (build id [0-9a-f]*): executable fetched from $URL/' '$tmp/archive.err' && \
	       test $(rc offline-dwarf) = 0 && cmp -s '$tmp/want-dwarf.out' '$tmp/offline-dwarf.out'"
check "the same for the frame-pointer profile's archive" \
	sh -c "test $(rc archive-fp) = 0 && test $(rc offline-fp) = 0 && cmp -s '$tmp/want-fp.out' '$tmp/offline-fp.out'"

# --no-debuginfod: not one request (libdw's own client included), the
# frames as without a server
export DEBUGINFOD_CACHE_PATH=$tmp/cache4
r0=$(requests)
run no-fold "$FOLD" --no-debuginfod "$tmp/dwarf.data"
run no-unwind "$PD_BIN/pd-unwind" --no-debuginfod "$tmp/dwarf.data" -o "$tmp/no.data"
run no-script "$PD_BIN/pd-convert" --no-debuginfod --to=script "$tmp/fp.data"
run no-archive "$PD_BIN/pd-convert" --no-debuginfod --to=archive "$tmp/fp.data" -o "$tmp/no.tar.zst"
run no-diff "$PD_BIN/pd-diff" --no-debuginfod "$tmp/fp.data" "$tmp/dwarf.data"
r1=$(requests)
check "--no-debuginfod (pd-fold, pd-unwind, pd-convert --to=script and archive, pd-diff): the server got $((r1 - r0)) requests, frames unresolved" \
	sh -c "test $((r1 - r0)) = 0 && ! grep -q inner_hot '$tmp/no-fold.out' '$tmp/no-script.out' && \
	       grep -q 'missing ELF: $tmp/bin/burn-nofp' '$tmp/no-unwind.err' && \
	       grep -q 'burn: not found with this build id' '$tmp/no-archive.err' && \
	       test $(rc no-fold)$(rc no-unwind)$(rc no-script)$(rc no-archive)$(rc no-diff) = 00000 && \
	       test $(cat "$tmp"/no-*.err | grep -c -i debuginfod) = 0"

# 404: the server is up, inl is not among its files
export DEBUGINFOD_CACHE_PATH=$tmp/cache5
run missing "$FOLD" "$tmp/inl.data"
run missing-nodbg "$FOLD" --no-debuginfod "$tmp/inl.data"
check "404 (inl not on the server): exit 0, the frames as without a server, one warning, naming the server" \
	sh -c "test $(rc missing) = 0 && cmp -s '$tmp/missing-nodbg.out' '$tmp/missing.out' && \
	       test $(named missing) = 1 && grep -i debuginfod '$tmp/missing.err' | grep -q 'server $URL has no executable'"
sed 's/^/# /' "$tmp/missing.err"

# a frozen server: connections pile up unanswered until the timeout
kill -STOP $srv_pid
run frozen env DEBUGINFOD_TIMEOUT=1 DEBUGINFOD_CACHE_PATH="$tmp/cache6" "$FOLD" "$tmp/dwarf.data"
kill -CONT $srv_pid
check "a frozen server (SIGSTOP, DEBUGINFOD_TIMEOUT=1): exit 0 (not killed), one warning naming debuginfod and the server" \
	sh -c "test $(rc frozen) = 0 && test $(named frozen) = 1 && grep -i debuginfod '$tmp/frozen.err' | grep -q 'server $URL'"
sed 's/^/# /' "$tmp/frozen.err"

# the server stopped: refused, one warning, and nothing else asked
kill $srv_pid
wait $srv_pid 2>/dev/null
srv_pid=
export DEBUGINFOD_CACHE_PATH=$tmp/cache7
for t in fold unwind unwind-j2 script; do
	case $t in
	fold) run stopped-$t "$FOLD" "$tmp/dwarf.data" ;;
	unwind) run stopped-$t "$PD_BIN/pd-unwind" "$tmp/dwarf.data" -o "$tmp/stopped.data" ;;
	unwind-j2) run stopped-$t "$PD_BIN/pd-unwind" -j2 "$tmp/big.data" -o "$tmp/stopped.data" ;;
	script) run stopped-$t "$PD_BIN/pd-convert" --to=script "$tmp/fp.data" ;;
	esac
	check "server stopped, $t: exit 0, frames unresolved, exactly one warning naming debuginfod (and $URL)" \
		sh -c "test $(rc stopped-$t) = 0 && ! grep -q inner_hot '$tmp/stopped-$t.out' && \
		       test $(named stopped-$t) = 1 && grep -i debuginfod '$tmp/stopped-$t.err' | grep -q '$URL'"
done
sed 's/^/# /' "$tmp/stopped-fold.err"
end
