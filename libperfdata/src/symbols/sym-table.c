// SPDX-License-Identifier: MIT
/*
 * Symbol tables: built the way perf 6.1 builds its rb-trees (insertion
 * order kept among equal starts, symbols__fixup_end(),
 * symbols__fixup_duplicate() with choose_best_symbol()), then stored as
 * one sorted array searched by bisection; where symbols overlap, the
 * search follows perf's tree shape (sym-rbtree.h) when it is known.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sym-internal.h"

/* an insertion (or erasure) on sv->tree, logged (defer_tree) */
struct sym_tree_op {
	uint64_t key;
	uint32_t seq;
	bool erase;
};

void sym_vec__release(struct sym_vec *sv)
{
	free(sv->v);
	free(sv->ops);
	sv->v = NULL;
	sv->ops = NULL;
	sv->nr = sv->alloc = sv->nr_ops = sv->alloc_ops = 0;
}

static void tree_op(struct sym_vec *sv, uint32_t seq, uint64_t key,
		    bool erase)
{
	struct sym_tree_op *op;

	if (!sv->defer_tree) {
		if (erase)
			sym_rbtree__erase(sv->tree, seq);
		else
			sym_rbtree__insert(sv->tree, seq, key);
		return;
	}
	if (sv->tree->failed)
		return;
	if (sv->nr_ops == sv->alloc_ops) {
		size_t alloc = sv->alloc_ops ? sv->alloc_ops * 2 : 256;

		op = realloc(sv->ops, alloc * sizeof(*op));
		if (!op) {
			/* as the tree itself does: the shape is unknown */
			sv->tree->failed = true;
			return;
		}
		sv->ops = op;
		sv->alloc_ops = alloc;
	}
	op = &sv->ops[sv->nr_ops++];
	op->key = key;
	op->seq = seq;
	op->erase = erase;
}

/* the logged operations on sv->tree, done */
static void replay_tree(struct sym_vec *sv)
{
	size_t i;

	for (i = 0; i < sv->nr_ops && !sv->tree->failed; i++) {
		if (sv->ops[i].erase)
			sym_rbtree__erase(sv->tree, sv->ops[i].seq);
		else
			sym_rbtree__insert(sv->tree, sv->ops[i].seq,
					   sv->ops[i].key);
	}
	sv->nr_ops = 0;
}

int sym_vec__push(struct sym_vec *sv, uint64_t start, uint64_t size,
		  uint8_t bind, const char *name)
{
	struct sym_new *n;

	if (sv->nr == sv->alloc) {
		size_t alloc = sv->alloc ? sv->alloc * 2 : 256;

		n = realloc(sv->v, alloc * sizeof(*n));
		if (!n)
			return -ENOMEM;
		sv->v = n;
		sv->alloc = alloc;
	}
	n = &sv->v[sv->nr];
	n->start = start;
	/* perf's symbol__new(): a zero size leaves end == start */
	n->end = start + size;
	n->name = name;
	n->seq = sv->next_seq++;
	n->bind = bind;
	n->mangled = false;
	n->module = 0;
	sv->nr++;
	if (sv->tree)
		tree_op(sv, n->seq, start, false);
	return 0;
}

static int sym_new_cmp(const void *a, const void *b)
{
	const struct sym_new *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * A stable sort of v by start alone, a byte at a time from the least
 * significant, skipping bytes all starts share (the upper ones, mostly);
 * tmp has room for nr entries. It is the (start, seq) order when v is in
 * seq order.
 */
static void radix_sort(struct sym_new *v, struct sym_new *tmp, size_t nr)
{
	struct sym_new *src = v, *dst = tmp, *t;
	uint64_t diff = 0;
	unsigned int shift;
	size_t i;

	for (i = 1; i < nr; i++)
		diff |= v[i].start ^ v[0].start;
	for (shift = 0; shift < 64; shift += 8) {
		size_t count[256] = { 0 }, pos = 0;

		if (!(diff >> shift & 0xff))
			continue;
		for (i = 0; i < nr; i++)
			count[src[i].start >> shift & 0xff]++;
		for (i = 0; i < 256; i++) {
			size_t c = count[i];

			count[i] = pos;
			pos += c;
		}
		for (i = 0; i < nr; i++)
			dst[count[src[i].start >> shift & 0xff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, nr * sizeof(*v));
}

/* v[0, mid) and v[mid, nr), each sorted, merged through tmp */
static void merge(struct sym_new *v, size_t mid, size_t nr,
		  struct sym_new *tmp)
{
	size_t i = 0, j = mid, k = 0;

	while (i < mid && j < nr)
		tmp[k++] = sym_new_cmp(&v[j], &v[i]) < 0 ? v[j++] : v[i++];
	while (i < mid)
		tmp[k++] = v[i++];
	while (j < nr)
		tmp[k++] = v[j++];
	memcpy(v, tmp, nr * sizeof(*v));
}

/*
 * perf inserts equal starts to the right: in-order they keep their
 * insertion order, which decides ties below.
 *
 * A symbol table is sorted once or twice per DSO, and qsort() was a
 * tenth of pd-fold's work: kallsyms comes sorted (a pass checks it); an
 * ELF table comes in insertion order, and its second sort (after the
 * PLT's symbols are appended) is a sorted part and such a tail. So the
 * sorted head is kept, the tail, when in insertion order, radix-sorted
 * (else qsort()ed), and the two merged.
 */
void sym_vec__sort(struct sym_vec *sv)
{
	struct sym_new *v = sv->v, *tmp;
	size_t nr = sv->nr, head, i;
	bool seq_order = true;

	for (head = 1; head < nr; head++)
		if (sym_new_cmp(&v[head - 1], &v[head]) > 0)
			break;
	if (head >= nr)
		return;
	tmp = malloc(nr * sizeof(*tmp));
	if (!tmp) {
		qsort(v, nr, sizeof(*v), sym_new_cmp);
		return;
	}
	for (i = head + 1; i < nr && seq_order; i++)
		seq_order = v[i - 1].seq < v[i].seq;
	if (seq_order)
		radix_sort(v + head, tmp, nr - head);
	else
		qsort(v + head, nr - head, sizeof(*v), sym_new_cmp);
	merge(v, head, nr, tmp);
	free(tmp);
}

/* The name perf shows for raw, in d's arena; NULL when out of memory. */
static const char *demangled(struct pd_dso *d, const char *raw)
{
	char *dem = sym_demangle(raw);
	const char *name;

	if (!dem)
		return raw;
	name = pd_arena_strndup(&d->arena, dem, SIZE_MAX);
	free(dem);
	return name;
}

/* n's name as perf has it from its load */
static bool demangle_now(struct sym_vec *sv, struct sym_new *n)
{
	const char *name;

	if (!n->mangled)
		return true;
	name = demangled(sv->dso, n->name);
	if (!name)
		return false;
	n->name = name;
	n->mangled = false;
	return true;
}

static uint64_t roundup_page(uint64_t x)
{
	return (x + 4095) & ~(uint64_t)4095;
}

void sym_vec__fixup_end(struct sym_vec *sv, bool kallsyms)
{
	size_t i;

	if (!sv->nr)
		return;
	for (i = 1; i < sv->nr; i++) {
		struct sym_new *prev = &sv->v[i - 1], *curr = &sv->v[i];

		if (prev->end != prev->start)
			continue;
		/* kallsyms: the gap between the kernel and the modules is
		 * not given to the symbol before it */
		if (kallsyms && !prev->module != !curr->module)
			prev->end = roundup_page(prev->end + 4096);
		else
			prev->end = curr->start;
	}
	if (sv->v[sv->nr - 1].end == sv->v[sv->nr - 1].start)
		sv->v[sv->nr - 1].end = roundup_page(sv->v[sv->nr - 1].start) + 4096;
}

static size_t prefix_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol(): true when a stays, false when b does. */
static bool choose_a(const struct sym_new *a, const struct sym_new *b)
{
	uint64_t la = a->end - a->start, lb = b->end - b->start;
	size_t na, nb;
	bool wa, wb;

	if (lb == 0 && la > 0)
		return true;
	if (la == 0 && lb > 0)
		return false;
	wa = a->bind == STB_WEAK;
	wb = b->bind == STB_WEAK;
	if (wb && !wa)
		return true;
	if (wa && !wb)
		return false;
	wa = a->bind == STB_GLOBAL;
	wb = b->bind == STB_GLOBAL;
	if (wa && !wb)
		return true;
	if (wb && !wa)
		return false;
	na = prefix_underscores(a->name);
	nb = prefix_underscores(b->name);
	if (nb > na)
		return true;
	if (na > nb)
		return false;
	na = strlen(a->name);
	nb = strlen(b->name);
	if (na != nb)
		return na > nb;
	return true;
}

void sym_vec__fixup_duplicate(struct sym_vec *sv)
{
	size_t i, out = 0;

	for (i = 0; i < sv->nr; i++) {
		if (out && sv->v[out - 1].start == sv->v[i].start) {
			/* (out of memory, a raw name decides) */
			demangle_now(sv, &sv->v[out - 1]);
			demangle_now(sv, &sv->v[i]);
			if (choose_a(&sv->v[out - 1], &sv->v[i])) {
				if (sv->tree)
					tree_op(sv, sv->v[i].seq, 0, true);
			} else {
				if (sv->tree)
					tree_op(sv, sv->v[out - 1].seq, 0, true);
				sv->v[out - 1] = sv->v[i];
			}
			continue;
		}
		sv->v[out++] = sv->v[i];
	}
	sv->nr = out;
}

/* The addresses perf's lookup gives s: [start, end), or start alone. */
static uint64_t covered_end(const struct sym_new *s)
{
	return s->end > s->start ? s->end : s->start + 1;
}

int sym_dso__link_trees(struct pd_dso *d, const struct sym_vec *sv,
			const struct sym_rbtree *const *trees, size_t nr_trees,
			int32_t *roots)
{
	int32_t *index_of;
	size_t i;

	index_of = malloc(sv->next_seq * sizeof(*index_of));
	d->sym_left = malloc(sv->nr * sizeof(*d->sym_left));
	d->sym_right = malloc(sv->nr * sizeof(*d->sym_right));
	if (!index_of || !d->sym_left || !d->sym_right) {
		free(index_of);
		return -ENOMEM;
	}
	for (i = 0; i < sv->next_seq; i++)
		index_of[i] = -1;
	for (i = 0; i < sv->nr; i++)
		index_of[sv->v[i].seq] = (int32_t)i;
	for (i = 0; i < sv->nr; i++) {
		const struct sym_rbtree *t =
			trees[nr_trees > 1 ? sv->v[i].module : 0];
		int32_t l = t->left[sv->v[i].seq], r = t->right[sv->v[i].seq];

		d->sym_left[i] = l < 0 ? -1 : index_of[l];
		d->sym_right[i] = r < 0 ? -1 : index_of[r];
	}
	for (i = 0; i < nr_trees; i++)
		roots[i] = trees[i]->root < 0 ? -1 : index_of[trees[i]->root];
	free(index_of);
	return 0;
}

/* fewer symbols than this are bisected as they are */
#define BUCKET_MIN_SYMS 1024

/*
 * The bucket index of d's sorted table (sym_bucket): about one bucket per
 * four symbols, a power of two of them, each the same span of addresses.
 * 0, or -ENOMEM.
 */
static int build_buckets(struct pd_dso *d)
{
	uint64_t base, span;
	size_t nb = 1, i, k;
	unsigned int shift = 0;
	uint32_t *b;

	if (d->nr_syms < BUCKET_MIN_SYMS || d->nr_syms > UINT32_MAX)
		return 0;
	while (nb < d->nr_syms)
		nb *= 2;
	base = d->syms[0].start;
	span = d->syms[d->nr_syms - 1].start - base;
	/* every start's bucket below nb */
	while (shift < 64 && (span >> shift) >= nb)
		shift++;
	b = malloc((nb + 1) * sizeof(*b));
	if (!b)
		return -ENOMEM;
	for (i = 0, k = 0; i < d->nr_syms; i++) {
		size_t bi = (size_t)((d->syms[i].start - base) >> shift);

		while (k <= bi)
			b[k++] = (uint32_t)i;
	}
	while (k <= nb)
		b[k++] = (uint32_t)d->nr_syms;
	d->sym_bucket = b;
	d->sym_base = base;
	d->nr_buckets = nb;
	d->sym_shift = shift;
	return 0;
}

/*
 * sv's symbols into d->syms: copied into an array of their own, or with
 * take, written over sv's own array front to back (a pd_sym is smaller
 * than a sym_new, so each lands on entries already read) and the array
 * handed to d: a table of 100 thousand kernel symbols then touches no
 * fresh 3 MB, whose page faults were a tenth of the kallsyms load.
 */
static int set_symbols(struct pd_dso *d, struct sym_vec *sv, bool take)
{
	size_t i;
	bool mods = false;

	_Static_assert(sizeof(struct pd_sym) <= sizeof(struct sym_new),
		       "pd_sym written over sym_new in place");
	free(d->sym_bucket);
	d->sym_bucket = NULL;
	d->nr_buckets = 0;
	free(d->syms);
	free(d->sym_module);
	free(d->sym_left);
	free(d->sym_right);
	d->syms = NULL;
	d->sym_module = NULL;
	d->sym_mangled = NULL;
	d->sym_left = d->sym_right = NULL;
	d->nr_syms = 0;
	d->syms_overlap = false;
	if (!sv->nr)
		return 0;
	for (i = 1; i < sv->nr; i++)
		if (covered_end(&sv->v[i - 1]) > sv->v[i].start)
			d->syms_overlap = true;
	if (d->syms_overlap && sv->tree && sv->defer_tree)
		replay_tree(sv);
	if (d->syms_overlap && sv->tree && !sv->tree->failed) {
		const struct sym_rbtree *t = sv->tree;

		if (sym_dso__link_trees(d, sv, &t, 1, &d->sym_root) < 0)
			return -ENOMEM;
	}
	for (i = 0; i < sv->nr; i++) {
		mods |= sv->v[i].module != 0;
		if (sv->v[i].mangled && !d->sym_mangled) {
			d->sym_mangled = pd_arena_array(&d->arena, sv->nr, 1);
			if (!d->sym_mangled)
				return -ENOMEM;
		}
		if (d->sym_mangled)
			d->sym_mangled[i] = sv->v[i].mangled;
	}
	if (mods) {
		d->sym_module = malloc(sv->nr * sizeof(*d->sym_module));
		if (!d->sym_module)
			return -ENOMEM;
	}
	d->syms = take ? (struct pd_sym *)sv->v :
			 malloc(sv->nr * sizeof(*d->syms));
	if (!d->syms)
		return -ENOMEM;
	for (i = 0; i < sv->nr; i++) {
		struct sym_new from;
		struct pd_sym to;

		/* by memcpy: with take, the two types share the bytes */
		memcpy(&from, &sv->v[i], sizeof(from));
		to.start = from.start;
		to.end = from.end;
		to.name = from.name;
		memcpy(&d->syms[i], &to, sizeof(to));
		if (mods)
			d->sym_module[i] = from.module;
	}
	d->nr_syms = sv->nr;
	if (take) {
		struct pd_sym *fit = realloc(d->syms,
					     d->nr_syms * sizeof(*d->syms));

		if (fit)
			d->syms = fit;
		sv->v = NULL;
		sv->nr = sv->alloc = 0;
	}
	return build_buckets(d);
}

int sym_dso__set_symbols(struct pd_dso *d, struct sym_vec *sv)
{
	return set_symbols(d, sv, false);
}

int sym_dso__take_symbols(struct pd_dso *d, struct sym_vec *sv)
{
	return set_symbols(d, sv, true);
}

/* perf's symbols__find(): start <= addr < end, or addr == start for a
 * symbol that kept no size. */
static bool covers(const struct pd_sym *s, uint64_t addr)
{
	return addr >= s->start && (addr < s->end || addr == s->start);
}

static long find_index(const struct pd_dso *d, uint64_t addr)
{
	size_t lo = 0, hi = d->nr_syms, n;
	long i;

	if (d->sym_left) {
		size_t k;

		i = d->sym_root;
		/* a vmlinux section's map: its own DSO and tree in perf */
		for (k = 0; d->ksecs && k < d->nr_modules; k++)
			if (addr >= d->ksecs[k].start && addr < d->ksecs[k].end)
				i = d->ksecs[k].root;
		/* perf's symbols__find(): the first cover on the path */
		for (; i >= 0;) {
			const struct pd_sym *s = &d->syms[i];

			if (addr < s->start)
				i = d->sym_left[i];
			else if (covers(s, addr))
				return i;
			else
				i = d->sym_right[i];
		}
		return -1;
	}
	/* lo, hi: the bucket's bounds; every start before lo is at or
	 * below addr, every one from hi on above it */
	if (d->sym_bucket && addr >= d->sym_base) {
		uint64_t k = (addr - d->sym_base) >> d->sym_shift;

		if (k >= d->nr_buckets) {
			lo = hi = d->nr_syms;
		} else {
			lo = d->sym_bucket[k];
			hi = d->sym_bucket[k + 1];
		}
	} else if (d->sym_bucket) {
		hi = 0;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/*
	 * lo - 1 is the last symbol starting at or below addr, the only
	 * candidate unless symbols overlap. Where they do and perf's tree
	 * shape is unknown (kallsyms, perf maps), an earlier symbol whose
	 * size spans addr can answer too; look back a little for one.
	 */
	if (!d->syms_overlap)
		return lo && covers(&d->syms[lo - 1], addr) ? (long)lo - 1 : -1;
	for (i = (long)lo - 1, n = 0; i >= 0 && n < 64; i--, n++)
		if (covers(&d->syms[i], addr))
			return i;
	return -1;
}

const struct pd_sym *sym_dso__find(struct pd_dso *d, uint64_t addr)
{
	long i;

	if (!d || !d->nr_syms)
		return NULL;
	i = find_index(d, addr);
	if (i < 0)
		return NULL;
	if (d->sym_mangled && d->sym_mangled[i]) {
		const char *name = demangled(d, d->syms[i].name);

		/* out of memory: the raw name, this time */
		if (name) {
			d->syms[i].name = name;
			d->sym_mangled[i] = 0;
		}
	}
	return &d->syms[i];
}

PD_EXPORT const char *pd_dso__kernel_module(struct pd_dso *d, uint64_t addr)
{
	long i;

	if (!d || !d->sym_module)
		return NULL;
	i = find_index(d, addr);
	if (i < 0 || !d->sym_module[i])
		return NULL;
	return d->modules[d->sym_module[i] - 1];
}

PD_EXPORT int pd_dso__kernel_range(const struct pd_dso *d, uint64_t *start,
				   uint64_t *end)
{
	size_t i, first = d ? d->nr_syms : 0, last = 0;

	if (!d || d->kind != PD_DSO_KERNEL || !d->loaded)
		return -ENOENT;
	/* a vmlinux: perf moves the kernel map to its relocated .text */
	if (d->vmlinux_text) {
		*start = d->text_start;
		*end = d->text_end;
		return 0;
	}
	for (i = 0; i < d->nr_syms; i++) {
		if (d->sym_module && d->sym_module[i])
			continue;
		if (first == d->nr_syms)
			first = i;
		last = i;
	}
	if (first == d->nr_syms)
		return -ENOENT;
	*start = d->syms[first].start;
	*end = d->syms[last].end;
	return 0;
}

PD_EXPORT int pd_dso__kernel_ref(const struct pd_dso *d, const char *name,
				 uint64_t *addr)
{
	uint64_t v = 0;

	if (!d || d->kind != PD_DSO_KERNEL || !d->loaded || !name)
		return -ENOENT;
	if (!strcmp(name, "_text"))
		v = d->ref_text;
	else if (!strcmp(name, "_stext"))
		v = d->ref_stext;
	if (!v)
		return -ENOENT;
	*addr = v;
	return 0;
}

PD_EXPORT int pd_dso__kernel_section(const struct pd_dso *d, size_t i,
				     const char **name, uint64_t *start,
				     uint64_t *end)
{
	if (!d || d->kind != PD_DSO_KERNEL || !d->loaded || !d->ksecs ||
	    i >= d->nr_modules)
		return -ENOENT;
	*name = d->modules[i];
	*start = d->ksecs[i].start;
	*end = d->ksecs[i].end;
	return 0;
}
