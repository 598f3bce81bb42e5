#!/bin/sh
# Build perfdata and draw the flame graph of a bundled profile (fp.svg,
# pd-fold --svg). Installs the build dependencies with apt-get
# when run as root, else prints the command.
set -eu
cd "$(dirname "$0")/.."
pkgs="make gcc pkg-config libelf-dev libdw-dev zlib1g-dev libzstd-dev libtraceevent-dev libiberty-dev"
missing=
for p in libelf libdw zlib libzstd libtraceevent; do
	pkg-config --exists "$p" 2>/dev/null || missing="$missing $p"
done
# libiberty (the demangler binutils uses) has no pkg-config file
[ -f /usr/include/libiberty/demangle.h ] || missing="$missing libiberty"
if [ -n "$missing" ] || ! command -v make >/dev/null 2>&1 || ! command -v cc >/dev/null 2>&1; then
	if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs >/dev/null
	else
		echo "missing build dependencies; install them with:" >&2
		echo "  sudo apt-get install $pkgs" >&2
		exit 1
	fi
fi
make -s -j"$(nproc 2>/dev/null || echo 2)"
# testdata/fp.data: perf record -g of testdata/bin/burn (see testdata/README.md)
# (the same as build/bin/pd-fold testdata/fp.data | build/bin/pd-flame >fp.svg)
build/bin/pd-fold --svg --title="testdata/fp.data" -o fp.svg testdata/fp.data
echo "$PWD/fp.svg: the flame graph of testdata/fp.data; open it in a browser" >&2
