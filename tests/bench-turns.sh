# The timing of make bench's pairs (tests/bench-mixed.sh,
# tests/bench-system.sh), sourced: the caller sets $dir (a scratch
# directory), $runs (rounds), $overhead (the harness's own seconds, taken
# off each wall time; 0 to start with), and for pair() $cmd_a and $cmd_b
# (command lines for eval), $pre_a and $pre_b (run untimed before each
# run of their side; ':' by default).

# timed OUT CMD...: one run, its output in OUT; prints "seconds
# peak-RSS-KiB cpu-seconds", the wall time less $overhead
timed() {
	_o=$1; shift
	# wall time to the millisecond (GNU time's %e has 10 ms steps, a
	# tenth of pd-fold's time in some pairs)
	_t0=$(date +%s%N)
	/usr/bin/time -f '%M %U %S' -o "$dir/time" "$@" >"$_o" 2>/dev/null </dev/null || true
	_t1=$(date +%s%N)
	awk -v ns=$((_t1 - _t0)) -v o="$overhead" '{
		w = ns / 1e9 - o
		printf "%.4f %s %.2f\n", (w > 0 ? w : 0), $1, $2 + $3
	}' "$dir/time"
}
# better A B: the one of two timed results with the shorter wall time
better() {
	if [ -z "$1" ] || awk -v a="${2%% *}" -v b="${1%% *}" 'BEGIN { exit !(a < b) }'; then
		echo "$2"
	else
		echo "$1"
	fi
}
# pair OUT-A OUT-B: $cmd_a and $cmd_b in turns, $runs rounds of one run
# of the slower and as many of the faster as fit in its time (at most
# 10), so that both sides meet the same moments of a shared host; pa and
# pb get each one's best
pre_a=: pre_b=:
pair() {
	pa= pb=
	_round=0
	while [ $_round -lt "$runs" ]; do
		_x=$(eval "$pre_a"; eval "timed \"\$1\" $cmd_a"); pa=$(better "$pa" "$_x")
		_y=$(eval "$pre_b"; eval "timed \"\$2\" $cmd_b"); pb=$(better "$pb" "$_y")
		# the faster side of this round, and how many of its runs fit
		# in one of the other's
		set -- "$1" "$2" $(awk -v a="${_x%% *}" -v b="${_y%% *}" 'BEGIN {
			k = a > b ? (b > 0 ? int(a / b) : 10) : (a > 0 ? int(b / a) : 10)
			print (k > 10 ? 10 : k), (a < b ? "a" : "b")
		}')
		_k=$3
		while [ "$_k" -gt 1 ]; do
			if [ "$4" = a ]; then
				_x=$(eval "$pre_a"; eval "timed \"\$1\" $cmd_a"); pa=$(better "$pa" "$_x")
			else
				_y=$(eval "$pre_b"; eval "timed \"\$2\" $cmd_b"); pb=$(better "$pb" "$_y")
			fi
			_k=$((_k - 1))
		done
		_round=$((_round + 1))
	done
}
