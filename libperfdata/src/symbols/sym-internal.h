/* SPDX-License-Identifier: MIT */
/*
 * The symbolizer's shared structures: a DSO is a sorted symbol array
 * built once by one of the loaders (ELF, kallsyms, perf map), plus what
 * the inline resolver keeps open.
 *
 * The functions below are grouped by the file that defines them, under
 * a comment naming it, each group after those of the files it uses: the
 * files of symbols/ use one another without a loop, from the path and
 * table helpers up to the symbolizer's lookups (sym-core.c) and, on top,
 * the lookups of mapped files (sym-mapped.c, which declares nothing
 * here).
 */
#ifndef PD_SYM_INTERNAL_H
#define PD_SYM_INTERNAL_H

#include <perfdata/symbols.h>

#include <libelf.h>

#include "base/arena.h"
#include "base/internal.h"
#include "sym-rbtree.h"

#define PD_BUILD_ID_MAX 20

/* A symbol while a table is built: perf's fields that pick among
 * symbols at the same address. */
struct sym_new {
	uint64_t start;
	uint64_t end;
	const char *name;	/* in the DSO's arena */
	uint32_t seq;		/* insertion order: ties keep it */
	uint8_t bind;		/* STB_* */
	bool mangled;		/* name not demangled yet (sym_vec.dso) */
	uint16_t module;		/* kallsyms: 1 + index into modules */
};

struct sym_tree_op;

struct sym_vec {
	struct sym_new *v;
	size_t nr, alloc;
	uint32_t next_seq;
	/*
	 * When set, every push and every symbols__fixup_duplicate() erasure
	 * is replayed on perf's tree shape (sym-rbtree.h), which then
	 * answers lookups where symbols overlap.
	 */
	struct sym_rbtree *tree;
	/*
	 * With tree: its operations are only logged (ops), and replayed on
	 * it by sym_dso__set_symbols() when the symbols overlap, the only
	 * case where its shape answers lookups: most tables of tens of
	 * thousands of symbols then build no tree at all.
	 */
	bool defer_tree;
	struct sym_tree_op *ops;
	size_t nr_ops, alloc_ops;
	/*
	 * The DSO whose arena takes names demangled late: a symbol pushed
	 * with mangled set keeps its raw name until its name matters
	 * (symbols__fixup_duplicate() compares them, pd_dso__find() returns
	 * it), as most symbols of a large C++ binary are never looked at.
	 */
	struct pd_dso *dso;
};

/* One PT_LOAD of the runtime file: converts file offsets to vaddrs. */
struct sym_seg {
	uint64_t vaddr, offset, filesz;
};

struct sym_kernel_section {
	uint64_t start, end;
	int32_t root;		/* its symbols' tree (sym_left), or -1 */
};

/*
 * What the lookup of a mapped file on the recording machine found at its
 * path (sym-mapped.c). The last three leave the DSO without any file,
 * and one warning says why.
 */
enum sym_ident {
	SYM_IDENT_UNCHECKED,	/* not checked: perf's rules */
	SYM_IDENT_SAME,		/* the mapped file itself (device, inode) */
	SYM_IDENT_MISSING,	/* no file there, and no build id recorded */
	SYM_IDENT_OTHER,	/* another file there, no build id recorded */
	SYM_IDENT_HOST_BID,	/* another file there, with the build id
				 * recorded: perf's table named that file */
};

/*
 * A DSO's key: its path and the build id it was asked for; with none,
 * the mapped file's device and inode where they are known, which tell
 * two files at one path apart; and what was found at the path.
 */
struct sym_key {
	const char *path;
	const uint8_t *build_id;
	size_t build_id_size;
	bool has_ino;
	uint32_t maj, min;
	uint64_t ino;
	enum sym_ident ident;
};

enum pd_dso_kind {
	PD_DSO_ELF,
	PD_DSO_KERNEL,
	PD_DSO_PERF_MAP,
	PD_DSO_JIT,			/* one jitted-PID-N.so of a jitdump */
	PD_DSO_KSYMBOL,			/* one KSYMBOL record's symbol */
};

struct pd_dso {
	struct pd_dso *next;		/* symbolizer's list of all DSOs */
	struct pd_dso *hnext;		/* hash chain */
	struct pd_symbolizer *s;
	enum pd_dso_kind kind;
	char *path;
	uint8_t build_id[PD_BUILD_ID_MAX];
	size_t build_id_size;
	bool has_build_id;
	size_t key_build_id_size;	/* as the caller asked: 0 for none */
	/* the rest of its struct sym_key */
	bool key_has_ino;
	uint32_t key_maj, key_min;
	uint64_t key_ino;
	enum sym_ident ident;

	struct pd_sym *syms;		/* sorted by start */
	uint16_t *sym_module;		/* kernel: 1 + module index, or 0 */
	size_t nr_syms;
	bool syms_overlap;		/* some address is in two symbols */
	/*
	 * Where symbols overlap and perf's tree shape is known: its
	 * children (indexes into syms, -1 for none) and root.
	 */
	int32_t *sym_left, *sym_right;
	int32_t sym_root;
	/*
	 * Where the bisection of a large table starts: symbols whose
	 * (start - sym_base) >> sym_shift is k are at indexes
	 * [sym_bucket[k], sym_bucket[k + 1]), for k < nr_buckets (NULL:
	 * the whole table is bisected). A lookup then touches a few
	 * neighbouring entries instead of one cache line per step.
	 */
	uint32_t *sym_bucket;
	uint64_t sym_base;
	size_t nr_buckets;
	unsigned int sym_shift;
	/* per symbol: its name is still raw, to demangle on lookup (NULL:
	 * none is; in the arena) */
	uint8_t *sym_mangled;
	char **modules;			/* kernel: "[ext4]", or a vmlinux
					 * section's "[kernel.kallsyms].init.text" */
	size_t nr_modules;
	/*
	 * From a vmlinux: the relocated .text, where perf moves the kernel
	 * map, and per module entry the relocated section of its map.
	 */
	bool vmlinux_text;
	uint64_t text_start, text_end;
	struct sym_kernel_section *ksecs;
	bool not_elf;			/* the vmlinux is no ELF file */
	uint64_t ref_addr;		/* kernel: as asked (cache key) */
	/*
	 * kernel: where perf's relocation reference symbols lie in these
	 * symbols' address space (0: not among them), kept apart from the
	 * table, where a name at the same address as another may be gone
	 */
	uint64_t ref_text, ref_stext;
	bool loaded;
	bool found_file;		/* some candidate file existed */
	bool remote;			/* its files came from debuginfod */
	char *mismatch;			/* first file with another build id */
	char *symsrc;			/* file the symbols came from */
	bool symsrc_symtab;		/* ... and it has a .symtab */
	char *runtime;			/* the binary itself (segments, nm) */

	struct sym_seg *segs;		/* runtime file's PT_LOADs */
	size_t nr_segs;
	bool adjusted;			/* symbols are file-offset based */

	struct sym_dwarf *dw;		/* inline resolver state, lazily */
	bool dw_tried;
	/*
	 * Loading on sym-preload.c's thread, which asks no debuginfod
	 * server: with one to ask (remote), gave_up says the load came to
	 * it (the lookup then loads the file again).
	 */
	bool preloading, preload_remote, preload_gave_up;

	struct pd_arena arena;		/* names */

	/*
	 * The symbolizer's budget (sym-lru.c): an ELF DSO holding memory is
	 * on its list of those, most recently used first, counted as bytes
	 * (held, as last measured); released, it holds none of it (symbols,
	 * names, DWARF) until its next lookup loads it again.
	 */
	struct pd_dso *lru_prev, *lru_next;
	bool in_lru, released;
	size_t bytes;
};

/* A lookup of a mapped file and the DSO it gave (sym-mapped.c). */
struct sym_mapped_ent {
	struct pd_dso *dso;		/* NULL: an empty slot */
	uint64_t hash;
	uint8_t build_id[PD_BUILD_ID_MAX];
	uint8_t build_id_size;
	bool bid_from_map, has_ino, here;
	uint32_t maj, min;
	uint64_t ino;
};

struct pd_symbolizer {
	struct pd_symbolizer_opts opts;
	char *symfs;
	char **roots;			/* --root DIRs, NULL-terminated */
	size_t nr_roots;
	char *buildid_dir;
	char *kallsyms;			/* --kallsyms, or NULL */
	char *vmlinux;			/* --vmlinux, or NULL */
	struct pd_logger log;
	struct pd_dso *dsos;
	struct pd_dso **hash;
	char *own_vdso;			/* this process's vdso, as a file */
	struct pd_jitdump *jitdumps;	/* loaded once per path */
	struct pd_archive *archive;	/* files of an archive, or NULL */
	/* the last place files are looked for: see sym_debuginfod() */
	struct pd_debuginfod *debuginfod;
	bool debuginfod_tried, debuginfod_quiet;
	bool own_vdso_tried;
	size_t hash_size, nr_dsos;
	/* an unwinder's helper (unwind-ahead.c): an ELF DSO's files are
	 * found, its symbols not read */
	bool files_only;
	struct sym_preload *preload;	/* DSOs loaded ahead, or NULL */
	/* mapped files looked up: open addressing, freed with s */
	struct sym_mapped_ent *mapped;
	size_t nr_mapped, cap_mapped;
	/* whether perf reads a mapped file as ELF, by path and build id
	 * (sym-perf-elf.c): hash chains, NULL until asked */
	struct sym_perf_elf **perf_elf;
	/* ELF DSOs holding memory, most recently used first (sym-lru.c) */
	struct pd_dso *lru_head, *lru_tail;
	size_t lru_bytes;		/* the sum of their bytes */
	size_t nr_reloads;
};

/* sym-path.c: symfs + path into buf (perf's __symbol__join_symfs). */
void sym_join_symfs(const struct pd_symbolizer *s, char *buf, size_t size,
		    const char *path);
/* The root-th --root DIR + path into buf: 0, or -1 when too long. */
int sym_join_root(const struct pd_symbolizer *s, size_t root, char *buf,
		  size_t size, const char *path);
bool sym_is_regular_file(const char *path);

/*
 * sym-ident.c: whether the file at path is the one the kernel knows as
 * device (maj, min) and inode ino, as an MMAP2 record names a mapped
 * file: 1 it is, 0 another file, -errno none there.
 */
int sym_file_ident(const char *path, uint32_t maj, uint32_t min, uint64_t ino);

/* sym-elf-section.c: elf has a section called name with contents (of
 * type, unless 0) */
bool sym_elf__has_section(Elf *elf, const char *name, Elf64_Word type);

/* sym-demangle-java.c: perf's java_demangle_sym(JAVA_DEMANGLE_NORET),
 * malloc'd, or NULL when the name is not a Java signature. */
char *sym_demangle_java(const char *name);

/* sym-demangle.c: the name perf 6.1 shows for an ELF symbol name,
 * malloc'd, or NULL when it shows the name unchanged. */
char *sym_demangle(const char *name);
/* C++ with parameters, as addr2line -C prints function names. */
char *sym_demangle_params(const char *name);

/* sym-table.c: a DSO's symbol table, built in a sym_vec */
/* sv's arrays freed (not sv, nor its tree) */
void sym_vec__release(struct sym_vec *sv);
int sym_vec__push(struct sym_vec *sv, uint64_t start, uint64_t size,
		  uint8_t bind, const char *name);
void sym_vec__sort(struct sym_vec *sv);
/* perf's symbols__fixup_end() and symbols__fixup_duplicate(). */
void sym_vec__fixup_end(struct sym_vec *sv, bool kallsyms);
void sym_vec__fixup_duplicate(struct sym_vec *sv);
/*
 * The links of perf's trees over the symbols of d (sv, sorted, as set
 * by sym_dso__set_symbols()), in indexes of d->syms, -1 for none: symbol
 * i is a node of trees[its module number] (of trees[0] when nr_trees is
 * 1); roots[k] gets the root of trees[k]. 0 or -ENOMEM.
 */
int sym_dso__link_trees(struct pd_dso *d, const struct sym_vec *sv,
			const struct sym_rbtree *const *trees, size_t nr_trees,
			int32_t *roots);
/*
 * Takes the symbols of sv into d: sv sorted by start (and sequence),
 * fixed up by the caller; its tree, if any, stays the caller's.
 */
int sym_dso__set_symbols(struct pd_dso *d, struct sym_vec *sv);
/*
 * The same, d keeping sv's array instead of a copy (sv then empty); sv is
 * still the caller's to release, as after a failure.
 */
int sym_dso__take_symbols(struct pd_dso *d, struct sym_vec *sv);

/* pd_dso__find() of d as loaded (sym-lru.c loads it again first). */
const struct pd_sym *sym_dso__find(struct pd_dso *d, uint64_t addr);

/* sym-perf-elf.c: the answers kept, freed */
void sym_perf_elf__free(struct pd_symbolizer *s);

/* sym-vdso.c: this process's vdso image written to a temporary file
 * (removed by pd_symbolizer__free()), or NULL. */
const char *sym_own_vdso(struct pd_symbolizer *s);

/*
 * sym-bfd-func.c: binutils' choice of the function symbol holding addr in
 * an ELF file (what addr2line names when DWARF does not), from an index
 * of its symbols built once; the name and, into *file_name (may be NULL),
 * the source file binutils gives with it. Both point into elf's data.
 */
struct sym_bfd_funcs;
struct sym_bfd_funcs *sym_bfd_funcs__new(Elf *elf);
const char *sym_bfd_funcs__find(const struct sym_bfd_funcs *f, uint64_t addr,
				const char **file_name);
void sym_bfd_funcs__free(struct sym_bfd_funcs *f);
/* The bytes its index holds. */
size_t sym_bfd_funcs__bytes(const struct sym_bfd_funcs *f);

/* sym-debuginfod.c */
/*
 * The debuginfod client of the symbolizer, made when a DSO's files are
 * first missing; NULL when the servers are not asked (no_debuginfod,
 * $DEBUGINFOD_URLS unset, a build without debuginfod: one warning then
 * says so, the URLs being set).
 */
struct pd_debuginfod *sym_debuginfod(struct pd_symbolizer *s);
/*
 * The file of that kind (enum pd_debuginfod_kind) for d's build id from
 * the debuginfod servers, into buf: 0, or -1 when none.
 */
int sym_debuginfod_fetch(struct pd_dso *d, int kind, char *buf, size_t size);
/* The symbolizer's debuginfod warnings left to another of the process
 * (pd-unwind's helper threads keep quiet). */
void pd__sym_debuginfod_quiet(struct pd_symbolizer *s);

/* sym-inline.c */
struct sym_dwarf;
int sym_inline__frames(struct pd_dso *d, uint64_t vaddr,
		       struct pd_inline_frame *frames, int max);
void sym_inline__free(struct sym_dwarf *dw);
/* The bytes dw holds, libdw's counted as the file's debug sections. */
size_t sym_inline__bytes(const struct sym_dwarf *dw);

/* sym-dso.c */
/* A new DSO on no list (sym_dso__free() frees it); NULL on ENOMEM. */
struct pd_dso *sym_dso__alloc(struct pd_symbolizer *s, enum pd_dso_kind kind,
			      const char *path);
void sym_dso__free(struct pd_dso *d);
/* A new DSO on the symbolizer's list (freed with it), not looked up by
 * path; NULL on ENOMEM. */
struct pd_dso *sym_dso__new(struct pd_symbolizer *s, enum pd_dso_kind kind,
			    const char *path);
/* d's key: the build id, device, inode and identity it was asked by */
void sym_dso__set_key(struct pd_dso *d, const struct sym_key *k);

/* sym-elf.c: loads d's symbols the way perf's dso__load() does. */
int sym_elf__load(struct pd_dso *d);
/* Reads a file's GNU build id; its size or -1. */
int sym_elf__read_build_id(const char *path, uint8_t *bid, size_t size);
/* perf's elf_read_build_id() on an open file; its size or -1. */
int sym_elf__build_id(Elf *elf, uint8_t *bid, size_t size);
/* perf's dso__build_id_equal(). */
bool sym_build_id_equal(const struct pd_dso *d, const uint8_t *bid, size_t n);
/* First .symtab symbol named name in path, as `nm path` lists it. */
int sym_elf__nm_lookup(const char *path, const char *name, uint64_t *value);

/*
 * sym-vmlinux.c: the kernel's symbols from a vmlinux, relocated by the
 * recorded address of ref_name (perf's ref_reloc_sym; NULL or 0: none).
 * 0 (d->loaded tells) or -ENOMEM.
 */
int sym_vmlinux__load(struct pd_dso *d, const char *path, const char *ref_name,
		      uint64_t ref_addr);

/* sym-kallsyms.c */
int sym_kallsyms__load(struct pd_dso *d, const char *path);
/*
 * A copy of the running kernel's kallsyms made this boot (the build-id
 * cache's): loaded as sym_kallsyms__load() does, or -ESTALE with d left
 * without symbols when it does not begin as /proc/kallsyms does, has no
 * symbols or names other modules than the kernel has loaded now.
 */
int sym_kallsyms__load_copy(struct pd_dso *d, const char *path);

/* sym-perfmap.c */
int sym_perfmap__load(struct pd_dso *d, const char *path);

/* sym-kernel.c */
/* The kernel's symbols into d from kallsyms, as a lookup without a
 * vmlinux loads them, warning of nothing: 0 or -ENOMEM. */
int sym_kernel_kallsyms(struct pd_symbolizer *s, struct pd_dso *d);
/*
 * The kernel's symbols into d from where perf 6.1's
 * dso__load_kernel_sym() takes them, warning when there are none: 0
 * (d->loaded tells) or -ENOMEM.
 */
int sym_kernel__load(struct pd_symbolizer *s, struct pd_dso *d,
		     const uint8_t *build_id, size_t build_id_size,
		     const char *ref_name, uint64_t ref_addr);

/* sym-jitdump.c */
void sym_jitdump__free(struct pd_jitdump *j);

/* sym-preload.c: one file to load ahead: an ELF file's path, or
 * "[kernel.kallsyms]". */
struct sym_preload_req {
	enum pd_dso_kind kind;
	const char *path;
	const uint8_t *build_id;
	size_t build_id_size;
};
/*
 * Loads the files of v, in order, on a thread of its own (sym-preload.c);
 * those it cannot load as a lookup would are left out. 0 or -errno.
 */
int sym_preload__start(struct pd_symbolizer *s,
		       const struct sym_preload_req *v, size_t n);
/*
 * The DSO a lookup of this key would load, loaded ahead (waited for when
 * under way), off the preload's hands: the caller links it. NULL: none,
 * or not yet begun (the lookup loads it, the thread then skips it).
 */
struct pd_dso *sym_preload__take(struct pd_symbolizer *s,
				 enum pd_dso_kind kind, const char *path,
				 const uint8_t *build_id, size_t build_id_size);
/* The thread ended, the DSOs it loaded that no lookup took freed. */
void sym_preload__free(struct pd_symbolizer *s);

/*
 * sym-lru.c: the budget's bookkeeping. d's bytes measured again (it
 * loaded, or grew: names demangled, DWARF opened), an ELF DSO holding
 * some put first on the list; d's contents loaded again if released
 * (0, or -ENOMEM: d then answers nothing this time); d used, first on
 * the list; d off it (freed).
 */
void sym_lru__account(struct pd_dso *d);
int sym_lru__resident(struct pd_dso *d);
void sym_lru__touch(struct pd_dso *d);
void sym_lru__remove(struct pd_dso *d);

/*
 * sym-core.c: the DSO of key k, made and loaded (or taken from the
 * preload) on first use, one warning logged when it has no symbols;
 * NULL on ENOMEM.
 */
struct pd_dso *sym_dso_get(struct pd_symbolizer *s, const struct sym_key *k);

#endif /* PD_SYM_INTERNAL_H */
