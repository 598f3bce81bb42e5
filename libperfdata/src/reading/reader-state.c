// SPDX-License-Identifier: MIT
/*
 * What the reader's parts share, below all of them: the error a reader
 * stops with (on the read-ahead thread, kept for its caller), its scratch
 * memory, and its evsels with the map from sample ids to them. reader.c
 * opens and closes the reader.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "header/attr.h"
#include "reader-state.h"

__thread struct pd_error_divert *pd__error_divert;

int pd__set_error(struct pd_reader *r, int err, uint64_t offset,
		  const char *fmt, ...)
{
	char what[256], msg[sizeof(r->errmsg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(msg, sizeof(msg), "%s: offset 0x%llx: %s",
		 r->name, (unsigned long long)offset, what);
	/* the read-ahead thread's is its caller's to set, at its turn */
	if (pd__error_divert &&
	    pd__error_divert->fn(pd__error_divert->ctx, r, msg))
		return err;
	memcpy(r->errmsg, msg, sizeof(msg));
	r->failed = true;
	return err;
}

void *pd__scratch(struct pd_reader *r, size_t size)
{
	if (size > r->scratch_cap) {
		void *p = realloc(r->scratch, size);

		if (!p)
			return NULL;
		r->scratch = p;
		r->scratch_cap = size;
	}
	return r->scratch;
}

/* ---- evsels and ids ---------------------------------------------------- */

uint16_t pd__id_hdr_size(uint64_t sample_type)
{
	uint64_t bits = PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID |
			PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU |
			PD_SAMPLE_IDENTIFIER;

	return 8 * __builtin_popcountll(sample_type & bits);
}

static uint64_t id_hash(uint64_t id)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return id;
}

static int id_map_put(struct pd_id_map *m, uint64_t id, int idx)
{
	size_t i;

	if ((m->nr + 1) * 2 > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64, j;
		uint64_t *ids = calloc(cap, sizeof(*ids));
		int *ix = malloc(cap * sizeof(*ix));

		if (!ids || !ix) {
			free(ids);
			free(ix);
			return -ENOMEM;
		}
		for (j = 0; j < cap; j++)
			ix[j] = -1;
		for (j = 0; j < m->cap; j++) {
			size_t k;

			if (m->idx[j] < 0)
				continue;
			k = id_hash(m->ids[j]) & (cap - 1);
			while (ix[k] >= 0)
				k = (k + 1) & (cap - 1);
			ids[k] = m->ids[j];
			ix[k] = m->idx[j];
		}
		free(m->ids);
		free(m->idx);
		m->ids = ids;
		m->idx = ix;
		m->cap = cap;
	}
	i = id_hash(id) & (m->cap - 1);
	while (m->idx[i] >= 0) {
		if (m->ids[i] == id) {
			m->idx[i] = idx;	/* later attrs win, as in perf */
			return 0;
		}
		i = (i + 1) & (m->cap - 1);
	}
	m->ids[i] = id;
	m->idx[i] = idx;
	m->nr++;
	return 0;
}

static int id_map_get(const struct pd_id_map *m, uint64_t id)
{
	size_t i;

	if (!m->cap)
		return -1;
	i = id_hash(id) & (m->cap - 1);
	while (m->idx[i] >= 0) {
		if (m->ids[i] == id)
			return m->idx[i];
		i = (i + 1) & (m->cap - 1);
	}
	return -1;
}

PD_EXPORT const struct pd_evsel *pd_reader__evsel_by_id(const struct pd_reader *r,
							uint64_t id)
{
	int idx = id_map_get(&r->id_map, id);

	return idx < 0 ? NULL : r->evsels[idx];
}

/* Where a sample's id is, in u64 words after the header; -1: nowhere. */
int pd__sample_id_word(uint64_t st)
{
	if (st & PD_SAMPLE_IDENTIFIER)
		return 0;
	if (!(st & PD_SAMPLE_ID))
		return -1;
	return !!(st & PD_SAMPLE_IP) + !!(st & PD_SAMPLE_TID) +
	       !!(st & PD_SAMPLE_TIME) + !!(st & PD_SAMPLE_ADDR);
}

/* Where a trailer's id is, in u64 words back from the end; -1: nowhere. */
int pd__trailer_id_word(uint64_t st)
{
	if (st & PD_SAMPLE_IDENTIFIER)
		return 1;
	if (!(st & PD_SAMPLE_ID))
		return -1;
	return 1 + !!(st & PD_SAMPLE_CPU) + !!(st & PD_SAMPLE_STREAM_ID);
}

/*
 * A record names its attr by an id found where the first attr puts it,
 * as perf finds it. An attr that puts it elsewhere would have its records
 * matched by some other field and walked with the wrong layout (and
 * swapped wrongly): perf refuses such files ("non matching sample_type"),
 * and so do we. Attrs without ids anywhere are let through: their
 * samples fail one by one, and a file without samples still reads.
 */
static int check_id_layout(struct pd_reader *r, const struct pd_attr *a,
			   uint64_t off)
{
	const struct pd_attr *first;
	bool all_a, all_f;
	int w, wf;

	if (!r->nr_evsels)
		return 0;
	first = &r->evsels[0]->attr;
	w = pd__sample_id_word(a->sample_type);
	wf = pd__sample_id_word(first->sample_type);
	if (w != wf)
		return pd__set_error(r, -PD_ERR_BAD_ATTR, off,
				     "attr %zu (sample_type 0x%llx) has its samples' id at word %d, attr 0 (sample_type 0x%llx) at %d: samples cannot be matched to their attrs",
				     r->nr_evsels,
				     (unsigned long long)a->sample_type, w,
				     (unsigned long long)first->sample_type, wf);
	all_a = a->flags & PD_ATTR_SAMPLE_ID_ALL;
	all_f = first->flags & PD_ATTR_SAMPLE_ID_ALL;
	if (all_a != all_f)
		return pd__set_error(r, -PD_ERR_BAD_ATTR, off,
				     "attr %zu has sample_id_all %s, attr 0 %s: records cannot be matched to their attrs",
				     r->nr_evsels, all_a ? "set" : "clear",
				     all_f ? "set" : "clear");
	w = pd__trailer_id_word(a->sample_type);
	wf = pd__trailer_id_word(first->sample_type);
	if (all_a && w != wf)
		return pd__set_error(r, -PD_ERR_BAD_ATTR, off,
				     "attr %zu (sample_type 0x%llx) has its records' id at word %d from the end, attr 0 (sample_type 0x%llx) at %d: records cannot be matched to their attrs",
				     r->nr_evsels,
				     (unsigned long long)a->sample_type, w,
				     (unsigned long long)first->sample_type, wf);
	return 0;
}

/*
 * attr: attr bytes in file order, attr_size of them, at offset off; ids
 * in file order when swap_ids.
 */
int pd__add_evsel(struct pd_reader *r, const void *attr, size_t attr_size,
		  uint64_t off, const uint64_t *ids, uint64_t nr_ids,
		  bool swap_ids)
{
	struct pd_evsel *e;
	uint64_t *idcopy;
	uint8_t *raw;
	uint64_t i;
	int err;

	if (r->nr_evsels == r->cap_evsels) {
		size_t cap = r->cap_evsels ? r->cap_evsels * 2 : 8;
		struct pd_evsel **n = realloc(r->evsels, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		r->evsels = n;
		r->cap_evsels = cap;
	}
	e = calloc(1, sizeof(*e));
	raw = malloc(attr_size ? attr_size : 1);
	idcopy = malloc((nr_ids ? nr_ids : 1) * sizeof(uint64_t));
	if (!e || !raw || !idcopy) {
		err = -ENOMEM;
		goto fail;
	}
	e->idx = r->nr_evsels;
	pd__attr_from_disk(&e->attr, attr, attr_size, r->swap);
	err = check_id_layout(r, &e->attr, off);
	if (err)
		goto fail;
	e->attr_size_on_disk = e->attr.size ? e->attr.size : PD_ATTR_SIZE_VER0;
	/*
	 * The attr as written, in host order: the known fields from the
	 * decoded struct, any newer tail as u64 words.
	 */
	memcpy(raw, &e->attr, attr_size < sizeof(e->attr) ? attr_size :
							      sizeof(e->attr));
	for (i = sizeof(e->attr); i + 8 <= attr_size; i += 8) {
		uint64_t v = pd_get64((const uint8_t *)attr + i, r->swap);

		memcpy(raw + i, &v, 8);
	}
	if (i < attr_size && attr_size > sizeof(e->attr))
		memcpy(raw + i, (const uint8_t *)attr + i, attr_size - i);
	e->attr_raw = raw;
	e->attr_raw_size = attr_size;
	for (i = 0; i < nr_ids; i++)
		idcopy[i] = pd_get64(&ids[i], swap_ids);
	e->ids = idcopy;
	e->nr_ids = nr_ids;
	e->id_hdr_size = (e->attr.flags & PD_ATTR_SAMPLE_ID_ALL) ?
			 pd__id_hdr_size(e->attr.sample_type) : 0;
	r->evsels[r->nr_evsels++] = e;
	for (i = 0; i < nr_ids; i++) {
		err = id_map_put(&r->id_map, idcopy[i], e->idx);
		if (err)
			return err;	/* the evsel stays, freed at close */
	}
	return e->idx;
fail:
	free(e);
	free(raw);
	free(idcopy);
	return err;
}
