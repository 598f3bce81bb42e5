// SPDX-License-Identifier: MIT
/*
 * A pd_dso's life: made empty for a path, on the symbolizer's list or on
 * none (a DSO loaded ahead, sym-preload.c, until a lookup takes it), and
 * freed with all a loader put in it. Below the loaders that make DSOs of
 * their own (jitdump, KSYMBOL records, preloading) and the symbolizer.
 */
#include <stdlib.h>
#include <string.h>

#include "sym-internal.h"

struct pd_dso *sym_dso__alloc(struct pd_symbolizer *s, enum pd_dso_kind kind,
			      const char *path)
{
	struct pd_dso *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->path = strdup(path);
	if (!d->path) {
		free(d);
		return NULL;
	}
	d->s = s;
	d->kind = kind;
	return d;
}

struct pd_dso *sym_dso__new(struct pd_symbolizer *s, enum pd_dso_kind kind,
			    const char *path)
{
	struct pd_dso *d = sym_dso__alloc(s, kind, path);

	if (!d)
		return NULL;
	d->next = s->dsos;
	s->dsos = d;
	return d;
}

void sym_dso__set_key(struct pd_dso *d, const struct sym_key *k)
{
	if (k->build_id_size) {
		memcpy(d->build_id, k->build_id, k->build_id_size);
		d->build_id_size = k->build_id_size;
		d->key_build_id_size = k->build_id_size;
		d->has_build_id = true;
	}
	d->key_has_ino = k->has_ino;
	d->key_maj = k->maj;
	d->key_min = k->min;
	d->key_ino = k->ino;
	d->ident = k->ident;
}

void sym_dso__free(struct pd_dso *d)
{
	size_t i;

	if (!d)
		return;
	sym_inline__free(d->dw);
	free(d->syms);
	free(d->sym_bucket);
	free(d->sym_left);
	free(d->sym_right);
	free(d->sym_module);
	for (i = 0; i < d->nr_modules; i++)
		free(d->modules[i]);
	free(d->modules);
	free(d->ksecs);
	free(d->path);
	free(d->symsrc);
	free(d->mismatch);
	free(d->runtime);
	free(d->segs);
	pd_arena_free(&d->arena);
	free(d);
}
