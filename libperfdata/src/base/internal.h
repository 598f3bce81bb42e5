/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the library's own files; not installed.
 */
#ifndef PD_INTERNAL_H
#define PD_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <perfdata/errors.h>

#define PD_EXPORT __attribute__((visibility("default")))
#define PD_PRINTF(a, b) __attribute__((format(printf, a, b)))
/* for the few helpers run for every field of every record */
#define PD_ALWAYS_INLINE inline __attribute__((always_inline))

#define PD_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PD_ALIGN(x, a) (((x) + (a) - 1) & ~((uint64_t)(a) - 1))

/*
 * Where messages go: a callback and the input's name, which prefixes every
 * message ("perf.data: offset 0x10: ...").
 */
struct pd_logger {
	pd_log_fn fn;
	void *ctx;
	const char *name;
	uint64_t nr_warnings;
};

void pd__log(struct pd_logger *l, enum pd_log_level level, const char *fmt, ...)
	PD_PRINTF(3, 4);
/*
 * Set on a thread whose messages another thread gives in their turn (the
 * read-ahead thread's, stream-ahead.c): fn takes each, formatted without
 * its logger's name, and returns true when it kept it.
 */
struct pd_log_divert {
	bool (*fn)(void *ctx, struct pd_logger *l, enum pd_log_level level,
		   const char *msg);
	void *ctx;
};
extern __thread struct pd_log_divert *pd__log_divert;
#define pd__warn(l, ...) pd__log(l, PD_LOG_WARN, __VA_ARGS__)
#define pd__info(l, ...) pd__log(l, PD_LOG_INFO, __VA_ARGS__)
#define pd__debug(l, ...) pd__log(l, PD_LOG_DEBUG, __VA_ARGS__)

static inline bool pd_host_is_be(void)
{
	return __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
}

static inline uint16_t pd_bswap16(uint16_t v) { return __builtin_bswap16(v); }
static inline uint32_t pd_bswap32(uint32_t v) { return __builtin_bswap32(v); }
static inline uint64_t pd_bswap64(uint64_t v) { return __builtin_bswap64(v); }

/*
 * Unaligned loads from file-order bytes, swapped when the file is from the
 * other byte order.
 */
static inline uint16_t pd_get16(const void *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? pd_bswap16(v) : v;
}

static inline uint32_t pd_get32(const void *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? pd_bswap32(v) : v;
}

static inline uint64_t pd_get64(const void *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? pd_bswap64(v) : v;
}

/* In-place conversion of file-order words to host order. */
static inline void pd_swap16_at(void *p) { uint16_t v = pd_get16(p, true); memcpy(p, &v, 2); }
static inline void pd_swap32_at(void *p) { uint32_t v = pd_get32(p, true); memcpy(p, &v, 4); }
static inline void pd_swap64_at(void *p) { uint64_t v = pd_get64(p, true); memcpy(p, &v, 8); }

/*
 * A bounds-checked cursor over a byte range, used by every parser so that
 * no field is read past the end of its record or section.
 */
struct pd_cursor {
	const uint8_t *p;
	const uint8_t *end;
	bool swap;
	bool overrun;	/* a read went past end: results are zero */
};

static inline void pd_cursor_init(struct pd_cursor *c, const void *p,
				  size_t len, bool swap)
{
	c->p = p;
	c->end = (const uint8_t *)p + len;
	c->swap = swap;
	c->overrun = false;
}

static inline size_t pd_cursor_left(const struct pd_cursor *c)
{
	return (size_t)(c->end - c->p);
}

static inline bool pd_cursor_need(struct pd_cursor *c, size_t n)
{
	if (c->overrun || pd_cursor_left(c) < n) {
		c->overrun = true;
		return false;
	}
	return true;
}

static inline uint32_t pd_cursor_u32(struct pd_cursor *c)
{
	uint32_t v;

	if (!pd_cursor_need(c, 4))
		return 0;
	v = pd_get32(c->p, c->swap);
	c->p += 4;
	return v;
}

static inline uint64_t pd_cursor_u64(struct pd_cursor *c)
{
	uint64_t v;

	if (!pd_cursor_need(c, 8))
		return 0;
	v = pd_get64(c->p, c->swap);
	c->p += 8;
	return v;
}

static inline const void *pd_cursor_bytes(struct pd_cursor *c, size_t n)
{
	const void *p = c->p;

	if (!pd_cursor_need(c, n))
		return NULL;
	c->p += n;
	return p;
}

/* Overflow-checked arithmetic for sizes taken from untrusted input. */
static inline bool pd_mul_overflows(uint64_t a, uint64_t b, uint64_t *res)
{
	return __builtin_mul_overflow(a, b, res);
}

static inline bool pd_add_overflows(uint64_t a, uint64_t b, uint64_t *res)
{
	return __builtin_add_overflow(a, b, res);
}

/* n bytes of buf written to fd, through interruptions and short writes:
 * 0 or a negative errno */
int pd__write_all(int fd, const void *buf, size_t n);

#endif /* PD_INTERNAL_H */
