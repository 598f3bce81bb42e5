// SPDX-License-Identifier: MIT
/*
 * The maps of the loaded kernel modules, synthesized as perf record does
 * so that kernel samples in a module resolve: one MMAP per module (misc
 * KERNEL, pid -1) from /proc/modules' address and size, named by the
 * module's file under /lib/modules/RELEASE when there is one, else
 * "[name]", in address order.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "record.h"

#define REC_MAX		4096
#define MAX_DEPTH	8	/* /lib/modules trees are a few levels deep */

struct module {
	char name[64];		/* as /proc/modules has it: '_', not '-' */
	uint64_t start, size;
	char *path;		/* the .ko found, or NULL */
};

struct modules {
	struct module *m;
	size_t nr, cap;
};

/*
 * /sys/module/NAME/sections/.text, where /proc/modules shows no address
 * (it shows 0 to whom kptr_restrict hides them; the section file is
 * root's only, so this helps little, but costs nothing).
 */
static uint64_t text_section(const char *name)
{
	char path[128];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/%s/sections/.text", name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llx", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

/* "name size refcount deps state 0xaddress [taints]" per line */
static int read_modules(struct modules *ms)
{
	FILE *f = fopen("/proc/modules", "r");
	char line[4096];

	if (!f)
		return 0;	/* no modules (or no module support) */
	while (fgets(line, sizeof(line), f)) {
		struct module mod = { 0 };
		unsigned long long size;
		char *x = strstr(line, " 0x");

		if (sscanf(line, "%63s %llu", mod.name, &size) != 2 || !x)
			continue;
		mod.size = size;
		mod.start = strtoull(x + 1, NULL, 16);
		if (!mod.start)
			mod.start = text_section(mod.name);
		if (!mod.start)
			continue;
		if (ms->nr == ms->cap) {
			size_t cap = ms->cap ? 2 * ms->cap : 64;
			struct module *m = realloc(ms->m, cap * sizeof(*m));

			if (!m) {
				fclose(f);
				return -ENOMEM;
			}
			ms->m = m;
			ms->cap = cap;
		}
		ms->m[ms->nr++] = mod;
	}
	fclose(f);
	return 0;
}

/* The module a file name is of ("nf-nat.ko.xz" is nf_nat), or NULL. */
static struct module *module_of(struct modules *ms, const char *file)
{
	const char *ko = strstr(file, ".ko");
	char name[64];
	size_t len, i;

	if (!ko || (ko[3] && strcmp(ko + 3, ".gz") && strcmp(ko + 3, ".xz") &&
		    strcmp(ko + 3, ".zst")))
		return NULL;
	len = ko - file;
	if (len >= sizeof(name))
		return NULL;
	for (i = 0; i < len; i++)
		name[i] = file[i] == '-' ? '_' : file[i];
	name[len] = '\0';
	for (i = 0; i < ms->nr; i++)
		if (!strcmp(ms->m[i].name, name))
			return &ms->m[i];
	return NULL;
}

/* Walk /lib/modules/RELEASE (not its source and build links) for .ko files. */
static int find_files(struct modules *ms, const char *dir, int depth)
{
	DIR *dp = opendir(dir);
	struct dirent *d;
	int err = 0;

	if (!dp)
		return 0;
	while (!err && (d = readdir(dp))) {
		char path[4096];
		struct module *m;
		struct stat st;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (depth == 0 && (!strcmp(d->d_name, "source") ||
				   !strcmp(d->d_name, "build")))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     d->d_name) >= sizeof(path) ||
		    stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (depth < MAX_DEPTH)
				err = find_files(ms, path, depth + 1);
			continue;
		}
		m = module_of(ms, d->d_name);
		if (m && !m->path) {
			m->path = strdup(path);
			if (!m->path)
				err = -ENOMEM;
		}
	}
	closedir(dp);
	return err;
}

static int by_start(const void *a, const void *b)
{
	const struct module *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

int rec_synth_modules(const struct pd_attr *attr, rec_emit_fn emit, void *ctx)
{
	struct modules ms = { 0 };
	struct utsname u;
	uint8_t rec[REC_MAX];
	int32_t pid = -1, tid = 0;
	size_t i;
	int err = read_modules(&ms);

	if (!err && ms.nr && uname(&u) == 0) {
		char dir[512];

		snprintf(dir, sizeof(dir), "/lib/modules/%s", u.release);
		err = find_files(&ms, dir, 0);
	}
	if (ms.nr)
		qsort(ms.m, ms.nr, sizeof(*ms.m), by_start);
	for (i = 0; !err && i < ms.nr; i++) {
		const struct module *m = &ms.m[i];
		char bracketed[70];
		const char *name = m->path;
		uint64_t pgoff = 0;
		size_t n = 8;

		if (!name || strlen(name) > 2048) {
			snprintf(bracketed, sizeof(bracketed), "[%s]", m->name);
			name = bracketed;
		}
		memcpy(rec + n, &pid, 4);
		memcpy(rec + n + 4, &tid, 4);
		memcpy(rec + n + 8, &m->start, 8);
		memcpy(rec + n + 16, &m->size, 8);
		memcpy(rec + n + 24, &pgoff, 8);
		n += 32;
		n += rec_synth_name(rec + n, name);
		n += rec_synth_trailer(rec + n, attr, -1, 0);
		rec_synth_header(rec, PD_RECORD_MMAP, PD_MISC_KERNEL, n);
		err = emit(ctx, rec, attr);
	}
	for (i = 0; i < ms.nr; i++)
		free(ms.m[i].path);
	free(ms.m);
	return err;
}
