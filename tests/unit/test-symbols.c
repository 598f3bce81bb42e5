// SPDX-License-Identifier: MIT
/*
 * The symbolizer's table rules, each as perf 6.1 states it in its source
 * (symbols__fixup_end, choose_best_symbol, symbols__find,
 * dso__load_perf_map, kallsyms__parse), on small hand-made inputs; the
 * comparisons with perf itself are in t0075-symbols.sh.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "symbols/sym-internal.h"
#include "tap.h"

static const char *pick(uint64_t sa, uint64_t la, int ba, const char *na,
			uint64_t lb, int bb, const char *nb)
{
	struct sym_vec sv = { 0 };
	const char *r;

	sym_vec__push(&sv, sa, la, (uint8_t)ba, na);
	sym_vec__push(&sv, sa, lb, (uint8_t)bb, nb);
	sym_vec__push(&sv, sa + 0x100, 0x10, STB_GLOBAL, "next");
	sym_vec__sort(&sv);
	sym_vec__fixup_end(&sv, false);
	sym_vec__fixup_duplicate(&sv);
	r = sv.nr == 2 ? sv.v[0].name : "?";
	free(sv.v);
	return r;
}

static void test_choose(void)
{
	/* fixup_end runs first: a zero-size symbol before a duplicate
	 * keeps size zero, the sized one wins */
	CHECK(!strcmp(pick(0x1000, 0, STB_GLOBAL, "a", 8, STB_LOCAL, "b"), "b"),
	      "duplicates: a sized symbol beats a zero-size one");
	CHECK(!strcmp(pick(0x1000, 8, STB_WEAK, "a", 8, STB_LOCAL, "b"), "b"),
	      "duplicates: weak loses");
	CHECK(!strcmp(pick(0x1000, 8, STB_LOCAL, "a", 8, STB_GLOBAL, "b"), "b"),
	      "duplicates: global beats local");
	CHECK(!strcmp(pick(0x1000, 8, STB_GLOBAL, "__x", 8, STB_GLOBAL, "_y"), "_y"),
	      "duplicates: fewer leading underscores");
	CHECK(!strcmp(pick(0x1000, 8, STB_GLOBAL, "ab", 8, STB_GLOBAL, "abc"), "abc"),
	      "duplicates: longer name");
	CHECK(!strcmp(pick(0x1000, 8, STB_GLOBAL, "ab", 8, STB_GLOBAL, "cd"), "ab"),
	      "duplicates: the first on a tie");
}

static void test_fixup_end(void)
{
	struct sym_vec sv = { 0 };

	sym_vec__push(&sv, 0x2000, 0, STB_GLOBAL, "b");
	sym_vec__push(&sv, 0x1000, 0, STB_GLOBAL, "a");
	sym_vec__push(&sv, 0x1800, 0x10, STB_GLOBAL, "sized");
	sym_vec__sort(&sv);
	sym_vec__fixup_end(&sv, false);
	CHECK(sv.v[0].end == 0x1800, "zero size: ends at the next start");
	CHECK(sv.v[1].end == 0x1810, "a size is kept");
	CHECK(sv.v[2].end == 0x3000, "the last: next page boundary + 4096");
	free(sv.v);

	memset(&sv, 0, sizeof(sv));
	sym_vec__push(&sv, 0xffffffff81000010, 0, STB_GLOBAL, "k");
	sym_vec__push(&sv, 0xffffffffc0000000, 0, STB_GLOBAL, "m");
	sv.v[1].module = 1;
	sym_vec__fixup_end(&sv, true);
	CHECK(sv.v[0].end == 0xffffffff81002000,
	      "kallsyms: the last kernel symbol before a module ends a page on");
	free(sv.v);
}

static char *write_tmp(const char *text)
{
	char *path = strdup("/tmp/pd-symtest-XXXXXX");
	int fd = path ? mkstemp(path) : -1;

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		free(path);
		return NULL;
	}
	close(fd);
	return path;
}

static void test_perf_map(void)
{
	struct pd_symbolizer *s = pd_symbolizer__new(NULL);
	struct pd_dso d = { .s = s };
	const struct pd_sym *y;
	char *p = write_tmp("1000 10 jit_a\n0x2000 0 empty one\n  3000 20 padded\n"
			    "4000 10\nbad\n5000 8 last");

	CHECK(p && !sym_perfmap__load(&d, p), "perf map: loads");
	y = pd_dso__find(&d, 0x1008);
	CHECK(y && !strcmp(y->name, "jit_a"), "perf map: inside an entry");
	CHECK(!pd_dso__find(&d, 0x1010), "perf map: end is exclusive");
	y = pd_dso__find(&d, 0x2000);
	CHECK(y && !strcmp(y->name, "empty one"),
	      "perf map: 0x prefix; a zero size matches its start; names keep spaces");
	CHECK(!pd_dso__find(&d, 0x2001), "perf map: a zero size covers nothing else");
	y = pd_dso__find(&d, 0x3000);
	CHECK(y && !strcmp(y->name, "padded"), "perf map: leading blanks");
	CHECK(!pd_dso__find(&d, 0x4000), "perf map: a line without a name is skipped");
	y = pd_dso__find(&d, 0x5000);
	CHECK(y && !strcmp(y->name, "las"),
	      "perf map: the last character is dropped as a newline even without one");
	if (p)
		unlink(p);
	free(p);
	free(d.syms);
	free(d.symsrc);
	pd_arena_free(&d.arena);
	pd_symbolizer__free(s);
}

static void test_kallsyms(void)
{
	struct pd_symbolizer_opts o = { .sz = sizeof(o) };
	struct pd_symbolizer *s;
	struct pd_dso *k;
	const struct pd_sym *y;
	char *p = write_tmp("ffffffff81000000 T _stext\n"
			    "ffffffff81000000 T _text\n"
			    "ffffffff81000100 t local_fn\n"
			    "ffffffff81000200 r rodata_sym\n"
			    "ffffffff81000300 W weak_fn\n"
			    "ffffffffc0001000 t mod_fn\t[ext4]\n"
			    "ffffffffc0001100 t $x\t[arm]\n");
	char *z = write_tmp("0000000000000000 T _stext\n0000000000000000 t x\n");
	char *m = write_tmp("ffffffffc0000000 t _text\t[mod]\n"
			    "ffffffff82000000 T startup_64\n"
			    "ffffffff82000000 T _text\n"
			    "ffffffff82000100 T f\n");
	uint64_t at;

	o.kallsyms = p;
	s = pd_symbolizer__new(&o);
	k = pd_symbolizer__kernel(s, NULL, 0);
	y = pd_dso__find(k, 0xffffffff81000010);
	/* fixup_end leaves the first of two equal addresses zero-sized */
	CHECK(y && !strcmp(y->name, "_text"),
	      "kallsyms: of two names at one address, the later one");
	y = pd_dso__find(k, 0xffffffff81000250);
	CHECK(y && !strcmp(y->name, "local_fn"), "kallsyms: 'r' symbols are left out");
	y = pd_dso__find(k, 0xffffffffc0001050);
	CHECK(y && !strcmp(y->name, "mod_fn") &&
	      pd_dso__kernel_module(k, 0xffffffffc0001050) &&
	      !strcmp(pd_dso__kernel_module(k, 0xffffffffc0001050), "[ext4]"),
	      "kallsyms: module symbols and their module");
	CHECK(!pd_dso__kernel_module(k, 0xffffffff81000010),
	      "kallsyms: core kernel has no module");
	CHECK(!pd_dso__find(k, 0xffffffff81002000),
	      "kallsyms: the kernel's last symbol ends before the modules");
	CHECK(!pd_dso__kernel_ref(k, "_text", &at) &&
	      at == 0xffffffff81000000 &&
	      !pd_dso__kernel_ref(k, "_stext", &at) &&
	      at == 0xffffffff81000000,
	      "kallsyms: where the reference symbols _text and _stext are");
	CHECK(pd_dso__kernel_ref(k, "local_fn", &at) == -ENOENT,
	      "kallsyms: no other name is a reference symbol");
	pd_symbolizer__free(s);

	/* (perf keeps one name of two at an address: startup_64 here) */
	o.kallsyms = m;
	s = pd_symbolizer__new(&o);
	k = pd_symbolizer__kernel(s, NULL, 0);
	CHECK(!pd_dso__kernel_ref(k, "_text", &at) && at == 0xffffffff82000000,
	      "kallsyms: _text found though its alias names the address, and not a module's _text");
	CHECK(pd_dso__kernel_ref(k, "_stext", &at) == -ENOENT,
	      "kallsyms: a reference symbol it lacks");
	pd_symbolizer__free(s);

	o.kallsyms = z;
	s = pd_symbolizer__new(&o);
	k = pd_symbolizer__kernel(s, NULL, 0);
	CHECK(!pd_dso__loaded(k) && !pd_dso__find(k, 0x10),
	      "kallsyms: all-zero addresses (kptr_restrict) resolve nothing");
	CHECK(pd_dso__kernel_ref(k, "_stext", &at) == -ENOENT,
	      "kallsyms: all-zero addresses give no reference symbol");
	pd_symbolizer__free(s);
	unlink(p);
	unlink(z);
	unlink(m);
	free(p);
	free(z);
	free(m);
}

/*
 * A kernel recorded elsewhere: its build id is not the running kernel's,
 * so /proc/kallsyms would name its addresses wrongly; only the build-id
 * cache's copy is used, and without one nothing resolves.
 */
static void test_kallsyms_by_build_id(void)
{
	struct pd_symbolizer_opts o = { .sz = sizeof(o) };
	static const uint8_t bid[20] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3 };
	char dir[] = "/tmp/pd-symtest-cache-XXXXXX", path[256];
	struct pd_symbolizer *s;
	const struct pd_sym *y;
	struct pd_dso *k, *k2;
	FILE *f;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	o.buildid_dir = dir;
	s = pd_symbolizer__new(&o);
	k = pd_symbolizer__kernel(s, bid, sizeof(bid));
	CHECK(k && !pd_dso__loaded(k),
	      "kallsyms: another kernel's build id, no cached copy: no symbols");
	pd_symbolizer__free(s);

	snprintf(path, sizeof(path), "%s/[kernel.kallsyms]", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path),
		 "%s/[kernel.kallsyms]/deadbeef01020300000000000000000000000000", dir);
	mkdir(path, 0755);
	strcat(path, "/kallsyms");
	f = fopen(path, "w");
	if (f) {
		fputs("ffffffff81000000 T _stext\nffffffff81000100 T cached_fn\n", f);
		fclose(f);
	}
	s = pd_symbolizer__new(&o);
	k = pd_symbolizer__kernel(s, bid, sizeof(bid));
	y = k ? pd_dso__find(k, 0xffffffff81000110) : NULL;
	CHECK(y && !strcmp(y->name, "cached_fn"),
	      "kallsyms: another kernel's symbols from the build-id cache");
	k2 = pd_symbolizer__kernel(s, bid, sizeof(bid));
	CHECK(k2 == k, "kallsyms: one kernel DSO per build id");
	k2 = pd_symbolizer__kernel(s, NULL, 0);
	CHECK(k2 && k2 != k, "kallsyms: no build id is another kernel DSO");
	pd_symbolizer__free(s);
	unlink(path);
	path[strlen(path) - strlen("/kallsyms")] = 0;
	rmdir(path);
	snprintf(path, sizeof(path), "%s/[kernel.kallsyms]", dir);
	rmdir(path);
	rmdir(dir);
}

static void test_demangle(void)
{
	char *a = sym_demangle("_ZN6shapes5AccumImE4feedEm");
	char *b = sym_demangle("_ZN12_GLOBAL__N_19cold_pathEi.constprop.0");
	char *c = sym_demangle("main");
	char *d = sym_demangle("camlStdlib__list__map_123");
	char *e = sym_demangle_params("_ZN6shapes3runEl@plt");

	CHECK(a && !strcmp(a, "shapes::Accum<unsigned long>::feed"),
	      "demangle: no parameters (%s)", a ? a : "NULL");
	CHECK(b && !strcmp(b, "(anonymous namespace)::cold_path"),
	      "demangle: no clone suffix (%s)", b ? b : "NULL");
	CHECK(!c, "demangle: C names stay");
	CHECK(d && !strcmp(d, "Stdlib.list.map_123"), "demangle: OCaml");
	CHECK(e && !strcmp(e, "shapes::run(long)@plt"),
	      "addr2line -C: parameters, '@' suffix put back");
	free(a);
	free(b);
	free(c);
	free(d);
	free(e);
}

static void test_dso_cache(void)
{
	struct pd_symbolizer *s = pd_symbolizer__new(NULL);
	struct pd_dso *a, *b;
	const struct pd_sym *y;

	/* the test program itself: not stripped, has main */
	a = pd_symbolizer__dso(s, "/proc/self/exe", NULL, 0);
	b = pd_symbolizer__dso(s, "/proc/self/exe", NULL, 0);
	CHECK(a && a == b, "a DSO without a given build id is loaded once");
	y = a ? pd_dso__find(a, 0) : NULL;
	CHECK(a && pd_dso__loaded(a) && pd_dso__symsrc(a) && !y,
	      "the test program's own symbols load");
	pd_symbolizer__free(s);
}

/*
 * perf runs addr2line only on a file with a .symtab, else on the DSO's
 * name, and never on a "[name]": the vdso (.dynsym only) gets no inline
 * frames, though addr2line would name its code after a .dynsym alias.
 */
static void test_vdso_no_inline(void)
{
	struct pd_symbolizer *s = pd_symbolizer__new(NULL);
	struct pd_dso *d = s ? pd_symbolizer__dso(s, "[vdso]", NULL, 0) : NULL;
	struct pd_inline_frame fr[4];
	const struct pd_sym *y = NULL;
	uint64_t addr;

	/* the vdso is two or three pages: find its clock_gettime */
	for (addr = 0; d && addr < 0x4000; addr += 4) {
		y = pd_dso__find(d, addr);
		if (y && strstr(y->name, "clock_gettime"))
			break;
		y = NULL;
	}
	if (!y) {
		CHECK(1, "# skip this process's vdso has no clock_gettime");
		pd_symbolizer__free(s);
		return;
	}
	CHECK(pd_dso__loaded(d), "[vdso]: symbols from its .dynsym (%s)",
	      y->name);
	CHECK(pd_dso__inline_frames(d, addr, fr, 4) == 0,
	      "[vdso]: no inline frames, as perf runs no addr2line on it");
	pd_symbolizer__free(s);
}

int main(void)
{
	test_dso_cache();
	test_vdso_no_inline();
	test_choose();
	test_fixup_end();
	test_perf_map();
	test_kallsyms();
	test_kallsyms_by_build_id();
	test_demangle();
	return tap_done();
}
