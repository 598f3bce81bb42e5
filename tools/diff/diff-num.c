// SPDX-License-Identifier: MIT
/*
 * Perl 5's number rules (pp_add, pp_multiply, pp_divide, pp_int, sv_2pv
 * on a 64-bit perl with double NVs), as far as difffolded.pl uses them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff-num.h"

/* NV_PRESERVES_UV_BITS of a double */
#define PRECISE	((uint64_t)1 << 53)

static struct pnum from_uv(uint64_t v)
{
	struct pnum p = { .nv = false, .uv = v };

	return p;
}

static struct pnum from_nv(double d)
{
	struct pnum p = { .nv = true, .d = d };

	return p;
}

double pnum_double(struct pnum a)
{
	return a.nv ? a.d : (double)a.uv;
}

/*
 * Perl uses an operand as an integer when it is one, or when it is a
 * double holding an integer that a double represents exactly (below
 * 2^53): then integer arithmetic runs, else double arithmetic.
 */
static bool as_uv(struct pnum a, uint64_t *v)
{
	if (!a.nv) {
		*v = a.uv;
		return true;
	}
	if (a.d >= 0 && a.d < (double)PRECISE && a.d == (double)(uint64_t)a.d) {
		*v = (uint64_t)a.d;
		return true;
	}
	return false;
}

struct pnum pnum_parse(const char *s, size_t len)
{
	char buf[512];
	uint64_t v = 0, t;
	size_t i;

	for (i = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		/* past UV_MAX: Perl makes it a double */
		if (__builtin_mul_overflow(v, 10, &t) ||
		    __builtin_add_overflow(t, (uint64_t)(s[i] - '0'), &v))
			break;
	}
	if (i == len)
		return from_uv(v);
	/* a fraction or a huge integer: strtod, as Perl's atof */
	if (len >= sizeof(buf)) {
		char *copy = strndup(s, len);
		double d = copy ? strtod(copy, NULL) : 1e308 * 10;

		free(copy);
		return from_nv(d);
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	return from_nv(strtod(buf, NULL));
}

struct pnum pnum_add(struct pnum a, struct pnum b)
{
	uint64_t x, y, r;

	if (as_uv(a, &x) && as_uv(b, &y) && !__builtin_add_overflow(x, y, &r))
		return from_uv(r);
	return from_nv(pnum_double(a) + pnum_double(b));
}

bool pnum_eq(struct pnum a, struct pnum b)
{
	uint64_t x, y;

	if (as_uv(a, &x) && as_uv(b, &y))
		return x == y;
	return pnum_double(a) == pnum_double(b);
}

bool pnum_is_zero(struct pnum a)
{
	return a.nv ? a.d == 0 : a.uv == 0;
}

static struct pnum mul(struct pnum a, struct pnum b)
{
	uint64_t x, y, r;

	if (as_uv(a, &x) && as_uv(b, &y) && !__builtin_mul_overflow(x, y, &r))
		return from_uv(r);
	return from_nv(pnum_double(a) * pnum_double(b));
}

/*
 * pp_divide divides integers only when a double could not hold them
 * (either above 2^53) and the quotient is exact; otherwise in doubles.
 */
static struct pnum divide(struct pnum a, struct pnum b)
{
	uint64_t x, y;

	if (as_uv(a, &x) && as_uv(b, &y) && x >= y &&
	    (x > PRECISE || y > PRECISE) && x % y == 0)
		return from_uv(x / y);
	return from_nv(pnum_double(a) / pnum_double(b));
}

/* pp_int: truncation; an integer if it fits in a UV, else the double */
static struct pnum to_int(struct pnum a)
{
	if (!a.nv)
		return a;
	if (a.d < 18446744073709551616.0)
		return from_uv((uint64_t)a.d);
	return a;	/* a double this large is integral already */
}

struct pnum pnum_scale(struct pnum c, struct pnum total_b, struct pnum total_a)
{
	return to_int(divide(mul(c, total_b), total_a));
}

int pnum_format(struct pnum a, char *buf, size_t size)
{
	if (!a.nv)
		return snprintf(buf, size, "%" PRIu64, a.uv);
	if (a.d != a.d)
		return snprintf(buf, size, "NaN");
	if (a.d > 1.7976931348623157e308)	/* Perl's spelling */
		return snprintf(buf, size, "Inf");
	/* Perl: NV_DIG significant digits */
	return snprintf(buf, size, "%.15g", a.d);
}
