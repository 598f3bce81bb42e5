// SPDX-License-Identifier: MIT
/* pd-fold's --comm, --cpu and --time selections (see fold-select.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "fold-select.h"

/* perf's own limit on CPU numbers */
#define MAX_CPU	4096

struct fold_select {
	char *comm_buf;		/* the --comm list, commas replaced by NULs */
	char **comms;
	size_t ncomms;
	bool has_cpu;
	uint8_t cpus[MAX_CPU / 8];
};

void fold_select__free(struct fold_select *s)
{
	if (!s)
		return;
	free(s->comm_buf);
	free(s->comms);
	free(s);
}

static int parse_comms(struct fold_select *s, const char *list)
{
	char *p;

	s->comm_buf = strdup(list);
	s->comms = calloc(strlen(list) + 1, sizeof(*s->comms));
	if (!s->comm_buf || !s->comms)
		return -ENOMEM;
	for (p = s->comm_buf;;) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		if (*p)
			s->comms[s->ncomms++] = p;
		if (!comma)
			break;
		p = comma + 1;
	}
	if (!s->ncomms) {
		pd_err("--comm: no command names in '%s'", list);
		return -EINVAL;
	}
	return 0;
}

static int parse_cpu(const char **pp, long *v)
{
	char *end;

	if (**pp < '0' || **pp > '9')
		return -EINVAL;
	errno = 0;
	*v = strtol(*pp, &end, 10);
	if (errno || *v >= MAX_CPU)
		return -EINVAL;
	*pp = end;
	return 0;
}

/* "0-3,7": ranges and single CPUs, as perf's --cpu takes them */
static int parse_cpus(struct fold_select *s, const char *list)
{
	const char *p = list;
	long lo, hi;

	s->has_cpu = true;
	for (;;) {
		if (parse_cpu(&p, &lo) < 0)
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_cpu(&p, &hi) < 0 || hi < lo)
				goto bad;
		}
		for (; lo <= hi; lo++)
			s->cpus[lo / 8] |= 1u << (lo % 8);
		if (!*p)
			return 0;
		if (*p++ != ',')
			goto bad;
	}
bad:
	pd_err("--cpu: bad CPU list '%s' (expected e.g. 0-3,7; CPUs below %d)",
	       list, MAX_CPU);
	return -EINVAL;
}

struct fold_select *fold_select__new(const char *comm_list,
				     const char *cpu_list)
{
	struct fold_select *s = calloc(1, sizeof(*s));
	int err = 0;

	if (!s)
		return NULL;
	if (comm_list)
		err = parse_comms(s, comm_list);
	if (!err && cpu_list)
		err = parse_cpus(s, cpu_list);
	if (err) {
		fold_select__free(s);
		errno = -err;
		return NULL;
	}
	return s;
}

bool fold_select__has_cpu(const struct fold_select *s)
{
	return s->has_cpu;
}

bool fold_select__comm(const struct fold_select *s, const char *comm)
{
	size_t i;

	if (!s->ncomms)
		return true;
	for (i = 0; i < s->ncomms; i++)
		if (!strcmp(s->comms[i], comm))
			return true;
	return false;
}

bool fold_select__cpu(const struct fold_select *s, int cpu)
{
	if (!s->has_cpu)
		return true;
	return cpu >= 0 && cpu < MAX_CPU && (s->cpus[cpu / 8] & (1u << (cpu % 8)));
}

/* "SECONDS[.FRACTION]" to ns; an empty string is 0 (an open end). */
static int parse_seconds(const char *p, const char *end, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0;

	*ns = 0;
	if (p == end)
		return 0;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (sec > (UINT64_MAX / 1000000000u - 9) / 10)
			return -EINVAL;
		sec = sec * 10 + (*p - '0');
	}
	if (p < end && *p == '.') {
		for (p++; p < end && *p >= '0' && *p <= '9'; p++) {
			if (++digits > 9)
				return -EINVAL;
			frac = frac * 10 + (*p - '0');
		}
	}
	if (p != end)
		return -EINVAL;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000u + frac;
	return 0;
}

int fold_parse_time_range(const char *arg, uint64_t *start_ns,
			  uint64_t *end_ns)
{
	const char *comma = strchr(arg, ',');

	if (!comma ||
	    parse_seconds(arg, comma, start_ns) < 0 ||
	    parse_seconds(comma + 1, comma + strlen(comma), end_ns) < 0 ||
	    (*end_ns && *start_ns > *end_ns))
		return -EINVAL;
	return 0;
}
