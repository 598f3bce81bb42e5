// SPDX-License-Identifier: MIT
/*
 * The session's kernel maps, fed hand-made records and a hand-made
 * kallsyms, each rule as perf 6.1 states it in its source:
 *  - the kernel's symbols load on the first lookup that lands in the
 *    kernel map (thread__find_map: map__load), which then moves to the
 *    first and last core symbols (dso__load_kernel_sym: map__fixup_start
 *    and map__fixup_end): init text past the recorded _etext is named
 *    from then on, not before;
 *  - a module map's DSO loads on its own first lookup: from its file,
 *    or empty, for good; only a module not yet loaded when the kernel's
 *    symbols load gets kallsyms' symbols of it (maps__split_kallsyms);
 *  - KSYMBOL registers a map of its own DSO (named after the symbol,
 *    one symbol of the recorded length) and unregisters it
 *    (machine__process_ksymbol).
 * t0084-fold-system.sh compares real system-wide recordings with perf.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/format.h>
#include <perfdata/session.h>
#include <perfdata/symbols.h>

#include "tap.h"

#define TEXT	0xffffffff81000000ULL
#define ETEXT	0xffffffff81001000ULL
#define INIT	0xffffffff82000000ULL	/* init text, past _etext */
#define MOD_A	0xffffffffc0001000ULL
#define MOD_B	0xffffffffc0002000ULL
#define BPF	0xffffffffc0010000ULL

static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000100 T core_fn\n"
	"ffffffff81001000 T _etext\n"
	"ffffffff82000000 T start_kernel\n"
	"ffffffff82000400 D last_data\n"
	"ffffffffc0001000 t a_fn\t[moda]\n"
	"ffffffffc0002000 t b_fn\t[modb]\n";

static void mmap_event(struct pd_session *s, const char *name, uint64_t start,
		       uint64_t len, uint64_t pgoff)
{
	struct pd_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = PD_RECORD_MMAP;
	ev.misc = PD_MISC_KERNEL;
	ev.u.mmap.pid = ev.u.mmap.tid = (uint32_t)-1;
	ev.u.mmap.start = start;
	ev.u.mmap.len = len;
	ev.u.mmap.pgoff = pgoff;
	ev.u.mmap.filename = name;
	CHECK(!pd_session__event(s, &ev), "MMAP %s taken", name);
}

static void ksymbol_event(struct pd_session *s, const char *name,
			  uint64_t addr, uint32_t len, bool unregister)
{
	struct pd_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = PD_RECORD_KSYMBOL;
	ev.u.ksymbol.addr = addr;
	ev.u.ksymbol.len = len;
	ev.u.ksymbol.ksym_type = PD_KSYMBOL_TYPE_BPF;
	ev.u.ksymbol.flags = unregister ? PD_KSYMBOL_FLAG_UNREGISTER : 0;
	ev.u.ksymbol.name = name;
	CHECK(!pd_session__event(s, &ev), "KSYMBOL %s%s taken",
	      unregister ? "unregister " : "", name);
}

/* The name a kernel address gets, "" for no symbol. */
static const char *name_of(struct pd_session *s, uint64_t ip,
			   struct pd_frame *f)
{
	pd_session__resolve(s, NULL, PD_MISC_KERNEL, ip, f);
	return f->sym ? f->sym->name : "";
}

int main(void)
{
	char dir[] = "/tmp/pd-kmaps-XXXXXX", path[64];
	struct pd_symbolizer_opts so = { .sz = sizeof(so) };
	struct pd_session_opts o = { .sz = sizeof(o) };
	struct pd_symbolizer *sym;
	struct pd_session *s;
	struct pd_frame f;
	FILE *fp;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	fp = fopen(path, "w");
	if (!fp || fputs(kallsyms, fp) < 0 || fclose(fp))
		return 1;
	so.kallsyms = path;
	sym = pd_symbolizer__new(&so);
	o.symbolizer = sym;
	s = sym ? pd_session__new(NULL, &o) : NULL;
	if (!s)
		return 1;

	/* the kernel map as perf record writes it: _text to _etext */
	mmap_event(s, "[kernel.kallsyms]_text", TEXT, ETEXT - TEXT, TEXT);
	mmap_event(s, "[moda]", MOD_A, 0x1000, 0);
	mmap_event(s, "[modb]", MOD_B, 0x1000, 0);
	ksymbol_event(s, "bpf_prog_0123456789abcdef_x", BPF, 0x80, false);

	CHECK(!strcmp(name_of(s, INIT + 0x10, &f), "") && !f.has_map,
	      "init text before the kernel's symbols load: no map, unnamed");
	CHECK(!strcmp(name_of(s, MOD_B + 0x10, &f), "") && f.has_map &&
	      !strcmp(f.dso_name, "[modb]"),
	      "a module first looked up before the kernel's symbols: its map, no symbol (no file)");
	CHECK(!strcmp(name_of(s, TEXT + 0x104, &f), "core_fn") &&
	      !strcmp(f.dso_name, "[kernel.kallsyms]"),
	      "core text: named, the kernel's symbols loaded");
	CHECK(!strcmp(name_of(s, INIT + 0x10, &f), "start_kernel") &&
	      !strcmp(f.dso_name, "[kernel.kallsyms]"),
	      "init text past _etext, once loaded: named in the moved kernel map");
	CHECK(!strcmp(name_of(s, 0xffffffff82000410ULL, &f), "last_data"),
	      "up to the last core symbol's end");
	CHECK(!strcmp(name_of(s, 0xffffffff82002000ULL, &f), "") && !f.has_map,
	      "past the last core symbol's end (its next page): no map");
	CHECK(!strcmp(name_of(s, MOD_A + 0x10, &f), "a_fn") &&
	      !strcmp(f.dso_name, "[moda]"),
	      "a module first looked up after the kernel's symbols: kallsyms names it");
	CHECK(!strcmp(name_of(s, MOD_B + 0x10, &f), ""),
	      "the module looked up before stays unnamed");
	CHECK(!strcmp(name_of(s, BPF + 0x40, &f), "bpf_prog_0123456789abcdef_x") &&
	      !strcmp(f.dso_name, "bpf_prog_0123456789abcdef_x") &&
	      f.addr == 0x40 && f.sym->start == 0,
	      "a BPF program's KSYMBOL: its map and DSO named after it, one symbol from its start");
	CHECK(!strcmp(name_of(s, BPF + 0x80, &f), "") && !f.has_map,
	      "... of the recorded length");
	ksymbol_event(s, "bpf_prog_0123456789abcdef_x", BPF, 0x80, true);
	CHECK(!strcmp(name_of(s, BPF + 0x40, &f), "") && !f.has_map,
	      "unregistered: its map is gone");
	ksymbol_event(s, "not_the_kernel", TEXT + 0x100, 0x10, true);
	CHECK(!strcmp(name_of(s, TEXT + 0x104, &f), "core_fn"),
	      "an unregister in the kernel map leaves the kernel map");

	pd_session__free(s);
	pd_symbolizer__free(sym);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
