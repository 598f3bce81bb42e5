// SPDX-License-Identifier: MIT
/*
 * The jitdump reader (sym-jitdump.c) on hand-made dumps: the maps perf
 * 6.1's perf inject --jit makes of them (names, time order, moves, the
 * last load of an index naming its file, unwinding sizes, both byte
 * orders), the headers it refuses, and damaged dumps: every truncation,
 * sizes beyond the file or the record, names without their NUL. Each
 * gives at most one warning. Java names as perf demangles them. The
 * comparisons with perf itself are in t0078-jit.sh.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/sym-internal.h"
#include "tap.h"

static int nr_warnings;

static void count_log(enum pd_log_level level, const char *msg, void *ctx)
{
	if (level == PD_LOG_WARN)
		nr_warnings++;
}

struct buf {
	unsigned char b[4096];
	size_t n;
	int swap;
};

static void put32(struct buf *b, uint32_t v)
{
	if (b->swap)
		v = __builtin_bswap32(v);
	memcpy(b->b + b->n, &v, 4);
	b->n += 4;
}

static void put64(struct buf *b, uint64_t v)
{
	if (b->swap)
		v = __builtin_bswap64(v);
	memcpy(b->b + b->n, &v, 8);
	b->n += 8;
}

static void header(struct buf *b, uint32_t version, uint32_t size,
		   uint64_t flags)
{
	put32(b, 0x4A695444);
	put32(b, version);
	put32(b, size);
	put32(b, 62);
	put32(b, 0);
	put32(b, 42);
	put64(b, 1000);
	put64(b, flags);
}

static void load(struct buf *b, uint64_t time, uint64_t addr, uint64_t size,
		 uint64_t index, const char *name)
{
	size_t len = strlen(name) + 1;

	put32(b, 0);
	put32(b, 56 + len + size);
	put64(b, time);
	put32(b, 42);
	put32(b, 43);
	put64(b, addr);
	put64(b, addr);
	put64(b, size);
	put64(b, index);
	memcpy(b->b + b->n, name, len);
	b->n += len;
	memset(b->b + b->n, 0x90, size);
	b->n += size;
}

static void move(struct buf *b, uint64_t time, uint64_t from, uint64_t to,
		 uint64_t size, uint64_t index)
{
	put32(b, 1);
	put32(b, 64);
	put64(b, time);
	put32(b, 42);
	put32(b, 43);
	put64(b, to);
	put64(b, from);
	put64(b, to);
	put64(b, size);
	put64(b, index);
}

static void unwinding(struct buf *b, uint64_t hdr_size, uint64_t mapped)
{
	put32(b, 4);
	put32(b, 40 + 8);
	put64(b, 1500);
	put64(b, 8);
	put64(b, hdr_size);
	put64(b, mapped);
	put64(b, 0);	/* the unwinding data */
}

static void simple(struct buf *b)
{
	memset(b, 0, sizeof(*b));
	header(b, 1, 40, 0);
	load(b, 2000, 0x10000, 0x20, 0, "first");
	load(b, 3000, 0x10040, 0x10, 1, "_ZN3jit3hotEm");
	put32(b, 3);	/* JIT_CODE_CLOSE */
	put32(b, 16);
	put64(b, 9000);
}

/* The dump b, written to a file in dir, read by a new symbolizer. */
static struct pd_jitdump *read_dump(struct pd_symbolizer **s,
				    const struct buf *b, size_t n)
{
	struct pd_symbolizer_opts o = { .sz = sizeof(o), .log = count_log };
	static char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/pd-jittest-%d/jit-42.dump",
		 (int)getpid());
	f = fopen(path, "wb");
	if (!f || fwrite(b->b, 1, n, f) != n || fclose(f))
		return NULL;
	nr_warnings = 0;
	*s = pd_symbolizer__new(&o);
	return *s ? pd_symbolizer__jitdump(*s, path) : NULL;
}

static const char *sym_at(const struct pd_jit_map *m, uint64_t ip)
{
	const struct pd_sym *y = pd_dso__find(m->dso, ip - m->start + m->pgoff);

	return y ? y->name : "(none)";
}

static void test_maps(void)
{
	struct pd_symbolizer *s = NULL;
	const struct pd_jit_map *m;
	struct pd_jitdump *j;
	char want[128];
	struct buf b;

	simple(&b);
	/* out of time order: a move at 2500 of index 0, a load before */
	move(&b, 2500, 0x10000, 0x20000, 0x20, 0);
	load(&b, 1500, 0x30000, 0x8, 2, "early");
	/* index 1 loaded again: its file then has this name */
	load(&b, 4000, 0x40000, 0x10, 1, "again");
	move(&b, 4500, 0x1, 0x50000, 0x10, 7);
	j = read_dump(&s, &b, b.n);
	CHECK(j && pd_jitdump__valid(j) && pd_jitdump__nr_maps(j) == 6 &&
	      !nr_warnings, "a good dump: every load and move, no warning");
	if (!j || pd_jitdump__nr_maps(j) != 6)
		goto out;
	m = pd_jitdump__map(j, 0);
	CHECK(m->time == 1500 && m->start == 0x30000 && m->len == 8,
	      "maps in time order");
	snprintf(want, sizeof(want), "/tmp/pd-jittest-%d/jitted-42-2.so",
		 (int)getpid());
	CHECK(!strcmp(m->name, want), "named DIR/jitted-PID-INDEX.so");
	CHECK(m->pgoff == (sizeof(void *) == 8 ? 0x80 : 0x60) &&
	      m->pid == 42 && m->tid == 43, "pgoff GEN_ELF_TEXT_OFFSET, pid, tid");
	CHECK(!strcmp(sym_at(m, 0x30004), "early") &&
	      !strcmp(sym_at(m, 0x30007), "early"), "the code's symbol");
	m = pd_jitdump__map(j, 2);
	CHECK(m->time == 2500 && m->start == 0x20000 &&
	      !strcmp(sym_at(m, 0x20010), "first"),
	      "a move maps the file at the new address");
	m = pd_jitdump__map(j, 3);
	CHECK(m->time == 3000 && !strcmp(sym_at(m, 0x10040), "again"),
	      "a reloaded index: the last load names its file");
	CHECK(m->dso == pd_jitdump__map(j, 4)->dso, "one DSO per file");
	m = pd_jitdump__map(j, 5);
	CHECK(m->start == 0x50000 && !pd_dso__find(m->dso, m->pgoff),
	      "a move of code never loaded: no symbols");
	snprintf(want, sizeof(want), "/tmp/pd-jittest-%d/jit-42.dump",
		 (int)getpid());
	CHECK(pd_symbolizer__jitdump(s, want) == j, "dumps are cached by path");
out:
	pd_symbolizer__free(s);
}

static void test_demangle_and_swap(void)
{
	struct pd_symbolizer *s = NULL;
	struct pd_jitdump *j;
	struct buf b;

	simple(&b);
	j = read_dump(&s, &b, b.n);
	CHECK(j && pd_jitdump__nr_maps(j) == 2 &&
	      !strcmp(sym_at(pd_jitdump__map(j, 1), 0x10041), "jit::hot"),
	      "C++ names demangled as ELF symbols");
	pd_symbolizer__free(s);

	memset(&b, 0, sizeof(b));
	b.swap = 1;
	header(&b, 1, 40, 0);
	load(&b, 2000, 0x10000, 0x20, 5, "swapped");
	j = read_dump(&s, &b, b.n);
	CHECK(j && pd_jitdump__nr_maps(j) == 1 &&
	      pd_jitdump__map(j, 0)->start == 0x10000 &&
	      !strcmp(sym_at(pd_jitdump__map(j, 0), 0x10000), "swapped") &&
	      strstr(pd_jitdump__map(j, 0)->name, "jitted-42-5.so"),
	      "the other byte order");
	pd_symbolizer__free(s);
}

static void test_unwinding(void)
{
	struct pd_symbolizer *s = NULL;
	struct pd_jitdump *j;
	struct buf b;

	memset(&b, 0, sizeof(b));
	header(&b, 1, 40, 0);
	unwinding(&b, 0, 0x100);
	load(&b, 2000, 0x10000, 0x21, 0, "a");
	load(&b, 2100, 0x20000, 0x21, 1, "b");
	unwinding(&b, 0x10, 0x200);
	load(&b, 2200, 0x30000, 0x21, 2, "c");
	load(&b, 2300, 0x40000, 0x21, 3, "d");
	j = read_dump(&s, &b, b.n);
	CHECK(j && pd_jitdump__nr_maps(j) == 4 &&
	      pd_jitdump__map(j, 0)->len == 0x128 &&
	      pd_jitdump__map(j, 1)->len == 0x128 &&
	      pd_jitdump__map(j, 2)->len == 0x228 &&
	      pd_jitdump__map(j, 3)->len == 0x21,
	      "unwinding: ALIGN_8(size) + mapped_size, used up by a load after an eh_frame_hdr");
	pd_symbolizer__free(s);
}

static void refused(uint32_t version, uint32_t size, uint64_t flags,
		    const char *what)
{
	struct pd_symbolizer *s = NULL;
	struct pd_jitdump *j;
	struct buf b;

	memset(&b, 0, sizeof(b));
	header(&b, version, size, flags);
	load(&b, 2000, 0x10000, 0x20, 0, "x");
	j = read_dump(&s, &b, b.n);
	CHECK(j && !pd_jitdump__valid(j) && !pd_jitdump__nr_maps(j) &&
	      nr_warnings == 1, "refused, one warning: %s", what);
	pd_symbolizer__free(s);
}

static void test_headers(void)
{
	struct pd_symbolizer *s = NULL;
	struct pd_jitdump *j;
	struct buf b;

	refused(2, 40, 0, "version 2");
	refused(1, 40, 2, "unknown flags");
	refused(1, 40, 1, "TSC timestamps");
	refused(1, 88, 0, "header size above 80");
	memset(&b, 0, sizeof(b));
	header(&b, 1, 80, 0);
	load(&b, 2000, 0x10000, 0x20, 0, "x");
	j = read_dump(&s, &b, b.n);
	CHECK(j && pd_jitdump__valid(j) && pd_jitdump__nr_maps(j) == 1,
	      "header size 80: records still start at 40");
	pd_symbolizer__free(s);
	b.b[0] ^= 1;
	j = read_dump(&s, &b, b.n);
	CHECK(j && !pd_jitdump__valid(j) && nr_warnings == 1, "bad magic");
	pd_symbolizer__free(s);
	j = read_dump(&s, &b, 0);
	CHECK(j && !pd_jitdump__valid(j) && nr_warnings == 1, "empty file");
	pd_symbolizer__free(s);
}

static void test_truncated(void)
{
	struct pd_symbolizer *s = NULL;
	struct pd_jitdump *j;
	struct buf b;
	size_t n;
	int bad = 0;

	simple(&b);
	for (n = 0; n < b.n; n++) {
		/* the loads end at 40 + 94 and 40 + 94 + 86: a cut there
		 * (or right after the header) is no damage */
		size_t want = n >= 220 ? 2 : n >= 134 ? 1 : 0;
		int warn = n == 40 || n == 134 || n == 220 ? 0 : 1;

		j = read_dump(&s, &b, n);
		if (!j || pd_jitdump__nr_maps(j) != want ||
		    pd_jitdump__valid(j) != (n >= 40) || nr_warnings != warn)
			bad++;
		pd_symbolizer__free(s);
	}
	CHECK(!bad, "truncated at each of %zu offsets: the complete records, one warning",
	      b.n);
}

static void test_damaged(void)
{
	struct pd_symbolizer *s = NULL;
	struct pd_jitdump *j;
	struct buf b;
	size_t at;

	/* a code size beyond its record: skipped, the next one used */
	simple(&b);
	{
		uint64_t big = 0x1000;

		memcpy(b.b + 40 + 40, &big, 8);
	}
	j = read_dump(&s, &b, b.n);
	CHECK(j && pd_jitdump__nr_maps(j) == 1 && nr_warnings == 1 &&
	      pd_jitdump__map(j, 0)->start == 0x10040,
	      "code size beyond the record: skipped, one warning");
	pd_symbolizer__free(s);

	/* a name without its NUL */
	simple(&b);
	memset(b.b + 40 + 56, 'x', 94 - 56);
	j = read_dump(&s, &b, b.n);
	CHECK(j && pd_jitdump__nr_maps(j) == 1 && nr_warnings == 1,
	      "name without its NUL: skipped");
	pd_symbolizer__free(s);

	/* record sizes: below 16 stops, beyond the file stops */
	simple(&b);
	at = 40 + 94;
	memcpy(b.b + at + 4, &(uint32_t){ 8 }, 4);
	j = read_dump(&s, &b, b.n);
	CHECK(j && pd_jitdump__nr_maps(j) == 1 && nr_warnings == 1,
	      "record size below 16: reading stops");
	pd_symbolizer__free(s);
	memcpy(b.b + at + 4, &(uint32_t){ 0xffffffff }, 4);
	j = read_dump(&s, &b, b.n);
	CHECK(j && pd_jitdump__nr_maps(j) == 1 && nr_warnings == 1,
	      "record size 4 GiB: reading stops, nothing that large allocated");
	pd_symbolizer__free(s);
	memcpy(b.b + at + 4, &(uint32_t){ 20 }, 4);
	memcpy(b.b + at, &(uint32_t){ 1 }, 4);
	j = read_dump(&s, &b, b.n);
	CHECK(j && nr_warnings == 1, "a move shorter than its fields: skipped");
	pd_symbolizer__free(s);

	/* a missing file */
	nr_warnings = 0;
	{
		struct pd_symbolizer_opts o = { .sz = sizeof(o), .log = count_log };

		s = pd_symbolizer__new(&o);
		j = pd_symbolizer__jitdump(s, "/nonexistent/jit-1.dump");
		CHECK(j && !pd_jitdump__valid(j) && nr_warnings == 1,
		      "missing: not valid, one warning");
		pd_symbolizer__free(s);
	}
}

static void java(const char *in, const char *want)
{
	char *got = sym_demangle(in);

	CHECK(want ? got && !strcmp(got, want) : !got, "java: %s -> %s (%s)",
	      in, want ? want : "unchanged", got ? got : "unchanged");
	free(got);
}

static void test_java(void)
{
	java("Ljava/lang/String;hashCode()I", "java.lang.String.hashCode()");
	java("Lfoo/Bar;baz(I[JLjava/lang/Object;Z)V",
	     "foo.Bar.baz(int, long[], java.lang.Object, boolean)");
	/* perf's quirk: a class array's "[]" goes to the next base type */
	java("LA;m([Ljava/lang/String;I)V", "A.m(java.lang.String, int[])");
	java("LA;::m()V", "A::m()");
	java("foo(bar)", NULL);
	java("plain", NULL);
}

int main(void)
{
	char dir[64];

	snprintf(dir, sizeof(dir), "/tmp/pd-jittest-%d", (int)getpid());
	if (mkdir(dir, 0700)) {
		perror(dir);
		return 1;
	}
	test_maps();
	test_demangle_and_swap();
	test_unwinding();
	test_headers();
	test_truncated();
	test_damaged();
	test_java();
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/jit-42.dump");
	unlink(dir);
	rmdir(dirname(dir));
	return tap_done();
}
