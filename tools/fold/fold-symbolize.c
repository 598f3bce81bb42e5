// SPDX-License-Identifier: MIT
/* pd-fold --symbolize. See fold-symbolize.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/format.h>
#include <perfdata/reader.h>
#include <perfdata/session.h>
#include <perfdata/symbols.h>

#include <perfdata/archive.h>

#include "common/cli.h"
#include "fold.h"
#include "fold-data.h"
#include "fold-kernel.h"
#include "fold-raw.h"
#include "fold-script.h"
#include "fold-lines.h"
#include "fold-symbolize.h"
#include "script-text.h"

/* pd_unwinder's bound on one frame's inlined functions (unwind-frames.c) */
#define MAX_INLINE	64

struct fold_symbolize {
	struct folder *f;
	struct fold_script_parser *parser;
	struct pd_symbolizer *sym;
	/* an archive is the symbolizer's through a session of its reader */
	struct pd_reader *archive;
	struct pd_session *session;
	struct fold_kernels *kernels;	/* raw kernel frames' symbols */
	struct fold_raw raw;
	size_t symbol_memory;		/* --symbol-memory, 0: none */
	struct pd_inline_frame inl[MAX_INLINE];
	char *pname;
	size_t pname_cap;
	char line[8192];
};

struct fold_symbolize *fold_symbolize__new(struct folder *f,
					   const struct fold_data_opts *o,
					   const char *archive)
{
	struct pd_symbolizer_opts sopts = {
		.sz = sizeof(sopts),
		.symfs = o->symfs,
		.roots = o->roots,
		.no_debuginfod = o->no_debuginfod,
	};
	struct pd_session_opts xopts = { .sz = sizeof(xopts) };
	struct fold_symbolize *s = calloc(1, sizeof(*s));

	if (!s)
		goto nomem;
	s->f = f;
	s->symbol_memory = o->symbol_memory;
	s->parser = fold_script_parser__new(f, "--symbolize");
	s->sym = pd_symbolizer__new(&sopts);
	if (!s->parser || !s->sym)
		goto nomem;
	if (archive) {
		s->archive = pd_cli_open(archive, NULL);
		if (!s->archive)
			goto fail;
		xopts.symbolizer = s->sym;
		s->session = pd_session__new(s->archive, &xopts);
		if (!s->session)
			goto nomem;
	}
	s->kernels = fold_kernels__new(o, s->archive ?
				       pd_reader__archive_dir(s->archive) :
				       NULL);
	if (!s->kernels)
		goto nomem;
	return s;
nomem:
	pd_err("%s", strerror(ENOMEM));
fail:
	fold_symbolize__free(s);
	return NULL;
}

void fold_symbolize__free(struct fold_symbolize *s)
{
	if (!s)
		return;
	fold_script_parser__free(s->parser);
	fold_kernels__free(s->kernels);
	pd_session__free(s->session);
	pd_reader__close(s->archive);
	pd_symbolizer__free(s->sym);
	free(s->pname);
	free(s);
}

/* A pd_frame folded as fold-data.c folds one: its perf script line. */
static void fold_frame(struct fold_symbolize *s, const struct pd_frame *fr)
{
	size_t len = script_text__frame(fr, s->line, sizeof(s->line));

	fold_script_parser__line(s->parser, s->line, len);
}

/*
 * A raw frame named as the session and unwinder name a user frame: the
 * symbol at its address in the file of its path and build id, and for
 * a DWARF-unwound frame first its inlined functions (perf's
 * append_inlines(), as pd_unwinder__sample_frames() adds them).
 */
static int name_raw(struct fold_symbolize *s, const struct fold_raw *r)
{
	struct pd_frame fr = {
		.ip = r->addr, .addr = r->addr, .cpumode = PD_MISC_USER,
		.has_map = true, .dso_name = r->path,
	};
	int k = 0, i;

	/* a kernel's: resolved as the session resolves a kernel address */
	if (r->kernel) {
		k = fold_kernels__frame(s->kernels, r, &fr);
		if (!k)
			fold_frame(s, &fr);
		return k;
	}
	fr.dso = pd_symbolizer__dso(s->sym, r->path,
				    r->build_id_size ? r->build_id : NULL,
				    r->build_id_size);
	if (!fr.dso)
		return -ENOMEM;
	fr.sym = pd_dso__find(fr.dso, r->addr);
	if (r->dwarf && fr.sym)
		k = pd_dso__inline_frames(fr.dso, r->addr, s->inl, MAX_INLINE);
	if (k <= 0) {
		fold_frame(s, &fr);
		return 0;
	}
	for (i = 0; i < k; i++) {
		struct pd_frame in = fr;
		const char *name = s->inl[i].perf_name ? s->inl[i].perf_name : "??";

		if (strcmp(name, fr.sym->name))
			in.inline_name = name;
		fold_frame(s, &in);
	}
	return 0;
}

/* One folded line: its frames leaf first, raw ones named. */
static int symbolize_line(void *ctx, const char *key, size_t len,
			  uint64_t count)
{
	struct fold_symbolize *s = ctx;
	struct fold_sample smp = {
		.pid = -1, .tid = -1, .cpu = -1,
		.has_period = true, .period = count,
	};
	const char *end = key + len, *p, *semi = memchr(key, ';', len);
	size_t n = semi ? (size_t)(semi - key) : len;

	if (n + 1 > s->pname_cap) {
		char *v = realloc(s->pname, n + 1);

		if (!v) {
			pd_err("%s", strerror(ENOMEM));
			return -ENOMEM;
		}
		s->pname = v;
		s->pname_cap = n + 1;
	}
	memcpy(s->pname, key, n);
	s->pname[n] = '\0';
	smp.comm = s->pname;
	if (!folder__begin(s->f, &smp))
		return 0;
	/* frames root first after the process name: walk back from the end */
	while (semi && end > semi) {
		for (p = end; p[-1] != ';'; p--)
			;
		if (fold_raw__parse(p, end - p, &s->raw)) {
			if (name_raw(s, &s->raw)) {
				pd_err("%s", strerror(ENOMEM));
				return -ENOMEM;
			}
		} else {
			folder__folded_frame(s->f, p, end - p, FOLD_FRAME_ANY);
		}
		end = p - 1;
	}
	folder__end(s->f);
	/*
	 * the line is folded, its frames copied as text: no name of the
	 * symbolizer's is held here, so files beyond the budget can go
	 */
	if (s->symbol_memory)
		pd_symbolizer__trim(s->sym, s->symbol_memory);
	return 0;
}

int fold_symbolize__file(struct fold_symbolize *s, FILE *in,
			 const char *name)
{
	return fold_read_lines(in, name, symbolize_line, s);
}
