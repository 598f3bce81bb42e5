// SPDX-License-Identifier: MIT
/* The options of the tools that write perf.data: see cli-write.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/cli-write.h"

bool cli_write__option(int opt, const char *arg, struct pd_convert_opts *co)
{
	char *end;
	long l;

	switch (opt) {
	case CLI_WRITE_OPT_PIPE:
		co->mode = PD_MODE_PIPE;
		return true;
	case CLI_WRITE_OPT_FILE:
		co->mode = PD_MODE_FILE;
		return true;
	case CLI_WRITE_OPT_COMPRESS:
		co->compress = 1;
		if (!arg)
			return true;
		errno = 0;
		l = strtol(arg, &end, 10);
		if (errno || *end || end == arg || l < 1 || l > 22)
			pd_usage_error("compression level must be 1..22");
		co->compress_level = l;
		return true;
	}
	return false;
}

void cli_write__stdout_mode(struct pd_convert_opts *co, const char *output)
{
	struct stat st;

	if (!output || strcmp(output, "-") || co->mode >= 0)
		return;
	if (fstat(STDOUT_FILENO, &st) || !S_ISREG(st.st_mode))
		co->mode = PD_MODE_PIPE;
}
