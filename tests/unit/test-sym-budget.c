// SPDX-License-Identifier: MIT
/*
 * pd_symbolizer__trim() (sym-lru.c): the programs of testdata/bin looked
 * up in turn, an address of each at a time, by a symbolizer trimmed to a
 * tiny budget after every lookup, so that each DSO is released and
 * loaded again over and over. Every symbol name and inline chain must be
 * what a symbolizer never trimmed gives, and what the trimmed one holds
 * must stay within the budget plus the DSO last used (under ASan: no
 * name read after its release).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "symbols/sym-internal.h"
#include "tap.h"

#define NR_PROGS	8
#define STEP		0x100
#define MAX_INL		16
#define BUDGET		(48 * 1024)

static const char *const progs[NR_PROGS] = {
	"burn", "burn-nofp", "deep", "inl", "mangled", "plt", "syscalls",
	"threads",
};

/* a lookup's answer as text: the symbol, then its inline chain */
static void answer(struct pd_dso *d, uint64_t addr, char *buf, size_t size)
{
	struct pd_inline_frame f[MAX_INL];
	const struct pd_sym *sym = pd_dso__find(d, addr);
	size_t len;
	int n, i;

	len = (size_t)snprintf(buf, size, "%s", sym ? sym->name : "-");
	if (!sym)
		return;
	n = pd_dso__inline_frames(d, addr, f, MAX_INL);
	for (i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, ";%s:%s:%u",
					f[i].perf_name ? f[i].perf_name : "?",
					f[i].file ? f[i].file : "?", f[i].line);
}

int main(void)
{
	const char *top = getenv("PD_TOP");
	struct pd_symbolizer_opts o = { .sz = sizeof(o), .no_debuginfod = true };
	struct pd_symbolizer *full = pd_symbolizer__new(&o);
	struct pd_symbolizer *tiny = pd_symbolizer__new(&o);
	char path[NR_PROGS][512];
	off_t size[NR_PROGS];
	char want[4096], got[4096];
	size_t nr_named = 0, nr_diff = 0, nr_over = 0, max_held = 0;
	uint64_t off;
	int i, nr = 0;

	if (!full || !tiny)
		return 1;
	for (i = 0; i < NR_PROGS; i++) {
		struct stat st;

		snprintf(path[i], sizeof(path[i]), "%s/testdata/bin/%s",
			 top ? top : ".", progs[i]);
		size[i] = stat(path[i], &st) ? 0 : st.st_size;
		if (size[i] > 0)
			nr++;
	}
	CHECK(nr == NR_PROGS, "testdata/bin's programs found");
	/* the same address of each program in turn: every DSO falls out of
	 * the budget before its next use */
	for (off = 0; nr; off += STEP) {
		nr = 0;
		for (i = 0; i < NR_PROGS; i++) {
			struct pd_dso *a, *b;
			size_t held;

			if ((off_t)off >= size[i])
				continue;
			nr++;
			a = pd_symbolizer__dso(full, path[i], NULL, 0);
			b = pd_symbolizer__dso(tiny, path[i], NULL, 0);
			if (!a || !b)
				return 1;
			answer(a, off, want, sizeof(want));
			answer(b, off, got, sizeof(got));
			if (strcmp(want, got) && nr_diff++ < 5)
				printf("# %s %#llx: %s, not %s\n", progs[i],
				       (unsigned long long)off, got, want);
			nr_named += want[0] != '-';
			held = pd_symbolizer__bytes(tiny);
			if (held > max_held)
				max_held = held;
			if (held > BUDGET + b->bytes)
				nr_over++;
			if (pd_symbolizer__trim(tiny, BUDGET) > BUDGET)
				nr_over++;
		}
	}
	CHECK(nr_named > 1000, "%zu addresses named", nr_named);
	CHECK(!nr_diff, "names and inline chains as without a budget (%zu differ)",
	      nr_diff);
	CHECK(tiny->nr_reloads > 1000, "DSOs loaded again %zu times",
	      tiny->nr_reloads);
	CHECK(!nr_over, "held at most the budget plus the DSO in use (%zu KiB at most)",
	      max_held / 1024);
	CHECK(pd_symbolizer__bytes(full) > BUDGET,
	      "untrimmed: %zu KiB held", pd_symbolizer__bytes(full) / 1024);
	CHECK(pd_symbolizer__trim(full, 0) == 0 && !full->lru_head,
	      "a budget of 0 releases everything");
	pd_symbolizer__free(full);
	pd_symbolizer__free(tiny);
	return tap_done();
}
