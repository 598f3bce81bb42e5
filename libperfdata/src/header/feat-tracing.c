// SPDX-License-Identifier: MIT
/*
 * The tracing data blob (feature TRACING_DATA, or the pipe-mode
 * HEADER_TRACING_DATA record): the tracefs format files of the recorded
 * tracepoints. We walk its framing (docs/perf-data-format.md, section 10)
 * and hand each format to libtraceevent, which knows the format language;
 * the event ids and names come from libtraceevent, or from the format's
 * own "name:" and "ID:" lines when it cannot parse a format, or when
 * the library was built without libtraceevent (trace-tep.h).
 *
 * Numbers in the blob are in the recording host's byte order, stated by
 * a flag inside the blob, independent of the perf.data header's order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feat-ctx.h"
#include "feat-tracing.h"
#include "trace-tep.h"

#define TRACING_MAGIC "\027\010Dtracing"
#define MAX_EVENTS_PER_SYSTEM 65536

static bool host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

/* A NUL-terminated string inside the blob, at most max bytes long. */
static const char *blob_cstr(struct pd_feat_ctx *x, size_t max)
{
	size_t left = pd_cursor_left(&x->c);
	const char *s = (const char *)x->c.p;
	size_t len;

	if (max > left)
		max = left;
	len = strnlen(s, max);
	if (len == max) {
		x->c.overrun = true;
		return NULL;
	}
	pd_cursor_bytes(&x->c, len + 1);
	return s;
}

/* A u64- or u32-sized length, then that many bytes, copied with a NUL. */
static const char *blob_text(struct pd_feat_ctx *x, bool u64_len,
			     size_t *lenp)
{
	uint64_t len = u64_len ? pd_cursor_u64(&x->c) : pd_cursor_u32(&x->c);
	const void *p;
	char *copy;

	if (x->c.overrun || len > pd_cursor_left(&x->c)) {
		x->c.overrun = true;
		return NULL;
	}
	p = pd_cursor_bytes(&x->c, len);
	copy = pd_arena_alloc(x->arena, len + 1);
	if (!copy) {
		x->why = "out of memory";
		x->c.overrun = true;
		return NULL;
	}
	memcpy(copy, p, len);
	copy[len] = '\0';	/* libtraceevent takes them as C strings */
	*lenp = len;
	return copy;
}

/*
 * printk_formats lines libtraceevent reads safely: "ADDR : FMT" with FMT,
 * its opening quote aside, at least 3 bytes long. Its parser reads past
 * the end of a line without a ':' and before the start of a shorter FMT
 * (tep_parse_printk_formats(), tep_register_print_string()). perf writes
 * only lines of the form 0xADDR : "FMT".
 */
bool pd__trace_printk_line_ok(const char *line, size_t len)
{
	const char *colon = memchr(line, ':', len), *fmt;
	size_t fmt_len;

	/* the character after the ':' (a space) is skipped */
	if (!colon || colon == line || colon + 2 > line + len)
		return false;
	fmt = colon + 2;
	fmt_len = line + len - fmt;
	if (fmt_len && *fmt == '"')
		fmt_len--;
	return fmt_len >= 3;
}

char *pd__trace_printk_filter(char *out, const char *text, size_t size)
{
	const char *p = text, *end = text + size;
	char *o = out;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t len = (nl ? nl : end) - p;

		if (memchr(p, '\0', len))
			break;
		if (pd__trace_printk_line_ok(p, len)) {
			memcpy(o, p, len);
			o += len;
			*o++ = '\n';
		}
		p += len + 1;
	}
	*o = '\0';
	return out;
}

/* The lines pd__trace_printk_line_ok() accepts, in arena memory. */
static const char *printk_safe(struct pd_feat_ctx *x, const char *text,
			       size_t size)
{
	char *out = pd_arena_alloc(x->arena, size + 2);

	return out ? pd__trace_printk_filter(out, text, size) : NULL;
}

/*
 * Whether a format line is one libtraceevent can be given: the lines a
 * kernel writes ("name: X", "ID: N", "format:", blank, and
 * "\tfield:DECL;\toffset:N;\tsize:N;\tsigned:N;" with a plain C
 * declaration). Its parser dereferences NULL or reads out of bounds on
 * some malformed ones.
 */
bool pd__trace_format_line_ok(const char *l, size_t len)
{
	size_t i, depth = 0;
	const char *semi;

	if (!len || (len == 7 && !memcmp(l, "format:", 7)))
		return true;
	if ((len > 6 && !memcmp(l, "name: ", 6)) ||
	    (len > 4 && !memcmp(l, "ID: ", 4))) {
		for (i = 0; i < len; i++)
			if ((unsigned char)l[i] < ' ' || l[i] == 0x7f)
				return false;
		return true;
	}
	if (len < 8 || memcmp(l, "\tfield:", 7))
		return false;
	semi = memchr(l, ';', len);
	if (!semi)
		return false;
	for (i = 7; l + i < semi; i++) {
		char c = l[i];

		if (c == '[')
			depth++;
		else if (c == ']' && depth)
			depth--;
		else if (!(c == '_' || c == ' ' || c == '*' || c == ']' ||
			   (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
			   (c >= 'A' && c <= 'Z')))
			return false;
	}
	if (depth)
		return false;
	for (i = semi - l; i < len; i++)
		if (l[i] != '\t' && l[i] != ';' && l[i] != ':' &&
		    !(l[i] >= 'a' && l[i] <= 'z') && !(l[i] >= '0' && l[i] <= '9'))
			return false;
	return true;
}

/*
 * A format for libtraceevent: the text up to its "print fmt:" line, which
 * is given as an empty format. We use fields, names and ids here (the
 * printing, trace-print.c, checks print formats first), and its parser of print expressions folds constants with no
 * check of a divisor (SIGFPE) and leaks on malformed ones. NULL when a
 * line before it is not one pd__trace_format_line_ok() takes (the caller
 * then reads the name and id itself).
 */
static const char *tep_format(struct pd_feat_ctx *x, const char *text,
			      size_t *len)
{
	static const char empty[] = "print fmt: \"\"\n";
	const char *pf = memmem(text, *len, "\nprint fmt:", 11), *p;
	size_t keep;
	char *out;

	if (!pf)
		return NULL;
	keep = pf + 1 - text;
	for (p = text; p < text + keep;) {
		const char *nl = memchr(p, '\n', text + keep - p);

		if (!nl || !pd__trace_format_line_ok(p, nl - p))
			return NULL;
		p = nl + 1;
	}
	out = pd_arena_alloc(x->arena, keep + sizeof(empty));
	if (!out)
		return NULL;
	memcpy(out, text, keep);
	memcpy(out + keep, empty, sizeof(empty));
	*len = keep + sizeof(empty) - 1;
	return out;
}

/* "name: sched_switch" and "ID: 316" lines, for formats tep refused. */
static void scan_format(struct pd_feat_ctx *x, struct pd_trace_event *ev)
{
	const char *s = ev->format;
	const char *line;

	for (line = s; line && *line; line = strchr(line, '\n'),
	     line = line ? line + 1 : NULL) {
		size_t n = strcspn(line, "\n");

		if (!strncmp(line, "name: ", 6) && !ev->event)
			ev->event = pd_arena_strndup(x->arena, line + 6, n - 6);
		else if (!strncmp(line, "ID: ", 4))
			ev->id = strtoull(line + 4, NULL, 10);
	}
}

static int read_events(struct pd_feat_ctx *x, struct pd_tracing *t,
		       struct tep_handle *tep)
{
	struct pd_trace_event *evs = NULL;
	uint32_t nr_sys, s, i, total = 0, cap = 0;

	nr_sys = pd_cursor_u32(&x->c);
	for (s = 0; s < nr_sys && !x->c.overrun; s++) {
		const char *sys = blob_cstr(x, 4096);
		uint32_t count = pd_cursor_u32(&x->c);

		if (x->c.overrun)
			break;
		/* each format has at least its u64 length */
		if (count > MAX_EVENTS_PER_SYSTEM ||
		    (uint64_t)count * 8 > pd_cursor_left(&x->c)) {
			x->why = "event count larger than the section";
			return -1;
		}
		if (total + count > cap) {
			uint32_t ncap = (total + count) * 2;
			struct pd_trace_event *n = pd_arena_array(x->arena, ncap,
								  sizeof(*n));
			if (!n) {
				x->why = "out of memory";
				return -1;
			}
			if (total)
				memcpy(n, evs, total * sizeof(*n));
			evs = n;
			cap = ncap;
		}
		for (i = 0; i < count; i++) {
			struct pd_trace_event *ev = &evs[total];
			const char *text, *name = NULL;
			char *full;
			size_t len;

			ev->format = blob_text(x, true, &ev->format_len);
			if (!ev->format)
				return -1;
			ev->system = sys;
			len = ev->format_len;
			if (tep && (text = tep_format(x, ev->format, &len)) &&
			    pd__tep_parse_format(tep, text, len, sys, &ev->id,
						 &name)) {
				ev->event = pd_arena_strndup(x->arena, name,
							     strlen(name));
			} else {
				scan_format(x, ev);
			}
			if (!ev->event)
				ev->event = "";
			len = strlen(sys) + strlen(ev->event) + 2;
			full = pd_arena_alloc(x->arena, len);
			if (!full) {
				x->why = "out of memory";
				return -1;
			}
			snprintf(full, len, "%s:%s", sys, ev->event);
			ev->name = full;
			total++;
		}
	}
	t->nr_events = total;
	t->events = evs;
	return x->c.overrun ? -1 : 0;
}

int pd__feat_parse_tracing(struct pd_feat_ctx *x)
{
	struct pd_tracing t = { .size = pd_cursor_left(&x->c) };
	struct tep_handle *tep = NULL;
	const void *magic = pd_cursor_bytes(&x->c, 10);
	const char *text;
	size_t len;
	uint8_t b[2];
	uint32_t i, nr_ftrace;

	if (!magic || memcmp(magic, TRACING_MAGIC, 10)) {
		x->why = "bad magic";
		return -1;
	}
	t.version = blob_cstr(x, 16);
	if (!t.version || !pd_cursor_need(&x->c, 2))
		return -1;
	memcpy(b, pd_cursor_bytes(&x->c, 2), 2);
	t.big_endian = b[0];
	t.long_size = b[1];
	x->c.swap = t.big_endian != host_big_endian();
	t.page_size = pd_cursor_u32(&x->c);
	if (x->c.overrun)
		return -1;
	if (t.long_size != 4 && t.long_size != 8) {
		x->why = "bad long size";
		return -1;
	}

	tep = pd__tep_new(&t);
	if (!pd_cursor_need(&x->c, 12) || memcmp(x->c.p, "header_page", 12)) {
		x->why = "header_page missing";
		goto fail;
	}
	pd_cursor_bytes(&x->c, 12);
	text = blob_text(x, true, &len);
	if (!text)
		goto fail;
	if (tep)
		pd__tep_parse_header_page(tep, (char *)text, len,
					  t.long_size);
	if (!pd_cursor_need(&x->c, 13) || memcmp(x->c.p, "header_event", 13)) {
		x->why = "header_event missing";
		goto fail;
	}
	pd_cursor_bytes(&x->c, 13);
	if (!blob_text(x, true, &len))
		goto fail;

	nr_ftrace = pd_cursor_u32(&x->c);
	if ((uint64_t)nr_ftrace * 8 > pd_cursor_left(&x->c)) {
		x->why = "ftrace format count larger than the section";
		goto fail;
	}
	for (i = 0; i < nr_ftrace; i++) {
		text = blob_text(x, true, &len);
		if (!text)
			goto fail;
		if (tep && (text = tep_format(x, text, &len)))
			pd__tep_parse_event(tep, text, len, "ftrace");
	}
	t.nr_ftrace = nr_ftrace;

	if (read_events(x, &t, tep))
		goto fail;

	/* kallsyms: recent perf writes none; parsed only to skip it */
	if (!blob_text(x, false, &t.kallsyms_size))
		goto fail;
	t.printk = blob_text(x, false, &t.printk_size);
	if (!t.printk)
		goto fail;
	if (tep && t.printk_size) {
		const char *safe = printk_safe(x, t.printk, t.printk_size);

		if (safe && *safe)
			pd__tep_parse_printk_formats(tep, safe);
	}
	/* v0.6 appends saved_cmdlines; tolerate writers that did not */
	if (strcmp(t.version, "0.5") && pd_cursor_left(&x->c) >= 8) {
		t.saved_cmdlines = blob_text(x, true, &t.saved_cmdlines_size);
		if (!t.saved_cmdlines)
			goto fail;
		if (tep && t.saved_cmdlines_size)
			pd__tep_parse_saved_cmdlines(tep, t.saved_cmdlines);
	}
	if (!t.saved_cmdlines)
		t.saved_cmdlines = "";

	x->f->tracing = t;
	pd__tep_free(*x->tep);
	*x->tep = tep;
	return 0;
fail:
	pd__tep_free(tep);
	return -1;
}
