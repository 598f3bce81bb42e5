// SPDX-License-Identifier: MIT
/*
 * feat-bytes FEATURE FILE: write the bytes of header feature number
 * FEATURE of FILE as the file holds them, to compare two writers'
 * sections byte for byte. Exit 1 when the feature is absent.
 */
#include <stdio.h>
#include <stdlib.h>

#include <perfdata/features.h>
#include <perfdata/reader.h>

int main(int argc, char **argv)
{
	const struct pd_features *f;
	struct pd_reader *r;
	unsigned long feat;
	char *end;
	int ret = 1;

	if (argc != 3) {
		fprintf(stderr, "usage: feat-bytes FEATURE FILE\n");
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
	if (f && f->raw[feat].data &&
	    fwrite(f->raw[feat].data, 1, f->raw[feat].size, stdout) ==
	    f->raw[feat].size)
		ret = 0;
	pd_reader__close(r);
	if (fclose(stdout))
		ret = 1;
	return ret;
}
