#!/bin/sh
# Regenerates the recordings with the system perf (made with perf 6.1).
# Run as root (or with perf_event_paranoid <= 1), after build.sh. Each
# line below is the exact command that made the file; README.md says what
# each one exercises. Every file is then read back with perf report
# --stats and perf script; the script stops if perf cannot read one.
# Regenerated files differ byte for byte (times, pids, host), not in kind.
# --no-buildid-cache keeps ~/.debug untouched; build ids are still written.
set -eu
cd "$(dirname "$0")"
# perf record renames an existing output file to FILE.old
trap 'rm -f ./*.data.old' EXIT

check()
{
	perf report --stats -i "$1" >/dev/null
	perf script -i "$1" >/dev/null
	echo "read back: $1"
}

perf record --no-buildid-cache -g -e cpu-clock -F 999 -o fp.data bin/burn 300
check fp.data
perf record --no-buildid-cache --call-graph dwarf,4096 -e cpu-clock -F 199 -o dwarf.data bin/burn-nofp 200
check dwarf.data
perf record --no-buildid-cache -z -g -e cpu-clock -F 999 -o zstd.data bin/burn 300
check zstd.data
perf record --no-buildid-cache -g -e cpu-clock -F 999 -o - bin/burn 200 > pipe.data
check pipe.data
perf record --no-buildid-cache -e cpu-clock,task-clock -F 999 -o multi.data bin/burn 200
check multi.data
perf record --no-buildid-cache -e '{cpu-clock,task-clock}:S' -c 1000000 -o group.data bin/burn 200
check group.data
perf record --no-buildid-cache -e sched:sched_switch -e sched:sched_process_exec -e sched:sched_process_fork -o tracepoint.data bin/sleeper
check tracepoint.data
perf record --no-buildid-cache --switch-events -e cpu-clock -F 999 -o switch.data bin/threads
check switch.data
perf record --no-buildid-cache --namespaces -e cpu-clock -F 999 -o namespaces.data bin/sleeper
check namespaces.data
perf record --no-buildid-cache --all-cgroups -e cpu-clock -F 999 -o cgroups.data bin/burn 200
check cgroups.data
perf record --no-buildid-cache --data-page-size --code-page-size -e cpu-clock -F 999 -o pagesize.data bin/burn 200
check pagesize.data
perf record --no-buildid-cache --buildid-mmap -e cpu-clock -F 999 -o buildid-mmap.data bin/burn 200
check buildid-mmap.data
perf record --no-buildid-cache -g -e cpu-clock -F 999 -o threads.data bin/threads
check threads.data
perf record --no-buildid-cache -s -e cpu-clock -F 999 -o read.data bin/threads
check read.data
perf record --no-buildid-cache -g -e cpu-clock -F 999 -o sleeper.data bin/sleeper
check sleeper.data
perf record --no-buildid-cache -e cpu-clock -c 100000 -o period.data bin/burn 100
check period.data
perf record --no-buildid-cache --user-regs=ip,sp --intr-regs=ip -e cpu-clock -F 999 -o regs.data bin/burn 100
check regs.data
perf record --no-buildid-cache -d --phys-data -e cpu-clock -F 999 -o raw-addr.data bin/burn 100
check raw-addr.data
perf record --no-buildid-cache -k mono -e cpu-clock -F 999 -o clock.data bin/burn 100
check clock.data
perf record --no-buildid-cache -g -e cpu-clock -F 999 -o inl.data bin/inl 300
check inl.data
perf record --no-buildid-cache --call-graph dwarf,1024 -e cpu-clock -F 199 -o inl-dwarf.data bin/inl 300
check inl-dwarf.data
perf stat record --quiet -o stat.data -e task-clock,context-switches bin/burn 100
check stat.data
# JIT code: the jitdump goes to /tmp/perfdata-jit (the path the recording
# names, where perf inject --jit reads it), the perf map to
# /tmp/perf-PID.map; both are kept here, under their own names
rm -rf /tmp/perfdata-jit jit-*.dump perf-*.map
mkdir /tmp/perfdata-jit
perf record --no-buildid-cache -k 1 -g -e cpu-clock -F 999 -o jit.data bin/jit 300 /tmp/perfdata-jit
check jit.data
for d in /tmp/perfdata-jit/jit-*.dump; do
	pid=${d##*/jit-}; pid=${pid%.dump}
	cp "$d" . && mv "/tmp/perf-$pid.map" .
done
rm -rf /tmp/perfdata-jit
# kernel stacks: system calls in a loop (kernel frames named on other
# machines through kallsyms/, see trim-kallsyms.sh)
perf record --no-buildid-cache -g -e cpu-clock -F 999 -o syscalls.data bin/syscalls 300
check syscalls.data
# off-CPU: sched_switch with callchains of every CPU (-a), so that the
# switch-ins are seen too (a recording of the command alone has only its
# switch-outs); the filter keeps the switches of sleeper and its child
perf record --no-buildid-cache -e sched:sched_switch --filter 'prev_comm == "sleeper" || next_comm == "sleeper" || prev_comm == "true" || next_comm == "true"' -g -a -o offcpu.data bin/sleeper
check offcpu.data
# the same program before and after a deliberate slowdown of checksum()
# (4 times its work), for pd-diff --report
perf record --no-buildid-cache -g -e cpu-clock -F 999 -o slowdown-before.data bin/slowdown 300 1
check slowdown-before.data
perf record --no-buildid-cache -g -e cpu-clock -F 999 -o slowdown-after.data bin/slowdown 300 4
check slowdown-after.data
# two events with callchains: pd-diff refuses to mix them without --event
perf record --no-buildid-cache -g -e cpu-clock,task-clock -F 999 -o two-events.data bin/slowdown 100 2
check two-events.data
# DWARF unwinding of C with frame pointers, for pd-unwind
perf record --no-buildid-cache --call-graph dwarf,1024 -e cpu-clock -F 299 -o fp-dwarf.data bin/burn 200
check fp-dwarf.data
# DWARF unwinding of a multithreaded program, for pd-unwind
perf record --no-buildid-cache --call-graph dwarf,1024 -e cpu-clock -F 499 -o threads-dwarf.data bin/threads
check threads-dwarf.data
# samples in .plt stubs, which perf names _init or NAME@plt
perf record --no-buildid-cache -g -e cpu-clock -F 999 -o plt.data bin/plt 70000000
check plt.data
# Rust and C++ symbol names, demangled
perf record --no-buildid-cache -g -e cpu-clock -F 999 -o mangled.data bin/mangled 500
check mangled.data
# system-wide (-a): every task's stacks, swapper's idle ones through init
# text (start_kernel, past _etext), samples in a BPF program (bpf-load,
# tests/tools/bpf-load.c, built by make check) named by its KSYMBOL; the
# CPUs must be idle for part of that second, so it is recorded again
# until swapper has samples (and kept under 400 KB: every process started
# meanwhile adds its maps)
for try in $(seq 1 30); do
	perf record --no-buildid-cache -a -g -e cpu-clock -F 199 -o system.data sh -c "../build/tests/tools/bpf-load --run 300 pdfold && sleep 0.7"
	[ "$(perf script -F comm -i system.data 2>/dev/null | grep -c swapper)" -ge 3 ] &&
		[ "$(stat -c %s system.data)" -le 400000 ] && break
	sleep 3
done
check system.data
perf record --no-buildid-cache -a -g -e sched:sched_switch -o system-switch.data bin/sleeper
check system-switch.data
# the recording kernel's symbols that these files need, for other machines
./trim-kallsyms.sh
# the folded stacks perf script | stackcollapse-perf.pl makes of the
# system-wide ones (PD_STACKCOLLAPSE: FlameGraph's stackcollapse-perf.pl)
./fold-system.sh
