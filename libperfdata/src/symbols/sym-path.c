// SPDX-License-Identifier: MIT
/*
 * Where the symbolizer looks for a file: the path under --symfs, and
 * whether a regular file is there. Every loader that looks for files
 * asks these, so they sit below all of them.
 */
#include <stdio.h>
#include <sys/stat.h>

#include "sym-internal.h"

void sym_join_symfs(const struct pd_symbolizer *s, char *buf, size_t size,
		    const char *path)
{
	snprintf(buf, size, "%s%s", s->symfs ? s->symfs : "", path);
}

bool sym_is_regular_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}
