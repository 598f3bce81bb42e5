// SPDX-License-Identifier: MIT
/* Folded lines read back. See fold-lines.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/progress.h"
#include "fold-lines.h"

bool fold_parse_line(const char *line, size_t *len, uint64_t *count)
{
	size_t n = *len, i;
	const char *sp;
	uint64_t c = 0;

	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		n--;
	sp = memrchr(line, ' ', n);
	if (!sp || sp == line || sp + 1 == line + n)
		return false;
	for (i = sp + 1 - line; i < n; i++) {
		if (line[i] < '0' || line[i] > '9' || c > (UINT64_MAX - 9) / 10)
			return false;
		c = c * 10 + (line[i] - '0');
	}
	*len = sp - line;
	*count = c;
	return true;
}

int fold_read_lines(FILE *in, const char *name, fold_line_fn fn, void *ctx)
{
	struct pd_text_progress *prog = pd_progress_text(in, name);
	unsigned long lineno = 0;
	char *line = NULL;
	size_t cap = 0, len;
	uint64_t count;
	ssize_t n;
	int ret = 0;

	while ((n = getline(&line, &cap, in)) >= 0) {
		lineno++;
		pd_progress_text__read(prog, n);
		if (n == 0 || line[0] == '\n')
			continue;
		len = n;
		if (!fold_parse_line(line, &len, &count)) {
			pd_err("%s:%lu: not a folded stack line (\"STACK COUNT\")",
			       name, lineno);
			ret = -EINVAL;
			break;
		}
		ret = fn(ctx, line, len, count);
		if (ret)
			break;
	}
	pd_progress_text__done(prog);
	if (!ret && ferror(in)) {
		pd_err("%s: read error: %s", name, strerror(errno));
		ret = -EIO;
	}
	free(line);
	return ret;
}
