#!/bin/sh
# Builds the profiled programs in bin/ from src/: debug info, frame
# pointers (except burn-nofp, for DWARF unwinding), static so that symbol
# and unwinding tests find the same code on any machine.
#
# Beyond the -O2 -g -f[no-]omit-frame-pointer [-static] of each program:
#  -Wl,--eh-frame-hdr  gcc does not ask the linker for .eh_frame_hdr in
#      static links, and perf's DWARF unwinder (libunwind) finds no
#      unwind tables without it: callchains stop at the sampled function;
#  -fdebug-prefix-map  keeps the build directory out of the debug info,
#      so a rebuild with the same compiler gives the same bytes and the
#      same build ids as the ones in the recordings.
# threads is the one dynamic program: a static one would push testdata/
# over its size budget, and its recordings then also cover shared
# libraries.
set -eu
cd "$(dirname "$0")"
mkdir -p bin
CC=${CC:-cc}
FP=-fno-omit-frame-pointer
STATIC="-static -Wl,--eh-frame-hdr"
MAP="-fdebug-prefix-map=$(pwd)=."
$CC -O2 -g $FP $STATIC $MAP -o bin/burn src/burn.c
$CC -O2 -g -fomit-frame-pointer $STATIC $MAP -o bin/burn-nofp src/burn.c
$CC -O2 -g $FP -pthread $MAP -o bin/threads src/threads.c
$CC -O2 -g $FP $STATIC $MAP -o bin/sleeper src/sleeper.c
# C++ for demangling and inline frames; dynamic (libc only, no libstdc++)
${CXX:-g++} -O2 -g $FP $MAP -o bin/inl src/inl.cc
# a JIT (x86_64 machine code in anonymous memory, a jitdump and a perf
# map); dynamic to stay small
$CC -O2 -g $FP $MAP -o bin/jit src/jit.c
# system calls in a loop, for deep kernel stacks; dynamic to stay small
$CC -O2 -g $FP $MAP -o bin/syscalls src/syscalls.c
# one function made slower by an argument, for pd-diff; dynamic to stay
# small
$CC -O2 -g $FP $MAP -o bin/slowdown src/slowdown.c
# calls through the PLT, for perf's naming of .plt stubs (_init or
# NAME@plt); -fno-builtin keeps abs() and friends calls; dynamic, since
# static programs have no PLT
$CC -O2 -g $FP -fno-builtin $MAP -o bin/plt src/plt.c
# Rust (legacy, v0) and C++ symbol names on C functions (asm labels),
# for demangling as perf does it; dynamic to stay small
$CC -O2 -g $FP $MAP -o bin/mangled src/mangled.c
# sleeps in known functions (wait_long three times wait_short), for
# off-CPU profiles (pd-record --off-cpu); dynamic to stay small
$CC -O2 -g $FP $MAP -o bin/waiter src/waiter.c
# stacks of 24 to 60 frames of 432 bytes, deeper than perf's default 8 KiB
# stack copy, for stitching (pd-unwind --stitch); no frame pointers, as
# DWARF unwinding is for; dynamic to stay small
$CC -O2 -g -fomit-frame-pointer $MAP -o bin/deep src/deep.c
