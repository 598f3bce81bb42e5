// SPDX-License-Identifier: MIT
/*
 * What the unwinder reads of the ELF files mapped in a process by itself,
 * not through libdwfl: a file's load layout, read once per file, and the
 * load bias of a map of it, which a file is reported to a Dwfl with; the
 * first load page perf's libunwind takes for the file's base; whether a
 * separate debug file has .debug_frame; and the files libdwfl cannot
 * take (struct uw_stray), opened once. Kept apart from the reporting
 * (unwind-space.c): these answers are the file's, the same in every
 * process.
 */
#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unwind-elf.h"

/* The stray file of dso, opened once; NULL when it does not open. */
struct uw_stray *pd__uw_stray_file(struct pd_unwinder *u, struct pd_dso *dso)
{
	struct uw_stray *st;
	unsigned int i;
	size_t size = 0;

	for (i = 0; i < u->nr_strays; i++)
		if (u->strays[i].dso == dso)
			return u->strays[i].raw ? &u->strays[i] : NULL;
	if (u->nr_strays == MAX_STRAYS)
		return NULL;
	st = &u->strays[u->nr_strays++];
	memset(st, 0, sizeof(*st));
	st->dso = dso;
	st->fd = open(dso->runtime, O_RDONLY | O_CLOEXEC);
	if (st->fd >= 0)
		st->elf = elf_begin(st->fd, ELF_C_READ_MMAP, NULL);
	if (st->elf)
		st->raw = (const uint8_t *)elf_rawfile(st->elf, &size);
	st->raw_size = st->raw ? size : 0;
	if (st->raw)
		st->cfi = dwarf_getcfi_elf(st->elf);
	return st->raw ? st : NULL;
}

bool pd__uw_file_has_section(const char *path, const char *name)
{
	bool ret = false;
	Elf *elf;
	int fd;

	if (!path)
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf)
		ret = sym_elf__has_section(elf, name, 0);
	elf_end(elf);
	close(fd);
	return ret;
}

/*
 * What pd__uw_map_bias() needs of elf into *l; false for a file without
 * it.
 */
static bool read_layout(Elf *elf, struct uw_layout *l)
{
	GElf_Ehdr eh;
	size_t i, phnum;

	l->elf = false;
	l->many = false;
	l->nr_loads = 0;
	if (!elf || !gelf_getehdr(elf, &eh))
		return false;
	l->machine = eh.e_machine;
	l->class = eh.e_ident[EI_CLASS];
	l->type = eh.e_type;
	if (eh.e_type != ET_EXEC && elf_getphdrnum(elf, &phnum))
		return false;
	for (i = 0; eh.e_type != ET_EXEC && i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (l->nr_loads == UW_MAX_LOADS) {
			l->many = true;
			return false;
		}
		l->loads[l->nr_loads].offset = ph.p_offset;
		l->loads[l->nr_loads].filesz = ph.p_filesz;
		l->loads[l->nr_loads].vaddr = ph.p_vaddr;
		l->nr_loads++;
	}
	l->elf = true;
	return true;
}

/*
 * The load bias of the file mapped by map: the file offset pgoff lies in
 * one PT_LOAD, whose vaddr - offset says where the file's addresses are.
 * ET_EXEC files are at their own addresses. -1 (false) when no segment
 * holds pgoff or the file is for another machine.
 */
static bool layout_bias(const struct pd_unwind_arch *a,
			const struct uw_layout *l, const struct pd_map *map,
			uint64_t *bias)
{
	unsigned int i;

	if (!l->elf || l->machine != a->e_machine || l->class != a->elf_class)
		return false;
	if (l->type == ET_EXEC) {
		*bias = 0;
		return true;
	}
	for (i = 0; i < l->nr_loads; i++) {
		uint64_t off = l->loads[i].offset & ~(uint64_t)0xfff;

		if (map->pgoff < off ||
		    map->pgoff >= l->loads[i].offset + l->loads[i].filesz)
			continue;
		*bias = map->start - map->pgoff -
			(l->loads[i].vaddr - l->loads[i].offset);
		return true;
	}
	return false;
}

bool pd__uw_map_bias(const struct pd_unwind_arch *a, Elf *elf,
		     const struct pd_map *map, uint64_t *bias)
{
	GElf_Ehdr eh;
	size_t i, phnum;

	if (!gelf_getehdr(elf, &eh) || eh.e_machine != a->e_machine ||
	    eh.e_ident[EI_CLASS] != a->elf_class)
		return false;
	if (eh.e_type == ET_EXEC) {
		*bias = 0;
		return true;
	}
	if (elf_getphdrnum(elf, &phnum))
		return false;
	for (i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		uint64_t off;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		off = ph.p_offset & ~(uint64_t)0xfff;
		if (map->pgoff < off || map->pgoff >= ph.p_offset + ph.p_filesz)
			continue;
		*bias = map->start - map->pgoff - (ph.p_vaddr - ph.p_offset);
		return true;
	}
	return false;
}

/* dso's layout, read when first asked for; NULL without memory. */
static const struct uw_layout *dso_layout(struct pd_unwinder *u,
					  struct pd_dso *dso)
{
	struct uw_layout *l;
	Elf *elf = NULL;
	size_t i;
	int fd;

	for (i = 0; i < u->nr_layouts; i++)
		if (u->layouts[i].dso == dso)
			return &u->layouts[i];
	if (u->nr_layouts == u->cap_layouts) {
		size_t cap = u->cap_layouts ? 2 * u->cap_layouts : 16;
		struct uw_layout *v = realloc(u->layouts, cap * sizeof(*v));

		if (!v)
			return NULL;
		u->layouts = v;
		u->cap_layouts = cap;
	}
	l = &u->layouts[u->nr_layouts++];
	l->dso = dso;
	fd = open(dso->runtime, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	read_layout(elf, l);
	elf_end(elf);
	if (fd >= 0)
		close(fd);
	return l;
}

/* pd__uw_map_bias() of the file dso, from its layout when it has one */
bool pd__uw_dso_bias(struct pd_unwinder *u, const struct pd_unwind_arch *a,
		     struct pd_dso *dso, const struct pd_map *map,
		     uint64_t *bias)
{
	const struct uw_layout *l = dso_layout(u, dso);
	bool ret = false;
	Elf *elf;
	int fd;

	if (l && !l->many)
		return layout_bias(a, l, map, bias);
	fd = open(dso->runtime, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf)
		ret = pd__uw_map_bias(a, elf, map, bias);
	elf_end(elf);
	close(fd);
	return ret;
}

/* perf's elf_base_address(): the first PT_LOAD's vaddr, page aligned */
uint64_t pd__uw_first_load_page(Elf *elf)
{
	size_t i, phnum;

	if (elf_getphdrnum(elf, &phnum))
		return 0;
	for (i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			return ph.p_vaddr & ~(uint64_t)4095;
	}
	return 0;
}
