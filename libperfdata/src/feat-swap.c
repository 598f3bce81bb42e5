// SPDX-License-Identifier: MIT
/*
 * Feature sections between byte orders, layout by layout. Numbers are
 * swapped; strings, build-id bytes and the tracing blob (which carries
 * its own byte order) are not. Counts are read on the host-order side of
 * each conversion. Layouts not listed here are refused, and the writer
 * drops such a feature with a warning rather than write it wrong.
 */
#include "attr.h"
#include "feat-swap.h"
#include "internal.h"

struct sw {
	uint8_t *p, *end;
	bool out;	/* host -> foreign */
	bool bad;
};

static bool room(struct sw *s, size_t n)
{
	if (s->bad || (size_t)(s->end - s->p) < n) {
		s->bad = true;
		return false;
	}
	return true;
}

static uint32_t u32(struct sw *s)
{
	uint32_t v;

	if (!room(s, 4))
		return 0;
	v = pd_get32(s->p, !s->out);
	pd_swap32_at(s->p);
	s->p += 4;
	return v;
}

static uint64_t u64(struct sw *s)
{
	uint64_t v;

	if (!room(s, 8))
		return 0;
	v = pd_get64(s->p, !s->out);
	pd_swap64_at(s->p);
	s->p += 8;
	return v;
}

static void skip(struct sw *s, uint64_t n)
{
	if (room(s, n))
		s->p += n;
}

static void str(struct sw *s)
{
	skip(s, u32(s));
}

static void str_list(struct sw *s)
{
	uint32_t i, n = u32(s);

	for (i = 0; i < n && !s->bad; i++)
		str(s);
}

static void rest_u64(struct sw *s)
{
	while (!s->bad && s->p + 8 <= s->end)
		u64(s);
	if (s->p != s->end)
		s->bad = true;
}

static void event_desc(struct sw *s)
{
	uint32_t nr = u32(s), size = u32(s), i, ids;
	struct pd_attr a;

	if (size < PD_ATTR_SIZE_VER0 || size > 4096)
		s->bad = true;
	for (i = 0; i < nr && !s->bad; i++) {
		if (!room(s, size))
			break;
		if (s->out) {
			pd__attr_from_disk(&a, s->p, size, false);
			pd__attr_to_disk(s->p, &a, size < sizeof(a) ? size : sizeof(a),
					 true);
		} else {
			pd__attr_from_disk(&a, s->p, size, true);
			memcpy(s->p, &a, size < sizeof(a) ? size : sizeof(a));
		}
		s->p += size;
		ids = u32(s);
		str(s);
		while (ids-- && !s->bad)
			u64(s);
	}
}

static void group_desc(struct sw *s)
{
	uint32_t i, nr = u32(s);

	for (i = 0; i < nr && !s->bad; i++) {
		str(s);
		u32(s);
		u32(s);
	}
}

/* BUILD_ID: records { header, s32 pid, u8 id[24], filename }. */
static void build_ids(struct sw *s)
{
	while (!s->bad && s->p < s->end) {
		uint8_t *rec = s->p;
		uint16_t size;

		if (!room(s, 12))
			break;
		size = pd_get16(rec + 6, !s->out);
		pd_swap32_at(rec);
		pd_swap16_at(rec + 4);
		pd_swap16_at(rec + 6);
		pd_swap32_at(rec + 8);
		if (size < 12) {
			s->bad = true;
			break;
		}
		skip(s, size);
	}
}

int pd__feat_swap(unsigned int feat, void *data, size_t size, bool to_foreign)
{
	struct sw s = { data, (uint8_t *)data + size, to_foreign, false };

	switch (feat) {
	case PD_FEAT_TRACING_DATA:	/* self-describing */
	case PD_FEAT_BRANCH_STACK:	/* empty */
	case PD_FEAT_STAT:
		return 0;
	case PD_FEAT_BUILD_ID:
		build_ids(&s);
		break;
	case PD_FEAT_HOSTNAME:
	case PD_FEAT_OSRELEASE:
	case PD_FEAT_VERSION:
	case PD_FEAT_ARCH:
	case PD_FEAT_CPUDESC:
	case PD_FEAT_CPUID:
		str(&s);
		break;
	case PD_FEAT_NRCPUS:
		u32(&s);
		u32(&s);
		break;
	case PD_FEAT_TOTAL_MEM:
	case PD_FEAT_CLOCKID:
	case PD_FEAT_DIR_FORMAT:
	case PD_FEAT_SAMPLE_TIME:
	case PD_FEAT_AUXTRACE:
		rest_u64(&s);
		break;
	case PD_FEAT_CMDLINE:
		str_list(&s);
		break;
	case PD_FEAT_EVENT_DESC:
		event_desc(&s);
		break;
	case PD_FEAT_GROUP_DESC:
		group_desc(&s);
		break;
	case PD_FEAT_COMPRESSED:
		while (!s.bad && s.p < s.end)
			u32(&s);
		break;
	default:
		return -PD_ERR_UNSUPPORTED;
	}
	return s.bad ? -PD_ERR_BAD_FEATURE : 0;
}
