/* SPDX-License-Identifier: MIT */
/*
 * What an extracted archive's manifest says of its files
 * (docs/archive.md, "Manifest").
 */
#ifndef PD_CONVERT_ARCHIVE_MANIFEST_H
#define PD_CONVERT_ARCHIVE_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>

#include <perfdata/features.h>

/*
 * The build id of every recorded path the manifest of the extracted
 * archive in dir stores an ELF file for (its elf lines), as BUILD_ID
 * entries of the host (pid -1; kernel modules misc KERNEL, the rest
 * USER). Returns 0 and *ids (free with archive_manifest__free()), or a
 * negative errno; a manifest without elf lines gives none.
 */
int archive_manifest__build_ids(const char *dir, struct pd_build_id **ids,
				size_t *nr);
void archive_manifest__free(struct pd_build_id *ids, size_t nr);
/*
 * The recording kernel's build id the manifest gives its kallsyms (hex,
 * NUL-terminated, into hx of len bytes): the archive maker takes it from
 * the BUILD_ID table or, for perf 7.x, the kernel map's MMAP2. False if
 * none.
 */
bool archive_manifest__kernel_build_id(const char *dir, char *hx, size_t len);

#endif
