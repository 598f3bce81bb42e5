#!/bin/sh
# Hostile sizes: counts and sizes in feature sections and records set far
# beyond the file (every feature with a count or a length, the AUXTRACE
# index, an AUXTRACE record's data size, a pipe's tracing data size), read by pd-info, pd-convert and pd-fold under a
# memory limit (ulimit -v; not under ASan, which reserves its own). Each
# is refused before anything is allocated: status 0 with a warning (the
# feature dropped) or 1 with a located error, never "out of memory", a
# signal or a hang.
. "$(dirname "$0")/lib.sh"

u64() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
u32() { od -An -t u4 -j "$2" -N 4 "$1" | tr -d ' '; }
# put_le FILE OFFSET BYTES VALUE: little-endian integer written in place
put_le() {
	_v=$4 _i=0 _s=
	while [ $_i -lt "$3" ]; do
		_s="$_s$(printf '\\%03o' $((_v & 255)))"
		_v=$((_v >> 8)) _i=$((_i + 1))
	done
	printf "$_s" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

HUGE32=4294967280	# 0xfffffff0
HUGE64=1152921504606846976	# 2^60

tool_runs() { # DESCRIPTION FILE
	for cmd in "pd-info --stats" "pd-info --header" "pd-info --dump" pd-convert pd-fold; do
		rm -f "$tmp/conv.out"
		set -- "$1" "$2"
		case $cmd in
		pd-convert) args="$2 -o $tmp/conv.out" ;;
		*) args="${cmd#pd-info} $2"; [ "$cmd" = pd-fold ] && args=$2 ;;
		esac
		( [ -n "${PD_ASAN:-}" ] || ulimit -v 1000000
		  exec timeout 30 "$PD_BIN/${cmd%% *}" $args ) \
			>"$tmp/out" 2>"$tmp/err" </dev/null
		rc=$?
		why=
		if grep -q -i -E 'out of memory|cannot allocate|Sanitizer|runtime error' "$tmp/err"; then
			why="$(grep -m 1 -i -E 'memory|allocate|Sanitizer|runtime' "$tmp/err")"
		elif [ $rc -eq 1 ]; then
			[ "$(grep -c 'error: ' "$tmp/err")" -eq 1 ] &&
				grep -q "error: .*$(basename "$2").*offset 0x" "$tmp/err" ||
				why="error not located: $(grep -m 1 error "$tmp/err")"
		elif [ $rc -ne 0 ]; then
			why="status $rc"
		fi
		if [ -z "$why" ]; then
			ok "$1: ${cmd%% --*}${cmd#pd-info}: status $rc"
		else
			not_ok "$1: $cmd: $why"
		fi
	done
}

# feature sections of fp.data-like files: id -> "offset-in-section:bytes"
patches() {
	case $1 in
	2) echo "6:2:65535" ;;			# BUILD_ID entry size
	3|4|5|6|8|9) echo "0:4:$HUGE32" ;;	# string length
	11) echo "0:4:$HUGE32 4:4:$HUGE32" ;;	# CMDLINE nr, first length
	12) echo "0:4:$HUGE32 4:4:$HUGE32 ids" ;;	# EVENT_DESC nr, attr size, nr_ids
	13) echo "0:4:$HUGE32 4:4:$HUGE32" ;;	# CPU_TOPOLOGY nr, first length
	14) echo "0:4:$HUGE32 12:4:$HUGE32" ;;	# NUMA nr, ... 
	16|17|25|26|28|30|31) echo "0:4:$HUGE32" ;;	# PMU_MAPPINGS, GROUP_DESC, BPF, PMU caps, HYBRID
	18) echo "0:8:$HUGE64" ;;		# AUXTRACE index entries
	20) echo "4:4:$HUGE32" ;;		# CACHE nr
	22) echo "16:8:$HUGE64" ;;		# MEM_TOPOLOGY nr
	27) echo "16:4:$HUGE32" ;;		# COMPRESSED mmap_len
	1) echo "32:8:$HUGE64" ;;		# TRACING_DATA header_page size
	esac
}

nfeat=0
for f in "$TD"/*.data; do
	n=$(basename "$f" .data)
	[ "$(u64 "$f" 8)" = 104 ] || continue
	feat=$(( $(u64 "$f" 40) + $(u64 "$f" 48) ))
	bits=$(u64 "$f" 72)
	id=0 k=0
	while [ $id -lt 64 ]; do
		[ $(( (bits >> id) & 1 )) -eq 1 ] || { id=$((id + 1)); continue; }
		soff=$(u64 "$f" $((feat + 16 * k)))
		k=$((k + 1))
		for p in $(patches $id); do
			if [ "$p" = ids ]; then
				# EVENT_DESC: the first event's nr_ids
				asz=$(u32 "$f" $((soff + 4)))
				p="$((8 + asz)):4:$HUGE32"
			fi
			case " $done_ids " in *" $id:${p%%:*} "*) continue ;; esac
			done_ids="${done_ids:-} $id:${p%%:*}"
			nfeat=$((nfeat + 1))
			cp "$f" "$tmp/h.data"
			put_le "$tmp/h.data" $((soff + ${p%%:*})) \
				"$(echo "$p" | cut -d: -f2)" "${p##*:}"
			tool_runs "$n feature $id +${p%%:*}" "$tmp/h.data"
		done
		id=$((id + 1))
	done
done
check "feature counts and lengths tried ($nfeat)" [ $nfeat -ge 20 ]

# Records: the offset of the first record of TYPE in FILE (pd-info --dump)
rec_off() {
	"$PD_BIN/pd-info" -q --dump "$1" 2>/dev/null |
		awk -v t="$2" '$0 ~ ("PERF_RECORD_" t "[(]") { sub(/[+ ].*/, "", $1); print $1; exit }'
}

"$PD_BIN/pd-convert" -q --pipe "$TD/tracepoint.data" -o "$tmp/tp.pipe"
off=$(rec_off "$tmp/tp.pipe" TRACING_DATA)
if [ -n "$off" ]; then
	put_le "$tmp/tp.pipe" $((off + 8)) 4 $HUGE32
	tool_runs "pipe TRACING_DATA size 0xfffffff0" "$tmp/tp.pipe"
else
	not_ok "tracepoint pipe: no TRACING_DATA record found"
fi
pt=$PD_CORPUS/google_perf_data_converter/src/quipper/testdata/perf.data.intel_pt-4.14
if [ -f "$pt" ]; then
	off=$(rec_off "$pt" AUXTRACE)
	cp "$pt" "$tmp/pt.data"
	put_le "$tmp/pt.data" $((off + 8)) 8 $HUGE64
	tool_runs "AUXTRACE data size 2^60" "$tmp/pt.data"
else
	skip "perf.data.intel_pt-4.14 absent: AUXTRACE size not tried"
fi
