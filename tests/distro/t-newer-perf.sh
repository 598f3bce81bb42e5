#!/bin/sh
# Newer profiles opened by older perfs, as a user opens them (issue 18).
#
# Debian 13's perf 6.12 and unstable's perf 7.x, each in its own chroot,
# record testdata's programs every way users record (frame pointers,
# DWARF, -z, pipe, pipe -z, tracepoints with callchains, switch events,
# two events, system-wide, -d). This build's pd-convert --target-perf=X
# rewrites each recording for the older perfs at hand: Debian 11's
# packaged perf_5.10, run in a bullseye chroot (as targets debian11 and
# 5.10), and this machine's perf 6.1 (6.1). Each older perf must then, on
# the converted file as it comes out of pd-convert -o FILE:
#  - count the samples the recording perf counts (perf report --stats),
#  - print not one warning line in perf script and perf report;
# and after the archive route (pd-convert --to=archive where the profile
# was recorded, with the recording side's binaries; pd-convert
# --from-archive --target-perf=X where it is read, perf's buildid.dir
# pointed at what that wrote):
#  - the same samples and no warning line again,
#  - perf report --sort sym naming the functions the recording perf
#    names (each with 5% or more of the samples).
#
# Recording in a chroot runs on this machine's kernel: software events
# only (cpu-clock), kernel symbols from this machine's /proc/kallsyms.
# The chroots are cached (tests/distro/lib.sh); the three are made in
# parallel on first use, as debootstrap waits mostly on the network.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"

B=${PD_BIN%/bin}
# what a newer distro gives a user who profiles: its perf, and a compiler
# to build what is profiled (threads is built there, against its libc)
REC_PKGS="linux-perf binutils gcc libc6-dev"
READ_PKGS="linux-perf binutils"
for n in trixie sid bullseye; do
	case $n in
	bullseye) p=$READ_PKGS ;;
	*) p=$REC_PKGS ;;
	esac
	(distro_chroot "$n-perf" "$n" "$p" >"$tmp/chroot.$n") &
done
wait
for n in trixie sid bullseye; do
	[ -d "$(cat "$tmp/chroot.$n")" ] || distro_die "no $n chroot"
done
CT=$(cat "$tmp/chroot.trixie")
CS=$(cat "$tmp/chroot.sid")
CB=$(cat "$tmp/chroot.bullseye")
# on exit: the probe directory bound in the Debian 11 chroot (an empty
# path under its /tmp once unbound) and each chroot's /pd (the
# recordings, the converted files and the unpacked archives, each with
# its kallsyms: hundreds of MB) go too
trap 'distro_umount; rm -rf "$tmp" "$CB$tmp" "$CT/pd" "$CS/pd" "$CB/pd"' EXIT

# distro_mount binds /sys alone: tracepoints need tracefs under it too
mount_all() {
	distro_mount "$1"
	if mountpoint -q /sys/kernel/tracing && ! mountpoint -q "$1/sys/kernel/tracing"; then
		mount --bind /sys/kernel/tracing "$1/sys/kernel/tracing" &&
			distro_mounted="$1/sys/kernel/tracing $distro_mounted"
	fi
}

# the chroot's own perf: Debian 11 names it perf_5.10 (its /usr/bin/perf
# wrapper looks for the running kernel's version), later ones install
# /usr/bin/perf
perf_of() {
	for _p in "$1"/usr/bin/perf_*; do
		[ -x "$_p" ] && { echo "/usr/bin/${_p##*/}"; return; }
	done
	echo /usr/bin/perf
}

for C in "$CT" "$CS" "$CB"; do
	mount_all "$C"
	rm -rf "$C/pd"
	mkdir -p "$C/pd/bin" "$C/pd/rec" "$C/pd/read" "$C/work/main/testdata/bin"
	# pd-convert runs where the profile is recorded and where it is read
	cp "$B/static/pd-convert" "$B/static/pd-info" "$C/pd/bin/"
done

# cpu-clock where the recording perf would pick cycles: this VM has no
# hardware PMU, and perf would fall back to cpu-clock with a note
RECORDINGS="fp dwarf zstd pipe pipe-zstd tracepoint switch two-events system-wide data"
rec_args() {
	case $1 in
	fp)		echo "-g -e cpu-clock -F 499 -o /pd/rec/fp.data -- $2/burn 300" ;;
	dwarf)		echo "--call-graph dwarf,4096 -e cpu-clock -F 199 -o /pd/rec/dwarf.data -- $2/burn-nofp 200" ;;
	zstd)		echo "-z -g -e cpu-clock -F 499 -o /pd/rec/zstd.data -- $2/burn 300" ;;
	pipe)		echo "-g -e cpu-clock -F 499 -o - -- $2/burn 300" ;;
	pipe-zstd)	echo "-z -g -e cpu-clock -F 499 -o - -- $2/burn 300" ;;
	tracepoint)	echo "-g -e sched:sched_switch -e sched:sched_process_exec -e sched:sched_process_fork -o /pd/rec/tracepoint.data -- $2/sleeper" ;;
	switch)		echo "--switch-events -g -e cpu-clock -F 499 -o /pd/rec/switch.data -- $2/threads" ;;
	two-events)	echo "-g -e cpu-clock -e task-clock -F 499 -o /pd/rec/two-events.data -- $2/burn 200" ;;
	system-wide)	echo "-a -g -e cpu-clock -F 199 -o /pd/rec/system-wide.data -- $2/burn 300" ;;
	data)		echo "-d -e cpu-clock -F 499 -o /pd/rec/data.data -- $2/burn 200" ;;
	esac
}
# perf report of a system-wide profile also names whatever else ran on
# this shared machine, binaries outside the chroot that neither side can
# resolve alike: its top functions are compared for the program alone
report_sel() {
	case $1 in system-wide) echo "--comm burn" ;; esac
}

# perf report --stats output: the SAMPLE count of all events, 0 if none
# (perf 6.x prints each event's stats after the aggregated ones)
samples_of() {
	awk '/Aggregated stats/ { agg = 1 }
	     /SAMPLE events:/ && n == "" && (agg || !seen) { n = $3 }
	     /SAMPLE events:/ { seen = 1 }
	     END { print n + 0 }' "$1"
}
# the functions with 5% of the samples or more, from perf report
# --no-children --sort sym --stdio (lines "  85.10%  [.] inner_hot";
# perf 7.x adds a Latency column, "34.91%  35.68%  [.] work_c", for
# recordings with switch events), one per line, sorted
top_syms() {
	awk '/^ +[0-9.]+%( +[0-9.]+%)* +\[.\] / {
		p = $1; sub("%", "", p)
		if (p + 0 < 5) next
		s = $0; sub(/^[^]]*\] /, "", s); sub(/ +$/, "", s); print s
	}' "$1" | sort -u
}
# lines perf prints when it skips, misreads or gives up on something
warnings() { # OUT ERR: the warning lines of one perf run (perf
	# report's tip line aside: "Cannot load tips.txt" is about perf's own
	# files, which perf 5.10 misses after a failed kallsyms load)
	cat "$2"
	grep -a -i -E 'warning|failed to process|unknown event|reserved bits|incompatible|unsupported|couldn.t|can.t |cannot' "$1" |
		grep -a -v '^# (Cannot load tips\.txt file'
}
pd_samples() { # FILE: what pd-info counts
	"$B/bin/pd-info" -q --stats "$1" >"$tmp/i.out" 2>/dev/null
	samples_of "$tmp/i.out"
}

# ---- recording, in the newer chroots ----
cp "$TD/bin/burn" "$TD/bin/burn-nofp" "$TD/bin/sleeper" "$tmp/"
RECORDERS=""
for C in "$CT" "$CS"; do
	P=$(perf_of "$C")
	ver=$(chroot "$C" "$P" --version 2>/dev/null | sed -n 's/^perf version \([0-9]*\.[0-9]*\).*/\1/p')
	[ -n "$ver" ] || { not_ok "perf in $C runs"; continue; }
	RECORDERS="$RECORDERS $ver"
	echo "$C" >"$tmp/rec.$ver.chroot"
	echo "$P" >"$tmp/rec.$ver.perf"
	bin=/work/main/testdata/bin
	cp "$tmp/burn" "$tmp/burn-nofp" "$tmp/sleeper" "$C$bin/"
	chroot "$C" gcc -O2 -g -fno-omit-frame-pointer -pthread \
		-o "$bin/threads" -x c - <"$TD/src/threads.c" 2>"$tmp/gcc.err"
	check "perf $ver's distro builds threads (its gcc, its libc)" test -x "$C$bin/threads"
	sed 's/^/# /' "$tmp/gcc.err"
	for r in $RECORDINGS; do
		out=/pd/rec/$r.data
		case $r in
		pipe*)	chroot "$C" "$P" record $(rec_args "$r" "$bin") \
				>"$C$out" 2>"$tmp/rec.err" </dev/null ;;
		*)	chroot "$C" "$P" record $(rec_args "$r" "$bin") \
				>/dev/null 2>"$tmp/rec.err" </dev/null ;;
		esac
		rc=$?
		check "perf $ver records $r" sh -c "[ $rc -eq 0 ] && [ -s '$C$out' ]"
		grep -v -E '^\[ perf record: ' "$tmp/rec.err" | head -3 | sed 's/^/# /'

		# what the recording perf counts and names, where the
		# program and its libraries are. perf 6.12 and 7.x fail on
		# their own -z pipes (issue 18): pd-convert --target-perf of
		# their own version must make the stream readable to them,
		# with what pd-info counts in the original; the readers
		# below are held to pd-info's count then
		chroot "$C" "$P" report --stats -i "$out" >"$tmp/s.out" 2>"$tmp/s.err" </dev/null
		n=$(samples_of "$tmp/s.out")
		if [ "$n" -eq 0 ] || [ -s "$tmp/s.err" ]; then
			sed 's/^/# /' "$tmp/s.err" | head -3
			m=$(pd_samples "$C$out")
			"$B/bin/pd-convert" -q --target-perf="$ver" "$C$out" \
				-o "$C/pd/rec/$r.self.data" 2>"$tmp/c.err"
			sed 's/^/# /' "$tmp/c.err" | head -3
			chroot "$C" "$P" report --stats -i "/pd/rec/$r.self.data" \
				>"$tmp/s.out" 2>"$tmp/s.err" </dev/null
			n=$(samples_of "$tmp/s.out")
			check "perf $ver reads its own $r after pd-convert --target-perf=$ver: $n samples, as pd-info counts ($m)" \
				sh -c "[ '$n' -gt 0 ] && [ '$n' = '$m' ] && ! [ -s '$tmp/s.err' ]"
			n=$m
		fi
		echo "$n" >"$tmp/rec.$ver.$r.n"
		chroot "$C" "$P" report --no-children --sort sym --stdio $(report_sel "$r") \
			-i "$out" >"$tmp/r.out" 2>/dev/null </dev/null
		[ -s "$C/pd/rec/$r.self.data" ] &&
			chroot "$C" "$P" report --no-children --sort sym --stdio $(report_sel "$r") \
				-i "/pd/rec/$r.self.data" >"$tmp/r.out" 2>/dev/null </dev/null
		top_syms "$tmp/r.out" >"$tmp/rec.$ver.$r.top"
		check "perf $ver names the top functions of $r ($(echo $(cat "$tmp/rec.$ver.$r.top")))" \
			test -s "$tmp/rec.$ver.$r.top"
		# the archive, made where the profile and its binaries are
		chroot "$C" /pd/bin/pd-convert -q --to=archive "$out" \
			-o "/pd/rec/$r.tar.zst" 2>"$tmp/a.err"
		check "pd-convert --to=archive of perf $ver's $r" test -s "$C/pd/rec/$r.tar.zst"
		sed 's/^/# /' "$tmp/a.err" | head -3
	done
done

# ---- reading, with each older perf ----
# read_with NAME ROOT PERF TARGET VER R: perf PERF (in chroot ROOT, or "/"
# for this machine) reads perf VER's recording R converted for TARGET.
# TARGET "probe" is the reading perf itself, --target-perf=PATH: on
# this machine the wrapper that runs it in its chroot, on the reading
# side (the archive route) the binary there.
read_with() {
	_n=$1 _root=$2 _perf=$3 _t=$4 _v=$5 _r=$6
	_C=$(cat "$tmp/rec.$_v.chroot")
	_want=$(cat "$tmp/rec.$_v.$_r.n")
	_ts=$_t _tr=$_t
	if [ "$_t" = probe ]; then
		_ts=$tmp/probe/perf-wrapper _tr=$_perf
		[ "$_root" = / ] && _ts=$_perf
	fi
	_what="perf $_v $_r -> $_n (--target-perf=$_tr)"
	_dir=/pd/read/$_v-$_r-$_t
	[ "$_root" = / ] && _dir=$tmp/read/$_v-$_r-$_t
	_host=$_dir
	[ "$_root" = / ] || _host=$_root$_dir
	rm -rf "$_host" "$_host.data"
	mkdir -p "${_host%/*}"
	if [ "$_root" = / ]; then
		_run() { "$@"; }
		_conv=$B/bin/pd-convert
	else
		_run() { chroot "$_root" "$@"; }
		_conv=/pd/bin/pd-convert
	fi

	# 1. the converted file, as pd-convert -o FILE writes it
	"$B/bin/pd-convert" -q --target-perf="$_ts" "$_C/pd/rec/$_r.data" \
		-o "$_host.data" 2>"$tmp/c.err"
	check "$_what: pd-convert writes it" test -s "$_host.data"
	sed 's/^/# /' "$tmp/c.err" | head -3
	_run "$_perf" report --stats -i "$_dir.data" >"$tmp/s.out" 2>"$tmp/s.err" </dev/null
	_got=$(samples_of "$tmp/s.out")
	check "$_what: $_got samples, $_want recorded" [ "$_got" = "$_want" ]
	sed 's/^/# /' "$tmp/s.err" | head -3
	_run "$_perf" script -i "$_dir.data" >"$tmp/p.out" 2>"$tmp/p.err" </dev/null
	warnings "$tmp/p.out" "$tmp/p.err" >"$tmp/w"
	check "$_what: perf script prints no warning" [ ! -s "$tmp/w" ]
	head -3 "$tmp/w" | sed 's/^/# /'
	_run "$_perf" report --stdio -i "$_dir.data" >"$tmp/p.out" 2>"$tmp/p.err" </dev/null
	warnings "$tmp/p.out" "$tmp/p.err" >"$tmp/w"
	check "$_what: perf report prints no warning" [ ! -s "$tmp/w" ]
	head -3 "$tmp/w" | sed 's/^/# /'

	# 2. the archive route: unpacked and converted where it is read
	cp "$_C/pd/rec/$_r.tar.zst" "$_host.tar.zst"
	_run "$_conv" -q --from-archive \
		--target-perf="$_tr" "$_dir.tar.zst" -o "$_dir" 2>"$tmp/c.err"
	check "$_what: pd-convert --from-archive --target-perf=$_tr" \
		test -s "$_host/perf.data"
	sed 's/^/# /' "$tmp/c.err" | head -3
	printf '[buildid]\n\tdir = %s\n' "$_dir" >"$_host.config"
	_run env PERF_CONFIG="$_dir.config" "$_perf" report --stats -i "$_dir/perf.data" \
		>"$tmp/s.out" 2>"$tmp/s.err" </dev/null
	_got=$(samples_of "$tmp/s.out")
	check "$_what, archive route: $_got samples, $_want recorded" [ "$_got" = "$_want" ]
	_run env PERF_CONFIG="$_dir.config" "$_perf" script -i "$_dir/perf.data" \
		>"$tmp/p.out" 2>"$tmp/p.err" </dev/null
	warnings "$tmp/p.out" "$tmp/p.err" >"$tmp/w"
	check "$_what, archive route: perf script prints no warning" [ ! -s "$tmp/w" ]
	head -3 "$tmp/w" | sed 's/^/# /'
	_run env PERF_CONFIG="$_dir.config" "$_perf" report --no-children --sort sym --stdio \
		$(report_sel "$_r") -i "$_dir/perf.data" >"$tmp/p.out" 2>"$tmp/p.err" </dev/null
	warnings "$tmp/p.out" "$tmp/p.err" >"$tmp/w"
	check "$_what, archive route: perf report prints no warning" [ ! -s "$tmp/w" ]
	head -3 "$tmp/w" | sed 's/^/# /'
	top_syms "$tmp/p.out" >"$tmp/top"
	check "$_what, archive route: perf report --sort sym names $(echo $(cat "$tmp/rec.$_v.$_r.top"))" \
		sh -c "test -s '$tmp/top' && cmp -s '$tmp/rec.$_v.$_r.top' '$tmp/top'"
	cmp -s "$tmp/rec.$_v.$_r.top" "$tmp/top" ||
		echo "# named instead: $(echo $(cat "$tmp/top"))"
}

PB=$(perf_of "$CB")
check "Debian 11's perf is 5.10 ($PB)" sh -c "chroot '$CB' '$PB' --version | grep -q '^perf version 5\.10\.'"
# --target-perf=PATH probes the perf at PATH with files written under
# $TMPDIR, which a wrapper running it in a chroot must show there at the
# same path; the probe's cache is this run's own
mkdir -p "$tmp/probe" "$tmp/cache" "$CB$tmp/probe"
mount --bind "$tmp/probe" "$CB$tmp/probe" && distro_mounted="$CB$tmp/probe $distro_mounted"
printf '#!/bin/sh\n# Debian 11 perf, in its chroot\nexec chroot %s %s "$@"\n' "$CB" "$PB" \
	>"$tmp/probe/perf-wrapper"
chmod +x "$tmp/probe/perf-wrapper"
TMPDIR=$tmp/probe XDG_CACHE_HOME=$tmp/cache
export TMPDIR XDG_CACHE_HOME
"$B/bin/pd-convert" --explain --target-perf="$tmp/probe/perf-wrapper" "$TD/fp.data" \
	>"$tmp/explain" 2>&1
check "--target-perf=PATH probes Debian 11's perf: 5.10, built without zstd" \
	grep -q '^target: perf 5\.10\..*probed (nearest known target 5\.10, built without zstd)' "$tmp/explain"
sed 's/^/# /' "$tmp/explain" | head -3
for v in $RECORDERS; do
	for r in $RECORDINGS; do
		[ -s "$tmp/rec.$v.$r.n" ] || continue
		for t in debian11 5.10 probe; do
			read_with "Debian 11 perf 5.10" "$CB" "$PB" "$t" "$v" "$r"
		done
		if have_perf; then
			read_with "perf 6.1 (this machine)" / perf 6.1 "$v" "$r"
			read_with "perf 6.1 (this machine)" / perf auto "$v" "$r"
		fi
	done
done
have_perf || skip "no perf on this machine: perf 6.1 not run as a reader"
echo "1..$tap_n"
