/* SPDX-License-Identifier: MIT */
/*
 * The options of the tools that write perf.data through pd_convert()
 * (pd-convert, pd-unwind), named and parsed once: the output's mode and
 * compression, and the mode standard output can take.
 *
 *	static const struct option longopts[] = {
 *		CLI_WRITE_LONGOPTS,
 *		...
 *	};
 *	...
 *	if (cli_write__option(opt, arg, &co))
 *		(done)
 */
#ifndef PD_TOOLS_CLI_WRITE_H
#define PD_TOOLS_CLI_WRITE_H

#include <getopt.h>
#include <stdbool.h>

#include <perfdata/compat.h>

/* past the tools' own codes (256 up), fold-cli.h's and flame-cli.h's */
enum cli_write_opt {
	CLI_WRITE_OPT_PIPE = 1024, CLI_WRITE_OPT_FILE, CLI_WRITE_OPT_COMPRESS,
};

#define CLI_WRITE_LONGOPTS \
	{ "pipe", no_argument, NULL, CLI_WRITE_OPT_PIPE }, \
	{ "file", no_argument, NULL, CLI_WRITE_OPT_FILE }, \
	{ "compress", optional_argument, NULL, CLI_WRITE_OPT_COMPRESS }

/*
 * Applies opt to co when it is one of CLI_WRITE_LONGOPTS; false for any
 * other. A bad level is a usage error (exit 2).
 */
bool cli_write__option(int opt, const char *arg, struct pd_convert_opts *co);

/*
 * An output to standard output ("-") left in the input's mode: pipe
 * mode unless standard output is a regular file, as a stream can take
 * no other.
 */
void cli_write__stdout_mode(struct pd_convert_opts *co, const char *output);

#endif /* PD_TOOLS_CLI_WRITE_H */
