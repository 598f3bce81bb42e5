// SPDX-License-Identifier: MIT
/*
 * host-edit NAME FILE: the HOSTNAME feature of a file-mode perf.data
 * (host byte order) set to NAME, in place: the profile as if recorded on
 * another machine (pd_session__recorded_here()). NAME must fit the
 * section perf wrote (its string is padded to 64 bytes). Exit 1 when the
 * file has no HOSTNAME section or NAME does not fit, 2 on bad usage.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define FEAT_HOSTNAME	3

static int rd(FILE *f, long off, void *buf, size_t n)
{
	return fseek(f, off, SEEK_SET) || fread(buf, 1, n, f) != n ? -1 : 0;
}

int main(int argc, char **argv)
{
	uint64_t hdr[13], sec[2];
	unsigned int feat, idx = 0;
	char buf[4096] = { 0 };
	uint32_t len;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: host-edit NAME FILE\n");
		return 2;
	}
	f = fopen(argv[2], "r+b");
	if (!f || rd(f, 0, hdr, sizeof(hdr)) || memcmp(hdr, "PERFILE2", 8) ||
	    hdr[1] != sizeof(hdr)) {
		fprintf(stderr, "host-edit: %s: not a file-mode perf.data\n",
			argv[2]);
		return 2;
	}
	if (!(hdr[9] & (1ULL << FEAT_HOSTNAME)))
		return 1;
	/* the section table follows the data, one entry per feature bit */
	for (feat = 1; feat < FEAT_HOSTNAME; feat++)
		idx += !!(hdr[9] & (1ULL << feat));
	if (rd(f, hdr[5] + hdr[6] + 16 * idx, sec, sizeof(sec)) ||
	    rd(f, sec[0], &len, 4))
		return 2;
	/* perf's string: a u32 length (NUL and padding in), then it */
	if (len + 4 > sec[1] || len > sizeof(buf) || strlen(argv[1]) >= len)
		return 1;
	memcpy(buf, argv[1], strlen(argv[1]));
	if (fseek(f, sec[0] + 4, SEEK_SET) || fwrite(buf, len, 1, f) != 1)
		return 2;
	return fclose(f) ? 2 : 0;
}
