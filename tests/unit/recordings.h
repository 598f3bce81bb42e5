/* SPDX-License-Identifier: MIT */
/*
 * For the unit tests that read every recording of testdata/ two ways and
 * compare what each gave (test-read-ahead.c, test-in-file.c): a reading
 * kept as text, a line per record and per message, and the walk over the
 * recordings, each also cut short.
 */
#ifndef PD_TEST_RECORDINGS_H
#define PD_TEST_RECORDINGS_H

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/errors.h>

/* what a reading gave, as text: a line per record and per message */
struct trace {
	char *buf;
	size_t len, cap;
	unsigned long nr_records, nr_stacks, nr_aux;
};

static void add(struct trace *t, const char *s)
{
	size_t n = strlen(s);

	if (t->len + n + 1 > t->cap) {
		t->cap = (t->len + n + 1) * 2;
		t->buf = realloc(t->buf, t->cap);
		if (!t->buf)
			abort();
	}
	memcpy(t->buf + t->len, s, n + 1);
	t->len += n;
}

/* FNV-1a of n bytes at p, from h (HASH_START for a first part) */
#define HASH_START	1469598103934665603ULL

static uint64_t hash_bytes(uint64_t h, const uint8_t *p, size_t n)
{
	while (n--)
		h = (h ^ *p++) * 1099511628211ULL;
	return h;
}

/* the reader's log callback: each message after the records before it */
static void log_fn(enum pd_log_level level, const char *msg, void *ctx)
{
	struct trace *t = ctx;
	char line[700];

	snprintf(line, sizeof(line), "after %lu: log %d %s\n", t->nr_records,
		 (int)level, msg);
	add(t, line);
}

/* path cut to its first size * num / den bytes, in the file to */
static bool cut(const char *path, const char *to, int num, int den)
{
	FILE *in = fopen(path, "rb"), *out;
	char *buf;
	long n;

	if (!in)
		return false;
	fseek(in, 0, SEEK_END);
	n = ftell(in) * num / den;
	rewind(in);
	buf = malloc(n ? n : 1);
	out = fopen(to, "wb");
	if (!buf || !out || fread(buf, 1, n, in) != (size_t)n ||
	    fwrite(buf, 1, n, out) != (size_t)n) {
		free(buf);
		fclose(in);
		if (out)
			fclose(out);
		return false;
	}
	free(buf);
	fclose(in);
	return !fclose(out);
}

/* compare() on each recording of top/sub, then on it cut to 2/3, in tmp */
static void dir_files(const char *top, const char *sub, const char *tmp,
		      void (*compare)(const char *path, const char *name))
{
	char dir[4096], path[4600], name[600], cutp[4200];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/%s", top, sub);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n < 6 || strcmp(de->d_name + n - 5, ".data"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		snprintf(name, sizeof(name), "%s/%s", sub, de->d_name);
		compare(path, name);
		snprintf(cutp, sizeof(cutp), "%s/cut.data", tmp);
		if (cut(path, cutp, 2, 3)) {
			snprintf(name, sizeof(name), "%s/%s cut short", sub,
				 de->d_name);
			compare(cutp, name);
			unlink(cutp);
		}
	}
	closedir(d);
}

#endif /* PD_TEST_RECORDINGS_H */
