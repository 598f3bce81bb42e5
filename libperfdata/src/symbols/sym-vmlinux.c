// SPDX-License-Identifier: MIT
/*
 * Kernel symbols from a vmlinux (--vmlinux=FILE), the way perf 6.1's
 * dso__load_vmlinux() reads one: symsrc__init() (an ELF whose build id
 * equals the recording kernel's, when the recording has one), then
 * dso__load_sym() with dso__process_kernel_symbol():
 *  - no .symtab, no symbols ("the vmlinux runtime symbols aren't of much
 *    use"; with --vmlinux perf falls back to nothing);
 *  - the symbols kept are those of any ELF DSO: named functions and
 *    objects, and labels (NOTYPE, not ABS) of sections named *text*, in
 *    allocated sections; kernel names are not demangled;
 *  - relocation (KASLR): the recording's kernel map is named
 *    "[kernel.kallsyms]_text" with pgoff the running address of _text
 *    (perf's ref_reloc_sym); the vmlinux's own _text gives the offset
 *    added to every symbol (none when the pgoff is 0, kptr_restrict, or
 *    the vmlinux has no such symbol);
 *  - .text symbols belong to the kernel map, which perf moves to the
 *    relocated .text section, [sh_addr, sh_addr + sh_size): other kernel
 *    addresses have no map;
 *  - a symbol of another section goes to a map of its own covering that
 *    relocated section, whose DSO perf script prints as
 *    "[kernel.kallsyms]" + section name ("[kernel.kallsyms].init.text");
 *    their symbols keep their ELF sizes (symbols__fixup_end() and
 *    fixup_duplicate() run on the kernel DSO's symbols only).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sym-internal.h"

static const char *section_name(Elf *elf, size_t shstrndx, const GElf_Shdr *sh)
{
	const char *name = elf_strptr(elf, shstrndx, sh->sh_name);

	return name ? name : "";
}

/* perf's elf_sym__is_label() and elf_sym__filter() */
static bool wanted(const GElf_Sym *sym, bool *label)
{
	unsigned int type = GELF_ST_TYPE(sym->st_info);

	if (!sym->st_name || sym->st_shndx == SHN_UNDEF)
		return false;
	*label = type == STT_NOTYPE && sym->st_shndx != SHN_ABS;
	return *label || type == STT_FUNC || type == STT_GNU_IFUNC ||
	       type == STT_OBJECT;
}

/* The index of the map named "[kernel.kallsyms]SECTION", added once. */
static int section_map(struct pd_dso *d, const char *sec, const GElf_Shdr *sh,
		       uint64_t reloc)
{
	struct sym_kernel_section *ks;
	char *name, **m;
	size_t i;

	if (asprintf(&name, "%s%s", d->path, sec) < 0)
		return -ENOMEM;
	for (i = 0; i < d->nr_modules; i++)
		if (!strcmp(d->modules[i], name)) {
			free(name);
			return (int)i + 1;
		}
	m = realloc(d->modules, (d->nr_modules + 1) * sizeof(*m));
	if (m)
		d->modules = m;
	ks = realloc(d->ksecs, (d->nr_modules + 1) * sizeof(*ks));
	if (ks)
		d->ksecs = ks;
	if (!m || !ks || d->nr_modules >= UINT16_MAX - 1) {
		free(name);
		return m && ks ? 0 : -ENOMEM;
	}
	ks[d->nr_modules].start = sh->sh_addr + reloc;
	ks[d->nr_modules].end = sh->sh_addr + reloc + sh->sh_size;
	ks[d->nr_modules].root = -1;
	m[d->nr_modules] = name;
	return (int)++d->nr_modules;
}

/* The value of the first symbol named name, or 0 (perf: no reloc). */
static uint64_t ref_value(Elf *elf, Elf_Data *syms, Elf_Data *strs, size_t nr,
			  const char *name)
{
	GElf_Sym sym;
	size_t i;

	for (i = 0; i < nr; i++) {
		if (!gelf_getsym(syms, (int)i, &sym))
			break;
		if (sym.st_name < strs->d_size &&
		    !strcmp((const char *)strs->d_buf + sym.st_name, name))
			return sym.st_value;
	}
	return 0;
}

/* perf's trees of the section DSOs, by module index (0 unused) */
static const struct sym_rbtree empty_tree = { .root = -1 };

struct sec_trees {
	struct sym_rbtree *t;
	size_t nr;
};

static int sec_trees__reserve(struct sec_trees *st, size_t n)
{
	struct sym_rbtree *t;

	if (n <= st->nr)
		return 0;
	t = realloc(st->t, n * sizeof(*t));
	if (!t)
		return -ENOMEM;
	st->t = t;
	for (; st->nr < n; st->nr++)
		sym_rbtree__init(&t[st->nr]);
	return 0;
}

static void sec_trees__release(struct sec_trees *st)
{
	size_t i;

	for (i = 0; i < st->nr; i++)
		sym_rbtree__release(&st->t[i]);
	free(st->t);
}

/*
 * Lookups follow perf's trees: the kernel DSO's for .text, each
 * section's own in its map. Nodes are the symbols' seq numbers, unique
 * across the trees. Without any tree (out of memory), by address.
 */
static int set_trees(struct pd_dso *d, const struct sym_vec *sv,
		     const struct sym_rbtree *main, const struct sec_trees *st)
{
	const struct sym_rbtree **trees;
	int32_t *roots;
	size_t i, n = st->nr > 1 + d->nr_modules ? st->nr : 1 + d->nr_modules;
	int ret = -ENOMEM;

	if (main->failed)
		return 0;
	for (i = 1; i < st->nr; i++)
		if (st->t[i].failed)
			return 0;
	trees = calloc(n, sizeof(*trees));
	roots = calloc(n, sizeof(*roots));
	if (!trees || !roots)
		goto out;
	/* a section without a tree of its own has no symbols: an empty one */
	trees[0] = main;
	for (i = 1; i < n; i++)
		trees[i] = i < st->nr ? &st->t[i] : &empty_tree;
	ret = sym_dso__link_trees(d, sv, trees, n, roots);
	if (!ret) {
		d->sym_root = roots[0];
		for (i = 0; i < d->nr_modules; i++)
			d->ksecs[i].root = roots[i + 1];
	}
out:
	free(trees);
	free(roots);
	return ret;
}

/* 0, 1 when perf gives up part way, or -ENOMEM. */
static int read_symbols(struct pd_dso *d, Elf *elf, const char *ref_name,
			uint64_t ref_addr, struct sym_vec *sv,
			struct sym_vec *other, struct sec_trees *trees)
{
	GElf_Shdr symsh, strsh, sh;
	Elf_Scn *scn = NULL, *symtab = NULL;
	Elf_Data *syms, *strs;
	uint64_t reloc = 0, unrelocated;
	size_t shstrndx, i, nr;
	bool text_seen = false;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return 0;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) &&
		    !strcmp(section_name(elf, shstrndx, &sh), ".symtab")) {
			symtab = sh.sh_type == SHT_SYMTAB ? scn : NULL;
			break;
		}
	if (!symtab || !gelf_getshdr(symtab, &symsh) || !symsh.sh_entsize)
		return 0;
	syms = elf_getdata(symtab, NULL);
	scn = elf_getscn(elf, symsh.sh_link);
	strs = scn && gelf_getshdr(scn, &strsh) ? elf_getdata(scn, NULL) : NULL;
	if (!syms || !strs)
		return 0;
	nr = symsh.sh_size / symsh.sh_entsize;
	if (ref_name && ref_addr) {
		unrelocated = ref_value(elf, syms, strs, nr, ref_name);
		if (unrelocated)
			reloc = ref_addr - unrelocated;
	}
	/* where the reference symbols went (pd_dso__kernel_ref()) */
	unrelocated = ref_value(elf, syms, strs, nr, "_text");
	d->ref_text = unrelocated ? unrelocated + reloc : 0;
	unrelocated = ref_value(elf, syms, strs, nr, "_stext");
	d->ref_stext = unrelocated ? unrelocated + reloc : 0;
	for (i = 0; i < nr; i++) {
		GElf_Sym sym;
		const char *sec, *name;
		bool label;
		int mod = 0;

		if (!gelf_getsym(syms, (int)i, &sym))
			break;
		if (!wanted(&sym, &label) || sym.st_name >= strs->d_size)
			continue;
		scn = elf_getscn(elf, sym.st_shndx);
		/* perf stops at a symbol of no section (SHN_ABS): what it
		 * read stays, without the fix-ups */
		if (!scn || !gelf_getshdr(scn, &sh))
			return 1;
		if (!(sh.sh_flags & SHF_ALLOC))
			continue;
		sec = section_name(elf, shstrndx, &sh);
		if (label && !strstr(sec, "text"))
			continue;
		if (!strcmp(sec, ".text")) {
			/* the first .text symbol moves the kernel map */
			if (!text_seen) {
				text_seen = true;
				d->vmlinux_text = true;
				d->text_start = sh.sh_addr + reloc;
				d->text_end = sh.sh_addr + reloc + sh.sh_size;
			}
		} else {
			mod = section_map(d, sec, &sh, reloc);
			if (mod < 0)
				return mod;
		}
		name = pd_arena_strndup(&d->arena,
					(const char *)strs->d_buf + sym.st_name,
					SIZE_MAX);
		if (!name)
			return -ENOMEM;
		if (mod) {
			/* each section's DSO has its own tree in perf; the
			 * node numbers (seq) are shared with the kernel's */
			if (sec_trees__reserve(trees, (size_t)mod + 1))
				return -ENOMEM;
			other->next_seq = sv->next_seq;
			other->tree = &trees->t[mod];
			if (sym_vec__push(other, sym.st_value + reloc,
					  sym.st_size,
					  GELF_ST_BIND(sym.st_info), name))
				return -ENOMEM;
			sv->next_seq = other->next_seq;
			other->v[other->nr - 1].module = (uint16_t)mod;
		} else if (sym_vec__push(sv, sym.st_value + reloc, sym.st_size,
					 GELF_ST_BIND(sym.st_info), name)) {
			return -ENOMEM;
		}
	}
	return 0;
}

int sym_vmlinux__load(struct pd_dso *d, const char *path, const char *ref_name,
		      uint64_t ref_addr)
{
	struct sym_rbtree tree;
	struct sym_vec sv = { .tree = &tree }, other = { 0 };
	struct sec_trees st = { 0 };
	uint8_t bid[PD_BUILD_ID_MAX];
	Elf *elf = NULL;
	int fd, n, ret = 0;

	sym_rbtree__init(&tree);
	elf_version(EV_CURRENT);
	if (!sym_is_regular_file(path))
		return 0;
	d->found_file = true;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		d->not_elf = true;
		goto out;
	}
	/* symsrc__init(): always reject an image of another build id */
	if (d->has_build_id) {
		n = sym_elf__build_id(elf, bid, sizeof(bid));
		if (n <= 0 || !sym_build_id_equal(d, bid, n > PD_BUILD_ID_MAX ?
						  PD_BUILD_ID_MAX : (size_t)n)) {
			d->mismatch = strdup(path);
			ret = d->mismatch ? 0 : -ENOMEM;
			goto out;
		}
	}
	ret = read_symbols(d, elf, ref_name, ref_addr, &sv, &other, &st);
	if (ret < 0)
		goto out;
	sym_vec__sort(&sv);
	if (!ret && sv.nr + other.nr) {
		sym_vec__fixup_end(&sv, false);
		sym_vec__fixup_duplicate(&sv);
	}
	ret = 0;
	if (other.nr) {
		/* one array; the section symbols keep their seq numbers */
		struct sym_new *v = realloc(sv.v, (sv.nr + other.nr) * sizeof(*v));

		if (!v) {
			ret = -ENOMEM;
			goto out;
		}
		sv.v = v;
		memcpy(v + sv.nr, other.v, other.nr * sizeof(*v));
		sv.nr += other.nr;
		sv.alloc = sv.nr;
		sym_vec__sort(&sv);
		sv.tree = NULL;
	}
	ret = sym_dso__set_symbols(d, &sv);
	if (!ret && other.nr && d->nr_syms)
		ret = set_trees(d, &sv, &tree, &st);
	d->loaded = d->nr_syms > 0;
	if (!ret) {
		d->symsrc = strdup(path);
		if (!d->symsrc)
			ret = -ENOMEM;
	}
out:
	free(sv.v);
	free(other.v);
	sym_rbtree__release(&tree);
	sec_trees__release(&st);
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}
