// SPDX-License-Identifier: MIT
/*
 * Decoding perf_event_attr from file bytes.
 *
 * The attr grew over the years (64 bytes in 2.6.31, 136 in perf 6.3);
 * a file holds the size its writer was built with. Every field is read
 * only if it lies entirely within that size, so a short attr never reads
 * the next one and a long one never overflows ours.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "attr.h"
#include "base/internal.h"

/*
 * The flag word is a C bitfield. Compilers for big-endian targets
 * allocate bitfields from the most significant bit, so "disabled" is bit
 * 63 of a big-endian writer's u64 and bit 0 of ours: the whole word is
 * mirrored, not just byte-swapped.
 */
static uint64_t bitreverse64(uint64_t v)
{
	uint64_t r = 0;
	int i;

	for (i = 0; i < 64; i++) {
		r = (r << 1) | (v & 1);
		v >>= 1;
	}
	return r;
}

#define FIELD_FITS(f, size) \
	(offsetof(struct pd_attr, f) + sizeof(((struct pd_attr *)0)->f) <= (size))

void pd__attr_from_disk(struct pd_attr *dst, const void *src, size_t size,
			bool swap)
{
	const uint8_t *p = src;

	memset(dst, 0, sizeof(*dst));
	if (size > sizeof(*dst))
		size = sizeof(*dst);

#define GET(f)								\
	do {								\
		if (!FIELD_FITS(f, size))				\
			break;						\
		switch (sizeof(dst->f)) {				\
		case 2:							\
			dst->f = pd_get16(p + offsetof(struct pd_attr, f), swap); \
			break;						\
		case 4:							\
			dst->f = pd_get32(p + offsetof(struct pd_attr, f), swap); \
			break;						\
		default:						\
			dst->f = pd_get64(p + offsetof(struct pd_attr, f), swap); \
			break;						\
		}							\
	} while (0)

	GET(type);
	GET(size);
	GET(config);
	GET(sample_period);
	GET(sample_type);
	GET(read_format);
	GET(flags);
	GET(wakeup_events);
	GET(bp_type);
	GET(config1);
	GET(config2);
	GET(branch_sample_type);
	GET(sample_regs_user);
	GET(sample_stack_user);
	GET(clockid);
	GET(sample_regs_intr);
	GET(aux_watermark);
	GET(sample_max_stack);
	GET(reserved_2);
	GET(aux_sample_size);
	GET(aux_action);
	GET(sig_data);
	GET(config3);
	GET(config4);
#undef GET

	if (swap) {
		dst->flags = bitreverse64(dst->flags);
		/* aux_action is a u32 bitfield too */
		dst->aux_action = (uint32_t)(bitreverse64(dst->aux_action) >> 32);
	}
}

void pd__attr_to_disk(void *dst, const struct pd_attr *src, size_t size,
		      bool swap)
{
	uint8_t *p = dst;
	struct pd_attr a = *src;

	memset(dst, 0, size);
	if (size > sizeof(a))
		size = sizeof(a);
	if (swap) {
		/* the inverse of the mirroring done when reading */
		a.flags = bitreverse64(a.flags);
		a.aux_action = (uint32_t)(bitreverse64(a.aux_action) >> 32);
	}

#define PUT(f)								\
	do {								\
		if (!FIELD_FITS(f, size))				\
			break;						\
		switch (sizeof(a.f)) {					\
		case 2: {						\
			uint16_t v = swap ? pd_bswap16(a.f) : a.f;	\
			memcpy(p + offsetof(struct pd_attr, f), &v, 2);	\
			break;						\
		}							\
		case 4: {						\
			uint32_t v = swap ? pd_bswap32((uint32_t)a.f) : (uint32_t)a.f;\
			memcpy(p + offsetof(struct pd_attr, f), &v, 4);	\
			break;						\
		}							\
		default: {						\
			uint64_t v = swap ? pd_bswap64((uint64_t)a.f) : (uint64_t)a.f;\
			memcpy(p + offsetof(struct pd_attr, f), &v, 8);	\
			break;						\
		}							\
		}							\
	} while (0)

	PUT(type);
	PUT(size);
	PUT(config);
	PUT(sample_period);
	PUT(sample_type);
	PUT(read_format);
	PUT(flags);
	PUT(wakeup_events);
	PUT(bp_type);
	PUT(config1);
	PUT(config2);
	PUT(branch_sample_type);
	PUT(sample_regs_user);
	PUT(sample_stack_user);
	PUT(clockid);
	PUT(sample_regs_intr);
	PUT(aux_watermark);
	PUT(sample_max_stack);
	PUT(reserved_2);
	PUT(aux_sample_size);
	PUT(aux_action);
	PUT(sig_data);
	PUT(config3);
	PUT(config4);
#undef PUT
}
