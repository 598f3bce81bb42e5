// SPDX-License-Identifier: MIT
/*
 * A mapped file's identity (symbols.h: pd_symbolizer__mapped_dso()):
 * which file at a path is used for a map, by build id and, on the
 * recording machine, by the device and inode MMAP2 names; --root trees,
 * used by build id only; one warning per path. On copies of testdata's
 * programs in a private directory: burn is "the mapped file", burn-nofp
 * another program at the same path (a decoy).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "symbols/sym-internal.h"
#include "tap.h"

static int nr_warnings;
static char last_warning[1024];

static void count_log(enum pd_log_level level, const char *msg, void *ctx)
{
	if (level != PD_LOG_WARN)
		return;
	nr_warnings++;
	snprintf(last_warning, sizeof(last_warning), "%s", msg);
}

static char dir[256];
/* DIR/w/prog, DIR/root, DIR/cache (an empty build-id cache) */
static char prog[300], root[300], cache[300];
static uint8_t burn_bid[20], nofp_bid[20];
static int burn_n, nofp_n;

static int copy(const char *from, const char *to)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\" && cp '%s' '%s'",
		 to, from, to);
	return system(cmd);
}

static int setup(void)
{
	const char *top = getenv("PD_TOP");
	char burn[512], nofp[512], in_root[600];

	snprintf(burn, sizeof(burn), "%s/testdata/bin/burn", top ? top : ".");
	snprintf(nofp, sizeof(nofp), "%s/testdata/bin/burn-nofp", top ? top : ".");
	snprintf(dir, sizeof(dir), "/tmp/pd-test-mapped-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(prog, sizeof(prog), "%s/w/prog", dir);
	snprintf(root, sizeof(root), "%s/root", dir);
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	/* the root holds the mapped program, under the same path */
	snprintf(in_root, sizeof(in_root), "%s%s", root, prog);
	burn_n = pd_elf_build_id(burn, burn_bid, sizeof(burn_bid));
	nofp_n = pd_elf_build_id(nofp, nofp_bid, sizeof(nofp_bid));
	if (burn_n <= 0 || nofp_n <= 0 || copy(burn, prog) ||
	    copy(nofp, in_root))
		return -1;
	return 0;
}

static void cleanup(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "# %s left\n", dir);
}

static struct pd_symbolizer *sym_new(const char *const *roots)
{
	struct pd_symbolizer_opts o = {
		.sz = sizeof(o), .log = count_log, .no_debuginfod = true,
		.roots = roots, .buildid_dir = cache,
	};

	return pd_symbolizer__new(&o);
}

/* The mapped file prog as MMAP2 names it: its device and inode. */
static struct pd_mapped_file mapped(bool here)
{
	struct pd_mapped_file f = { .sz = sizeof(f), .path = prog };
	struct stat st;

	if (!stat(prog, &st)) {
		f.has_inode = true;
		f.maj = major(st.st_dev);
		f.min = minor(st.st_dev);
		f.ino = st.st_ino;
	}
	f.recorded_here = here;
	return f;
}

static bool has_bid(struct pd_dso *d, const uint8_t *bid, int n)
{
	size_t size;
	const uint8_t *b = pd_dso__build_id(d, &size);

	return b && size == (size_t)n && !memcmp(b, bid, size);
}

static void test_ident(void)
{
	struct pd_mapped_file f = mapped(true);
	char missing[300];

	snprintf(missing, sizeof(missing), "%s/none", dir);
	CHECK(sym_file_ident(prog, f.maj, f.min, f.ino) == 1,
	      "ident: the file stat() names is the mapped one");
	CHECK(sym_file_ident(prog, f.maj, f.min, f.ino + 1) == 0,
	      "ident: another inode is another file (/proc/self/maps agrees)");
	CHECK(sym_file_ident(prog, f.maj + 1, f.min, f.ino) == 0,
	      "ident: another device is another file (/proc/self/maps agrees)");
	CHECK(sym_file_ident(missing, f.maj, f.min, f.ino) == -ENOENT,
	      "ident: no file there");
	CHECK(sym_file_ident(dir, f.maj, f.min, f.ino) == 0,
	      "ident: a directory is no mapped file");
}

/* Elsewhere, or without a device and inode: perf's rules. */
static void test_elsewhere(void)
{
	struct pd_symbolizer *s = sym_new(NULL);
	struct pd_mapped_file f = mapped(false);
	struct pd_dso *a, *b;

	f.ino += 1;
	a = pd_symbolizer__mapped_dso(s, &f);
	CHECK(a && pd_dso__loaded(a) && has_bid(a, burn_bid, burn_n),
	      "elsewhere, no build id: the file at the path, as perf reads it");
	f.ino += 1;
	b = pd_symbolizer__mapped_dso(s, &f);
	CHECK(b && b != a && pd_dso__loaded(b),
	      "elsewhere: another inode at the same path is another DSO");
	CHECK(pd_symbolizer__mapped_dso(s, &f) == b,
	      "the same mapped file again: the same DSO");
	CHECK(nr_warnings == 0, "elsewhere: no warning");
	pd_symbolizer__free(s);
}

static void test_no_build_id_here(void)
{
	struct pd_symbolizer *s = sym_new(NULL);
	struct pd_mapped_file f = mapped(true);
	struct pd_dso *a, *b, *c;
	const char *why = NULL;

	nr_warnings = 0;
	a = pd_symbolizer__mapped_dso(s, &f);
	CHECK(a && pd_dso__loaded(a) && has_bid(a, burn_bid, burn_n),
	      "here, no build id, the mapped file at the path: used, with its build id");
	CHECK(!pd_symbolizer__mapped_check(s, &f, &why) && !why,
	      "here, the mapped file at the path: checked good");
	f.ino += 1;
	b = pd_symbolizer__mapped_dso(s, &f);
	CHECK(b && b != a && !pd_dso__loaded(b) && !pd_dso__build_id(b, &(size_t){ 0 }),
	      "here, no build id, another file at the path: not used, no build id");
	CHECK(nr_warnings == 1 && strstr(last_warning, prog) &&
	      strstr(last_warning, "not the file the profile mapped"),
	      "one warning naming the path and why (%s)", last_warning);
	CHECK(pd_symbolizer__mapped_check(s, &f, &why) == -EXDEV && why,
	      "mapped_check says so without loading");
	f.ino += 1;
	c = pd_symbolizer__mapped_dso(s, &f);
	CHECK(c && c != b && !pd_dso__loaded(c) && nr_warnings == 1,
	      "a third file at the path (another container): no second warning");
	pd_symbolizer__free(s);
}

static void test_table_build_id_here(void)
{
	struct pd_symbolizer *s = sym_new(NULL);
	struct pd_mapped_file f = mapped(true);
	struct pd_dso *a, *b;

	nr_warnings = 0;
	f.build_id = burn_bid;
	f.build_id_size = burn_n;
	a = pd_symbolizer__mapped_dso(s, &f);
	CHECK(a && pd_dso__loaded(a), "here, table build id, the mapped file: used");
	f.ino += 1;
	b = pd_symbolizer__mapped_dso(s, &f);
	CHECK(b && b != a && !pd_dso__loaded(b) && !pd_dso__build_id(b, &(size_t){ 0 }),
	      "here, the table's build id is that of another file at the path: not used, dropped");
	CHECK(nr_warnings == 1 && strstr(last_warning, "recorded build id is that of"),
	      "one warning saying the build id is the other file's (%s)",
	      last_warning);
	/* the mapped file's own build id, from MMAP2: trusted */
	f.map_build_id = true;
	b = pd_symbolizer__mapped_dso(s, &f);
	CHECK(b == a, "an MMAP2's own build id stands: the DSO of (path, build id)");
	pd_symbolizer__free(s);
}

static void test_roots(void)
{
	const char *const roots[] = { root, NULL };
	struct pd_symbolizer *s = sym_new(roots);
	struct pd_mapped_file f = mapped(true);
	struct pd_dso *d;

	nr_warnings = 0;
	/* the mapped file is burn-nofp, in the root; burn at the path */
	f.build_id = nofp_bid;
	f.build_id_size = nofp_n;
	f.map_build_id = true;
	d = pd_symbolizer__mapped_dso(s, &f);
	CHECK(d && pd_dso__loaded(d) && pd_dso__symsrc(d) &&
	      !strncmp(pd_dso__symsrc(d), root, strlen(root)),
	      "a root's file with the recorded build id is used (%s)",
	      d ? pd_dso__symsrc(d) : "none");
	f.build_id = burn_bid;
	f.build_id_size = burn_n;
	d = pd_symbolizer__mapped_dso(s, &f);
	CHECK(d && pd_dso__loaded(d) && !strcmp(pd_dso__symsrc(d), prog),
	      "the right file of this machine is not shadowed by the root's");
	f.build_id = NULL;
	f.build_id_size = 0;
	f.map_build_id = false;
	f.recorded_here = false;
	f.ino += 1;
	unlink(prog);
	d = pd_symbolizer__mapped_dso(s, &f);
	CHECK(d && !pd_dso__loaded(d),
	      "no build id: a root is never used, even with no file at the path");
	pd_symbolizer__free(s);
}

int main(void)
{
	if (setup()) {
		CHECK(1, "# skip testdata/bin/burn and burn-nofp with build ids not found (PD_TOP)");
		cleanup();
		return tap_done();
	}
	test_ident();
	test_elsewhere();
	test_no_build_id_here();
	test_table_build_id_here();
	test_roots();
	cleanup();
	return tap_done();
}
