// SPDX-License-Identifier: MIT
/*
 * pd_reader__read_ahead() (stream-ahead.c) against reading on one thread:
 * on every recording of testdata/ and testdata/newer/ (compressed ones,
 * EVENT_UPDATE and other records the thread stops before among them), in
 * file and time order, each cut short too, and strict: the same records
 * (type, misc, size, offsets, flags, bytes), the same end (return value,
 * error message) and the same messages, each after the same record.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/reader.h>

#include "recordings.h"
#include "tap.h"

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
			 (unsigned long long)hash_bytes(HASH_START, ev->raw,
							ev->size));
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
	dir_files(top, "testdata", tmp, compare);
	dir_files(top, "testdata/newer", tmp, compare);
	rmdir(tmp);
	CHECK(tap_n > 100, "%d readings compared", tap_n);
	return tap_done();
}
