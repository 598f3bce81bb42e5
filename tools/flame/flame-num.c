// SPDX-License-Identifier: MIT
/*
 * "%.Nf" without printf. An SVG holds several fixed-point numbers per
 * frame, and printf's exact decimal expansion of each was a tenth of
 * pd-flame's time. Scaled by 10^N, a number's fraction tells the
 * rounding unless it is within the scaling's error of one half; those
 * numbers, and large ones, still go through snprintf, so the text is
 * printf's to the last digit.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "flame-impl.h"

static const double pow10_tab[] = { 1, 10, 100, 1000 };

size_t flame_fixed(char *buf, size_t size, double v, unsigned int decimals)
{
	char tmp[32], *p = tmp + sizeof(tmp);
	double a = fabs(v), t, f, frac;
	uint64_t u;
	size_t n = 0, i;
	int len;

	if (decimals > 3 || size < sizeof(tmp) || !(a < 1e9))
		goto slow;
	t = a * pow10_tab[decimals];
	/* floor() without libm, which the tools sharing this do not link */
	f = (double)(uint64_t)t;
	frac = t - f;
	/* t < 1e12 is within half an ulp (< 1e-4) of a * 10^N: near a tie
	 * the side is unsure */
	if (fabs(frac - 0.5) < 1e-3)
		goto slow;
	u = (uint64_t)f + (frac > 0.5);
	for (i = 0; i < decimals; i++) {
		*--p = '0' + u % 10;
		u /= 10;
	}
	if (decimals)
		*--p = '.';
	do {
		*--p = '0' + u % 10;
		u /= 10;
	} while (u);
	if (signbit(v))
		buf[n++] = '-';
	while (p < tmp + sizeof(tmp))
		buf[n++] = *p++;
	buf[n] = '\0';
	return n;
slow:
	len = snprintf(buf, size, "%.*f", (int)decimals, v);
	return len < 0 ? 0 : (size_t)len < size ? (size_t)len : size - 1;
}
