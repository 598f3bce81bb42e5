/* SPDX-License-Identifier: MIT */
/*
 * fold(): the stacks pd-fold prints, as a dict. What fold.c (the samples
 * and their headers) and fold-frame.c (one frame line's rules) share.
 *
 * The rules are stackcollapse-perf.pl's, which pd-fold applies to the
 * text perf script prints: the library has no folding API (pd-fold's
 * folder lives in tools/fold/, which a library module may not use), so
 * they are applied here to the same text, made from the same frames of
 * the library's unwinder. tests/python checks that the two give equal
 * stacks on every recording of testdata/ and under each option.
 */
#ifndef PDPY_FOLD_H
#define PDPY_FOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perfdata/session.h>

/* A table from byte strings to a number and a pointer. */
struct fhash_ent {
	struct fhash_ent *next;
	uint64_t hash;
	size_t len;
	uint64_t val;
	void *ptr;
	char key[];
};

struct fhash {
	struct fhash_ent **b;
	size_t nb, nr;
};

/* The entry for key, made (val 0, ptr NULL) when new; NULL: no memory. */
struct fhash_ent *fhash_get(struct fhash *h, const void *key, size_t len,
			    bool *added);
/* The entry for key, or NULL. */
struct fhash_ent *fhash_find(const struct fhash *h, const void *key, size_t len);
/* Each entry in turn: *it starts NULL; NULL at the end. */
struct fhash_ent *fhash_next(const struct fhash *h, size_t *bucket,
			     struct fhash_ent *it);
/* free_ptr, when not NULL, frees each entry's ptr. */
void fhash_free(struct fhash *h, void (*free_ptr)(void *));

struct fbuf {
	char *p;
	size_t len, cap;
};

/* Appends n bytes, keeping a NUL after them; -1 without memory. */
int fbuf_add(struct fbuf *b, const char *s, size_t n);

struct fspan {
	size_t off, len;
};

enum fold_weight {
	FOLD_WEIGHT_DEFAULT,	/* the period when the header shows one, else 1 */
	FOLD_WEIGHT_SAMPLES,
	FOLD_WEIGHT_PERIOD,
};

struct fold_opts {
	bool pid, tid;		/* comm-PID[/TID] as the first frame */
	bool kernel, jit;	/* _[k] and _[j] annotations */
	bool addrs;		/* [module <addr>] for unknown symbols */
	bool inline_frames;	/* addr2line's inline chains (--inline) */
	bool context;		/* their file:line */
	enum fold_weight weight;
};

struct folder {
	struct fold_opts o;
	struct pd_symbolizer *sym;	/* the DSOs --inline reads */
	struct fhash memo;	/* a frame's entries by symbol, DSO, inline */
	struct fhash inl;	/* --inline's chains by module and address */
	bool failed;		/* out of memory */

	/* the sample: its entries, leaf first, in text */
	bool java;
	struct fbuf text;
	struct fspan *ent;
	size_t nent, ent_cap;

	/* one frame: whether its entries depend on its symbol and module
	 * alone, the last module's classes */
	bool rec_ok;
	struct fbuf mod;
	bool mod_kernel, mod_jit, mod_no_inline;
	struct fbuf name, unknown;
	struct fspan *parts;
	size_t parts_cap;
};

/* The text of a callchain frame line, as perf script prints it. */
size_t fold_frame_text(const struct pd_frame *f, char *buf, size_t size);
/*
 * The line's address, symbol and module, as the script's regex reads
 * them, NUL-terminated in place (pc copied into pc_buf); false when the
 * line is not a frame line.
 */
bool fold_match_frame(char *line, size_t len, char *pc_buf, size_t pc_size,
		      const char **pc, const char **sym, const char **mod);
/* The entries one frame line folds to, pushed onto the sample's. */
void fold_frame(struct folder *f, const char *pc, const char *sym,
		const char *mod);
void fold_push(struct folder *f, const char *s, size_t len);
void fold_frame_free(struct folder *f);

#endif /* PDPY_FOLD_H */
