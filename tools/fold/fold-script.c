// SPDX-License-Identifier: MIT
/*
 * `perf script` text into the folder (see fold-script.h).
 *
 * stackcollapse-perf.pl recognises lines with two Perl regexes; they are
 * matched here by hand, with the same results including the corner
 * cases their backtracking creates (spelled out at each matcher), because
 * a regex engine per line would cost most of pd-fold's time.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/progress.h"
#include "fold.h"
#include "fold-script.h"

/* Perl's \s, \d and \w on byte strings */
static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_word(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '_';
}

static int parse_int(const char *p, const char *end)
{
	long v = 0;

	for (; p < end; p++) {
		v = v * 10 + (*p - '0');
		if (v > INT_MAX)
			return INT_MAX;
	}
	return (int)v;
}

struct header {
	size_t comm_len;
	const char *pid, *pid_end, *tid, *tid_end;
	const char *rest;		/* after the ids */
};

/*
 * `^(\S.+?)\s+(\d+)[/]*(\d+)*\s+`: the command name is the shortest
 * prefix of two characters or more that is followed by blanks, digits,
 * optional slashes and digits, and a blank. So "V8 WorkerThread 25607"
 * is a name with a space, and a one-letter name swallows the next fields.
 */
static bool match_header(const char *s, size_t len, struct header *h)
{
	size_t e, p;

	if (!len || is_ws(s[0]))
		return false;
	for (e = 2; e < len; e++) {
		if (!is_ws(s[e]))
			continue;
		for (p = e; p < len && is_ws(s[p]); p++)
			;
		if (p < len && is_digit(s[p])) {
			h->pid = s + p;
			while (p < len && is_digit(s[p]))
				p++;
			h->pid_end = s + p;
			while (p < len && s[p] == '/')
				p++;
			h->tid = s + p;
			while (p < len && is_digit(s[p]))
				p++;
			h->tid_end = s + p;
			if (p < len && is_ws(s[p])) {
				h->comm_len = e;
				h->rest = s + p;
				return true;
			}
		}
		/* a later start in the same run of blanks fails alike */
		while (e + 1 < len && is_ws(s[e + 1]))
			e++;
	}
	return false;
}

/*
 * `:\s*(\d+)*\s+(\S+):\s*$` on the header: the last word ends in ':' and
 * is the event; before it only blanks and an optional number (the
 * period) back to a ':'. Returns the event's start, NULL if no match.
 */
static const char *match_event(const char *s, size_t len, size_t *ev_len,
			       const char **period, const char **period_end)
{
	size_t end = len, t, q, d;

	while (end > 0 && is_ws(s[end - 1]))
		end--;
	if (end < 2 || s[end - 1] != ':')
		return NULL;
	for (t = end - 1; t > 0 && !is_ws(s[t - 1]); t--)
		;
	if (t == end - 1 || t == 0)
		return NULL;
	for (q = t; q > 0 && is_ws(s[q - 1]); q--)
		;
	for (d = q; d > 0 && is_digit(s[d - 1]); d--)
		;
	*period = s + d;
	*period_end = s + q;
	for (q = d; q > 0 && is_ws(s[q - 1]); q--)
		;
	if (q == 0 || s[q - 1] != ':')
		return NULL;
	*ev_len = end - 1 - t;
	return s + t;
}

/*
 * The CPU ("[003]") and time ("12345.678901:") among the fields between
 * the ids and the event, where perf script prints them.
 */
static void header_cpu_time(const char *p, const char *end,
			    struct fold_sample *smp)
{
	const char *t, *q;

	for (;;) {
		while (p < end && is_ws(*p))
			p++;
		if (p == end)
			return;
		for (t = p; t < end && !is_ws(*t); t++)
			;
		if (*p == '[' && t - p >= 3 && t[-1] == ']') {
			for (q = p + 1; q < t - 1 && is_digit(*q); q++)
				;
			if (q == t - 1)
				smp->cpu = parse_int(p + 1, q);
		} else if (t[-1] == ':') {
			uint64_t sec = 0, frac = 0;
			int digits = 0;

			for (q = p; q < t - 1 && is_digit(*q); q++)
				sec = sec * 10 + (*q - '0');
			if (q > p && q < t - 1 && *q == '.') {
				for (q++; q < t - 1 && is_digit(*q) && digits < 9; q++, digits++)
					frac = frac * 10 + (*q - '0');
				if (q == t - 1 && digits) {
					for (; digits < 9; digits++)
						frac *= 10;
					smp->has_time = true;
					smp->time_ns = sec * 1000000000u + frac;
				}
			}
			return;	/* the time (or the event) ends the fields */
		}
		p = t;
	}
}

/* The sample a header line describes; its strings point into s. */
static void header_sample(char *s, size_t len, const struct header *h,
			  struct fold_sample *out)
{
	struct fold_sample smp = { .pid = -1, .tid = -1, .cpu = -1 };
	const char *ev, *per = NULL, *per_end = NULL;
	size_t ev_len = 0;

	ev = match_event(s, len, &ev_len, &per, &per_end);
	header_cpu_time(h->rest, ev ? ev : s + len, &smp);
	if (ev) {
		/* the script's `if (not $period)`: none or "0" count 1 */
		if (per < per_end && !(per_end - per == 1 && *per == '0')) {
			smp.has_period = true;
			for (; per < per_end; per++)
				smp.period = smp.period * 10 + (*per - '0');
		}
		s[ev - s + ev_len] = '\0';
		smp.event = ev;
	}
	/* one number is the TID (perf's default); PID-less as for "0/0" */
	smp.tid = parse_int(h->pid, h->pid_end);
	smp.tid_text = h->pid;
	smp.tid_text_len = h->pid_end - h->pid;
	if (h->tid < h->tid_end &&
	    !(h->tid_end - h->tid == 1 && *h->tid == '0')) {
		smp.pid = smp.tid;
		smp.pid_text = smp.tid_text;
		smp.pid_text_len = smp.tid_text_len;
		smp.tid = parse_int(h->tid, h->tid_end);
		smp.tid_text = h->tid;
		smp.tid_text_len = h->tid_end - h->tid;
	}
	s[h->comm_len] = '\0';
	smp.comm = s;
	*out = smp;
}

static void header_line(struct folder *f, char *s, size_t len,
			const struct header *h)
{
	struct fold_sample smp;

	header_sample(s, len, h, &smp);
	folder__begin(f, &smp);
}

bool fold_script_header(char *line, size_t len, struct fold_sample *smp)
{
	struct header h;

	if (!len || line[0] == '#' || !match_header(line, len, &h))
		return false;
	header_sample(line, len, &h, smp);
	return true;
}

struct frame {
	size_t pc, pc_len;
	size_t sym, sym_end;	/* sym_end: the ' ' before " (" */
	size_t mod, mod_end;	/* mod_end: the last ')' */
};

/*
 * `^\s*(\w+)\s*(.+) \((.*)\)`: the module runs from the last " (" that
 * has a ')' after it to the line's last ')'; the symbol from after the
 * address and its blanks to that " (", but it takes back blanks and even
 * address characters when it would otherwise be empty ("  abc (x)" is
 * address "ab", symbol "c", module "x").
 */
static bool match_frame(const char *s, size_t len, struct frame *fr)
{
	size_t a, w, sp, i, close, fs;
	const char *r = memrchr(s, ')', len);

	if (!r)
		return false;
	close = r - s;
	for (a = 0; a < len && is_ws(s[a]); a++)
		;
	for (w = a; w < len && is_word(s[w]); w++)
		;
	if (w == a)
		return false;
	for (sp = w; sp < len && is_ws(s[sp]); sp++)
		;
	if (close < a + 4)
		return false;
	for (i = close - 2;; i--) {
		if (s[i] == ' ' && s[i + 1] == '(')
			break;
		if (i < a + 2)
			return false;
	}
	fs = sp < i - 1 ? sp : i - 1;
	fr->pc = a;
	fr->pc_len = (w < fs ? w : fs) - a;
	fr->sym = fs;
	fr->sym_end = i;
	fr->mod = i + 2;
	fr->mod_end = close;
	return true;
}

struct fold_script_parser {
	struct folder *f;
	const char *name;
	unsigned long lineno;
	char *pc;		/* the address, copied: it may touch the symbol */
	size_t pc_cap;
};

struct fold_script_parser *fold_script_parser__new(struct folder *f,
						   const char *name)
{
	struct fold_script_parser *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->f = f;
	p->name = name;
	return p;
}

void fold_script_parser__free(struct fold_script_parser *p)
{
	if (!p)
		return;
	free(p->pc);
	free(p);
}

static int frame_line(struct fold_script_parser *p, char *s,
		      const struct frame *fr)
{
	if (fr->pc_len >= p->pc_cap) {
		char *pc = realloc(p->pc, fr->pc_len + 1);

		if (!pc)
			return -ENOMEM;
		p->pc = pc;
		p->pc_cap = fr->pc_len + 1;
	}
	memcpy(p->pc, s + fr->pc, fr->pc_len);
	p->pc[fr->pc_len] = '\0';
	s[fr->sym_end] = '\0';
	s[fr->mod_end] = '\0';
	folder__frame(p->f, p->pc, s + fr->sym, s + fr->mod);
	return 0;
}

int fold_script_parser__line(struct fold_script_parser *p, char *line,
			     size_t len)
{
	struct header h;
	struct frame fr;

	p->lineno++;
	/* comments, and "# cmdline", which the script reads but never uses */
	if (len && line[0] == '#')
		return 0;
	if (!len) {
		folder__end(p->f);
		return 0;
	}
	if (match_header(line, len, &h)) {
		header_line(p->f, line, len, &h);
		return 0;
	}
	if (match_frame(line, len, &fr))
		return frame_line(p, line, &fr);
	pd_warn("%s:%lu: unrecognized line: %.*s", p->name, p->lineno,
		(int)len, line);
	return 0;
}

int fold_script(FILE *in, const char *name, struct folder *f)
{
	struct fold_script_parser *p = fold_script_parser__new(f, name);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret = PD_EXIT_OK;
	struct pd_text_progress *prog;

	if (!p) {
		pd_err("%s: out of memory", name);
		return PD_EXIT_DATA;
	}
	prog = pd_progress_text(in, name);
	while ((n = getline(&line, &cap, in)) >= 0) {
		size_t len = n;

		pd_progress_text__read(prog, len);
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (fold_script_parser__line(p, line, len) < 0) {
			pd_err("%s: out of memory", name);
			ret = PD_EXIT_DATA;
			break;
		}
	}
	pd_progress_text__done(prog);
	if (ret == PD_EXIT_OK && ferror(in)) {
		pd_err("%s: read error: %s", name, strerror(errno));
		ret = PD_EXIT_DATA;
	}
	free(line);
	fold_script_parser__free(p);
	return ret;
}
