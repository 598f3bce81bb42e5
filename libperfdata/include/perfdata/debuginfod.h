/* SPDX-License-Identifier: MIT */
/*
 * Files by build id from debuginfod servers, through elfutils' own client
 * (libdebuginfod, loaded when first needed): the last place the
 * symbolizer looks for a DSO's executable or debug info, and what
 * pd-convert --to=archive fetches for files this machine lacks.
 *
 * The client does as its documentation says: the servers are those of
 * $DEBUGINFOD_URLS (none: nothing is asked), files land in its cache
 * ($DEBUGINFOD_CACHE_PATH, else ~/.cache/debuginfod_client) and are
 * served from there next time, $DEBUGINFOD_TIMEOUT bounds each transfer,
 * $DEBUGINFOD_PROGRESS prints its progress on standard error.
 *
 * Per process: each build id and kind is asked once (the answer, file
 * or miss, is kept); after a query that a server failed (connection
 * refused, timeout, an HTTP error other than 404) and that found
 * nothing, no server is asked again, so a dead or slow server costs one
 * timeout at most. Warnings, each once per process: one per server that
 * failed, naming it, and one per server that had no file for some build
 * id (404), naming it and the first such file. Which server answered
 * what is read from the client's verbose log; where it does not say
 * (the user set $DEBUGINFOD_VERBOSE, or the client's cache answered), a
 * warning names $DEBUGINFOD_URLS whole. Info messages say what was
 * fetched from which URL.
 *
 * Ownership: paths returned are malloc'd, the caller frees them.
 */
#ifndef PERFDATA_DEBUGINFOD_H
#define PERFDATA_DEBUGINFOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perfdata/errors.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pd_debuginfod_opts {
	size_t sz;
	pd_log_fn log;		/* warnings and what was fetched (info) */
	void *log_ctx;
};

struct pd_debuginfod;

/*
 * A client for the servers of $DEBUGINFOD_URLS. NULL with errno ENOENT
 * when that names none, ENOSYS when the library was built without
 * debuginfod support (make static, NO_DEBUGINFOD=1, no libdebuginfod),
 * ENOMEM.
 */
struct pd_debuginfod *pd_debuginfod__new(const struct pd_debuginfod_opts *opts);
void pd_debuginfod__free(struct pd_debuginfod *d);

enum pd_debuginfod_kind {
	PD_DEBUGINFOD_EXECUTABLE,	/* the binary as it ran */
	PD_DEBUGINFOD_DEBUGINFO,	/* its debug info (a .debug file, or
					 * the binary itself if unstripped) */
};

/*
 * The file of that kind for the build id (bytes), into *path (in the
 * client's cache): 0; -ENOENT when no server has it or servers are no
 * longer asked; another -errno when the query failed. what names the
 * file in messages (the DSO's path), may be NULL.
 */
int pd_debuginfod__find(struct pd_debuginfod *d, const uint8_t *build_id,
			size_t build_id_size, enum pd_debuginfod_kind kind,
			const char *what, char **path);

/*
 * The files a DSO needs: its executable, and its debug info too when
 * that executable has no symbol table (.symtab) or no DWARF
 * (.debug_info), as the symbolizer asks them. *elf and *debug are set
 * (or NULL); 0 when either was found, else as pd_debuginfod__find().
 */
int pd_debuginfod__find_dso(struct pd_debuginfod *d, const uint8_t *build_id,
			    size_t build_id_size, const char *what,
			    char **elf, char **debug);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_DEBUGINFOD_H */
