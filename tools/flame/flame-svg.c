// SPDX-License-Identifier: MIT
/*
 * The SVG: flamegraph.pl's geometry (10 px side margins, a title band of
 * three font sizes, a status band of two font sizes plus 10 px below the
 * frames, frames one --height apart with 1 px between rows), coordinates
 * printed as it prints them (x and width to 0.1 px, width taken from the
 * rounded ends), so the rectangles come out the same; then our own markup
 * for the script (flame-js.c).
 *
 * Text is escaped for XML, and bytes XML cannot carry (control
 * characters, broken UTF-8) are written as U+FFFD, so any input gives a
 * well-formed file.
 */
#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "flame-impl.h"

#define XPAD		10
#define FRAMEPAD	1
#define SEARCH_WIDTH	100

struct geom {
	double ypad1, ypad2, ypad3;
	double height;
	double wpt;		/* pixels per count */
};

/* Length of the UTF-8 character at s (n bytes left); 0 if not valid. */
static size_t utf8_char(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, past U+10FFFF; U+FFFE/FFFF are not XML */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff ||
	    cp == 0xfffe || cp == 0xffff)
		return 0;
	return len;
}

/* Characters in s[0..n): what a valid character or a stray byte counts. */
static size_t char_count(const char *s, size_t n)
{
	size_t i = 0, c = 0, k;

	while (i < n) {
		k = utf8_char((const unsigned char *)s + i, n - i);
		i += k ? k : 1;
		c++;
	}
	return c;
}

/* Bytes of the first chars characters of s[0..n). */
static size_t char_prefix(const char *s, size_t n, size_t chars)
{
	size_t i = 0, k;

	while (i < n && chars--) {
		k = utf8_char((const unsigned char *)s + i, n - i);
		i += k ? k : 1;
	}
	return i;
}

/* s[0..n) as XML character data or attribute value. */
static void put_text(FILE *out, const char *s, size_t n)
{
	size_t i = 0, run = 0, k;
	unsigned char c;

	while (i < n) {
		c = s[i];
		k = utf8_char((const unsigned char *)s + i, n - i);
		if (k > 1 || (k == 1 && c >= 0x20 && c != '&' && c != '<' &&
			      c != '>' && c != '"' && c != 0x7f) || c == '\t') {
			i += k;
			run += k;
			continue;
		}
		fwrite(s + i - run, 1, run, out);
		run = 0;
		if (c == '&')
			fputs("&amp;", out);
		else if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '"')
			fputs("&quot;", out);
		else
			fputs("\xef\xbf\xbd", out);
		i++;
	}
	fwrite(s + i - run, 1, run, out);
}

static void put_str(FILE *out, const char *s)
{
	put_text(out, s, strlen(s));
}

/* Whole numbers below 10^15 (most counts) print fast, as %.15g would. */
static bool put_whole(FILE *out, double v)
{
	char buf[24], *p = buf + sizeof(buf);
	uint64_t u;

	if (!(v >= 0 && v < 1e15) || v != (double)(uint64_t)v)
		return false;
	u = v;
	*--p = '\0';
	do {
		*--p = '0' + u % 10;
		u /= 10;
	} while (u);
	fputs(p, out);
	return true;
}

/* A number as Perl prints one: %.15g. */
static void put_num(FILE *out, double v)
{
	if (!put_whole(out, v))
		fprintf(out, "%.15g", v);
}

/* A count exactly: the shortest of %.15g and %.17g that reads back. */
static void put_exact(FILE *out, double v)
{
	char buf[40];

	if (put_whole(out, v))
		return;
	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof(buf), "%.17g", v);
	fputs(buf, out);
}

/* v as "%.Nf" prints it */
static void put_fixed(FILE *out, double v, unsigned int decimals)
{
	char buf[400];

	fwrite(buf, 1, flame_fixed(buf, sizeof(buf), v, decimals), out);
}

/* "%.0f" with thousands separators: 1234567 -> 1,234,567 */
static void put_count(FILE *out, double v)
{
	char buf[400];
	int n = (int)flame_fixed(buf, sizeof(buf), v, 0), i;

	if (n >= (int)sizeof(buf) - 1) {
		fputs("?", out);
		return;
	}
	for (i = 0; i < n; i++) {
		fputc(buf[i], out);
		if (buf[i] >= '0' && buf[i] <= '9' && (n - i - 1) % 3 == 0 &&
		    i < n - 1)
			fputc(',', out);
	}
}

static void put_header(FILE *out, const struct flame_opts *o, double height)
{
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"", o->width);
	put_num(out, height);
	fprintf(out, "\" viewBox=\"0 0 %d ", o->width);
	put_num(out, height);
	fputs("\" xmlns=\"http://www.w3.org/2000/svg\">\n"
	      "<!-- Flame graph by pd-flame (perfdata). -->\n", out);
	if (o->notes)
		fprintf(out, "<!-- NOTES: %s -->\n", o->notes);
}

static void put_label(FILE *out, const char *id, double x, double y,
		      const char *extra, const char *text)
{
	fprintf(out, "<text id=\"%s\" x=\"%.2f\" y=\"", id, x);
	put_num(out, y);
	fprintf(out, "\"%s>", extra);
	put_str(out, text);
	fputs("</text>\n", out);
}

/* What no counts give: a small SVG that says so, as flamegraph.pl does. */
static void write_empty(const struct flame_opts *o, FILE *out)
{
	put_header(out, o, o->fontsize * 5);
	fprintf(out, "<text x=\"%d\" y=\"", o->width / 2);
	put_num(out, o->fontsize * 2);
	fputs("\" text-anchor=\"middle\">ERROR: no stack counts found in the input.</text>\n</svg>\n",
	      out);
}

static const char *default_title(const struct flame_opts *o)
{
	if (o->title)
		return o->title;
	if (o->flamechart)
		return "Flame Chart";
	return o->inverted ? "Icicle Graph" : "Flame Graph";
}

static void put_prologue(struct flame *fl, FILE *out, const struct geom *g)
{
	const struct flame_opts *o = &fl->o;
	const char *bg1, *bg2;

	put_header(out, o, g->height);
	flame_bg(o, &bg1, &bg2);
	fputs("<defs>\n\t<linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">\n", out);
	fprintf(out, "\t\t<stop stop-color=\"%s\" offset=\"5%%\"/>\n", bg1);
	fprintf(out, "\t\t<stop stop-color=\"%s\" offset=\"95%%\"/>\n", bg2);
	fputs("\t</linearGradient>\n</defs>\n<style type=\"text/css\">\n\ttext { font-family:", out);
	put_str(out, o->fonttype);
	fputs("; font-size:", out);
	put_num(out, o->fontsize);
	fputs("px; fill:rgb(0,0,0); }\n\t#title { font-size:", out);
	put_num(out, o->fontsize + 5);
	fprintf(out, "px; }\n%s</style>\n", flame_css);
	fputs("<rect x=\"0\" y=\"0\" width=\"", out);
	fprintf(out, "%d\" height=\"", o->width);
	put_num(out, g->height);
	fputs("\" fill=\"url(#background)\"/>\n", out);
	put_label(out, "title", o->width / 2, o->fontsize * 2, "", default_title(o));
	if (o->subtitle)
		put_label(out, "subtitle", o->width / 2, o->fontsize * 4, "",
			  o->subtitle);
	put_label(out, "details", XPAD, g->height - g->ypad2 / 2, "", " ");
	put_label(out, "unzoom", XPAD, o->fontsize * 2, " class=\"hide\"",
		  "Reset Zoom");
	put_label(out, "search", o->width - XPAD - SEARCH_WIDTH,
		  o->fontsize * 2, "", "Search");
	put_label(out, "matched", o->width - XPAD - SEARCH_WIDTH,
		  g->height - g->ypad2 / 2, "", " ");
}

/* The frame's title: "name (1,234 samples, 5.67%[; +1.20%])" */
static void put_title(struct flame *fl, FILE *out, const struct flame_frame *f,
		      double etime)
{
	const struct flame_opts *o = &fl->o;
	double samples, d;
	char buf[64];

	flame_fixed(buf, sizeof(buf), etime - f->stime, 0);
	samples = strtod(buf, NULL);
	fputs("<title>", out);
	if (f->depth == 0) {
		fputs("all (", out);
		put_count(out, samples);
		fputc(' ', out);
		put_str(out, o->countname);
		fputs(", 100%)</title>", out);
		return;
	}
	put_text(out, f->name, flame_name_len(f->name, f->len));
	fputs(" (", out);
	put_count(out, samples);
	fputc(' ', out);
	put_str(out, o->countname);
	fputs(", ", out);
	put_fixed(out, 100 * samples / fl->timemax, 2);
	fputc('%', out);
	if (f->has_delta) {
		d = o->negate ? -f->delta : f->delta;
		/* an unchanged count is 0.00, never -0.00 */
		if (d == 0)
			d = 0;
		fputs(d > 0 ? "; +" : "; ", out);
		put_fixed(out, 100 * d / fl->timemax, 2);
		fputc('%', out);
	}
	fputs(")</title>", out);
}

static void put_frame(struct flame *fl, FILE *out, const struct geom *g,
		      const struct flame_frame *f)
{
	const struct flame_opts *o = &fl->o;
	double etime = f->depth == 0 ? fl->timemax : f->etime;
	double x1 = XPAD + f->stime * g->wpt, x2 = XPAD + etime * g->wpt;
	double y1, y2, rx1, rx2, room;
	char fill[64], buf[64];
	size_t chars, n, len;

	if (!o->inverted) {
		y1 = g->height - g->ypad2 - (f->depth + 1.0) * o->frameheight + FRAMEPAD;
		y2 = g->height - g->ypad2 - (double)f->depth * o->frameheight;
	} else {
		y1 = g->ypad1 + (double)f->depth * o->frameheight;
		y2 = g->ypad1 + (f->depth + 1.0) * o->frameheight - FRAMEPAD;
	}
	if (f->len == 2 && !memcmp(f->name, "--", 2))
		snprintf(fill, sizeof(fill), "rgb(160,160,160)");
	else if (f->len == 1 && f->name[0] == '-')
		snprintf(fill, sizeof(fill), "rgb(200,200,200)");
	else if (f->has_delta)
		flame_color_delta(f->delta, fl->maxdelta, o->negate, fill, sizeof(fill));
	else
		flame_color(o, f->name, f->len, f->waker, fill, sizeof(fill));

	fputs("<g data-s=\"", out);
	put_exact(out, f->stime);
	fputs("\" data-e=\"", out);
	put_exact(out, etime);
	fputs("\">", out);
	put_title(fl, out, f, etime);
	/* the width from the ends as printed, as flamegraph.pl computes it */
	flame_fixed(buf, sizeof(buf), x1, 1);
	rx1 = strtod(buf, NULL);
	fputs("<rect x=\"", out);
	fputs(buf, out);
	fputs("\" y=\"", out);
	flame_fixed(buf, sizeof(buf), x2, 1);
	rx2 = strtod(buf, NULL);
	put_num(out, y1);
	fputs("\" width=\"", out);
	put_fixed(out, rx2 - rx1, 1);
	fputs("\" height=\"", out);
	put_fixed(out, y2 - y1, 1);
	fprintf(out, "\" fill=\"%s\" rx=\"2\" ry=\"2\"/>", fill);
	fputs("<text x=\"", out);
	put_fixed(out, x1 + 3, 2);
	fputs("\" y=\"", out);
	put_num(out, 3 + (y1 + y2) / 2);
	fputs("\">", out);
	/* as Perl's int(): the width is never negative */
	room = (x2 - x1) / (o->fontsize * o->fontwidth);
	chars = room >= 1e9 ? 1000000000 : (size_t)room;
	if (chars >= 3 && f->depth > 0) {
		len = flame_name_len(f->name, f->len);
		if (char_count(f->name, len) <= chars) {
			put_text(out, f->name, len);
		} else {
			n = char_prefix(f->name, len, chars - 2);
			put_text(out, f->name, n);
			fputs("..", out);
		}
	}
	fputs("</text></g>\n", out);
}

static void warn_bad_lines(const struct flame *fl)
{
	if (!fl->bad_lines)
		return;
	pd_warn("%s:%lu: not a \"STACK COUNT\" line; %lu such line%s ignored",
		fl->first_bad_name ? fl->first_bad_name : "<input>",
		fl->first_bad_lineno, fl->bad_lines,
		fl->bad_lines == 1 ? "" : "s");
}

int flame__write_svg(struct flame *fl, FILE *out)
{
	const struct flame_opts *o = &fl->o;
	struct geom g;
	size_t i;
	int ret;

	warn_bad_lines(fl);
	ret = flame_layout(fl);
	if (ret == -ENODATA) {
		pd_err("no stack counts found in the input");
		write_empty(o, out);
		return ret;
	}
	if (ret == -EDOM) {
		pd_err("the counts add up past %g, more than a flame graph can scale",
		       1.7976931348623157e308);
		return ret;
	}
	if (ret) {
		pd_err("out of memory");
		return ret;
	}
	g.ypad1 = o->fontsize * 3;
	g.ypad2 = o->fontsize * 2 + 10;
	g.ypad3 = o->fontsize * 2;
	g.height = (fl->depthmax + 1.0) * o->frameheight + g.ypad1 + g.ypad2;
	if (o->subtitle)
		g.height += g.ypad3;
	g.wpt = (o->width - 2.0 * XPAD) / fl->timemax;

	put_prologue(fl, out, &g);
	fprintf(out, "<g id=\"frames\" data-width=\"%d\" data-xpad=\"%d\" data-fh=\"%d\" data-y0=\"",
		o->width, XPAD, o->frameheight);
	put_num(out, o->inverted ? g.ypad1 :
		g.height - g.ypad2 - o->frameheight + FRAMEPAD);
	fputs("\" data-total=\"", out);
	put_exact(out, fl->timemax);
	fputs("\" data-fontsize=\"", out);
	put_num(out, o->fontsize);
	fputs("\" data-fontwidth=\"", out);
	put_num(out, o->fontwidth);
	fputs("\" data-nametype=\"", out);
	put_str(out, o->nametype);
	fputs("\">\n", out);
	for (i = 0; i < fl->nframes; i++)
		put_frame(fl, out, &g, &fl->frames[i]);
	fprintf(out, "</g>\n<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n</svg>\n",
		flame_js);
	return 0;
}
