// SPDX-License-Identifier: MIT
/* Raw kernel frames named. See fold-kernel.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/format.h>
#include <perfdata/symbols.h>

#include "common/cli.h"
#include "common/hex.h"
#include "fold-data.h"
#include "fold-kernel.h"
#include "fold-raw.h"

struct warned {
	uint8_t bid[FOLD_RAW_BUILD_ID_MAX];
	size_t size;
};

struct fold_kernels {
	/* kernels named from this machine (or --kallsyms, --vmlinux) */
	struct pd_symbolizer_opts opts;
	struct pd_symbolizer *local;		/* made at first use */
	/* the archive's kernel: its build id and its symbols alone */
	struct pd_symbolizer *archive;
	uint8_t archive_bid[FOLD_RAW_BUILD_ID_MAX];
	size_t archive_bid_size;
	char *archive_file;
	/* the first warning of the last kernel loaded: why it has none */
	char *why;
	struct warned *warned;
	size_t nr_warned;
};

/* The library's warnings about a kernel's symbols, for warn_once(). */
static void keep_why(enum pd_log_level level, const char *msg, void *ctx)
{
	struct fold_kernels *k = ctx;

	if (level == PD_LOG_WARN && !k->why)
		k->why = strdup(msg);
}

/*
 * The build id the archive's manifest gives its kernel's symbols (the
 * fifth field of the "kallsyms" or "vmlinux" line, docs/archive.md):
 * its size, 0 when the line or the id ("-") is missing.
 */
static size_t manifest_kernel(const char *dir, const char *kind, uint8_t *bid)
{
	char *path, *line = NULL, *f, *end;
	size_t cap = 0, n = 0, i, klen = strlen(kind);
	int field;
	FILE *in;

	if (asprintf(&path, "%s/manifest", dir) < 0)
		return 0;
	in = fopen(path, "re");
	free(path);
	if (!in)
		return 0;
	while (!n && getline(&line, &cap, in) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, kind, klen) || line[klen] != '\t')
			continue;
		for (f = line, field = 0; f && field < 4; field++) {
			f = strchr(f, '\t');
			if (f)
				f++;
		}
		if (!f)
			continue;
		end = f + strcspn(f, "\t");
		if ((end - f) % 2 || end == f ||
		    (size_t)(end - f) > 2 * FOLD_RAW_BUILD_ID_MAX)
			continue;
		for (i = 0; f + 2 * i < end; i++) {
			int hi = hex_lower(f[2 * i]), lo = hex_lower(f[2 * i + 1]);

			if (hi < 0 || lo < 0)
				break;
			bid[i] = (uint8_t)(hi << 4 | lo);
		}
		if (f + 2 * i == end)
			n = i;
	}
	free(line);
	fclose(in);
	return n;
}

/*
 * An archive's kernel symbols, as a session over it takes them (its
 * vmlinux, else its kallsyms), when the manifest names their kernel;
 * --kallsyms and --vmlinux stay the only source, as with an archive
 * input. 0, or -ENOMEM.
 */
static int use_archive(struct fold_kernels *k, const char *dir)
{
	static const char *const kinds[] = { "vmlinux", "kallsyms" };
	struct pd_symbolizer_opts o = k->opts;
	size_t i;

	if (k->opts.kallsyms || k->opts.vmlinux)
		return 0;
	for (i = 0; i < 2 && !k->archive_file; i++) {
		if (asprintf(&k->archive_file, "%s/%s", dir, kinds[i]) < 0) {
			k->archive_file = NULL;
			return -ENOMEM;
		}
		k->archive_bid_size = manifest_kernel(dir, kinds[i],
						      k->archive_bid);
		if (k->archive_bid_size && !access(k->archive_file, R_OK)) {
			if (i)
				o.kallsyms = k->archive_file;
			else
				o.vmlinux = k->archive_file;
			break;
		}
		free(k->archive_file);
		k->archive_file = NULL;
	}
	if (!k->archive_file)
		return 0;
	k->archive = pd_symbolizer__new(&o);
	return k->archive ? 0 : -ENOMEM;
}

struct fold_kernels *fold_kernels__new(const struct fold_data_opts *o,
				       const char *archive_dir)
{
	struct fold_kernels *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->opts.sz = sizeof(k->opts);
	k->opts.symfs = o->symfs;
	k->opts.roots = o->roots;
	k->opts.kallsyms = o->kallsyms;
	k->opts.vmlinux = o->vmlinux;
	k->opts.no_debuginfod = o->no_debuginfod;
	k->opts.log = keep_why;
	k->opts.log_ctx = k;
	if (archive_dir && use_archive(k, archive_dir)) {
		fold_kernels__free(k);
		errno = ENOMEM;
		return NULL;
	}
	return k;
}

void fold_kernels__free(struct fold_kernels *k)
{
	if (!k)
		return;
	pd_symbolizer__free(k->local);
	pd_symbolizer__free(k->archive);
	free(k->archive_file);
	free(k->why);
	free(k->warned);
	free(k);
}

static struct pd_symbolizer *symbolizer_of(struct fold_kernels *k,
					   const struct fold_raw *r)
{
	if (k->archive && r->build_id_size == k->archive_bid_size &&
	    !memcmp(r->build_id, k->archive_bid, r->build_id_size))
		return k->archive;
	if (!k->local)
		k->local = pd_symbolizer__new(&k->opts);
	return k->local;
}

/* Once per kernel: why its raw frames stay unresolved. */
static void warn_once(struct fold_kernels *k, const struct fold_raw *r,
		      const struct pd_dso *d)
{
	char hex[2 * FOLD_RAW_BUILD_ID_MAX + 1];
	const char *ref = r->path + FOLD_RAW_KERNEL_LEN;
	struct warned *w;
	size_t i;

	for (i = 0; i < k->nr_warned; i++)
		if (k->warned[i].size == r->build_id_size &&
		    !memcmp(k->warned[i].bid, r->build_id, r->build_id_size))
			return;
	w = realloc(k->warned, (k->nr_warned + 1) * sizeof(*w));
	if (w) {
		k->warned = w;
		memcpy(w[k->nr_warned].bid, r->build_id, r->build_id_size);
		w[k->nr_warned++].size = r->build_id_size;
	}
	for (i = 0; i < r->build_id_size; i++)
		sprintf(hex + 2 * i, "%02x", r->build_id[i]);
	hex[2 * r->build_id_size] = '\0';
	if (pd_dso__loaded(d))
		pd_warn("raw kernel frames of build id %s: %s has no %s, the symbol their offsets are from: they stay unresolved",
			hex, pd_dso__symsrc(d) ? pd_dso__symsrc(d) :
			"its symbol table", ref);
	else if (k->why)
		pd_warn("raw kernel frames of build id %s: %s%s", hex, k->why,
			strstr(k->why, "unresolved") ? "" :
			": they stay unresolved");
	else
		pd_warn("raw kernel frames of build id %s: no symbols of that kernel: they stay unresolved",
			hex);
}

int fold_kernels__frame(struct fold_kernels *k, const struct fold_raw *r,
			struct pd_frame *fr)
{
	const char *ref = r->path + FOLD_RAW_KERNEL_LEN, *name = NULL, *sec;
	struct pd_symbolizer *sym = symbolizer_of(k, r);
	uint64_t base, addr, lo, hi;
	struct pd_dso *d;
	size_t i;

	memset(fr, 0, sizeof(*fr));
	fr->cpumode = PD_MISC_KERNEL;
	if (!sym)
		return -ENOMEM;
	/* (a kernel's symbols load once, at its first frame) */
	free(k->why);
	k->why = NULL;
	d = pd_symbolizer__kernel(sym, r->build_id, r->build_id_size);
	if (!d)
		return -ENOMEM;
	if (pd_dso__kernel_ref(d, ref, &base)) {
		warn_once(k, r, d);
		fr->ip = fr->addr = r->addr;
		fr->has_map = fr->kernel = true;
		fr->dso_name = FOLD_RAW_KERNEL;
		return 0;
	}
	addr = base + r->addr;
	fr->ip = fr->addr = addr;
	fr->dso_name = "[unknown]";
	/*
	 * the kernel map as the session moves it to these symbols: the
	 * span of kallsyms' core symbols, or a vmlinux's .text and a map
	 * per other section with symbols; beyond, no map
	 */
	if (!pd_dso__kernel_range(d, &lo, &hi) && addr >= lo && addr < hi)
		name = FOLD_RAW_KERNEL;
	for (i = 0; !name && !pd_dso__kernel_section(d, i, &sec, &lo, &hi); i++)
		if (addr >= lo && addr < hi)
			name = sec;
	if (!name)
		return 0;
	fr->has_map = fr->kernel = true;
	fr->dso_name = name;
	fr->dso = d;
	fr->sym = pd_dso__find(d, addr);
	return 0;
}
