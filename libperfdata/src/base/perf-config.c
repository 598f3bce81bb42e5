// SPDX-License-Identifier: MIT
/*
 * What of perf's own configuration the library heeds: buildid.dir, the
 * build-id cache perf reads binaries from when their recorded paths are
 * gone or hold other builds. perf reads the file $PERF_CONFIG names, else
 * /etc/perfconfig then ~/.perfconfig, a later setting winning, in
 * git-config syntax.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include <perfdata/symbols.h>

/* "dir = VALUE" of a "[buildid]" section, into out; the last one wins. */
static void scan_file(const char *path, char *out, size_t size)
{
	FILE *f = fopen(path, "re");
	bool in_buildid = false;
	char *line = NULL, *p, *v, *e;
	size_t cap = 0;

	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		p = line + strspn(line, " \t");
		p[strcspn(p, "\r\n")] = '\0';
		if (*p == '[') {
			e = strchr(p, ']');
			in_buildid = e && e - p == 8 && !strncasecmp(p + 1, "buildid", 7);
			continue;
		}
		if (!in_buildid || strncasecmp(p, "dir", 3))
			continue;
		v = p + 3 + strspn(p + 3, " \t");
		if (*v != '=')
			continue;
		v += 1 + strspn(v + 1, " \t");
		e = v + strlen(v);
		while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
			*--e = '\0';
		if (e - v >= 2 && *v == '"' && e[-1] == '"') {
			e[-1] = '\0';
			v++;
		}
		snprintf(out, size, "%s", v);
	}
	free(line);
	fclose(f);
}

PD_EXPORT bool pd_perf_config_buildid_dir(char *out, size_t size)
{
	const char *env = getenv("PERF_CONFIG"), *home = getenv("HOME");
	char user[4096];

	if (!size)
		return false;
	out[0] = '\0';
	if (env) {
		scan_file(env, out, size);
	} else {
		scan_file("/etc/perfconfig", out, size);
		if (home && *home) {
			snprintf(user, sizeof(user), "%s/.perfconfig", home);
			scan_file(user, out, size);
		}
	}
	return out[0] != '\0';
}
