// SPDX-License-Identifier: MIT
/*
 * Samples left in the file until delivered (order.c, stream.c, in-file.c)
 * against samples read whole through the input buffer (and copied into
 * the time-order queue): on every recording of testdata/ and
 * testdata/newer/, each cut short too, strict or not, with every sample
 * left in the file and with those of 4 KiB and more (the default), the
 * same records (type, misc, size, offsets, flags, bytes), the same end
 * and the same messages. And with stack_used_only, in time and in file
 * order, the same decoded samples, their bytes alike but for the part of
 * each user stack copy the kernel did not fill (with stack_unread: but
 * for each copy).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/reader.h>

#include "reading/reader-state.h"
#include "recordings.h"
#include "tap.h"

/*
 * A record's bytes, but for what lies past the filled part of a sample's
 * user stack copy (with stack_used_only, undefined), or all of the copy
 * (unread: stack_unread); and what decoding it gives.
 */
static uint64_t record_hash(const struct pd_event *ev, bool unread,
			    struct trace *t)
{
	const uint8_t *raw = ev->raw;
	const struct pd_sample *s = &ev->u.sample;
	uint64_t h = HASH_START;
	size_t at, end;

	if (ev->type != PD_RECORD_SAMPLE ||
	    !s->user_stack.size || !s->user_stack.data)
		return hash_bytes(h, raw, ev->size);
	t->nr_stacks++;
	at = (const uint8_t *)s->user_stack.data - raw;
	end = at + s->user_stack.size;
	h = hash_bytes(h, raw, at + (unread ? 0 : s->user_stack.dyn_size));
	h = hash_bytes(h, raw + end, ev->size - end);
	h = hash_bytes(h, (const uint8_t *)&s->ip, sizeof(s->ip));
	h = hash_bytes(h, (const uint8_t *)&s->time, sizeof(s->time));
	return hash_bytes(h, (const uint8_t *)&s->user_stack.dyn_size, 8);
}

/* used: 0 every byte read, 1 stack_used_only, 2 stack_unread */
static void read_all(const char *path, enum pd_order order, bool strict,
		     int used, struct trace *t)
{
	struct pd_reader_opts o = {
		.sz = sizeof(o), .order = order, .strict = strict,
		.log = log_fn, .log_ctx = t,
		.stack_used_only = used == 1,
		.stack_unread = used == 2,
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
	while ((ret = pd_reader__next(r, &ev)) > 0) {
		snprintf(line, sizeof(line),
			 "%u %u %u %#llx %#llx %u %016llx\n", ev->type,
			 ev->misc, ev->size, (unsigned long long)ev->offset,
			 (unsigned long long)ev->inner_offset, ev->flags,
			 (unsigned long long)record_hash(ev, used == 2, t));
		add(t, line);
		t->nr_records++;
	}
	snprintf(line, sizeof(line), "end %d %s\n", ret,
		 ret < 0 ? pd_reader__errmsg(r) : "");
	add(t, line);
	pd_reader__close(r);
}

static unsigned long files_with_stacks;

static void compare(const char *path, const char *name)
{
	static const enum pd_order orders[] = { PD_ORDER_TIME, PD_ORDER_FILE };
	static const uint32_t mins[] = { 8, 4096 };
	struct trace want, got;
	int strict, used, i, k;

	for (k = 0; k < 2; k++) {
		for (strict = 0; strict < 2; strict++) {
			for (used = 0; used < 3; used++) {
				/* in file order, samples are left in the
				 * file only for stack_used_only */
				if (k && !used)
					continue;
				/* samples read whole through the input
				 * buffer, the queue's copies */
				pd__order_in_file_min = UINT32_MAX;
				read_all(path, orders[k], strict, used, &want);
				for (i = 0; i < 2; i++) {
					pd__order_in_file_min = mins[i];
					read_all(path, orders[k], strict, used,
						 &got);
					CHECK(want.len == got.len &&
					      !memcmp(want.buf, got.buf, want.len),
					      "%s, %s order%s%s, samples of %u bytes and more left in the file: %lu records (%lu with stacks) and their messages alike",
					      name, k ? "file" : "time",
					      strict ? ", strict" : "",
					      used == 2 ? ", stack_unread" :
					      used ? ", stack_used_only" : "",
					      mins[i], want.nr_records,
					      want.nr_stacks);
					free(got.buf);
				}
				if (want.nr_stacks && !k && !strict && !used)
					files_with_stacks++;
				free(want.buf);
			}
		}
	}
	pd__order_in_file_min = 4096;
}

/*
 * A file cut after the reader queued its samples, before it read them
 * back (another program writing it): an error naming the offset of the
 * sample, not a crash nor bytes of something else.
 */
static void changed_under(const char *top, const char *tmp)
{
	struct pd_reader_opts o = { .sz = sizeof(o), .order = PD_ORDER_TIME };
	char src[4200], path[4200];
	const struct pd_event *ev;
	struct pd_reader *r;
	int ret = 1, n = 0;

	snprintf(src, sizeof(src), "%s/testdata/dwarf.data", top);
	snprintf(path, sizeof(path), "%s/changed.data", tmp);
	if (!cut(src, path, 1, 1)) {
		CHECK(false, "a copy of %s", src);
		return;
	}
	pd__order_in_file_min = 8;
	r = pd_reader__open(path, &o);
	/* no FINISHED_ROUND in it: its first delivery queued every record */
	if (r && pd_reader__next(r, &ev) > 0 &&
	    !truncate(path, pd_reader__header(r)->data.offset + 64))
		while (n < 100000 && (ret = pd_reader__next(r, &ev)) > 0)
			n++;
	CHECK(r && ret < 0 && strstr(pd_reader__errmsg(r), "changed.data: offset 0x") &&
	      strstr(pd_reader__errmsg(r), "read again"),
	      "a file cut under the reader: an error naming it and the sample's offset (%s)",
	      r ? pd_reader__errmsg(r) : "not opened");
	pd_reader__close(r);
	pd__order_in_file_min = 4096;
	unlink(path);
}

int main(void)
{
	const char *top = getenv("PD_TOP");
	char tmp[] = "/tmp/pd-in-file-XXXXXX";

	if (!top)
		top = ".";
	if (!mkdtemp(tmp)) {
		CHECK(false, "a temporary directory");
		return tap_done();
	}
	dir_files(top, "testdata", tmp, compare);
	dir_files(top, "testdata/newer", tmp, compare);
	changed_under(top, tmp);
	rmdir(tmp);
	CHECK(tap_n > 100, "%d readings compared", tap_n);
	CHECK(files_with_stacks >= 4,
	      "%lu recordings (or cuts) with user stack copies among them",
	      files_with_stacks);
	return tap_done();
}
