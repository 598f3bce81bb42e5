// SPDX-License-Identifier: MIT
/*
 * pd-flame's "%.Nf" (flame-num.c) against printf's own: the SVG's
 * numbers must be printf's to the last digit, near-ties and signs
 * included, or rectangles move by a pixel's tenth.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flame/flame-impl.h"
#include "tap.h"

/* xorshift: the same numbers on every machine */
static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static double unit(void)
{
	return (rnd() >> 11) * 0x1p-53;
}

/* The kinds of numbers an SVG holds: positions, widths, percentages,
 * halves and quarters (exact ties), tiny and negative ones. */
static double sample(unsigned int kind)
{
	switch (kind % 6) {
	case 0:
		return unit() * 1200;
	case 1:
		return (rnd() % 100000) / (double)(1u << (rnd() % 12));
	case 2:
		return -unit() * 10;
	case 3:
		return (rnd() % 2000000) / 20.0 + 0.05;
	case 4:
		return ldexp(unit(), (int)(rnd() % 80) - 40);
	default:
		return (rnd() % 100000) * 0.005;
	}
}

static int same_as_printf(double v, unsigned int d)
{
	char got[64], want[64];
	size_t n = flame_fixed(got, sizeof(got), v, d);

	snprintf(want, sizeof(want), "%.*f", (int)d, v);
	if (strcmp(got, want) || n != strlen(want)) {
		fprintf(stderr, "# %.17g %%.%uf: got %s, want %s\n", v, d, got, want);
		return 0;
	}
	return 1;
}

int main(void)
{
	static const double edge[] = {
		0, -0.0, 0.05, 0.15, 0.25, 0.35, 2.5, 0.125, -0.04, 1e9,
		999999999.95, 1e12, 1e300, -1e-300, 4503599627370495.5,
	};
	unsigned int d, i, bad;

	for (d = 0; d <= 4; d++) {
		bad = 0;
		for (i = 0; i < 1000000; i++)
			bad += !same_as_printf(sample(i), d);
		CHECK(bad == 0, "%%.%uf: a million numbers as printf prints them", d);
		bad = 0;
		for (i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
			bad += !same_as_printf(edge[i], d);
		bad += !same_as_printf(INFINITY, d) + !same_as_printf(-INFINITY, d);
		bad += !same_as_printf(NAN, d);
		CHECK(bad == 0, "%%.%uf: ties, signed zeros, huge and non-finite numbers", d);
	}
	return tap_done();
}
