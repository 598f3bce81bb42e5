/* SPDX-License-Identifier: MIT */
/*
 * An extracted profile archive, shared by the reader that opened it and
 * the symbolizers its sessions point at it (reference counted: the
 * directory goes when the last user does).
 */
#ifndef PD_ARCHIVE_INTERNAL_H
#define PD_ARCHIVE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/input.h"
#include "base/internal.h"

struct pd_reader;
struct pd_symbolizer;

/* The manifest's original path of each stored ELF file, by build id. */
struct pd_archive_path {
	char *path;
	uint8_t bid[20];
	size_t bid_size;
};

/* The manifest's recorded path of each stored jitdump, and its copy. */
struct pd_archive_jitdump {
	char *path;		/* as the profile's MMAP names it */
	char *file;		/* dir/jit/N.dump */
};

struct pd_archive {
	int refs;
	char *dir;		/* private temporary directory */
	char *profile;		/* dir/perf.data */
	char *kallsyms;		/* dir/kallsyms, or NULL */
	char *vmlinux;		/* dir/vmlinux, or NULL */
	struct pd_archive_path *paths;
	size_t nr_paths;
	struct pd_archive_jitdump *jitdumps;
	size_t nr_jitdumps;
	struct pd_archive *next_live;
};

/*
 * Extract the compressed tar arriving on in (positioned at its start)
 * into a new private directory. On failure returns NULL, with the error
 * in *err, its offset in the uncompressed tar stream in *off and what
 * was wrong in why; nothing is left on disk.
 */
struct pd_archive *pd__archive_extract(struct pd_input *in,
				       struct pd_logger *log, int *err,
				       uint64_t *off, char *why,
				       size_t why_size);
void pd__archive_get(struct pd_archive *a);
void pd__archive_put(struct pd_archive *a);
/* The build id the manifest gives for an ELF file's original path. */
bool pd__archive_path_bid(const struct pd_archive *a, const char *path,
			  const uint8_t **bid, size_t *size);

/*
 * The archive's copy of the jitdump the profile recorded at path, or
 * NULL when it holds none.
 */
const char *pd__archive_jitdump(const struct pd_archive *a, const char *path);
/* The archive's copy of /tmp/perf-PID.map into buf (it may not exist). */
void pd__archive_perf_map(const struct pd_archive *a, int pid, char *buf,
			  size_t size);

/* reader.c: the archive a reader opened, or NULL */
struct pd_archive *pd__reader_archive(const struct pd_reader *r);
/* sym-core.c: resolve from the archive's files first */
int pd__sym_use_archive(struct pd_symbolizer *s, struct pd_archive *a);

#endif /* PD_ARCHIVE_INTERNAL_H */
