// SPDX-License-Identifier: MIT
/*
 * Edits of the BUILD_ID entries of a file-mode perf.data (host byte
 * order), in place; prints how many entries it changed, exit 1 when the
 * file has no BUILD_ID section.
 *
 *   bid-edit pid PID FILE   every user-space entry's pid set to PID (a
 *                           process's pid, not the host's -1, as
 *                           pd-convert made them from perf 7.x's MMAP2
 *                           build ids before)
 *   bid-edit nokernel FILE  the kernel's entry renamed, so that the
 *                           profile names no kernel build id (as where
 *                           perf reads none)
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FEAT_BUILD_ID	2

static int rd(FILE *f, long off, void *buf, size_t n)
{
	return fseek(f, off, SEEK_SET) || fread(buf, 1, n, f) != n ? -1 : 0;
}

int main(int argc, char **argv)
{
	uint64_t hdr[13], sec[2];
	int32_t pid = 0;
	uint16_t misc, size;
	bool nokernel;
	char name[18];
	unsigned int feat, idx = 0, changed = 0;
	uint64_t off, end;
	FILE *f;

	nokernel = argc == 3 && !strcmp(argv[1], "nokernel");
	if (!nokernel && (argc != 4 || strcmp(argv[1], "pid"))) {
		fprintf(stderr, "usage: bid-edit pid PID FILE | bid-edit nokernel FILE\n");
		return 2;
	}
	if (!nokernel)
		pid = atoi(argv[2]);
	f = fopen(argv[argc - 1], "r+b");
	if (!f || rd(f, 0, hdr, sizeof(hdr)) || memcmp(hdr, "PERFILE2", 8) ||
	    hdr[1] != sizeof(hdr)) {
		fprintf(stderr, "bid-edit: %s: not a file-mode perf.data\n",
			argv[argc - 1]);
		return 2;
	}
	if (!(hdr[9] & (1ULL << FEAT_BUILD_ID)))
		return 1;
	/* the section table follows the data, one entry per feature bit */
	for (feat = 1; feat < FEAT_BUILD_ID; feat++)
		idx += !!(hdr[9] & (1ULL << feat));
	if (rd(f, hdr[5] + hdr[6] + 16 * idx, sec, sizeof(sec)))
		return 2;
	for (off = sec[0], end = sec[0] + sec[1]; off + 36 <= end; off += size) {
		if (rd(f, off + 4, &misc, 2) || rd(f, off + 6, &size, 2) || size < 36)
			return 2;
		if (nokernel) {
			if (rd(f, off + 36, name, sizeof(name)) ||
			    memcmp(name, "[kernel.kallsyms]", 18))
				continue;
			if (fseek(f, off + 36, SEEK_SET) ||
			    fwrite("[no.kernel.here]", 17, 1, f) != 1)
				return 2;
		} else {
			if ((misc & 7) != 2)	/* PERF_RECORD_MISC_USER */
				continue;
			if (fseek(f, off + 8, SEEK_SET) ||
			    fwrite(&pid, 4, 1, f) != 1)
				return 2;
		}
		changed++;
	}
	printf("%u\n", changed);
	return fclose(f) ? 2 : 0;
}
