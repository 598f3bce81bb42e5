/* SPDX-License-Identifier: MIT */
/*
 * What the flame-*.c modules share: the stacks as read (flame-parse.c),
 * the frames laid out (flame-layout.c), colours (flame-color.c), the
 * SVG writer (flame-svg.c) and its script (flame-js.c).
 */
#ifndef PD_TOOLS_FLAME_IMPL_H
#define PD_TOOLS_FLAME_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "flame.h"

/* One input line that parsed. */
struct flame_line {
	const char *key;	/* what lines are sorted by (the line, or reversed) */
	size_t key_len;
	size_t stack_len;	/* the stack: key[0 .. stack_len) */
	double count;		/* the width: the last column */
	double delta;		/* differential: last column - first */
	bool has_delta;
};

/* One frame as drawn: [stime, etime) in counts, depth 0 = "all". */
struct flame_frame {
	const char *name;
	size_t len;
	unsigned int depth;
	bool has_delta;
	bool waker;		/* below a "--" frame: chain graphs' wakers */
	double stime, etime;
	double delta;
};

struct flame {
	struct flame_opts o;
	struct tool_arena arena;	/* --reverse's keys, names */
	char **bufs;			/* the inputs, whole: lines point into them */
	size_t *mapped;			/* per buffer: its mapped size, 0: malloc'd */
	size_t nbufs, bufs_cap;
	struct flame_line *lines;
	size_t nlines, lines_cap;
	unsigned long bad_lines;
	unsigned long first_bad_lineno;
	const char *first_bad_name;	/* in the arena */
	bool failed;			/* out of memory while reading */

	/* the layout */
	struct flame_frame *frames;
	size_t nframes, frames_cap;
	double time;		/* the sum of the widths */
	double timemax;		/* time, or --total */
	double maxdelta;
	double min_time;	/* frames narrower than this are not drawn */
	unsigned int depthmax;
};

/* flame-sort.c: the lines in flamegraph.pl's order (bytewise). 0 or -ENOMEM. */
int flame_sort_lines(struct flame *fl);

/* flame-layout.c: frames from lines, pruned; 0 or -ENOMEM/-ENODATA/-EDOM. */
int flame_layout(struct flame *fl);

/* flame-color.c */
bool flame_palette_known(const char *name);
bool flame_bgcolors_known(const char *name);
/* "rgb(r,g,b)" for a frame name (len bytes) in palette o->colors. */
void flame_color(const struct flame_opts *o, const char *name, size_t len,
		 bool waker, char *buf, size_t size);
/* differential: white at 0, red growing, blue shrinking (swapped by negate) */
void flame_color_delta(double delta, double maxdelta, bool negate,
		       char *buf, size_t size);
/* the background gradient's two stops */
void flame_bg(const struct flame_opts *o, const char **c1, const char **c2);

/* flame-js.c: the stylesheet and script embedded in every SVG */
extern const char flame_css[];
extern const char flame_js[];

/* flame-num.c: v as "%.Nf" prints it (N <= 3 fast), in buf (>= 32 bytes). */
size_t flame_fixed(char *buf, size_t size, double v, unsigned int decimals);

/* The name without a trailing _[k], _[w], _[i] or _[j] annotation. */
size_t flame_name_len(const char *name, size_t len);

#endif /* PD_TOOLS_FLAME_IMPL_H */
