// SPDX-License-Identifier: MIT
/*
 * The manifest of an extracted archive, read for the build ids of its
 * files: a pipe recording names no build id, so perf on the reading
 * machine finds the archive's copies in its build-id cache only once the
 * perf.data names them (pd-convert --from-archive).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive-manifest.h"
#include "common/hex.h"

/* A manifest path field: \t, \n and \\ written escaped. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*o++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s;
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
}

/* A kernel module's path: its entry has the kernel's cpumode. */
static bool is_module(const char *path)
{
	const char *dot = strstr(path, ".ko");

	return dot && (!dot[3] || dot[3] == '.');
}

/* One elf line's build id and recorded path into b; false if malformed. */
static bool parse_elf(char *line, struct pd_build_id *b)
{
	char *f[7], *save = NULL;
	size_t n, i;

	for (n = 0; n < 7; n++) {
		f[n] = strtok_r(n ? NULL : line, "\t", &save);
		if (!f[n])
			return false;
	}
	if (strcmp(f[0], "elf"))
		return false;
	n = strlen(f[4]);
	if (n % 2 || !n || n > 40)
		return false;
	memset(b, 0, sizeof(*b));
	for (i = 0; i < n / 2; i++) {
		int hi = hex_lower(f[4][2 * i]), lo = hex_lower(f[4][2 * i + 1]);

		if (hi < 0 || lo < 0)
			return false;
		b->id[i] = hi << 4 | lo;
	}
	b->size = n / 2;
	unescape(f[5]);
	b->filename = strdup(f[5]);
	b->pid = -1;
	b->misc = is_module(f[5]) ? PD_MISC_KERNEL : PD_MISC_USER;
	return b->filename != NULL;
}

int archive_manifest__build_ids(const char *dir, struct pd_build_id **ids,
				size_t *nr)
{
	struct pd_build_id *v = NULL, b;
	size_t n = 0, cap = 0;
	char path[4200], *line = NULL;
	size_t len = 0;
	ssize_t got;
	FILE *f;

	*ids = NULL;
	*nr = 0;
	snprintf(path, sizeof(path), "%s/manifest", dir);
	f = fopen(path, "r");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while ((got = getline(&line, &len, f)) > 0) {
		if (line[got - 1] == '\n')
			line[got - 1] = 0;
		if (!parse_elf(line, &b))
			continue;
		if (n == cap) {
			struct pd_build_id *p;

			cap = cap ? 2 * cap : 16;
			p = realloc(v, cap * sizeof(*v));
			if (!p) {
				free((char *)b.filename);
				break;
			}
			v = p;
		}
		v[n++] = b;
	}
	free(line);
	fclose(f);
	*ids = v;
	*nr = n;
	return 0;
}

void archive_manifest__free(struct pd_build_id *ids, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free((char *)ids[i].filename);
	free(ids);
}

/*
 * The kernel build id of the manifest's kallsyms line ("kallsyms",
 * member, size, sha, build id or "-"), as 40 hex digits into hx.
 */
bool archive_manifest__kernel_build_id(const char *dir, char *hx, size_t len)
{
	char path[4200], *line = NULL, *f[5], *save = NULL;
	size_t n = 0, i;
	bool found = false;
	ssize_t got;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/manifest", dir);
	fp = fopen(path, "r");
	if (!fp)
		return false;
	while (!found && (got = getline(&line, &n, fp)) > 0) {
		if (line[got - 1] == '\n')
			line[got - 1] = 0;
		for (i = 0; i < 5; i++) {
			f[i] = strtok_r(i ? NULL : line, "\t", &save);
			if (!f[i])
				break;
		}
		if (i < 5 || strcmp(f[0], "kallsyms") || !strcmp(f[4], "-") ||
		    strlen(f[4]) >= len || strspn(f[4], "0123456789abcdef") != strlen(f[4]))
			continue;
		memcpy(hx, f[4], strlen(f[4]) + 1);
		found = true;
	}
	free(line);
	fclose(fp);
	return found;
}
