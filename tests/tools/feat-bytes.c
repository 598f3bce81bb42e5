// SPDX-License-Identifier: MIT
/*
 * feat-bytes [-p] FEATURE FILE: write the bytes of header feature number
 * FEATURE of FILE as the file holds them, to compare two writers'
 * sections byte for byte. Exit 1 when the feature is absent.
 *
 * -p: of BPF_PROG_INFO (25), the bytes that align each of a program's
 * arrays to 8 are written as zeros: perf copies the arrays into memory
 * it takes from malloc() and writes those bytes as it finds them.
 * -c: BPF_PROG_INFO's content without its layout: per program the info
 * (its array pointers, offsets in the file, as zeros) and each array's
 * bytes, without padding (with -p or -c a malformed section fails). perf 5.10 packs the arrays one after the other
 * (libbpf's layout of its time), 6.1 aligns each to 8.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/features.h>
#include <perfdata/kernel-abi.h>
#include <perfdata/reader.h>

#define INFO_U32(info, len, f) \
	(offsetof(struct pd_bpf_prog_info, f) + 4 <= (len) ? \
	 get32((info) + offsetof(struct pd_bpf_prog_info, f)) : 0)

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* where each array's pointer is in the info, in perf's order */
static const size_t array_ptr[9] = {
	offsetof(struct pd_bpf_prog_info, jited_prog_insns),
	offsetof(struct pd_bpf_prog_info, xlated_prog_insns),
	offsetof(struct pd_bpf_prog_info, map_ids),
	offsetof(struct pd_bpf_prog_info, jited_ksyms),
	offsetof(struct pd_bpf_prog_info, jited_func_lens),
	offsetof(struct pd_bpf_prog_info, func_info),
	offsetof(struct pd_bpf_prog_info, line_info),
	offsetof(struct pd_bpf_prog_info, jited_line_info),
	offsetof(struct pd_bpf_prog_info, prog_tags),
};

/*
 * Each program's array padding zeroed in place (canon 0), or the section
 * written to out in its canonical form (canon 1). 0 when the section is
 * well formed. The arrays are found where the info's pointers, offsets
 * into the program's data, say.
 */
static int walk(uint8_t *p, size_t size, int canon, FILE *out)
{
	size_t off = 4;
	uint32_t nr, i;

	if (size < 4)
		return -1;
	nr = get32(p);
	if (canon)
		fwrite(p, 1, 4, out);
	for (i = 0; i < nr; i++) {
		uint32_t info_len, data_len;
		uint64_t arrays, at[9], n[9][2];
		uint8_t *info, *data;
		int a;

		if (size - off < 16)
			return -1;
		info_len = get32(p + off);
		data_len = get32(p + off + 4);
		memcpy(&arrays, p + off + 8, 8);
		if (size - off - 16 < (uint64_t)info_len + data_len)
			return -1;
		info = p + off + 16;
		data = info + info_len;
		/* count and element size of each array, in perf's order */
		n[0][0] = INFO_U32(info, info_len, jited_prog_len), n[0][1] = 1;
		n[1][0] = INFO_U32(info, info_len, xlated_prog_len), n[1][1] = 1;
		n[2][0] = INFO_U32(info, info_len, nr_map_ids), n[2][1] = 4;
		n[3][0] = INFO_U32(info, info_len, nr_jited_ksyms), n[3][1] = 8;
		n[4][0] = INFO_U32(info, info_len, nr_jited_func_lens), n[4][1] = 4;
		n[5][0] = INFO_U32(info, info_len, nr_func_info);
		n[5][1] = INFO_U32(info, info_len, func_info_rec_size);
		n[6][0] = INFO_U32(info, info_len, nr_line_info);
		n[6][1] = INFO_U32(info, info_len, line_info_rec_size);
		n[7][0] = INFO_U32(info, info_len, nr_jited_line_info);
		n[7][1] = INFO_U32(info, info_len, jited_line_info_rec_size);
		n[8][0] = INFO_U32(info, info_len, nr_prog_tags);
		n[8][1] = PD_BPF_TAG_SIZE;
		for (a = 0; a < 9; a++) {
			at[a] = 0;
			if (array_ptr[a] + 8 <= info_len)
				memcpy(&at[a], info + array_ptr[a], 8);
			if ((arrays & (1ull << a)) &&
			    (at[a] > data_len || n[a][0] * n[a][1] > data_len - at[a]))
				return -1;
		}
		if (canon) {
			fwrite(p + off, 1, 4, out);		/* info_len */
			fwrite(p + off + 8, 1, 8, out);		/* arrays */
			for (a = 0; a < 9; a++)
				if (array_ptr[a] + 8 <= info_len)
					memset(info + array_ptr[a], 0, 8);
			fwrite(info, 1, info_len, out);
		}
		for (a = 0; a < 9; a++) {
			uint64_t bytes = n[a][0] * n[a][1];
			uint64_t end = (at[a] + bytes + 7) & ~7ull;

			if (!(arrays & (1ull << a)))
				continue;
			if (canon)
				fwrite(data + at[a], 1, bytes, out);
			else if (end <= data_len)
				memset(data + at[a] + bytes, 0, end - at[a] - bytes);
		}
		off += 16 + (size_t)info_len + data_len;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct pd_features *f;
	struct pd_reader *r;
	unsigned long feat;
	char *end;
	int ret = 1, pad = 0, canon = 0;

	if (argc == 4 && !strcmp(argv[1], "-p"))
		pad = 1;
	else if (argc == 4 && !strcmp(argv[1], "-c"))
		canon = 1;
	argv += pad + canon;
	argc -= pad + canon;
	if (argc != 3) {
		fprintf(stderr, "usage: feat-bytes [-p|-c] FEATURE FILE\n");
		return 2;
	}
	feat = strtoul(argv[1], &end, 10);
	if (*end || !feat || feat >= PD_FEAT_BITS) {
		fprintf(stderr, "feat-bytes: bad feature '%s'\n", argv[1]);
		return 2;
	}
	r = pd_reader__open(argv[2], NULL);
	if (!r) {
		fprintf(stderr, "feat-bytes: %s\n", pd_reader__open_errmsg());
		return 1;
	}
	f = pd_reader__features(r);
	if (f && f->raw[feat].data) {
		size_t size = f->raw[feat].size;
		uint8_t *copy = malloc(size ? size : 1);

		if (copy) {
			memcpy(copy, f->raw[feat].data, size);
			if (feat != PD_FEAT_BPF_PROG_INFO || !(pad || canon))
				ret = fwrite(copy, 1, size, stdout) == size ? 0 : 1;
			else if (canon)
				ret = walk(copy, size, 1, stdout) ? 1 : 0;
			else if (!walk(copy, size, 0, NULL))
				ret = fwrite(copy, 1, size, stdout) == size ? 0 : 1;
			free(copy);
		}
	}
	pd_reader__close(r);
	if (fclose(stdout))
		ret = 1;
	return ret;
}
