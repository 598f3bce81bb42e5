// SPDX-License-Identifier: MIT
/*
 * pd_reader__read_ahead() (stream-ahead.c) against reading on one thread:
 * on every recording of testdata/ and testdata/newer/ (compressed ones,
 * EVENT_UPDATE and other records the thread stops before among them), in
 * file and time order, each cut short too, and strict: the same records
 * (type, misc, size, offsets, flags, bytes), the same end (return value,
 * error message) and the same messages, each after the same record.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/reader.h>

#include "tap.h"

/* what a reading gave, as text: a line per record and per message */
struct trace {
	char *buf;
	size_t len, cap;
	unsigned long nr_records;
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

static void log_fn(enum pd_log_level level, const char *msg, void *ctx)
{
	struct trace *t = ctx;
	char line[700];

	snprintf(line, sizeof(line), "after %lu: log %d %s\n", t->nr_records,
		 (int)level, msg);
	add(t, line);
}

static uint64_t hash(const uint8_t *p, size_t n)
{
	uint64_t h = 1469598103934665603ULL;

	while (n--)
		h = (h ^ *p++) * 1099511628211ULL;
	return h;
}

static void read_all(const char *path, enum pd_order order, bool strict,
		     bool ahead, struct trace *t)
{
	struct pd_reader_opts o = {
		.sz = sizeof(o), .order = order, .strict = strict,
		.log = log_fn, .log_ctx = t,
	};
	const struct pd_event *ev;
	struct pd_reader *r;
	char line[400];
	int ret;

	memset(t, 0, sizeof(*t));
	add(t, "");
	r = pd_reader__open(path, &o);
	if (!r) {
		add(t, "open failed\n");
		return;
	}
	/* (a pipe is read on this thread: -ENOTSUP, the same records) */
	if (ahead)
		pd_reader__read_ahead(r);
	while ((ret = pd_reader__next(r, &ev)) > 0) {
		snprintf(line, sizeof(line),
			 "%u %u %u %#llx %#llx %u %016llx\n", ev->type,
			 ev->misc, ev->size, (unsigned long long)ev->offset,
			 (unsigned long long)ev->inner_offset, ev->flags,
			 (unsigned long long)hash(ev->raw, ev->size));
		add(t, line);
		t->nr_records++;
	}
	snprintf(line, sizeof(line), "end %d %s\n", ret,
		 ret < 0 ? pd_reader__errmsg(r) : "");
	add(t, line);
	/* after the end, as before it */
	snprintf(line, sizeof(line), "again %d\n", pd_reader__next(r, &ev));
	add(t, line);
	pd_reader__close(r);
}

static void compare(const char *path, const char *name)
{
	static const enum pd_order orders[] = { PD_ORDER_FILE, PD_ORDER_TIME };
	struct trace one, two;
	int i, strict;

	for (i = 0; i < 2; i++) {
		for (strict = 0; strict < 2; strict++) {
			read_all(path, orders[i], strict, false, &one);
			read_all(path, orders[i], strict, true, &two);
			CHECK(one.len == two.len && !memcmp(one.buf, two.buf, one.len),
			      "%s, %s order%s: %lu records and their messages alike",
			      name, i ? "time" : "file", strict ? ", strict" : "",
			      one.nr_records);
			free(one.buf);
			free(two.buf);
		}
	}
}

/* path cut to its first size * num / den bytes, in a file of tmp's */
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

static void dir_files(const char *top, const char *sub, const char *tmp)
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

int main(void)
{
	const char *top = getenv("PD_TOP");
	char tmp[] = "/tmp/pd-read-ahead-XXXXXX";

	if (!top)
		top = ".";
	if (!mkdtemp(tmp)) {
		CHECK(false, "a temporary directory");
		return tap_done();
	}
	dir_files(top, "testdata", tmp);
	dir_files(top, "testdata/newer", tmp);
	rmdir(tmp);
	CHECK(tap_n > 100, "%d readings compared", tap_n);
	return tap_done();
}
