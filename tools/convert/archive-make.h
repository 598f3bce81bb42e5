/* SPDX-License-Identifier: MIT */
/*
 * pd-convert --to=archive and --from-archive: a profile with the files
 * that resolve its symbols in one .tar.zst/.tar.gz (docs/archive.md),
 * and back to a perf.data plus a build-id directory perf reads.
 */
#ifndef PD_TOOLS_ARCHIVE_MAKE_H
#define PD_TOOLS_ARCHIVE_MAKE_H

#include <perfdata/compat.h>
#include <perfdata/reader.h>

struct archive_make_opts {
	const char *input;	/* name for messages and the manifest */
	const char *output;	/* .tar.zst, .tar.gz or "-" (zstd) */
	const char *symfs;	/* where the recorded paths are, or NULL */
	/* --root DIRs, NULL-terminated, or NULL: searched by build id */
	const char *const *roots;
	const char *kallsyms;	/* the recording kernel's, or NULL */
	const char *vmlinux;	/* the recording kernel's, or NULL */
	bool no_debuginfod;	/* fetch nothing missing from debuginfod */
	int level;		/* compression level, 0 default */
};

/* Exit code (PD_EXIT_*); messages printed. */
int archive_make(struct pd_reader *r, const struct archive_make_opts *o);

/*
 * The archive r opened, written out as DIR/perf.data (converted with co:
 * its target, shims and compression; records decompressed unless
 * co->compress > 0), DIR/.build-id/... (perf's cache
 * layout: point buildid.dir at DIR), DIR/kallsyms (and
 * DIR/[kernel.kallsyms]/BUILDID/kallsyms), DIR/vmlinux, DIR/jit/ (JIT
 * dumps and perf maps) and DIR/manifest.
 */
int archive_extract(struct pd_reader *r, const char *input, const char *dir,
		    const struct pd_convert_opts *co);

/* Whether an output name asks for an archive (.tar.zst, .tar.gz...). */
bool archive_name_ok(const char *output);

#endif
