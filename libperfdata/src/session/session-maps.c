// SPDX-License-Identifier: MIT
/*
 * Per-process map lists: a sorted array, binary search to find, and
 * overlap trimming on insert. Processes map tens to thousands of files,
 * and lookups (one per frame) vastly outnumber inserts, so an array beats
 * a tree here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "session-maps.h"

static uint64_t maps_gen;

static void touch(struct pd_maps *m)
{
	m->gen = __atomic_add_fetch(&maps_gen, 1, __ATOMIC_RELAXED);
}

struct pd_maps *pd__maps_new(void)
{
	struct pd_maps *m = calloc(1, sizeof(*m));

	if (m) {
		m->refcnt = 1;
		touch(m);
	}
	return m;
}

void pd__maps_clear(struct pd_maps *m)
{
	free(m->v);
	m->v = NULL;
	m->nr = m->alloc = 0;
	free(m->rs_cache);
	m->rs_cache = NULL;
	touch(m);
}

struct pd_maps *pd__maps_get(struct pd_maps *m)
{
	if (m)
		m->refcnt++;
	return m;
}

void pd__maps_put(struct pd_maps *m)
{
	if (!m || --m->refcnt)
		return;
	free(m->v);
	free(m->rs_cache);
	free(m);
}

struct pd_maps *pd__maps_clone(const struct pd_maps *m)
{
	struct pd_maps *c = pd__maps_new();

	if (!c || !m->nr)
		return c;
	c->v = malloc(m->nr * sizeof(*c->v));
	if (!c->v) {
		free(c);
		return NULL;
	}
	memcpy(c->v, m->v, m->nr * sizeof(*c->v));
	c->nr = c->alloc = m->nr;
	touch(c);
	return c;
}

/* Index of the first map whose end is above addr. */
static size_t first_ending_after(const struct pd_maps *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct pd_map *pd__maps_find(struct pd_maps *m, uint64_t addr)
{
	size_t i = first_ending_after(m, addr);

	if (i < m->nr && m->v[i].start <= addr)
		return &m->v[i];
	return NULL;
}

void pd__maps_remove(struct pd_maps *m, uint64_t addr)
{
	struct pd_map *map = pd__maps_find(m, addr);
	size_t i;

	if (!map)
		return;
	i = (size_t)(map - m->v);
	memmove(&m->v[i], &m->v[i + 1], (m->nr - i - 1) * sizeof(*m->v));
	m->nr--;
	touch(m);
}

static int reserve(struct pd_maps *m, size_t extra)
{
	size_t want = m->nr + extra;
	struct pd_map *v;

	if (want <= m->alloc)
		return 0;
	want = want < 16 ? 16 : want * 2;
	v = realloc(m->v, want * sizeof(*v));
	if (!v)
		return -ENOMEM;
	m->v = v;
	m->alloc = want;
	return 0;
}

int pd__maps_insert(struct pd_maps *m, const struct pd_map *map)
{
	struct pd_map left, right;
	bool has_left = false, has_right = false;
	size_t i, j;

	if (map->end <= map->start)
		return 0;
	/* at most one old map is split in two: room for two more */
	if (reserve(m, 2))
		return -ENOMEM;
	touch(m);
	i = first_ending_after(m, map->start);
	/* maps i..j-1 overlap the new one */
	for (j = i; j < m->nr && m->v[j].start < map->end; j++)
		;
	if (i < j && m->v[i].start < map->start) {
		left = m->v[i];
		left.end = map->start;
		has_left = true;
	}
	if (i < j && m->v[j - 1].end > map->end) {
		right = m->v[j - 1];
		if (!right.identity)
			right.pgoff += map->end - right.start;
		right.start = map->end;
		has_right = true;
	}
	/* replace v[i..j) by left?, map, right? */
	{
		size_t nnew = has_left + 1 + has_right;
		size_t tail = m->nr - j;

		memmove(&m->v[i + nnew], &m->v[j], tail * sizeof(*m->v));
		m->nr = i + nnew + tail;
	}
	if (has_left)
		m->v[i++] = left;
	m->v[i++] = *map;
	if (has_right)
		m->v[i] = right;
	return 0;
}

int pd__maps_set_range(struct pd_maps *m, const char *name, uint64_t lo,
		       uint64_t hi)
{
	struct pd_map tmpl = { 0 }, *gaps = NULL;
	size_t i, n = 0, nr_gaps = 0;
	uint64_t cur = lo;
	bool found = false;
	int err = 0;

	for (i = 0; i < m->nr; i++) {
		if (strcmp(m->v[i].name, name)) {
			m->v[n++] = m->v[i];
			continue;
		}
		if (!found)
			tmpl = m->v[i];
		found = true;
	}
	m->nr = n;
	touch(m);
	if (!found || lo >= hi)
		return 0;
	/* the other maps split [lo, hi) into at most nr + 1 gaps */
	gaps = malloc((m->nr + 1) * sizeof(*gaps));
	if (!gaps)
		return -ENOMEM;
	for (i = first_ending_after(m, lo); i < m->nr && m->v[i].start < hi;
	     i++) {
		if (m->v[i].start > cur) {
			gaps[nr_gaps] = tmpl;
			gaps[nr_gaps].start = cur;
			gaps[nr_gaps++].end = m->v[i].start;
		}
		if (m->v[i].end > cur)
			cur = m->v[i].end;
	}
	if (cur < hi) {
		gaps[nr_gaps] = tmpl;
		gaps[nr_gaps].start = cur;
		gaps[nr_gaps++].end = hi;
	}
	for (i = 0; i < nr_gaps && !err; i++) {
		/* an identity map (the kernel's) is the same in any part;
		 * another one's offset follows its start */
		if (!gaps[i].identity)
			gaps[i].pgoff = tmpl.pgoff + (gaps[i].start - tmpl.start);
		err = pd__maps_insert(m, &gaps[i]);
	}
	free(gaps);
	return err;
}

bool pd__map_same_dso(const struct pd_map *a, const struct pd_map *b)
{
	if (a->path != b->path)
		return false;
	if ((!a->map_build_id && !a->has_inode) ||
	    (!b->map_build_id && !b->has_inode))
		return true;
	if (a->map_build_id || b->map_build_id)
		return a->map_build_id && b->map_build_id &&
		       a->build_id_size == b->build_id_size &&
		       !memcmp(a->build_id, b->build_id, a->build_id_size);
	return a->maj == b->maj && a->min == b->min && a->ino == b->ino &&
	       (!a->ino_generation || !b->ino_generation ||
		a->ino_generation == b->ino_generation);
}

int pd__maps_rs_add(struct pd_maps *m, uint64_t ip)
{
	struct pd_rs_cache *c = m->rs_cache;
	unsigned int slot, h;
	uint8_t *p;

	if (!c) {
		c = malloc(sizeof(*c));
		if (!c)
			return -ENOMEM;
		m->rs_cache = c;
		pd__maps_rs_flush(m);
	}
	slot = c->head;
	c->head = (uint8_t)((slot + 1) % PD_RS_CACHE_SIZE);
	/* the oldest pc leaves its chain */
	if (c->ip[slot]) {
		for (p = &c->hash[pd__rs_hash(c->ip[slot])]; *p != UINT8_MAX;
		     p = &c->next[*p]) {
			if (*p == slot) {
				*p = c->next[slot];
				break;
			}
		}
	}
	h = pd__rs_hash(ip);
	c->ip[slot] = ip;
	c->next[slot] = c->hash[h];
	c->hash[h] = (uint8_t)slot;
	return 0;
}

void pd__maps_rs_flush(struct pd_maps *m)
{
	struct pd_rs_cache *c = m->rs_cache;

	if (!c)
		return;
	memset(c->ip, 0, sizeof(c->ip));
	memset(c->next, UINT8_MAX, sizeof(c->next));
	memset(c->hash, UINT8_MAX, sizeof(c->hash));
	c->head = 0;
}
