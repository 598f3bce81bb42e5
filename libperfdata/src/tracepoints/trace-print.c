// SPDX-License-Identifier: MIT
/*
 * Tracepoint samples printed by their format's "print fmt", as perf
 * script prints them (perf 6.1 hands each RAW sample to libtraceevent's
 * tep_print_event() with TEP_PRINT_INFO). The feature parser gives
 * libtraceevent formats without their print fmt; this printer keeps a
 * second handle with them, after checks that keep libtraceevent's
 * parser and printer within bounds on hostile input:
 * - the lines before "print fmt:" are those the feature parser accepts,
 *   and no field ends past 64 KiB;
 * - the print fmt's string has only d i o u x X c s p conversions (a %n
 *   would write through an argument), its expression no '/' or '%'
 *   (libtraceevent divides without checking the divisor, when parsing
 *   and when printing), no helper that prints a length read from the
 *   sample (__print_hex, __print_array...), parentheses balanced (its
 *   parser dereferences NULL at an expression cut short) and nested at
 *   most 32 deep (it recurses), printable ASCII only, and every field
 *   it names (REC->x, __get_str(x)...) one of the format's (it
 *   dereferences NULL for an unknown one);
 * - a sample's bytes are copied into a zeroed buffer large enough for
 *   every read a checked format can make: fields below 64 KiB, dynamic
 *   arrays at a 16-bit offset with a 16-bit length, strings ending at
 *   the padding's first zero.
 * A format that fails the print fmt checks is given a print fmt that
 * does not parse, so libtraceevent prints it as "[FAILED TO PARSE]" and
 * its fields.
 *
 * Built with libtraceevent only; trace-print-none.c is the printer
 * without it.
 */
#ifdef HAVE_LIBTRACEEVENT
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include <perfdata/trace.h>

#include "header/feat-tracing.h"
#include "base/internal.h"
#include "header/trace-tep.h"

#define FIELD_LIMIT	0x10000
/* fields, then a __rel_loc's 16-bit offset and 16-bit length past them */
#define PAD_SIZE	(FIELD_LIMIT * 4)
#define MAX_DEPTH	32
#define MAX_FIELDS	256

struct pd_trace_printer {
	const struct pd_features *f;
	const struct pd_trace_event *built_from;	/* f->tracing.events */
	struct tep_handle *tep;
	unsigned char *data;	/* PAD_SIZE bytes, zero beyond 'dirty' */
	size_t dirty;
	struct trace_seq seq;
};

static bool is_ident(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

PD_EXPORT struct pd_trace_printer *
pd_trace_printer__new(const struct pd_features *f)
{
	struct pd_trace_printer *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->data = calloc(1, PAD_SIZE);
	if (!p->data) {
		free(p);
		errno = ENOMEM;
		return NULL;
	}
	p->f = f;
	trace_seq_init(&p->seq);
	return p;
}

PD_EXPORT void pd_trace_printer__free(struct pd_trace_printer *p)
{
	if (!p)
		return;
	pd__tep_free(p->tep);
	trace_seq_destroy(&p->seq);
	free(p->data);
	free(p);
}

/*
 * "offset:N;" or "size:N;" after a field line's declaration: the largest
 * N given (a line may repeat a key), or a value over the limit.
 */
static unsigned long field_number(const char *line, size_t len,
				  const char *key)
{
	const char *semi = memchr(line, ';', len), *end = line + len, *k;
	size_t klen = strlen(key);
	unsigned long max = 0;

	for (k = semi ? semi : end; k < end &&
	     (k = memmem(k, end - k, key, klen)); ) {
		unsigned long v = 0;

		for (k += klen; k < end && *k >= '0' && *k <= '9'; k++) {
			v = v * 10 + (unsigned long)(*k - '0');
			if (v > FIELD_LIMIT)
				return FIELD_LIMIT + 1;
		}
		if (v > max)
			max = v;
	}
	return max;
}

/*
 * A field line: within bounds, and a dynamic array's locator (__data_loc,
 * __rel_loc) 4 bytes, as kernels write it (16-bit offset and length; the
 * printer reads other sizes in other ways).
 */
static bool field_ok(const char *line, size_t len)
{
	const char *semi = memchr(line, ';', len);
	size_t decl = semi ? (size_t)(semi - line) : len;
	unsigned long size = field_number(line, len, "size:");

	if (field_number(line, len, "offset:") + size > FIELD_LIMIT)
		return false;
	if ((memmem(line, decl, "__data_loc", 10) ||
	     memmem(line, decl, "__rel_loc", 9)) && size != 4)
		return false;
	return true;
}

/* The field names of a format, for the print fmt's references to them. */
struct field_names {
	const char *name[MAX_FIELDS];
	size_t len[MAX_FIELDS];
	size_t nr;
};

/* "\tfield:TYPE NAME[N];...": NAME, the identifier ending the declaration */
static void add_field_name(struct field_names *fn, const char *line,
			   size_t len)
{
	const char *semi = memchr(line, ';', len), *e, *b;

	if (!semi || fn->nr >= MAX_FIELDS)
		return;
	e = semi;
	if (e > line && e[-1] == ']') {
		while (e > line && *e != '[')
			e--;
	}
	for (b = e; b > line && is_ident(b[-1]); b--)
		;
	if (b < e) {
		fn->name[fn->nr] = b;
		fn->len[fn->nr++] = e - b;
	}
}

static bool is_field(const struct field_names *fn, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < fn->nr; i++)
		if (fn->len[i] == len && !memcmp(fn->name[i], s, len))
			return true;
	return false;
}

/* Every line before the print fmt is safe, and every field in bounds. */
static bool fields_ok(const char *text, size_t len, struct field_names *fn)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n;

		if (!nl)
			return false;
		n = nl - p;
		if (!pd__trace_format_line_ok(p, n))
			return false;
		if (n > 7 && !memcmp(p, "\tfield:", 7)) {
			if (!field_ok(p, n))
				return false;
			add_field_name(fn, p + 7, n - 7);
		}
		p = nl + 1;
	}
	return true;
}

/* A conversion inside the quoted format, at s (after its '%'). */
static const char *conversion_ok(const char *s, const char *end)
{
	while (s < end && strchr("-+ #0", *s))
		s++;
	while (s < end && ((*s >= '0' && *s <= '9') || *s == '*' || *s == '.'))
		s++;
	while (s < end && strchr("hlLqjzt", *s))
		s++;
	if (s >= end || !strchr("diouxXcsp%", *s))
		return NULL;
	return s + 1;
}

/* Helpers allowed to run: those reading only fields and bounded arrays. */
static bool helper_ok(const char *name, size_t len)
{
	static const char *const printers[] = {
		"__print_flags", "__print_symbolic", "__print_flags_u64",
		"__print_symbolic_u64",
	};
	size_t i;

	if (len < 8 || memcmp(name, "__print_", 8))
		return true;
	for (i = 0; i < sizeof(printers) / sizeof(printers[0]); i++)
		if (strlen(printers[i]) == len && !memcmp(printers[i], name, len))
			return true;
	return false;
}

/*
 * After "REC->" or "__get_str(" (and the other __get_ helpers): a field
 * of the format (libtraceevent dereferences NULL for an unknown one).
 */
static bool names_field(const struct field_names *fn, const char *w,
			size_t wlen, const char *s, const char *end)
{
	const char *f = s, *fe;

	if (wlen == 3 && !memcmp(w, "REC", 3)) {
		if (end - s < 2 || memcmp(s, "->", 2))
			return true;
		f = s + 2;
	} else if (wlen > 6 && !memcmp(w, "__get_", 6)) {
		while (f < end && *f == ' ')
			f++;
		if (f >= end || *f != '(')
			return true;
		for (f++; f < end && *f == ' '; f++)
			;
	} else {
		return true;
	}
	for (fe = f; fe < end && is_ident(*fe); fe++)
		;
	return is_field(fn, f, fe - f);
}

/* The print fmt line's text after "print fmt:", up to its end. */
static bool print_fmt_ok(const char *s, const char *end,
			 const struct field_names *fn)
{
	const unsigned char *u;
	int depth = 0;

	for (u = (const unsigned char *)s; u < (const unsigned char *)end; u++)
		if (*u != '\t' && (*u < ' ' || *u > '~'))
			return false;
	while (s < end) {
		char c = *s;

		if (c == '"') {
			for (s++; s < end && *s != '"'; ) {
				if (*s == '\\' && s + 1 < end) {
					s += 2;
				} else if (*s == '%') {
					s = conversion_ok(s + 1, end);
					if (!s)
						return false;
				} else {
					s++;
				}
			}
			if (s >= end)
				return false;
			s++;
			continue;
		}
		if (c == '\'') {
			/* a character constant: 'x' or '\x' */
			if (end - s >= 3 && s[2] == '\'') {
				s += 3;
				continue;
			}
			if (end - s >= 4 && s[1] == '\\' && s[3] == '\'') {
				s += 4;
				continue;
			}
			return false;
		}
		if (c == '/' || c == '%')
			return false;
		if (c == '(' || c == '[' || c == '{') {
			if (++depth > MAX_DEPTH)
				return false;
		} else if (c == ')' || c == ']' || c == '}') {
			if (--depth < 0)
				return false;
		} else if (is_ident(c)) {
			const char *w = s;

			while (s < end && is_ident(*s))
				s++;
			if (!helper_ok(w, s - w) ||
			    !names_field(fn, w, s - w, s, end))
				return false;
			continue;
		}
		s++;
	}
	/* its parser dereferences NULL at an expression cut short */
	return depth == 0;
}

/*
 * The format as libtraceevent gets it, in malloc'd memory: whole when it
 * passes the checks; with a print fmt that does not parse when only the
 * print fmt fails them; NULL when the fields fail them.
 */
static char *checked_format(const char *text, size_t len, size_t *out_len)
{
	static const char failed[] = "print fmt: (\n";
	const char *pf = memmem(text, len, "\nprint fmt:", 11), *pf_end;
	struct field_names *fn;
	size_t keep;
	char *out;
	bool ok;

	if (!pf)
		return NULL;
	keep = pf + 1 - text;
	fn = calloc(1, sizeof(*fn));
	if (!fn)
		return NULL;
	if (!fields_ok(text, keep, fn)) {
		free(fn);
		return NULL;
	}
	pf_end = memchr(pf + 1, '\n', text + len - (pf + 1));
	if (!pf_end)
		pf_end = text + len;
	ok = print_fmt_ok(pf + 11, pf_end, fn);
	free(fn);
	out = malloc(keep + (pf_end - pf) + sizeof(failed));
	if (!out)
		return NULL;
	memcpy(out, text, keep);
	if (ok) {
		memcpy(out + keep, pf + 1, pf_end - (pf + 1));
		keep += pf_end - (pf + 1);
		out[keep++] = '\n';
	} else {
		memcpy(out + keep, failed, sizeof(failed) - 1);
		keep += sizeof(failed) - 1;
	}
	out[keep] = '\0';
	*out_len = keep;
	return out;
}

/* printk_formats lines the feature parser also accepts, as a C string */
static char *checked_printk(const char *text, size_t size)
{
	char *out = malloc(size + 2);

	return out ? pd__trace_printk_filter(out, text, size) : NULL;
}

/* A handle for the features' current tracing data; -ENOENT without one */
static int build(struct pd_trace_printer *p)
{
	const struct pd_tracing *t = &p->f->tracing;
	struct tep_handle *tep;
	uint32_t i;

	if (p->tep && p->built_from == t->events)
		return 0;
	pd__tep_free(p->tep);
	p->tep = NULL;
	p->built_from = t->events;
	if (!pd_features__has(p->f, PD_FEAT_TRACING_DATA) || !t->nr_events)
		return -ENOENT;
	tep = pd__tep_new(t);
	if (!tep)
		return -ENOMEM;
	for (i = 0; i < t->nr_events; i++) {
		const struct pd_trace_event *ev = &t->events[i];
		size_t len = 0;
		char *text = checked_format(ev->format, ev->format_len, &len);

		if (!text)
			continue;
		pd__tep_parse_event(tep, text, len, ev->system);
		free(text);
	}
	if (t->printk && t->printk_size) {
		char *printk = checked_printk(t->printk, t->printk_size);

		if (printk && *printk)
			pd__tep_parse_printk_formats(tep, printk);
		free(printk);
	}
	if (t->saved_cmdlines && t->saved_cmdlines_size)
		pd__tep_parse_saved_cmdlines(tep, t->saved_cmdlines);
	p->tep = tep;
	return 0;
}

PD_EXPORT int pd_trace_printer__print(struct pd_trace_printer *p, uint64_t id,
				      int cpu, const void *raw,
				      size_t raw_size, char *buf, size_t size)
{
	struct tep_record record;
	struct tep_event *event;
	size_t n;
	int err;

	if (size)
		buf[0] = '\0';
	err = build(p);
	if (err)
		return err;
	if (id > INT32_MAX)
		return -ENOENT;
	event = tep_find_event(p->tep, (int)id);
	if (!event)
		return -ENOENT;
	if (raw_size > FIELD_LIMIT)
		raw_size = FIELD_LIMIT;
	memset(p->data, 0, p->dirty);
	if (raw_size)
		memcpy(p->data, raw, raw_size);
	p->dirty = raw_size;
	memset(&record, 0, sizeof(record));
	record.cpu = cpu;
	record.size = (int)raw_size;
	record.data = p->data;
	trace_seq_reset(&p->seq);
	/*
	 * libtraceevent prints the event the record's own common_type
	 * names. For a type without a format, Debian 12's 1.7 prints
	 * "[UNKNOWN EVENT]" and Debian 11's 1.1.2 dereferences NULL: the
	 * text is ours for every version.
	 */
	if (tep_find_event_by_record(p->tep, &record))
		tep_print_event(p->tep, &p->seq, &record, "%s",
				TEP_PRINT_INFO);
	else
		trace_seq_puts(&p->seq, "[UNKNOWN EVENT]");
	trace_seq_terminate(&p->seq);
	if (p->seq.state != TRACE_SEQ__GOOD)
		return -ENOMEM;
	n = p->seq.len;
	if (size) {
		size_t k = n < size ? n : size - 1;

		memcpy(buf, p->seq.buffer, k);
		buf[k] = '\0';
	}
	return n > INT32_MAX ? INT32_MAX : (int)n;
}
#endif /* HAVE_LIBTRACEEVENT */
