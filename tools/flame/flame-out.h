/* SPDX-License-Identifier: MIT */
/*
 * Writing a flame graph to its destination, for pd-flame and for the
 * tools that draw in-process (pd-fold --svg, pd-diff --svg): standard
 * output, or a temporary file beside the named output renamed over it
 * once complete, so a failed run leaves no partial SVG.
 */
#ifndef PD_TOOLS_FLAME_OUT_H
#define PD_TOOLS_FLAME_OUT_H

#include <stdio.h>

#include "flame.h"

/*
 * Writes fl's SVG to path (NULL or "-": standard output). Returns an
 * exit code: PD_EXIT_OK, or PD_EXIT_DATA (printed) on an I/O error or
 * when there were no counts (the SVG that says so is still written).
 */
int flame_out__write(struct flame *fl, const char *path);

/*
 * The folded text produce() writes to its stream (return 0, or an exit
 * code it has printed the reason for), drawn with opts into path.
 */
int flame_out__draw(const struct flame_opts *opts,
		    int (*produce)(FILE *out, void *arg), void *arg,
		    const char *path);

#endif /* PD_TOOLS_FLAME_OUT_H */
