// SPDX-License-Identifier: MIT
/*
 * Inline chains from DWARF through libdw (no libdwfl: the DSO's own
 * debug file is known already), as `addr2line -i -f -C` prints them:
 * the innermost function with the line of the address, then each
 * caller with the line of its call site, the out-of-line function last.
 * Function names: DW_AT_linkage_name (or the MIPS one) before DW_AT_name,
 * through abstract origins and specifications, demangled with
 * parameters as binutils' bfd_demangle(DMGL_PARAMS | DMGL_ANSI) does.
 * The Dwarf handle stays open per DSO.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/debuginfod.h>

#include "sym-internal.h"

struct sym_dwarf {
	int fd;
	Elf *elf;
	Dwarf *dw;
	/* the binary itself: its symbols name what DWARF does not */
	int sym_fd;
	Elf *sym_elf;
	struct sym_bfd_funcs *funcs;	/* its functions, indexed lazily */
	/* the strings handed out live until the DSO is freed */
	struct pd_arena names;
	/* chains already resolved, by address (open addressing) */
	struct inl_cached *cache;
	size_t cache_size, cache_nr;
	/* what libdw may come to hold of the file: see debug_bytes() */
	size_t debug_bytes;
};

struct inl_cached {
	uint64_t addr;
	int n;			/* 0: empty slot; -1: no frames */
	struct pd_inline_frame *frames;
};

void sym_inline__free(struct sym_dwarf *dw)
{
	if (!dw)
		return;
	if (dw->dw)
		dwarf_end(dw->dw);
	if (dw->elf)
		elf_end(dw->elf);
	if (dw->fd >= 0)
		close(dw->fd);
	sym_bfd_funcs__free(dw->funcs);
	if (dw->sym_elf)
		elf_end(dw->sym_elf);
	if (dw->sym_fd >= 0)
		close(dw->sym_fd);
	pd_arena_free(&dw->names);
	free(dw->cache);
	free(dw);
}

static struct inl_cached *cache_slot(struct sym_dwarf *dw, uint64_t addr)
{
	size_t i = (size_t)((addr * 0x9e3779b97f4a7c15ULL) >> 20) & (dw->cache_size - 1);

	while (dw->cache[i].n && dw->cache[i].addr != addr)
		i = (i + 1) & (dw->cache_size - 1);
	return &dw->cache[i];
}

/* Room for one more entry: the table doubles at half full. */
static int cache_reserve(struct sym_dwarf *dw)
{
	struct inl_cached *old = dw->cache;
	size_t i, old_size = dw->cache_size;

	if (dw->cache && dw->cache_nr * 2 < dw->cache_size)
		return 0;
	dw->cache_size = old_size ? old_size * 2 : 1024;
	dw->cache = calloc(dw->cache_size, sizeof(*dw->cache));
	if (!dw->cache) {
		dw->cache = old;
		dw->cache_size = old_size;
		return -ENOMEM;
	}
	for (i = 0; i < old_size; i++)
		if (old[i].n)
			*cache_slot(dw, old[i].addr) = old[i];
	free(old);
	return 0;
}

/*
 * libdw keeps no count of its memory: its abbreviations, units, line
 * tables and the decompressed copies of .zdebug sections grow with what
 * is read, up to about the size of the debug sections, which is what is
 * counted for it (an estimate, likely high for a file barely looked at).
 */
static size_t debug_bytes(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx, total = 0;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && (!strncmp(name, ".debug_", 7) ||
			     !strncmp(name, ".zdebug_", 8)))
			total += sh.sh_size;
	}
	return total;
}

size_t sym_inline__bytes(const struct sym_dwarf *dw)
{
	if (!dw)
		return 0;
	return sizeof(*dw) + dw->debug_bytes + dw->names.bytes +
	       dw->cache_size * sizeof(*dw->cache) +
	       sym_bfd_funcs__bytes(dw->funcs);
}

static struct sym_dwarf *dwarf_open_file(const char *path)
{
	struct sym_dwarf *dw;
	Dwarf_Off off, next;
	size_t hsize;

	dw = calloc(1, sizeof(*dw));
	if (!dw)
		return NULL;
	dw->sym_fd = -1;
	dw->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (dw->fd < 0)
		goto fail;
	elf_version(EV_CURRENT);
	dw->elf = elf_begin(dw->fd, ELF_C_READ_MMAP, NULL);
	if (!dw->elf)
		goto fail;
	dw->dw = dwarf_begin_elf(dw->elf, DWARF_C_READ, NULL);
	if (!dw->dw)
		goto fail;
	/* a file with only .debug_frame opens but has no units */
	off = 0;
	if (dwarf_nextcu(dw->dw, off, &next, &hsize, NULL, NULL, NULL))
		goto fail;
	dw->debug_bytes = debug_bytes(dw->elf);
	return dw;
fail:
	sym_inline__free(dw);
	return NULL;
}

/*
 * The symbols' file (a debug file when there is one), else the binary,
 * for DWARF; and for the function names where no unit covers an address,
 * the symbol table addr2line -e FILE reads where perf runs it: on the
 * symbols' file when that has a .symtab (perf's symsrc_filename), else
 * on the binary. A stripped binary beside its debug file (debuginfod,
 * /usr/lib/debug) so names what the unstripped binary names.
 */
static struct sym_dwarf *dso_dwarf(struct pd_dso *d)
{
	struct sym_dwarf *dw = NULL;
	const char *sym_file;

	if (d->dw_tried)
		return d->dw;
	d->dw_tried = true;
	if (d->symsrc)
		dw = dwarf_open_file(d->symsrc);
	if (!dw && d->runtime && (!d->symsrc || strcmp(d->runtime, d->symsrc)))
		dw = dwarf_open_file(d->runtime);
	/* a DSO from debuginfod without DWARF: its debug info from there */
	if (!dw && d->remote) {
		char path[4096];

		if (!sym_debuginfod_fetch(d, PD_DEBUGINFOD_DEBUGINFO, path,
					  sizeof(path)))
			dw = dwarf_open_file(path);
	}
	if (!dw) {
		dw = calloc(1, sizeof(*dw));
		if (!dw)
			return NULL;
		dw->fd = -1;
		dw->sym_fd = -1;
	}
	sym_file = d->symsrc && d->symsrc_symtab ? d->symsrc : d->runtime;
	if (sym_file) {
		dw->sym_fd = open(sym_file, O_RDONLY | O_CLOEXEC);
		if (dw->sym_fd >= 0)
			dw->sym_elf = elf_begin(dw->sym_fd, ELF_C_READ_MMAP, NULL);
	}
	d->dw = dw;
	return dw;
}

static bool find_cu(Dwarf *dw, uint64_t addr, Dwarf_Die *cu)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (dwarf_addrdie(dw, addr, cu))
		return true;
	/* no .debug_aranges entry: look through the units' ranges */
	while (!dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		if (dwarf_offdie(dw, off + hsize, cu) && dwarf_haspc(cu, addr) > 0)
			return true;
		off = next;
	}
	return false;
}

/*
 * binutils: DW_AT_name is taken as a linkage name in C and assembler
 * units only (mangle_style() == 0).
 */
static bool name_is_linkage(Dwarf_Die *cu)
{
	switch (dwarf_srclang(cu)) {
	case DW_LANG_C89:
	case DW_LANG_C:
	case DW_LANG_C99:
	case DW_LANG_C11:
	case DW_LANG_Mips_Assembler:
		return true;
	default:
		return false;
	}
}

/*
 * binutils' _bfd_elf_find_function() over the binary's symbols, with the
 * file name of the STT_FILE before the symbol (sym-bfd-func.c).
 */
static const char *elf_function_at(struct sym_dwarf *dw, uint64_t addr,
				   const char **file_name_out)
{
	if (!dw->sym_elf)
		return NULL;
	if (!dw->funcs)
		dw->funcs = sym_bfd_funcs__new(dw->sym_elf);
	if (!dw->funcs)
		return NULL;
	return sym_bfd_funcs__find(dw->funcs, addr, file_name_out);
}

static const char *die_name(struct sym_dwarf *dw, Dwarf_Die *die,
			    bool no_demangle, const char **perf_name,
			    Dwarf_Die *cu, uint64_t addr)
{
	static const int attrs[] = {
		DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name,
	};
	Dwarf_Attribute a;
	const char *raw = NULL;
	char *dem;
	size_t i;

	for (i = 0; i < PD_ARRAY_SIZE(attrs) && !raw; i++)
		if (dwarf_attr_integrate(die, attrs[i], &a))
			raw = dwarf_formstring(&a);
	/*
	 * binutils names the innermost function (cu given) by its ELF
	 * symbol when DWARF has no linkage name for it (C++ functions
	 * with internal linkage, clones)
	 */
	if (cu && (i - 1 == 2 || !raw) && !name_is_linkage(cu)) {
		const char *e = elf_function_at(dw, addr, NULL);

		if (e)
			raw = e;
	}
	*perf_name = NULL;
	if (!raw)
		return NULL;
	dem = no_demangle ? NULL : sym_demangle(raw);
	*perf_name = pd_arena_strndup(&dw->names, dem ? dem : raw, SIZE_MAX);
	free(dem);
	dem = sym_demangle_params(raw);
	raw = pd_arena_strndup(&dw->names, dem ? dem : raw, SIZE_MAX);
	free(dem);
	return raw;
}

/*
 * binutils' concat_filename(): a relative name (libdw gives "DIR/NAME"
 * with the line table's directory) goes under the unit's DW_AT_comp_dir.
 */
static const char *file_name(struct sym_dwarf *dw, Dwarf_Die *cu, const char *f)
{
	Dwarf_Attribute a;
	const char *comp = NULL;
	char *full;
	const char *ret;

	if (!f)
		return NULL;
	if (f[0] != '/' && dwarf_attr(cu, DW_AT_comp_dir, &a))
		comp = dwarf_formstring(&a);
	if (!comp)
		return pd_arena_strndup(&dw->names, f, SIZE_MAX);
	if (asprintf(&full, "%s/%s", comp, f) < 0)
		return NULL;
	ret = pd_arena_strndup(&dw->names, full, SIZE_MAX);
	free(full);
	return ret;
}

static const char *call_file(struct sym_dwarf *dw, Dwarf_Die *cu, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Word idx;
	Dwarf_Files *files;
	size_t nfiles;
	const char *f;

	if (!dwarf_attr(die, DW_AT_call_file, &a) || dwarf_formudata(&a, &idx))
		return NULL;
	if (dwarf_getsrcfiles(cu, &files, &nfiles) || idx >= nfiles)
		return NULL;
	f = dwarf_filesrc(files, idx, NULL, NULL);
	return file_name(dw, cu, f);
}

static unsigned int call_line(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Word v;

	if (!dwarf_attr(die, DW_AT_call_line, &a) || dwarf_formudata(&a, &v))
		return 0;
	return (unsigned int)v;
}

/*
 * No unit covers addr: binutils still names the function from the
 * binary's symbols, its file from the STT_FILE before a local symbol
 * ("crtstuff.c"), with no line.
 */
static int symtab_frame(struct pd_dso *d, struct sym_dwarf *dw, uint64_t addr,
			struct pd_inline_frame *frames)
{
	const char *file = NULL, *raw = elf_function_at(dw, addr, &file);
	char *dem;

	if (!raw)
		return 0;
	dem = d->s->opts.no_demangle ? NULL : sym_demangle(raw);
	frames[0].perf_name = pd_arena_strndup(&dw->names, dem ? dem : raw, SIZE_MAX);
	free(dem);
	dem = sym_demangle_params(raw);
	frames[0].function = pd_arena_strndup(&dw->names, dem ? dem : raw, SIZE_MAX);
	free(dem);
	frames[0].file = file ? pd_arena_strndup(&dw->names, file, SIZE_MAX) : NULL;
	frames[0].line = 0;
	return 1;
}

/*
 * binutils names an address after the covering function with the
 * smallest range, the last one in DWARF order on a tie, where libdw
 * finds the first. They differ where gas describes one piece of
 * assembler by a subprogram per alias (glibc's syscall stubs: __mprotect,
 * __GI___mprotect, mprotect, __GI_mprotect, all of one range): move die
 * to binutils' choice among its later siblings.
 */
static void alias_subprogram(Dwarf_Die *die, uint64_t addr)
{
	Dwarf_Addr lo, hi, best_lo, best_hi;
	Dwarf_Die sib = *die;

	if (dwarf_tag(die) != DW_TAG_subprogram ||
	    dwarf_lowpc(die, &best_lo) || dwarf_highpc(die, &best_hi))
		return;
	while (dwarf_siblingof(&sib, &sib) == 0) {
		if (dwarf_tag(&sib) != DW_TAG_subprogram ||
		    dwarf_lowpc(&sib, &lo) || dwarf_highpc(&sib, &hi))
			continue;
		if (addr < lo || addr >= hi || hi - lo > best_hi - best_lo)
			continue;
		*die = sib;
		best_lo = lo;
		best_hi = hi;
	}
}

static int resolve(struct pd_dso *d, struct sym_dwarf *dw, uint64_t addr,
		   struct pd_inline_frame *frames, int max)
{
	Dwarf_Die cu, *scopes = NULL;
	Dwarf_Line *line;
	const char *file = NULL;
	unsigned int lineno = 0;
	int nscopes, i, n = 0;

	if (!dw || max <= 0)
		return 0;
	if (!dw->dw || !find_cu(dw->dw, addr, &cu))
		return symtab_frame(d, dw, addr, frames);
	line = dwarf_getsrc_die(&cu, addr);
	if (line) {
		int ln = 0;
		const char *f = dwarf_linesrc(line, NULL, NULL);

		dwarf_lineno(line, &ln);
		lineno = ln > 0 ? (unsigned int)ln : 0;
		file = file_name(dw, &cu, f);
	}
	/*
	 * dwarf_getscopes() continues from an inline into its abstract
	 * definition; the callers are the concrete DIEs around the
	 * innermost function, which dwarf_getscopes_die() gives.
	 */
	nscopes = dwarf_getscopes(&cu, addr, &scopes);
	for (i = 0; i < nscopes; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine)
			break;
	}
	if (i < nscopes) {
		Dwarf_Die inner = scopes[i];

		if (dwarf_srclang(&cu) == DW_LANG_Mips_Assembler)
			alias_subprogram(&inner, addr);
		free(scopes);
		scopes = NULL;
		nscopes = dwarf_getscopes_die(&inner, &scopes);
	} else {
		nscopes = 0;	/* no function around addr */
	}
	for (i = 0; i < nscopes && n < max; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
			continue;
		frames[n].function = die_name(dw, &scopes[i],
					      d->s->opts.no_demangle,
					      &frames[n].perf_name,
					      n ? NULL : &cu, addr);
		frames[n].file = file;
		frames[n].line = lineno;
		n++;
		if (tag == DW_TAG_subprogram)
			break;
		/* the caller's frame is at this inline's call site */
		file = call_file(dw, &cu, &scopes[i]);
		lineno = call_line(&scopes[i]);
	}
	if (!n && (file || lineno)) {
		frames[0].function = NULL;
		frames[0].perf_name = NULL;
		frames[0].file = file;
		frames[0].line = lineno;
		n = 1;
	}
	free(scopes);
	return n;
}

#define INL_MAX 64

int sym_inline__frames(struct pd_dso *d, uint64_t addr,
		       struct pd_inline_frame *frames, int max)
{
	struct sym_dwarf *dw = dso_dwarf(d);
	struct pd_inline_frame tmp[INL_MAX];
	struct inl_cached *c;
	int n;

	if (!dw || max <= 0)
		return 0;
	if (cache_reserve(dw))
		return resolve(d, dw, addr, frames, max);
	c = cache_slot(dw, addr);
	if (!c->n) {
		n = resolve(d, dw, addr, tmp, INL_MAX);
		c->addr = addr;
		c->n = n > 0 ? n : -1;
		c->frames = n > 0 ? pd_arena_memdup(&dw->names, tmp, n * sizeof(*tmp)) : NULL;
		if (n > 0 && !c->frames) {
			c->n = 0;
			memcpy(frames, tmp, (n < max ? n : max) * sizeof(*tmp));
			return n < max ? n : max;
		}
		dw->cache_nr++;
	}
	if (c->n < 0)
		return 0;
	n = c->n < max ? c->n : max;
	memcpy(frames, c->frames, n * sizeof(*frames));
	return n;
}
