// SPDX-License-Identifier: MIT
/*
 * ELF symbol tables, chosen and read the way perf 6.1's dso__load(),
 * symsrc__init() and dso__load_sym() do, so that names match what
 * `perf script` prints.
 *
 * Candidate files are tried in perf's order (binary_type_symtab[]):
 * .gnu_debuglink, build-id cache (elf, then debug), /usr/lib/debug/PATH
 * .debug, /usr/lib/debug/PATH, /usr/lib/debug/.build-id/xx/rest.debug,
 * the file itself, DIR/.debug/NAME; then the same places in each --root
 * tree, for a DSO whose build id is known; then, for a DSO none of whose
 * files is here, debuginfod servers (executable, then debug info for a
 * .symtab). A file whose build id differs from the DSO's is skipped.
 * The first with a .symtab gives the symbols, the first with a .dynsym
 * is the "runtime" image (program headers, PLT); either stands in for
 * the other when missing. A DSO whose mapped file was found to be
 * another than the one at its path (sym-mapped.c) looks for none.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/debuginfod.h>

#include "sym-internal.h"

struct symsrc {
	char path[4096];
	int fd;
	Elf *elf;
	GElf_Ehdr ehdr;
	Elf_Scn *symtab, *dynsym;
	size_t dynsym_idx;
};

static void symsrc_close(struct symsrc *ss)
{
	if (ss->elf)
		elf_end(ss->elf);
	if (ss->fd >= 0)
		close(ss->fd);
	ss->elf = NULL;
	ss->fd = -1;
}

static Elf_Scn *section_by_name(Elf *elf, const GElf_Ehdr *eh, GElf_Shdr *sh,
				const char *name, size_t *idx)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return NULL;
	if (!elf_rawdata(elf_getscn(elf, shstrndx), NULL))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *s;

		if (!gelf_getshdr(scn, sh))
			continue;
		s = elf_strptr(elf, shstrndx, sh->sh_name);
		if (s && !strcmp(s, name)) {
			if (idx)
				*idx = elf_ndxscn(scn);
			return scn;
		}
	}
	return NULL;
}

/* perf's elf_read_build_id(): the first of these note sections. */
int sym_elf__build_id(Elf *elf, uint8_t *bid, size_t size)
{
	static const char *const names[] = { ".note.gnu.build-id", ".notes", ".note" };
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf_Scn *scn = NULL;
	Elf_Data *data;
	GElf_Nhdr nh;
	size_t i, off = 0, name_off, desc_off;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return -1;
	for (i = 0; i < PD_ARRAY_SIZE(names) && !scn; i++)
		scn = section_by_name(elf, &eh, &sh, names[i], NULL);
	if (!scn || !(data = elf_getdata(scn, NULL)))
		return -1;
	while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((char *)data->d_buf + name_off, "GNU", 4)) {
			size_t n = nh.n_descsz < size ? nh.n_descsz : size;

			memcpy(bid, (char *)data->d_buf + desc_off, n);
			memset(bid + n, 0, size - n);
			return (int)nh.n_descsz;
		}
	}
	return -1;
}

int sym_elf__read_build_id(const char *path, uint8_t *bid, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;
	Elf *elf;

	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf) {
		ret = sym_elf__build_id(elf, bid, size);
		elf_end(elf);
	}
	close(fd);
	return ret;
}

PD_EXPORT int pd_elf_build_id(const char *path, uint8_t *bid, size_t max)
{
	elf_version(EV_CURRENT);
	return sym_elf__read_build_id(path, bid, max);
}

/* perf's dso__build_id_equal(): a recorded 20-byte id may be a shorter
 * one padded with zeros. */
bool sym_build_id_equal(const struct pd_dso *d, const uint8_t *bid, size_t n)
{
	size_t i;

	if (d->build_id_size > n && d->build_id_size == PD_BUILD_ID_MAX) {
		if (memcmp(d->build_id, bid, n))
			return false;
		for (i = n; i < d->build_id_size; i++)
			if (d->build_id[i])
				return false;
		return true;
	}
	return d->build_id_size == n && !memcmp(d->build_id, bid, n);
}

/* perf's symsrc__init(). */
static int symsrc_open(struct pd_dso *d, struct symsrc *ss)
{
	GElf_Shdr sh;

	ss->fd = open(ss->path, O_RDONLY | O_CLOEXEC);
	if (ss->fd < 0)
		return -1;
	ss->elf = elf_begin(ss->fd, ELF_C_READ_MMAP, NULL);
	if (!ss->elf || elf_kind(ss->elf) != ELF_K_ELF ||
	    !gelf_getehdr(ss->elf, &ss->ehdr))
		goto fail;
	if (d->has_build_id) {
		uint8_t bid[PD_BUILD_ID_MAX];
		int n = sym_elf__build_id(ss->elf, bid, sizeof(bid));

		if (n <= 0 || !sym_build_id_equal(d, bid, n > PD_BUILD_ID_MAX ?
					      PD_BUILD_ID_MAX : (size_t)n)) {
			if (!d->mismatch)
				d->mismatch = strdup(ss->path);
			goto fail;
		}
	}
	ss->symtab = section_by_name(ss->elf, &ss->ehdr, &sh, ".symtab", NULL);
	if (ss->symtab && sh.sh_type != SHT_SYMTAB)
		ss->symtab = NULL;
	ss->dynsym = section_by_name(ss->elf, &ss->ehdr, &sh, ".dynsym",
				     &ss->dynsym_idx);
	if (ss->dynsym && sh.sh_type != SHT_DYNSYM)
		ss->dynsym = NULL;
	return 0;
fail:
	symsrc_close(ss);
	return -1;
}

static void bid_hex(const struct pd_dso *d, char *hex)
{
	size_t i;

	for (i = 0; i < d->build_id_size; i++)
		sprintf(hex + 2 * i, "%02x", d->build_id[i]);
	hex[2 * d->build_id_size] = '\0';
}

enum cand {
	CAND_DEBUGLINK,
	CAND_BUILDID_CACHE,
	CAND_BUILDID_CACHE_DEBUG,
	CAND_FEDORA,
	CAND_UBUNTU,
	CAND_BUILDID_DEBUGINFO,
	CAND_SYSTEM_PATH,
	CAND_OPENEMBEDDED,
	/*
	 * not perf's: perf's places in each --root tree, for a DSO with a
	 * build id (all of them, root by root)
	 */
	CAND_ROOT_DEBUGLINK,
	CAND_ROOT_FEDORA,
	CAND_ROOT_UBUNTU,
	CAND_ROOT_BUILDID_DEBUGINFO,
	CAND_ROOT_SYSTEM_PATH,
	/* not perf's: from debuginfod, when nothing above was found */
	CAND_DEBUGINFOD,
	CAND_DEBUGINFOD_DEBUG,
	CAND_NR,
};

/* perf's filename__read_debuglink(). */
static int read_debuglink(const char *path, char *out, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf_Data *data;
	Elf *elf;

	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && gelf_getehdr(elf, &eh) &&
	    (scn = section_by_name(elf, &eh, &sh, ".gnu_debuglink", NULL)) &&
	    (data = elf_getdata(scn, NULL)) && data->d_size) {
		size_t n = strnlen(data->d_buf, data->d_size);

		if (n < size) {
			memcpy(out, data->d_buf, n);
			out[n] = '\0';
			ret = 0;
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

/*
 * perf's debuglink_paths[] for the file at tmp (its directory DIR,
 * prefixed): the name as is (from the current directory), DIR/,
 * DIR/.debug/, /usr/lib/debug/DIR/; in a root (top, its length) the
 * first is not tried, and the last is the root's /usr/lib/debug/.
 */
static int debuglink_path(char *tmp, size_t top, char *buf, size_t size)
{
	char link[4096];
	const char *slash;
	size_t len;
	int i;

	if (!sym_is_regular_file(tmp) || read_debuglink(tmp, link, sizeof(link)))
		return -1;
	slash = strrchr(tmp, '/');
	len = slash ? (size_t)(slash - tmp) : 0;
	tmp[len] = '\0';
	for (i = top ? 1 : 0; i < 4; i++) {
		int n;

		if (i == 0)
			n = snprintf(buf, size, "%s", link);
		else if (i == 1)
			n = snprintf(buf, size, "%s/%s", tmp, link);
		else if (i == 2)
			n = snprintf(buf, size, "%s/.debug/%s", tmp, link);
		else
			n = snprintf(buf, size, "%.*s/usr/lib/debug%s/%s",
				     (int)top, tmp, tmp + top, link);
		if (n > 0 && (size_t)n < size && sym_is_regular_file(buf))
			return 0;
	}
	return -1;
}

/* The root-th --root's candidate of kind c (CAND_ROOT_*). */
static int root_cand_path(struct pd_dso *d, enum cand c, size_t root,
			  char *buf, size_t size)
{
	struct pd_symbolizer *s = d->s;
	char tmp[4096], hex[2 * PD_BUILD_ID_MAX + 1];

	if (d->path[0] != '/')
		return -1;
	switch (c) {
	case CAND_ROOT_DEBUGLINK:
		if (sym_join_root(s, root, tmp, sizeof(tmp), d->path))
			return -1;
		return debuglink_path(tmp, strlen(tmp) - strlen(d->path), buf,
				      size);
	case CAND_ROOT_FEDORA:
		snprintf(tmp, sizeof(tmp), "/usr/lib/debug%s.debug", d->path);
		break;
	case CAND_ROOT_UBUNTU:
		snprintf(tmp, sizeof(tmp), "/usr/lib/debug%s", d->path);
		break;
	case CAND_ROOT_BUILDID_DEBUGINFO:
		bid_hex(d, hex);
		snprintf(tmp, sizeof(tmp), "/usr/lib/debug/.build-id/%.2s/%s.debug",
			 hex, hex + 2);
		break;
	case CAND_ROOT_SYSTEM_PATH:
		snprintf(tmp, sizeof(tmp), "%s", d->path);
		break;
	default:
		return -1;
	}
	return sym_join_root(s, root, buf, size, tmp);
}

/* perf's dso__read_binary_type_filename(): 0 and a path to try. */
static int cand_path(struct pd_dso *d, enum cand c, size_t root, char *buf,
		     size_t size)
{
	struct pd_symbolizer *s = d->s;
	char tmp[4096], hex[2 * PD_BUILD_ID_MAX + 1];
	const char *slash;
	size_t len;

	switch (c) {
	case CAND_DEBUGLINK:
		sym_join_symfs(s, tmp, sizeof(tmp), d->path);
		return debuglink_path(tmp, 0, buf, size);
	case CAND_BUILDID_CACHE:
	case CAND_BUILDID_CACHE_DEBUG:
		if (!d->has_build_id)
			return -1;
		bid_hex(d, hex);
		snprintf(tmp, sizeof(tmp), "%s/.build-id/%.2s/%s",
			 s->buildid_dir, hex, hex + 2);
		/* an old-style cache links the file itself */
		if (sym_is_regular_file(tmp))
			len = (size_t)snprintf(buf, size, "%s", tmp);
		else
			/* perf's build_id_cache__basename() */
			len = (size_t)snprintf(buf, size, "%s/%s", tmp,
					       c == CAND_BUILDID_CACHE_DEBUG ? "debug" :
					       !strcmp(d->path, "[vdso]") ? "vdso" : "elf");
		return len < size ? 0 : -1;
	case CAND_FEDORA:
		snprintf(tmp, sizeof(tmp), "/usr/lib/debug%s.debug", d->path);
		sym_join_symfs(s, buf, size, tmp);
		return 0;
	case CAND_UBUNTU:
		snprintf(tmp, sizeof(tmp), "/usr/lib/debug%s", d->path);
		sym_join_symfs(s, buf, size, tmp);
		return 0;
	case CAND_BUILDID_DEBUGINFO:
		if (!d->has_build_id)
			return -1;
		bid_hex(d, hex);
		snprintf(tmp, sizeof(tmp), "/usr/lib/debug/.build-id/%.2s/%s.debug",
			 hex, hex + 2);
		sym_join_symfs(s, buf, size, tmp);
		return 0;
	case CAND_SYSTEM_PATH:
		/*
		 * perf's [vdso] is its own process's vdso, copied to a file
		 * (vdso.c), but only for a recording without a build id for
		 * it: one listed in the build-id table makes a "[vdso]"
		 * DSO first, which only the build-id cache can load.
		 */
		if (!strcmp(d->path, "[vdso]")) {
			const char *own = d->key_build_id_size ? NULL :
					  sym_own_vdso(s);

			if (!own)
				return -1;
			len = (size_t)snprintf(buf, size, "%s", own);
			return len < size ? 0 : -1;
		}
		sym_join_symfs(s, buf, size, d->path);
		return 0;
	case CAND_OPENEMBEDDED:
		slash = strrchr(d->path, '/');
		if (!slash)
			return -1;
		snprintf(tmp, sizeof(tmp), "%.*s/.debug%s",
			 (int)(slash - d->path), d->path, slash);
		sym_join_symfs(s, buf, size, tmp);
		return 0;
	case CAND_ROOT_DEBUGLINK:
	case CAND_ROOT_FEDORA:
	case CAND_ROOT_UBUNTU:
	case CAND_ROOT_BUILDID_DEBUGINFO:
	case CAND_ROOT_SYSTEM_PATH:
		return root_cand_path(d, c, root, buf, size);
	case CAND_DEBUGINFOD:
		return sym_debuginfod_fetch(d, PD_DEBUGINFOD_EXECUTABLE, buf, size);
	case CAND_DEBUGINFOD_DEBUG:
		return sym_debuginfod_fetch(d, PD_DEBUGINFOD_DEBUGINFO, buf, size);
	default:
		return -1;
	}
}

static Elf_Data *section_data(Elf *elf, size_t idx, GElf_Shdr *sh)
{
	Elf_Scn *scn = elf_getscn(elf, idx);

	if (!scn || !gelf_getshdr(scn, sh))
		return NULL;
	return elf_getdata(scn, NULL);
}

/* perf's elf_read_program_header(): the PT_LOAD holding vaddr. */
static bool load_delta(Elf *elf, uint64_t vaddr, uint64_t *delta)
{
	size_t i, n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return false;
	for (i = 0; i < n; i++) {
		uint64_t sz;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		sz = ph.p_memsz > ph.p_filesz ? ph.p_memsz : ph.p_filesz;
		if (sz && vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + sz) {
			*delta = ph.p_vaddr - ph.p_offset;
			return true;
		}
	}
	return false;
}

/*
 * load_delta() for every symbol of a table walked the program headers
 * through libelf each time: the PT_LOADs are read once into a small
 * array, in order, and searched as load_delta() does.
 */
struct load_seg {
	uint64_t vaddr, size, delta;
};

#define MAX_LOAD_SEGS	32

/* the PT_LOADs of elf, their number; -1 when they do not fit */
static int load_segs(Elf *elf, struct load_seg *v)
{
	size_t i, n;
	int nr = 0;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return 0;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (nr == MAX_LOAD_SEGS)
			return -1;
		v[nr].vaddr = ph.p_vaddr;
		v[nr].size = ph.p_memsz > ph.p_filesz ? ph.p_memsz : ph.p_filesz;
		v[nr].delta = ph.p_vaddr - ph.p_offset;
		nr++;
	}
	return nr;
}

static bool seg_delta(const struct load_seg *v, int nr, uint64_t vaddr,
		      uint64_t *delta)
{
	int i;

	for (i = 0; i < nr; i++) {
		if (v[i].size && vaddr >= v[i].vaddr &&
		    vaddr < v[i].vaddr + v[i].size) {
			*delta = v[i].delta;
			return true;
		}
	}
	return false;
}

static int load_segments(struct pd_dso *d, Elf *elf)
{
	size_t i, n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n) || !n)
		return 0;
	d->segs = calloc(n, sizeof(*d->segs));
	if (!d->segs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		d->segs[d->nr_segs].vaddr = ph.p_vaddr;
		d->segs[d->nr_segs].offset = ph.p_offset;
		d->segs[d->nr_segs].filesz = ph.p_filesz;
		d->nr_segs++;
	}
	return 0;
}

static bool is_text_section(Elf *elf, const GElf_Ehdr *eh, const GElf_Shdr *sh)
{
	size_t shstrndx;
	const char *name;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return false;
	name = elf_strptr(elf, shstrndx, sh->sh_name);
	return name && strstr(name, "text");
}

/*
 * perf's dso__load_sym() for a user-space DSO: the number of symbols,
 * or -1 when a NOBITS section has no counterpart in the runtime file
 * (perf gives up there: what was read stays, without the end and
 * duplicate fix-ups).
 */
static int load_sym(struct pd_dso *d, struct symsrc *syms, struct symsrc *rt,
		    struct sym_vec *sv)
{
	Elf_Scn *scn = syms->symtab ? syms->symtab : syms->dynsym;
	GElf_Shdr symsh, strsh, sh;
	Elf_Data *data, *strs;
	struct load_seg segs[MAX_LOAD_SEGS];
	size_t i, nr;
	int nr_segs;

	if (!gelf_getshdr(scn, &symsh) || !symsh.sh_entsize)
		return 0;
	data = elf_getdata(scn, NULL);
	strs = section_data(syms->elf, symsh.sh_link, &strsh);
	if (!data || !strs)
		return 0;
	nr = symsh.sh_size / symsh.sh_entsize;
	nr_segs = load_segs(rt->elf, segs);
	for (i = 0; i < nr; i++) {
		GElf_Sym sym;
		unsigned int type;
		bool label, func, obj;
		const char *raw, *name;
		uint64_t delta;
		Elf_Scn *sec;
		Elf *sec_elf = syms->elf;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		type = GELF_ST_TYPE(sym.st_info);
		label = type == STT_NOTYPE && sym.st_name &&
			sym.st_shndx != SHN_UNDEF && sym.st_shndx != SHN_ABS;
		func = (type == STT_FUNC || type == STT_GNU_IFUNC) &&
		       sym.st_name && sym.st_shndx != SHN_UNDEF;
		obj = type == STT_OBJECT && sym.st_name &&
		      sym.st_shndx != SHN_UNDEF;
		if (!label && !func && !obj)
			continue;
		if (sym.st_name >= strs->d_size)
			continue;
		raw = (const char *)strs->d_buf + sym.st_name;
		if ((syms->ehdr.e_machine == EM_ARM ||
		     syms->ehdr.e_machine == EM_AARCH64) && raw[0] == '$' &&
		    raw[1] && strchr("adtx", raw[1]) &&
		    (raw[2] == '\0' || raw[2] == '.'))
			continue;
		/* SHN_ABS objects (glibc's version names): perf 6.1 reads
		 * on past them (checked on libc's symtab) */
		sec = elf_getscn(syms->elf, sym.st_shndx);
		if (!sec || !gelf_getshdr(sec, &sh))
			continue;
		/* not loaded at run time (.gnu.warning.*) */
		if (!(sh.sh_flags & SHF_ALLOC))
			continue;
		/* a debug file's NOBITS sections have no valid offset */
		if (sh.sh_type == SHT_NOBITS && rt != syms) {
			sec = elf_getscn(rt->elf, sym.st_shndx);
			if (!sec || !gelf_getshdr(sec, &sh))
				return -1;
			sec_elf = rt->elf;
		}
		if (label && !is_text_section(sec_elf, NULL, &sh))
			continue;
		/* map_ip addresses are file offsets: move the value there */
		if (nr_segs >= 0 ? seg_delta(segs, nr_segs, sym.st_value, &delta) :
		    load_delta(rt->elf, sym.st_value, &delta))
			sym.st_value -= delta;
		else
			sym.st_value -= sh.sh_addr - sh.sh_offset;
		/* demangled when it matters (sym_vec.dso) */
		name = pd_arena_strndup(&d->arena, raw, SIZE_MAX);
		if (!name || sym_vec__push(sv, sym.st_value, sym.st_size,
					   GELF_ST_BIND(sym.st_info), name))
			return -ENOMEM;
		sv->v[sv->nr - 1].mangled = !d->s->opts.no_demangle;
	}
	return (int)sv->nr;
}

/* perf 6.1's dso__synthesize_plt_symbols(): NAME@plt for each .rela.plt
 * (or .rel.plt) entry, one .plt entry each after the header, by file
 * offset. x86 only (entry size = .plt's sh_entsize, header one entry). */
static int synthesize_plt(struct pd_dso *d, struct symsrc *rt, struct sym_vec *sv)
{
	GElf_Shdr relsh, pltsh, dynsh, strsh;
	Elf_Scn *rel;
	Elf_Data *reldata, *syms, *strs;
	uint64_t off, entsize, hdr;
	size_t i, nr;

	if (!rt->dynsym)
		return 0;
	rel = section_by_name(rt->elf, &rt->ehdr, &relsh, ".rela.plt", NULL);
	if (!rel)
		rel = section_by_name(rt->elf, &rt->ehdr, &relsh, ".rel.plt", NULL);
	if (!rel || relsh.sh_link != rt->dynsym_idx || !relsh.sh_entsize)
		return 0;
	if (!section_by_name(rt->elf, &rt->ehdr, &pltsh, ".plt", NULL))
		return 0;
	if (!gelf_getshdr(rt->dynsym, &dynsh))
		return 0;
	reldata = elf_getdata(rel, NULL);
	syms = elf_getdata(rt->dynsym, NULL);
	strs = section_data(rt->elf, dynsh.sh_link, &strsh);
	if (!reldata || !syms || !strs || !strs->d_size)
		return 0;
	switch (rt->ehdr.e_machine) {
	case EM_ARM:
		hdr = 20;
		entsize = 12;
		break;
	case EM_AARCH64:
		hdr = 32;
		entsize = 16;
		break;
	default:
		hdr = entsize = pltsh.sh_entsize;
		break;
	}
	off = pltsh.sh_offset + hdr;
	nr = relsh.sh_size / relsh.sh_entsize;
	for (i = 0; i < nr; i++) {
		GElf_Rela rela;
		GElf_Rel r;
		GElf_Sym sym;
		uint64_t info;
		const char *raw = "";
		char *dem, *name;
		const char *aname;

		if (relsh.sh_type == SHT_RELA) {
			if (!gelf_getrela(reldata, (int)i, &rela))
				break;
			info = rela.r_info;
		} else if (relsh.sh_type == SHT_REL) {
			if (!gelf_getrel(reldata, (int)i, &r))
				break;
			info = r.r_info;
		} else {
			break;
		}
		if (gelf_getsym(syms, (int)GELF_R_SYM(info), &sym) &&
		    sym.st_name < strs->d_size)
			raw = (const char *)strs->d_buf + sym.st_name;
		dem = d->s->opts.no_demangle ? NULL : sym_demangle(raw);
		if (asprintf(&name, "%s@plt", dem ? dem : raw) < 0)
			name = NULL;
		free(dem);
		if (!name)
			return -ENOMEM;
		aname = pd_arena_strndup(&d->arena, name, SIZE_MAX);
		free(name);
		if (!aname || sym_vec__push(sv, off, entsize, STB_GLOBAL, aname))
			return -ENOMEM;
		off += entsize;
	}
	return 0;
}

/*
 * The j-th candidate: its kind, and which root for a root's; false past
 * the last. The roots' only for a build id that names the mapped file:
 * recorded, or read from the file found to be the mapped one, never one
 * read from whatever file is at the path.
 */
static bool cand_at(const struct pd_dso *d, size_t j, enum cand *c,
		    size_t *root)
{
	const size_t per = CAND_ROOT_SYSTEM_PATH - CAND_ROOT_DEBUGLINK + 1;
	size_t nr = d->has_build_id && (d->key_build_id_size ||
					d->ident == SYM_IDENT_SAME) ?
		    d->s->nr_roots : 0;

	*root = 0;
	if (j < CAND_ROOT_DEBUGLINK) {
		*c = (enum cand)j;
		return true;
	}
	j -= CAND_ROOT_DEBUGLINK;
	if (j < nr * per) {
		*c = (enum cand)(CAND_ROOT_DEBUGLINK + j % per);
		*root = j / per;
		return true;
	}
	j -= nr * per;
	*c = (enum cand)(CAND_DEBUGINFOD + j);
	return *c < CAND_NR;
}

int sym_elf__load(struct pd_dso *d)
{
	struct symsrc ss[2], cand;
	struct symsrc *syms = NULL, *rt = NULL;
	struct sym_rbtree tree;
	struct sym_vec sv = { .tree = &tree, .defer_tree = true, .dso = d };
	char tmp[4096];
	int n, ret = 0;
	size_t used = 0, j, root;
	enum cand i;

	/* not the mapped file, or none to tell: nothing is used */
	if (d->ident >= SYM_IDENT_MISSING)
		return 0;
	sym_rbtree__init(&tree);
	elf_version(EV_CURRENT);
	ss[0].fd = ss[1].fd = cand.fd = -1;
	ss[0].elf = ss[1].elf = cand.elf = NULL;

	/*
	 * perf reads the file's build id when the data had none, but
	 * checks the unprefixed path (a quirk kept for identical results);
	 * a file found to be the mapped one is read where it was found
	 */
	if (!d->has_build_id && (d->ident == SYM_IDENT_SAME ||
				 sym_is_regular_file(d->path))) {
		uint8_t bid[PD_BUILD_ID_MAX];

		sym_join_symfs(d->s, tmp, sizeof(tmp), d->path);
		n = sym_elf__read_build_id(tmp, bid, sizeof(bid));
		if (n > 0) {
			memcpy(d->build_id, bid, sizeof(bid));
			d->build_id_size = n > PD_BUILD_ID_MAX ? PD_BUILD_ID_MAX : n;
			d->has_build_id = true;
		}
	}

	for (j = 0; used < 2 && cand_at(d, j, &i, &root); j++) {
		bool keep = false;

		/*
		 * debuginfod for DSOs with no file here at all; its debug
		 * info only for a .symtab the executable lacks (for DWARF:
		 * sym-inline.c)
		 */
		if ((i == CAND_DEBUGINFOD && used) ||
		    (i == CAND_DEBUGINFOD_DEBUG && syms))
			break;
		/*
		 * ahead of the lookup (sym-preload.c), debuginfod is the
		 * lookup's to ask, if there is one to ask
		 */
		if (i >= CAND_DEBUGINFOD && d->preloading) {
			if (!d->preload_remote)
				continue;	/* as sym_debuginfod_fetch() */
			d->preload_gave_up = true;
			break;
		}
		memset(&cand, 0, sizeof(cand));
		cand.fd = -1;
		if (cand_path(d, i, root, cand.path, sizeof(cand.path)))
			continue;
		if (!sym_is_regular_file(cand.path))
			continue;
		d->found_file = true;
		if (symsrc_open(d, &cand))
			continue;
		if (!syms && cand.symtab) {
			syms = &ss[used];
			keep = true;
		}
		/*
		 * perf takes a file with a .dynsym for the runtime image; a
		 * fetched executable, or the binary in a build-id cache (an
		 * archive's, made of one) or a root, is that image whatever
		 * it has: a stripped static one has neither table, and its
		 * debug file's .eh_frame is empty, so the unwinder needs it
		 */
		if (!rt && (cand.dynsym || i == CAND_DEBUGINFOD ||
			    i == CAND_BUILDID_CACHE ||
			    i == CAND_ROOT_SYSTEM_PATH)) {
			rt = &ss[used];
			keep = true;
		}
		if (!keep) {
			symsrc_close(&cand);
			continue;
		}
		ss[used++] = cand;
		if (i >= CAND_DEBUGINFOD)
			d->remote = true;
		if (syms && rt)
			break;
	}
	if (!syms && !rt)
		goto out;
	if (!syms)
		syms = rt;
	if (!rt)
		rt = syms;

	d->symsrc = strdup(syms->path);
	d->symsrc_symtab = syms->symtab != NULL;
	d->runtime = strdup(rt->path);
	if (!d->symsrc || !d->runtime) {
		ret = -ENOMEM;
		goto out;
	}
	d->adjusted = true;
	ret = load_segments(d, rt->elf);
	if (ret || d->s->files_only)
		goto out;
	n = load_sym(d, syms, rt, &sv);
	if (n == -ENOMEM) {
		ret = n;
		goto out;
	}
	sym_vec__sort(&sv);
	if (n > 0) {
		sym_vec__fixup_end(&sv, false);
		sym_vec__fixup_duplicate(&sv);
		ret = synthesize_plt(d, rt, &sv);
		if (ret)
			goto out;
		sym_vec__sort(&sv);
	}
	ret = sym_dso__take_symbols(d, &sv);
	d->loaded = d->nr_syms > 0;
out:
	sym_vec__release(&sv);
	sym_rbtree__release(&tree);
	symsrc_close(&ss[0]);
	symsrc_close(&ss[1]);
	return ret;
}

int sym_elf__nm_lookup(const char *path, const char *name, uint64_t *value)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -ENOENT;
	GElf_Ehdr eh;
	GElf_Shdr sh, strsh;
	Elf_Scn *scn;
	Elf_Data *data, *strs;
	Elf *elf;
	size_t i, nr;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || !gelf_getehdr(elf, &eh))
		goto out;
	scn = section_by_name(elf, &eh, &sh, ".symtab", NULL);
	if (!scn || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
		goto out;
	data = elf_getdata(scn, NULL);
	strs = section_data(elf, sh.sh_link, &strsh);
	if (!data || !strs)
		goto out;
	nr = sh.sh_size / sh.sh_entsize;
	/* nm lists defined symbols but sections and files, sorted by name
	 * (stably: equal names keep the table's order) */
	for (i = 0; i < nr; i++) {
		GElf_Sym sym;
		unsigned int type;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_SECTION || type == STT_FILE ||
		    sym.st_shndx == SHN_UNDEF || !sym.st_name ||
		    sym.st_name >= strs->d_size)
			continue;
		if (!strcmp((const char *)strs->d_buf + sym.st_name, name)) {
			*value = sym.st_value;
			ret = 0;
			break;
		}
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}
