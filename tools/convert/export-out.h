/* SPDX-License-Identifier: MIT */
/*
 * The output of pd-convert --to=FORMAT: export_out__open() gives the
 * stream to write (standard output for "-", else a temporary file next to
 * the output), export_out__close() renames it over the output when the
 * run succeeded and removes it otherwise, so a failed run leaves no file.
 */
#ifndef PD_TOOLS_EXPORT_OUT_H
#define PD_TOOLS_EXPORT_OUT_H

#include <stdbool.h>
#include <stdio.h>

struct export_out {
	FILE *f;
	const char *name;	/* for messages: the output or "<stdout>" */
	char *tmp;		/* the temporary file, or NULL for stdout */
	const char *path;
};

/* 0, or PD_EXIT_DATA (printed). */
int export_out__open(struct export_out *out, const char *path);
/*
 * ok: keep the output (flushed and renamed into place); else remove it.
 * Returns PD_EXIT_OK or PD_EXIT_DATA (a write error, printed).
 */
int export_out__close(struct export_out *out, bool ok);

#endif /* PD_TOOLS_EXPORT_OUT_H */
