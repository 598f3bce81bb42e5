// SPDX-License-Identifier: MIT
/*
 * pd_archive_writer: a compressed ustar stream of regular files. A file
 * output is written under a temporary name in its directory and renamed
 * when complete, so a failed or interrupted write leaves no archive.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfdata/archive.h>

#include "archive-tar.h"
#include "archive-zio.h"
#include "base/internal.h"

struct pd_archive_writer {
	struct pd_archive_writer_opts opts;
	char *path;		/* NULL for stdout */
	char *tmp;		/* temporary file, until renamed */
	int fd;
	struct pd_zout *z;
	uint8_t *buf;
	bool finished, failed;
	char errmsg[512];
};

#define COPY_CHUNK	(256 * 1024)

static int fail(struct pd_archive_writer *w, int err, const char *fmt, ...)
	PD_PRINTF(3, 4);

static int fail(struct pd_archive_writer *w, int err, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(w->errmsg, sizeof(w->errmsg), "%s: %s",
		 w->path ? w->path : "<stdout>", what);
	w->failed = true;
	return err;
}

PD_EXPORT struct pd_archive_writer *
pd_archive_writer__open(const char *path,
			const struct pd_archive_writer_opts *opts)
{
	struct pd_archive_writer *w = calloc(1, sizeof(*w));
	int err = ENOMEM;

	if (!w)
		goto out_errno;
	if (opts)
		memcpy(&w->opts, opts, opts->sz < sizeof(w->opts) ?
		       opts->sz : sizeof(w->opts));
	w->opts.sz = sizeof(w->opts);
	w->fd = -1;
	w->buf = malloc(COPY_CHUNK);
	if (!w->buf)
		goto fail;
	if (!path || !strcmp(path, "-")) {
		w->fd = STDOUT_FILENO;
	} else {
		w->path = strdup(path);
		if (!w->path || asprintf(&w->tmp, "%s.tmp-XXXXXX", path) < 0) {
			w->tmp = NULL;
			goto fail;
		}
		w->fd = mkostemp(w->tmp, O_CLOEXEC);
		if (w->fd < 0) {
			err = errno;
			free(w->tmp);
			w->tmp = NULL;
			goto fail;
		}
		/* mkostemp makes it 0600; an archive is an ordinary file */
		{
			mode_t um = umask(0);

			umask(um);
			fchmod(w->fd, 0666 & ~um);
		}
	}
	w->z = pd__zout_new(w->fd, w->opts.compression == PD_ARCHIVE_GZIP ?
				   PD_Z_GZIP : PD_Z_ZSTD, w->opts.level);
	if (!w->z)
		goto fail;
	return w;
fail:
	pd_archive_writer__free(w);
out_errno:
	errno = err;
	return NULL;
}

PD_EXPORT void pd_archive_writer__free(struct pd_archive_writer *w)
{
	if (!w)
		return;
	pd__zout_free(w->z);
	if (w->path && w->fd >= 0)
		close(w->fd);
	if (w->tmp && !w->finished)
		unlink(w->tmp);
	free(w->tmp);
	free(w->path);
	free(w->buf);
	free(w);
}

PD_EXPORT const char *pd_archive_writer__errmsg(const struct pd_archive_writer *w)
{
	return w->errmsg;
}

static int put_header(struct pd_archive_writer *w, const char *member,
		      uint64_t size)
{
	uint8_t blk[PD_TAR_BLOCK];
	char norm[PD_TAR_NAME_MAX], why[300];
	int err;

	/* what the reader would refuse is not written */
	if (pd__tar_check_name(member, norm, sizeof(norm), why, sizeof(why)) ||
	    strcmp(norm, member))
		return fail(w, -EINVAL, "member name '%s' not allowed in an archive",
			    member);
	err = pd__tar_make_header(blk, member, size, '0', 0644, w->opts.mtime);
	if (err)
		return fail(w, err, "member %s: %s", member, strerror(-err));
	err = pd__zout_write(w->z, blk, sizeof(blk));
	if (err)
		return fail(w, err, "write: %s", strerror(-err));
	return 0;
}

static int put_padding(struct pd_archive_writer *w, uint64_t size)
{
	static const uint8_t zero[PD_TAR_BLOCK];
	size_t pad = (PD_TAR_BLOCK - size % PD_TAR_BLOCK) % PD_TAR_BLOCK;
	int err = pd__zout_write(w->z, zero, pad);

	return err ? fail(w, err, "write: %s", strerror(-err)) : 0;
}

PD_EXPORT int pd_archive_writer__add_data(struct pd_archive_writer *w,
					  const char *member, const void *data,
					  size_t size)
{
	int err;

	if (w->failed || w->finished)
		return -EINVAL;
	err = put_header(w, member, size);
	if (err)
		return err;
	err = pd__zout_write(w->z, data, size);
	if (err)
		return fail(w, err, "write: %s", strerror(-err));
	return put_padding(w, size);
}

PD_EXPORT int pd_archive_writer__add_file(struct pd_archive_writer *w,
					  const char *member, const char *src)
{
	struct stat st;
	uint64_t left;
	int fd, err;

	if (w->failed || w->finished)
		return -EINVAL;
	fd = open(src, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(w, -errno, "%s: %s", src, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return fail(w, -EINVAL, "%s: not a regular file", src);
	}
	err = put_header(w, member, st.st_size);
	for (left = st.st_size; !err && left;) {
		ssize_t n = read(fd, w->buf, left < COPY_CHUNK ? left : COPY_CHUNK);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = fail(w, n < 0 ? -errno : -PD_ERR_TRUNCATED,
				   "%s: %s", src, n < 0 ? strerror(errno) :
				   "file shrank while it was archived");
			break;
		}
		err = pd__zout_write(w->z, w->buf, n);
		if (err)
			err = fail(w, err, "write: %s", strerror(-err));
		left -= n;
	}
	close(fd);
	return err ? err : put_padding(w, st.st_size);
}

PD_EXPORT int pd_archive_writer__finish(struct pd_archive_writer *w)
{
	static const uint8_t zero[2 * PD_TAR_BLOCK];
	int err;

	if (w->failed || w->finished)
		return -EINVAL;
	err = pd__zout_write(w->z, zero, sizeof(zero));
	if (!err)
		err = pd__zout_finish(w->z);
	if (err)
		return fail(w, err, "write: %s", strerror(-err));
	if (!w->path) {
		w->finished = true;
		return 0;
	}
	if (close(w->fd)) {
		w->fd = -1;
		return fail(w, -errno, "write: %s", strerror(errno));
	}
	w->fd = -1;
	if (rename(w->tmp, w->path))
		return fail(w, -errno, "rename: %s", strerror(errno));
	w->finished = true;
	return 0;
}
