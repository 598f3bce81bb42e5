// SPDX-License-Identifier: MIT
/*
 * Attrs that disagree on where a record's id is. A record names its attr
 * by the id at the place the first attr gives it (perf's way); a file
 * whose attrs put it at other places is refused, in file mode at open, in
 * pipe mode at the ATTR record, as perf refuses it ("non matching
 * sample_type"). Attrs that agree read, whatever else they sample.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/reader.h>
#include <perfdata/writer.h>

#include "tap.h"

#define ST_BASE	(PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID | \
		 PD_SAMPLE_CPU | PD_SAMPLE_PERIOD)

/* one sample of attr a with id: ip, tid, time, id, cpu, period as set */
static int put_sample(struct pd_writer *w, const struct pd_attr *a,
		      uint64_t id)
{
	uint64_t rec[16] = { 0 }, st = a->sample_type;
	size_t n = 1;

	if (st & PD_SAMPLE_IDENTIFIER)
		rec[n++] = id;
	if (st & PD_SAMPLE_IP)
		rec[n++] = 0x401000;
	if (st & PD_SAMPLE_TID)
		rec[n++] = 42 | (42ULL << 32);
	if (st & PD_SAMPLE_TIME)
		rec[n++] = 1000 + id;
	if (st & PD_SAMPLE_ID)
		rec[n++] = id;
	if (st & PD_SAMPLE_CPU)
		rec[n++] = 1;
	if (st & PD_SAMPLE_PERIOD)
		rec[n++] = 1;
	rec[0] = PD_RECORD_SAMPLE | ((uint64_t)PD_MISC_USER << 32) |
		 ((uint64_t)(n * 8) << 48);
	return pd_writer__write(w, rec, a);
}

/* a file of two attrs and a sample of each, in mode */
static int write_two(const char *path, enum pd_mode mode, uint64_t st0,
		     uint64_t st1, uint64_t flags0, uint64_t flags1)
{
	struct pd_writer_opts wo = { .sz = sizeof(wo), .mode = mode };
	struct pd_attr a0 = {
		.type = PD_TYPE_SOFTWARE, .sample_period = 1,
		.sample_type = st0, .flags = flags0,
	};
	struct pd_attr a1 = a0;
	uint64_t id0 = 7, id1 = 9;
	struct pd_writer *w;
	int err;

	a1.config = 1;
	a1.sample_type = st1;
	a1.flags = flags1;
	w = pd_writer__open(path, &wo);
	if (!w)
		return -1;
	err = pd_writer__add_evsel(w, &a0, PD_ATTR_SIZE_VER5, &id0, 1) ||
	      pd_writer__add_evsel(w, &a1, PD_ATTR_SIZE_VER5, &id1, 1) ||
	      put_sample(w, &a0, id0) || put_sample(w, &a1, id1) ||
	      pd_writer__finish(w);
	pd_writer__free(w);
	return err ? -1 : 0;
}

/*
 * Read path to its end: the number of samples, each matched to the attr
 * of its id; -1 with the message in why when refused.
 */
static int read_all(const char *path, char *why, size_t len)
{
	struct pd_reader_opts ro = { .sz = sizeof(ro) };
	const struct pd_event *ev;
	struct pd_reader *r;
	int n = 0, err;

	why[0] = 0;
	r = pd_reader__open(path, &ro);
	if (!r) {
		snprintf(why, len, "%s", pd_reader__open_errmsg());
		return -1;
	}
	while ((err = pd_reader__next(r, &ev)) > 0) {
		if (ev->type != PD_RECORD_SAMPLE)
			continue;
		if (!ev->evsel || !ev->evsel->nr_ids ||
		    ev->evsel->ids[0] != ev->u.sample.id)
			n = -1000;	/* matched to another attr */
		n++;
	}
	if (err < 0) {
		snprintf(why, len, "%s", pd_reader__errmsg(r));
		n = -1;
	}
	pd_reader__close(r);
	return n;
}

struct layout_case {
	const char *what;
	uint64_t st0, st1, flags0, flags1;
	const char *refused;	/* NULL: read, else what the error says */
};

static const struct layout_case cases[] = {
	{ "one layout", ST_BASE, ST_BASE, PD_ATTR_SAMPLE_ID_ALL,
	  PD_ATTR_SAMPLE_ID_ALL, NULL },
	{ "fields after the id differ (PERIOD)", ST_BASE,
	  ST_BASE & ~PD_SAMPLE_PERIOD, PD_ATTR_SAMPLE_ID_ALL,
	  PD_ATTR_SAMPLE_ID_ALL, NULL },
	{ "IDENTIFIER in both, the rest differs",
	  ST_BASE | PD_SAMPLE_IDENTIFIER,
	  PD_SAMPLE_IDENTIFIER | PD_SAMPLE_IP | PD_SAMPLE_CPU,
	  PD_ATTR_SAMPLE_ID_ALL, PD_ATTR_SAMPLE_ID_ALL, NULL },
	{ "the id one word earlier (no TIME)", ST_BASE,
	  ST_BASE & ~PD_SAMPLE_TIME, 0, 0,
	  "attr 1 (sample_type 0x1c3) has its samples' id at word 2, attr 0 (sample_type 0x1c7) at 3" },
	{ "IDENTIFIER in one only", ST_BASE | PD_SAMPLE_IDENTIFIER, ST_BASE,
	  0, 0, "has its samples' id at word 3, attr 0" },
	{ "sample_id_all in one only", ST_BASE, ST_BASE,
	  PD_ATTR_SAMPLE_ID_ALL, 0, "attr 1 has sample_id_all clear, attr 0 set" },
	{ "the trailer's id at another word (no CPU)", ST_BASE,
	  ST_BASE & ~PD_SAMPLE_CPU, PD_ATTR_SAMPLE_ID_ALL,
	  PD_ATTR_SAMPLE_ID_ALL, "records' id at word 1 from the end, attr 0 (sample_type 0x1c7) at 2" },
	{ "the same trailers differ without sample_id_all", ST_BASE,
	  ST_BASE & ~PD_SAMPLE_CPU, 0, 0, NULL },
};

static void check_case(const struct layout_case *c, enum pd_mode mode)
{
	char path[] = "/tmp/test-attr-ids.XXXXXX", why[512];
	const char *m = mode == PD_MODE_PIPE ? "pipe" : "file";
	int fd = mkstemp(path), n;

	if (fd < 0) {
		CHECK(0, "%s, %s: a temporary file", c->what, m);
		return;
	}
	close(fd);
	CHECK(!write_two(path, mode, c->st0, c->st1, c->flags0, c->flags1),
	      "%s, %s: written", c->what, m);
	n = read_all(path, why, sizeof(why));
	if (!c->refused)
		CHECK(n == 2, "%s, %s: both samples read, each of its attr (%d: %s)",
		      c->what, m, n, why);
	else
		CHECK(n == -1 && strstr(why, c->refused) &&
		      strstr(why, "cannot be matched to their attrs") &&
		      strstr(why, "offset 0x"),
		      "%s, %s: refused with the offset and the reason (%s)",
		      c->what, m, why);
	unlink(path);
}

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		check_case(&cases[i], PD_MODE_FILE);
		check_case(&cases[i], PD_MODE_PIPE);
	}
	return tap_done();
}
