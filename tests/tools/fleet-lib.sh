# Helpers of the fleet tests (t0210, t0211, make fleet-check, make
# bench-fleet), sourced after tests/lib.sh: a fleet of profiles made of
# copies of testdata's recordings, and the oracles their merges are
# checked against.

# Recordings of several kinds: frame pointers (fp, inl, mangled,
# threads), DWARF (dwarf, inl-dwarf), kernel and system-wide (system,
# syscalls).
FLEET_KINDS="fp inl mangled threads dwarf inl-dwarf system syscalls"

# fleet_make DIR N: N profiles in DIR, host-I/KIND-I.data, the kinds in
# turn; copies keep testdata's (old) dates, so that no profile passes
# for one recorded on this machine in this boot.
fleet_make() {
	_i=0
	while [ "$_i" -lt "$2" ]; do
		for _k in $FLEET_KINDS; do
			[ "$_i" -lt "$2" ] || break
			_h=$1/host-$((_i % 16))
			mkdir -p "$_h"
			cp -p "$TD/$_k.data" "$_h/$_k-$_i.data" || return 1
			_i=$((_i + 1))
		done
	done
}

# fleet_sum FILE...: the folded files added up, in pd-fold's order
# (bytewise on the stack, a stack before its extensions), by awk and
# sort(1) alone: the oracle of a merge.
fleet_sum() {
	awk '{
		i = length($0)
		while (i > 0 && substr($0, i, 1) != " ")
			i--
		n[substr($0, 1, i - 1)] += substr($0, i + 1)
	} END {
		for (k in n)
			printf "%s\t%.0f\n", k, n[k]
	}' "$@" | LC_ALL=C sort -t "$(printf '\t')" -k1,1 | tr '\t' ' '
}

# peak_rss_kb OUT CMD...: runs CMD, its stdout to OUT, and prints its
# peak resident set in KB as getrusage() reports it (nothing without
# python3); returns CMD's exit status.
peak_rss_kb() {
	_out=$1
	shift
	if ! command -v python3 >/dev/null 2>&1; then
		"$@" >"$_out"
		return
	fi
	python3 -c '
import resource, subprocess, sys
with open(sys.argv[1], "wb") as out:
    rc = subprocess.call(sys.argv[2:], stdout=out)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(rc)' "$_out" "$@"
}

# fleet_need CMD PACKAGE: whether CMD is here; else a skip naming the
# Debian package that has it.
fleet_need() {
	command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] && return 0
	skip "no $1 (apt-get install $2)"
	return 1
}

# fleet_port: a free TCP port on 127.0.0.1 into $port, none that an
# earlier call gave (call it without a subshell)
fleet_port() {
	port=${port:-$((20000 + $$ % 20000))}
	while :; do
		port=$((port + 1))
		[ "$port" -lt 65000 ] || port=20001
		if command -v ss >/dev/null 2>&1; then
			ss -Htln "sport = :$port" 2>/dev/null | grep -q . || break
		else
			(echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null || break
		fi
	done
}
