// SPDX-License-Identifier: MIT
/*
 * /tmp/perf-PID.map, read as perf 6.1's dso__load_perf_map() does: each
 * line "START SIZE NAME" (strtoull base 16 for both numbers, so "0x"
 * prefixes and leading blanks pass), the last character of every line
 * dropped as its newline, lines too short for a name skipped. No end or
 * duplicate fix-ups: a zero-size entry matches its start address only.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sym-internal.h"

int sym_perfmap__load(struct pd_dso *d, const char *path)
{
	struct sym_vec sv = { 0 };
	char *line = NULL, *end;
	size_t cap = 0;
	ssize_t n;
	FILE *f;
	int ret = 0;

	f = fopen(path, "re");
	if (!f)
		return 0;
	while ((n = getline(&line, &cap, f)) > 0) {
		unsigned long long start, size;
		size_t len;
		char *name;

		line[--n] = '\0';
		start = strtoull(line, &end, 16);
		len = (size_t)(end - line) + 1;
		if ((ssize_t)len + 2 >= n)
			continue;
		size = strtoull(line + len, &end, 16);
		len = (size_t)(end - line) + 1;
		if ((ssize_t)len + 2 >= n)
			continue;
		name = pd_arena_strndup(&d->arena, line + len, SIZE_MAX);
		if (!name || sym_vec__push(&sv, start, size, STB_GLOBAL, name)) {
			ret = -ENOMEM;
			goto out;
		}
	}
	sym_vec__sort(&sv);
	ret = sym_dso__set_symbols(d, &sv);
	d->loaded = d->nr_syms > 0;
	if (!ret && d->loaded) {
		d->symsrc = strdup(path);
		if (!d->symsrc)
			ret = -ENOMEM;
	}
out:
	free(line);
	free(sv.v);
	fclose(f);
	return ret;
}
