// SPDX-License-Identifier: MIT
/*
 * The folder (see fold.h): stackcollapse-perf.pl's per-sample and
 * per-frame rules, plus pd-fold's selections, --capture and --filter.
 *
 * Frames arrive leaf first; their texts are appended to one reusable
 * buffer and their extents to one reusable array, so a sample costs no
 * allocation. The folded key is built root first at the end of the
 * sample, again in a reusable buffer, and only a stack not seen before is
 * copied (into the table's arena).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/htab.h"
#include "fold.h"
#include "fold-filter.h"
#include "fold-inline.h"
#include "fold-memo.h"
#include "fold-runs.h"
#include "common/sample-select.h"
#include "fold-table.h"

struct buf {
	char *p;
	size_t len, cap;
};

struct folder {
	struct fold_opts o;
	struct fold_table *table;
	struct fold_runs *runs;		/* --chronological */
	struct sample_select *select;
	struct fold_filter *allow, *deny;
	bool failed;		/* out of memory: reported by folder__write */

	/* stackcollapse-perf.pl's event filter */
	char *event;
	bool event_defaulted, event_warned;
	uint64_t nr_other_event;	/* samples left out for their event */
	bool warned_cpu, warned_time;

	/*
	 * The sample being folded. As in the script, a sample is open from a
	 * kept header to the blank line; its name and count are the last kept
	 * header's.
	 */
	bool open;
	bool java;		/* the name starts with "java": java tidying */
	struct buf pname;
	const char *pname_comm;	/* the fixed comm pname was made of */
	uint64_t count;
	struct buf text;	/* frame names, leaf first */
	struct fold_span *frames;
	size_t nframes, frames_cap;
	bool last_cut;		/* the last frame pushed is a (cut) mark */

	/* the last module's classes: consecutive frames share modules */
	struct buf mod;
	bool mod_kernel, mod_jit, mod_no_inline;

	/* frames folded once per key (fold-memo.h); NULL: --filter-mark */
	struct fold_memo *memo;
	bool recording, rec_ok;
	unsigned int rec_calls;
	struct fold_memo_key rec_key;
	size_t rec_first;

	/*
	 * Whole stacks folded once: while every frame of a sample is a
	 * memo replay, the folded stack is a function of the process name
	 * and the memo entries alone, so (name, entries) -> the stack's
	 * count in the table skips building and hashing the folded text.
	 * The entries wait in pend[1..] (pend[0]: the process name's
	 * number in pnames, so that pend is the memo's key as it stands)
	 * until the sample ends, or until a frame
	 * that is not a replay needs them in the text. NULL stack_memo:
	 * --chronological or no memo.
	 */
	struct htab *stack_memo;
	bool all_replayed;
	uintptr_t *pend;	/* entries leaf first, after pname's number */
	size_t npend, pend_cap;
	struct htab *pnames;	/* process name -> its number */
	uintptr_t pname_id;

	struct buf name;	/* one frame's name while it is tidied */
	struct buf unknown;	/* "[module]" for "[unknown]" symbols */
	struct buf key;		/* the folded stack */
	struct fold_span *parts;	/* a frame's "a->b" parts */
	size_t parts_cap;
};

static int buf_reserve(struct buf *b, size_t more)
{
	size_t cap;
	char *p;

	if (b->cap - b->len > more)
		return 0;
	cap = b->cap ? b->cap : 256;
	while (cap - b->len <= more)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p)
		return -ENOMEM;
	b->p = p;
	b->cap = cap;
	return 0;
}

/* Appends and keeps a NUL after the bytes (regexec wants C strings). */
static int buf_add(struct buf *b, const char *s, size_t n)
{
	if (buf_reserve(b, n) < 0)
		return -ENOMEM;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

static int buf_adds(struct buf *b, const char *s)
{
	return buf_add(b, s, strlen(s));
}

struct folder *folder__new(const struct fold_opts *opts)
{
	struct folder *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->o = *opts;
	f->table = fold_table__new();
	if (!f->table)
		goto fail;
	if (opts->chronological) {
		f->runs = fold_runs__new();
		if (!f->runs)
			goto fail;
	}
	if (opts->sel.event_filter && *opts->sel.event_filter) {
		f->event = strdup(opts->sel.event_filter);
		if (!f->event)
			goto fail;
	}
	/* --filter-mark's cut depends on the frames before: no replay */
	if (!opts->filter_mark) {
		f->memo = fold_memo__new();
		if (!f->memo)
			goto fail;
		/* the stack memo keeps places in the table */
		if (!f->runs && !opts->sink) {
			f->stack_memo = htab__new(sizeof(uint64_t *), 4096, 75);
			f->pnames = htab__new(sizeof(uintptr_t), 64, 50);
			f->pend = malloc(64 * sizeof(*f->pend));
			if (!f->stack_memo || !f->pnames || !f->pend)
				goto fail;
			f->pend_cap = 64;
		}
	}
	f->select = sample_select__new(opts->sel.comm_list, opts->sel.cpu_list);
	if (!f->select)
		goto fail;
	if (opts->filter_allow) {
		f->allow = fold_filter__load(opts->filter_allow);
		if (!f->allow)
			goto fail;
	}
	if (opts->filter_deny) {
		f->deny = fold_filter__load(opts->filter_deny);
		if (!f->deny)
			goto fail;
	}
	return f;
fail:
	{
		int err = errno;

		folder__free(f);
		errno = err;
	}
	return NULL;
}

void folder__free(struct folder *f)
{
	if (!f)
		return;
	fold_table__free(f->table);
	fold_runs__free(f->runs);
	fold_memo__free(f->memo);
	htab__free(f->stack_memo);
	free(f->pend);
	htab__free(f->pnames);
	sample_select__free(f->select);
	fold_filter__free(f->allow);
	fold_filter__free(f->deny);
	free(f->event);
	free(f->pname.p);
	free(f->text.p);
	free(f->frames);
	free(f->name.p);
	free(f->unknown.p);
	free(f->mod.p);
	free(f->key.p);
	free(f->parts);
	free(f);
}

/* The event filter: the one asked for, else the first event seen. */
static bool event_kept(struct folder *f, const char *event)
{
	if (!event)
		return true;	/* the script only filters what it can see */
	if (!f->event) {
		f->event = strdup(event);
		if (!f->event)
			f->failed = true;
		f->event_defaulted = true;
		return true;
	}
	if (!strcmp(event, f->event))
		return true;
	f->nr_other_event++;
	/*
	 * Said once, and only when the user did not choose: mixing event
	 * types would make the counts meaningless. (The script names the
	 * rejected event here; the kept one is what the user needs to know.)
	 */
	if (f->event_defaulted && !f->event_warned && !pd_quiet) {
		fprintf(stderr, "Filtering for events of type: %s\n", f->event);
		f->event_warned = true;
	}
	return false;
}

static bool selected(struct folder *f, const struct fold_sample *s)
{
	if (!sample_select__comm(f->select, s->comm))
		return false;
	/* a selection on a field the input does not show keeps the sample */
	if (sample_select__has_cpu(f->select)) {
		if (s->cpu < 0) {
			if (!f->warned_cpu)
				pd_warn("--cpu: the input shows no CPU; samples without one are kept");
			f->warned_cpu = true;
		} else if (!sample_select__cpu(f->select, s->cpu)) {
			return false;
		}
	}
	if (f->o.sel.has_time) {
		if (!s->has_time) {
			if (!f->warned_time)
				pd_warn("--time: the input shows no time; samples without one are kept");
			f->warned_time = true;
		} else if ((f->o.sel.time_start_ns && s->time_ns < f->o.sel.time_start_ns) ||
			   (f->o.sel.time_end_ns && s->time_ns > f->o.sel.time_end_ns)) {
			return false;
		}
	}
	return true;
}

static int add_id(struct buf *b, int id, const char *text, size_t len)
{
	char num[16];

	if (text)
		return buf_add(b, text, len);
	if (id < 0)
		return buf_add(b, "?", 1);
	snprintf(num, sizeof(num), "%d", id);
	return buf_adds(b, num);
}

bool folder__begin(struct folder *f, const struct fold_sample *s)
{
	struct buf *b = &f->pname;
	size_t i;
	int err;

	/* A rejected header changes nothing, as the script's `next` does. */
	if (!event_kept(f, s->event) || !selected(f, s))
		return false;

	switch (f->o.weight) {
	case FOLD_WEIGHT_SAMPLES:
		f->count = 1;
		break;
	case FOLD_WEIGHT_PERIOD:
		f->count = s->has_period ? s->period : 1;
		break;
	default:
		/* the script's `$period = 1 if not $period`: 0 counts 1 */
		f->count = s->has_period && s->period ? s->period : 1;
		break;
	}

	/* the same process, sample after sample: the same name */
	if (s->comm_fixed && s->comm == f->pname_comm && !f->o.tid &&
	    !f->o.pid)
		goto open;
	f->pname_comm = s->comm_fixed ? s->comm : NULL;
	b->len = 0;
	err = buf_adds(b, s->comm);
	if (!err && (f->o.tid || f->o.pid)) {
		err = buf_add(b, "-", 1);
		if (!err)
			err = add_id(b, s->pid, s->pid_text, s->pid_text_len);
		if (!err && f->o.tid) {
			err = buf_add(b, "/", 1);
			if (!err)
				err = add_id(b, s->tid, s->tid_text, s->tid_text_len);
		}
	}
	if (err) {
		f->failed = true;
		f->pname_comm = NULL;
		return false;
	}
	for (i = 0; i < b->len; i++)
		if (b->p[i] == ' ')
			b->p[i] = '_';
	f->java = !strncmp(b->p, "java", 4);
	if (f->pnames) {
		struct htab_entry *e;
		bool added;

		e = htab__get(f->pnames, b->p, b->len, &added);
		if (!e) {
			f->failed = true;
			f->pname_comm = NULL;
			return false;
		}
		if (added)
			*(uintptr_t *)htab_entry__payload(e) = f->pnames->nr;
		f->pname_id = *(uintptr_t *)htab_entry__payload(e);
	}
open:
	f->open = true;
	f->all_replayed = f->stack_memo != NULL;
	return true;
}

/* --kernel's and --capture's kernel frames. */
static bool is_kernel_mod(const char *mod)
{
	size_t n = strlen(mod);

	return (mod[0] == '[' || (n >= 7 && !memcmp(mod + n - 7, "vmlinux", 7))) &&
	       !strstr(mod, "unknown");
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* --jit: /tmp/perf-<digits>.map anywhere in the module */
static bool is_jit_mod(const char *mod)
{
	const char *p;

	for (p = strstr(mod, "/tmp/perf-"); p; p = strstr(p + 1, "/tmp/perf-")) {
		const char *d = p + 10;

		if (!is_digit(*d))
			continue;
		while (is_digit(*d))
			d++;
		if (!strncmp(d, ".map", 4))
			return true;
	}
	return false;
}

/*
 * Modules --inline leaves alone: perf-PID.map (any character before
 * "map"), "kernel." and any "[name]".
 */
static bool inline_skips_mod(const char *mod)
{
	const char *p, *q;

	if (strstr(mod, "kernel."))
		return true;
	for (p = strchr(mod, '['); p; p = strchr(p + 1, '[')) {
		q = strchr(p + 1, ']');
		if (q && q > p + 1)
			return true;
	}
	for (p = strstr(mod, "perf-"); p; p = strstr(p + 1, "perf-")) {
		size_t k, digits = 0;

		while (is_digit(p[5 + digits]))
			digits++;
		/* \d+ may give back digits to the '.' that precedes "map" */
		for (k = 1; k <= digits; k++)
			if (p[5 + k] && !strncmp(p + 5 + k + 1, "map", 3))
				return true;
	}
	return false;
}

static int push_span(struct folder *f, size_t off, size_t len)
{
	if (f->nframes == f->frames_cap) {
		size_t cap = f->frames_cap ? f->frames_cap * 2 : 64;
		struct fold_span *v = realloc(f->frames, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		f->frames = v;
		f->frames_cap = cap;
	}
	f->frames[f->nframes].off = off;
	f->frames[f->nframes].len = len;
	f->nframes++;
	return 0;
}

/*
 * --filter: false when the frame is to be dropped; with --filter-mark
 * a run of dropped frames leaves one "(cut)" frame (frames are pushed in
 * final order, leaf first, so a run is a run here too).
 */
static bool filter_keeps(struct folder *f, const char *sym, const char *mod)
{
	bool keep = true;

	if (f->allow && !fold_filter__match(f->allow, sym, mod))
		keep = false;
	if (keep && f->deny && fold_filter__match(f->deny, sym, mod))
		keep = false;
	if (!keep && f->o.filter_mark && !f->last_cut) {
		size_t off = f->text.len;

		if (buf_add(&f->text, "(cut)", 5) < 0 || push_span(f, off, 5) < 0)
			f->failed = true;
		f->last_cut = true;
	}
	return keep;
}

/* Push name (f->name) plus an optional annotation as the next frame. */
static void push_name(struct folder *f, const char *annotation)
{
	size_t off = f->text.len;

	if (buf_add(&f->text, f->name.p, f->name.len) < 0 ||
	    (annotation && buf_adds(&f->text, annotation) < 0) ||
	    push_span(f, off, f->text.len - off) < 0) {
		f->failed = true;
		return;
	}
	f->last_cut = false;
}

/*
 * An --inline result ("outer;...;inner") is one stack entry in the
 * script, taken as it is; filters judge each function in it.
 */
static void push_inline(struct folder *f, const char *chain, const char *mod)
{
	const char *end = chain + strlen(chain), *p;

	if (!f->allow && !f->deny) {
		f->name.len = 0;
		if (buf_add(&f->name, chain, end - chain) < 0)
			f->failed = true;
		else
			push_name(f, NULL);
		return;
	}
	while (end > chain) {
		for (p = end; p > chain && p[-1] != ';'; p--)
			;
		f->name.len = 0;
		if (buf_add(&f->name, p, end - p) < 0) {
			f->failed = true;
			return;
		}
		if (filter_keeps(f, f->name.p, mod))
			push_name(f, NULL);
		end = p > chain ? p - 1 : p;
	}
}

/* `m/\.\(.*\)\./`: a Go method name such as "net/http.(*Client).Do" */
static bool is_go_name(const char *s)
{
	const char *open = strstr(s, ".("), *close = NULL, *p;

	if (!open)
		return false;
	for (p = strstr(open + 2, ")."); p; p = strstr(p + 1, ")."))
		close = p;
	return close != NULL;
}

/* "[unknown]": the module's file name, if the module is known */
static int unknown_name(struct folder *f, const char *pc, const char *mod)
{
	struct buf *b = &f->unknown;
	const char *base;
	int err;

	b->len = 0;
	if (strcmp(mod, "[unknown]")) {
		base = strrchr(mod, '/');
		base = base ? base + 1 : mod;
	} else {
		base = "unknown";
	}
	err = buf_add(b, "[", 1);
	if (!err)
		err = buf_adds(b, base);
	if (!err && f->o.addrs) {
		f->rec_ok = false;	/* the name holds the address */
		err = buf_add(b, " <", 2);
		if (!err)
			err = buf_adds(b, pc);
		if (!err)
			err = buf_add(b, ">", 1);
	}
	if (!err)
		err = buf_add(b, "]", 1);
	return err;
}

static const bool tidy_chars[256] = {
	[';'] = true, ['('] = true, ['"'] = true, ['\''] = true,
};

/* Where the script's tidying cuts a name: the first '(' that does not
 * open "(anonymous namespace)", unless the name is a Go method. */
static char *tidy_cut(char *s, char *paren)
{
	if (is_go_name(s))
		return NULL;
	for (; paren; paren = strchr(paren + 1, '('))
		if (strncmp(paren + 1, "anonymous namespace)", 20))
			return paren;
	return NULL;
}

/*
 * One "a->b" part into f->name, tidied as the script does: ';' -> ':';
 * everything from tidy_cut() on dropped; quotes deleted; for java
 * processes, the leading 'L' of class names. One copying pass notes what
 * the rarer steps need.
 */
static int part_name(struct folder *f, const char *part, size_t len,
		     const char *pc, const char *mod)
{
	struct buf *b = &f->name;
	char *s, *p, *q, *paren = NULL;
	bool quotes = false;
	size_t i;

	if (len == 9 && !memcmp(part, "[unknown]", 9)) {
		if (unknown_name(f, pc, mod) < 0)
			return -ENOMEM;
		part = f->unknown.p;
		len = f->unknown.len;
	}
	b->len = 0;
	if (buf_reserve(b, len) < 0)
		return -ENOMEM;
	s = b->p;
	memcpy(s, part, len);
	s[len] = '\0';
	/* most names have none of the characters tidying is about */
	for (i = 0; i < len; i++) {
		if (!tidy_chars[(unsigned char)s[i]])
			continue;
		if (s[i] == ';')
			s[i] = ':';
		else if (s[i] == '(' && !paren)
			paren = s + i;
		else if (s[i] == '"' || s[i] == '\'')
			quotes = true;
	}
	if (paren) {
		p = tidy_cut(s, paren);
		if (p) {
			*p = '\0';
			len = p - s;
		}
	}
	if (quotes) {
		for (p = q = s; *p; p++)
			if (*p != '"' && *p != '\'')
				*q++ = *p;
		*q = '\0';
		len = q - s;
	}
	if (f->java && s[0] == 'L' && memchr(s, '/', len)) {
		memmove(s, s + 1, len);	/* with the NUL */
		len--;
	}
	b->len = len;
	return 0;
}

static bool has_hex_offset(const char *sym, size_t len, size_t *cut)
{
	size_t i = len;

	while (i > 0 && (is_digit(sym[i - 1]) ||
			 (sym[i - 1] >= 'a' && sym[i - 1] <= 'f')))
		i--;
	if (i == len || i < 3 || memcmp(sym + i - 3, "+0x", 3))
		return false;
	*cut = i - 3;
	return true;
}

/* Split on "->"; the trailing empty parts go, as Perl's split drops them. */
static size_t split_parts(struct folder *f, const char *sym, size_t len)
{
	size_t n = 0, start = 0, i;

	for (i = 0;; i++) {
		const char *dash = memchr(sym + i, '-', len - i);
		bool at_end;

		i = dash ? (size_t)(dash - sym) : len;
		at_end = i == len;
		if (!at_end && !(i + 1 < len && sym[i + 1] == '>'))
			continue;
		if (n == f->parts_cap) {
			size_t cap = f->parts_cap ? f->parts_cap * 2 : 8;
			struct fold_span *v = realloc(f->parts, cap * sizeof(*v));

			if (!v) {
				f->failed = true;
				return 0;
			}
			f->parts = v;
			f->parts_cap = cap;
		}
		f->parts[n].off = start;
		f->parts[n].len = i - start;
		n++;
		if (at_end)
			break;
		start = i + 2;
		i++;
	}
	while (n > 0 && f->parts[n - 1].len == 0)
		n--;
	return n;
}

/* A replayed entry's stack entries into the text. */
static void push_entry(struct folder *f, const struct fold_memo_entry *e)
{
	uint32_t i;

	for (i = 0; i < e->nr; i++) {
		size_t off = f->text.len;

		if (buf_add(&f->text, e->names[i], e->lens[i]) < 0 ||
		    push_span(f, off, e->lens[i]) < 0) {
			f->failed = true;
			return;
		}
		f->last_cut = false;
	}
}

/* The sample is no longer made of replays alone: the waiting entries
 * go into the text. */
static void not_all_replayed(struct folder *f)
{
	size_t i;

	for (i = 1; i < f->npend; i++)
		push_entry(f, (const struct fold_memo_entry *)f->pend[i]);
	f->npend = 0;
	f->all_replayed = false;
}

void folder__frame(struct folder *f, const char *pc, const char *sym,
		   const char *mod)
{
	size_t len, cut, n, i;
	bool kernel;

	if (!f->open)
		return;
	if (f->all_replayed)
		not_all_replayed(f);
	f->rec_calls++;
	if (!f->mod.p || strcmp(mod, f->mod.p)) {
		f->mod.len = 0;
		if (buf_adds(&f->mod, mod) < 0) {
			f->failed = true;
			return;
		}
		f->mod_kernel = is_kernel_mod(mod);
		f->mod_jit = is_jit_mod(mod);
		f->mod_no_inline = inline_skips_mod(mod);
	}
	kernel = f->mod_kernel;
	if ((f->o.capture == FOLD_CAPTURE_USER && kernel) ||
	    (f->o.capture == FOLD_CAPTURE_KERNEL && !kernel))
		return;
	if (f->o.inliner && !f->mod_no_inline) {
		const char *res;

		f->rec_ok = false;	/* looked up by address */
		res = fold_inline__lookup(f->o.inliner, pc, sym, mod,
						      f->o.context);

		if (res && *res && strcmp(res, "??") && strcmp(res, "??:??:0")) {
			push_inline(f, res, mod);
			return;
		}
	}
	len = strlen(sym);
	if (has_hex_offset(sym, len, &cut))
		len = cut;
	/* "(...)" names are perf's process names, not functions */
	if (len && sym[0] == '(')
		return;
	n = split_parts(f, sym, len);
	/*
	 * Parts appear root to leaf in the folded stack, after this frame's
	 * callers; frames are kept leaf first, so push the last part first.
	 */
	for (i = n; i-- > 0;) {
		const char *annotation = NULL;

		if (part_name(f, sym + f->parts[i].off, f->parts[i].len, pc, mod) < 0) {
			f->failed = true;
			return;
		}
		if ((f->allow || f->deny) && !filter_keeps(f, f->name.p, mod))
			continue;
		if (i > 0) {
			if (!strstr(f->name.p, "_[i]"))
				annotation = "_[i]";
		} else if (f->o.annotate_kernel && kernel) {
			annotation = "_[k]";
		} else if (f->o.annotate_jit && f->mod_jit) {
			if (!strstr(f->name.p, "_[j]"))
				annotation = "_[j]";
		}
		push_name(f, annotation);
	}
}

static void memo_key(struct fold_memo_key *k, const struct folder *f,
		     const void *a, const void *b, const void *c)
{
	k->a = a;
	k->b = b;
	k->c = c;
	k->flags = f->java;	/* java tidying */
}

bool folder__replay(struct folder *f, const void *a, const void *b,
		    const void *c)
{
	const struct fold_memo_entry *e;
	struct fold_memo_key k;

	if (!f->open)
		return true;	/* folder__frame() would ignore it */
	if (!f->memo)
		return false;
	memo_key(&k, f, a, b, c);
	e = fold_memo__find(f->memo, &k);
	if (!e)
		return false;
	if (!f->all_replayed) {
		push_entry(f, e);
		return true;
	}
	if (!f->npend)
		f->pend[f->npend++] = f->pname_id;
	if (f->npend == f->pend_cap) {
		size_t cap = 2 * f->pend_cap;
		uintptr_t *v = realloc(f->pend, cap * sizeof(*v));

		if (!v) {
			not_all_replayed(f);
			push_entry(f, e);
			return true;
		}
		f->pend = v;
		f->pend_cap = cap;
	}
	f->pend[f->npend++] = (uintptr_t)e;
	return true;
}

void folder__record_begin(struct folder *f, const void *a, const void *b,
			  const void *c)
{
	if (!f->memo || !f->open)
		return;
	if (f->all_replayed)
		not_all_replayed(f);
	memo_key(&f->rec_key, f, a, b, c);
	f->recording = true;
	f->rec_ok = true;
	f->rec_calls = 0;
	f->rec_first = f->nframes;
}

void folder__record_end(struct folder *f)
{
	if (!f->recording)
		return;
	f->recording = false;
	/* one frame line folded, with nothing but its symbol and module */
	if (f->rec_ok && f->rec_calls == 1 && f->nframes >= f->rec_first &&
	    fold_memo__store(f->memo, &f->rec_key, f->text.p,
			     f->frames + f->rec_first,
			     f->nframes - f->rec_first) < 0)
		f->failed = true;
}

static int add_stack(struct folder *f, const char *key, size_t len,
		     uint64_t count)
{
	if (f->o.sink)
		return f->o.sink(f->o.sink_ctx, key, len, count);
	if (f->runs)
		return fold_runs__add(f->runs, key, len, count);
	return fold_table__add(f->table, key, len, count);
}

/*
 * A sample of replays alone: its count added through the stack memo, or
 * NULL when its stack is new (then the text route adds it and gives the
 * memo the count's place in *slot).
 */
static bool end_replayed(struct folder *f, uint64_t ***slot)
{
	struct htab_entry *e;
	uint64_t **count;
	bool added;

	*slot = NULL;
	if (!f->npend)
		f->pend[f->npend++] = f->pname_id;	/* no frames */
	e = htab__get(f->stack_memo, f->pend, f->npend * sizeof(*f->pend),
		      &added);
	if (!e)
		return false;
	count = (uint64_t **)htab_entry__payload(e);
	if (!added && *count) {
		**count += f->count;
		return true;
	}
	*slot = count;
	return false;
}

bool folder__may_run_apart(const struct folder *f)
{
	return !f->o.inliner;
}

void folder__end(struct folder *f)
{
	struct buf *k = &f->key;
	uint64_t **slot = NULL;
	size_t i;

	/* the script ignores a blank line outside a kept sample */
	if (!f->open)
		return;
	if (f->all_replayed) {
		if (end_replayed(f, &slot))
			goto out;
		not_all_replayed(f);
	}
	k->len = 0;
	if (buf_add(k, f->pname.p, f->pname.len) < 0)
		goto fail;
	for (i = f->nframes; i-- > 0;) {
		if (buf_add(k, ";", 1) < 0 ||
		    buf_add(k, f->text.p + f->frames[i].off, f->frames[i].len) < 0)
			goto fail;
	}
	if (slot) {
		*slot = fold_table__add_ref(f->table, k->p, k->len, f->count);
		if (!*slot)
			goto fail;
	} else if (add_stack(f, k->p, k->len, f->count) < 0) {
		goto fail;
	}
	goto out;
fail:
	f->failed = true;
out:
	f->open = false;
	f->all_replayed = false;
	f->npend = 0;
	f->nframes = 0;
	f->text.len = 0;
	f->last_cut = false;
}

void folder__folded_frame(struct folder *f, const char *name, size_t len,
			  enum fold_frame_side side)
{
	size_t off;

	if (!f->open ||
	    (side == FOLD_FRAME_USER && f->o.capture == FOLD_CAPTURE_KERNEL) ||
	    (side == FOLD_FRAME_KERNEL && f->o.capture == FOLD_CAPTURE_USER))
		return;
	if (f->all_replayed)
		not_all_replayed(f);
	off = f->text.len;
	if (buf_add(&f->text, name, len) < 0 || push_span(f, off, len) < 0) {
		f->failed = true;
		return;
	}
	f->last_cut = false;
}

void folder__next_input(struct folder *f)
{
	/*
	 * The memos know frames and comms by the addresses of the last
	 * input's symbols and strings, which its session freed: they start
	 * over (the table of stacks stays)
	 */
	f->pname_comm = NULL;
	if (f->memo) {
		fold_memo__free(f->memo);
		f->memo = fold_memo__new();
		if (!f->memo)
			f->failed = true;
	}
	if (f->stack_memo) {
		htab__free(f->stack_memo);
		f->stack_memo = htab__new(sizeof(uint64_t *), 4096, 75);
		if (!f->stack_memo)
			f->failed = true;
	}
	if (!f->event_defaulted)
		return;
	free(f->event);
	f->event = NULL;
	f->event_defaulted = false;
	f->event_warned = false;
}

const char *folder__event(const struct folder *f, uint64_t *nr_other)
{
	*nr_other = f->nr_other_event;
	return f->event;
}

int folder__write(struct folder *f, FILE *out)
{
	if (f->failed)
		return -ENOMEM;
	if (f->o.sink)
		return 0;	/* every stack went there */
	if (f->runs)
		return fold_runs__write(f->runs, out);
	return fold_table__write(f->table, out);
}
