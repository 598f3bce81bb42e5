// SPDX-License-Identifier: MIT
/*
 * Reading a profile archive: the compressed tar is streamed once, each
 * member it may hold is written into a private directory (mkdtemp, mode
 * 0700) under a name this code builds, never under the member's own:
 *
 *   perf.data, manifest, kallsyms,       DIR/<same>
 *   vmlinux
 *   .build-id/xx/REST                    DIR/.build-id/xx/REST/elf (+ vdso)
 *   .build-id/xx/REST.debug              DIR/.build-id/xx/REST/debug
 *   jit/perf-PID.map, jit/N.dump         DIR/<same> (PID, N: digits)
 *
 * which is the layout of perf's build-id cache, so the symbolizer reads
 * DIR as its cache. Other members (with acceptable names) are skipped.
 * Refused: absolute names, "..", empty components, links, devices,
 * FIFOs, bad checksums, non-octal sizes, a member seen twice, truncation
 * anywhere, no perf.data. Errors give the offset in the tar stream.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfdata/archive.h>

#include "archive-internal.h"
#include "archive-tar.h"
#include "archive-zio.h"

#define MANIFEST_MAX	(16 * 1024 * 1024)
#define NAMES_MAX	100000
#define COPY_CHUNK	(256 * 1024)

/* Archives still extracted, for pd_archive_cleanup() at a signal. */
static struct pd_archive *live;

struct extract {
	struct pd_archive *a;
	struct pd_zin *z;
	struct pd_logger *log;
	uint64_t off;		/* tar offset of the next byte */
	uint8_t *buf;
	char **seen;		/* member names stored so far */
	size_t nr_seen;
	char *why;
	size_t why_size;
	uint64_t err_off;
};

static int bad(struct extract *x, int err, uint64_t off, const char *fmt, ...)
	PD_PRINTF(4, 5);

static int bad(struct extract *x, int err, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->why, x->why_size, fmt, ap);
	va_end(ap);
	x->err_off = off;
	return err;
}

/* Exactly n bytes of the tar stream, or an error naming what was cut. */
static int tar_read(struct extract *x, void *buf, size_t n, const char *what)
{
	ssize_t got = pd__zin_read(x->z, buf, n);

	if (got == -PD_ERR_BAD_COMPRESSED)
		return bad(x, -PD_ERR_BAD_ARCHIVE, x->off,
			   "corrupt compressed data (compressed offset 0x%llx)",
			   (unsigned long long)pd__zin_offset(x->z));
	if (got == -PD_ERR_TRUNCATED)
		return bad(x, -PD_ERR_TRUNCATED, x->off,
			   "compressed data truncated (compressed offset 0x%llx), in %s",
			   (unsigned long long)pd__zin_offset(x->z), what);
	if (got < 0)
		return bad(x, (int)got, x->off, "read: %s", pd_strerror((int)got));
	if ((size_t)got < n)
		return bad(x, -PD_ERR_TRUNCATED, x->off + got,
			   "archive truncated in %s", what);
	x->off += n;
	return 0;
}

/* Member data: to fd (or dropped when fd < 0), then the block padding. */
static int copy_member(struct extract *x, int fd, uint64_t size,
		       const char *name)
{
	uint64_t left = size, pad = (PD_TAR_BLOCK - size % PD_TAR_BLOCK) % PD_TAR_BLOCK;
	char what[PD_TAR_NAME_MAX + 64];
	int err;

	snprintf(what, sizeof(what), "member '%s' (%llu bytes)", name,
		 (unsigned long long)size);
	while (left) {
		size_t k = left < COPY_CHUNK ? left : COPY_CHUNK;
		const uint8_t *p = x->buf;

		err = tar_read(x, x->buf, k, what);
		if (err)
			return err;
		left -= k;
		while (fd >= 0 && k) {
			ssize_t w = write(fd, p, k);

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return bad(x, -errno, x->off,
					   "extracting '%s': %s", name, strerror(errno));
			p += w;
			k -= w;
		}
	}
	return pad ? tar_read(x, x->buf, pad, what) : 0;
}

static bool is_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n > 0 && n <= 10;
}

/* jit/perf-PID.map and jit/N.dump: JIT symbols, see tools/convert/archive-make.c */
static bool is_jit_member(const char *name, size_t len)
{
	if (len < 5 || memcmp(name, "jit/", 4))
		return false;
	name += 4;
	len -= 4;
	if (len > 9 && !memcmp(name, "perf-", 5) &&
	    !strcmp(name + len - 4, ".map"))
		return is_digits(name + 5, len - 9);
	return len > 5 && !strcmp(name + len - 5, ".dump") &&
	       is_digits(name, len - 5);
}

static bool is_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return n > 0;
}

/*
 * Where a member goes (relative to the directory), or "" to skip it.
 * Makes the directories of a build-id member.
 */
static int member_dest(struct extract *x, const char *name, char *dest,
		       size_t size)
{
	size_t len = strlen(name), rest;
	bool debug;
	char dir[PD_TAR_NAME_MAX + 64];

	dest[0] = '\0';
	if (!strcmp(name, "perf.data") || !strcmp(name, "manifest") ||
	    !strcmp(name, "kallsyms") || !strcmp(name, "vmlinux")) {
		snprintf(dest, size, "%s", name);
		return 0;
	}
	if (is_jit_member(name, len)) {
		snprintf(dir, sizeof(dir), "%s/jit", x->a->dir);
		if (mkdir(dir, 0700) && errno != EEXIST)
			return -errno;
		snprintf(dest, size, "%s", name);
		return 0;
	}
	/* .build-id/xx/REST[.debug]: xx and REST lowercase hex */
	if (len < 14 || memcmp(name, ".build-id/", 10) || name[12] != '/' ||
	    !is_hex(name + 10, 2))
		return 0;
	debug = len > 19 && !strcmp(name + len - 6, ".debug");
	rest = len - 13 - (debug ? 6 : 0);
	if (!is_hex(name + 13, rest) || rest > 78)
		return 0;
	snprintf(dir, sizeof(dir), "%s/.build-id", x->a->dir);
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	snprintf(dir, sizeof(dir), "%s/.build-id/%.2s", x->a->dir, name + 10);
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	snprintf(dir, sizeof(dir), "%s/.build-id/%.2s/%.*s", x->a->dir,
		 name + 10, (int)rest, name + 13);
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	snprintf(dest, size, ".build-id/%.2s/%.*s/%s", name + 10, (int)rest,
		 name + 13, debug ? "debug" : "elf");
	return 0;
}

static int remember(struct extract *x, const char *name, uint64_t hdr_off)
{
	char **n;
	size_t i;

	for (i = 0; i < x->nr_seen; i++)
		if (!strcmp(x->seen[i], name))
			return bad(x, -PD_ERR_BAD_ARCHIVE, hdr_off,
				   "member '%s' appears twice", name);
	if (x->nr_seen >= NAMES_MAX)
		return bad(x, -PD_ERR_BAD_ARCHIVE, hdr_off,
			   "more than %d members", NAMES_MAX);
	n = realloc(x->seen, (x->nr_seen + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	x->seen = n;
	x->seen[x->nr_seen] = strdup(name);
	if (!x->seen[x->nr_seen])
		return -ENOMEM;
	x->nr_seen++;
	return 0;
}

static const char *type_name(char t)
{
	switch (t) {
	case '1': return "hard link";
	case '2': return "symbolic link";
	case '3': return "character device";
	case '4': return "block device";
	case '6': return "FIFO";
	case 'L': case 'K': return "GNU long name";
	default: return "unknown type";
	}
}

static int extract_member(struct extract *x, const struct pd_tar_entry *e,
			  const char *name, uint64_t hdr_off)
{
	char norm[PD_TAR_NAME_MAX], dest[PD_TAR_NAME_MAX + 64], path[4096];
	int fd = -1, err;

	err = pd__tar_check_name(name, norm, sizeof(norm), x->why, x->why_size);
	if (err) {
		x->err_off = hdr_off;
		return err;
	}
	if (e->type == '5')
		return copy_member(x, -1, e->size, norm);
	if (e->type != '0' && e->type != '7')
		return bad(x, -PD_ERR_BAD_ARCHIVE, hdr_off,
			   "member '%s': %s (type '%c') not allowed: only regular files and directories",
			   norm, type_name(e->type), e->type);
	err = member_dest(x, norm, dest, sizeof(dest));
	if (err)
		return bad(x, err, hdr_off, "extracting '%s': %s", norm,
			   strerror(-err));
	if (!dest[0]) {
		pd__debug(x->log, "archive member '%s' skipped (not used)", norm);
		return copy_member(x, -1, e->size, norm);
	}
	err = remember(x, norm, hdr_off);
	if (err)
		return err;
	if (!strcmp(norm, "manifest") && e->size > MANIFEST_MAX)
		return bad(x, -PD_ERR_BAD_ARCHIVE, hdr_off,
			   "member 'manifest': %llu bytes, more than the %d a manifest may have",
			   (unsigned long long)e->size, MANIFEST_MAX);
	snprintf(path, sizeof(path), "%s/%s", x->a->dir, dest);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return bad(x, -errno, hdr_off, "extracting '%s': %s", norm,
			   strerror(errno));
	err = copy_member(x, fd, e->size, norm);
	if (close(fd) && !err)
		err = bad(x, -errno, x->off, "extracting '%s': %s", norm,
			  strerror(errno));
	if (err)
		return err;
	if (!strcmp(dest + strlen(dest) - 4, "/elf")) {
		/* perf's cache names a [vdso] image "vdso" */
		char vdso[4096];

		snprintf(vdso, sizeof(vdso), "%.*svdso",
			 (int)(strlen(path) - 3), path);
		if (link(path, vdso))
			pd__debug(x->log, "%s: %s", vdso, strerror(errno));
	}
	if (!strcmp(norm, "kallsyms")) {
		x->a->kallsyms = strdup(path);
		if (!x->a->kallsyms)
			return -ENOMEM;
	}
	if (!strcmp(norm, "vmlinux")) {
		x->a->vmlinux = strdup(path);
		if (!x->a->vmlinux)
			return -ENOMEM;
	}
	return 0;
}

static int read_all(struct extract *x)
{
	uint8_t blk[PD_TAR_BLOCK];
	char pax_path[PD_TAR_NAME_MAX];
	bool have_pax_path = false, any = false;
	struct pd_tar_entry e;
	int err;

	for (;;) {
		uint64_t hdr_off = x->off;
		ssize_t got = pd__zin_read(x->z, blk, sizeof(blk));

		if (got >= 0 && (size_t)got < sizeof(blk)) {
			if (!any && got == 0)
				return bad(x, -PD_ERR_BAD_ARCHIVE, 0, "empty archive");
			return bad(x, -PD_ERR_TRUNCATED, hdr_off + got,
				   got ? "archive truncated inside a header block" :
				   "archive truncated: it ends without its end-of-archive blocks");
		}
		if (got < 0) {
			err = tar_read(x, blk, sizeof(blk), "a header block");
			return err ? err : -EIO;
		}
		x->off += sizeof(blk);
		err = pd__tar_parse_header(blk, &e, x->why, x->why_size);
		if (err < 0) {
			x->err_off = hdr_off;
			if (!any && !strncmp(x->why, "not a tar header", 16))
				snprintf(x->why, x->why_size,
					 "compressed data that is not a tar archive (no ustar magic at offset 257)");
			return err;
		}
		if (err == 1)
			return 0;	/* end of archive */
		any = true;
		if (e.type == 'x' || e.type == 'g') {
			char *data;

			if (e.size > PD_TAR_PAX_MAX)
				return bad(x, -PD_ERR_BAD_ARCHIVE, hdr_off,
					   "pax header of %llu bytes (at most %d accepted)",
					   (unsigned long long)e.size, PD_TAR_PAX_MAX);
			data = malloc(PD_ALIGN(e.size, PD_TAR_BLOCK) + 1);
			if (!data)
				return -ENOMEM;
			err = tar_read(x, data, PD_ALIGN(e.size, PD_TAR_BLOCK),
				       "a pax header");
			if (!err && e.type == 'x') {
				err = pd__tar_pax_path(data, e.size, pax_path,
						       sizeof(pax_path), x->why,
						       x->why_size);
				if (err < 0)
					x->err_off = hdr_off;
				else
					have_pax_path = err == 1;
				if (err > 0)
					err = 0;
			}
			free(data);
			if (err)
				return err;
			continue;
		}
		err = extract_member(x, &e, have_pax_path ? pax_path : e.name,
				     hdr_off);
		have_pax_path = false;
		if (err)
			return err;
	}
}

static int unhex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The manifest's "\t", "\n" and "\\" escapes, undone in place. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*d++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

/* "jitdump jit/N.dump SIZE SHA256 PATH FROM": path -> the copy. */
static int manifest_jitdump(struct pd_archive *a, char **fld, size_t k)
{
	struct pd_archive_jitdump *j;
	size_t len;

	if (k < 5)
		return 0;
	len = strlen(fld[1]);
	if (len < 9 || memcmp(fld[1], "jit/", 4) ||
	    strcmp(fld[1] + len - 5, ".dump") || !is_jit_member(fld[1], len))
		return 0;
	j = realloc(a->jitdumps, (a->nr_jitdumps + 1) * sizeof(*j));
	if (!j)
		return -ENOMEM;
	a->jitdumps = j;
	j += a->nr_jitdumps;
	unescape(fld[4]);
	j->path = strdup(fld[4]);
	if (!j->path || asprintf(&j->file, "%s/%s", a->dir, fld[1]) < 0) {
		free(j->path);
		return -ENOMEM;
	}
	a->nr_jitdumps++;
	return 0;
}

/* "elf MEMBER SIZE SHA256 BUILDID PATH FROM" lines: path -> build id. */
static int load_manifest(struct pd_archive *a, struct pd_logger *log)
{
	char path[4096], *data, *line, *save = NULL;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/manifest", a->dir);
	f = fopen(path, "rb");
	if (!f)
		return 0;
	data = malloc(MANIFEST_MAX + 1);
	if (!data) {
		fclose(f);
		return -ENOMEM;
	}
	n = (long)fread(data, 1, MANIFEST_MAX, f);
	fclose(f);
	data[n] = '\0';
	if (strncmp(data, "perfdata-archive\t", 17))
		pd__warn(log, "archive manifest without its 'perfdata-archive' first line: ignored");
	else
		for (line = strtok_r(data, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char *fld[8], *t = line;
			struct pd_archive_path *p;
			size_t k = 0, i, blen;

			while (k < 8 && t) {
				fld[k++] = t;
				t = strchr(t, '\t');
				if (t)
					*t++ = '\0';
			}
			if (!strcmp(fld[0], "jitdump")) {
				if (manifest_jitdump(a, fld, k))
					break;
				continue;
			}
			if (k < 6 || strcmp(fld[0], "elf"))
				continue;
			blen = strlen(fld[4]);
			if (blen % 2 || blen > 40 || !is_hex(fld[4], blen))
				continue;
			p = realloc(a->paths, (a->nr_paths + 1) * sizeof(*p));
			if (!p)
				break;
			a->paths = p;
			p += a->nr_paths;
			for (i = 0; i < blen / 2; i++)
				p->bid[i] = unhex(fld[4][2 * i]) << 4 |
					    unhex(fld[4][2 * i + 1]);
			p->bid_size = blen / 2;
			unescape(fld[5]);
			p->path = strdup(fld[5]);
			if (!p->path)
				break;
			a->nr_paths++;
		}
	free(data);
	return 0;
}

/* Remove what extraction made: files and directories, no link followed. */
static void remove_tree(int dirfd, const char *name, int depth)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d;
	struct dirent *de;

	if (fd < 0) {
		unlinkat(dirfd, name, 0);
		return;
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (de->d_type == DT_DIR && depth < 8)
			remove_tree(fd, de->d_name, depth + 1);
		else
			unlinkat(fd, de->d_name, 0);
	}
	closedir(d);
	unlinkat(dirfd, name, AT_REMOVEDIR);
}

static void archive_free(struct pd_archive *a)
{
	struct pd_archive **pp;
	size_t i;

	for (pp = &live; *pp; pp = &(*pp)->next_live)
		if (*pp == a) {
			*pp = a->next_live;
			break;
		}
	if (a->dir)
		remove_tree(AT_FDCWD, a->dir, 0);
	for (i = 0; i < a->nr_paths; i++)
		free(a->paths[i].path);
	free(a->paths);
	for (i = 0; i < a->nr_jitdumps; i++) {
		free(a->jitdumps[i].path);
		free(a->jitdumps[i].file);
	}
	free(a->jitdumps);
	free(a->vmlinux);
	free(a->dir);
	free(a->profile);
	free(a->kallsyms);
	free(a);
}

void pd__archive_get(struct pd_archive *a)
{
	if (a)
		a->refs++;
}

void pd__archive_put(struct pd_archive *a)
{
	if (a && --a->refs == 0)
		archive_free(a);
}

PD_EXPORT void pd_archive_cleanup(void)
{
	struct pd_archive *a;

	for (a = live; a; a = a->next_live)
		if (a->dir)
			remove_tree(AT_FDCWD, a->dir, 0);
}

bool pd__archive_path_bid(const struct pd_archive *a, const char *path,
			  const uint8_t **bid, size_t *size)
{
	size_t i;

	for (i = 0; i < a->nr_paths; i++)
		if (!strcmp(a->paths[i].path, path)) {
			*bid = a->paths[i].bid;
			*size = a->paths[i].bid_size;
			return true;
		}
	return false;
}

const char *pd__archive_jitdump(const struct pd_archive *a, const char *path)
{
	size_t i;

	for (i = 0; i < a->nr_jitdumps; i++)
		if (!strcmp(a->jitdumps[i].path, path))
			return a->jitdumps[i].file;
	return NULL;
}

void pd__archive_perf_map(const struct pd_archive *a, int pid, char *buf,
			  size_t size)
{
	snprintf(buf, size, "%s/jit/perf-%d.map", a->dir, pid);
}

struct pd_archive *pd__archive_extract(struct pd_input *in,
				       struct pd_logger *log, int *err,
				       uint64_t *off, char *why,
				       size_t why_size)
{
	const char *tmpdir = getenv("TMPDIR");
	struct extract x = { .log = log, .why = why, .why_size = why_size };
	struct pd_archive *a;
	ssize_t n;
	size_t i;

	*err = -ENOMEM;
	*off = 0;
	snprintf(why, why_size, "out of memory");
	n = pd_input_fill(in, 4);
	if (n < 0) {
		*err = (int)n;
		snprintf(why, why_size, "read: %s", pd_strerror((int)n));
		return NULL;
	}
	a = calloc(1, sizeof(*a));
	x.buf = malloc(COPY_CHUNK);
	if (!a || !x.buf)
		goto fail;
	a->refs = 1;
	x.a = a;
	x.z = pd__zin_new(in, pd__z_detect(pd_input_ptr(in), n));
	if (!x.z)
		goto fail;
	if (!tmpdir || !*tmpdir)
		tmpdir = "/tmp";
	if (asprintf(&a->dir, "%s/perfdata-archive-XXXXXX", tmpdir) < 0) {
		a->dir = NULL;
		goto fail;
	}
	if (!mkdtemp(a->dir)) {
		*err = -errno;
		snprintf(why, why_size, "temporary directory %s: %s", a->dir,
			 strerror(errno));
		free(a->dir);
		a->dir = NULL;
		goto fail;
	}
	a->next_live = live;
	live = a;
	*err = read_all(&x);
	if (*err) {
		*off = x.err_off;
		goto fail;
	}
	if (asprintf(&a->profile, "%s/perf.data", a->dir) < 0) {
		a->profile = NULL;
		*err = -ENOMEM;
		goto fail;
	}
	if (access(a->profile, F_OK)) {
		*err = -PD_ERR_BAD_ARCHIVE;
		*off = x.off;
		snprintf(why, why_size, "no perf.data member in the archive");
		goto fail;
	}
	*err = load_manifest(a, log);
	if (*err)
		goto fail;
	pd__debug(log, "archive extracted to %s", a->dir);
	goto out;
fail:
	pd__archive_put(a);
	a = NULL;
out:
	for (i = 0; i < x.nr_seen; i++)
		free(x.seen[i]);
	free(x.seen);
	free(x.buf);
	pd__zin_free(x.z);
	return a;
}
