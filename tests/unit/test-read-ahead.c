// SPDX-License-Identifier: MIT
/*
 * pd_reader__read_ahead() (stream-ahead.c) against reading on one thread:
 * on every recording of testdata/ and testdata/newer/ (compressed ones,
 * EVENT_UPDATE and other records the thread stops before among them), in
 * file and time order, each cut short too, and strict: the same records
 * (type, misc, size, offsets, flags, bytes), the same end (return value,
 * error message) and the same messages, each after the same record.
 * Also with the AUX data loaded (file order: the thread stops before each
 * AUXTRACE record, the caller reads it and its data), and with user stack
 * copies read as far as they were filled, or not at all (the thread
 * passes only the bytes read: the rest of a copy is undefined, and not
 * compared).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/reader.h>

#include "recordings.h"
#include "tap.h"

enum mode { PLAIN, LOAD_AUX, STACK_USED, STACK_UNREAD, NR_MODES };
static const char *const mode_names[] = {
	"", ", AUX data loaded", ", stacks as filled", ", stacks unread",
};

/* the record's bytes but a user stack copy's undefined ones */
static uint64_t hash_defined(const struct pd_event *ev, enum mode mode)
{
	const struct pd_sample *s = &ev->u.sample;
	const uint8_t *raw = ev->raw, *copy = s->user_stack.data;
	size_t from, to;
	uint64_t h;

	if (mode < STACK_USED || ev->type != PD_RECORD_SAMPLE ||
	    !s->user_stack.size || !copy)
		return hash_bytes(HASH_START, raw, ev->size);
	from = (size_t)(copy - raw) +
	       (mode == STACK_USED ? s->user_stack.dyn_size : 0);
	to = (size_t)(copy - raw) + s->user_stack.size;
	h = hash_bytes(HASH_START, raw, from);
	return hash_bytes(h, raw + to, ev->size - to);
}

static void read_all(const char *path, enum pd_order order, bool strict,
		     enum mode mode, bool ahead, struct trace *t)
{
	struct pd_reader_opts o = {
		.sz = sizeof(o), .order = order, .strict = strict,
		.log = log_fn, .log_ctx = t,
		.load_aux = mode == LOAD_AUX,
		.stack_used_only = mode >= STACK_USED,
		.stack_unread = mode == STACK_UNREAD,
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
			 (unsigned long long)hash_defined(ev, mode));
		add(t, line);
		if (ev->type == PD_RECORD_AUXTRACE && ev->u.auxtrace.data) {
			snprintf(line, sizeof(line), "aux %016llx\n",
				 (unsigned long long)hash_bytes(HASH_START,
					ev->u.auxtrace.data, ev->u.auxtrace.size));
			add(t, line);
			t->nr_aux++;
		}
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
	int i, strict, mode;

	for (i = 0; i < 2; i++) {
		for (strict = 0; strict < 2; strict++) {
			for (mode = 0; mode < NR_MODES; mode++) {
				/* (AUX data is loaded in file order only) */
				if (mode == LOAD_AUX && orders[i] != PD_ORDER_FILE)
					continue;
				read_all(path, orders[i], strict, mode, false, &one);
				read_all(path, orders[i], strict, mode, true, &two);
				CHECK(one.len == two.len && !memcmp(one.buf, two.buf, one.len),
				      "%s, %s order%s%s: %lu records (%lu AUX data) and their messages alike",
				      name, i ? "time" : "file", strict ? ", strict" : "",
				      mode_names[mode], one.nr_records, one.nr_aux);
				free(one.buf);
				free(two.buf);
			}
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
	/* an Intel PT recording of the corpus: AUXTRACE records and data */
	{
		const char *corpus = getenv("PD_CORPUS");
		char pt[4096];

		snprintf(pt, sizeof(pt), "%s%s/google_perf_data_converter/src/quipper/testdata/perf.data.intel_pt-4.14",
			 corpus ? corpus : top, corpus ? "" : "/../shared/corpus");
		if (access(pt, R_OK) == 0)
			compare(pt, "corpus perf.data.intel_pt-4.14");
		else
			printf("# %s absent: no AUX data compared\n", pt);
	}
	rmdir(tmp);
	CHECK(tap_n > 100, "%d readings compared", tap_n);
	return tap_done();
}
