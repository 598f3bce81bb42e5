/* SPDX-License-Identifier: MIT */
/*
 * Flame graphs as SVG, without perl: folded stacks ("a;b;c COUNT") or
 * differential lines ("a;b;c COUNT_A COUNT_B", pd-diff's) in, one
 * self-contained interactive SVG out. The frames are laid out as
 * flamegraph.pl lays them out (same x, width and depth for the same
 * input and options); colours, the script and the markup are ours.
 *
 * pd-flame, pd-fold --svg and pd-diff --svg share this code:
 *
 *	struct flame *fl = flame__new(&opts);
 *	flame__read(fl, in, "name");	(any number of times)
 *	flame__write_svg(fl, out);
 *	flame__free(fl);
 */
#ifndef PD_TOOLS_FLAME_H
#define PD_TOOLS_FLAME_H

#include <stdbool.h>
#include <stdio.h>

/* The options, named and defaulted as flamegraph.pl's. */
struct flame_opts {
	const char *title;	/* NULL: "Flame Graph", "Icicle Graph", "Flame Chart" */
	const char *subtitle;	/* NULL: none */
	const char *fonttype;
	const char *countname;
	const char *nametype;
	const char *colors;	/* palette name */
	const char *bgcolors;	/* NULL: the palette's */
	const char *notes;	/* NULL: none */
	int width;		/* image width, pixels */
	int frameheight;	/* --height */
	double fontsize;
	double fontwidth;	/* average glyph width / fontsize */
	double minwidth;	/* pixels, or percent of the total */
	bool minwidth_pct;
	double total;		/* --total: 0 = the sum of the counts */
	bool hash;		/* colours from the name's position in sort order */
	bool reverse;		/* stacks leaf first: merge from the leaves */
	bool inverted;		/* icicle graph: root at the top */
	bool flamechart;	/* keep input order, merge adjacent stacks only */
	bool negate;		/* differential: swap red and blue */
};

void flame_opts__init(struct flame_opts *o);

struct flame;

/* NULL when out of memory. */
struct flame *flame__new(const struct flame_opts *o);
void flame__free(struct flame *fl);

/*
 * Reads every line of in (name: for messages). Lines that are not
 * "STACK COUNT" or "STACK COUNT COUNT" are counted and skipped, as
 * flamegraph.pl skips them; flame__write_svg() warns once about them.
 * 0, or -errno (read error or out of memory; printed).
 */
int flame__read(struct flame *fl, FILE *in, const char *name);

/*
 * Lays out the stacks read so far and writes the SVG. Returns 0, or
 * -ENODATA when no stack had a count (an SVG that says so is written
 * and the error printed), -EDOM when the counts add up past what a
 * double holds, -ENOMEM. Write errors are the stream's.
 */
int flame__write_svg(struct flame *fl, FILE *out);

#endif /* PD_TOOLS_FLAME_H */
