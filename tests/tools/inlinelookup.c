// SPDX-License-Identifier: MIT
/*
 * inlinelookup: tools/fold-inline.c as a filter, for t0075-symbols.sh
 * to compare with what stackcollapse-perf.pl gets from addr2line.
 *
 *   inlinelookup [--context] [--symfs DIR]
 *       stdin "PC<TAB>SYM<TAB>MOD" -> the joined chain, or "-" when the
 *       folder would fall back to the symbol
 */
#include <stdio.h>
#include <string.h>

/* the folder's own file, built into this checker */
#include "fold/fold-inline.c"

int main(int argc, char **argv)
{
	const char *symfs = NULL;
	bool context = false;
	struct fold_inline *fi;
	char line[8192];
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--context"))
			context = true;
		else if (!strcmp(argv[i], "--symfs") && i + 1 < argc)
			symfs = argv[++i];
		else
			return 2;
	}
	fi = fold_inline__new(symfs, false, 0);
	if (!fi)
		return 1;
	while (fgets(line, sizeof(line), stdin)) {
		char *pc = line, *sym, *mod, *nl;
		const char *r;

		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		sym = strchr(pc, '\t');
		mod = sym ? strchr(sym + 1, '\t') : NULL;
		if (!mod) {
			puts("[bad line]");
			continue;
		}
		*sym++ = '\0';
		*mod++ = '\0';
		r = fold_inline__lookup(fi, pc, sym, mod, context);
		puts(r ? r : "-");
	}
	fold_inline__free(fi);
	return fclose(stdout) ? 1 : 0;
}
