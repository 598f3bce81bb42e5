// SPDX-License-Identifier: MIT
/*
 * Tracepoints: where tracefs is, and the tracing data blob (the
 * TRACING_DATA feature) that lets readers decode RAW samples: the format
 * files of the recorded tracepoints, grouped by system, with the page
 * and event headers and the printk formats. Numbers in host order, with
 * the byte order stated inside (version 0.6, as perf writes).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record.h"
#include "common/bytes.h"

#define FILE_MAX	(16 << 20)	/* printk_formats is ~100 KiB */

const char *rec_tracefs(void)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	static const char *found;
	static bool tried;
	struct stat st;
	size_t i;

	if (tried)
		return found;
	tried = true;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!stat(dirs[i], &st) && S_ISDIR(st.st_mode)) {
			char p[128];

			snprintf(p, sizeof(p), "%s/events", dirs[i]);
			if (!stat(p, &st))
				return found = dirs[i];
		}
	/* not mounted: mount it where perf would (needs root) */
	if (!mount("nodev", dirs[0], "tracefs", 0, NULL))
		return found = dirs[0];
	return NULL;
}

/* A whole tracefs file (their stat size is 0: read to the end). */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	*len = 0;
	if (!f)
		return NULL;
	do {
		if (n == cap) {
			char *v;

			cap = cap ? cap * 2 : 8192;
			v = cap <= FILE_MAX ? realloc(buf, cap) : NULL;
			if (!v) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = v;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	fclose(f);
	*len = n;
	return buf;
}

/* u64 (or u32) size, then the file's text; size 0 if unreadable */
static int put_file(struct bytes *b, const char *dir, const char *name,
		    bool u64_size, bool required)
{
	char path[512];
	size_t len;
	char *text;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	text = slurp(path, &len);
	if (!text && required)
		return -errno ? -errno : -EIO;
	if (u64_size)
		bytes__u64(b, len);
	else
		bytes__u32(b, len);
	bytes__put(b, text, len);
	free(text);
	return 0;
}

int rec_tracing_data(const struct rec_event *evs, size_t nr, void **data,
		     size_t *size, char *err, size_t errlen)
{
	const char *dir = rec_tracefs();
	struct bytes b = { 0 };
	uint32_t nsys = 0;
	uint8_t u8;
	size_t i, j, count_at;
	int e;

	*data = NULL;
	*size = 0;
	if (!dir) {
		snprintf(err, errlen, "no tracefs");
		return -ENOENT;
	}
	bytes__put(&b, "\027\010Dtracing0.6", 14);
	u8 = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	bytes__put(&b, &u8, 1);
	u8 = sizeof(long);
	bytes__put(&b, &u8, 1);
	bytes__u32(&b, sysconf(_SC_PAGESIZE));
	bytes__put(&b, "header_page", 12);
	e = put_file(&b, dir, "events/header_page", true, true);
	bytes__put(&b, "header_event", 13);
	if (!e)
		e = put_file(&b, dir, "events/header_event", true, true);
	if (e) {
		snprintf(err, errlen, "%s/events/header_page: %s", dir,
			 strerror(-e));
		free(b.p);
		return e;
	}
	bytes__u32(&b, 0);		/* no ftrace-internal formats */
	count_at = b.len;
	bytes__u32(&b, 0);		/* systems, counted below */
	for (i = 0; i < nr; i++) {
		uint32_t nev = 0;
		size_t at;

		if (!evs[i].tp_system)
			continue;
		for (j = 0; j < i; j++)
			if (evs[j].tp_system &&
			    !strcmp(evs[j].tp_system, evs[i].tp_system))
				break;
		if (j < i)
			continue;	/* system already written */
		nsys++;
		bytes__put(&b, evs[i].tp_system, strlen(evs[i].tp_system) + 1);
		at = b.len;
		bytes__u32(&b, 0);
		for (j = i; j < nr; j++) {
			char name[512];
			size_t k;

			if (!evs[j].tp_system ||
			    strcmp(evs[j].tp_system, evs[i].tp_system))
				continue;
			for (k = i; k < j; k++)
				if (evs[k].tp_system &&
				    !strcmp(evs[k].tp_system, evs[j].tp_system) &&
				    !strcmp(evs[k].tp_event, evs[j].tp_event))
					break;
			if (k < j)
				continue;	/* same tracepoint twice */
			snprintf(name, sizeof(name), "events/%s/%s/format",
				 evs[j].tp_system, evs[j].tp_event);
			e = put_file(&b, dir, name, true, true);
			if (e) {
				snprintf(err, errlen, "%s/%s: %s", dir, name,
					 strerror(-e));
				free(b.p);
				return e;
			}
			nev++;
		}
		if (!b.oom)
			memcpy(b.p + at, &nev, 4);
	}
	if (!b.oom)
		memcpy(b.p + count_at, &nsys, 4);
	bytes__u32(&b, 0);		/* no kallsyms: readers take /proc/kallsyms */
	put_file(&b, dir, "printk_formats", false, false);
	bytes__u64(&b, 0);		/* no saved_cmdlines: COMM records name tasks */
	if (b.oom) {
		free(b.p);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	*data = b.p;
	*size = b.len;
	return 0;
}
