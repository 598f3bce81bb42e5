#!/bin/sh
# Regenerates the recordings with the system perf. Run from anywhere, as
# root (or with perf_event_paranoid <= 1); build.sh first. Each line is the
# exact command that made the file; README.md lists what each exercises.
# Regenerated files differ byte for byte (times, pids, host), not in kind.
set -eu
cd "$(dirname "$0")"
P="perf record -q --no-buildid-cache"

$P -g -e cpu-clock -F 999 -o fp.data bin/burn 300
$P --call-graph dwarf,4096 -e cpu-clock -F 499 -o dwarf.data bin/burn-nofp 200
$P -z -g -e cpu-clock -F 999 -o zstd.data bin/burn 300
$P -g -e cpu-clock -F 999 -o - bin/burn 200 > pipe.data
$P -e cpu-clock,task-clock -F 999 -o multi.data bin/burn 200
$P -e '{cpu-clock,task-clock}:S' -c 1000000 -o group.data bin/burn 200
$P -e sched:sched_switch -e sched:sched_process_exec -e sched:sched_process_fork -o tracepoint.data bin/sleeper
$P --switch-events -e cpu-clock -F 999 -o switch.data bin/threads
$P --namespaces -e cpu-clock -F 999 -o namespaces.data bin/sleeper
$P --all-cgroups -e cpu-clock -F 999 -o cgroups.data bin/burn 200
$P --data-page-size --code-page-size -e cpu-clock -F 999 -o pagesize.data bin/burn 200
$P --buildid-mmap -e cpu-clock -F 999 -o buildid-mmap.data bin/burn 200
$P -g -e cpu-clock -F 999 -o threads.data bin/threads
$P -g -e cpu-clock -F 999 -o sleeper.data bin/sleeper
$P -e cpu-clock -c 1000000 -o period.data bin/burn 200
$P --user-regs=ip,sp -e cpu-clock -F 999 -o regs.data bin/burn 100
$P -d -e cpu-clock -F 999 -o addr.data bin/burn 100
$P -k mono -e cpu-clock -F 999 -o clock.data bin/burn 100
perf stat record -o stat.data -e task-clock,context-switches bin/burn 100 2>/dev/null
