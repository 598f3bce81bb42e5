// SPDX-License-Identifier: MIT
/*
 * The build-id cache, written as perf record keeps it (perf's
 * build_id_cache__add() in util/build-id.c), so that perf and every pd
 * tool find a file by its build id once the file, or the container that
 * held it, is gone:
 *
 *	DIR/PATH/BUILDID/elf		the file (vdso for [vdso], kallsyms
 *					for [kernel.kallsyms])
 *	DIR/.build-id/xx/rest		-> ../../PATH/BUILDID
 *
 * DIR is $PERF_BUILDID_DIR, else buildid.dir of perf's configuration,
 * else ~/.debug, as the library's symbolizer reads it. Each file is
 * written once: a build id whose file the cache holds already is left
 * alone, and a copy is written to a temporary file renamed into place,
 * so that a reader never sees half a file. The link comes last: it never
 * names a directory without its file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfdata/symbols.h>

#include "record.h"

struct rec_bidcache {
	char *dir;
};

struct rec_bidcache *rec_bidcache__new(void)
{
	const char *env = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");
	struct rec_bidcache *c = calloc(1, sizeof(*c));
	char conf[4096];

	if (!c)
		return NULL;
	if (env && *env)
		c->dir = strdup(env);
	else if (pd_perf_config_buildid_dir(conf, sizeof(conf)))
		c->dir = strdup(conf);
	else if (home && *home && asprintf(&c->dir, "%s/.debug", home) < 0)
		c->dir = NULL;
	if (!c->dir) {
		free(c);
		errno = env || home ? ENOMEM : ENOENT;
		return NULL;
	}
	return c;
}

void rec_bidcache__free(struct rec_bidcache *c)
{
	if (!c)
		return;
	free(c->dir);
	free(c);
}

const char *rec_bidcache__dir(const struct rec_bidcache *c)
{
	return c->dir;
}

static void hex(char *out, const uint8_t *id, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * size] = '\0';
}

static const char *basename_of(enum rec_cache_kind kind)
{
	return kind == REC_CACHE_VDSO ? "vdso" :
	       kind == REC_CACHE_KALLSYMS ? "kallsyms" : "elf";
}

bool rec_bidcache__has(const struct rec_bidcache *c, const uint8_t *id,
		       size_t size, enum rec_cache_kind kind)
{
	char h[2 * REC_BUILD_ID_MAX + 1], path[4200];
	struct stat st;

	if (!size || size > REC_BUILD_ID_MAX)
		return false;
	hex(h, id, size);
	if (kind == REC_CACHE_KALLSYMS) {
		/* perf reads the kernel's by its name, not by the link */
		snprintf(path, sizeof(path), "%s/[kernel.kallsyms]/%s/kallsyms",
			 c->dir, h);
		return !stat(path, &st);
	}
	snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s", c->dir, h, h + 2);
	if (!lstat(path, &st) && S_ISREG(st.st_mode))
		return true;	/* an old cache links the file itself */
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/%s",
		 basename_of(kind));
	return !stat(path, &st);
}

/* mkdir -p, each new directory 0755 as perf makes them */
static int mkdirs(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int rec_write_all(int out, const void *buf, size_t len)
{
	while (len) {
		ssize_t w = write(out, buf, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		buf = (const char *)buf + w;
		len -= w;
	}
	return 0;
}

int rec_copy_fd(int fd, int out)
{
	static char buf[65536];
	ssize_t n;
	int err;

	if (lseek(fd, 0, SEEK_SET) < 0 && errno != ESPIPE)
		return -errno;
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : 0;
		err = rec_write_all(out, buf, n);
		if (err)
			return err;
	}
}

int rec_write_atomic(const char *path, mode_t mode, rec_write_fn fn,
		     void *ctx)
{
	const char *slash = strrchr(path, '/');
	char *tmp;
	int out, err = 0;

	if (!slash ||
	    asprintf(&tmp, "%.*s/.%s.XXXXXX", (int)(slash - path), path,
		     slash + 1) < 0)
		return -ENOMEM;
	out = mkstemp(tmp);
	if (out < 0) {
		err = -errno;
		free(tmp);
		return err;
	}
	if (fchmod(out, mode))
		err = -errno;
	if (!err)
		err = fn(ctx, out);
	if (close(out) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	free(tmp);
	return err;
}

struct content {
	int fd;
	const void *buf;
	size_t len;
};

static int write_content(void *ctx, int out)
{
	const struct content *c = ctx;

	return c->fd >= 0 ? rec_copy_fd(c->fd, out) :
	       rec_write_all(out, c->buf, c->len);
}

/*
 * A path recorded by a process names a place in the cache: one that
 * would climb out of it is refused (the kernel never writes "." or ".."
 * components, a synthesized or crafted record might).
 */
static bool safe_name(const char *name)
{
	const char *p = name;

	if (name[0] != '/' && name[0] != '[')
		return false;
	for (p = strstr(name, "/."); p; p = strstr(p + 1, "/."))
		if (p[2] == '/' || !p[2] || (p[2] == '.' && (p[3] == '/' || !p[3])))
			return false;
	return strlen(name) < 4000;
}

int rec_bidcache__add(struct rec_bidcache *c, const uint8_t *id, size_t size,
		      const char *name, enum rec_cache_kind kind, int fd,
		      const void *buf, size_t len)
{
	char h[2 * REC_BUILD_ID_MAX + 1], *dir = NULL, *file = NULL,
	     *link = NULL, *target = NULL;
	bool slash = kind != REC_CACHE_ELF;
	struct content what = { .fd = fd, .buf = buf, .len = len };
	struct stat st;
	mode_t mode = 0644;
	int err;

	if (!size || size > REC_BUILD_ID_MAX || !safe_name(name))
		return -EINVAL;
	hex(h, id, size);
	/* [vdso] and [kernel.kallsyms] sit under DIR/NAME, files under
	 * DIR/PATH: PATH's own '/' joins them */
	if (asprintf(&dir, "%s%s%s/%s", c->dir, slash ? "/" : "", name, h) < 0)
		dir = NULL;
	if (asprintf(&file, "%s/%s", dir ? dir : "", basename_of(kind)) < 0)
		file = NULL;
	if (asprintf(&link, "%s/.build-id/%.2s/%s", c->dir, h, h + 2) < 0)
		link = NULL;
	if (asprintf(&target, "../..%s%s/%s", slash ? "/" : "", name, h) < 0)
		target = NULL;
	err = -ENOMEM;
	if (!dir || !file || !link || !target)
		goto out;
	err = mkdirs(dir);
	if (err)
		goto out;
	if (stat(file, &st)) {
		if (fd >= 0 && !fstat(fd, &st) && (st.st_mode & 0111))
			mode = 0755;	/* executable, as perf's copy keeps it */
		err = rec_write_atomic(file, mode, write_content, &what);
		if (err)
			goto out;
	}
	*strrchr(link, '/') = '\0';
	err = mkdirs(link);
	if (err)
		goto out;
	link[strlen(link)] = '/';
	/* an existing link stays, as perf leaves it */
	if (symlink(target, link) && errno != EEXIST)
		err = -errno;
out:
	free(dir);
	free(file);
	free(link);
	free(target);
	return err;
}
