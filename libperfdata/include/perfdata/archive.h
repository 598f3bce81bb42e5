/* SPDX-License-Identifier: MIT */
/*
 * Profile archives: one .tar.zst or .tar.gz holding a perf.data, the ELF
 * and debug files it references (by build id), the recording kernel's
 * kallsyms and a manifest (docs/archive.md describes the layout).
 *
 * Reading needs nothing here: pd_reader__open() recognizes an archive,
 * extracts it to a private temporary directory (removed when the last
 * reader, session or symbolizer using it is freed) and reads its
 * perf.data; a session built on that reader points its symbolizer at the
 * archive's files. pd_reader__archive_dir() tells where they are.
 *
 * Writing: pd_archive_writer, a plain tar writer (ustar members,
 * compressed as a whole) that writes a temporary file next to the output
 * and renames it when finished; the caller chooses the members.
 *
 * Ownership: strings returned are owned by the object they come from.
 */
#ifndef PERFDATA_ARCHIVE_H
#define PERFDATA_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perfdata/errors.h>
#include <perfdata/reader.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The archive's format version, the first line of its manifest. */
#define PD_ARCHIVE_VERSION 1

enum pd_archive_compression {
	PD_ARCHIVE_ZSTD = 0,
	PD_ARCHIVE_GZIP,
};

/*
 * The directory an archive opened by r was extracted to, laid out as
 * perf's build-id cache (.build-id/xx/rest/elf, .../debug), with
 * perf.data, manifest and kallsyms (when stored) at its top; NULL when r
 * did not read an archive. Valid until r is closed.
 */
const char *pd_reader__archive_dir(const struct pd_reader *r);

/*
 * Remove the temporary directories of every archive still open, for a
 * program about to die of a signal (tools call it from their handler).
 */
void pd_archive_cleanup(void);

struct pd_archive_writer;

struct pd_archive_writer_opts {
	size_t sz;			/* sizeof(struct pd_archive_writer_opts) */
	enum pd_archive_compression compression;
	int level;			/* 0: zstd 3, gzip 6 */
	uint64_t mtime;			/* members' time stamps (seconds) */
};

/* path "-" writes stdout. NULL and errno on failure. */
struct pd_archive_writer *
pd_archive_writer__open(const char *path,
			const struct pd_archive_writer_opts *opts);
/*
 * A regular-file member holding the file at src (which must keep its
 * size while it is copied). 0 or a negative error.
 */
int pd_archive_writer__add_file(struct pd_archive_writer *w,
				const char *member, const char *src);
int pd_archive_writer__add_data(struct pd_archive_writer *w,
				const char *member, const void *data,
				size_t size);
/* The end of the archive: renames the temporary file over the output. */
int pd_archive_writer__finish(struct pd_archive_writer *w);
/* Without a successful finish, removes the temporary file. NULL is ok. */
void pd_archive_writer__free(struct pd_archive_writer *w);
const char *pd_archive_writer__errmsg(const struct pd_archive_writer *w);

/*
 * SHA-256 of a file, as 64 lowercase hex digits and a NUL, and its size.
 * 0 or -errno.
 */
int pd_sha256_file(const char *path, char hex[65], uint64_t *size);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_ARCHIVE_H */
