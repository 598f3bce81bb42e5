// SPDX-License-Identifier: MIT
/*
 * Where the symbolizer looks for a file: the path under --symfs or under
 * a --root, and whether a regular file is there. Every loader that looks
 * for files asks these, so they sit below all of them.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "sym-internal.h"

void sym_join_symfs(const struct pd_symbolizer *s, char *buf, size_t size,
		    const char *path)
{
	snprintf(buf, size, "%s%s", s->symfs ? s->symfs : "", path);
}

/*
 * A root is a tree the recorded paths are relative to (a container's
 * image), so a trailing '/' of DIR is dropped, as --symfs's is.
 */
int sym_join_root(const struct pd_symbolizer *s, size_t root, char *buf,
		  size_t size, const char *path)
{
	const char *dir = s->roots[root];
	size_t n = strlen(dir);
	int len;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	len = snprintf(buf, size, "%.*s%s", (int)n, dir, path);
	return len > 0 && (size_t)len < size ? 0 : -1;
}

bool sym_is_regular_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}
