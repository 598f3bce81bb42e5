// SPDX-License-Identifier: MIT
/*
 * pd-convert's --target-perf: what the user names, what it can name, the
 * output mode for a target and the --explain lines about it.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfdata/reader.h>

#include "common/cli.h"
#include "target-cli.h"

const struct pd_perf_target *target_cli__parse(const char *spec,
					       struct pd_perf_resolved *res)
{
	memset(res, 0, sizeof(*res));
	res->sz = sizeof(*res);
	if (pd_perf_target__resolve(spec, res))
		pd_usage_error("--target-perf=%s: %s (see --list-targets)", spec,
			       res->note);
	if (res->how == PD_TARGET_NEWER)
		pd_warn("%s", res->note);
	return &res->target;
}

static const char *zstd_word(uint32_t flags, const struct pd_perf_target *t)
{
	if (!pd_perf_target__knows_record(t, PD_RECORD_COMPRESSED))
		return "-";
	if (flags & PD_TGT_NO_ZSTD)
		return "no";
	return flags & PD_TGT_ZSTD ? "yes" : "?";
}

void target_cli__list(FILE *f)
{
	const struct pd_perf_target *const *t, *newest = NULL;
	const struct pd_perf_distro *const *d;
	size_t i;

	fprintf(f, "%-8s %-9s %-6s %-5s %s\n", "target", "attr-max", "hmax",
		"feats", "description");
	for (t = pd_perf_targets(); *t; t++)
		fprintf(f, "%-8s %-9u %-6u %-5u %s\n", (*t)->name,
			(*t)->attr_size_max, (*t)->user_record_max,
			(*t)->last_feature, (*t)->description);
	newest = pd_perf_target__find("newest");
	fprintf(f, "\n"
"Any version works too (5.15, 5.10.223, or what perf --version prints): one\n"
"between two above reads as the older one; one past %s reads as %s, with\n"
"a warning. A version ending in .elN (4.18.0-553.el8_10) is RHEL N's perf.\n"
"A perf binary works too: 'auto' ($PERF, else perf on PATH) or a path, probed.\n"
"\n", newest->name, newest->name);
	fprintf(f, "%-12s %-16s %-8s %-5s %s\n", "distribution", "perf",
		"reads-as", "zstd", "package, build; other names");
	for (d = pd_perf_distros(); *d; d++) {
		const struct pd_perf_target *base = pd_perf_target__find((*d)->target);

		fprintf(f, "%-12s %-16s %-8s %-5s %s: %s; %s", (*d)->name,
			(*d)->perf_version, (*d)->target,
			base ? zstd_word((*d)->build, base) : "?",
			(*d)->description, (*d)->package, (*d)->build_note);
		for (i = 0; (*d)->aliases[i]; i++)
			fprintf(f, "%s%s", i ? ", " : "; also ", (*d)->aliases[i]);
		fputc('\n', f);
	}
	fprintf(f, "\n"
"zstd: whether its perf reads compressed records (-: it knows none; ?: not\n"
"known). pd-convert writes them for a target only with --compress, and\n"
"never for one that cannot read them.\n");
}

int target_cli__mode(const char *output)
{
	struct stat st;
	int err;

	if (!strcmp(output, "-"))
		err = fstat(STDOUT_FILENO, &st);
	else
		err = stat(output, &st);
	/* a file not there yet will be a regular file */
	if (err)
		return strcmp(output, "-") ? PD_MODE_FILE : PD_MODE_PIPE;
	return S_ISREG(st.st_mode) ? PD_MODE_FILE : PD_MODE_PIPE;
}

static void bits(FILE *f, const char *what, uint64_t b)
{
	int i;

	if (!b)
		return;
	fprintf(f, "    %s bits removed:", what);
	for (i = 0; i < 64; i++)
		if (b & (1ULL << i))
			fprintf(f, " %d", i);
	fputc('\n', f);
}

void target_cli__explain(FILE *f, const struct pd_perf_resolved *res,
			 const struct pd_convert_report *rep)
{
	if (res && res->base)
		fprintf(f, "reads as: %s\n", res->note);
	if (rep->compress_out)
		fprintf(f, "compression: %s records\n",
			rep->compress_out == PD_RECORD_COMPRESSED2 ?
			"COMPRESSED2" : "COMPRESSED");
	else
		fprintf(f, "compression: none%s%s\n",
			rep->compress_why ? ": " : "",
			rep->compress_why ? rep->compress_why : "");
	if (!(rep->shims & (1ULL << PD_SHIM_ATTR_BITS)))
		return;
	fprintf(f, "attr bits (shim attr-bits):\n");
	bits(f, "flag", rep->attr_flags_removed);
	bits(f, "read_format", rep->read_format_removed);
	bits(f, "branch filter", rep->branch_filter_removed);
	bits(f, "aux_action", rep->aux_action_removed);
	if (rep->reserved_cleared)
		fprintf(f, "    reserved bytes cleared\n");
	if (!rep->attr_flags_removed && !rep->branch_filter_removed &&
	    !rep->read_format_removed &&
	    !rep->aux_action_removed && !rep->reserved_cleared &&
	    !rep->changed[PD_SHIM_ATTR_BITS])
		fprintf(f, "    none the target does not know\n");
}
