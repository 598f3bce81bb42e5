/* SPDX-License-Identifier: MIT */
/*
 * Counts as Perl's arithmetic treats them, so that pd-diff prints the
 * numbers FlameGraph's difffolded.pl prints: integers stay exact integers
 * (up to 2^64), anything else is a double printed with "%.15g", and an
 * integral double below 2^53 counts as an integer again when it is used
 * as an operand (Perl's IV "please" rule). This decides output such as
 * "1e+20" for a sum past 2^64 and the truncation in difffolded.pl -n.
 */
#ifndef PD_TOOLS_DIFF_NUM_H
#define PD_TOOLS_DIFF_NUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pnum {
	bool nv;	/* a double (d), else an unsigned integer (uv) */
	uint64_t uv;
	double d;
};

/* A count as difffolded.pl matches it: \d+(\.\d*)? (len bytes). */
struct pnum pnum_parse(const char *s, size_t len);

struct pnum pnum_add(struct pnum a, struct pnum b);
bool pnum_eq(struct pnum a, struct pnum b);
bool pnum_is_zero(struct pnum a);
double pnum_double(struct pnum a);

/*
 * difffolded.pl -n: int(c * total_b / total_a). total_a must not be zero
 * (Perl dies "Illegal division by zero"; the caller reports it).
 */
struct pnum pnum_scale(struct pnum c, struct pnum total_b, struct pnum total_a);

/* As Perl stringifies it; buf of at least 32 bytes. Returns the length. */
int pnum_format(struct pnum a, char *buf, size_t size);

#endif /* PD_TOOLS_DIFF_NUM_H */
