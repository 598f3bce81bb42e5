// SPDX-License-Identifier: MIT
/* pd-fold --merge's inputs. See fold-merge.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/cli.h"
#include "fold-lines.h"
#include "fold-merge.h"
#include "fold-sort.h"
#include "fold-table.h"

static int sort_line(void *ctx, const char *key, size_t len, uint64_t count)
{
	return fold_sort__add(ctx, key, len, count);
}

/* Whether a file's stacks are in pd-fold's order: stops at the first
 * that is not (1). */
struct order_check {
	char *prev;
	size_t len, cap;
	bool started;
};

static int check_line(void *ctx, const char *key, size_t len, uint64_t count)
{
	struct order_check *o = ctx;

	(void)count;
	if (o->started && fold_key_cmp(o->prev, o->len, key, len) > 0)
		return 1;
	if (len > o->cap) {
		char *p = realloc(o->prev, len);

		if (!p) {
			pd_err("%s", strerror(ENOMEM));
			return -ENOMEM;
		}
		o->prev = p;
		o->cap = len;
	}
	memcpy(o->prev, key, len);
	o->len = len;
	o->started = true;
	return 0;
}

/*
 * One input into the sort. A regular file in pd-fold's order
 * (pd-fold's output is) is merged in place, read once more then; any
 * other is added line by line, sorted with the rest.
 */
int fold_merge__input(struct fold_sort *sort, const char *path)
{
	struct order_check chk = { NULL, 0, 0, false };
	struct stat st;
	FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
	int ret;

	if (!in) {
		ret = -errno;
		pd_err("%s: %s", path, strerror(-ret));
		return ret;
	}
	if (in == stdin || fstat(fileno(in), &st) || !S_ISREG(st.st_mode)) {
		ret = fold_read_lines(in, in == stdin ? "<stdin>" : path,
				      sort_line, sort);
		goto out;
	}
	ret = fold_read_lines(in, path, check_line, &chk);
	if (!ret) {
		ret = fold_sort__add_sorted(sort, path);
	} else if (ret == 1) {
		rewind(in);
		ret = fold_read_lines(in, path, sort_line, sort);
	}
out:
	free(chk.prev);
	if (in != stdin)
		fclose(in);
	return ret ? -EINVAL : 0;
}
