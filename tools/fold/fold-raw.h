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
 *
 * A frame of the kernel proper (pd-fold --raw-kernel) has the same form,
 *
 *	KBUILDID+0xOFFSET@[kernel.kallsyms]REF	(or KBUILDID-0xOFFSET@...)
 *
 * with the kernel's build id (always: without one nothing says which
 * kernel's symbols name it), and for path the name perf's kernel map
 * record has, "[kernel.kallsyms]" and the relocation reference symbol
 * (perf's ref_reloc_sym, "_text" or "_stext"); OFFSET is the address
 * minus the recorded address of REF, which the boot's KASLR slide does
 * not change. Such a path is never a user frame's.
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
	uint64_t addr;			/* kernel: the offset, modulo 2^64 */
	bool dwarf;			/* 'i': add inlined frames */
	/* a kernel frame: path is "[kernel.kallsyms]REF" (FOLD_RAW_KERNEL) */
	bool kernel;
};

#define FOLD_RAW_KERNEL		"[kernel.kallsyms]"
#define FOLD_RAW_KERNEL_LEN	17

/*
 * The frame's text into buf (NUL-terminated): its length, or 0 when it
 * does not fit (a path beyond FOLD_RAW_PATH_MAX) or is a kernel frame
 * without a build id or reference symbol.
 */
size_t fold_raw__format(char *buf, size_t size, const struct fold_raw *r);

/*
 * Whether the frame text s (len bytes) is a raw frame; then *r holds it.
 * A kernel path without a build id or a reference symbol name, or with
 * a DWARF mark, is none.
 */
bool fold_raw__parse(const char *s, size_t len, struct fold_raw *r);

#endif /* PD_TOOLS_FOLD_RAW_H */
