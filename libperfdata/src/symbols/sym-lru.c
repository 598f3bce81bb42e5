// SPDX-License-Identifier: MIT
/*
 * The symbolizer's memory budget: ELF DSOs holding symbols, names or
 * DWARF are kept in the order of their last use, and
 * pd_symbolizer__trim() releases the contents of the least recently
 * used ones until what the rest hold fits a budget. The struct pd_dso
 * stays (maps and callers keep pointers to it), with its paths, build
 * id and segments; its next lookup loads its symbols again from the same
 * files, quietly: its warnings, if any, were printed at its first load.
 *
 * Only ELF files are released: they are what grows with a system-wide
 * profile or a fleet's build ids. The kernel, perf maps and JIT code
 * stay, as do DSOs that are loaded ahead (sym-preload.c) until a lookup
 * takes them.
 *
 * Release happens at trim only, never inside a lookup: the names a
 * lookup returns stay valid until the caller's next trim, which it calls
 * where it holds none of them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sym-internal.h"

static size_t dso_bytes(const struct pd_dso *d)
{
	size_t n = d->nr_syms * sizeof(*d->syms) + d->arena.bytes;

	if (d->sym_left)
		n += 2 * d->nr_syms * sizeof(*d->sym_left);
	if (d->sym_bucket)
		n += (d->nr_buckets + 1) * sizeof(*d->sym_bucket);
	if (d->sym_module)
		n += d->nr_syms * sizeof(*d->sym_module);
	return n + sym_inline__bytes(d->dw);
}

static void lru_unlink(struct pd_dso *d)
{
	struct pd_symbolizer *s = d->s;

	if (d->lru_prev)
		d->lru_prev->lru_next = d->lru_next;
	else
		s->lru_head = d->lru_next;
	if (d->lru_next)
		d->lru_next->lru_prev = d->lru_prev;
	else
		s->lru_tail = d->lru_prev;
	d->lru_prev = d->lru_next = NULL;
}

static void lru_push_front(struct pd_dso *d)
{
	struct pd_symbolizer *s = d->s;

	d->lru_prev = NULL;
	d->lru_next = s->lru_head;
	if (s->lru_head)
		s->lru_head->lru_prev = d;
	else
		s->lru_tail = d;
	s->lru_head = d;
}

void sym_lru__remove(struct pd_dso *d)
{
	if (!d->in_lru)
		return;
	lru_unlink(d);
	d->s->lru_bytes -= d->bytes;
	d->bytes = 0;
	d->in_lru = false;
}

void sym_lru__account(struct pd_dso *d)
{
	size_t n;

	if (d->kind != PD_DSO_ELF || d->released)
		return;
	n = dso_bytes(d);
	if (!d->in_lru) {
		if (!n)
			return;
		d->in_lru = true;
		lru_push_front(d);
	}
	d->s->lru_bytes = d->s->lru_bytes - d->bytes + n;
	d->bytes = n;
}

void sym_lru__touch(struct pd_dso *d)
{
	if (!d->in_lru || d->s->lru_head == d)
		return;
	lru_unlink(d);
	lru_push_front(d);
}

/* Everything a load and the lookups since put in d, freed. */
static void release(struct pd_dso *d)
{
	sym_lru__remove(d);
	sym_inline__free(d->dw);
	d->dw = NULL;
	d->dw_tried = false;
	free(d->syms);
	free(d->sym_bucket);
	free(d->sym_left);
	free(d->sym_right);
	free(d->sym_module);
	d->syms = NULL;
	d->sym_bucket = NULL;
	d->sym_left = d->sym_right = NULL;
	d->sym_module = NULL;
	d->sym_mangled = NULL;		/* in the arena */
	d->nr_syms = 0;
	d->nr_buckets = 0;
	d->syms_overlap = false;
	d->sym_root = -1;
	pd_arena_free(&d->arena);
	d->released = true;
}

/*
 * The symbols of d loaded again, as its first lookup did: into a DSO of
 * the same key, whose tables d then takes, so that nothing else of d
 * (its paths, build id, segments: pointers callers may hold) changes.
 */
static int reload(struct pd_dso *d)
{
	struct pd_dso *t = sym_dso__alloc(d->s, PD_DSO_ELF, d->path);
	const struct sym_key k = {
		.path = d->path, .build_id = d->build_id,
		.build_id_size = d->key_build_id_size,
		.has_ino = d->key_has_ino, .maj = d->key_maj,
		.min = d->key_min, .ino = d->key_ino, .ident = d->ident,
	};
	int ret;

	if (!t)
		return -ENOMEM;
	sym_dso__set_key(t, &k);
	ret = sym_elf__load(t);
	d->s->nr_reloads++;
	/* the file gone or changed since: d answers nothing from now on,
	 * as the warning of its first load cannot be given twice */
	if (!ret && t->loaded) {
		d->syms = t->syms;
		d->nr_syms = t->nr_syms;
		d->syms_overlap = t->syms_overlap;
		d->sym_left = t->sym_left;
		d->sym_right = t->sym_right;
		d->sym_root = t->sym_root;
		d->sym_bucket = t->sym_bucket;
		d->sym_base = t->sym_base;
		d->nr_buckets = t->nr_buckets;
		d->sym_shift = t->sym_shift;
		d->sym_mangled = t->sym_mangled;
		d->arena = t->arena;
		t->syms = NULL;
		t->sym_left = t->sym_right = NULL;
		t->sym_bucket = NULL;
		t->nr_syms = 0;
		memset(&t->arena, 0, sizeof(t->arena));
	}
	sym_dso__free(t);
	return ret;
}

int sym_lru__resident(struct pd_dso *d)
{
	int ret = 0;

	if (!d->released)
		return 0;
	d->released = false;
	/* a DSO without symbols had only DWARF, opened again lazily */
	if (d->loaded)
		ret = reload(d);
	sym_lru__account(d);
	return ret;
}

PD_EXPORT const struct pd_sym *pd_dso__find(struct pd_dso *d, uint64_t addr)
{
	const struct pd_sym *sym;
	size_t held;

	if (!d || sym_lru__resident(d))
		return NULL;
	held = d->arena.bytes;
	sym = sym_dso__find(d, addr);
	/* a name demangled now went to the arena */
	if (d->arena.bytes != held)
		sym_lru__account(d);
	sym_lru__touch(d);
	return sym;
}

PD_EXPORT size_t pd_symbolizer__trim(struct pd_symbolizer *s, size_t budget)
{
	while (s->lru_bytes > budget && s->lru_tail)
		release(s->lru_tail);
	return s->lru_bytes;
}

PD_EXPORT size_t pd_symbolizer__bytes(const struct pd_symbolizer *s)
{
	return s->lru_bytes;
}
