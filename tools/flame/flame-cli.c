// SPDX-License-Identifier: MIT
/* pd-flame's options: see flame-cli.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "flame-cli.h"
#include "flame-impl.h"

void flame_cli__init(struct flame_cli *fc)
{
	memset(fc, 0, sizeof(*fc));
	flame_opts__init(&fc->o);
}

static const char *option_name(int opt)
{
	static const struct option opts[] = { FLAME_CLI_LONGOPTS };
	size_t i;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (opts[i].val == opt)
			return opts[i].name;
	return "?";
}

/* A whole number in [lo, hi]. */
static int parse_int(int opt, const char *arg, long lo, long hi)
{
	char *end;
	long v;

	v = strtol(arg, &end, 10);
	if (end == arg || *end || v < lo || v > hi)
		pd_usage_error("--%s takes a whole number from %ld to %ld, not '%s'",
			       option_name(opt), lo, hi, arg);
	return v;
}

/* A positive number (digits and a point: no exponents, no "inf"). */
static double parse_positive(int opt, const char *arg, bool zero_ok)
{
	char *end;
	double v;

	if (!*arg || strspn(arg, "0123456789.") != strlen(arg))
		goto bad;
	v = strtod(arg, &end);
	if (end == arg || *end || !isfinite(v) || v < 0 || (!zero_ok && v == 0))
		goto bad;
	return v;
bad:
	pd_usage_error("--%s takes a %snumber such as 12 or 0.5, not '%s'",
		       option_name(opt), zero_ok ? "" : "positive ", arg);
}

static void parse_minwidth(struct flame_opts *o, const char *arg)
{
	size_t n = strlen(arg);
	char buf[64];

	o->minwidth_pct = n > 0 && arg[n - 1] == '%';
	if (o->minwidth_pct)
		n--;
	if (n == 0 || n >= sizeof(buf))
		pd_usage_error("--minwidth takes pixels (0.1) or a percentage of the total (0.5%%), not '%s'",
			       arg);
	memcpy(buf, arg, n);
	buf[n] = '\0';
	if (strspn(buf, "0123456789.") != n)
		pd_usage_error("--minwidth takes pixels (0.1) or a percentage of the total (0.5%%), not '%s'",
			       arg);
	o->minwidth = parse_positive(FLAME_OPT_MINWIDTH, buf, true);
}

bool flame_cli__option(int opt, const char *arg, struct flame_cli *fc)
{
	struct flame_opts *o = &fc->o;

	switch (opt) {
	case FLAME_OPT_TITLE:
		o->title = arg;
		break;
	case FLAME_OPT_SUBTITLE:
		o->subtitle = *arg ? arg : NULL;
		break;
	case FLAME_OPT_WIDTH:
		o->width = parse_int(opt, arg, 100, 1000000);
		break;
	case FLAME_OPT_HEIGHT:
		o->frameheight = parse_int(opt, arg, 2, 10000);
		break;
	case FLAME_OPT_MINWIDTH:
		parse_minwidth(o, arg);
		break;
	case FLAME_OPT_FONTTYPE:
		o->fonttype = arg;
		break;
	case FLAME_OPT_FONTSIZE:
		o->fontsize = parse_positive(opt, arg, false);
		if (o->fontsize > 1000)
			pd_usage_error("--fontsize: %s is too large", arg);
		break;
	case FLAME_OPT_FONTWIDTH:
		o->fontwidth = parse_positive(opt, arg, false);
		break;
	case FLAME_OPT_COUNTNAME:
		o->countname = arg;
		break;
	case FLAME_OPT_NAMETYPE:
		o->nametype = arg;
		break;
	case FLAME_OPT_COLORS:
		if (!flame_palette_known(arg))
			pd_usage_error("--colors: unknown palette '%s' (hot, mem, io, wakeup, chain, java, js, perl, red, green, blue, aqua, yellow, purple, orange)",
				       arg);
		o->colors = arg;
		break;
	case FLAME_OPT_BGCOLORS:
		if (!flame_bgcolors_known(arg))
			pd_usage_error("--bgcolors takes yellow, blue, green, grey or #rrggbb, not '%s'",
				       arg);
		o->bgcolors = arg;
		break;
	case FLAME_OPT_HASH:
		o->hash = true;
		break;
	case FLAME_OPT_REVERSE:
		o->reverse = true;
		break;
	case FLAME_OPT_INVERTED:
		o->inverted = true;
		break;
	case FLAME_OPT_FLAMECHART:
		o->flamechart = true;
		break;
	case FLAME_OPT_NEGATE:
		o->negate = true;
		break;
	case FLAME_OPT_NOTES:
		/* it goes into an XML comment */
		if (strpbrk(arg, "<>") || strstr(arg, "--") ||
		    (*arg && arg[strlen(arg) - 1] == '-'))
			pd_usage_error("--notes: the text cannot contain '<', '>' or \"--\", nor end in '-'");
		o->notes = arg;
		break;
	case FLAME_OPT_TOTAL:
		o->total = parse_positive(opt, arg, false);
		break;
	default:
		return false;
	}
	if (!fc->first)
		fc->first = option_name(opt);
	return true;
}

void flame_cli__usage(FILE *f)
{
	fputs(
"  --title=TEXT           the heading (default \"Flame Graph\"; \"Icicle\n"
"                         Graph\" with --inverted, \"Flame Chart\" with\n"
"                         --flamechart)\n"
"  --subtitle=TEXT        a second heading line\n"
"  --width=PX             image width (default 1200)\n"
"  --height=PX            frame height (default 16)\n"
"  --minwidth=PX|PCT%     leave out frames narrower than this (default 0.1\n"
"                         pixels; with '%': a percentage of the total)\n"
"  --fonttype=FONT        font family (default Verdana)\n"
"  --fontsize=PX          font size (default 12)\n"
"  --fontwidth=F          average glyph width relative to the font size,\n"
"                         for cutting names (default 0.59)\n"
"  --countname=TEXT       what the counts are (default \"samples\")\n"
"  --nametype=TEXT        what the names are (default \"Function:\")\n"
"  --colors=PALETTE       hot (default), mem, io, wakeup, chain, java, js,\n"
"                         perl, red, green, blue, aqua, yellow, purple,\n"
"                         orange\n"
"  --bgcolors=BG          yellow, blue, green, grey or #rrggbb (default:\n"
"                         the palette's)\n"
"  --hash                 colours from the name's first characters, so\n"
"                         similar names look alike (default: from a hash of\n"
"                         the whole name; both are the same in every run)\n"
"  --reverse              reverse each stack: merge from the leaves\n"
"  --inverted             icicle graph: the root at the top\n"
"  --flamechart           keep the input order (a time-ordered chart from\n"
"                         pd-fold --chronological): merge neighbours only\n"
"  --negate               differential: swap the red and blue hues\n"
"  --notes=TEXT           a comment in the SVG\n"
"  --total=COUNT          the width stands for COUNT, not the sum of the\n"
"                         counts (when larger)\n", f);
}
