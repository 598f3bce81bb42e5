// SPDX-License-Identifier: MIT
/*
 * One callchain frame folded as stackcollapse-perf.pl folds its line of
 * perf script text (pd-fold's rules, docs/pd-fold.1):
 *
 *	"\t%16lx NAME+0xOFF (DSO)", or "[unknown]", or "(inlined)"
 *
 * is read by the script's regex `^\s*(\w+)\s*(.+) \((.*)\)` (the module
 * runs from the last " (" followed by a ')' to the last ')'); then the
 * symbol loses its +0xOFF, a name in parentheses is dropped, "a->b"
 * parts become frames of their own (_[i] after the first), and each is
 * tidied: ';' to ':', cut at the first '(' (not "(anonymous
 * namespace)", not a Go method), quotes deleted, a java class's leading
 * 'L' dropped; "[unknown]" becomes the module's file name in brackets.
 * --inline replaces a frame by addr2line's inline chain at its address.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/symbols.h>

#include "fold.h"

size_t fold_frame_text(const struct pd_frame *f, char *buf, size_t size)
{
	/* perf prints a kernel frame at its address, others in their DSO */
	uint64_t at = f->kernel ? f->ip : f->addr;
	int k;

	if (f->inline_name && f->sym)
		k = snprintf(buf, size, "\t%16" PRIx64 " %s+0x%" PRIx64 " (inlined)",
			     at, f->inline_name, f->addr - f->sym->start);
	else if (f->sym)
		k = snprintf(buf, size, "\t%16" PRIx64 " %s+0x%" PRIx64 " (%s)",
			     at, f->sym->name, f->addr - f->sym->start,
			     f->dso_name);
	else
		k = snprintf(buf, size, "\t%16" PRIx64 " [unknown] (%s)", at,
			     f->dso_name);
	if (k < 0)
		return 0;
	return (size_t)k < size ? (size_t)k : size - 1;
}

/* Perl's \s, \d, \w on bytes */
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

/*
 * The regex's backtracking, by hand: the symbol takes back blanks and
 * even address characters when it would otherwise be empty.
 */
bool fold_match_frame(char *s, size_t len, char *pc_buf, size_t pc_size,
		      const char **pc, const char **sym, const char **mod)
{
	size_t a, w, sp, i, close, fs, pc_len;
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
	pc_len = (w < fs ? w : fs) - a;
	if (pc_len >= pc_size)
		pc_len = pc_size - 1;
	memcpy(pc_buf, s + a, pc_len);
	pc_buf[pc_len] = '\0';
	s[i] = '\0';
	s[close] = '\0';
	*pc = pc_buf;
	*sym = s + fs;
	*mod = s + i + 2;
	return true;
}

/* --kernel's frames: "[...]" modules and vmlinux, not "[unknown]" */
static bool is_kernel_mod(const char *mod)
{
	size_t n = strlen(mod);

	return (mod[0] == '[' || (n >= 7 && !memcmp(mod + n - 7, "vmlinux", 7))) &&
	       !strstr(mod, "unknown");
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

/* Modules --inline leaves alone: perf-PID.map, "kernel.", "[name]" */
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
		/* \d+ may give back digits to the '.' before "map" */
		for (k = 1; k <= digits; k++)
			if (p[5 + k] && !strncmp(p + 5 + k + 1, "map", 3))
				return true;
	}
	return false;
}

void fold_push(struct folder *f, const char *s, size_t len)
{
	size_t off = f->text.len;

	if (f->nent == f->ent_cap) {
		size_t cap = f->ent_cap ? 2 * f->ent_cap : 64;
		struct fspan *v = realloc(f->ent, cap * sizeof(*v));

		if (!v) {
			f->failed = true;
			return;
		}
		f->ent = v;
		f->ent_cap = cap;
	}
	if (fbuf_add(&f->text, s, len)) {
		f->failed = true;
		return;
	}
	f->ent[f->nent].off = off;
	f->ent[f->nent].len = len;
	f->nent++;
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

/* "[unknown]": the module's file name, with --addrs the address */
static int unknown_name(struct folder *f, const char *pc, const char *mod)
{
	struct fbuf *b = &f->unknown;
	const char *base = "unknown";

	b->len = 0;
	if (strcmp(mod, "[unknown]")) {
		base = strrchr(mod, '/');
		base = base ? base + 1 : mod;
	}
	if (fbuf_add(b, "[", 1) || fbuf_add(b, base, strlen(base)))
		return -1;
	if (f->o.addrs) {
		f->rec_ok = false;	/* the name holds the address */
		if (fbuf_add(b, " <", 2) || fbuf_add(b, pc, strlen(pc)) ||
		    fbuf_add(b, ">", 1))
			return -1;
	}
	return fbuf_add(b, "]", 1);
}

/* Where tidying cuts: the first '(' not opening "(anonymous namespace)",
 * unless the name is a Go method. */
static char *tidy_cut(char *s)
{
	char *paren;

	if (is_go_name(s))
		return NULL;
	for (paren = strchr(s, '('); paren; paren = strchr(paren + 1, '('))
		if (strncmp(paren + 1, "anonymous namespace)", 20))
			return paren;
	return NULL;
}

/* One "a->b" part into f->name, tidied. */
static int part_name(struct folder *f, const char *part, size_t len,
		     const char *pc, const char *mod)
{
	struct fbuf *b = &f->name;
	char *s, *p, *q;

	if (len == 9 && !memcmp(part, "[unknown]", 9)) {
		if (unknown_name(f, pc, mod))
			return -1;
		part = f->unknown.p;
		len = f->unknown.len;
	}
	b->len = 0;
	if (fbuf_add(b, part, len))
		return -1;
	s = b->p;
	for (p = s; *p; p++)
		if (*p == ';')
			*p = ':';
	p = tidy_cut(s);
	if (p)
		*p = '\0';
	for (p = q = s; *p; p++)
		if (*p != '"' && *p != '\'')
			*q++ = *p;
	*q = '\0';
	len = q - s;
	if (f->java && s[0] == 'L' && memchr(s, '/', len)) {
		memmove(s, s + 1, len);	/* with the NUL */
		len--;
	}
	b->len = len;
	return 0;
}

/* "NAME+0xHEX": where the offset starts */
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

/* Split on "->"; trailing empty parts go, as Perl's split drops them. */
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
			struct fspan *v = realloc(f->parts, cap * sizeof(*v));

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

/* --inline's chain at addr of d: outermost first, joined with ';' */
static char *chain(struct folder *f, struct pd_dso *d, uint64_t addr,
		   bool *unresolved)
{
	struct pd_inline_frame fr[64];
	struct fbuf out = { 0 };
	int i, n;

	n = pd_dso__addr2line(d, addr, fr, 64);
	*unresolved = n <= 0;
	if (n <= 0)
		return NULL;
	if (fbuf_add(&out, "", 0))
		return NULL;
	for (i = n - 1; i >= 0; i--) {
		const char *fn = fr[i].function ? fr[i].function : "??";
		char line[16];

		if ((out.len && fbuf_add(&out, ";", 1)) ||
		    fbuf_add(&out, fn, strlen(fn)))
			goto fail;
		if (!f->o.context)
			continue;
		if (fr[i].line)
			snprintf(line, sizeof(line), "%u", fr[i].line);
		else
			snprintf(line, sizeof(line), "?");
		if (fr[i].file) {
			const char *base = strrchr(fr[i].file, '/');

			fn = base ? base + 1 : fr[i].file;
		} else {
			fn = "??";
		}
		if (fbuf_add(&out, ":", 1) || fbuf_add(&out, fn, strlen(fn)) ||
		    fbuf_add(&out, ":", 1) || fbuf_add(&out, line, strlen(line)))
			goto fail;
	}
	return out.p;
fail:
	free(out.p);
	return NULL;
}

static char *resolve(struct folder *f, const char *pc, const char *sym,
		     const char *mod);

/* The script's retry: NAME+0xOFF, NAME's address from nm, plus OFF. */
static char *nm_retry(struct folder *f, struct pd_dso *d, const char *sym,
		      const char *mod, bool *tried)
{
	const char *plus = sym ? strstr(sym, "+0x") : NULL, *p;
	unsigned long long off;
	uint64_t base;
	char name[4096], pc[32];

	*tried = false;
	/* the regex's greedy (.+) takes the last "+0x" */
	for (p = plus; p; p = strstr(p + 1, "+0x"))
		plus = p;
	if (!plus || plus == sym || !plus[3] ||
	    strspn(plus + 3, "0123456789abcdef") != strlen(plus + 3) ||
	    (size_t)(plus - sym) >= sizeof(name))
		return NULL;
	memcpy(name, sym, plus - sym);
	name[plus - sym] = '\0';
	off = strtoull(plus + 3, NULL, 16);
	if (pd_dso__nm_lookup(d, name, &base))
		return NULL;
	*tried = true;
	snprintf(pc, sizeof(pc), "0x%llx", (unsigned long long)(base + off));
	return resolve(f, pc, "", mod);
}

/* The chain for (mod, pc), looked up once; NULL: the plain symbol. */
static char *resolve(struct folder *f, const char *pc, const char *sym,
		     const char *mod)
{
	struct fbuf key = { 0 };
	struct fhash_ent *e;
	struct pd_dso *d;
	char *res = NULL, *retry;
	bool added, unresolved, tried;

	if (fbuf_add(&key, mod, strlen(mod) + 1) ||
	    fbuf_add(&key, pc, strlen(pc))) {
		free(key.p);
		f->failed = true;
		return NULL;
	}
	e = fhash_find(&f->inl, key.p, key.len);
	if (e) {
		free(key.p);
		return e->ptr;
	}
	d = pd_symbolizer__dso(f->sym, mod, NULL, 0);
	if (d)
		res = chain(f, d, strtoull(pc, NULL, 16), &unresolved);
	if (d && unresolved) {
		retry = nm_retry(f, d, sym, mod, &tried);
		res = tried && retry ? strdup(retry) : NULL;
	}
	e = fhash_get(&f->inl, key.p, key.len, &added);
	free(key.p);
	if (!e) {
		free(res);
		f->failed = true;
		return NULL;
	}
	if (!added) {
		free(res);
		return e->ptr;
	}
	e->ptr = res;
	return res;
}

/* One frame line's parts, leaf first, onto the sample's entries. */
void fold_frame(struct folder *f, const char *pc, const char *sym,
		const char *mod)
{
	size_t len, cut, n, i;

	if (!f->mod.p || strcmp(mod, f->mod.p)) {
		f->mod.len = 0;
		if (fbuf_add(&f->mod, mod, strlen(mod))) {
			f->failed = true;
			return;
		}
		f->mod_kernel = is_kernel_mod(mod);
		f->mod_jit = is_jit_mod(mod);
		f->mod_no_inline = inline_skips_mod(mod);
	}
	if (f->o.inline_frames && !f->mod_no_inline) {
		const char *res;

		f->rec_ok = false;	/* looked up by address */
		res = resolve(f, pc, sym, mod);
		/* the chain is one entry, taken as it is */
		if (res && *res && strcmp(res, "??") && strcmp(res, "??:??:0")) {
			fold_push(f, res, strlen(res));
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
	/* parts run root to leaf: the last is pushed first */
	for (i = n; i-- > 0;) {
		const char *note = NULL;
		struct fbuf *b = &f->name;

		if (part_name(f, sym + f->parts[i].off, f->parts[i].len, pc, mod)) {
			f->failed = true;
			return;
		}
		if (i > 0) {
			if (!strstr(b->p, "_[i]"))
				note = "_[i]";
		} else if (f->o.kernel && f->mod_kernel) {
			note = "_[k]";
		} else if (f->o.jit && f->mod_jit) {
			if (!strstr(b->p, "_[j]"))
				note = "_[j]";
		}
		if (note && fbuf_add(b, note, 4)) {
			f->failed = true;
			return;
		}
		fold_push(f, b->p, b->len);
	}
}

void fold_frame_free(struct folder *f)
{
	fhash_free(&f->inl, free);
	free(f->text.p);
	free(f->ent);
	free(f->mod.p);
	free(f->name.p);
	free(f->unknown.p);
	free(f->parts);
}
