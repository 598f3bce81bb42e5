// SPDX-License-Identifier: MIT
/*
 * --inline for the folder: what stackcollapse-perf.pl's inline() makes
 * of `addr2line -a PC -e MOD -i -f -s -C`, computed with libperfdata's
 * symbolizer instead of one addr2line process per address.
 *
 * The script hands addr2line the address perf script printed (map_ip
 * relative for callchain frames) as a plain ELF virtual address, so that
 * is what is looked up here. When addr2line finds nothing ("??" and
 * "??:0") and the printed symbol is NAME+0xOFF, the script retries with
 * the address `nm MOD` gives NAME plus OFF (no fallback after that). The
 * frames come outermost first, joined with ';', each "FUNCTION" or with
 * --context "FUNCTION:FILE:LINE" (basename, no discriminator; "?" for an
 * unknown line, as addr2line prints it). Results that are empty, "??" or
 * "??:??:0" make the folder use the plain symbol, as the script does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/symbols.h>

#include "fold-inline.h"

#define MAX_FRAMES 64

struct inl_entry {
	struct inl_entry *next;
	char *key;		/* mod '\0' pc '\0' context */
	size_t key_len;
	char *result;		/* NULL: falls back */
};

struct fold_inline {
	struct pd_symbolizer *s;
	struct inl_entry **hash;
	size_t hash_size, nr;
	size_t symbol_memory;	/* 0: never trimmed */
};

struct fold_inline *fold_inline__new(const char *symfs, bool no_debuginfod,
				     size_t symbol_memory)
{
	struct pd_symbolizer_opts opts = {
		.sz = sizeof(opts),
		.symfs = symfs,
		.no_debuginfod = no_debuginfod,
	};
	struct fold_inline *fi = calloc(1, sizeof(*fi));

	if (!fi)
		return NULL;
	fi->hash_size = 4096;
	fi->symbol_memory = symbol_memory;
	fi->hash = calloc(fi->hash_size, sizeof(*fi->hash));
	fi->s = pd_symbolizer__new(&opts);
	if (!fi->hash || !fi->s) {
		fold_inline__free(fi);
		return NULL;
	}
	return fi;
}

void fold_inline__free(struct fold_inline *fi)
{
	size_t i;

	if (!fi)
		return;
	for (i = 0; fi->hash && i < fi->hash_size; i++) {
		struct inl_entry *e = fi->hash[i], *next;

		for (; e; e = next) {
			next = e->next;
			free(e->key);
			free(e->result);
			free(e);
		}
	}
	free(fi->hash);
	pd_symbolizer__free(fi->s);
	free(fi);
}

static size_t hash_bytes(const char *p, size_t n)
{
	size_t h = 5381;

	while (n--)
		h = h * 33 + (unsigned char)*p++;
	return h;
}

static char *make_key(const char *mod, const char *pc, bool context, size_t *len)
{
	size_t lm = strlen(mod), lp = strlen(pc);
	char *k = malloc(lm + lp + 3);

	if (!k)
		return NULL;
	memcpy(k, mod, lm + 1);
	memcpy(k + lm + 1, pc, lp + 1);
	k[lm + lp + 2] = context ? '1' : '0';
	*len = lm + lp + 3;
	return k;
}

static struct inl_entry **find_slot(struct fold_inline *fi, const char *key,
				    size_t len)
{
	struct inl_entry **e = &fi->hash[hash_bytes(key, len) % fi->hash_size];

	for (; *e; e = &(*e)->next)
		if ((*e)->key_len == len && !memcmp((*e)->key, key, len))
			break;
	return e;
}

static const char *base_name(const char *f)
{
	const char *s = strrchr(f, '/');

	return s ? s + 1 : f;
}

/* Appends the parts to a malloc'd string; frees it and returns NULL
 * on failure. */
static char *append(char *s, const char *a, const char *b, const char *c)
{
	size_t ls, la = strlen(a), lb = strlen(b), lc = strlen(c);
	char *n;

	if (!s)
		return NULL;
	ls = strlen(s);
	n = realloc(s, ls + la + lb + lc + 1);
	if (!n) {
		free(s);
		return NULL;
	}
	memcpy(n + ls, a, la);
	memcpy(n + ls + la, b, lb);
	memcpy(n + ls + la + lb, c, lc + 1);
	return n;
}

/* The joined chain, or NULL with *unresolved when addr2line would print
 * "??" and "??:0". */
static char *chain(struct pd_dso *d, unsigned long long addr, bool context,
		   bool *unresolved)
{
	struct pd_inline_frame f[MAX_FRAMES];
	char *out;
	int i, n;

	n = pd_dso__addr2line(d, addr, f, MAX_FRAMES);
	*unresolved = n <= 0;
	if (n <= 0)
		return NULL;
	out = strdup("");
	/* addr2line prints innermost first; the script reverses */
	for (i = n - 1; i >= 0 && out; i--) {
		const char *fn = f[i].function ? f[i].function : "??";
		const char *sep = out[0] ? ";" : "";
		char line[16];

		if (!context) {
			out = append(out, sep, fn, "");
			continue;
		}
		if (f[i].line)
			snprintf(line, sizeof(line), "%u", f[i].line);
		else
			snprintf(line, sizeof(line), "?");
		out = append(out, sep, fn, ":");
		out = append(out, f[i].file ? base_name(f[i].file) : "??", ":", line);
	}
	return out;
}

static char *resolve(struct fold_inline *fi, const char *pc, const char *sym,
		     const char *mod, bool context);

/* The script's retry: NAME+0xOFF, NAME's address from nm, plus OFF. */
static char *nm_retry(struct fold_inline *fi, struct pd_dso *d, const char *sym,
		      const char *mod, bool context, bool *tried)
{
	const char *plus = sym ? strstr(sym, "+0x") : NULL, *p;
	unsigned long long off;
	uint64_t base;
	char name[4096], pc[32];

	*tried = false;
	/* the regex's greedy (.+) takes the last "+0x" followed by hex to
	 * the end */
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
	return resolve(fi, pc, "", mod, context);
}

static char *resolve(struct fold_inline *fi, const char *pc, const char *sym,
		     const char *mod, bool context)
{
	struct inl_entry **slot, *e;
	struct pd_dso *d;
	size_t len;
	char *key, *res, *retry;
	bool unresolved, tried;

	key = make_key(mod, pc, context, &len);
	if (!key)
		return NULL;
	slot = find_slot(fi, key, len);
	if (*slot) {
		free(key);
		return (*slot)->result;
	}
	d = pd_symbolizer__dso(fi->s, mod, NULL, 0);
	res = d ? chain(d, strtoull(pc, NULL, 16), context, &unresolved) : NULL;
	if (d && unresolved) {
		retry = nm_retry(fi, d, sym, mod, context, &tried);
		if (tried) {
			res = retry ? strdup(retry) : NULL;
		} else {
			/* "??" / "??:??:0": the folder falls back */
			res = NULL;
		}
		/* the retry may have grown the table */
		slot = find_slot(fi, key, len);
	}
	e = calloc(1, sizeof(*e));
	if (!e) {
		free(key);
		free(res);
		return NULL;
	}
	e->key = key;
	e->key_len = len;
	e->result = res;
	e->next = *slot;
	*slot = e;
	return res;
}

const char *fold_inline__lookup(struct fold_inline *fi, const char *pc,
				const char *sym, const char *mod, bool context)
{
	const char *r = resolve(fi, pc, sym, mod, context);

	/* r is a copy in the cache: the files' names can go */
	if (fi->symbol_memory)
		pd_symbolizer__trim(fi->s, fi->symbol_memory);
	if (!r || !r[0] || !strcmp(r, "??") || !strcmp(r, "??:??:0"))
		return NULL;
	return r;
}
