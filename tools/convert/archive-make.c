// SPDX-License-Identifier: MIT
/*
 * Making a profile archive. Stored, besides the profile:
 * - every ELF file the profile names with a build id (its BUILD_ID
 *   table, HEADER_BUILD_ID records, MMAP2 build ids) and every file it
 *   maps executable (their build ids read from the files), like
 *   perf-archive, which takes all build-id DSOs: samples need not be
 *   counted first, and a map without samples costs only its size;
 * - each one found at its recorded path when its build id matches, else
 *   in a build-id cache (an input archive, $PERF_BUILDID_DIR, perf's
 *   buildid.dir config, ~/.debug), else under a --root (by its recorded
 *   build id only);
 *   its separate debug info from the cache or /usr/lib/debug/.build-id
 *   (a root's too);
 * - none for a file the recording machine has another file at the path
 *   for, as the tools find (pd_symbolizer__mapped_check()): without a
 *   build id, or with the build id perf's table took from that other
 *   file, for every map of it;
 *   when none of its files is here, from the debuginfod servers of
 *   $DEBUGINFOD_URLS (unless --no-debuginfod), as pd-fold would fetch
 *   them: the executable, and its debug info when that has no .symtab
 *   or no DWARF;
 * - the recording kernel's kallsyms: --kallsyms, /proc/kallsyms when
 *   the recording kernel is the running one (the same build id, or with
 *   no build id recorded the same os release), or the cache's copy; and
 *   the --vmlinux given, when its build id is the recording kernel's;
 * - JIT symbols, where pd-fold finds them: the jitdump each jit-PID.dump
 *   marker map names (under --symfs), and /tmp/perf-PID.map of each
 *   process with anonymous executable maps (under --symfs too: the
 *   recording machine's /tmp, which a symfs stands for).
 * The manifest, then the binaries, then kallsyms, then perf.data: a
 * reader streaming the archive has the files before the profile.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <perfdata/archive.h>
#include <perfdata/compat.h>
#include <perfdata/debuginfod.h>
#include <perfdata/features.h>
#include <perfdata/session.h>
#include <perfdata/symbols.h>

#include "archive-make.h"
#include "common/cli.h"

#define BID_MAX 20
#define CACHE_DIRS_MAX 4

struct dso_ent {
	char *path;
	uint8_t bid[BID_MAX];
	size_t bid_size;		/* 0: not known yet */
	bool vdso;
	/* what is stored: the first entry of a build id owns the files */
	bool owner;
	char *elf_src, *debug_src;
	char elf_sha[65], debug_sha[65];
	uint64_t elf_size, debug_size;
	const char *missing;		/* why nothing was found */
	bool bid_recorded;		/* bid is the recording's */
	/* its maps whose file is or is not the one at the path here */
	unsigned int maps_ok, maps_refused;
	const char *refused;		/* why, for the last refused */
};

/* A map of a file named by device and inode (MMAP2 without build id). */
struct map_ent {
	char *path;
	uint32_t maj, min;
	uint64_t ino;
};

/* A JIT symbol file: a jitdump (path recorded) or a perf map (pid). */
struct jit_ent {
	char *path;			/* recorded path, or /tmp/perf-PID.map */
	int pid;			/* perf maps */
	bool dump;
	char *src;			/* where found, or NULL */
	char sha[65];
	uint64_t size;
};

struct make {
	const struct archive_make_opts *o;
	const char *archive_dir;	/* the input's, when it is an archive */
	char *work;			/* private temporary directory */
	struct dso_ent *dsos;
	size_t nr, cap;
	uint8_t kbid[BID_MAX];
	size_t kbid_size;
	char *ks_src;			/* kallsyms stored, or NULL */
	const char *ks_missing;
	char osrelease[128];		/* the recording kernel's, or "" */
	char ks_sha[65];
	uint64_t ks_size;
	struct jit_ent *jits;
	size_t nr_jits;
	char *vml_src;			/* the vmlinux stored, or NULL */
	const char *vml_missing;	/* why the one looked at is not */
	char *vml_tried;		/* --vmlinux, or the input archive's */
	char vml_sha[65];
	uint64_t vml_size;
	struct pd_debuginfod *debuginfod;	/* made when first needed */
	bool debuginfod_tried;
	struct map_ent *maps;
	size_t nr_maps;
};

bool archive_name_ok(const char *o)
{
	size_t n = strlen(o);
	static const char *const sfx[] = { ".tar.zst", ".tzst", ".tar.gz", ".tgz" };
	size_t i;

	if (!strcmp(o, "-"))
		return true;
	for (i = 0; i < 4; i++)
		if (n > strlen(sfx[i]) && !strcmp(o + n - strlen(sfx[i]), sfx[i]))
			return true;
	return false;
}

static bool is_gzip_name(const char *o)
{
	size_t n = strlen(o);

	return (n > 7 && !strcmp(o + n - 7, ".tar.gz")) ||
	       (n > 4 && !strcmp(o + n - 4, ".tgz"));
}

static void hex(const uint8_t *b, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = '\0';
}

/* perf's rule: a recorded 20-byte id may be a shorter one zero-padded. */
static bool bid_match(const uint8_t *rec, size_t rn, const uint8_t *file, int fn)
{
	size_t i;

	if (fn <= 0 || (size_t)fn > rn)
		return false;
	if (memcmp(rec, file, fn))
		return false;
	for (i = fn; i < rn; i++)
		if (rec[i])
			return false;
	return true;
}

static bool file_has_bid(const char *path, const uint8_t *bid, size_t n)
{
	uint8_t fb[BID_MAX];
	struct stat st;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	return bid_match(bid, n, fb, pd_elf_build_id(path, fb, sizeof(fb)));
}

static struct dso_ent *add_dso(struct make *m, const char *path,
			       const uint8_t *bid, size_t bid_size)
{
	struct dso_ent *d;
	size_t i;

	if (bid_size > BID_MAX)
		bid_size = BID_MAX;
	for (i = 0; i < m->nr; i++) {
		d = &m->dsos[i];
		if (strcmp(d->path, path))
			continue;
		if (!d->bid_size && bid_size) {
			memcpy(d->bid, bid, bid_size);
			d->bid_size = bid_size;
			d->bid_recorded = true;
		}
		if (!bid_size || (d->bid_size == bid_size &&
				  !memcmp(d->bid, bid, bid_size)))
			return d;
	}
	if (m->nr == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 64;
		struct dso_ent *n = realloc(m->dsos, cap * sizeof(*n));

		if (!n)
			return NULL;
		m->dsos = n;
		m->cap = cap;
	}
	d = &m->dsos[m->nr];
	memset(d, 0, sizeof(*d));
	d->path = strdup(path);
	if (!d->path)
		return NULL;
	memcpy(d->bid, bid, bid_size);
	d->bid_size = bid_size;
	d->bid_recorded = bid_size > 0;
	d->vdso = !strcmp(path, "[vdso]");
	m->nr++;
	return d;
}

static int add_map(struct make *m, const struct pd_mmap_event *mm)
{
	struct map_ent *v;
	size_t i;

	for (i = 0; i < m->nr_maps; i++)
		if (m->maps[i].ino == mm->ino && m->maps[i].maj == mm->maj &&
		    m->maps[i].min == mm->min && !strcmp(m->maps[i].path, mm->filename))
			return 0;
	v = realloc(m->maps, (m->nr_maps + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	m->maps = v;
	v += m->nr_maps;
	v->path = strdup(mm->filename);
	if (!v->path)
		return -ENOMEM;
	v->maj = mm->maj;
	v->min = mm->min;
	v->ino = mm->ino;
	m->nr_maps++;
	return 0;
}

/*
 * Each map named by device and inode, weighed as the tools weigh it on
 * the recording machine: a DSO none of whose maps is its file stores
 * nothing (its entry: the first of its path, as add_dso() finds it).
 */
static void check_maps(struct make *m, struct pd_symbolizer *sym, bool here)
{
	size_t i, j;

	for (i = 0; i < m->nr_maps; i++) {
		const struct map_ent *me = &m->maps[i];
		struct pd_mapped_file f = {
			.sz = sizeof(f), .path = me->path, .has_inode = true,
			.maj = me->maj, .min = me->min, .ino = me->ino,
			.recorded_here = here,
		};
		struct dso_ent *d = NULL;
		const char *why;

		for (j = 0; j < m->nr && !d; j++)
			if (!strcmp(m->dsos[j].path, me->path))
				d = &m->dsos[j];
		if (!d)
			continue;
		if (d->bid_recorded) {
			f.build_id = d->bid;
			f.build_id_size = d->bid_size;
		}
		if (pd_symbolizer__mapped_check(sym, &f, &why)) {
			d->maps_refused++;
			d->refused = why;
		} else {
			d->maps_ok++;
		}
	}
}

/* A build id entry: the kernel's is remembered, files kept. */
static int take_bid(struct make *m, const char *name, const uint8_t *bid,
		    size_t size)
{
	if (!name || !size)
		return 0;
	if (!strcmp(name, "[kernel.kallsyms]")) {
		m->kbid_size = size > BID_MAX ? BID_MAX : size;
		memcpy(m->kbid, bid, m->kbid_size);
		return 0;
	}
	if (name[0] != '/' && strcmp(name, "[vdso]"))
		return 0;	/* modules ([ext4]) come with kallsyms */
	return add_dso(m, name, bid, size) ? 0 : -ENOMEM;
}

/* perf's jit_detect(): ".../jit-<digits>.dump" */
static bool is_jit_marker(const char *name)
{
	const char *p = strrchr(name, '/');
	size_t n;

	if (!p || strncmp(p, "/jit-", 5))
		return false;
	p += 5;
	n = strspn(p, "0123456789");
	return n && !strcmp(p + n, ".dump");
}

/* The maps whose symbols are in /tmp/perf-PID.map (as the session's) */
static bool is_perf_map_name(const char *name)
{
	return !strncmp(name, "//anon", 6) || !strncmp(name, "/dev/zero", 9) ||
	       !strncmp(name, "/anon_hugepage", 14) ||
	       !strncmp(name, "[stack", 6) || !strncmp(name, "/SYSV", 5) ||
	       !strcmp(name, "[heap]");
}

static int add_jit(struct make *m, const char *path, int pid, bool dump)
{
	struct jit_ent *j;
	char name[64];
	size_t i;

	if (!dump) {
		snprintf(name, sizeof(name), "/tmp/perf-%d.map", pid);
		path = name;
	}
	for (i = 0; i < m->nr_jits; i++)
		if (!strcmp(m->jits[i].path, path))
			return 0;
	j = realloc(m->jits, (m->nr_jits + 1) * sizeof(*j));
	if (!j)
		return -ENOMEM;
	m->jits = j;
	j += m->nr_jits;
	memset(j, 0, sizeof(*j));
	j->path = strdup(path);
	if (!j->path)
		return -ENOMEM;
	j->pid = pid;
	j->dump = dump;
	m->nr_jits++;
	return 0;
}

/*
 * The copy of the profile made here keeps the input's modification time,
 * which tells when the recording ended (pd_session__recorded_here()).
 */
static void keep_mtime(const char *input, const char *copy)
{
	struct timespec t[2];
	struct stat st;

	if (strcmp(input, "<stdin>") ? stat(input, &st) : fstat(0, &st))
		return;
	if (!S_ISREG(st.st_mode))
		return;
	t[0] = st.st_atim;
	t[1] = st.st_mtim;
	utimensat(AT_FDCWD, copy, t, 0);
}

/*
 * Every file the profile names (see the top of this file), and a session
 * that follows the records, to tell whether the recording was made here.
 */
static int collect(struct make *m, const char *profile)
{
	struct pd_reader_opts ro = { .sz = sizeof(ro), .name = m->o->input };
	struct pd_symbolizer_opts so = {
		.sz = sizeof(so), .symfs = m->o->symfs, .no_debuginfod = true,
	};
	struct pd_session_opts xo = { .sz = sizeof(xo) };
	struct pd_symbolizer *sym = NULL;
	struct pd_session *sess = NULL;
	const struct pd_features *f;
	const struct pd_event *ev;
	struct pd_reader *r;
	uint32_t i;
	int err;

	r = pd_reader__open(profile, &ro);
	if (!r) {
		pd_err("%s", pd_reader__open_errmsg());
		return -1;
	}
	sym = pd_symbolizer__new(&so);
	xo.symbolizer = sym;
	sess = sym ? pd_session__new(r, &xo) : NULL;
	if (!sess) {
		pd_err("%s", strerror(ENOMEM));
		goto fail;
	}
	while ((err = pd_reader__next(r, &ev)) > 0) {
		if (pd_session__event(sess, ev) == -ENOMEM) {
			err = -ENOMEM;
			break;
		}
		if (ev->type == PD_RECORD_MMAP2 && !ev->u.mmap.has_build_id &&
		    ev->u.mmap.ino && ev->u.mmap.filename &&
		    ev->u.mmap.filename[0] == '/' &&
		    (ev->misc & PD_MISC_CPUMODE_MASK) != PD_MISC_KERNEL &&
		    (ev->u.mmap.prot & PROT_EXEC))
			err = add_map(m, &ev->u.mmap);
		if (err < 0)
			break;
		if (ev->type == PD_RECORD_HEADER_BUILD_ID) {
			err = take_bid(m, ev->u.build_id.filename,
				       ev->u.build_id.build_id, ev->u.build_id.size);
		} else if (ev->type == PD_RECORD_MMAP2 && ev->u.mmap.has_build_id &&
			   (ev->misc & PD_MISC_CPUMODE_MASK) == PD_MISC_KERNEL &&
			   ev->u.mmap.filename &&
			   !strncmp(ev->u.mmap.filename, "[kernel.kallsyms]", 17)) {
			/* perf 7.x's kernel map ([kernel.kallsyms]_text)
			 * carries the kernel's build id, which it writes in
			 * no BUILD_ID table */
			err = take_bid(m, "[kernel.kallsyms]", ev->u.mmap.build_id,
				       ev->u.mmap.build_id_size);
		} else if ((ev->type == PD_RECORD_MMAP || ev->type == PD_RECORD_MMAP2) &&
			   !(ev->misc & PD_MISC_MMAP_DATA) && ev->u.mmap.filename &&
			   (is_jit_marker(ev->u.mmap.filename) ||
			    is_perf_map_name(ev->u.mmap.filename))) {
			err = add_jit(m, ev->u.mmap.filename, (int)ev->u.mmap.pid,
				      is_jit_marker(ev->u.mmap.filename));
		} else if ((ev->type == PD_RECORD_MMAP || ev->type == PD_RECORD_MMAP2) &&
			   !(ev->misc & PD_MISC_MMAP_DATA) &&
			   ev->u.mmap.filename && ev->u.mmap.filename[0] == '/') {
			err = add_dso(m, ev->u.mmap.filename, ev->u.mmap.build_id,
				      ev->u.mmap.has_build_id ?
				      ev->u.mmap.build_id_size : 0) ? 0 : -ENOMEM;
		}
		if (err < 0)
			break;
	}
	if (err < 0) {
		pd_err("%s", err == -ENOMEM ? strerror(ENOMEM) : pd_reader__errmsg(r));
		goto fail;
	}
	f = pd_reader__features(r);
	if (f && pd_features__has(f, PD_FEAT_BUILD_ID))
		for (i = 0; i < f->build_ids.nr; i++)
			if (take_bid(m, f->build_ids.ids[i].filename,
				     f->build_ids.ids[i].id,
				     f->build_ids.ids[i].size)) {
				pd_err("%s", strerror(ENOMEM));
				goto fail;
			}
	if (f && f->osrelease)
		snprintf(m->osrelease, sizeof(m->osrelease), "%s", f->osrelease);
	check_maps(m, sym, pd_session__recorded_here(sess));
	pd_session__free(sess);
	pd_symbolizer__free(sym);
	pd_reader__close(r);
	return 0;
fail:
	pd_session__free(sess);
	pd_symbolizer__free(sym);
	pd_reader__close(r);
	return -1;
}

/*
 * The build-id caches searched, in order: the input archive's,
 * $PERF_BUILDID_DIR, then what perf itself reads: SYMFS/.debug under a
 * symfs, else buildid.dir of perf's configuration, then ~/.debug.
 */
static size_t cache_dirs(const struct make *m, const char **dirs,
			 char home[2][4096])
{
	const char *env = getenv("PERF_BUILDID_DIR"), *h = getenv("HOME");
	size_t n = 0;

	if (m->archive_dir)
		dirs[n++] = m->archive_dir;
	if (env && *env)
		dirs[n++] = env;
	if (m->o->symfs) {
		snprintf(home[0], 4096, "%s/.debug", m->o->symfs);
		dirs[n++] = home[0];
		return n;
	}
	if (pd_perf_config_buildid_dir(home[1], 4096))
		dirs[n++] = home[1];
	if (h && *h) {
		snprintf(home[0], 4096, "%s/.debug", h);
		dirs[n++] = home[0];
	}
	return n;
}

static char *find_in_caches(const struct make *m, const struct dso_ent *d,
			    const char *base)
{
	char home[2][4096], path[4200], hx[2 * BID_MAX + 1];
	const char *dirs[CACHE_DIRS_MAX];
	size_t i, n = cache_dirs(m, dirs, home);

	hex(d->bid, d->bid_size, hx);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s/%s", dirs[i],
			 hx, hx + 2, base);
		if (file_has_bid(path, d->bid, d->bid_size))
			return strdup(path);
		/* an old-style cache links the file itself */
		snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s", dirs[i],
			 hx, hx + 2);
		if (strcmp(base, "debug") && file_has_bid(path, d->bid, d->bid_size))
			return strdup(path);
	}
	return NULL;
}

static void input_member(const struct make *m, const char *kind,
			 size_t path_field, const char *prefix, const char *path,
			 char *buf, size_t size);

/* A DSO none of whose files is here: from debuginfod, if servers are set. */
static void fetch_files(struct make *m, struct dso_ent *d)
{
	if (m->o->no_debuginfod)
		return;
	if (!m->debuginfod_tried) {
		struct pd_debuginfod_opts o = { .sz = sizeof(o) };

		m->debuginfod_tried = true;
		m->debuginfod = pd_debuginfod__new(&o);
		if (!m->debuginfod && errno == ENOSYS)
			pd_warn("DEBUGINFOD_URLS is set, but this build has no debuginfod support (make static, or built without libdebuginfod): files missing here are not fetched");
	}
	if (m->debuginfod)
		pd_debuginfod__find_dso(m->debuginfod, d->bid, d->bid_size,
					d->path, &d->elf_src, &d->debug_src);
}

/*
 * Under each --root, by the recorded build id only: the file at the
 * recorded path and its debug info in the root's /usr/lib/debug.
 */
static void find_in_roots(const struct make *m, struct dso_ent *d)
{
	const char *const *root;
	char path[4200], hx[2 * BID_MAX + 1];

	if (!d->bid_recorded || d->vdso || d->path[0] != '/')
		return;
	hex(d->bid, d->bid_size, hx);
	for (root = m->o->roots; root && *root; root++) {
		if (!d->elf_src) {
			snprintf(path, sizeof(path), "%s%s", *root, d->path);
			if (file_has_bid(path, d->bid, d->bid_size))
				d->elf_src = strdup(path);
		}
		if (!d->debug_src) {
			snprintf(path, sizeof(path), "%s/usr/lib/debug/.build-id/%.2s/%s.debug",
				 *root, hx, hx + 2);
			if (file_has_bid(path, d->bid, d->bid_size))
				d->debug_src = strdup(path);
		}
	}
}

static void find_files(struct make *m, struct dso_ent *d)
{
	char path[4200], hx[2 * BID_MAX + 1];
	uint8_t fb[BID_MAX];
	int n;

	/* the file at the path here is not the mapped one (check_maps()) */
	if (d->maps_refused && !d->maps_ok) {
		d->missing = d->refused;
		return;
	}
	if (!d->bid_size) {
		/* no recorded build id: the file's own, if it is there, else
		 * the input archive's copy of that path */
		snprintf(path, sizeof(path), "%s%s", m->o->symfs ? m->o->symfs : "",
			 d->path);
		if (access(path, F_OK)) {
			/* extracted as perf's cache holds it: .build-id/xx/rest/elf */
			input_member(m, "elf", 5, ".build-id/", d->path, path,
				     sizeof(path) - 4);
			if (path[0])
				strcat(path, "/elf");
		}
		n = pd_elf_build_id(path, fb, sizeof(fb));
		if (n <= 0) {
			d->missing = access(path, F_OK) ? "not found (no build id recorded)" :
				     "no build id (not ELF?)";
			return;
		}
		memcpy(d->bid, fb, n);
		d->bid_size = n;
	}
	snprintf(path, sizeof(path), "%s%s", m->o->symfs ? m->o->symfs : "", d->path);
	if (!d->vdso && file_has_bid(path, d->bid, d->bid_size))
		d->elf_src = strdup(path);
	if (!d->elf_src)
		d->elf_src = find_in_caches(m, d, d->vdso ? "vdso" : "elf");
	d->debug_src = find_in_caches(m, d, "debug");
	hex(d->bid, d->bid_size, hx);
	if (!d->debug_src) {
		snprintf(path, sizeof(path), "%s/usr/lib/debug/.build-id/%.2s/%s.debug",
			 m->o->symfs ? m->o->symfs : "", hx, hx + 2);
		if (file_has_bid(path, d->bid, d->bid_size))
			d->debug_src = strdup(path);
	}
	find_in_roots(m, d);
	if (!d->elf_src && !d->debug_src)
		fetch_files(m, d);
	if (!d->elf_src && !d->debug_src)
		d->missing = access(path, F_OK) ? "not found with this build id (recorded path, build-id caches)" :
			     "not found with this build id";
}

/* "\t", "\n" and "\\" escaped: one manifest field. */
static void put_field(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\t')
			fputs("\\t", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '\\')
			fputs("\\\\", f);
		else
			fputc(*s, f);
	}
}

static int digest(const char *path, char sha[65], uint64_t *size)
{
	int err = pd_sha256_file(path, sha, size);

	if (err)
		pd_err("%s: %s", path, strerror(-err));
	return err;
}

/* /proc/kallsyms copied (stat gives it size 0); NULL if unusable. */
static char *copy_kallsyms(struct make *m, const char *src, const char **why)
{
	char *dst = NULL, line[512];
	FILE *in = fopen(src, "r"), *out;
	bool nonzero = false;

	if (!in) {
		*why = "cannot be read";
		return NULL;
	}
	if (asprintf(&dst, "%s/kallsyms", m->work) < 0) {
		fclose(in);
		return NULL;
	}
	out = fopen(dst, "w");
	while (out && fgets(line, sizeof(line), in)) {
		if (strspn(line, "0") < strspn(line, "0123456789abcdef"))
			nonzero = true;
		fputs(line, out);
	}
	fclose(in);
	if (!out || fclose(out) || !nonzero) {
		*why = out ? "addresses hidden (kernel.kptr_restrict; run as root)" :
			     "cannot be copied";
		free(dst);
		return NULL;
	}
	return dst;
}

static void find_kallsyms(struct make *m)
{
	char home[2][4096], path[4200], hx[2 * BID_MAX + 1];
	uint8_t run[BID_MAX];
	const char *dirs[CACHE_DIRS_MAX];
	size_t i, n;
	int rn;

	if (m->o->kallsyms) {
		m->ks_src = copy_kallsyms(m, m->o->kallsyms, &m->ks_missing);
		return;
	}
	if (!m->kbid_size) {
		struct utsname u;

		/*
		 * perf records no kernel build id where it reads none (a
		 * kernel without the note, or perf 7.x's profiles, issue
		 * 18): the header's os release then says which kernel it
		 * was, and the running one's kallsyms are its symbols when
		 * the releases match.
		 */
		if (m->osrelease[0] && !uname(&u) &&
		    !strcmp(u.release, m->osrelease)) {
			m->ks_src = copy_kallsyms(m, "/proc/kallsyms",
						  &m->ks_missing);
			return;
		}
		m->ks_missing = m->osrelease[0] ?
			"the profile names no kernel build id and its os release is not the running kernel's (--kallsyms=FILE)" :
			"the profile names no kernel build id nor os release: not known which kernel's";
		return;
	}
	rn = pd_running_kernel_build_id(run, sizeof(run));
	if (bid_match(m->kbid, m->kbid_size, run, rn)) {
		m->ks_src = copy_kallsyms(m, "/proc/kallsyms", &m->ks_missing);
		return;
	}
	hex(m->kbid, m->kbid_size, hx);
	n = cache_dirs(m, dirs, home);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/[kernel.kallsyms]/%s/kallsyms",
			 dirs[i], hx);
		if (!access(path, R_OK)) {
			m->ks_src = copy_kallsyms(m, path, &m->ks_missing);
			return;
		}
		/* an extracted archive keeps it at its top */
		snprintf(path, sizeof(path), "%s/kallsyms", dirs[i]);
		if (dirs[i] == m->archive_dir && !access(path, R_OK)) {
			m->ks_src = copy_kallsyms(m, path, &m->ks_missing);
			return;
		}
	}
	m->ks_missing = "the recording kernel is not the running one and no copy was found (--kallsyms=FILE)";
}

/*
 * The copy an input archive holds of the file recorded at path, from its
 * manifest: the line of kind ("elf", "jitdump") whose field path_field is
 * the path and whose member lies under prefix; "" if none.
 */
static void input_member(const struct make *m, const char *kind,
			 size_t path_field, const char *prefix, const char *path,
			 char *buf, size_t size)
{
	char *line = NULL, *esc = NULL, *f[7];
	size_t cap = 0, len = 0, k;
	FILE *in, *e;

	buf[0] = '\0';
	if (!m->archive_dir)
		return;
	snprintf(buf, size, "%s/manifest", m->archive_dir);
	in = fopen(buf, "re");
	buf[0] = '\0';
	e = open_memstream(&esc, &len);
	if (!in || !e) {
		if (in)
			fclose(in);
		if (e)
			fclose(e);
		free(esc);
		return;
	}
	put_field(e, path);
	fclose(e);
	while (getline(&line, &cap, in) > 0) {
		char *t = line;

		line[strcspn(line, "\n")] = '\0';
		for (k = 0; k < 7 && t; k++) {
			f[k] = t;
			t = strchr(t, '\t');
			if (t)
				*t++ = '\0';
		}
		if (k > path_field && !strcmp(f[0], kind) &&
		    !strcmp(f[path_field], esc) &&
		    !strncmp(f[1], prefix, strlen(prefix)) && !strstr(f[1], "..")) {
			snprintf(buf, size, "%s/%s", m->archive_dir, f[1]);
			break;
		}
	}
	free(line);
	free(esc);
	fclose(in);
}

/* The input archive's copy of the jitdump recorded at path, or "". */
static void input_jitdump(const struct make *m, const char *path, char *buf,
			  size_t size)
{
	input_member(m, "jitdump", 4, "jit/", path, buf, size);
}

/* A JIT file's member: jit/N.dump (N counting dumps), jit/perf-PID.map */
static void jit_member(const struct make *m, size_t i, char *buf, size_t size)
{
	size_t k, n = 0;

	if (!m->jits[i].dump) {
		snprintf(buf, size, "jit/perf-%d.map", m->jits[i].pid);
		return;
	}
	for (k = 0; k <= i; k++)
		n += m->jits[k].dump;
	snprintf(buf, size, "jit/%zu.dump", n);
}

/* Each JIT symbol file where pd-fold reads it (top of this file). */
static int find_jits(struct make *m)
{
	char path[4200];
	size_t i;

	for (i = 0; i < m->nr_jits; i++) {
		struct jit_ent *j = &m->jits[i];
		struct stat st;

		snprintf(path, sizeof(path), "%s%s", m->o->symfs ? m->o->symfs : "",
			 j->path);
		/* an input archive: its copies only, as tools read them */
		if (m->archive_dir && j->dump)
			input_jitdump(m, j->path, path, sizeof(path));
		else if (m->archive_dir)
			snprintf(path, sizeof(path), "%s/jit/perf-%d.map",
				 m->archive_dir, j->pid);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		j->src = strdup(path);
		if (!j->src)
			return -ENOMEM;
		if (pd_sha256_file(j->src, j->sha, &j->size)) {
			pd_err("%s: %s", j->src, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/*
 * --vmlinux, else the input archive's vmlinux: stored when it is the
 * recording kernel's (by build id).
 */
static void find_vmlinux(struct make *m)
{
	const char *src = m->o->vmlinux;
	char path[4200];
	uint8_t fb[BID_MAX];
	int n;

	if (!src && m->archive_dir) {
		snprintf(path, sizeof(path), "%s/vmlinux", m->archive_dir);
		if (!access(path, R_OK))
			src = path;
	}
	if (!src)
		return;
	m->vml_tried = strdup(src);
	n = pd_elf_build_id(src, fb, sizeof(fb));
	if (access(src, R_OK))
		m->vml_missing = "not found";
	else if (n <= 0)
		m->vml_missing = "no build id (not a vmlinux?)";
	else if (m->kbid_size && !bid_match(m->kbid, m->kbid_size, fb, n))
		m->vml_missing = "its build id is not the recording kernel's";
	else
		m->vml_src = strdup(src);
}

static int write_manifest(struct make *m, const char *path, uint64_t psize,
			  const char *psha)
{
	char hx[2 * BID_MAX + 1], ts[64];
	time_t now = time(NULL);
	struct tm tm;
	size_t i;
	FILE *f = fopen(path, "w");

	if (!f) {
		pd_err("%s: %s", path, strerror(errno));
		return -1;
	}
	gmtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fprintf(f, "perfdata-archive\t%d\n", PD_ARCHIVE_VERSION);
	fprintf(f, "created-by\tpd-convert (perfdata)\n");
	fprintf(f, "created-at\t%s\n", ts);
	fprintf(f, "profile\tperf.data\t%llu\t%s\t", (unsigned long long)psize, psha);
	put_field(f, m->o->input);
	fputc('\n', f);
	for (i = 0; i < m->nr; i++) {
		struct dso_ent *d = &m->dsos[i];
		const struct dso_ent *o = d;
		size_t j;

		hex(d->bid, d->bid_size, hx);
		if (d->missing) {
			fprintf(f, "missing\t%s\t", d->bid_size ? hx : "-");
			put_field(f, d->path);
			fprintf(f, "\t%s\n", d->missing);
			continue;
		}
		/* the stored copy of this build id */
		for (j = 0; j < i; j++)
			if (m->dsos[j].owner && m->dsos[j].bid_size == d->bid_size &&
			    !memcmp(m->dsos[j].bid, d->bid, d->bid_size)) {
				o = &m->dsos[j];
				break;
			}
		if (o->elf_src) {
			fprintf(f, "elf\t.build-id/%.2s/%s\t%llu\t%s\t%s\t", hx, hx + 2,
				(unsigned long long)o->elf_size, o->elf_sha, hx);
			put_field(f, d->path);
			fputc('\t', f);
			put_field(f, o->elf_src);
			fputc('\n', f);
		}
		if (o->debug_src) {
			fprintf(f, "debug\t.build-id/%.2s/%s.debug\t%llu\t%s\t%s\t", hx,
				hx + 2, (unsigned long long)o->debug_size,
				o->debug_sha, hx);
			put_field(f, d->path);
			fputc('\t', f);
			put_field(f, o->debug_src);
			fputc('\n', f);
		}
		if (!o->elf_src)
			fprintf(f, "missing\t%s\t%s\tonly its debug info was found\n",
				hx, d->path);
	}
	for (i = 0; i < m->nr_jits; i++) {
		const struct jit_ent *j = &m->jits[i];
		char member[64];

		jit_member(m, i, member, sizeof(member));
		if (!j->src) {
			fputs("missing\t-\t", f);
			put_field(f, j->path);
			fprintf(f, "\t%s\n", j->dump ? "jitdump not found" :
				"perf map not found (no JIT symbols, or none written)");
			continue;
		}
		if (j->dump)
			fprintf(f, "jitdump\t%s\t%llu\t%s\t", member,
				(unsigned long long)j->size, j->sha);
		else
			fprintf(f, "perf-map\t%s\t%llu\t%s\t%d\t", member,
				(unsigned long long)j->size, j->sha, j->pid);
		put_field(f, j->path);
		fputc('\t', f);
		put_field(f, j->src);
		fputc('\n', f);
	}
	hex(m->kbid, m->kbid_size, hx);
	if (m->vml_src) {
		fprintf(f, "vmlinux\tvmlinux\t%llu\t%s\t%s\t",
			(unsigned long long)m->vml_size, m->vml_sha,
			m->kbid_size ? hx : "-");
		put_field(f, m->vml_src);
		fputc('\n', f);
	} else if (m->vml_missing) {
		fprintf(f, "missing\t%s\t", m->kbid_size ? hx : "-");
		put_field(f, m->vml_tried ? m->vml_tried : "?");
		fprintf(f, "\t%s: %s\n", m->o->vmlinux ? "--vmlinux" : "the input's vmlinux",
			m->vml_missing);
	}
	if (m->ks_src)
		fprintf(f, "kallsyms\tkallsyms\t%llu\t%s\t%s\n",
			(unsigned long long)m->ks_size, m->ks_sha,
			m->kbid_size ? hx : "-");
	else
		fprintf(f, "missing\t%s\t[kernel.kallsyms]\t%s\n",
			m->kbid_size ? hx : "-", m->ks_missing ? m->ks_missing : "not found");
	if (fclose(f)) {
		pd_err("%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static void remove_work(struct make *m)
{
	char path[4200];

	if (!m->work)
		return;
	snprintf(path, sizeof(path), "%s/perf.data", m->work);
	unlink(path);
	snprintf(path, sizeof(path), "%s/manifest", m->work);
	unlink(path);
	snprintf(path, sizeof(path), "%s/kallsyms", m->work);
	unlink(path);
	rmdir(m->work);
	free(m->work);
	m->work = NULL;
	pd_debuginfod__free(m->debuginfod);
	m->debuginfod = NULL;
}

static void summary(const struct make *m, size_t stored)
{
	size_t i, missing = 0;

	for (i = 0; i < m->nr; i++)
		missing += !!m->dsos[i].missing;
	if (!missing && m->ks_src && !m->vml_missing)
		for (i = 0; i < m->nr_jits; i++)
			if (m->jits[i].dump && !m->jits[i].src)
				break;
	if (!missing && m->ks_src && !m->vml_missing && i == m->nr_jits)
		return;
	if (missing)
		pd_warn("%s: %zu of %zu files not found, their frames will stay unresolved from the archive (%zu stored):",
			m->o->output, missing, m->nr, stored);
	for (i = 0; i < m->nr && !pd_quiet; i++)
		if (m->dsos[i].missing)
			fprintf(stderr, "  %s: %s\n", m->dsos[i].path, m->dsos[i].missing);
	if (!m->ks_src)
		pd_warn("%s: no kallsyms stored: %s", m->o->output,
			m->ks_missing ? m->ks_missing : "not found");
	for (i = 0; i < m->nr_jits; i++)
		if (m->jits[i].dump && !m->jits[i].src)
			pd_warn("%s: jitdump %s not found: its JIT frames will stay unresolved from the archive",
				m->o->output, m->jits[i].path);
	if (m->vml_missing)
		pd_warn("%s: %s %s not stored: %s", m->o->output,
			m->o->vmlinux ? "--vmlinux" : "the input's vmlinux",
			m->vml_tried ? m->vml_tried : "?", m->vml_missing);
}

int archive_make(struct pd_reader *r, const struct archive_make_opts *o)
{
	struct pd_convert_opts co = { .sz = sizeof(co), .mode = -1, .compress = 1 };
	struct pd_archive_writer_opts wo = { .sz = sizeof(wo), .level = o->level };
	struct pd_archive_writer *w = NULL;
	struct pd_convert_report rep;
	struct make m = { .o = o };
	const char *tmpdir = getenv("TMPDIR");
	char profile[4200], manifest[4200], errmsg[512], psha[65], hx[2 * BID_MAX + 1];
	char member[128];
	uint64_t psize;
	size_t i, j, stored = 0;
	int ret = PD_EXIT_DATA, err;

	m.archive_dir = pd_reader__archive_dir(r);
	if (asprintf(&m.work, "%s/pd-archive-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp") < 0 ||
	    !mkdtemp(m.work)) {
		pd_err("temporary directory: %s", strerror(errno));
		free(m.work);
		return PD_EXIT_DATA;
	}
	/* the profile, records zstd-compressed */
	snprintf(profile, sizeof(profile), "%s/perf.data", m.work);
	snprintf(manifest, sizeof(manifest), "%s/manifest", m.work);
	err = pd_convert(r, profile, &co, &rep, errmsg, sizeof(errmsg));
	if (err) {
		pd_err("%s", errmsg[0] ? errmsg : pd_strerror(err));
		goto out;
	}
	keep_mtime(o->input, profile);
	if (collect(&m, profile))
		goto out;
	for (i = 0; i < m.nr; i++) {
		struct dso_ent *d = &m.dsos[i];

		find_files(&m, d);
		if (d->missing)
			continue;
		for (j = 0; j < i; j++)
			if (m.dsos[j].owner && m.dsos[j].bid_size == d->bid_size &&
			    !memcmp(m.dsos[j].bid, d->bid, d->bid_size))
				break;
		if (j < i)
			continue;	/* stored once, under its build id */
		d->owner = true;
		if ((d->elf_src && digest(d->elf_src, d->elf_sha, &d->elf_size)) ||
		    (d->debug_src && digest(d->debug_src, d->debug_sha, &d->debug_size)))
			goto out;
	}
	find_kallsyms(&m);
	if (m.ks_src && digest(m.ks_src, m.ks_sha, &m.ks_size))
		goto out;
	find_vmlinux(&m);
	if (m.vml_src && digest(m.vml_src, m.vml_sha, &m.vml_size))
		goto out;
	if (find_jits(&m))
		goto out;
	if (digest(profile, psha, &psize) || write_manifest(&m, manifest, psize, psha))
		goto out;

	wo.compression = is_gzip_name(o->output) ? PD_ARCHIVE_GZIP : PD_ARCHIVE_ZSTD;
	wo.mtime = time(NULL);
	w = pd_archive_writer__open(o->output, &wo);
	if (!w) {
		pd_err("%s: %s", o->output, strerror(errno));
		goto out;
	}
	if (pd_archive_writer__add_file(w, "manifest", manifest))
		goto werr;
	for (i = 0; i < m.nr; i++) {
		struct dso_ent *d = &m.dsos[i];

		if (!d->owner)
			continue;
		hex(d->bid, d->bid_size, hx);
		stored++;
		snprintf(member, sizeof(member), ".build-id/%.2s/%s", hx, hx + 2);
		if (d->elf_src && pd_archive_writer__add_file(w, member, d->elf_src))
			goto werr;
		snprintf(member, sizeof(member), ".build-id/%.2s/%s.debug", hx, hx + 2);
		if (d->debug_src && pd_archive_writer__add_file(w, member, d->debug_src))
			goto werr;
	}
	if (m.vml_src && pd_archive_writer__add_file(w, "vmlinux", m.vml_src))
		goto werr;
	if (m.ks_src && pd_archive_writer__add_file(w, "kallsyms", m.ks_src))
		goto werr;
	for (i = 0; i < m.nr_jits; i++) {
		jit_member(&m, i, member, sizeof(member));
		if (m.jits[i].src &&
		    pd_archive_writer__add_file(w, member, m.jits[i].src))
			goto werr;
	}
	if (pd_archive_writer__add_file(w, "perf.data", profile) ||
	    pd_archive_writer__finish(w))
		goto werr;
	if (!pd_quiet)
		summary(&m, stored);
	ret = PD_EXIT_OK;
	goto out;
werr:
	pd_err("%s", pd_archive_writer__errmsg(w));
out:
	pd_archive_writer__free(w);
	remove_work(&m);
	for (i = 0; i < m.nr; i++) {
		free(m.dsos[i].path);
		free(m.dsos[i].elf_src);
		free(m.dsos[i].debug_src);
	}
	free(m.dsos);
	for (i = 0; i < m.nr_maps; i++)
		free(m.maps[i].path);
	free(m.maps);
	free(m.ks_src);
	for (i = 0; i < m.nr_jits; i++) {
		free(m.jits[i].path);
		free(m.jits[i].src);
	}
	free(m.jits);
	free(m.vml_src);
	free(m.vml_tried);
	return ret;
}
