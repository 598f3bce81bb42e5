/* SPDX-License-Identifier: MIT */
/*
 * Raw frames (pd-fold --raw): a user frame in a mapped file, written
 * for naming later, elsewhere (pd-fold --symbolize), as one folded-stack
 * frame:
 *
 *	BUILDID+0xOFFSET[i]@PATH	the file's build id was recorded
 *	PATH+0xOFFSET[i]		it was not: the path alone
 *
 * BUILDID in lower-case hex; OFFSET in hex, the address in the file as
 * perf looks symbols up (perf's map_ip: ip - map start + map offset);
 * 'i' marks a frame of a DWARF-unwound stack, whose inlined functions
 * become frames of their own when it is named, as perf script adds
 * them; PATH the recorded path, with '%', ';', ' ' and control bytes
 * written as %XX, so that the frame holds no ';' (the frame separator)
 * and no blank (the count's). The path is needed to name the frame as
 * perf does: a file without symbols is "[NAME]", and --symfs, --root
 * and the file at its path are looked up by path (and accepted by build
 * id only).
 */
#ifndef PD_TOOLS_FOLD_RAW_H
#define PD_TOOLS_FOLD_RAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FOLD_RAW_BUILD_ID_MAX	20
#define FOLD_RAW_PATH_MAX	4096

struct fold_raw {
	uint8_t build_id[FOLD_RAW_BUILD_ID_MAX];
	size_t build_id_size;		/* 0: none recorded */
	char path[FOLD_RAW_PATH_MAX];	/* unescaped */
	uint64_t addr;
	bool dwarf;			/* 'i': add inlined frames */
};

/*
 * The frame's text into buf (NUL-terminated): its length, or 0 when it
 * does not fit (a path beyond FOLD_RAW_PATH_MAX).
 */
size_t fold_raw__format(char *buf, size_t size, const struct fold_raw *r);

/* Whether the frame text s (len bytes) is a raw frame; then *r holds it. */
bool fold_raw__parse(const char *s, size_t len, struct fold_raw *r);

#endif /* PD_TOOLS_FOLD_RAW_H */
