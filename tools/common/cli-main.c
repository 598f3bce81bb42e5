// SPDX-License-Identifier: MIT
/*
 * The shared main() of the pd-* tools: see cli-main.h.
 */
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/cli-main.h"

/* The common long options: see cli-main.h for where they go. */
enum { COMMON_INPUT, COMMON_OUTPUT, COMMON_QUIET, COMMON_VERBOSE, COMMON_HELP };

static const struct option common[] = {
	[COMMON_INPUT] = { "input", required_argument, NULL, 'i' },
	[COMMON_OUTPUT] = { "output", required_argument, NULL, 'o' },
	[COMMON_QUIET] = { "quiet", no_argument, NULL, 'q' },
	[COMMON_VERBOSE] = { "verbose", no_argument, NULL, 'v' },
	[COMMON_HELP] = { "help", no_argument, NULL, 'h' },
};

struct opt_table {
	struct option *longopts;
	char *shortopts;
	size_t nr;
};

static bool tool_has(const struct option *own, const char *name)
{
	for (; own->name; own++)
		if (!strcmp(own->name, name))
			return true;
	return false;
}

static void add_common(struct opt_table *t, const struct option *own,
		       int which, bool wanted)
{
	if (wanted && !tool_has(own, common[which].name))
		t->longopts[t->nr++] = common[which];
}

/* The tool's options and the common ones its flags ask for. */
static int opt_table__init(struct opt_table *t, const struct pd_cli_main *m)
{
	static const struct option none = { NULL, 0, NULL, 0 };
	const struct option *own = m->longopts ? m->longopts : &none;
	const char *letters = m->shortopts ? m->shortopts : "";
	size_t n;

	for (n = 0; own[n].name; n++)
		;
	/* the common options and the end */
	t->longopts = calloc(n + sizeof(common) / sizeof(common[0]) + 1,
			     sizeof(*t->longopts));
	/* "+", the tool's letters, "i:o:qvh" and the NUL */
	t->shortopts = malloc(strlen(letters) + 9);
	t->nr = 0;
	if (!t->longopts || !t->shortopts) {
		free(t->longopts);
		free(t->shortopts);
		pd_err("out of memory");
		return PD_EXIT_DATA;
	}
	add_common(t, own, COMMON_INPUT, m->flags & PD_CLI_INPUT);
	add_common(t, own, COMMON_OUTPUT, m->flags & PD_CLI_OUTPUT);
	memcpy(t->longopts + t->nr, own, n * sizeof(*own));
	t->nr += n;
	add_common(t, own, COMMON_QUIET, true);
	add_common(t, own, COMMON_VERBOSE, m->flags & PD_CLI_VERBOSE);
	add_common(t, own, COMMON_HELP, true);

	/* '+': the options end at a command, whose own options are its own */
	sprintf(t->shortopts, "%s%s%s%sq%sh",
		m->takes == PD_CLI_COMMAND ? "+" : "", letters,
		m->flags & PD_CLI_INPUT ? "i:" : "",
		m->flags & PD_CLI_OUTPUT ? "o:" : "",
		m->flags & PD_CLI_VERBOSE ? "v" : "");
	return PD_EXIT_OK;
}

static void opt_table__release(struct opt_table *t)
{
	free(t->longopts);
	free(t->shortopts);
}

/*
 * A common option: true when opt is one (-h has printed the usage and
 * set *ret to the exit code).
 */
static bool common_option(struct pd_cli_main *m, int opt, const char *arg,
			  int *ret)
{
	switch (opt) {
	case 'i':
		if (!(m->flags & PD_CLI_INPUT))
			return false;
		m->input = arg;
		return true;
	case 'o':
		if (!(m->flags & PD_CLI_OUTPUT))
			return false;
		m->output = arg;
		return true;
	case 'v':
		if (!(m->flags & PD_CLI_VERBOSE))
			return false;
		pd_verbose++;
		return true;
	case 'q':
		pd_quiet = true;
		return true;
	case 'h':
		m->usage(stdout);
		/* the help too is output: a failed write fails the tool */
		*ret = pd_cli_close_output(stdout, "<stdout>");
		return true;
	case '?':
		/* getopt has said which */
		pd_usage_error("unknown option");
	}
	return false;
}

/* One of the tool's bools: turned on. */
static bool set_bool(const struct pd_cli_main *m, int opt)
{
	const struct pd_cli_bool *b;

	for (b = m->bools; b && b->opt; b++) {
		if (b->opt == opt) {
			*b->on = true;
			return true;
		}
	}
	return false;
}

/* The option loop: -1 to go on, else the exit code to end with (-h). */
static int parse_options(int argc, char **argv, struct pd_cli_main *m)
{
	struct opt_table t;
	int opt, ret = -1;

	if (opt_table__init(&t, m))
		return PD_EXIT_DATA;
	while (ret < 0) {
		opt = getopt_long(argc, argv, t.shortopts, t.longopts, NULL);
		if (opt == -1)
			break;
		if (!common_option(m, opt, optarg, &ret) && !set_bool(m, opt))
			m->option(m, opt, optarg);
	}
	opt_table__release(&t);
	return ret;
}

static void extra_arg(const struct pd_cli_main *m, const char *arg)
{
	if (m->extra_arg)
		pd_usage_error("%s", m->extra_arg);
	pd_usage_error("unexpected argument '%s'", arg);
}

/* The arguments: the input (-i FILE or one FILE), or the list of them. */
static void take_args(struct pd_cli_main *m, int argc, char **argv)
{
	m->args = argv + optind;
	m->nr_args = argc - optind;
	switch (m->takes) {
	case PD_CLI_ONE_INPUT:
		if (m->nr_args > (m->input ? 0 : 1))
			extra_arg(m, m->args[m->input ? 0 : 1]);
		if (!m->input && m->nr_args)
			m->input = m->args[0];
		if (!m->input)
			m->input = m->default_input;
		break;
	case PD_CLI_INPUTS:
		if (m->input && m->nr_args)
			extra_arg(m, m->args[0]);
		break;
	case PD_CLI_COMMAND:
		break;
	}
}

int pd_cli_main(int argc, char **argv, struct pd_cli_main *m)
{
	int ret;

	m->init(argv[0]);
	ret = parse_options(argc, argv, m);
	if (ret >= 0)
		return ret;
	take_args(m, argc, argv);
	ret = pd_cli_check_output(m, m->flags);
	if (ret)
		return ret;
	return m->run(m);
}

/*
 * Writers never touch their input. One input is named; of several, the
 * output is (it is the one among them).
 */
static void refuse_input(const struct pd_cli_main *m, const char *input)
{
	if (!pd_cli_same_file(input, m->output))
		return;
	if (m->takes == PD_CLI_ONE_INPUT)
		pd_usage_error("the output would overwrite the input '%s'", input);
	pd_usage_error("the output %s is an input", m->output);
}

int pd_cli_check_output(const struct pd_cli_main *m, unsigned int checks)
{
	int i;

	if ((checks & PD_CLI_NEED_OUTPUT) && !m->output)
		pd_usage_error("no output given (-o FILE, or -o - for standard output)");
	if (!m->output)
		return PD_EXIT_OK;
	if ((checks & PD_CLI_BINARY_OUTPUT) && !strcmp(m->output, "-") &&
	    pd_cli_refuse_tty(stdout))
		return PD_EXIT_USAGE;
	if (!(checks & PD_CLI_NOT_INPUT))
		return PD_EXIT_OK;
	if (m->input)
		refuse_input(m, m->input);
	for (i = 0; m->takes == PD_CLI_INPUTS && i < m->nr_args; i++)
		refuse_input(m, m->args[i]);
	return PD_EXIT_OK;
}
