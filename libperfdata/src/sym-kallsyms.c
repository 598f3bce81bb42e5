// SPDX-License-Identifier: MIT
/*
 * Kernel symbols from /proc/kallsyms (or a saved copy), the way perf
 * 6.1's kallsyms__parse() and dso__load_kallsyms() read them: text,
 * weak, data and bss symbols (T W D B, either case) but '$' ones, every
 * size zero and fixed by symbols__fixup_end()'s kallsyms rule (the last
 * symbol before the kernel/module boundary ends on the next page), then
 * duplicates removed. Module symbols keep their absolute addresses here;
 * pd_dso__kernel_module() tells their "[module]".
 */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sym-internal.h"

/* perf's KSYM_NAME_LEN in 6.1 */
#define KSYM_NAME_LEN 512

static int module_index(struct pd_dso *d, const char *mod)
{
	size_t i;
	char **m;

	for (i = d->nr_modules; i-- > 0;)
		if (!strcmp(d->modules[i], mod))
			return (int)i + 1;
	if (d->nr_modules >= UINT16_MAX - 1)
		return 0;
	m = realloc(d->modules, (d->nr_modules + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	d->modules = m;
	m[d->nr_modules] = strdup(mod);
	if (!m[d->nr_modules])
		return -ENOMEM;
	return (int)++d->nr_modules;
}

static int add_line(struct pd_dso *d, struct sym_vec *sv, char *line)
{
	char *p = line, *end, *tab, *name;
	unsigned long long addr;
	char type;
	int mod = 0, bind;

	/* perf's io__get_hex(): hex digits up to a space */
	if (!isxdigit((unsigned char)*p))
		return 0;
	addr = strtoull(p, &end, 16);
	if (*end != ' ' || end[1] == '\0' || end[2] != ' ')
		return 0;
	type = end[1];
	name = end + 3;
	if (strlen(name) > KSYM_NAME_LEN)
		name[KSYM_NAME_LEN] = '\0';
	switch (toupper((unsigned char)type)) {
	case 'T': case 'W': case 'D': case 'B':
		break;
	default:
		return 0;
	}
	if (name[0] == '$')
		return 0;
	tab = strchr(name, '\t');
	if (tab) {
		*tab = '\0';
		mod = module_index(d, tab + 1);
		if (mod < 0)
			return mod;
	}
	if (type == 'W')
		bind = STB_WEAK;
	else
		bind = isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL;
	name = pd_arena_strndup(&d->arena, name, SIZE_MAX);
	if (!name || sym_vec__push(sv, addr, 0, (uint8_t)bind, name))
		return -ENOMEM;
	sv->v[sv->nr - 1].module = (uint16_t)mod;
	return 0;
}

int sym_kallsyms__load(struct pd_dso *d, const char *path)
{
	struct sym_vec sv = { 0 };
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;
	int ret = 0;
	bool nonzero = false;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	while ((n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		ret = add_line(d, &sv, line);
		if (ret)
			goto out;
	}
	for (size_t i = 0; i < sv.nr; i++)
		nonzero |= sv.v[i].start != 0;
	/* kptr_restrict: every address reads as zero, nothing resolves */
	if (!nonzero)
		sv.nr = 0;
	sym_vec__sort(&sv);
	sym_vec__fixup_end(&sv, true);
	sym_vec__fixup_duplicate(&sv);
	ret = sym_dso__set_symbols(d, &sv);
	d->loaded = d->nr_syms > 0;
	if (!ret) {
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
