// SPDX-License-Identifier: MIT
/*
 * Frame colours: flamegraph.pl's palettes (hot, mem, io; the language
 * palettes java, js, perl that pick a plain palette per frame; wakeup,
 * chain; the plain red, green, blue, aqua, yellow, purple, orange), each
 * a range per channel, and the differential white-red-blue scale.
 *
 * Where a palette's range leaves a choice, the position in it comes from
 * the frame's name only, never from a random generator, so the same input
 * gives the same bytes and a function keeps its colour from one graph to
 * the next:
 *   default  three 0..1 values from a 64-bit hash of the whole frame text
 *            (annotation included): neighbours get unrelated colours;
 *   --hash   values from the first four characters of the name without
 *            its annotation (and of the reversed name): names that share
 *            a beginning get similar colours, foo and foo_[k] the same.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "flame-impl.h"

enum channel_src { V1, V2, V3, ZERO };

/* channel = base + int(span * v); one row per plain palette */
struct palette {
	const char *name;
	struct { unsigned char base, span; enum channel_src v; } c[3];
};

static const struct palette palettes[] = {
	{ "hot",    { { 205, 50, V3 }, { 0, 230, V1 }, { 0, 55, V2 } } },
	{ "mem",    { { 0, 0, ZERO }, { 190, 50, V2 }, { 0, 210, V1 } } },
	{ "io",     { { 80, 60, V1 }, { 80, 60, V1 }, { 190, 55, V2 } } },
	{ "red",    { { 200, 55, V1 }, { 50, 80, V1 }, { 50, 80, V1 } } },
	{ "green",  { { 50, 60, V1 }, { 200, 55, V1 }, { 50, 60, V1 } } },
	{ "blue",   { { 80, 60, V1 }, { 80, 60, V1 }, { 205, 50, V1 } } },
	{ "yellow", { { 175, 55, V1 }, { 175, 55, V1 }, { 50, 20, V1 } } },
	{ "purple", { { 190, 65, V1 }, { 80, 60, V1 }, { 190, 65, V1 } } },
	{ "aqua",   { { 50, 60, V1 }, { 165, 55, V1 }, { 165, 55, V1 } } },
	{ "orange", { { 190, 65, V1 }, { 90, 65, V1 }, { 0, 0, ZERO } } },
};

/* palettes that choose a plain palette per frame */
static const char *const chooser_palettes[] = {
	"java", "js", "perl", "wakeup", "chain",
};

static const struct palette *find_palette(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(palettes) / sizeof(palettes[0]); i++)
		if (!strcmp(palettes[i].name, name))
			return &palettes[i];
	return NULL;
}

bool flame_palette_known(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(chooser_palettes) / sizeof(chooser_palettes[0]); i++)
		if (!strcmp(chooser_palettes[i], name))
			return true;
	return find_palette(name) != NULL;
}

bool flame_bgcolors_known(const char *name)
{
	size_t i;

	if (!strcmp(name, "yellow") || !strcmp(name, "blue") ||
	    !strcmp(name, "green") || !strcmp(name, "grey"))
		return true;
	if (strlen(name) != 7 || name[0] != '#')
		return false;
	for (i = 1; i < 7; i++)
		if (!strchr("0123456789abcdefABCDEF", name[i]))
			return false;
	return true;
}

void flame_bg(const struct flame_opts *o, const char **c1, const char **c2)
{
	const char *bg = o->bgcolors, *p = o->colors;

	if (!bg) {
		if (!strcmp(p, "mem"))
			bg = "green";
		else if (!strcmp(p, "io") || !strcmp(p, "wakeup") || !strcmp(p, "chain"))
			bg = "blue";
		else if (find_palette(p) && strcmp(p, "hot"))
			bg = "grey";
		else
			bg = "yellow";
	}
	if (!strcmp(bg, "yellow")) {
		*c1 = "#eeeeee", *c2 = "#eeeeb0";
	} else if (!strcmp(bg, "blue")) {
		*c1 = "#eeeeee", *c2 = "#e0e0ff";
	} else if (!strcmp(bg, "green")) {
		*c1 = "#eef2ee", *c2 = "#e0ffe0";
	} else if (!strcmp(bg, "grey")) {
		*c1 = "#f8f8f8", *c2 = "#e8e8e8";
	} else {
		*c1 = *c2 = bg;
	}
}

size_t flame_name_len(const char *name, size_t len)
{
	if (len >= 4 && name[len - 4] == '_' && name[len - 3] == '[' &&
	    name[len - 1] == ']' && strchr("kwij", name[len - 2]) && name[len - 2])
		return len - 4;
	return len;
}

static bool has_suffix(const char *s, size_t len, const char *suf)
{
	size_t n = strlen(suf);

	return len >= n && !memcmp(s + len - n, suf, n);
}

static bool contains(const char *s, size_t len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle)) != NULL;
}

/* java: JIT and inlined frames, Java packages, C++, kernel, the rest */
static const char *java_palette(const char *s, size_t len)
{
	static const char *const pkgs[] = {
		"java/", "javax/", "jdk/", "net/", "org/", "com/", "io/", "sun/",
	};
	const char *p = s;
	size_t i, n = len;

	if (has_suffix(s, len, "_[j]"))
		return "green";
	if (has_suffix(s, len, "_[i]"))
		return "aqua";
	if (n && *p == 'L')
		p++, n--;
	for (i = 0; i < sizeof(pkgs) / sizeof(pkgs[0]); i++)
		if (n >= strlen(pkgs[i]) && !memcmp(p, pkgs[i], strlen(pkgs[i])))
			return "green";
	if (contains(s, len, ":::"))
		return "green";
	if (contains(s, len, "::"))
		return "yellow";
	if (has_suffix(s, len, "_[k]"))
		return "orange";
	return "red";
}

static const char *perl_palette(const char *s, size_t len)
{
	if (contains(s, len, "::"))
		return "yellow";
	if (contains(s, len, "Perl") || contains(s, len, ".pl"))
		return "green";
	if (has_suffix(s, len, "_[k]"))
		return "orange";
	return "red";
}

static const char *js_palette(const char *s, size_t len)
{
	const char *slash = memchr(s, '/', len);

	if (has_suffix(s, len, "_[j]"))
		return slash ? "green" : "aqua";
	if (contains(s, len, "::"))
		return "yellow";
	/* a script path: a '/' with ".js" somewhere after it */
	if (slash && contains(slash, len - (slash - s), ".js"))
		return "green";
	if (memchr(s, ':', len))
		return "aqua";
	if (len == 1 && s[0] == ' ')
		return "green";
	if (contains(s, len, "_[k]"))
		return "orange";
	return "red";
}

static uint64_t mix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

/* 0..1 from a name's first four characters (step -1: from its end) */
static double prefix_value(const unsigned char *s, size_t len, int step)
{
	double v = 0, w = 1, sum = 0;
	size_t i;

	for (i = 0; i < 4 && i < len; i++) {
		unsigned char c = step > 0 ? s[i] : s[len - 1 - i];

		v += w * (c % 13) / 12.0;
		sum += w;
		w /= 2;
	}
	return sum ? v / sum : 0;
}

static void name_values(const struct flame_opts *o, const char *name,
			size_t len, double v[3])
{
	uint64_t h;
	size_t n;

	if (o->hash) {
		n = flame_name_len(name, len);
		v[0] = prefix_value((const unsigned char *)name, n, 1);
		v[1] = v[2] = prefix_value((const unsigned char *)name, n, -1);
		/* int(span * 1.0) would leave the range */
		if (v[0] > 0.999)
			v[0] = 0.999;
		if (v[1] > 0.999)
			v[1] = 0.999;
		v[2] = v[1];
		return;
	}
	/* FNV-1a, then mixed so that short names spread over all bits */
	h = 0xcbf29ce484222325ULL;
	for (n = 0; n < len; n++)
		h = (h ^ (unsigned char)name[n]) * 0x100000001b3ULL;
	h = mix64(h);
	v[0] = (double)(h >> 43) / (1 << 21);
	v[1] = (double)((h >> 22) & 0x1fffff) / (1 << 21);
	v[2] = (double)((h >> 1) & 0x1fffff) / (1 << 21);
}

void flame_color(const struct flame_opts *o, const char *name, size_t len,
		 bool waker, char *buf, size_t size)
{
	const char *pname = o->colors;
	const struct palette *p;
	double v[3];
	int rgb[3], i;

	if (!strcmp(pname, "java"))
		pname = java_palette(name, len);
	else if (!strcmp(pname, "perl"))
		pname = perl_palette(name, len);
	else if (!strcmp(pname, "js"))
		pname = js_palette(name, len);
	else if (!strcmp(pname, "wakeup"))
		pname = "aqua";
	else if (!strcmp(pname, "chain"))
		pname = waker || has_suffix(name, len, "_[w]") ? "aqua" : "blue";
	p = find_palette(pname);
	if (!p) {
		snprintf(buf, size, "rgb(0,0,0)");
		return;
	}
	name_values(o, name, len, v);
	for (i = 0; i < 3; i++) {
		double x = p->c[i].v == ZERO ? 0 : v[p->c[i].v];

		rgb[i] = p->c[i].base + (int)(p->c[i].span * x);
	}
	snprintf(buf, size, "rgb(%d,%d,%d)", rgb[0], rgb[1], rgb[2]);
}

void flame_color_delta(double delta, double maxdelta, bool negate,
		       char *buf, size_t size)
{
	int r = 255, g = 255, b = 255;

	if (negate)
		delta = -delta;
	if (delta > 0)
		g = b = (int)(210 * (maxdelta - delta) / maxdelta);
	else if (delta < 0)
		r = g = (int)(210 * (maxdelta + delta) / maxdelta);
	snprintf(buf, size, "rgb(%d,%d,%d)", r, g, b);
}
