#!/bin/sh
# Builds the profiled programs in bin/ from src/: debug info, frame
# pointers (except burn-nofp, for DWARF unwinding), static so that symbol
# and unwinding tests find the same code on any machine.
set -eu
cd "$(dirname "$0")"
mkdir -p bin
CC=${CC:-cc}
$CC -O2 -g -fno-omit-frame-pointer -static -o bin/burn src/burn.c
$CC -O2 -g -fomit-frame-pointer -static -o bin/burn-nofp src/burn.c
# threads and sleeper are dynamic: testdata stays small, and their
# recordings also exercise shared-library maps
$CC -O2 -g -fno-omit-frame-pointer -pthread -o bin/threads src/threads.c
$CC -O2 -g -fno-omit-frame-pointer -o bin/sleeper src/sleeper.c
