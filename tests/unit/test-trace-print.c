// SPDX-License-Identifier: MIT
/*
 * pd_trace_printer: a tracepoint sample printed by its format's print
 * fmt, in both byte orders; formats libtraceevent could not print safely
 * (a division, %n, a length read from the sample, deep nesting, fields
 * past 64 KiB) printed as it prints formats it cannot parse, or not at
 * all, and a sample whose dynamic string points past its end read from
 * the zeroed padding (the ASan build checks the reads); a string address
 * named by printk_formats. Built without libtraceevent: the printer
 * prints no fields and says so once.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/features.h>
#include <perfdata/trace.h>

#include "header/features-internal.h"
#include "sec.h"
#include "tap.h"

static void on_log(enum pd_log_level level, const char *msg, void *ctx)
{
	(void)level;
	(void)msg;
	(void)ctx;
}

static struct pd_logger logger = { .fn = on_log, .name = "test" };

static int host_be(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

#define COMMON \
	"format:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n" \
	"\n"

/* id 1..: each a format; the sample layout is the same for all */
static const char *const formats[] = {
	"name: ok\nID: 1\n" COMMON
	"\tfield:int pid;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"pid=%d name=%s state=%s\", REC->pid, __get_str(name), "
	"__print_flags(REC->pid, \"|\", { 1, \"A\" }, { 2, \"B\" })\n",

	"name: divide\nID: 2\n" COMMON
	"\tfield:int pid;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"%d\", REC->pid / 0\n",

	"name: percent_n\nID: 3\n" COMMON
	"\tfield:int pid;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"%n\", REC->pid\n",

	"name: hex\nID: 4\n" COMMON
	"\tfield:int pid;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"%s\", __print_hex(REC->pid, REC->pid)\n",

	"name: far\nID: 5\n" COMMON
	"\tfield:int pid;\toffset:70000;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"%d\", REC->pid\n",

	"name: deep\nID: 6\n" COMMON
	"\tfield:int pid;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"%d\", ((((((((((((((((((((((((((((((((((REC->pid))))))))))))))))))))))))))))))))))\n",

	"name: unknown_field\nID: 7\n" COMMON
	"\tfield:int pid;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"%d %s\", REC->nosuch, __get_str(other)\n",

	"name: cut\nID: 8\n" COMMON
	"\tfield:int pid;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"%d\", (REC->pid & (1\n",

	/* a kernel string's address, named by printk_formats */
	"name: str\nID: 9\n" COMMON
	"\tfield:const char * s;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"%s\", REC->s\n",
};

/* the second line's address is the one sample 9 holds */
static const char printk[] =
	"0xffffffff81000010 : \"other\"\n"
	"0xffffffff81000020 : \"rcu_sched idle\"\n";
static const char cmdlines[] = "42 bash\n7 kworker/0:1 x\n";

#define NR_FORMATS (sizeof(formats) / sizeof(formats[0]))

static void tracing_blob(struct sec *s)
{
	size_t i;

	bytes(s, "\027\010Dtracing", 10);
	bytes(s, "0.6", 4);
	u8(s, (uint8_t)s->be);
	u8(s, 8);
	u32(s, 4096);
	bytes(s, "header_page", 12);
	u64(s, 0);
	bytes(s, "header_event", 13);
	u64(s, 0);
	u32(s, 0);			/* ftrace formats */
	u32(s, 1);			/* systems */
	bytes(s, "test", 5);
	u32(s, NR_FORMATS);
	for (i = 0; i < NR_FORMATS; i++) {
		u64(s, strlen(formats[i]));
		bytes(s, formats[i], strlen(formats[i]));
	}
	u32(s, 0);			/* kallsyms */
	u32(s, sizeof(printk) - 1);
	bytes(s, printk, sizeof(printk) - 1);
	u64(s, sizeof(cmdlines) - 1);
	bytes(s, cmdlines, sizeof(cmdlines) - 1);
}

/* common fields, pid, then "name" at offset 16 (or where loc says) */
static size_t sample(struct sec *s, uint16_t type, int32_t pid, uint32_t loc)
{
	s->n = 0;
	u16(s, type);
	u8(s, 0);
	u8(s, 0);
	u32(s, 100);
	u32(s, (uint32_t)pid);
	u32(s, loc);
	bytes(s, "abc", 4);
	return s->n;
}

#ifdef HAVE_LIBTRACEEVENT
static void test_order(int be)
{
	const char *o = be ? "BE" : "LE";
	struct pd_features *f = pd_features__new();
	struct pd_trace_printer *p;
	struct sec *s = calloc(1, sizeof(*s)), *raw = calloc(1, sizeof(*raw));
	char buf[256];
	size_t n;
	int k;

	s->be = be;
	raw->be = be;
	tracing_blob(s);
	CHECK(pd_features__add(f, PD_FEAT_TRACING_DATA, s->b, s->n,
			       be != host_be(), &logger) == 0,
	      "%s tracing data read", o);
	p = pd_trace_printer__new(f);

	n = sample(raw, 1, 3, 4u << 16 | 16);
	k = pd_trace_printer__print(p, 1, 0, raw->b, n, buf, sizeof(buf));
	CHECK(k > 0 && !strcmp(buf, "pid=3 name=abc state=A|B"),
	      "%s fields printed by the print fmt: '%s'", o, buf);
	k = pd_trace_printer__print(p, 1, 0, raw->b, n, buf, 6);
	CHECK(k == 24 && !strcmp(buf, "pid=3"),
	      "%s cut at the buffer, full length returned (%d)", o, k);

	/* a dynamic string far past the sample: read from the padding */
	n = sample(raw, 1, 3, 0xffffu << 16 | 0xfff0);
	k = pd_trace_printer__print(p, 1, 0, raw->b, n, buf, sizeof(buf));
	CHECK(k > 0 && !strncmp(buf, "pid=3 name= ", 12),
	      "%s dynamic string past the sample reads zeros: '%s'", o, buf);

	n = sample(raw, 2, 3, 0);
	k = pd_trace_printer__print(p, 2, 0, raw->b, n, buf, sizeof(buf));
	CHECK(k > 0 && strstr(buf, "[FAILED TO PARSE]") && strstr(buf, "pid=3"),
	      "%s a division: not parsed, fields printed: '%s'", o, buf);
	n = sample(raw, 3, 3, 0);
	k = pd_trace_printer__print(p, 3, 0, raw->b, n, buf, sizeof(buf));
	CHECK(k > 0 && strstr(buf, "[FAILED TO PARSE]"),
	      "%s %%n: not parsed: '%s'", o, buf);
	n = sample(raw, 4, 3, 0);
	k = pd_trace_printer__print(p, 4, 0, raw->b, n, buf, sizeof(buf));
	CHECK(k > 0 && strstr(buf, "[FAILED TO PARSE]"),
	      "%s __print_hex: not parsed: '%s'", o, buf);
	n = sample(raw, 5, 3, 0);
	k = pd_trace_printer__print(p, 5, 0, raw->b, n, buf, sizeof(buf));
	CHECK(k == -ENOENT, "%s a field past 64 KiB: no format (%d)", o, k);
	n = sample(raw, 6, 3, 0);
	k = pd_trace_printer__print(p, 6, 0, raw->b, n, buf, sizeof(buf));
	CHECK(k > 0 && strstr(buf, "[FAILED TO PARSE]"),
	      "%s nesting deeper than 32: not parsed: '%s'", o, buf);
	n = sample(raw, 7, 3, 0);
	k = pd_trace_printer__print(p, 7, 0, raw->b, n, buf, sizeof(buf));
	CHECK(k > 0 && strstr(buf, "[FAILED TO PARSE]"),
	      "%s a field the format lacks: not parsed: '%s'", o, buf);
	n = sample(raw, 8, 3, 0);
	k = pd_trace_printer__print(p, 8, 0, raw->b, n, buf, sizeof(buf));
	CHECK(k > 0 && strstr(buf, "[FAILED TO PARSE]"),
	      "%s an expression cut short: not parsed: '%s'", o, buf);
	/*
	 * Only in the host's order: libtraceevent reads a %s address
	 * without swapping it (what perf prints too).
	 */
	if (be == host_be()) {
		raw->n = 0;
		u16(raw, 9);
		u8(raw, 0);
		u8(raw, 0);
		u32(raw, 100);
		u64(raw, 0xffffffff81000020ull);
		k = pd_trace_printer__print(p, 9, 0, raw->b, raw->n, buf,
					    sizeof(buf));
		CHECK(k > 0 && !strcmp(buf, "rcu_sched idle"),
		      "%s a string address named by printk_formats: '%s'", o,
		      buf);
	}
	k = pd_trace_printer__print(p, 99, 0, raw->b, n, buf, sizeof(buf));
	CHECK(k == -ENOENT && !buf[0], "%s unknown id (%d)", o, k);
	/* its common_type, 0, names no format */
	k = pd_trace_printer__print(p, 1, 0, NULL, 0, buf, sizeof(buf));
	CHECK(k == 15 && !strcmp(buf, "[UNKNOWN EVENT]"),
	      "%s an empty sample (%d): '%s'", o, k, buf);

	pd_trace_printer__free(p);
	pd_features__free(f);
	free(s);
	free(raw);
}

#else
static int nr_warnings;

static void count_warnings(enum pd_log_level level, const char *msg,
			   void *ctx)
{
	(void)msg;
	(void)ctx;
	nr_warnings += level == PD_LOG_WARN;
}

/* Without libtraceevent: formats known, fields not printed, one warning. */
static void test_without_libtraceevent(void)
{
	struct pd_features *f = pd_features__new();
	struct pd_trace_printer *p;
	struct sec *s = calloc(1, sizeof(*s)), *raw = calloc(1, sizeof(*raw));
	char buf[64] = "x";
	size_t n;
	int k;

	pd_set_log(count_warnings, NULL);
	s->be = host_be();
	raw->be = host_be();
	tracing_blob(s);
	CHECK(pd_features__add(f, PD_FEAT_TRACING_DATA, s->b, s->n, false,
			       &logger) == 0 && f->tracing.nr_events == NR_FORMATS,
	      "tracing data read without libtraceevent");
	p = pd_trace_printer__new(f);
	n = sample(raw, 1, 3, 4u << 16 | 16);
	k = pd_trace_printer__print(p, 1, 0, raw->b, n, buf, sizeof(buf));
	CHECK(k == -ENOTSUP && !buf[0] && nr_warnings == 1,
	      "a known tracepoint: -ENOTSUP and a warning (%d, %d)", k,
	      nr_warnings);
	k = pd_trace_printer__print(p, 1, 0, raw->b, n, buf, sizeof(buf));
	CHECK(k == -ENOTSUP && nr_warnings == 1, "the warning only once (%d)",
	      nr_warnings);
	k = pd_trace_printer__print(p, 99, 0, raw->b, n, buf, sizeof(buf));
	CHECK(k == -ENOENT, "unknown id: -ENOENT (%d)", k);
	pd_set_log(NULL, NULL);
	pd_trace_printer__free(p);
	pd_features__free(f);
	free(s);
	free(raw);
}
#endif

static void test_no_tracing(void)
{
	struct pd_features *f = pd_features__new();
	struct pd_trace_printer *p = pd_trace_printer__new(f);
	char buf[16] = "x";

	CHECK(pd_trace_printer__print(p, 1, 0, "", 0, buf, sizeof(buf)) == -ENOENT &&
	      !buf[0], "no tracing data: -ENOENT");
	pd_trace_printer__free(p);
	pd_trace_printer__free(NULL);
	pd_features__free(f);
}

int main(void)
{
#ifdef HAVE_LIBTRACEEVENT
	test_order(0);
	test_order(1);
#else
	test_without_libtraceevent();
#endif
	test_no_tracing();
	return tap_done();
}
