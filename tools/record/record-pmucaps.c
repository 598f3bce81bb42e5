// SPDX-License-Identifier: MIT
/*
 * The PMU capabilities of sysfs (/sys/bus/event_source/devices/PMU/caps,
 * one file per capability) as perf 6.1 record writes them:
 *
 * CPU_PMU_CAPS, where there is a "cpu" PMU: u32 nr, then {name, value}
 * strings (a PMU without caps gives nr 0).
 * PMU_CAPS: u32 nr of the other PMUs that have caps, then per PMU its
 * caps as above and its name; hybrid PMUs (cpu_core, cpu_atom) first.
 *
 * A value is the first line of its file, at most 127 bytes, less its
 * last character (the newline); PMUs and caps in directory order; a PMU
 * is one with a readable "type" file, as perf finds them.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record.h"
#include "common/bytes.h"

#define PMU_DIR	"/sys/bus/event_source/devices"

static bool is_pmu(const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), PMU_DIR "/%s/type", name);
	return access(path, R_OK) == 0;
}

static bool is_hybrid(const char *name)
{
	char path[512];

	if (strncmp(name, "cpu_", 4))
		return false;
	snprintf(path, sizeof(path), PMU_DIR "/%s/cpus", name);
	return access(path, F_OK) == 0;
}

/* u32 nr, {name, value}...: the caps of pmu; their number, or -1 */
static int put_caps(struct bytes *b, const char *pmu)
{
	char dir[512];
	struct dirent *d;
	struct stat st;
	uint32_t nr = 0;
	size_t at = b->len;
	DIR *dp;

	snprintf(dir, sizeof(dir), PMU_DIR "/%s/caps", pmu);
	bytes__u32(b, 0);
	if (stat(dir, &st))
		return 0;
	dp = opendir(dir);
	if (!dp)
		return -1;
	while ((d = readdir(dp))) {
		char path[1024], value[128];
		size_t len;
		FILE *f;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(value, sizeof(value), f)) {
			fclose(f);
			continue;
		}
		fclose(f);
		len = strlen(value);
		if (len)
			value[len - 1] = '\0';
		rec_bytes_string(b, d->d_name);
		rec_bytes_string(b, value);
		nr++;
	}
	closedir(dp);
	if (!b->oom)
		memcpy(b->p + at, &nr, 4);
	return nr;
}

static int set_cpu_pmu_caps(struct pd_writer *w)
{
	struct bytes b = { 0 };
	int err;

	if (!is_pmu("cpu"))
		return 0;
	if (put_caps(&b, "cpu") < 0) {
		free(b.p);
		return 0;	/* perf drops the feature too */
	}
	err = b.oom ? -ENOMEM :
	      pd_writer__set_feature(w, PD_FEAT_CPU_PMU_CAPS, b.p, b.len);
	free(b.p);
	return err;
}

/* the PMUs but "cpu", hybrid ones first, in directory order */
static int pmu_names(char ***names, size_t *nr)
{
	DIR *dp = opendir(PMU_DIR);
	struct dirent *d;
	int pass;

	*names = NULL;
	*nr = 0;
	if (!dp)
		return 0;
	for (pass = 0; pass < 2; pass++) {
		rewinddir(dp);
		while ((d = readdir(dp))) {
			char **v;

			if (d->d_name[0] == '.' || !strcmp(d->d_name, "cpu") ||
			    is_hybrid(d->d_name) != (pass == 0) ||
			    !is_pmu(d->d_name))
				continue;
			v = realloc(*names, (*nr + 1) * sizeof(*v));
			if (!v || !(v[*nr] = strdup(d->d_name))) {
				if (v)
					*names = v;
				closedir(dp);
				return -ENOMEM;
			}
			*names = v;
			(*nr)++;
		}
	}
	closedir(dp);
	return 0;
}

static int set_pmu_caps(struct pd_writer *w)
{
	struct bytes b = { 0 };
	uint32_t nr = 0;
	char **names;
	size_t n, i;
	int err;

	err = pmu_names(&names, &n);
	bytes__u32(&b, 0);
	for (i = 0; !err && i < n; i++) {
		size_t at = b.len;

		if (put_caps(&b, names[i]) <= 0) {
			b.len = b.oom ? b.len : at;	/* none: not listed */
			continue;
		}
		rec_bytes_string(&b, names[i]);
		nr++;
	}
	if (!err && !b.oom) {
		memcpy(b.p, &nr, 4);
		err = pd_writer__set_feature(w, PD_FEAT_PMU_CAPS, b.p, b.len);
	} else if (!err) {
		err = -ENOMEM;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(b.p);
	return err;
}

int rec_features_pmu_caps(struct pd_writer *w)
{
	int err = set_cpu_pmu_caps(w);

	return err ? err : set_pmu_caps(w);
}
