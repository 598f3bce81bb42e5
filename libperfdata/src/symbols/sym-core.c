// SPDX-License-Identifier: MIT
/*
 * The symbolizer: one pd_dso per (path, build id), loaded on first use
 * and kept until the symbolizer is freed. A lookup finds the DSO, or
 * takes it from the preload (sym-preload.c), or makes it (sym-dso.c) and
 * has the loader of its kind fill it (sym-elf.c, sym-kernel.c,
 * sym-perfmap.c). The top of symbols/: nothing here is called from the
 * files below.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/debuginfod.h>

#include "archives/archive-internal.h"
#include "sym-internal.h"

#define SYM_HASH_SIZE 1024

/* The caller's roots, kept (its array need not outlive the call). */
static int copy_roots(struct pd_symbolizer *s)
{
	const char *const *r = s->opts.roots;
	size_t n = 0, i;

	s->opts.roots = NULL;
	while (r && r[n])
		n++;
	if (!n)
		return 0;
	s->roots = calloc(n + 1, sizeof(*s->roots));
	if (!s->roots)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		s->roots[i] = strdup(r[i]);
		if (!s->roots[i])
			return -ENOMEM;
	}
	s->nr_roots = n;
	s->opts.roots = (const char *const *)s->roots;
	return 0;
}

PD_EXPORT struct pd_symbolizer *
pd_symbolizer__new(const struct pd_symbolizer_opts *opts)
{
	struct pd_symbolizer *s = calloc(1, sizeof(*s));
	const char *dir;

	if (!s)
		return NULL;
	if (opts)
		memcpy(&s->opts, opts, opts->sz < sizeof(s->opts) ?
		       opts->sz : sizeof(s->opts));
	s->opts.sz = sizeof(s->opts);
	s->files_only = s->opts.elf_files_only;
	s->log.fn = s->opts.log;
	s->log.ctx = s->opts.log_ctx;
	s->log.name = "symbols";
	/* perf: --symfs "" is no symfs; a trailing '/' changes nothing */
	if (s->opts.symfs && s->opts.symfs[0])
		s->symfs = strdup(s->opts.symfs);
	dir = s->opts.buildid_dir;
	if (!dir && !s->symfs)
		dir = getenv("PERF_BUILDID_DIR");
	if (dir) {
		s->buildid_dir = strdup(dir);
	} else if (s->symfs) {
		/* perf's --symfs=DIR also moves its build-id cache to
		 * DIR/.debug (symbol__config_symfs) */
		if (asprintf(&s->buildid_dir, "%s/.debug", s->symfs) < 0)
			s->buildid_dir = NULL;
	} else {
		const char *home = getenv("HOME");
		char conf[4096];

		if (pd_perf_config_buildid_dir(conf, sizeof(conf)))
			s->buildid_dir = strdup(conf);
		else if (asprintf(&s->buildid_dir, "%s/.debug", home ? home : "") < 0)
			s->buildid_dir = NULL;
	}
	if (copy_roots(s)) {
		pd_symbolizer__free(s);
		errno = ENOMEM;
		return NULL;
	}
	if (s->opts.kallsyms)
		s->kallsyms = strdup(s->opts.kallsyms);
	if (s->opts.vmlinux && s->opts.vmlinux[0])
		s->vmlinux = strdup(s->opts.vmlinux);
	s->hash_size = SYM_HASH_SIZE;
	s->hash = calloc(s->hash_size, sizeof(*s->hash));
	if (!s->buildid_dir || (s->opts.kallsyms && !s->kallsyms) || !s->hash ||
	    (s->opts.vmlinux && s->opts.vmlinux[0] && !s->vmlinux) ||
	    (s->opts.symfs && s->opts.symfs[0] && !s->symfs)) {
		pd_symbolizer__free(s);
		errno = ENOMEM;
		return NULL;
	}
	return s;
}

/*
 * An archive's directory is a build-id cache holding every file it
 * stores, and its vmlinux or kallsyms are the recording kernel's: they
 * replace the local ones, except that a --kallsyms or --vmlinux given
 * stays the kernel's only source, as without an archive. Its copies of
 * JIT symbols (perf maps, jitdumps) are the only ones read.
 */
int pd__sym_use_archive(struct pd_symbolizer *s, struct pd_archive *a)
{
	bool own_kernel = s->opts.kallsyms || s->vmlinux;
	char *dir, *ks = NULL, *vml = NULL;

	if (s->archive == a)
		return 0;
	dir = strdup(a->dir);
	/* perf prefers a vmlinux to kallsyms (dso__load_kernel_sym()) */
	if (!own_kernel && a->vmlinux)
		vml = strdup(a->vmlinux);
	else if (!own_kernel && a->kallsyms)
		ks = strdup(a->kallsyms);
	if (!dir || (!own_kernel && a->vmlinux && !vml) ||
	    (!own_kernel && !a->vmlinux && a->kallsyms && !ks)) {
		free(dir);
		free(ks);
		free(vml);
		return -ENOMEM;
	}
	free(s->buildid_dir);
	s->buildid_dir = dir;
	if (ks) {
		free(s->kallsyms);
		s->kallsyms = ks;
	}
	if (vml)
		s->vmlinux = vml;
	pd__archive_put(s->archive);
	pd__archive_get(a);
	s->archive = a;
	return 0;
}

PD_EXPORT void pd_symbolizer__free(struct pd_symbolizer *s)
{
	struct pd_dso *d, *next;
	size_t i;

	if (!s)
		return;
	sym_preload__free(s);
	for (d = s->dsos; d; d = next) {
		next = d->next;
		sym_dso__free(d);
	}
	sym_jitdump__free(s->jitdumps);
	if (s->own_vdso) {
		unlink(s->own_vdso);
		free(s->own_vdso);
	}
	pd__archive_put(s->archive);
	pd_debuginfod__free(s->debuginfod);
	free(s->hash);
	free(s->mapped);
	sym_perf_elf__free(s);
	for (i = 0; s->roots && s->roots[i]; i++)
		free(s->roots[i]);
	free(s->roots);
	free(s->symfs);
	free(s->buildid_dir);
	free(s->kallsyms);
	free(s->vmlinux);
	free(s);
}

static uint64_t hash_key(const struct sym_key *k)
{
	uint64_t h = 1469598103934665603ULL;
	const char *path;
	size_t i;

	for (path = k->path; *path; path++)
		h = (h ^ (uint8_t)*path) * 1099511628211ULL;
	for (i = 0; i < k->build_id_size; i++)
		h = (h ^ k->build_id[i]) * 1099511628211ULL;
	if (k->has_ino)
		h = (h ^ k->ino ^ (uint64_t)k->maj << 40 ^
		     (uint64_t)k->min << 20) * 1099511628211ULL;
	return h;
}

static bool same_key(const struct pd_dso *d, const struct sym_key *k)
{
	/* the loader fills in a file's id when none was given */
	if (d->key_build_id_size != k->build_id_size ||
	    (k->build_id_size &&
	     memcmp(d->build_id, k->build_id, k->build_id_size)) ||
	    d->key_has_ino != k->has_ino || d->ident != k->ident ||
	    strcmp(d->path, k->path))
		return false;
	return !k->has_ino || (d->key_maj == k->maj && d->key_min == k->min &&
			       d->key_ino == k->ino);
}

/* One warning per path and kind of refusal, for all its mapped files. */
static bool ident_warned(const struct pd_symbolizer *s, const struct pd_dso *d)
{
	const struct pd_dso *o;

	for (o = s->dsos; o; o = o->next)
		if (o != d && o->ident == d->ident && o->kind == PD_DSO_ELF &&
		    !strcmp(o->path, d->path))
			return true;
	return false;
}

/*
 * Why a mapped file of the recording machine has no file here
 * (sym-mapped.c): once per path, not once per container.
 */
static void warn_refused(struct pd_symbolizer *s, const struct pd_dso *d)
{
	char file[4096];

	if (ident_warned(s, d))
		return;
	if (s->symfs)
		sym_join_symfs(s, file, sizeof(file), d->path);
	else
		snprintf(file, sizeof(file), "the file at this path");
	switch (d->ident) {
	case SYM_IDENT_MISSING:
		pd__warn(&s->log,
			 "%s: not found, and the recording names no build id for it: frames stay unresolved",
			 d->path);
		break;
	case SYM_IDENT_OTHER:
		pd__warn(&s->log,
			 "%s: %s is not the file the profile mapped (another device or inode: replaced since, or a container's own file) and the recording names no build id for it: frames stay unresolved (record with perf record --buildid-mmap, and give a container's tree with --root=DIR)",
			 d->path, file);
		break;
	case SYM_IDENT_HOST_BID:
		pd__warn(&s->log,
			 "%s: the recorded build id is that of %s, not of the file the profile mapped (another device or inode: perf record reads build ids in its own mount namespace, not a container's): frames stay unresolved (record with perf record --buildid-mmap, and give a container's tree with --root=DIR)",
			 d->path, file);
		break;
	default:
		break;
	}
}

/* Why a DSO has no symbols, once: the user can fix each cause. */
static void warn_unloaded(struct pd_symbolizer *s, const struct pd_dso *d)
{
	if (d->ident >= SYM_IDENT_MISSING)
		warn_refused(s, d);
	else if (d->mismatch && !d->symsrc)
		pd__warn(&s->log,
			 "%s: %s has another build id than the recorded one (changed since the recording?) and no copy with the recorded id was found (perf buildid-cache, --symfs): frames stay unresolved",
			 d->path, d->mismatch);
	else if (!d->found_file)
		pd__warn(&s->log,
			 "%s: not found (nor in the build-id cache %s): frames stay unresolved",
			 d->path, s->buildid_dir);
	else
		pd__warn(&s->log, "%s: no symbols (stripped?)", d->path);
}

struct pd_dso *sym_dso_get(struct pd_symbolizer *s, const struct sym_key *k)
{
	struct pd_dso *d;
	uint64_t h = hash_key(k) % s->hash_size;

	for (d = s->hash[h]; d; d = d->hnext)
		if (same_key(d, k))
			return d;
	/* loaded ahead (sym-preload.c), by path and build id: the same
	 * symbols */
	d = k->has_ino || k->ident != SYM_IDENT_UNCHECKED ? NULL :
	    sym_preload__take(s, PD_DSO_ELF, k->path, k->build_id,
			      k->build_id_size);
	if (d) {
		d->next = s->dsos;
		s->dsos = d;
		d->hnext = s->hash[h];
		s->hash[h] = d;
		sym_lru__account(d);
		return d;
	}
	d = sym_dso__new(s, PD_DSO_ELF, k->path);
	if (!d) {
		errno = ENOMEM;
		return NULL;
	}
	sym_dso__set_key(d, k);
	d->hnext = s->hash[h];
	s->hash[h] = d;
	if (sym_elf__load(d) == -ENOMEM) {
		errno = ENOMEM;
		return NULL;
	}
	/* files only: no symbols is what was asked for; a refusal still
	 * says why the file is not used */
	if (!d->loaded && (!s->files_only || d->ident >= SYM_IDENT_MISSING))
		warn_unloaded(s, d);
	sym_lru__account(d);
	return d;
}

PD_EXPORT struct pd_dso *pd_symbolizer__dso(struct pd_symbolizer *s,
					    const char *path,
					    const uint8_t *build_id,
					    size_t build_id_size)
{
	struct sym_key k = { .path = path };

	if (!build_id)
		build_id_size = 0;
	/* a file the profile gives no build id: the archive's manifest
	 * says which of its files it was */
	if (!build_id_size && s->archive)
		pd__archive_path_bid(s->archive, path, &build_id, &build_id_size);
	if (build_id_size > PD_BUILD_ID_MAX)
		build_id_size = PD_BUILD_ID_MAX;
	k.build_id = build_id;
	k.build_id_size = build_id_size;
	return sym_dso_get(s, &k);
}

PD_EXPORT struct pd_dso *
pd_symbolizer__kernel_reloc(struct pd_symbolizer *s, const uint8_t *build_id,
			    size_t build_id_size, const char *ref_name,
			    uint64_t ref_addr)
{
	struct pd_dso *d;

	if (!build_id)
		build_id_size = 0;
	if (build_id_size > PD_BUILD_ID_MAX)
		build_id_size = PD_BUILD_ID_MAX;
	if (!ref_name)
		ref_addr = 0;
	for (d = s->dsos; d; d = d->next)
		if (d->kind == PD_DSO_KERNEL &&
		    d->key_build_id_size == build_id_size &&
		    !memcmp(d->build_id, build_id ? build_id : d->build_id,
			    build_id_size) &&
		    (!s->vmlinux || d->ref_addr == ref_addr))
			return d;
	/* loaded ahead (sym-preload.c), with no vmlinux: the same symbols */
	d = sym_preload__take(s, PD_DSO_KERNEL, "[kernel.kallsyms]", build_id,
			      build_id_size);
	if (d) {
		d->ref_addr = ref_addr;
		d->next = s->dsos;
		s->dsos = d;
		return d;
	}
	d = sym_dso__new(s, PD_DSO_KERNEL, "[kernel.kallsyms]");
	if (!d) {
		errno = ENOMEM;
		return NULL;
	}
	d->ref_addr = ref_addr;
	if (build_id_size) {
		memcpy(d->build_id, build_id, build_id_size);
		d->build_id_size = build_id_size;
		d->key_build_id_size = build_id_size;
		d->has_build_id = true;
	}
	if (sym_kernel__load(s, d, build_id, build_id_size, ref_name,
			     ref_addr) == -ENOMEM) {
		errno = ENOMEM;
		return NULL;
	}
	return d;
}

PD_EXPORT struct pd_dso *pd_symbolizer__kernel(struct pd_symbolizer *s,
					       const uint8_t *build_id,
					       size_t build_id_size)
{
	return pd_symbolizer__kernel_reloc(s, build_id, build_id_size, NULL, 0);
}

/*
 * perf 6.1's dso__load() reads the map at its own name, not under
 * --symfs (perf script --symfs=DIR still names frames from
 * /tmp/perf-PID.map, and ignores DIR/tmp/perf-PID.map). A profile read
 * from an archive uses the archive's copy, never this machine's /tmp.
 */
PD_EXPORT struct pd_dso *pd_symbolizer__perf_map(struct pd_symbolizer *s, int pid)
{
	char name[64], file[4096];
	struct pd_dso *d;

	snprintf(name, sizeof(name), "/tmp/perf-%d.map", pid);
	for (d = s->dsos; d; d = d->next)
		if (d->kind == PD_DSO_PERF_MAP && !strcmp(d->path, name))
			return d;
	d = sym_dso__new(s, PD_DSO_PERF_MAP, name);
	if (!d) {
		errno = ENOMEM;
		return NULL;
	}
	if (s->archive)
		pd__archive_perf_map(s->archive, pid, file, sizeof(file));
	if (sym_perfmap__load(d, s->archive ? file : name) == -ENOMEM) {
		errno = ENOMEM;
		return NULL;
	}
	return d;
}

PD_EXPORT bool pd_dso__loaded(const struct pd_dso *d)
{
	return d && d->loaded;
}

PD_EXPORT const uint8_t *pd_dso__build_id(const struct pd_dso *d, size_t *size)
{
	if (!d || !d->has_build_id || !d->build_id_size) {
		*size = 0;
		return NULL;
	}
	*size = d->build_id_size;
	return d->build_id;
}

PD_EXPORT const char *pd_dso__symsrc(const struct pd_dso *d)
{
	return d ? d->symsrc : NULL;
}

/* d's chain at vaddr, d loaded again if released and what its DWARF
 * came to hold counted. */
static int inline_frames(struct pd_dso *d, uint64_t vaddr,
			 struct pd_inline_frame *frames, int max)
{
	int n;

	if (sym_lru__resident(d))
		return -ENOMEM;
	n = sym_inline__frames(d, vaddr, frames, max);
	sym_lru__account(d);
	sym_lru__touch(d);
	return n;
}

/*
 * Symbols of an adjusted ELF file are file-offset based (perf's map_ip);
 * DWARF speaks virtual addresses: back through the PT_LOAD holding the
 * offset.
 */
PD_EXPORT int pd_dso__inline_frames(struct pd_dso *d, uint64_t addr,
				    struct pd_inline_frame *frames, int max)
{
	size_t i;

	if (!d || d->kind != PD_DSO_ELF)
		return 0;
	/*
	 * perf runs addr2line on the file its symbols came from only when
	 * that file has a .symtab, else on the DSO's own name, and never on
	 * a "[name]": so the vdso (a .dynsym only) gets no inline frames.
	 */
	if (!d->symsrc_symtab && d->path[0] == '[')
		return 0;
	for (i = 0; i < d->nr_segs; i++) {
		const struct sym_seg *g = &d->segs[i];

		if (addr >= g->offset && addr < g->offset + g->filesz) {
			addr = addr - g->offset + g->vaddr;
			break;
		}
	}
	return inline_frames(d, addr, frames, max);
}

PD_EXPORT int pd_dso__addr2line(struct pd_dso *d, uint64_t vaddr,
				struct pd_inline_frame *frames, int max)
{
	if (!d || d->kind != PD_DSO_ELF)
		return 0;
	return inline_frames(d, vaddr, frames, max);
}

PD_EXPORT int pd_dso__nm_lookup(struct pd_dso *d, const char *name,
				uint64_t *value)
{
	if (!d || d->kind != PD_DSO_ELF || !d->runtime)
		return -ENOENT;
	return sym_elf__nm_lookup(d->runtime, name, value);
}
