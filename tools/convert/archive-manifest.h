/* SPDX-License-Identifier: MIT */
/*
 * What an extracted archive's manifest says of its files
 * (docs/archive.md, "Manifest").
 */
#ifndef PD_CONVERT_ARCHIVE_MANIFEST_H
#define PD_CONVERT_ARCHIVE_MANIFEST_H

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

#endif
