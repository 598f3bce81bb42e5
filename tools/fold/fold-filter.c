// SPDX-License-Identifier: MIT
/* --filter rule files: loading and matching (see fold-filter.h). */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "fold-filter.h"

enum rule_kind { RULE_SYM, RULE_EXEC, RULE_ANY };

struct rule {
	enum rule_kind kind;
	unsigned int group;
	regex_t re;
};

struct fold_filter {
	struct rule *rules;	/* in file order, so groups are runs */
	size_t n, cap;
};

void fold_filter__free(struct fold_filter *ff)
{
	size_t i;

	if (!ff)
		return;
	for (i = 0; i < ff->n; i++)
		regfree(&ff->rules[i].re);
	free(ff->rules);
	free(ff);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' ||
	       c == '\f' || c == '\v';
}

/* One non-comment line: "OR" or "KIND REGEX". 0 or -EINVAL (printed). */
static int parse_line(struct fold_filter *ff, char *p, unsigned int *group,
		      bool *group_open, const char *path, unsigned long lineno)
{
	static const struct { const char *name; enum rule_kind kind; } kinds[] = {
		{ "SYM", RULE_SYM }, { "EXEC", RULE_EXEC }, { "ANY", RULE_ANY },
	};
	struct rule *r;
	size_t i, n;
	int err;

	if (!strcmp(p, "OR")) {
		/* empty groups ("OR" twice, or first) would match nothing */
		if (*group_open)
			(*group)++;
		*group_open = false;
		return 0;
	}
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		n = strlen(kinds[i].name);
		if (!strncmp(p, kinds[i].name, n) && is_space(p[n]))
			break;
	}
	if (i == sizeof(kinds) / sizeof(kinds[0])) {
		pd_err("%s:%lu: expected 'SYM REGEX', 'EXEC REGEX', 'ANY REGEX' or 'OR'",
		       path, lineno);
		return -EINVAL;
	}
	for (p += n; is_space(*p); p++)
		;
	if (ff->n == ff->cap) {
		size_t cap = ff->cap ? ff->cap * 2 : 8;
		struct rule *v = realloc(ff->rules, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		ff->rules = v;
		ff->cap = cap;
	}
	r = &ff->rules[ff->n];
	err = regcomp(&r->re, p, REG_EXTENDED | REG_NOSUB);
	if (err) {
		char msg[256];

		regerror(err, &r->re, msg, sizeof(msg));
		pd_err("%s:%lu: bad regex '%s': %s", path, lineno, p, msg);
		return -EINVAL;
	}
	r->kind = kinds[i].kind;
	r->group = *group;
	ff->n++;
	*group_open = true;
	return 0;
}

struct fold_filter *fold_filter__load(const char *path)
{
	struct fold_filter *ff = calloc(1, sizeof(*ff));
	unsigned long lineno = 0;
	unsigned int group = 0;
	bool group_open = false;
	char *line = NULL, *p, *end;
	size_t cap = 0;
	FILE *in;
	int err = 0;

	if (!ff)
		return NULL;
	in = fopen(path, "r");
	if (!in) {
		err = -errno;
		pd_err("%s: %s", path, strerror(errno));
		goto out;
	}
	while (getline(&line, &cap, in) >= 0) {
		lineno++;
		for (p = line; is_space(*p); p++)
			;
		for (end = p + strlen(p); end > p && is_space(end[-1]); end--)
			;
		*end = '\0';
		if (!*p || *p == '#')
			continue;
		err = parse_line(ff, p, &group, &group_open, path, lineno);
		if (err)
			goto out;
	}
	if (ferror(in)) {
		err = -EIO;
		pd_err("%s: read error", path);
	} else if (!ff->n) {
		err = -EINVAL;
		pd_err("%s: no rules (expected lines 'SYM REGEX', 'EXEC REGEX' or 'ANY REGEX')",
		       path);
	}
out:
	if (in)
		fclose(in);
	free(line);
	if (err) {
		fold_filter__free(ff);
		errno = -err;
		return NULL;
	}
	return ff;
}

static bool rule_match(const struct rule *r, const char *sym, const char *mod)
{
	switch (r->kind) {
	case RULE_SYM:
		return !regexec(&r->re, sym, 0, NULL, 0);
	case RULE_EXEC:
		return !regexec(&r->re, mod, 0, NULL, 0);
	default:
		return !regexec(&r->re, sym, 0, NULL, 0) ||
		       !regexec(&r->re, mod, 0, NULL, 0);
	}
}

bool fold_filter__match(const struct fold_filter *ff, const char *sym,
			const char *mod)
{
	size_t i = 0, j;

	while (i < ff->n) {
		bool all = true;

		/* a group is the run of rules sharing its number */
		for (j = i; j < ff->n && ff->rules[j].group == ff->rules[i].group; j++)
			if (all && !rule_match(&ff->rules[j], sym, mod))
				all = false;
		if (all)
			return true;
		i = j;
	}
	return false;
}
