/* SPDX-License-Identifier: MIT */
/*
 * POSIX ustar headers, written and read for profile archives: 512-byte
 * blocks, octal fields, the checksum, and the member names an archive may
 * hold (relative, no "..", no links or devices).
 */
#ifndef PD_ARCHIVE_TAR_H
#define PD_ARCHIVE_TAR_H

#include <stddef.h>
#include <stdint.h>

#define PD_TAR_BLOCK		512
/* Largest member an ustar size field (11 octal digits) can hold. */
#define PD_TAR_MAX_SIZE		077777777777ULL
/* Longest member name this code writes or accepts (a pax path too). */
#define PD_TAR_NAME_MAX		1024
/* Largest pax extended header read. */
#define PD_TAR_PAX_MAX		65536

struct pd_tar_entry {
	char name[PD_TAR_NAME_MAX];	/* as stored (prefix/name joined) */
	uint64_t size;
	char type;			/* '0' file, '5' dir, 'x', 'g' pax */
};

/*
 * Build an ustar header for a regular file (type '0'). The name must be
 * at most 100 bytes, or split at a '/' into a prefix of 155 and a name of
 * 100 (pd__tar_split_name() says whether it can be). Returns 0 or
 * -ENAMETOOLONG.
 */
int pd__tar_make_header(uint8_t blk[PD_TAR_BLOCK], const char *name,
			uint64_t size, char type, uint32_t mode,
			uint64_t mtime);

/*
 * Parse one header block. Returns 1 for an all-zero block (end of
 * archive), 0 for a header (e filled), or -PD_ERR_BAD_ARCHIVE with why
 * set (checksum, magic, non-octal fields).
 */
int pd__tar_parse_header(const uint8_t blk[PD_TAR_BLOCK],
			 struct pd_tar_entry *e, char *why, size_t why_size);

/*
 * The path of a pax extended header's "path" record, if any, into out.
 * Returns 1 found, 0 none, -PD_ERR_BAD_ARCHIVE for a malformed header.
 */
int pd__tar_pax_path(const char *data, size_t size, char *out,
		     size_t out_size, char *why, size_t why_size);

/*
 * Check and normalize a member name: relative, no "..", no empty
 * components except a trailing '/', "." components dropped. Returns 0
 * (norm set, without a trailing '/') or -PD_ERR_BAD_ARCHIVE with why.
 */
int pd__tar_check_name(const char *name, char *norm, size_t norm_size,
		       char *why, size_t why_size);

#endif /* PD_ARCHIVE_TAR_H */
