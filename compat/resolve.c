// SPDX-License-Identifier: MIT
/*
 * From what a user calls their perf to the facts to convert with: a
 * target's name, a version ("5.15", "5.10.223"), what perf --version
 * prints, a distribution, or the perf binary itself ("auto", a path:
 * probed by probe.c). The one place that decides, so that every caller
 * places versions the same way: pd_perf_target__find() for a name as it
 * stands (a table entry's, or a binary), pd_perf_target__resolve() for
 * anything a user may write. It sits above the table (targets.c) and the
 * probe, which never call back up here.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <perfdata/compat.h>

#include "base/internal.h"
#include "probe.h"
#include "targets.h"

static void trim(const char *in, char *out, size_t len)
{
	size_t n;

	while (isspace((unsigned char)*in))
		in++;
	snprintf(out, len, "%s", in);
	n = strlen(out);
	while (n && isspace((unsigned char)out[n - 1]))
		out[--n] = 0;
}

/* A target named by its upstream version ("4.18"), not a distribution's
 * build ("rhel8"): the ones a bare version is placed among. */
static bool upstream(const struct pd_perf_target *t)
{
	return isdigit((unsigned char)t->name[0]);
}

static const struct pd_perf_target *newest_upstream(void)
{
	const struct pd_perf_target *const *t, *best = NULL;

	for (t = pd_perf_targets(); *t; t++)
		if (upstream(*t) && (!best || (*t)->version > best->version))
			best = *t;
	return best;
}

/* The newest upstream target not newer than v; NULL if v is older than
 * them all. */
static const struct pd_perf_target *at_or_below(uint32_t v)
{
	const struct pd_perf_target *const *t, *best = NULL;

	for (t = pd_perf_targets(); *t; t++)
		if (upstream(*t) && (*t)->version <= v &&
		    (!best || (*t)->version > best->version))
			best = *t;
	return best;
}

/*
 * MAJOR.MINOR[.PATCH] then anything ("-553.el8_10.x86_64", "+deb12"):
 * 0 if s starts with no such version. An ".elN" in the rest names RHEL N.
 */
static int parse_version(const char *s, unsigned int *maj, unsigned int *min,
			 int *patch, unsigned int *el)
{
	const char *p;
	char *end;

	*patch = -1;
	*el = 0;
	if (!isdigit((unsigned char)*s))
		return 0;
	*maj = strtoul(s, &end, 10);
	if (*end != '.' || !isdigit((unsigned char)end[1]))
		return 0;
	*min = strtoul(end + 1, &end, 10);
	if (*end == '.' && isdigit((unsigned char)end[1]))
		*patch = strtoul(end + 1, &end, 10) & 0xffff;
	if (*end && !strchr("-+~_. ", *end))
		return 0;
	for (p = end; (p = strstr(p, ".el")); p += 3)
		if (isdigit((unsigned char)p[3])) {
			*el = strtoul(p + 3, NULL, 10);
			break;
		}
	return *maj < 100 && *min < 1000;
}

static void from_target(struct pd_perf_resolved *res,
			const struct pd_perf_target *t, enum pd_target_how how)
{
	res->base = t;
	res->how = how;
	res->target = *t;
	res->target.name = res->name;
	res->target.description = res->description;
}

/*
 * The spec as a note cites it: at most this many bytes of it, so that the
 * rest of the note's one line (256 bytes) is never cut
 */
#define ASKED_MAX 80

/*
 * A perf binary's path as a target's name (64 bytes): whole when it fits,
 * else "..." and its end, which names the perf
 */
static void name_of_path(char *dst, size_t n, const char *path)
{
	size_t len = strlen(path);

	if (len < n) {
		memcpy(dst, path, len + 1);
		return;
	}
	memcpy(dst, "...", 3);
	memcpy(dst + 3, path + len - (n - 4), n - 4);
	dst[n - 1] = '\0';
}

static int from_distro(struct pd_perf_resolved *res,
		       const struct pd_perf_distro *d, const char *asked)
{
	const struct pd_perf_target *t = pd_perf_target__find(d->target);

	if (!t) {	/* a table error: unit tests check every entry */
		snprintf(res->note, sizeof(res->note),
			 "%s: no target %s in the table", d->name, d->target);
		return -ENOENT;
	}
	from_target(res, t, PD_TARGET_DISTRO);
	res->distro = d;
	res->target.flags |= d->build;
	snprintf(res->name, sizeof(res->name), "%s", d->name);
	snprintf(res->description, sizeof(res->description),
		 "%s perf %s (%s; %s)", d->description, d->perf_version,
		 d->package, d->build_note);
	snprintf(res->note, sizeof(res->note),
		 "%.*s: %s's perf %s, read as perf %s reads", ASKED_MAX, asked,
		 d->description, d->perf_version, t->name);
	return 0;
}

/* patch: -1 when the version has none */
static int from_version(struct pd_perf_resolved *res, const char *asked,
			unsigned int maj, unsigned int min, int patch)
{
	const struct pd_perf_target *t, *newest = newest_upstream();
	uint32_t v = PD_PERF_VERSION(maj, min);

	res->version = v;
	res->patch = patch < 0 ? 0 : patch;
	if (patch >= 0)
		snprintf(res->name, sizeof(res->name), "%u.%u.%u", maj, min, patch);
	else
		snprintf(res->name, sizeof(res->name), "%u.%u", maj, min);
	t = at_or_below(v);
	if (!t) {
		snprintf(res->note, sizeof(res->note),
			 "%.*s: perf %s is older than the oldest perf known here (%s)",
			 ASKED_MAX, asked, res->name, pd_perf_targets()[0]->name);
		return -ENOENT;
	}
	if (t->version == v) {
		from_target(res, t, PD_TARGET_VERSION);
		snprintf(res->note, sizeof(res->note),
			 "%.*s: perf %s, read as perf %s reads", ASKED_MAX, asked, res->name,
			 t->name);
	} else if (t == newest) {
		from_target(res, t, PD_TARGET_NEWER);
		snprintf(res->note, sizeof(res->note),
			 "perf %s is newer than the newest perf known here (%s): converting with %s's facts",
			 res->name, t->name, t->name);
	} else {
		from_target(res, t, PD_TARGET_OLDER);
		snprintf(res->note, sizeof(res->note),
			 "%.*s: perf %s reads at least what %s reads (the newest known perf not newer than it)",
			 ASKED_MAX, asked, res->name, t->name);
	}
	snprintf(res->description, sizeof(res->description), "perf %s (%s facts)",
		 res->name, t->name);
	return 0;
}

/*
 * A name as it stands: a binary ("auto", a path) is probed, once per
 * process; anything else must be a table entry's name.
 */
PD_EXPORT const struct pd_perf_target *pd_perf_target__find(const char *name)
{
	if (pd_perf_target__is_binary(name))
		return pd__perf_target_binary(name);
	return pd__perf_target_named(name);
}

PD_EXPORT int pd_perf_target__resolve(const char *spec,
				      struct pd_perf_resolved *res)
{
	struct pd_perf_resolved r = { .sz = sizeof(r) };
	const struct pd_perf_distro *d;
	const struct pd_perf_target *t;
	unsigned int maj, min, el;
	int patch;
	char s[128], distro[16];
	const char *v;
	size_t n;
	int err;

	if (!res || !spec)
		return -EINVAL;
	n = res->sz < sizeof(r) ? res->sz : sizeof(r);
	trim(spec, s, sizeof(s));
	/* the line perf --version prints, or just its version */
	v = s;
	if (!strncasecmp(v, "perf version ", 13))
		v += 13;
	else if (!strncasecmp(v, "perf ", 5))
		v += 5;
	while (isspace((unsigned char)*v))
		v++;

	if (pd_perf_target__is_binary(s)) {
		/* the perf itself, asked (probe.c) */
		t = pd__perf_target_binary(s);
		if (t) {
			from_target(&r, t, PD_TARGET_PROBED);
			name_of_path(r.name, sizeof(r.name), s);
			snprintf(r.description, sizeof(r.description), "%s",
				 t->description);
			snprintf(r.note, sizeof(r.note), "%s: %s", s,
				 t->description);
			r.version = t->version;
			err = 0;
		} else {
			snprintf(r.note, sizeof(r.note),
				 "%s: not a perf that could be run and probed",
				 s);
			err = -ENOENT;
		}
	} else if ((d = pd_perf_distro__find(v))) {
		err = from_distro(&r, d, s);
	} else if ((t = pd_perf_target__find(v))) {
		from_target(&r, t, PD_TARGET_NAMED);
		snprintf(r.name, sizeof(r.name), "%s", t->name);
		snprintf(r.description, sizeof(r.description), "%s",
			 t->description);
		snprintf(r.note, sizeof(r.note), "%s: %s", s, t->description);
		r.version = t->version;
		err = 0;
	} else if (parse_version(v, &maj, &min, &patch, &el)) {
		snprintf(distro, sizeof(distro), "rhel%u", el);
		d = el ? pd_perf_distro__find(distro) : NULL;
		if (d) {
			/* a RHEL kernel's version says little of its perf */
			err = from_distro(&r, d, s);
			r.version = PD_PERF_VERSION(maj, min);
			r.patch = patch < 0 ? 0 : patch;
		} else {
			err = from_version(&r, s, maj, min, patch);
		}
	} else {
		snprintf(r.note, sizeof(r.note),
			 "%s: neither a perf version (MAJOR.MINOR[.PATCH], or what perf --version prints) nor a distribution",
			 s);
		err = -ENOENT;
	}
	/* the target's strings pointed into r: into res now, or to the
	 * table's for a caller whose struct ends before them */
	if (r.base && n < sizeof(r)) {
		r.target.name = r.base->name;
		r.target.description = r.base->description;
	}
	memcpy(res, &r, n);
	res->sz = n;
	if (r.base && n == sizeof(r)) {
		res->target.name = res->name;
		res->target.description = res->description;
	}
	return err;
}
