// SPDX-License-Identifier: MIT
/*
 * Kernel symbols announced by KSYMBOL records, as perf 6.1's
 * machine__process_ksymbol_register() names them: each its own DSO,
 * called by the symbol's name, with one symbol of the recorded length at
 * the start of its map (so a BPF program's frames print as
 * "bpf_prog_<tag>_<name>+off (bpf_prog_<tag>_<name>)"). And whether a
 * module's own file is there.
 */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sym-internal.h"
#include "sym-kmaps.h"

struct pd_dso *pd__symbolizer_ksymbol(struct pd_symbolizer *s,
				      const char *name, uint32_t len)
{
	struct sym_vec sv = { 0 };
	struct pd_dso *d;
	const char *copy;
	int err;

	d = sym_dso__new(s, PD_DSO_KSYMBOL, name);
	if (!d)
		goto nomem;
	copy = pd_arena_strndup(&d->arena, name, strlen(name));
	/* perf's symbol__new(0, len, 0 (local), ...): no end fix-up */
	if (!copy || sym_vec__push(&sv, 0, len, STB_LOCAL, copy))
		goto nomem;
	err = sym_dso__set_symbols(d, &sv);
	free(sv.v);
	if (err)
		goto nomem;
	d->loaded = true;
	return d;
nomem:
	free(sv.v);
	errno = ENOMEM;
	return NULL;
}

bool pd__symbolizer_has_module_file(struct pd_symbolizer *s, const char *file)
{
	char path[4096];

	if (!file || file[0] != '/')
		return false;
	sym_join_symfs(s, path, sizeof(path), file);
	return sym_is_regular_file(path);
}
