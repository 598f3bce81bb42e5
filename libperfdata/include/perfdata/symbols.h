/* SPDX-License-Identifier: MIT */
/*
 * Symbolization: addresses to symbol names, the way perf 6.1 resolves them
 * for `perf script`, each DSO loaded once and cached.
 *
 * Ownership: a pd_symbolizer owns every pd_dso, pd_sym and string it
 * returns; they stay valid until pd_symbolizer__free(), or for those of
 * an ELF file (pd_sym, names, inline frames) until the caller's next
 * pd_symbolizer__trim() that releases it.
 */
#ifndef PERFDATA_SYMBOLS_H
#define PERFDATA_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perfdata/errors.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pd_symbolizer_opts {
	size_t sz;
	const char *symfs;	/* prefix for every DSO path (perf --symfs) */
	const char *buildid_dir; /* NULL: symfs/.debug with a symfs, else
				  * $PERF_BUILDID_DIR, else buildid.dir of
				  * perf's configuration, else ~/.debug */
	const char *kallsyms;	/* NULL: /proc/kallsyms */
	/*
	 * The kernel image (perf --vmlinux), the only source of the
	 * kernel's symbols unless kallsyms is given: an absolute path as
	 * is, a relative one under symfs. Used only when its build id is
	 * the recording kernel's (or either is unknown); otherwise, or
	 * when missing or without .symtab, kernel frames stay unresolved
	 * (one warning says why), as perf 6.1 leaves them. NULL: none.
	 */
	const char *vmlinux;
	bool no_demangle;	/* raw C++/Rust names */
	pd_log_fn log;		/* warnings: one per DSO that cannot load */
	void *log_ctx;
	/*
	 * Ask no debuginfod server. Otherwise, when $DEBUGINFOD_URLS names
	 * servers, a DSO with a build id none of whose files is found
	 * locally (at its path, in the build-id cache, under symfs, in
	 * /usr/lib/debug, in an archive) has its executable fetched, and
	 * its debug info when that has no .symtab (symbols) or no DWARF
	 * (inline frames, lines): perfdata/debuginfod.h.
	 */
	bool no_debuginfod;
	/*
	 * Trees the recorded paths may lie in (a container's root, an
	 * image's tree): a NULL-terminated list of directories (copied),
	 * or NULL. After this machine's files and before debuginfod, each
	 * DIR is searched for DIR + the recorded path, its debug link
	 * (DIR/PATHDIR/LINK, DIR/PATHDIR/.debug/LINK,
	 * DIR/usr/lib/debug/PATHDIR/LINK), DIR/usr/lib/debug/PATH.debug,
	 * DIR/usr/lib/debug/PATH and
	 * DIR/usr/lib/debug/.build-id/xx/rest.debug. A file found there is
	 * used only when its build id is the one the mapped file is known
	 * by, and never for a mapped file without a build id: a root cannot
	 * shadow the right file of this machine.
	 */
	const char *const *roots;
	/*
	 * Read no symbol table and no debug info of mapped ELF files: their
	 * files are still looked for (build ids, segments: what unwinding
	 * needs), but their frames get no symbol and no inline frames, and
	 * a file found without symbols is no warning. For a caller that
	 * names those frames later, elsewhere, by build id and offset
	 * (pd-fold --raw). The kernel, perf maps and JIT code are named as
	 * usual.
	 */
	bool elf_files_only;
};

struct pd_symbolizer;
struct pd_dso;

struct pd_sym {
	uint64_t start;		/* in the DSO's address space (see below) */
	uint64_t end;		/* exclusive */
	const char *name;	/* demangled unless no_demangle */
};

struct pd_inline_frame {
	const char *function;	/* demangled; NULL when unknown */
	const char *file;	/* NULL when unknown */
	unsigned int line;	/* 0 when unknown */
	/*
	 * The name perf script gives the frame: the DWARF (linkage) name
	 * demangled as ELF symbols are (no parameters), raw with
	 * no_demangle; NULL when unknown ("??"). perf 6.1 prints inlined
	 * frames only in DWARF-unwound callchains: for a frame at ADDR in
	 * symbol SYM, every entry of the chain replaces the frame line,
	 * innermost first, as "NAME+0x(ADDR-SYM.start) (inlined)", except
	 * one whose perf_name equals SYM's name, printed as the usual
	 * "SYM+0xOFF (DSO)" line.
	 */
	const char *perf_name;
};

struct pd_symbolizer *pd_symbolizer__new(const struct pd_symbolizer_opts *opts);

/*
 * buildid.dir of perf's configuration (the file $PERF_CONFIG names, else
 * /etc/perfconfig then ~/.perfconfig, the later one winning) into out;
 * false, out "", when none sets it.
 */
bool pd_perf_config_buildid_dir(char *out, size_t size);
void pd_symbolizer__free(struct pd_symbolizer *s);

/*
 * Memory: what the symbolizer's ELF DSOs hold (symbol tables, names, the
 * state of their DWARF, libdw's counted as the size of the files' debug
 * sections), in bytes, and its release. pd_symbolizer__trim() releases
 * the contents of the least recently used ELF DSOs until the others hold
 * at most budget bytes (0: all), and returns what they then hold. A
 * released DSO stays valid; its next lookup loads its symbols again (no
 * warning is logged again). Every pd_sym, name and inline frame of a
 * released DSO is freed: call it where no such pointer is held. Without
 * a call, nothing is ever released. The kernel's, perf maps' and JIT
 * code's symbols are neither counted nor released.
 */
size_t pd_symbolizer__trim(struct pd_symbolizer *s, size_t budget);
size_t pd_symbolizer__bytes(const struct pd_symbolizer *s);

/*
 * The DSO for a mapped file. build_id may be NULL (size 0). Loads it on
 * first use: from the build-id cache when a build id is given, else from
 * symfs + path, following .gnu_debuglink and /usr/lib/debug/.build-id/
 * for symbols, and last from debuginfod servers (no_debuginfod above).
 * A file whose build id differs from the given one is not used. Never NULL except on ENOMEM: a DSO that cannot load has no
 * symbols (and one warning is logged).
 */
struct pd_dso *pd_symbolizer__dso(struct pd_symbolizer *s, const char *path,
				  const uint8_t *build_id, size_t build_id_size);

/*
 * A file a recording maps, with what tells it from another file at the
 * same path (another build of a program, a container's own libc under
 * the path of the host's).
 */
struct pd_mapped_file {
	size_t sz;
	const char *path;
	/*
	 * Its build id (NULL, 0: none recorded): the one the MMAP2 record
	 * carries (PERF_RECORD_MISC_MMAP_BUILD_ID: the kernel read it from
	 * the mapped file itself) when map_build_id, else the build-id
	 * table's (perf record read it, at the end, from the file at the
	 * path in its own mount namespace).
	 */
	const uint8_t *build_id;
	size_t build_id_size;
	bool map_build_id;
	/* the device and inode of an MMAP2 record without a build id */
	bool has_inode;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	/* the recording was made on this machine (pd_session__recorded_here) */
	bool recorded_here;
};

/*
 * The DSO for a mapped file: pd_symbolizer__dso()'s, except that on the
 * machine that recorded it (recorded_here), where the device and inode
 * say which file was mapped, the file at symfs + path is checked first
 * (its line in /proc/self/maps confirms what stat() does not: btrfs
 * subvolumes and overlayfs report other devices):
 * - no build id recorded: the file at the path is used only if it is the
 *   mapped file (and then with its own build id, as perf does, for the
 *   other files of the DSO); otherwise the DSO has no file;
 * - a build id from the build-id table equal to that of the file at the
 *   path, which is another file than the mapped one: the id is that
 *   file's, not the mapped one's (perf record reads build ids in its own
 *   mount namespace, the host's for a process in a container), and the
 *   DSO has no file;
 * - a build id from the MMAP2 record is the mapped file's: it stands.
 * A DSO without a file logs one warning per path, naming it and why,
 * and has no build id. Elsewhere, and without device and inode, perf's
 * rules: the DSO of (path, build id). DSOs without a build id are kept
 * per (path, device, inode). Never NULL except on ENOMEM.
 */
struct pd_dso *pd_symbolizer__mapped_dso(struct pd_symbolizer *s,
					 const struct pd_mapped_file *f);
/*
 * The checks of pd_symbolizer__mapped_dso() alone, loading nothing (for
 * a tool that collects a recording's files): 0 when the files of f are
 * looked for by its build id or, without one, as perf does; -ENOENT (no
 * build id, no file at the path) or -EXDEV (the file at the path is
 * another, and the recording names no build id or names that file's)
 * when none may be used, *why saying so in words.
 */
int pd_symbolizer__mapped_check(struct pd_symbolizer *s,
				const struct pd_mapped_file *f,
				const char **why);

/*
 * The kernel ([kernel.kallsyms]) and kernel modules ("[ext4]") of the
 * kernel with the recorded build id (NULL, size 0: unknown). Symbols come
 * from opts.kallsyms if given; else from opts.vmlinux if given (alone);
 * else from /proc/kallsyms when the build id is unknown or the running
 * kernel's; else from the build-id cache's
 * [kernel.kallsyms]/BUILDID/kallsyms, or none (one warning), as perf does.
 * Addresses are the running kernel's.
 */
struct pd_dso *pd_symbolizer__kernel(struct pd_symbolizer *s,
				     const uint8_t *build_id,
				     size_t build_id_size);
/*
 * The same, for a recording whose kernel map names ref_name at ref_addr:
 * perf's "[kernel.kallsyms]_text" MMAP says _text ran at its pgoff. A
 * vmlinux's symbols move by ref_addr minus the vmlinux's own value of
 * ref_name (KASLR); none when ref_addr is 0 or ref_name NULL or not in
 * the vmlinux. Kallsyms addresses need no such move.
 */
struct pd_dso *pd_symbolizer__kernel_reloc(struct pd_symbolizer *s,
					   const uint8_t *build_id,
					   size_t build_id_size,
					   const char *ref_name,
					   uint64_t ref_addr);

/*
 * /tmp/perf-PID.map, whatever symfs says (perf 6.1 reads it there); a
 * DSO with no symbols if absent.
 */
struct pd_dso *pd_symbolizer__perf_map(struct pd_symbolizer *s, int pid);

/*
 * A jitdump: the code a JIT loaded and moved, as it wrote it to
 * jit-PID.dump (perf's Documentation/jitdump-specification.txt), turned
 * into the maps `perf inject --jit` (perf 6.1, util/jitdump.c) adds to
 * the recording: one per JIT_CODE_LOAD and JIT_CODE_MOVE, at the
 * record's time, naming the ELF file perf inject writes for the code,
 * "DIR/jitted-PID-INDEX.so" in the dump's directory. perf script prints
 * that name as the DSO and the file's one symbol, the code's name
 * (demangled as ELF symbols are), at offset ip - start.
 */
struct pd_jitdump;

struct pd_jit_map {
	uint64_t time;		/* when the map appears (perf clock) */
	int32_t pid, tid;
	uint64_t start, len;	/* [start, start + len) */
	uint64_t pgoff;		/* the DSO address of ip: ip - start + pgoff */
	const char *name;	/* "DIR/jitted-PID-INDEX.so" */
	struct pd_dso *dso;	/* its symbol; none for a move of code the
				 * dump never loaded (no such file) */
};

/*
 * The jitdump at path (read at symfs + path), loaded once per path. NULL
 * only on ENOMEM. A dump perf inject refuses (missing, bad magic, newer
 * version, unknown flags, TSC timestamps) is not valid and has no maps;
 * a damaged one (truncated, record sizes beyond the file, code sizes
 * beyond their record) keeps the maps of the records before the damage
 * and of the good records around bad ones. Either logs one warning.
 */
struct pd_jitdump *pd_symbolizer__jitdump(struct pd_symbolizer *s,
					  const char *path);
/*
 * Whether perf inject uses the dump: it then drops the dump's own MMAP
 * and the process's later anonymous ("//anon") maps from the recording.
 */
bool pd_jitdump__valid(const struct pd_jitdump *j);
/* The maps in time order (equal times in file order). */
size_t pd_jitdump__nr_maps(const struct pd_jitdump *j);
const struct pd_jit_map *pd_jitdump__map(const struct pd_jitdump *j,
					 size_t i);

/*
 * Symbol at addr. For ELF DSOs addr is what perf's map__map_ip() gives:
 * ip - map start + map pgoff (file offset based, perf's adjust rules for
 * ET_EXEC/ET_DYN applied inside). For the kernel and perf maps, the
 * absolute address. NULL when no symbol covers addr.
 */
const struct pd_sym *pd_dso__find(struct pd_dso *d, uint64_t addr);

/* For kernel addresses: the module name ("[ext4]") or NULL for the core
 * kernel. */
const char *pd_dso__kernel_module(struct pd_dso *d, uint64_t addr);

/*
 * The kernel map's range once the kernel DSO loaded: from kallsyms, the
 * span of the core symbols (modules left out; perf's
 * map__fixup_start/end); from a vmlinux, its relocated .text section
 * (dso__process_kernel_symbol()). 0, or -ENOENT for no such symbols.
 */
int pd_dso__kernel_range(const struct pd_dso *d, uint64_t *start,
			 uint64_t *end);

/*
 * Where the kernel's relocation reference symbol name ("_text" or
 * "_stext", perf's ref_reloc_sym: the symbol a recording's kernel map,
 * "[kernel.kallsyms]_text", gives the running address of) lies in d's
 * symbols: in kallsyms, at its address there; in a vmlinux, at its value
 * moved as the symbols were (pd_symbolizer__kernel_reloc()). An address
 * of the recording minus the recorded reference address is the same
 * offset from it whatever the boot's KASLR slide, so that offset plus
 * *addr is the address to look up in d. 0, or -ENOENT (another name,
 * not among the symbols, d no loaded kernel).
 */
int pd_dso__kernel_ref(const struct pd_dso *d, const char *name,
		       uint64_t *addr);

/*
 * From a vmlinux, the i-th (from 0) section other than .text holding
 * symbols: perf gives each a kernel map of its own, [start, end) (the
 * relocated section), whose DSO it prints as name,
 * "[kernel.kallsyms].init.text". pd_dso__find() names its addresses.
 * 0, or -ENOENT past the last.
 */
int pd_dso__kernel_section(const struct pd_dso *d, size_t i,
			   const char **name, uint64_t *start, uint64_t *end);

/*
 * The DSO's build id (the one it was asked for, else its file's): its
 * bytes, valid as long as the symbolizer, and *size; NULL when unknown.
 */
const uint8_t *pd_dso__build_id(const struct pd_dso *d, size_t *size);
/* Whether the DSO loaded (symbols found), and why not otherwise. */
bool pd_dso__loaded(const struct pd_dso *d);

/* The file symbols came from (after symfs/cache/debuglink), or NULL. */
const char *pd_dso__symsrc(const struct pd_dso *d);

/*
 * Inline chain at addr (same address space as pd_dso__find), innermost
 * first, as `addr2line -i -f -C` prints it: frames[0] is the innermost
 * inlined function with the line of addr, each next one its caller with
 * the call site's line, the last the containing out-of-line function.
 * Returns the number
 * of frames (0 when no DWARF covers addr) or -errno; at most max frames.
 */
int pd_dso__inline_frames(struct pd_dso *d, uint64_t addr,
			  struct pd_inline_frame *frames, int max);

/*
 * The same chain for a plain ELF virtual address of the file (what
 * `addr2line -e FILE ADDR` takes), not a map_ip address.
 */
int pd_dso__addr2line(struct pd_dso *d, uint64_t vaddr,
		      struct pd_inline_frame *frames, int max);

/*
 * The value of the first .symtab symbol of the DSO's own file named
 * name (mangled, exact), as `nm FILE` lists it: 0 or -ENOENT.
 */
int pd_dso__nm_lookup(struct pd_dso *d, const char *name, uint64_t *value);

/*
 * The GNU build id of the ELF file at path, at most max bytes into bid:
 * its size, or -1 when the file is missing, not ELF or has none.
 */
int pd_elf_build_id(const char *path, uint8_t *bid, size_t max);

/* The running kernel's build id (from /sys/kernel/notes), or -1. */
int pd_running_kernel_build_id(uint8_t *bid, size_t max);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_SYMBOLS_H */
