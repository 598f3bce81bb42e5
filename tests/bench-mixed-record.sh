#!/bin/sh
# make bench, the mixed-workload recordings (tests/bench-mixed.sh runs it;
# it also runs alone): the profiles users really have, of programs they
# really run, made once with the system perf and kept in $B/bench/:
#   mixed-fp.data     perf record -g -F 2999 (tens of MB, 200k+ samples)
#   mixed-dwarf.data  perf record --call-graph dwarf,$stack -F 299
#                     (a few hundred MB)
# both of the same workload, in turn, $PD_BENCH_MIXED_ROUNDS times: gcc
# -O2 compiling a generated C file of a few hundred functions (cc1 for a
# few seconds), python3 and perl each running a CPU-bound snippet, and xz
# compressing a few MB of generated text. It needs gcc, python3, perl and
# xz (Debian: gcc, python3, perl, xz-utils), perf and awk. The files are
# generated, never committed: remove them to record again. With --prepare
# it only writes the workload's inputs and programs into $B/bench/mixed-work
# (tests/bench-system.sh runs them under perf record -a) and records nothing.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$top/$B ;; esac
dir=$B/bench
work=$dir/mixed-work
rounds=${PD_BENCH_MIXED_ROUNDS:-8}
freq=${PD_BENCH_MIXED_FREQ:-2999}
dfreq=${PD_BENCH_MIXED_DWARF_FREQ:-299}
stack=${PD_BENCH_MIXED_STACK:-16384}

missing=
for p in perf gcc python3 perl xz awk; do
	command -v "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "bench-mixed: needs$missing (Debian: linux-perf gcc python3 perl xz-utils)" >&2
	exit 1
fi
# the distribution's python3 where there is one: a wrapper first on PATH
# (pyenv's shims are shell scripts) would be profiled too
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
mkdir -p "$work"

# the compiler's input: $1 functions of loops, switches and a call chain,
# a few thousand lines that keep cc1 -O2 busy for a few seconds
gen_c() {
	awk -v n="$1" 'BEGIN {
		print "#include <stddef.h>"
		print "struct node { struct node *next; long key; double w; };"
		for (i = 0; i < n; i++) {
			printf "static long f%d(struct node *p, long a, long b)\n{\n", i
			printf "\tlong s = %d;\n\tint i;\n\n", i
			printf "\tfor (i = 0; i < (int)(a & 63); i++) {\n"
			printf "\t\tswitch ((a + i) %% 5) {\n"
			for (c = 0; c < 5; c++)
				printf "\t\tcase %d: s += (b ^ %d) * (i + %d); break;\n", c, (i * 7 + c) % 97, c
			printf "\t\t}\n\t\tif (p && p->key > s)\n\t\t\ts -= p->key >> 3;\n\t}\n"
			printf "\twhile (p) {\n\t\ts += p->key * %d + (long)p->w;\n\t\tp = p->next;\n\t}\n", i % 13 + 1
			if (i > 0)
				printf "\tif (s & 1)\n\t\ts += f%d(NULL, a >> 1, s);\n", i - 1
			printf "\treturn s;\n}\n\n"
		}
		printf "long entry(struct node *p, long a);\nlong entry(struct node *p, long a)\n{\n\tlong s = 0;\n\n"
		for (i = 0; i < n; i++)
			printf "\ts += f%d(p, a + %d, s);\n", i, i
		printf "\treturn s;\n}\n"
	}'
}
# xz's input: $1 lines of words and numbers, compressible but not trivially
gen_text() {
	awk -v n="$1" 'BEGIN {
		srand(1)
		for (i = 0; i < n; i++)
			printf "%s%d %x\n", (i % 3 ? "word" : "line"), int(rand() * 100000), i * 7919
	}'
}
[ -s "$work/big.c" ] || gen_c "${PD_BENCH_MIXED_FUNCS:-300}" >"$work/big.c"
[ -s "$work/text" ] || gen_text "${PD_BENCH_MIXED_LINES:-150000}" >"$work/text"
cat >"$work/snippet.py" <<'EOF'
d = {}
s = 0
for i in range(2500000):
    k = str(i * 7919 % 100003)
    d[k] = d.get(k, 0) + len(k)
    s += sum(ord(c) for c in k)
print(s)
EOF
cat >"$work/snippet.pl" <<'EOF'
my %h;
my $s = 0;
for my $i (1 .. 5000000) {
	my $k = sprintf("%x", $i * 7919 % 100003);
	$h{$k} .= "x" if $k =~ /^[0-9a]+$/;
	$s += length($k) + keys(%h) % 7;
}
print "$s\n";
EOF
# one round: about 10 s of CPU time, one program at a time
cat >"$work/workload.sh" <<EOF
i=0
while [ \$i -lt $rounds ]; do
	gcc -O2 -c "$work/big.c" -o "$work/big.o"
	$py "$work/snippet.py"
	perl "$work/snippet.pl"
	xz -6 -T1 -c "$work/text" >"$work/text.xz"
	i=\$((i + 1))
done
EOF
[ "${1:-}" != --prepare ] || exit 0

record() { # FILE PERF-RECORD-OPTIONS...
	_f=$1; shift
	[ -s "$_f" ] && return 0
	echo "bench-mixed: recording $_f (once; $rounds rounds of gcc, python3, perl, xz)" >&2
	perf record -q -o "$_f.tmp" -e cpu-clock "$@" -- sh "$work/workload.sh" \
		>/dev/null 2>"$work/record.err" || {
		echo "bench-mixed: perf record $* failed:" >&2
		head -5 "$work/record.err" >&2
		exit 1
	}
	mv "$_f.tmp" "$_f"
}
record "$dir/mixed-fp.data" -g -F "$freq"
record "$dir/mixed-dwarf.data" --call-graph "dwarf,$stack" -F "$dfreq"
