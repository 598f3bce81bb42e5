#!/bin/sh
# A live system-wide DWARF profile (perf record -a --call-graph dwarf) of
# this machine, with a workload made to meet what perf's unwinding does on
# such profiles, folded by pd-fold --no-inline as perf script --no-inline
# | stackcollapse-perf.pl folds it (PD_STACKCOLLAPSE, else perf script's
# text through pd-fold --input=script, which t0070 holds to the script):
#  - a process maps a library at a low address, the library file is
#    replaced (another inode at the same path), and its child, which keeps
#    that map across its exec, loads the new file higher: perf reads the
#    new file's tables at its own maps' base (another DSO than the old
#    file's), so its stacks through the library are whole;
#  - the child then maps its library file lower again, the same file: perf
#    reads the tables at a wrong base from then on, and steps only the pcs
#    libunwind's cache holds by them; after a single page of the file
#    lower still, a table read at that base hits no map and ends chains;
#  - hundreds of short processes under a ring buffer too small for them:
#    LOST records, processes whose MMAP records were lost (perf has no
#    unwinder for them: their samples fold to the command alone), samples
#    of tasks past the release of their pid (tid -1, one thread ":-1");
#  - and whatever else runs here.
# The comparison is on the same file, so it is deterministic however the
# recording went; what the recording holds of each situation is printed.
# pd-fold reads a copy of /proc/kallsyms, as perf does (--kallsyms): perf
# would read /proc/kcore next to /proc/kallsyms, which pd-fold does not
# emulate. The unit tests (test-unwind, test-threads) build each
# situation by hand.
. "$(dirname "$0")/lib.sh"

FOLD=$PD_BIN/pd-fold
SC=${PD_STACKCOLLAPSE:-}
if [ -n "$SC" ]; then
	folder="perf script --no-inline | stackcollapse-perf.pl"
	fold_text() { perl "$SC" "$@" 2>/dev/null; }
else
	folder="perf script --no-inline | pd-fold --input=script"
	fold_text() { "$FOLD" -q --input=script "$@"; }
fi

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): nothing to compare with"
	echo "1..$tap_n"
	exit 0
fi
if [ "$(uname -m)" != x86_64 ] || ! command -v cc >/dev/null 2>&1; then
	skip "no C compiler (apt-get install gcc), or not x86_64: no workload"
	echo "1..$tap_n"
	exit 0
fi
mkdir -p "$tmp/ks" "$tmp/w"
cp /proc/kallsyms "$tmp/ks/kallsyms" 2>/dev/null
if ! awk '$1 !~ /^0+$/ { found = 1; exit } END { exit !found }' "$tmp/ks/kallsyms"; then
	skip "/proc/kallsyms shows no addresses (kptr_restrict, not root): no live kernel names"
	echo "1..$tap_n"
	exit 0
fi

W=$tmp/w
cat >"$W/lib.c" <<'EOF'
/* no frame pointer: a guessed step through these goes wrong */
#define NI __attribute__((noinline))
static volatile unsigned long sink;

NI unsigned long x_spin(unsigned long n)
{
	unsigned long i, s = 0;

	for (i = 0; i < n; i++)
		s += i * i ^ (s >> 3);
	sink = s;
	return s;
}

NI unsigned long x_mid(unsigned long n)
{
	volatile char pad[64];

	pad[n & 63] = 1;
	return x_spin(n) + pad[0];
}

NI unsigned long x_top(unsigned long n)
{
	volatile char pad[32];

	pad[n & 31] = 2;
	return x_mid(n) + pad[1];
}

NI unsigned long x_other(unsigned long n)
{
	volatile char pad[48];

	pad[n & 47] = 3;
	return x_spin(n) + pad[2];
}
EOF
cat >"$W/prog.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef unsigned long (*fn)(unsigned long);

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void spin(fn f, double secs)
{
	double end = now() + secs;

	while (now() < end)
		f(20000);
}

/* the library file mapped at addr (len bytes of it) */
static void map_at(const char *lib, unsigned long addr, size_t len, int prot)
{
	int fd = open(lib, O_RDONLY);

	if (fd < 0 || mmap((void *)addr, len, prot,
			   MAP_PRIVATE | MAP_FIXED_NOREPLACE, fd, 0) == MAP_FAILED)
		perror("mmap");
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	const char *lib = argv[2];	/* (and argv[3]: the child's program) */
	void *h;
	fn top, other;

	if (!strcmp(argv[1], "parent")) {
		char cmd[8192];
		pid_t pid;

		/* the old file, low, as an inherited map */
		map_at(lib, 0x10000000, 0x4000, PROT_READ | PROT_EXEC);
		/* the file replaced: the same path, another inode */
		snprintf(cmd, sizeof(cmd), "cp '%s' '%s.new' && mv '%s.new' '%s'",
			 lib, lib, lib, lib);
		if (system(cmd))
			return 1;
		pid = fork();
		if (!pid) {
			execl(argv[3], "pdt0081-child", "child", lib, (char *)NULL);
			_exit(127);
		}
		waitpid(pid, NULL, 0);
		return 0;
	}
	h = dlopen(lib, RTLD_NOW);
	top = h ? (fn)dlsym(h, "x_top") : NULL;
	other = h ? (fn)dlsym(h, "x_other") : NULL;
	if (!top || !other)
		return 1;
	spin(top, 0.4);
	/* the same file lower: a wrong base for its tables */
	map_at(lib, 0x20000000, 0x4000, PROT_READ);
	spin(top, 0.3);
	spin(other, 0.15);
	/* one page of it lower still: its table read there hits no map */
	map_at(lib, 0x18000000, 0x1000, PROT_READ);
	spin(top, 0.15);
	spin(other, 0.15);
	return 0;
}
EOF
if ! cc -O2 -fomit-frame-pointer -fPIC -shared -o "$W/libpdt81.so" "$W/lib.c" 2>"$tmp/cc.err" ||
	! cc -O2 -o "$W/pdt0081-parent" "$W/prog.c" -ldl 2>>"$tmp/cc.err"; then
	skip "the workload does not build: $(head -1 "$tmp/cc.err")"
	echo "1..$tap_n"
	exit 0
fi
cp "$W/pdt0081-parent" "$W/pdt0081-child"
cp /bin/true "$W/pdt0081-short"
cat >"$W/work.sh" <<EOF
"$W/pdt0081-parent" parent "$W/libpdt81.so" "$W/pdt0081-child" &
i=0
while [ \$i -lt 300 ]; do "$W/pdt0081-short"; i=\$((i + 1)); done
wait
EOF

# a 16 KiB ring per CPU for 8 KiB stack copies: records get lost
if ! perf record -q -a --call-graph dwarf,8192 -F 499 -m 4 -o "$tmp/sys.data" \
	-- sh "$W/work.sh" >/dev/null 2>"$tmp/rec.err"; then
	skip "perf record -a not permitted here: $(grep -v '^$' "$tmp/rec.err" | head -1)"
	echo "1..$tap_n"
	exit 0
fi

perf script --no-inline --kallsyms="$tmp/ks/kallsyms" -i "$tmp/sys.data" \
	>"$tmp/ps" 2>/dev/null </dev/null
fold_text "$tmp/ps" >"$tmp/want"
"$FOLD" --no-inline --kallsyms="$tmp/ks/kallsyms" "$tmp/sys.data" \
	>"$tmp/got" 2>"$tmp/fold.err"

# what the recording holds
lost=$("$PD_BIN/pd-info" -q --stats "$tmp/sys.data" 2>/dev/null |
	awk '$1 == "LOST" && $2 == "events:" { print $3; exit }')
count() { awk -v re="$1" '$0 ~ re { n += $NF } END { print n + 0 }' "$tmp/want"; }
echo "# LOST records: ${lost:-0}; samples (weight) of the library's child: $(count '^pdt0081-child;')," \
	"through main;x_top;x_mid;x_spin whole: $(count '^pdt0081-child;.*main;(spin;)?x_top;x_mid;x_spin( |;)')," \
	"short processes without user frames: $(count '^pdt0081-short( |;entry_|;asm_)')," \
	"tid -1 (\":-1\"): $(count '^:-1')"

# kernel addresses perf names from a module's own DSO (its .ko file),
# which pd-fold names from kallsyms
mods=$(perf script --kallsyms="$tmp/ks/kallsyms" -F ip,dso -i "$tmp/sys.data" 2>/dev/null </dev/null |
	awk '$1 ~ /^ffff[89a-f][0-9a-f]{12}$/ && $2 != "([kernel.kallsyms])" &&
	     $2 != "([unknown])" && $2 !~ /^\(bpf_/ { n++ } END { print n + 0 }')
what="system-wide DWARF profile: pd-fold --no-inline folds as $folder ($(wc -l <"$tmp/want") stacks)"
if perf_older_than 6.1; then
	# pd-fold unwinds by perf 6.1's rules (libperfdata's unwind.c): perf
	# 5.10 reads the re-mapped library's tables at other bases and steps
	# through ld.so where 6.1 stops, so this workload's stacks differ
	skip "$what: pd-fold unwinds as perf 6.1 does, perf $(perf_version) by other rules: no oracle here"
elif [ "$mods" -gt 0 ] && ! cmp -s "$tmp/want" "$tmp/got"; then
	skip "$what: $mods frames in modules that perf names from their .ko files, not read by pd-fold"
elif why=$(refused_files "$tmp/fold.err") && ! cmp -s "$tmp/want" "$tmp/got"; then
	skip "$what: $why"
else
	check "$what" cmp -s "$tmp/want" "$tmp/got"
	diff "$tmp/want" "$tmp/got" | head -6 | cut -c1-300
fi
# the library's child, where the recording has it, unwinds whole through
# the replaced file (perf's base from its own maps)
n=$(count '^pdt0081-child;')
if perf_older_than 6.1; then
	skip "perf $(perf_version)'s stacks of the library's child: its rules are not perf 6.1's, which this checks"
elif [ "$n" -eq 0 ]; then
	skip "the library's child has no samples in the recording"
else
	check "perf's stacks of the library's child run whole through it (main;x_top;x_mid;x_spin): the new file's own base" \
		test "$(count '^pdt0081-child;.*main;(spin;)?x_top;x_mid;x_spin( |;)')" -gt 0
fi
echo "1..$tap_n"
