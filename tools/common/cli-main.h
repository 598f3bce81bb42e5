/* SPDX-License-Identifier: MIT */
/*
 * The main() every pd-* tool shares: the tool describes itself (its own
 * options, a callback for them, its usage, which of the common options
 * it takes and what its arguments are) and pd_cli_main() does the rest
 * as every tool does it: -i, -o, -q, -v, -h and unknown options, the
 * input from -i or the argument, the checks of -o, then the tool's run().
 *
 *	static void option(struct pd_cli_main *m, int opt, const char *arg)
 *	{
 *		(the tool's own options, m->tool its state)
 *	}
 *
 *	static int run(struct pd_cli_main *m)
 *	{
 *		(the work, on m->input and m->output; returns a PD_EXIT_*)
 *	}
 *
 *	int main(int argc, char **argv)
 *	{
 *		struct cli c = { ... };
 *		const struct pd_cli_bool bools[] = {
 *			{ OPT_BRIEF, &c.brief }, { 0 },
 *		};
 *		struct pd_cli_main m = {
 *			.init = pd_cli_init, .usage = usage, .run = run,
 *			.tool = &c, .longopts = longopts, .shortopts = "D",
 *			.bools = bools, .option = option,
 *			.flags = PD_CLI_INPUT | PD_CLI_VERBOSE,
 *			.default_input = "perf.data",
 *		};
 *
 *		return pd_cli_main(argc, argv, &m);
 *	}
 *
 * Linked into pd-flame too: nothing here needs libperfdata.
 */
#ifndef PD_TOOLS_CLI_MAIN_H
#define PD_TOOLS_CLI_MAIN_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * The common options a tool takes besides -q/--quiet and -h/--help,
 * which all take: added to the tool's table, -i/-o first and -q/-v/-h
 * last, unless it holds their long names already. A tool lists one
 * itself to place it elsewhere (getopt names the candidates of an
 * ambiguous abbreviation in table order), or with a code of its own to
 * keep the name for an option of its own (pd-fold's --input=FORMAT;
 * -i FILE is still the common input).
 */
#define PD_CLI_INPUT		(1U << 0)	/* -i, --input=FILE */
#define PD_CLI_OUTPUT		(1U << 1)	/* -o, --output=FILE */
#define PD_CLI_VERBOSE		(1U << 2)	/* -v, --verbose (counted) */
/*
 * The checks of -o (pd_cli_check_output()), made before run() for those
 * in flags. A tool whose checks depend on its other options, or come
 * after checks of its own, leaves them out of flags and calls
 * pd_cli_check_output() itself where they belong.
 */
#define PD_CLI_NEED_OUTPUT	(1U << 3)	/* no -o is bad usage */
#define PD_CLI_BINARY_OUTPUT	(1U << 4)	/* -o - refused on a terminal */
#define PD_CLI_NOT_INPUT	(1U << 5)	/* -o naming an input refused */

/*
 * An option of the tool's that only turns a bool on, as getopt's flag
 * field does for an int: it needs no code in the option callback.
 */
struct pd_cli_bool {
	int opt;			/* its code in the tool's table */
	bool *on;
};

/* What a tool takes after its options. */
enum pd_cli_takes {
	PD_CLI_ONE_INPUT,	/* [FILE]: the input, as -i FILE names it */
	PD_CLI_INPUTS,		/* [FILE]...: any number, or one -i FILE */
	PD_CLI_COMMAND,		/* COMMAND [ARG]...: the options end at it */
};

struct pd_cli_main {
	/* The tool. Its options may change takes, default_input, extra_arg. */
	void (*init)(const char *argv0);	/* pd_cli_init(), or _prog() */
	void (*usage)(FILE *f);
	/* the tool's own options (getopt's syntax; a NULL name ends them) */
	const char *shortopts;
	const struct option *longopts;
	const struct pd_cli_bool *bools;	/* ended by opt 0; or NULL */
	/* the tool's other options */
	void (*option)(struct pd_cli_main *m, int opt, const char *arg);
	int (*run)(struct pd_cli_main *m);
	void *tool;			/* the callbacks' state */
	unsigned int flags;		/* PD_CLI_* */
	enum pd_cli_takes takes;
	const char *default_input;	/* PD_CLI_ONE_INPUT with no FILE */
	/* an argument too many; NULL: "unexpected argument 'ARG'" */
	const char *extra_arg;

	/* The command line, for run(). */
	const char *input;		/* -i, the argument, or default_input */
	const char *output;		/* -o; NULL when not given */
	char **args;			/* PD_CLI_INPUTS, PD_CLI_COMMAND */
	int nr_args;
};

/* Runs the tool (see above): its exit code. */
int pd_cli_main(int argc, char **argv, struct pd_cli_main *m);

/*
 * The checks (PD_CLI_NEED_OUTPUT...) of m->output: a usage error ends
 * the tool; a refusal to write to a terminal returns PD_EXIT_USAGE.
 */
int pd_cli_check_output(const struct pd_cli_main *m, unsigned int checks);

#endif /* PD_TOOLS_CLI_MAIN_H */
