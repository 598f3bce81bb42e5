// SPDX-License-Identifier: MIT
/*
 * The feature store: raw sections as read, and their decoded form.
 *
 * In pipe mode a feature may arrive more than once (perf inject, cat-ed
 * streams). A later copy replaces the earlier one, but the earlier data
 * stays allocated until the reader closes: evsel names and other
 * pointers handed out before the replacement must remain valid.
 */
#include <stdlib.h>
#include <string.h>

#include <perfdata/features.h>

#include "base/arena.h"
#include "feat-parse.h"
#include "features-internal.h"
#include "trace-tep.h"

struct pd_features_priv {
	struct pd_features pub;
	struct pd_arena arena;
	struct tep_handle *tep;
	/* BUILD_ID grows by appending: kept in malloc'd arrays */
	struct pd_build_id *build_ids;
	size_t build_ids_cap;
	uint8_t *build_id_raw;
	size_t build_id_raw_size, build_id_raw_cap;
};

static struct pd_features_priv *priv(struct pd_features *f)
{
	return (struct pd_features_priv *)f;
}

struct pd_features *pd_features__new(void)
{
	struct pd_features_priv *p = calloc(1, sizeof(*p));

	return p ? &p->pub : NULL;
}

void pd_features__free(struct pd_features *f)
{
	struct pd_features_priv *p;

	if (!f)
		return;
	p = priv(f);
	pd__tep_free(p->tep);
	free(p->build_ids);
	free(p->build_id_raw);
	pd_arena_free(&p->arena);
	free(p);
}

static void set_bit(uint64_t *map, unsigned int id)
{
	map[id / 64] |= 1ULL << (id % 64);
}

static void clear_bit(uint64_t *map, unsigned int id)
{
	map[id / 64] &= ~(1ULL << (id % 64));
}

static bool test_bit(const uint64_t *map, unsigned int id)
{
	return map[id / 64] & (1ULL << (id % 64));
}

PD_EXPORT bool pd_features__has(const struct pd_features *f, unsigned int id)
{
	return f && id < PD_FEAT_BITS && test_bit(f->have, id);
}

PD_EXPORT bool pd_features__seen(const struct pd_features *f, unsigned int id)
{
	return f && id < PD_FEAT_BITS && test_bit(f->seen, id);
}

PD_EXPORT struct tep_handle *pd_features__tep(const struct pd_features *f)
{
	return f ? ((const struct pd_features_priv *)f)->tep : NULL;
}

static int append_build_ids(struct pd_features_priv *p, struct pd_feat_ctx *x,
			    const void *data, size_t size)
{
	struct pd_features *f = &p->pub;
	uint32_t nr = f->build_ids.nr;
	size_t need = p->build_id_raw_size + size;

	if (pd__feat_parse_build_ids(x, &p->build_ids, &nr, &p->build_ids_cap))
		return -1;
	if (need > p->build_id_raw_cap) {
		size_t cap = need * 2;
		uint8_t *n = realloc(p->build_id_raw, cap);

		if (!n) {
			x->why = "out of memory";
			return -1;
		}
		p->build_id_raw = n;
		p->build_id_raw_cap = cap;
	}
	if (size)	/* an empty section leaves the buffer unallocated */
		memcpy(p->build_id_raw + p->build_id_raw_size, data, size);
	p->build_id_raw_size = need;
	f->raw[PD_FEAT_BUILD_ID].data = p->build_id_raw;
	f->raw[PD_FEAT_BUILD_ID].size = p->build_id_raw_size;
	f->build_ids.nr = nr;
	f->build_ids.ids = p->build_ids;
	return 0;
}

int pd_features__add(struct pd_features *f, unsigned int id,
		     const void *data, size_t size, bool swap,
		     struct pd_logger *log)
{
	struct pd_features_priv *p = priv(f);
	struct pd_feat_ctx x = {
		.arena = &p->arena,
		.f = f,
		.tep = &p->tep,
		.log = log,
	};
	pd_feat_parse_fn parse;
	int err;

	if (id >= PD_FEAT_BITS)
		return -PD_ERR_BAD_FEATURE;
	set_bit(f->seen, id);
	f->swapped = swap;
	pd_cursor_init(&x.c, data, size, swap);

	if (id == PD_FEAT_BUILD_ID) {
		err = append_build_ids(p, &x, data, size);
		goto out;
	}
	f->raw[id].data = pd_arena_memdup(&p->arena, data, size);
	if (!f->raw[id].data) {
		f->raw[id].size = 0;
		x.why = "out of memory";
		err = -1;
		goto out;
	}
	f->raw[id].size = size;
	/* parse the kept copy: decoded blobs point into it */
	pd_cursor_init(&x.c, f->raw[id].data, size, swap);
	parse = pd__feat_parser(id);
	if (!parse) {
		/* unknown: kept raw; the reader reports it with its offset */
		set_bit(f->have, id);
		return 0;
	}
	err = parse(&x);
out:
	if (err) {
		pd__warn(log, "header feature %s: malformed section of %zu bytes (%s); ignored",
			 pd_feature_name(id) ? pd_feature_name(id) : "unknown", size,
			 x.why ? x.why : "data ends early");
		clear_bit(f->have, id);
		return -PD_ERR_BAD_FEATURE;
	}
	set_bit(f->have, id);
	return 0;
}
