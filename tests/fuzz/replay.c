// SPDX-License-Identifier: MIT
/*
 * Replays inputs through a fuzz target without libFuzzer: each file given,
 * or each file of each directory given, once. A target that finds a bug
 * crashes or aborts; else this exits 0 after saying how many ran.
 *
 *	replay-fuzz-file tests/fuzz/regress/fuzz-file testdata/fp.data
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

static int run_file(const char *path)
{
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;
	FILE *f = fopen(path, "rb");
	int ret = 0;

	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		size_t n;

		if (len == cap) {
			uint8_t *nb;

			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				ret = -1;
				goto out;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		if (!n)
			break;
		len += n;
	}
	if (ferror(f)) {
		fprintf(stderr, "replay: %s: read error\n", path);
		ret = -1;
		goto out;
	}
	/* names the input a crash is about */
	fprintf(stderr, "replay: %s\n", path);
	LLVMFuzzerTestOneInput(buf, len);
out:
	free(buf);
	fclose(f);
	return ret;
}

static int run_dir(const char *dir, unsigned long *nr)
{
	struct dirent **names;
	char path[4096];
	int n, i, ret = 0;

	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && !stat(path, &st) &&
		    S_ISREG(st.st_mode)) {
			if (run_file(path))
				ret = -1;
			else
				(*nr)++;
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

int main(int argc, char **argv)
{
	unsigned long nr = 0;
	int i, ret = 0;

	for (i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st)) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			ret = 1;
		} else if (S_ISDIR(st.st_mode)) {
			if (run_dir(argv[i], &nr))
				ret = 1;
		} else if (run_file(argv[i])) {
			ret = 1;
		} else {
			nr++;
		}
	}
	printf("replay: %lu inputs\n", nr);
	return ret;
}
