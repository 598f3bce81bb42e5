// SPDX-License-Identifier: MIT
/*
 * Header feature sections built byte by byte, in both byte orders: each
 * layout decodes to the values put in, revisions are told apart, and
 * malformed or hostile sections are refused with a warning and without
 * touching what was decoded before.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/features.h>
#ifdef HAVE_LIBTRACEEVENT
#include <traceevent/event-parse.h>
#endif

#include "header/features-internal.h"
#include "sec.h"
#include "tap.h"

static int nr_warnings;
static char last_warning[512];

static void on_log(enum pd_log_level level, const char *msg, void *ctx)
{
	if (level == PD_LOG_WARN) {
		nr_warnings++;
		snprintf(last_warning, sizeof(last_warning), "%s", msg);
	}
}

static struct pd_logger logger = { .fn = on_log, .name = "test" };

static int host_be(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

static int add(struct pd_features *f, unsigned int id, struct sec *s)
{
	return pd_features__add(f, id, s->b, s->n, s->be != host_be(), &logger);
}

static void test_strings(int be)
{
	struct pd_features *f = pd_features__new();
	struct sec s = { .be = be };
	const char *o = be ? "BE" : "LE";

	str(&s, "myhost");
	CHECK(add(f, PD_FEAT_HOSTNAME, &s) == 0 && pd_features__has(f, PD_FEAT_HOSTNAME) &&
	      !strcmp(f->hostname, "myhost"), "%s hostname", o);

	/* a string that fills its length with no NUL is cut, not overrun */
	s.n = 0;
	u32(&s, 4);
	bytes(&s, "abcd", 4);
	CHECK(add(f, PD_FEAT_ARCH, &s) == 0 && !strcmp(f->arch, "abcd"),
	      "%s unterminated string kept within its length", o);

	/* a length past the section fails; earlier data stays */
	s.n = 0;
	u32(&s, 1000);
	bytes(&s, "x86_64\0\0", 8);
	nr_warnings = 0;
	CHECK(add(f, PD_FEAT_OSRELEASE, &s) < 0 && !pd_features__has(f, PD_FEAT_OSRELEASE) &&
	      pd_features__seen(f, PD_FEAT_OSRELEASE) && nr_warnings == 1 &&
	      strstr(last_warning, "OSRELEASE"),
	      "%s string longer than its section: refused, warned (%s)", o, last_warning);

	s.n = 0;
	u32(&s, 3);
	u32(&s, 4);
	u64(&s, 24684096);
	CHECK(add(f, PD_FEAT_NRCPUS, &s) == 0 && f->nrcpus.avail == 3 && f->nrcpus.online == 4,
	      "%s nrcpus: avail then online", o);

	s.n = 0;
	u32(&s, 3);
	str(&s, "/usr/bin/perf");
	str(&s, "record");
	str(&s, "-g");
	CHECK(add(f, PD_FEAT_CMDLINE, &s) == 0 && f->cmdline.argc == 3 &&
	      !strcmp(f->cmdline.argv[2], "-g"), "%s cmdline", o);

	/* hostile count: must fail fast, not allocate 4G entries */
	s.n = 0;
	u32(&s, 0xffffffff);
	str(&s, "x");
	CHECK(add(f, PD_FEAT_CMDLINE, &s) < 0 && f->cmdline.argc == 3,
	      "%s cmdline with count 2^32-1 refused, earlier copy kept", o);
	pd_features__free(f);
}

static void test_event_desc(int be)
{
	struct pd_features *f = pd_features__new();
	struct sec s = { .be = be };
	const char *o = be ? "BE" : "LE";
	uint8_t attr[136] = { 0 };
	int k;

	u32(&s, 2);
	u32(&s, sizeof(attr));
	for (k = 0; k < 2; k++) {
		struct sec a = { .be = be };

		u32(&a, 1);			/* type */
		u32(&a, sizeof(attr));		/* size */
		u64(&a, (uint64_t)k);		/* config */
		memcpy(attr, a.b, a.n);
		bytes(&s, attr, sizeof(attr));
		u32(&s, 2);
		str(&s, k ? "task-clock" : "cpu-clock");
		u64(&s, 100 + 2 * k);
		u64(&s, 101 + 2 * k);
	}
	CHECK(add(f, PD_FEAT_EVENT_DESC, &s) == 0 && f->event_desc.nr == 2,
	      "%s event desc with 136-byte attrs", o);
	CHECK(f->event_desc.nr == 2 && !strcmp(f->event_desc.events[1].name, "task-clock") &&
	      f->event_desc.events[1].attr.config == 1 &&
	      f->event_desc.events[1].attr.size == 136 &&
	      f->event_desc.events[1].nr_ids == 2 && f->event_desc.events[1].ids[1] == 103,
	      "%s event desc: name, attr and ids of the second event", o);

	/* attr size smaller than the oldest attr */
	s.n = 0;
	u32(&s, 1);
	u32(&s, 8);
	bytes(&s, attr, 8);
	CHECK(add(f, PD_FEAT_EVENT_DESC, &s) < 0, "%s event desc with 8-byte attr refused", o);
	pd_features__free(f);
}

/* sibling lists; then core/socket ids; then die lists and die ids */
static void test_cpu_topology(int be)
{
	const char *o = be ? "BE" : "LE";
	int rev;

	for (rev = 1; rev <= 3; rev++) {
		struct pd_features *f = pd_features__new();
		struct sec s = { .be = be };
		const struct pd_cpu_topology *t = &f->cpu_topology;

		u32(&s, 2);
		u32(&s, 2);
		add(f, PD_FEAT_NRCPUS, &s);
		s.n = 0;
		u32(&s, 1);
		str(&s, "0-1");
		u32(&s, 2);
		str(&s, "0");
		str(&s, "1");
		if (rev >= 2) {
			u32(&s, 0); u32(&s, 0);
			u32(&s, 1); u32(&s, 0);
		}
		if (rev >= 3) {
			u32(&s, 1);
			str(&s, "0-1");
			u32(&s, 5);
			u32(&s, 5);
		}
		CHECK(add(f, PD_FEAT_CPU_TOPOLOGY, &s) == 0 && t->nr_sockets == 1 &&
		      t->nr_threads == 2 && !strcmp(t->threads[1], "1"),
		      "%s cpu topology revision %d: sibling lists", o, rev);
		CHECK(t->nr_cpus == (rev >= 2 ? 2u : 0u) &&
		      (rev < 2 || (t->cpus[1].core_id == 1 && t->cpus[1].socket_id == 0)),
		      "%s cpu topology revision %d: per-cpu ids", o, rev);
		CHECK(t->nr_dies == (rev >= 3 ? 1u : 0u) &&
		      (rev < 3 || t->cpus[1].die_id == 5),
		      "%s cpu topology revision %d: dies", o, rev);
		pd_features__free(f);
	}
}

static void build_id_entry(struct sec *s, int32_t pid, uint8_t fill,
			   const char *name, bool with_size)
{
	size_t namelen = (strlen(name) + 1 + 7) / 8 * 8;
	uint8_t id[20];

	memset(id, fill, sizeof(id));
	u32(s, 0);
	u16(s, (uint16_t)(2 | (with_size ? 0x8000 : 0)));
	u16(s, (uint16_t)(36 + namelen));
	u32(s, (uint32_t)pid);
	bytes(s, id, 20);
	u8(s, with_size ? 8 : 0);
	u8(s, 0); u16(s, 0);
	memset(s->b + s->n, 0, namelen);
	memcpy(s->b + s->n, name, strlen(name));
	s->n += namelen;
}

static void test_build_ids(int be)
{
	struct pd_features *f = pd_features__new();
	struct sec s = { .be = be };
	const char *o = be ? "BE" : "LE";

	build_id_entry(&s, -1, 0xab, "/usr/lib/libc.so.6", false);
	build_id_entry(&s, 42, 0xcd, "/bin/guest", true);
	CHECK(add(f, PD_FEAT_BUILD_ID, &s) == 0 && f->build_ids.nr == 2 &&
	      f->build_ids.ids[0].pid == -1 && f->build_ids.ids[0].size == 20 &&
	      f->build_ids.ids[0].id[19] == 0xab &&
	      !strcmp(f->build_ids.ids[0].filename, "/usr/lib/libc.so.6"),
	      "%s build ids: first entry", o);
	CHECK(f->build_ids.nr == 2 && f->build_ids.ids[1].pid == 42 &&
	      f->build_ids.ids[1].size == 8 && f->build_ids.ids[1].misc == 2,
	      "%s build ids: pid, stated id size, cpumode", o);
	/* pipe mode: one record at a time, appended */
	s.n = 0;
	build_id_entry(&s, -1, 0x11, "[vdso]", true);
	CHECK(add(f, PD_FEAT_BUILD_ID, &s) == 0 && f->build_ids.nr == 3 &&
	      !strcmp(f->build_ids.ids[2].filename, "[vdso]") &&
	      f->raw[PD_FEAT_BUILD_ID].size == 3 * 36 + 24 + 16 + 8,
	      "%s build ids appended, raw bytes kept", o);
	/* an entry whose size is below the fixed part */
	s.n = 0;
	u32(&s, 0); u16(&s, 0); u16(&s, 12);
	u32(&s, 0); u32(&s, 0);
	CHECK(add(f, PD_FEAT_BUILD_ID, &s) < 0 && f->build_ids.nr == 3,
	      "%s build id entry of 12 bytes refused", o);
	pd_features__free(f);

	/* before 2.6.36 entries had no pid: names start 4 bytes earlier */
	f = pd_features__new();
	s.n = 0;
	u32(&s, 0); u16(&s, 1); u16(&s, 32 + 24);
	memset(s.b + s.n, 0x77, 24);
	s.n += 24;
	memset(s.b + s.n, 0, 24);
	memcpy(s.b + s.n, "[kernel.kallsyms]", 17);
	s.n += 24;
	CHECK(add(f, PD_FEAT_BUILD_ID, &s) == 0 && f->build_ids.nr == 1 &&
	      !strcmp(f->build_ids.ids[0].filename, "[kernel.kallsyms]") &&
	      f->build_ids.ids[0].pid == -1 && f->build_ids.ids[0].id[0] == 0x77,
	      "%s pid-less build id layout detected", o);
	pd_features__free(f);
}

static const char sched_fmt[] =
	"name: sched_switch\n"
	"ID: 316\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:int prev_pid;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"prev_pid=%d\", REC->prev_pid\n";

/* blob numbers follow the blob's own endian flag */
/* saved_cmdlines of the 0.6 blobs: comms with spaces and slashes */
static const char cmdlines[] = "42 bash\n7 kworker/0:1 x\n";

static void tracing_blob(struct sec *s, const char *version)
{
	bytes(s, "\027\010Dtracing", 10);
	bytes(s, version, strlen(version) + 1);
	u8(s, (uint8_t)s->be);
	u8(s, 8);
	u32(s, 4096);
	bytes(s, "header_page", 12);
	u64(s, 0);
	bytes(s, "header_event", 13);
	u64(s, 0);
	u32(s, 0);			/* ftrace formats */
	u32(s, 1);			/* systems */
	bytes(s, "sched", 6);
	u32(s, 1);
	u64(s, sizeof(sched_fmt) - 1);
	bytes(s, sched_fmt, sizeof(sched_fmt) - 1);
	u32(s, 0);			/* kallsyms */
	u32(s, 0);			/* printk */
	if (strcmp(version, "0.5")) {
		u64(s, sizeof(cmdlines) - 1);
		bytes(s, cmdlines, sizeof(cmdlines) - 1);
	}
}

static void test_tracing(int be)
{
	const char *o = be ? "BE" : "LE";
	const char *versions[] = { "0.5", "0.6" };
	int v;

	for (v = 0; v < 2; v++) {
		struct pd_features *f = pd_features__new();
		struct sec s = { .be = be };
		struct tep_handle *tep;

		tracing_blob(&s, versions[v]);
		CHECK(add(f, PD_FEAT_TRACING_DATA, &s) == 0 && f->tracing.nr_events == 1 &&
		      f->tracing.events[0].id == 316 &&
		      !strcmp(f->tracing.events[0].name, "sched:sched_switch"),
		      "%s tracing data %s: event id and name", o, versions[v]);
		tep = pd_features__tep(f);
#ifdef HAVE_LIBTRACEEVENT
		CHECK(tep && tep_find_event(tep, 316) &&
		      tep_find_field(tep_find_event(tep, 316), "prev_pid"),
		      "%s tracing data %s: libtraceevent has the format", o, versions[v]);
		if (v == 1) {
			const char *c42 = tep ? tep_data_comm_from_pid(tep, 42) : NULL;
			const char *c7 = tep ? tep_data_comm_from_pid(tep, 7) : NULL;

			CHECK(c42 && c7 && !strcmp(c42, "bash") &&
			      !strcmp(c7, "kworker/0:1 x"),
			      "%s tracing data %s: saved_cmdlines registered ('%s', '%s')",
			      o, versions[v], c42 ? c42 : "", c7 ? c7 : "");
		}
#else
		CHECK(!tep, "%s tracing data %s: no libtraceevent, no handle",
		      o, versions[v]);
#endif
		CHECK(f->tracing.page_size == 4096 && f->tracing.long_size == 8 &&
		      f->tracing.big_endian == be, "%s tracing data %s: blob header", o, versions[v]);
		pd_features__free(f);
	}

	/* cut in the middle of the format */
	{
		struct pd_features *f = pd_features__new();
		struct sec s = { .be = be };

		tracing_blob(&s, "0.6");
		s.n -= 120;
		CHECK(add(f, PD_FEAT_TRACING_DATA, &s) < 0 &&
		      !pd_features__has(f, PD_FEAT_TRACING_DATA) && !pd_features__tep(f),
		      "%s truncated tracing data refused", o);
		pd_features__free(f);
	}
}

static void test_misc(int be)
{
	struct pd_features *f = pd_features__new();
	struct sec s = { .be = be };
	const char *o = be ? "BE" : "LE";

	u64(&s, 1);
	u64(&s, 0x8000000);
	u64(&s, 1);
	u64(&s, 0);			/* node */
	u64(&s, 70);			/* blocks */
	u64(&s, 70);			/* bitmap bits */
	u64(&s, ~0ULL);
	u64(&s, 0x3f);
	CHECK(add(f, PD_FEAT_MEM_TOPOLOGY, &s) == 0 && f->mem_topology.nr == 1 &&
	      f->mem_topology.nodes[0].nbits == 70 &&
	      f->mem_topology.nodes[0].bitmap[1] == 0x3f, "%s memory topology bitmap", o);

	s.n = 0;
	u32(&s, 1);
	u32(&s, 2);
	str(&s, "branches");
	str(&s, "32");
	str(&s, "max_precise");
	str(&s, "3");
	str(&s, "cpu_core");
	CHECK(add(f, PD_FEAT_PMU_CAPS, &s) == 0 && f->pmu_caps.nr == 1 &&
	      !strcmp(f->pmu_caps.pmus[0].pmu_name, "cpu_core") &&
	      !strcmp(f->pmu_caps.pmus[0].caps[1].value, "3"), "%s pmu caps", o);

	s.n = 0;
	u32(&s, 1);
	u32(&s, 1);
	u64(&s, 1767545218014657000ULL);
	u64(&s, 405068949598ULL);
	CHECK(add(f, PD_FEAT_CLOCK_DATA, &s) == 0 && f->clock_data.clockid == 1 &&
	      f->clock_data.clockid_ns == 405068949598ULL, "%s clock data", o);

	s.n = 0;
	u32(&s, 17);
	u32(&s, 2);
	u32(&s, 0); u32(&s, 1);		/* cpu 0, one domain */
	u32(&s, 0); str(&s, "SMT"); str(&s, "3"); str(&s, "0-1");
	u32(&s, 1); u32(&s, 2);		/* cpu 1, two domains */
	u32(&s, 0); str(&s, "SMT"); str(&s, "3"); str(&s, "0-1");
	u32(&s, 1); str(&s, "MC"); str(&s, "f"); str(&s, "0-3");
	CHECK(add(f, PD_FEAT_CPU_DOMAIN_INFO, &s) == 0 && f->cpu_domain_info.nr == 2 &&
	      f->cpu_domain_info.cpus[1].nr_domains == 2 &&
	      !strcmp(f->cpu_domain_info.cpus[1].domains[1].name, "MC"),
	      "%s cpu domain info runs to the section end", o);

	s.n = 0;
	u32(&s, 1);
	u32(&s, 1);
	u32(&s, 1);
	u32(&s, 0);
	u32(&s, 528384);
	CHECK(add(f, PD_FEAT_COMPRESSED, &s) == 0 && f->compressed.type == 1 &&
	      f->compressed.mmap_len == 528384, "%s compressed", o);

	/* a feature id no perf has: kept, not decoded */
	s.n = 0;
	u64(&s, 42);
	CHECK(add(f, 200, &s) == 0 && pd_features__has(f, 200) && f->raw[200].size == 8 &&
	      !memcmp(f->raw[200].data, s.b, 8), "%s unknown feature 200 kept raw", o);
	pd_features__free(f);
}

int main(void)
{
	int be;

	for (be = 0; be <= 1; be++) {
		test_strings(be);
		test_event_desc(be);
		test_cpu_topology(be);
		test_build_ids(be);
		test_tracing(be);
		test_misc(be);
	}
	return tap_done();
}
