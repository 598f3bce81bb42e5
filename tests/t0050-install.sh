#!/bin/sh
# make install puts the library, headers, pkg-config file, tools and man
# pages under DESTDIR/PREFIX, and a program built against the installed
# copy through pkg-config reads a perf.data file with the shared library.
. "$(dirname "$0")/lib.sh"

B=${PD_BIN%/bin}
dest=$tmp/root
make -s -C "$PD_TOP" B="$B" install DESTDIR="$dest" PREFIX=/opt/pd >"$tmp/install.log" 2>&1
check "make install succeeds" [ $? -eq 0 ]
for f in lib/libperfdata.a lib/libperfdata.so lib/libperfdata.so.0 \
	 lib/pkgconfig/libperfdata.pc include/perfdata/reader.h \
	 include/perfdata/features.h bin/pd-info share/man/man1/pd-info.1; do
	check "installed $f" [ -e "$dest/opt/pd/$f" ]
done

# only the pd_ API is exported from the shared library
nm -D --defined-only "$dest/opt/pd/lib/libperfdata.so" | awk '{ print $3 }' |
	grep -v -E '^(pd_|LIBPERFDATA_)' >"$tmp/extra"
check "shared library exports only pd_* symbols" [ ! -s "$tmp/extra" ]
check "internal helpers are hidden" sh -c "! nm -D '$dest/opt/pd/lib/libperfdata.so' | grep -q pd__"

cat >"$tmp/count.c" <<'C'
#include <stdio.h>
#include <perfdata/reader.h>
int main(int argc, char **argv)
{
	struct pd_reader_opts o = { .sz = sizeof(o) };
	struct pd_reader *r = pd_reader__open(argv[1], &o);
	const struct pd_event *ev;
	long n = 0;

	if (!r) {
		fprintf(stderr, "%s\n", pd_reader__open_errmsg());
		return 1;
	}
	while (pd_reader__next(r, &ev) > 0)
		n++;
	printf("%ld\n", n);
	pd_reader__close(r);
	return argc < 2;
}
C
pc="$dest/opt/pd/lib/pkgconfig"
# the .pc names /opt/pd; point it at the staging copy
sed "s|/opt/pd|$dest/opt/pd|g" "$pc/libperfdata.pc" >"$tmp/libperfdata.pc"
# built with the sanitizer the library was built with, if any
if cc ${PD_SAN:-} -o "$tmp/count" "$tmp/count.c" $(PKG_CONFIG_PATH=$tmp pkg-config --cflags --libs libperfdata) 2>"$tmp/cc.err"; then
	ok "program builds against the installed library via pkg-config"
	f=$(perf_files "$TD" "$PD_CORPUS" | head -1)
	n=$(LD_LIBRARY_PATH="$dest/opt/pd/lib" "$tmp/count" "$f")
	total=$("$PD_BIN/pd-info" -q --stats "$f" | awk '$1 == "TOTAL" { print $3 }')
	check "shared-library reader sees as many records as pd-info --stats ($n)" [ -n "$n" ] && [ "$n" -ge "${total:-1}" ]
	check "it runs with the installed shared library" sh -c "LD_LIBRARY_PATH='$dest/opt/pd/lib' ldd '$tmp/count' | grep -q '$dest/opt/pd/lib/libperfdata.so.0'"
else
	not_ok "program builds against the installed library via pkg-config"
	cat "$tmp/cc.err"
fi

make -s -C "$PD_TOP" B="$B" uninstall DESTDIR="$dest" PREFIX=/opt/pd >/dev/null 2>&1
check "make uninstall removes the library and tools" [ ! -e "$dest/opt/pd/lib/libperfdata.so" ] && [ ! -e "$dest/opt/pd/bin/pd-info" ]
