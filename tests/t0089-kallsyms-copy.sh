#!/bin/sh
# Kernel symbols of a recording made on the running kernel: perf 6.1 reads
# /proc/kallsyms; pd-fold reads the copy perf record left in the build-id
# cache instead when it is a copy of this boot's (it begins as
# /proc/kallsyms does, was written since the boot, names the modules
# loaded now), which names the frames the same and costs the kernel no
# formatting. Checked on a fresh recording with a private build-id cache:
#  - with perf record's own copy, the kernel frames pd-fold --script
#    prints are perf script's;
#  - a copy whose names were changed past its first 64 KiB is read (its
#    names show): the copy is really what is read;
#  - the same copy dated before the boot, or one that begins otherwise
#    (a trimmed one, as tests install), is not: perf's names again.
. "$(dirname "$0")/lib.sh"

if ! have_perf; then
	skip "perf not installed (apt-get install linux-perf): nothing to compare with"
	exit 0
fi
if perf_older_than 6.1; then
	skip "pd-fold names kernel frames by perf 6.1's rules, perf $(perf_version) by its own: no oracle here"
	exit 0
fi
FOLD=$PD_BIN/pd-fold
PERF_BUILDID_DIR=$tmp/cache
printf '[buildid]\n\tdir = %s\n' "$PERF_BUILDID_DIR" >"$tmp/perfconfig"
PERF_CONFIG=$tmp/perfconfig
export PERF_BUILDID_DIR PERF_CONFIG
mkdir -p "$PERF_BUILDID_DIR"

if ! perf record -q -g -e cpu-clock -F 2999 -o "$tmp/k.data" -- \
	sh -c 'ls -lR /usr/lib /usr/share >/dev/null 2>&1' >/dev/null 2>&1 </dev/null; then
	skip "perf record does not work here (perf_event_paranoid?): no fresh recording"
	exit 0
fi
bid=$(perf buildid-list -k 2>/dev/null </dev/null)
copy=$PERF_BUILDID_DIR/[kernel.kallsyms]/$bid/kallsyms
# the kernel frames of perf script's text (pd-fold --script prints it)
kernel_frames() { grep '(\[kernel\.kallsyms\])$' || :; }
perf script -i "$tmp/k.data" 2>/dev/null </dev/null | kernel_frames >"$tmp/want"
if [ ! -s "$tmp/want" ]; then
	skip "no kernel frames recorded (kernel.perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)): nothing to name"
	exit 0
fi
if [ -z "$bid" ] || [ ! -s "$copy" ]; then
	skip "perf record left no kallsyms in its build-id cache: nothing to read instead"
	exit 0
fi
frames() { "$FOLD" -q --script "$tmp/k.data" 2>/dev/null | kernel_frames; }

frames >"$tmp/got"
check "perf record's copy of this boot: perf script's kernel frames ($(wc -l <"$tmp/want") lines)" \
	cmp -s "$tmp/want" "$tmp/got"

# every name past the first 64 KiB (and then some) renamed
cp "$copy" "$tmp/orig"
awk '{ n += length($0) + 1 } n > 131072 { sub(/ [tTwWdDbB] /, "&renamed_") } { print }' \
	"$tmp/orig" >"$copy"
frames >"$tmp/got"
check "a copy of this boot with other names: read, its names show" \
	grep -q ' renamed_' "$tmp/got"
touch -d '@86400' "$copy"
frames >"$tmp/got"
check "the same copy dated before the boot: /proc/kallsyms read, perf's names" \
	cmp -s "$tmp/want" "$tmp/got"
sed '1s/ [^ ]*$/ renamed_first/' "$tmp/orig" >"$copy"
frames >"$tmp/got"
check "a copy of this boot that begins otherwise: /proc/kallsyms read, perf's names" \
	cmp -s "$tmp/want" "$tmp/got"
mv "$tmp/orig" "$copy"
frames >"$tmp/got"
check "perf record's copy back: perf's names" cmp -s "$tmp/want" "$tmp/got"
echo "1..$tap_n"
