// SPDX-License-Identifier: MIT
/*
 * What the unwinder reads of the ELF files mapped in a process by itself,
 * not through libdwfl: a file's load layout, read once per file, and the
 * load bias of a map of it, which a file is reported to a Dwfl with; the
 * first load page perf's libunwind takes for the file's base, and what
 * it reads of .eh_frame_hdr; whether a
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
#include <sys/mman.h>
#include <sys/stat.h>
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

	/* (a report asks twice: the bias, then the tables) */
	if (u->last_layout < u->nr_layouts &&
	    u->layouts[u->last_layout].dso == dso)
		return &u->layouts[u->last_layout];
	for (i = 0; i < u->nr_layouts; i++) {
		if (u->layouts[i].dso == dso) {
			u->last_layout = i;
			return &u->layouts[i];
		}
	}
	if (u->nr_layouts == u->cap_layouts) {
		size_t cap = u->cap_layouts ? 2 * u->cap_layouts : 16;
		struct uw_layout *v = realloc(u->layouts, cap * sizeof(*v));

		if (!v)
			return NULL;
		u->layouts = v;
		u->cap_layouts = cap;
	}
	u->last_layout = u->nr_layouts;
	l = &u->layouts[u->nr_layouts++];
	memset(l, 0, sizeof(*l));
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

/* The first section named name: its header, as elf_section_by_name() */
static bool section(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, sh))
			continue;
		n = elf_strptr(elf, shstrndx, sh->sh_name);
		if (n && !strcmp(n, name))
			return true;
	}
	return false;
}

/*
 * perf's __dw_read_encoded_value() of the header's eh_frame_ptr and
 * fde_count, at *p before end: false where perf fails (-EINVAL). A
 * pc-relative value is relative to perf's own copy of the header: *val
 * is then garbage, and *garbage says so.
 */
static bool perf_encoded(const uint8_t **p, const uint8_t *end, uint8_t enc,
			 uint64_t *val, bool *garbage)
{
	unsigned int size;
	uint64_t v = 0;

	*val = 0;
	if (enc == 0xff)		/* DW_EH_PE_omit */
		return true;
	if (enc == 0x00) {		/* DW_EH_PE_ptr: an unsigned long */
		size = 8;
	} else {
		if ((enc & 0x70) == 0x10)	/* DW_EH_PE_pcrel */
			*garbage = true;
		else if (enc & 0x70)		/* not DW_EH_PE_absptr */
			return false;
		if (!(enc & 0x07))
			enc |= 0x03;		/* DW_EH_PE_udata4 */
		switch (enc & 0x0f) {
		case 0x03: case 0x0b:		/* udata4, sdata4 */
			size = 4;
			break;
		case 0x04: case 0x0c:		/* udata8, sdata8 */
			size = 8;
			break;
		default:
			return false;
		}
	}
	if ((size_t)(end - *p) < size)
		return false;
	if (size == 4) {
		uint32_t u;

		memcpy(&u, *p, 4);
		v = (enc & 0x0f) == 0x0b ? (uint64_t)(int64_t)(int32_t)u : u;
	} else {
		memcpy(&v, *p, 8);
	}
	*p += size;
	*val = v;
	return true;
}

/*
 * What perf reads of elf's .eh_frame_hdr, from raw (the file's bytes):
 * 20 bytes at the section's offset, the search table after the encoded
 * eh_frame_ptr and fde_count (unwind_spec_ehframe()), whose encoding
 * perf does not look at (8-byte entries); and where .eh_frame is.
 */
static void read_eh_hdr(Elf *elf, const uint8_t *raw, size_t raw_size,
			struct uw_eh_hdr *h)
{
	const uint8_t *p, *end;
	GElf_Shdr sh;
	uint64_t ptr;
	bool garbage = false, garbage_count = false;

	memset(h, 0, sizeof(*h));
	/* (without the file's bytes, libdw's answers stand) */
	if (!raw || !section(elf, ".eh_frame_hdr", &sh) || !sh.sh_offset)
		return;
	h->present = true;
	h->addr = sh.sh_addr;
	h->off = sh.sh_offset;
	h->size = sh.sh_size;
	if (section(elf, ".eh_frame", &sh)) {
		h->ehf_addr = sh.sh_addr;
		h->ehf_off = sh.sh_offset;
		h->ehf_size = sh.sh_size;
	}
	h->bad = true;
	if (h->off > raw_size || raw_size - h->off < 20)
		return;
	p = raw + h->off + 4;
	end = raw + h->off + 20;
	if (!perf_encoded(&p, end, raw[h->off + 1], &ptr, &garbage) ||
	    !perf_encoded(&p, end, raw[h->off + 2], &h->fde_count,
			  &garbage_count) || garbage_count)
		return;
	h->table_off = (uint64_t)(p - (raw + h->off));
	h->bad = false;
}

/*
 * What module m, a report of dso whose ELF image is elf, reads of the
 * file's sections: whether it has unwind tables (.eh_frame_hdr or
 * .debug_frame, also in a separate debug file), perf's
 * elf_base_address() and .eh_frame_hdr as perf reads it; read once per
 * file, with its layout.
 */
void pd__uw_file_tables(struct pd_unwinder *u, struct pd_dso *dso, Elf *elf,
			struct uw_mod *m)
{
	struct uw_layout *l = (struct uw_layout *)dso_layout(u, dso);
	struct uw_layout tmp;

	if (!l) {
		memset(&tmp, 0, sizeof(tmp));
		l = &tmp;
	}
	if (!l->tables_read) {
		l->elf_base = pd__uw_first_load_page(elf);
		read_eh_hdr(elf, m->raw, m->raw_size, &l->eh);
		l->has_tables = sym_elf__has_section(elf, ".eh_frame_hdr", 0) ||
				sym_elf__has_section(elf, ".debug_frame", 0) ||
				(dso->symsrc && strcmp(dso->symsrc, dso->runtime) &&
				 pd__uw_file_has_section(dso->symsrc, ".debug_frame"));
		l->tables_read = true;
	}
	m->elf_base = l->elf_base;
	m->eh = l->eh;
	m->has_tables = l->has_tables;
}

/*
 * The bytes of dso's file, mapped once per unwinder (pd__unwinder_free()
 * unmaps them): false when it does not map.
 */
bool pd__uw_file_bytes(struct pd_unwinder *u, struct pd_dso *dso,
		       const uint8_t **raw, size_t *size)
{
	struct uw_layout *l = (struct uw_layout *)dso_layout(u, dso);
	struct stat st;
	void *p;
	int fd;

	if (!l)
		return false;
	if (!l->raw_tried) {
		uint64_t lo, hi;
		size_t n = 0;
		Elf *elf = pd__uw_shared_elf(u, dso, &lo, &hi);

		l->raw_tried = true;
		/* the reports' file: its mapping, not another */
		if (elf && (l->raw = (const uint8_t *)elf_rawfile(elf, &n))) {
			l->raw_size = n;
			l->raw_shared = true;
			goto out;
		}
		fd = open(dso->runtime, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 && !fstat(fd, &st) && st.st_size > 0) {
			p = mmap(NULL, (size_t)st.st_size, PROT_READ,
				 MAP_PRIVATE, fd, 0);
			if (p != MAP_FAILED) {
				l->raw = p;
				l->raw_size = (size_t)st.st_size;
			}
		}
		if (fd >= 0)
			close(fd);
	}
out:
	*raw = l->raw;
	*size = l->raw_size;
	return l->raw;
}

/*
 * dwfl_report_elf()'s range for a file reported with load bias 0: from
 * the page of its first PT_LOAD to the end of its last one (in table
 * order, as libdwfl takes them)
 */
static bool dwfl_range(Elf *elf, uint64_t *lo, uint64_t *hi)
{
	bool first = true;
	size_t i, phnum;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &phnum))
		return false;
	for (i = 0; i < phnum; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (first)
			*lo = ph.p_vaddr & -ph.p_align;
		first = false;
		*hi = ph.p_vaddr + ph.p_memsz;
	}
	return !first && *hi > *lo;
}

/*
 * dso's file, opened once per unwinder for the Dwfls of all processes
 * (each module takes a reference: elf_begin() of it), and *lo, *hi where
 * a report of it lies less its load bias; NULL when it does not open.
 * Before, each process's Dwfl opened, mapped and unmapped every file
 * again: a tenth of the unwinding of a system-wide profile of many short
 * processes.
 */
Elf *pd__uw_shared_elf(struct pd_unwinder *u, struct pd_dso *dso,
		       uint64_t *lo, uint64_t *hi)
{
	struct uw_layout *l = (struct uw_layout *)dso_layout(u, dso);
	Elf *elf = NULL;
	int fd;

	if (!l)
		return NULL;
	if (!l->shared_tried) {
		l->shared_tried = true;
		fd = open(dso->runtime, O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		/* all of it in memory (mapped), its descriptor closed: a
		 * system-wide profile maps more files than it may open */
		if (elf && elf_kind(elf) == ELF_K_ELF &&
		    !elf_cntl(elf, ELF_C_FDREAD) &&
		    dwfl_range(elf, &l->dw_lo, &l->dw_hi))
			l->shared = elf;
		else
			elf_end(elf);
		if (fd >= 0)
			close(fd);
	}
	*lo = l->dw_lo;
	*hi = l->dw_hi;
	return l->shared;
}

void pd__uw_layouts_free(struct pd_unwinder *u)
{
	size_t i;

	for (i = 0; i < u->nr_layouts; i++) {
		if (u->layouts[i].raw && !u->layouts[i].raw_shared)
			munmap((void *)u->layouts[i].raw, u->layouts[i].raw_size);
		elf_end(u->layouts[i].shared);
	}
	free(u->layouts);
	u->layouts = NULL;
	u->nr_layouts = u->cap_layouts = 0;
}
