// SPDX-License-Identifier: MIT
/*
 * The function binutils' addr2line names from an ELF file's own symbols
 * (_bfd_elf_find_function()), answered from an index built once per
 * file: the function-like symbols sorted by section, address and table
 * position, so a lookup bisects to the symbols starting closest below
 * the address instead of reading the whole table.
 */
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "sym-internal.h"

/* A function-like symbol as binutils' better_fit() weighs it. */
struct bfd_fn {
	uint64_t off, size;	/* a size 0 counts as 1 */
	uint32_t shndx;
	uint32_t seq;		/* symbol table index: ties keep it */
	unsigned int type;
	const char *name;
	const char *file;	/* the STT_FILE binutils gives with it */
};

struct bfd_sec {
	uint64_t addr, size;
	uint32_t shndx;
};

struct sym_bfd_funcs {
	Elf *elf;
	struct bfd_sec *secs;	/* SHF_ALLOC sections, in section order */
	size_t nr_secs;
	struct bfd_fn *fns;	/* by shndx, off, seq */
	size_t nr_fns, alloc_fns;
	/* a symbol whose name libelf cannot give: binutils' loop then
	 * starts over (best == NULL), which the index does not model */
	bool linear;
};

/*
 * binutils 2.40's choice between two symbols for an address (elf.c,
 * better_fit()): the closest start below it; a symbol that covers it over
 * one that does not (or, neither covering, the longer); among covering
 * ones an STT_FUNC over anything else (an IFUNC is not a function to
 * bfd), a typed symbol over STT_NOTYPE, then the smaller; the first
 * seen on a tie.
 */
static bool better_fit(const struct bfd_fn *best, const struct bfd_fn *c,
		       uint64_t addr)
{
	bool cf, bf;

	if (c->off > addr || c->off < best->off)
		return false;
	if (c->off > best->off)
		return true;
	if (best->off + best->size <= addr)
		return c->size > best->size;
	if (c->off + c->size <= addr)
		return false;
	cf = c->type == STT_FUNC;
	bf = best->type == STT_FUNC;
	if (cf != bf)
		return cf;
	if ((c->type == STT_NOTYPE) != (best->type == STT_NOTYPE))
		return best->type == STT_NOTYPE;
	return c->size < best->size;
}

/* addr2line reads .symtab, or .dynsym when there is none */
static Elf_Scn *symbol_table(Elf *elf, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL, *dyn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, sh))
			continue;
		if (sh->sh_type == SHT_SYMTAB)
			break;
		if (sh->sh_type == SHT_DYNSYM && !dyn)
			dyn = scn;
	}
	if (!scn)
		scn = dyn;
	if (!scn || !gelf_getshdr(scn, sh) || !sh->sh_entsize)
		return NULL;
	return scn;
}

/*
 * Calls fn for each symbol binutils weighs, in table order, with the
 * file name it would give with it: the STT_FILE before it, for a local
 * symbol or while no STT_FILE has followed another symbol. Stops at
 * fn's first non-zero return, which it returns.
 */
/* An ARM ELF mapping symbol: "$a", "$d", "$t", "$x", maybe ".suffix" */
static bool is_mapping_symbol(const char *name)
{
	return name && name[0] == '$' && name[1] && strchr("adtx", name[1]) &&
	       (name[2] == '\0' || name[2] == '.');
}

static int each_candidate(Elf *elf, int (*fn)(void *, const struct bfd_fn *),
			  void *arg)
{
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf_Scn *scn = symbol_table(elf, &sh);
	Elf_Data *data;
	const char *file = NULL;
	bool sym_seen = false, file_after_sym = false, arm;
	size_t i, nr;
	int ret;

	if (!scn || !(data = elf_getdata(scn, NULL)) || !gelf_getehdr(elf, &eh))
		return 0;
	arm = eh.e_machine == EM_ARM || eh.e_machine == EM_AARCH64;
	nr = sh.sh_size / sh.sh_entsize;
	for (i = 1; i < nr; i++) {
		struct bfd_fn c;
		GElf_Sym sym;
		unsigned int type;
		bool local;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_FILE) {
			file = elf_strptr(elf, sh.sh_link, sym.st_name);
			file_after_sym |= sym_seen;
			continue;
		}
		sym_seen = true;
		if ((type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE) ||
		    !sym.st_name)
			continue;
		local = GELF_ST_BIND(sym.st_info) == STB_LOCAL;
		/* bfd's maybe_function_sym(): annobin's hidden local
		 * markers are not functions; other sizes 0 count as 1 */
		if (!sym.st_size && local && type == STT_NOTYPE &&
		    GELF_ST_VISIBILITY(sym.st_other) == STV_HIDDEN)
			continue;
		/* nor, on arm and aarch64, the mapping symbols ($x, $d...
		 * marking code and data: a .plt has only "$x") */
		if (arm && local && type == STT_NOTYPE &&
		    is_mapping_symbol(elf_strptr(elf, sh.sh_link, sym.st_name)))
			continue;
		c.off = sym.st_value;
		c.size = sym.st_size ? sym.st_size : 1;
		c.shndx = sym.st_shndx;
		c.seq = (uint32_t)i;
		c.type = type;
		c.name = elf_strptr(elf, sh.sh_link, sym.st_name);
		c.file = file && (local || !file_after_sym) ? file : NULL;
		ret = fn(arg, &c);
		if (ret)
			return ret;
	}
	return 0;
}

static int push_fn(void *arg, const struct bfd_fn *c)
{
	struct sym_bfd_funcs *f = arg;
	struct bfd_fn *v;

	if (!c->name)
		f->linear = true;
	if (f->nr_fns == f->alloc_fns) {
		size_t alloc = f->alloc_fns ? f->alloc_fns * 2 : 64;

		v = realloc(f->fns, alloc * sizeof(*v));
		if (!v)
			return -ENOMEM;
		f->fns = v;
		f->alloc_fns = alloc;
	}
	f->fns[f->nr_fns++] = *c;
	return 0;
}

static int fn_cmp(const void *a, const void *b)
{
	const struct bfd_fn *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

size_t sym_bfd_funcs__bytes(const struct sym_bfd_funcs *f)
{
	if (!f)
		return 0;
	return sizeof(*f) + f->nr_secs * sizeof(*f->secs) +
	       f->alloc_fns * sizeof(*f->fns);
}

void sym_bfd_funcs__free(struct sym_bfd_funcs *f)
{
	if (!f)
		return;
	free(f->secs);
	free(f->fns);
	free(f);
}

struct sym_bfd_funcs *sym_bfd_funcs__new(Elf *elf)
{
	struct sym_bfd_funcs *f = calloc(1, sizeof(*f));
	Elf_Scn *scn = NULL;
	size_t nr = 0;

	if (!f)
		return NULL;
	f->elf = elf;
	if (elf_getshdrnum(elf, &nr) || !nr)
		return f;
	f->secs = calloc(nr, sizeof(*f->secs));
	if (!f->secs)
		goto fail;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
		    f->nr_secs == nr)
			continue;
		f->secs[f->nr_secs].addr = sh.sh_addr;
		f->secs[f->nr_secs].size = sh.sh_size;
		f->secs[f->nr_secs].shndx = (uint32_t)elf_ndxscn(scn);
		f->nr_secs++;
	}
	if (each_candidate(elf, push_fn, f))
		goto fail;
	if (f->nr_fns > 1)
		qsort(f->fns, f->nr_fns, sizeof(*f->fns), fn_cmp);
	return f;
fail:
	sym_bfd_funcs__free(f);
	return NULL;
}

/* binutils' loop over the whole table, for files the index cannot serve */
struct linear_scan {
	uint64_t addr;
	uint32_t shndx;
	bool have;
	struct bfd_fn best;
};

static int linear_step(void *arg, const struct bfd_fn *c)
{
	struct linear_scan *l = arg;

	if (c->shndx != l->shndx)
		return 0;
	if (l->have ? better_fit(&l->best, c, l->addr) : c->off <= l->addr) {
		l->best = *c;
		l->have = c->name != NULL;
	}
	return 0;
}

/*
 * binutils' _bfd_elf_find_function(): the best fit (above) among the
 * function-like symbols of the section holding addr, in symbol table
 * order. Only the symbols starting at the closest start at or below addr
 * can win (each such one beats any starting lower, and the first of them
 * is taken whatever came before), so only those are weighed, in table
 * order.
 */
const char *sym_bfd_funcs__find(const struct sym_bfd_funcs *f, uint64_t addr,
				const char **file_name)
{
	const struct bfd_fn *best;
	uint32_t shndx = 0;
	size_t i, lo, hi, first, end;

	if (file_name)
		*file_name = NULL;
	/* addr2line looks only in the section holding the address */
	for (i = 0; i < f->nr_secs; i++) {
		if (addr >= f->secs[i].addr &&
		    addr < f->secs[i].addr + f->secs[i].size) {
			shndx = f->secs[i].shndx;
			break;
		}
	}
	if (!shndx)
		return NULL;
	if (f->linear) {
		struct linear_scan l = { .addr = addr, .shndx = shndx };

		each_candidate(f->elf, linear_step, &l);
		if (!l.have)
			return NULL;
		if (file_name)
			*file_name = l.best.file;
		return l.best.name;
	}
	/* the first symbol after the section's ones starting <= addr */
	lo = 0;
	hi = f->nr_fns;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct bfd_fn *m = &f->fns[mid];

		if (m->shndx < shndx || (m->shndx == shndx && m->off <= addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || f->fns[lo - 1].shndx != shndx)
		return NULL;
	end = lo;
	first = lo - 1;
	while (first && f->fns[first - 1].shndx == shndx &&
	       f->fns[first - 1].off == f->fns[end - 1].off)
		first--;
	best = &f->fns[first];
	for (i = first + 1; i < end; i++)
		if (better_fit(best, &f->fns[i], addr))
			best = &f->fns[i];
	if (file_name)
		*file_name = best->file;
	return best->name;
}
