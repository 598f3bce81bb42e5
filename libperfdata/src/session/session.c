// SPDX-License-Identifier: MIT
/*
 * Threads, maps and build ids rebuilt from the record stream, following
 * perf's rules (tools/perf/util/machine.c, thread.c, map.c) so that names
 * and frames come out as `perf script` prints them:
 * - a thread unknown so far is named ":TID"; tid 0 is "swapper";
 * - FORK gives the child its parent's name (when the parent has one from
 *   a COMM) and, for a new process, a copy of the parent's maps; threads of
 *   one process share the maps of its leader;
 * - COMM renames (exec included); EXIT changes nothing visible (a
 *   process's maps go a second later, when no sample can need them);
 * - maps with pid -1 are the kernel's ("[kernel.kallsyms]" and modules);
 *   anonymous executable memory, heap and stack are named
 *   "/tmp/perf-PID.map" and resolve through that file;
 * - a map of a jitdump (jit-PID.dump) brings in the maps perf inject
 *   --jit would add, each at its time (session-jit.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <perfdata/features.h>
#include <perfdata/format.h>
#include <perfdata/session.h>

#include "base/arena.h"
#include "archives/archive-internal.h"
#include "base/internal.h"
#include "session-internal.h"
#include "session-jit.h"
#include "session-maps.h"
#include "session-origin.h"
#include "symbols/sym-internal.h"
#include "symbols/sym-kmaps.h"
#include "symbols/sym-perf-elf.h"

/* FORK synthesized by perf record for a running task: no map copy */
#define MISC_FORK_EXEC	(1U << 13)

struct pd_thread {
	int32_t pid, tid;
	const char *comm;	/* interned */
	bool comm_set;		/* from a COMM (or inherited from one) */
	struct pd_maps *maps;
};

struct strtab {			/* interned strings */
	size_t nr, cap;
	const char **v;
};

struct bid_entry {		/* file name -> build id */
	const char *name;
	uint8_t size;
	uint8_t id[20];
	bool kernel;		/* listed with a kernel cpumode */
};

/*
 * A process that exited, its maps emptied once the session's time is
 * EXIT_GRACE_NS past its EXIT (see process_exit())
 */
struct exited {
	struct pd_thread *t;
	struct pd_maps *maps;	/* a reference: t's maps at its EXIT */
	uint64_t gen;		/* ... as they were then */
	uint64_t time;
};

#define EXIT_GRACE_NS	1000000000ULL

struct pd_session {
	struct pd_symbolizer *sym;
	struct pd_logger log;
	struct pd_arena arena;
	struct strtab strs;
	/* threads by tid: open addressing */
	struct pd_thread **threads;
	size_t nr_threads, cap_threads;
	struct pd_maps *kmaps;
	uint64_t kernel_start;
	/* the core kernel's symbol range, once kallsyms loaded */
	bool kernel_narrowed;
	bool kernel_clip;
	uint64_t kernel_lo, kernel_hi;
	/*
	 * perf's ref_reloc_sym: the kernel map "[kernel.kallsyms]_text"
	 * says _text ran at its pgoff (0: unknown, kptr_restrict). A
	 * vmlinux is relocated by it.
	 */
	const char *kref_name;
	uint64_t kref_addr;
	/* build ids by file name: open addressing */
	struct bid_entry *bids;
	size_t nr_bids, cap_bids;
	struct session_jit *jit;
	/*
	 * perf 6.1's perf_event__mmap2_swap() does not swap prot: in a
	 * file of the other byte order it tests PROT_EXEC in the swapped
	 * value, so anonymous executable maps keep their own name.
	 */
	bool prot_unswapped;
	struct frame_cache *frames;	/* pd_session__resolve()'s answers */
	struct session_origin *origin;	/* recorded here or not */
	/* EXITs in time order, a ring */
	struct exited *exited;
	size_t exited_head, nr_exited, cap_exited;
};

/*
 * A profile resolves the same few thousand addresses again and again,
 * each a map search and a symbol search (a bisection of a hundred
 * thousand kallsyms entries for kernel frames). The answer depends on
 * the maps object and the address alone, and a maps object's gen changes
 * with every change to any maps (session-maps.h), so the last answer for
 * (gen, cpumode, ip) in a direct-mapped table is the answer.
 */
#define FRAME_CACHE_SIZE	2048

struct frame_cache {
	struct frame_cache_slot {
		uint64_t gen;		/* 0: empty */
		struct pd_frame frame;
	} v[FRAME_CACHE_SIZE];
};

static struct frame_cache_slot *frame_slot(struct pd_session *s, uint64_t gen,
					   uint8_t cpumode, uint64_t ip)
{
	uint64_t h = (ip ^ gen * 0x9e3779b97f4a7c15ULL ^ cpumode) *
		     0xff51afd7ed558ccdULL;

	if (!s->frames) {
		s->frames = calloc(1, sizeof(*s->frames));
		if (!s->frames)
			return NULL;
	}
	return &s->frames->v[h >> 53 & (FRAME_CACHE_SIZE - 1)];
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static uint64_t hash_int(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return v;
}

/* The one copy of s; NULL on ENOMEM. */
static const char *intern(struct pd_session *s, const char *str)
{
	struct strtab *t = &s->strs;
	size_t i;

	if (t->nr * 2 >= t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		const char **v = calloc(cap, sizeof(*v));

		if (!v)
			return NULL;
		for (i = 0; i < t->cap; i++) {
			size_t j;

			if (!t->v[i])
				continue;
			for (j = hash_str(t->v[i]) & (cap - 1); v[j];
			     j = (j + 1) & (cap - 1))
				;
			v[j] = t->v[i];
		}
		free(t->v);
		t->v = v;
		t->cap = cap;
	}
	for (i = hash_str(str) & (t->cap - 1); t->v[i]; i = (i + 1) & (t->cap - 1))
		if (!strcmp(t->v[i], str))
			return t->v[i];
	t->v[i] = pd_arena_strndup(&s->arena, str, strlen(str));
	if (!t->v[i])
		return NULL;
	t->nr++;
	return t->v[i];
}

static int bid_add(struct pd_session *s, const char *name, const uint8_t *id,
		   uint8_t size, uint16_t misc)
{
	size_t i;

	if (!size || size > 20)
		return 0;
	name = intern(s, name);
	if (!name)
		return -ENOMEM;
	if (s->nr_bids * 2 >= s->cap_bids) {
		size_t cap = s->cap_bids ? s->cap_bids * 2 : 64;
		struct bid_entry *v = calloc(cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		for (i = 0; i < s->cap_bids; i++) {
			size_t j;

			if (!s->bids[i].name)
				continue;
			for (j = hash_str(s->bids[i].name) & (cap - 1); v[j].name;
			     j = (j + 1) & (cap - 1))
				;
			v[j] = s->bids[i];
		}
		free(s->bids);
		s->bids = v;
		s->cap_bids = cap;
	}
	for (i = hash_str(name) & (s->cap_bids - 1); s->bids[i].name;
	     i = (i + 1) & (s->cap_bids - 1))
		if (s->bids[i].name == name)
			break;
	if (!s->bids[i].name)
		s->nr_bids++;
	s->bids[i].name = name;
	s->bids[i].size = size;
	memcpy(s->bids[i].id, id, size);
	misc &= PD_MISC_CPUMODE_MASK;
	s->bids[i].kernel = misc == PD_MISC_KERNEL || misc == PD_MISC_GUEST_KERNEL;
	return 0;
}

static const struct bid_entry *bid_find(const struct pd_session *s,
					const char *name)
{
	size_t i;

	if (!s->cap_bids)
		return NULL;
	for (i = hash_str(name) & (s->cap_bids - 1); s->bids[i].name;
	     i = (i + 1) & (s->cap_bids - 1))
		if (!strcmp(s->bids[i].name, name))
			return &s->bids[i];
	return NULL;
}

PD_EXPORT struct pd_session *pd_session__new(const struct pd_reader *r,
					     const struct pd_session_opts *opts)
{
	struct pd_session *s;

	if (!opts || !opts->symbolizer) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->sym = opts->symbolizer;
	/* an archive's files resolve its profile's symbols */
	if (pd__reader_archive(r) &&
	    pd__sym_use_archive(s->sym, pd__reader_archive(r)))
		goto nomem;
	s->log.fn = opts->log;
	s->log.ctx = opts->log_ctx;
	s->kernel_start = 1ULL << 63;
	s->kmaps = pd__maps_new();
	s->jit = session_jit__new(r, s->sym, &s->log);
	s->origin = session_origin__new(r);
	if (!s->kmaps || !s->jit || !s->origin)
		goto nomem;
	if (r) {
		const struct pd_features *f = pd_reader__features(r);
		const struct pd_header_info *h = pd_reader__header(r);

		s->prot_unswapped = h && h->needs_swap;
		if (f && pd_features__has(f, PD_FEAT_BUILD_ID)) {
			uint32_t i;

			for (i = 0; i < f->build_ids.nr; i++) {
				const struct pd_build_id *b = &f->build_ids.ids[i];

				if (b->filename &&
				    bid_add(s, b->filename, b->id, b->size, b->misc))
					goto nomem;
			}
		}
		/*
		 * 32-bit kernels: all addresses are below 2^63, so the
		 * kernel's map start tells kernel from user (see
		 * kernel_map_added()).
		 */
		if (f && pd_features__has(f, PD_FEAT_ARCH) && f->arch &&
		    (!strcmp(f->arch, "i386") || !strcmp(f->arch, "i686") ||
		     !strncmp(f->arch, "arm", 3) || !strcmp(f->arch, "x86")))
			s->kernel_start = 0;
	}
	return s;
nomem:
	pd_session__free(s);
	errno = ENOMEM;
	return NULL;
}

/*
 * The files of the build-id table (those perf found samples in): the
 * user ones first, the kernel last, as a profile's first samples are
 * often the kernel's, which the first lookup then loads itself while the
 * thread loads the others.
 */
PD_EXPORT int pd_session__preload_symbols(struct pd_session *s)
{
	struct sym_preload_req *v;
	const struct bid_entry *kernel = NULL;
	size_t i, n = 0;
	int err;

	if (!s->nr_bids)
		return 0;
	v = calloc(s->nr_bids, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < s->cap_bids; i++) {
		const struct bid_entry *b = &s->bids[i];

		if (!b->name)
			continue;
		if (b->kernel && !strcmp(b->name, "[kernel.kallsyms]"))
			kernel = b;
		else if (!b->kernel && b->name[0] == '/')
			v[n++] = (struct sym_preload_req){
				.kind = PD_DSO_ELF, .path = b->name,
				.build_id = b->id, .build_id_size = b->size,
			};
	}
	if (kernel)
		v[n++] = (struct sym_preload_req){
			.kind = PD_DSO_KERNEL, .path = kernel->name,
			.build_id = kernel->id, .build_id_size = kernel->size,
		};
	err = sym_preload__start(s->sym, v, n);
	free(v);
	return err;
}

PD_EXPORT void pd_session__free(struct pd_session *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->cap_threads; i++) {
		if (!s->threads[i])
			continue;
		pd__maps_put(s->threads[i]->maps);
		free(s->threads[i]);
	}
	free(s->threads);
	for (i = 0; i < s->nr_exited; i++)
		pd__maps_put(s->exited[(s->exited_head + i) % s->cap_exited].maps);
	free(s->exited);
	pd__maps_put(s->kmaps);
	session_jit__free(s->jit);
	session_origin__free(s->origin);
	free(s->frames);
	free(s->bids);
	free(s->strs.v);
	pd_arena_free(&s->arena);
	free(s);
}

static struct pd_thread **thread_slot(struct pd_session *s, int32_t tid)
{
	size_t i;

	for (i = hash_int((uint32_t)tid) & (s->cap_threads - 1); s->threads[i];
	     i = (i + 1) & (s->cap_threads - 1))
		if (s->threads[i]->tid == tid)
			break;
	return &s->threads[i];
}

static struct pd_thread *thread_find(struct pd_session *s, int32_t tid)
{
	return s->cap_threads ? *thread_slot(s, tid) : NULL;
}

/* t's maps become m, whose reference t takes (NULL: none yet) */
static void thread_set_maps(struct pd_thread *t, struct pd_maps *m)
{
	if (t->maps) {
		t->maps->users--;
		pd__maps_put(t->maps);
	}
	t->maps = m;
	if (m)
		m->users++;
}

static int thread_table_grow(struct pd_session *s)
{
	struct pd_thread **old = s->threads;
	size_t oldcap = s->cap_threads, i;

	if (s->nr_threads * 2 < s->cap_threads)
		return 0;
	s->cap_threads = oldcap ? oldcap * 2 : 256;
	s->threads = calloc(s->cap_threads, sizeof(*s->threads));
	if (!s->threads) {
		s->threads = old;
		s->cap_threads = oldcap;
		return -ENOMEM;
	}
	for (i = 0; i < oldcap; i++)
		if (old[i])
			*thread_slot(s, old[i]->tid) = old[i];
	free(old);
	return 0;
}

static const char *default_comm(struct pd_session *s, int32_t tid)
{
	char buf[32];

	if (tid == 0)
		return intern(s, "swapper");
	snprintf(buf, sizeof(buf), ":%d", tid);
	return intern(s, buf);
}

/* The process's maps: the leader's, created with it. */
static struct pd_maps *leader_maps(struct pd_session *s, int32_t pid,
				   int32_t tid);

PD_EXPORT struct pd_thread *pd_session__thread(struct pd_session *s,
					       int32_t pid, int32_t tid)
{
	struct pd_thread *t;

	/*
	 * Threads are found by tid alone, as perf's machine__findnew_thread()
	 * finds them: a sample the kernel gives tid -1 (taken in a task whose
	 * pid is released already, late in its exit: the kernel's
	 * perf_event_tid() once pid_alive() fails) is the one thread -1,
	 * named ":-1", whatever its pid; the first pid it learns gives it
	 * that process's maps (below), as machine__update_thread_pid().
	 */
	t = thread_find(s, tid);
	if (t) {
		/* a thread first seen without its pid learns it */
		if (t->pid == -1 && pid != -1 && pid != tid) {
			struct pd_maps *m = leader_maps(s, pid, tid);

			if (!m)
				return NULL;
			thread_set_maps(t, m);
			t->pid = pid;
		}
		return t;
	}
	if (thread_table_grow(s))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	t->comm = default_comm(s, tid);
	if (pid != -1 && pid != tid)
		thread_set_maps(t, leader_maps(s, pid, tid));
	else
		thread_set_maps(t, pd__maps_new());
	if (!t->comm || !t->maps) {
		pd__maps_put(t->maps);
		free(t);
		return NULL;
	}
	*thread_slot(s, tid) = t;
	s->nr_threads++;
	return t;
}

PD_EXPORT struct pd_thread *
pd_session__sample_thread(struct pd_session *s, const struct pd_sample *sample)
{
	bool tid = sample->sample_type & PD_SAMPLE_TID;

	return pd_session__thread(s, tid ? (int32_t)sample->pid : -1,
				  tid ? (int32_t)sample->tid : -1);
}

static struct pd_maps *leader_maps(struct pd_session *s, int32_t pid,
				   int32_t tid)
{
	struct pd_thread *leader = pd_session__thread(s, pid, pid);

	return leader ? pd__maps_get(leader->maps) : NULL;
}

PD_EXPORT const char *pd_thread__comm(const struct pd_thread *t)
{
	return t->comm;
}

PD_EXPORT int32_t pd_thread__pid(const struct pd_thread *t)
{
	return t->pid;
}

PD_EXPORT int32_t pd_thread__tid(const struct pd_thread *t)
{
	return t->tid;
}

static int process_comm(struct pd_session *s, const struct pd_event *ev)
{
	const struct pd_comm_event *c = &ev->u.comm;
	struct pd_thread *t = pd_session__thread(s, c->pid, c->tid);
	const char *comm = intern(s, c->comm);

	if (!t || !comm)
		return -ENOMEM;
	/*
	 * An exec empties libunwind's cache of the process (perf's
	 * __thread__set_comm() calls unwind__flush_access() for an exec
	 * COMM of a thread whose comm was set: not for the first COMM of
	 * a thread seen before its FORK); its maps stay, as in perf.
	 */
	if (t->comm_set && (ev->misc & PD_MISC_COMM_EXEC))
		pd__maps_rs_flush(t->maps);
	t->comm = comm;
	t->comm_set = true;
	return 0;
}

/*
 * Whether perf registers its DWARF unwinder for a process when map comes
 * to it (unwind__prepare_access()): a map of a file it reads as ELF, or
 * of its own vdso (struct pd_maps).
 */
static bool perf_unwinds_with(struct pd_session *s, const struct pd_map *map)
{
	return map->path && !map->identity &&
	       pd__symbolizer_perf_opens_elf(s->sym, map->path, map->build_id,
					     map->build_id_size);
}

static int process_fork(struct pd_session *s, const struct pd_event *ev)
{
	const struct pd_fork_event *f = &ev->u.fork;
	struct pd_thread *parent, *t, **slot;

	parent = pd_session__thread(s, f->ppid, f->ptid);
	if (!parent)
		return -ENOMEM;
	/* a thread that had this tid is gone: start afresh */
	t = thread_find(s, f->tid);
	if (t && t != parent) {
		slot = thread_slot(s, f->tid);
		thread_set_maps(t, NULL);
		t->pid = f->pid;
		t->comm = default_comm(s, f->tid);
		t->comm_set = false;
		if (f->pid != f->tid)
			thread_set_maps(t, leader_maps(s, f->pid, f->tid));
		else
			thread_set_maps(t, pd__maps_new());
		if (!t->maps || !t->comm) {
			*slot = t;
			return -ENOMEM;
		}
	} else {
		t = pd_session__thread(s, f->pid, f->tid);
		if (!t)
			return -ENOMEM;
	}
	if (parent->comm_set) {
		t->comm = parent->comm;
		t->comm_set = true;
	}
	/*
	 * A new process starts with a copy of its parent's address space;
	 * a new thread already shares its leader's. Synthesized FORKs of
	 * running tasks are followed by their own MMAPs: no copy.
	 */
	if (t->pid != parent->pid && t->pid == t->tid &&
	    t->maps != parent->maps && !(ev->misc & MISC_FORK_EXEC)) {
		struct pd_maps *m = pd__maps_clone(parent->maps);
		size_t i;

		if (!m)
			return -ENOMEM;
		/*
		 * maps__clone() registers perf's unwinder for the copy as
		 * thread__insert_map() does for a new map: when one of them
		 * is a file perf reads as ELF (none can be where the
		 * parent has no unwinder)
		 */
		for (i = 0; parent->maps->perf_unwinds && i < m->nr &&
			    !m->perf_unwinds; i++)
			m->perf_unwinds = perf_unwinds_with(s, &m->v[i]);
		thread_set_maps(t, m);
	}
	return 0;
}

/*
 * EXIT keeps the thread (its name, for the samples the kernel takes in
 * its last moments, after the EXIT record, with the process's user
 * registers) and, for a second of the session's time, its maps. Then a
 * process's maps are emptied, once no thread of it uses them (perf keeps
 * them to the end: a profile of a machine starting thousands of short
 * processes kept every one's maps, 0.8 KB each, peak RSS growing with
 * their number). A pid reused without a FORK (one lost) keeps them, as
 * in perf, when its MMAPs came into them within the second; after it, it
 * resolves through its own maps only, not another process's files.
 */
static int process_exit(struct pd_session *s, const struct pd_event *ev)
{
	const struct pd_fork_event *f = &ev->u.fork;
	struct pd_thread *t = thread_find(s, f->tid);
	struct exited *e;

	if (!t || t->pid != (int32_t)f->pid || !t->maps)
		return 0;
	if (s->nr_exited == s->cap_exited) {
		size_t cap = s->cap_exited ? 2 * s->cap_exited : 64, i;
		struct exited *v = malloc(cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		for (i = 0; i < s->nr_exited; i++)
			v[i] = s->exited[(s->exited_head + i) % s->cap_exited];
		free(s->exited);
		s->exited = v;
		s->exited_head = 0;
		s->cap_exited = cap;
	}
	e = &s->exited[(s->exited_head + s->nr_exited++) % s->cap_exited];
	e->t = t;
	e->maps = pd__maps_get(t->maps);
	e->gen = t->maps->gen;
	e->time = f->time;
	return 0;
}

/* The exited processes whose grace ended by time: their maps dropped. */
static int exited_age(struct pd_session *s, uint64_t time)
{
	while (s->nr_exited) {
		struct exited *e = &s->exited[s->exited_head];
		struct pd_thread *t = e->t;

		if (e->time + EXIT_GRACE_NS > time)
			break;
		s->exited_head = (s->exited_head + 1) % s->cap_exited;
		s->nr_exited--;
		/*
		 * Unless the tid came back to life since: with a FORK (other
		 * maps), or without one (a FORK lost: new MMAPs in these)
		 */
		if (t->maps == e->maps && e->maps->gen == e->gen) {
			if (t->pid != t->tid) {
				struct pd_maps *m = pd__maps_new();

				if (!m) {
					pd__maps_put(e->maps);
					return -ENOMEM;
				}
				thread_set_maps(t, m);
			} else if (e->maps->users == 1) {
				pd__maps_clear(e->maps);
			}
		}
		pd__maps_put(e->maps);
	}
	return 0;
}

/* "/lib/modules/.../foo-bar.ko.xz" -> "[foo_bar]", as perf names modules */
static const char *module_name(struct pd_session *s, const char *path)
{
	const char *base = strrchr(path, '/');
	char buf[256];
	size_t n, i;
	char *dot;

	if (path[0] == '[')
		return intern(s, path);
	base = base ? base + 1 : path;
	n = snprintf(buf, sizeof(buf), "[%s", base);
	if (n >= sizeof(buf) - 1)
		n = sizeof(buf) - 2;
	dot = strstr(buf, ".ko");
	if (dot)
		n = dot - buf;
	for (i = 1; i < n; i++)
		if (buf[i] == '-')
			buf[i] = '_';
	buf[n] = ']';
	buf[n + 1] = '\0';
	return intern(s, buf);
}

static bool is_anon(const char *name)
{
	return !strncmp(name, "//anon", 6) || !strncmp(name, "/dev/zero", 9) ||
	       !strncmp(name, "/anon_hugepage", 14);
}

static bool is_no_dso(const char *name)
{
	return !strncmp(name, "[stack", 6) || !strncmp(name, "/SYSV", 5) ||
	       !strcmp(name, "[heap]");
}

static int process_mmap(struct pd_session *s, const struct pd_event *ev)
{
	const struct pd_mmap_event *mm = &ev->u.mmap;
	uint8_t cpumode = ev->misc & PD_MISC_CPUMODE_MASK;
	struct pd_map map = { 0 };
	struct pd_maps *maps;
	const char *name = mm->filename;
	bool exec;
	char buf[64];

	map.start = mm->start;
	map.end = mm->start + mm->len;
	if (map.end < map.start)
		map.end = UINT64_MAX;
	map.pgoff = mm->pgoff;
	if (ev->type == PD_RECORD_MMAP2)
		exec = (s->prot_unswapped ? pd_bswap32(mm->prot) : mm->prot) &
		       PROT_EXEC;
	else
		exec = !(ev->misc & PD_MISC_MMAP_DATA);

	if (cpumode == PD_MISC_KERNEL || cpumode == PD_MISC_GUEST_KERNEL ||
	    mm->pid == (uint32_t)-1) {
		maps = s->kmaps;
		map.identity = true;
		if (!strncmp(name, "[kernel.kallsyms]", 17) ||
		    !strncmp(name, "[guest.kernel.kallsyms", 22)) {
			map.name = intern(s, "[kernel.kallsyms]");
			/* machine__process_kernel_mmap_event(): the name
			 * after the machine's "[kernel.kallsyms]" */
			if (mm->pgoff) {
				const char *ref = name[1] == 'k' ? name + 17 :
						  strchr(name, ']');

				if (ref && *ref == ']')
					ref++;
				s->kref_name = intern(s, ref ? ref : "");
				s->kref_addr = mm->pgoff;
				if (!s->kref_name)
					return -ENOMEM;
			}
			/* 32-bit: the kernel starts where its map does */
			if (!s->kernel_start || s->kernel_start > map.start)
				if (s->kernel_start != 1ULL << 63)
					s->kernel_start = map.start;
			if (!mm->len)
				map.end = UINT64_MAX;
			if (s->kernel_clip) {
				if (map.start < s->kernel_lo)
					map.start = s->kernel_lo;
				if (map.end > s->kernel_hi)
					map.end = s->kernel_hi;
				if (map.start >= map.end)
					return 0;
			}
		} else if (name[0] == '/' && bid_find(s, name) &&
			   bid_find(s, name)->kernel) {
			/*
			 * perf made the module's DSO from the build-id
			 * table (a kernel-mode entry), under its path,
			 * before the map found it by its short name: it
			 * prints the path.
			 */
			map.name = intern(s, name);
		} else {
			map.name = module_name(s, name);
		}
		map.path = map.name;
		map.module_file = intern(s, name);
		if (!map.module_file)
			return -ENOMEM;
	} else {
		struct pd_thread *t;
		int jit = session_jit__mmap(s->jit, mm->pid, name);

		if (jit)	/* perf inject --jit drops it */
			return jit < 0 ? jit : 0;
		t = pd_session__thread(s, mm->pid, mm->tid);
		if (!t)
			return -ENOMEM;
		maps = t->maps;
		map.pid = mm->pid;
		if ((is_anon(name) || is_no_dso(name)) && exec) {
			snprintf(buf, sizeof(buf), "/tmp/perf-%d.map", mm->pid);
			map.name = intern(s, buf);
			map.perf_map = true;
			map.identity = true;
		} else if (is_anon(name) || is_no_dso(name)) {
			map.name = intern(s, name);
			map.identity = true;
		} else {
			map.name = intern(s, name);
			map.path = map.name;
			if (!strcmp(name, "[vdso]"))
				map.pgoff = 0;
		}
	}
	if (!map.name)
		return -ENOMEM;
	if (mm->has_build_id && maps == s->kmaps &&
	    !strncmp(name, "[kernel.kallsyms]", 17))
		session_origin__kernel(s->origin, mm->build_id,
				       mm->build_id_size);
	/* MMAP2 names the file by its build id or by its device and inode */
	if (ev->type == PD_RECORD_MMAP2 && !mm->has_build_id && map.path &&
	    mm->ino) {
		map.has_inode = true;
		map.maj = mm->maj;
		map.min = mm->min;
		map.ino = mm->ino;
		map.ino_generation = mm->ino_generation;
		if (maps != s->kmaps)
			session_origin__mmap(s->origin, map.path, mm->maj,
					     mm->min, mm->ino);
	}
	if (mm->has_build_id) {
		map.build_id_size = mm->build_id_size;
		map.build_id = pd_arena_memdup(&s->arena, mm->build_id,
					       mm->build_id_size);
		map.map_build_id = true;
		if (!map.build_id)
			return -ENOMEM;
	} else if (map.path) {
		const struct bid_entry *b = bid_find(s, map.path);

		if (b) {
			map.build_id = b->id;
			map.build_id_size = b->size;
		}
	}
	if (maps != s->kmaps && !maps->perf_unwinds)
		maps->perf_unwinds = perf_unwinds_with(s, &map);
	return pd__maps_insert(maps, &map);
}

/*
 * KSYMBOL, as perf 6.1's machine__process_ksymbol() (perf script and
 * report process them by default): a register adds a kernel map of the
 * symbol's own DSO over [addr, addr + len) unless a kernel map already
 * holds addr (perf then adds the symbol to that map's DSO at the map's
 * start: no name changes for the addresses sampled there, left out); an
 * unregister drops the map holding addr unless it is the kernel's.
 */
static int process_ksymbol(struct pd_session *s, const struct pd_event *ev)
{
	const struct pd_ksymbol_event *k = &ev->u.ksymbol;
	struct pd_map map = { 0 }, *old;

	old = pd__maps_find(s->kmaps, k->addr);
	if (k->flags & PD_KSYMBOL_FLAG_UNREGISTER) {
		if (old && strcmp(old->name, "[kernel.kallsyms]"))
			pd__maps_remove(s->kmaps, k->addr);
		return 0;
	}
	if (old)
		return 0;
	map.start = k->addr;
	map.end = k->addr + k->len;
	if (map.end < map.start)
		map.end = UINT64_MAX;
	map.name = intern(s, k->name);
	if (!map.name)
		return -ENOMEM;
	map.dso = pd__symbolizer_ksymbol(s->sym, k->name, k->len);
	if (!map.dso)
		return -ENOMEM;
	map.dso_looked_up = true;
	return pd__maps_insert(s->kmaps, &map);
}

/* A JIT map perf inject --jit would have added, as its MMAP2 would. */
static int jit_map_add(struct pd_session *s, const struct pd_jit_map *jm)
{
	struct pd_thread *t = pd_session__thread(s, jm->pid, jm->tid);
	struct pd_map map = { 0 };

	if (!t)
		return -ENOMEM;
	map.start = jm->start;
	map.end = jm->start + jm->len;
	if (map.end < map.start)
		map.end = UINT64_MAX;
	map.pgoff = jm->pgoff;
	map.name = intern(s, jm->name);
	map.pid = jm->pid;
	map.dso = jm->dso;
	map.dso_looked_up = true;
	if (!map.name)
		return -ENOMEM;
	/* the ELF file perf inject --jit writes for it */
	t->maps->perf_unwinds = true;
	return pd__maps_insert(t->maps, &map);
}

/* The JIT maps due by time, before what happens at that time. */
static int jit_advance(struct pd_session *s, uint64_t time)
{
	const struct pd_jit_map *jm;
	int err;

	while ((jm = session_jit__next(s->jit, time))) {
		err = jit_map_add(s, jm);
		if (err)
			return err;
	}
	return 0;
}

PD_EXPORT int pd_session__event(struct pd_session *s, const struct pd_event *ev)
{
	int err = 0;

	if (ev->type == PD_RECORD_SAMPLE &&
	    (ev->u.sample.sample_type & PD_SAMPLE_TIME)) {
		session_origin__time(s->origin, ev->u.sample.time, true);
		err = jit_advance(s, ev->u.sample.time);
		if (!err && s->nr_exited)
			err = exited_age(s, ev->u.sample.time);
	} else if (ev->type != PD_RECORD_SAMPLE &&
		   (ev->sid.present & PD_SAMPLE_TIME)) {
		session_origin__time(s->origin, ev->sid.time, false);
		err = jit_advance(s, ev->sid.time);
		if (!err && s->nr_exited)
			err = exited_age(s, ev->sid.time);
	}
	if (err)
		return err;
	switch (ev->type) {
	case PD_RECORD_COMM:
		return process_comm(s, ev);
	case PD_RECORD_FORK:
		return process_fork(s, ev);
	case PD_RECORD_EXIT:
		return process_exit(s, ev);
	case PD_RECORD_MMAP:
	case PD_RECORD_MMAP2:
		return process_mmap(s, ev);
	case PD_RECORD_KSYMBOL:
		return process_ksymbol(s, ev);
	case PD_RECORD_HEADER_FEATURE:
		session_origin__feature(s->origin, ev->u.feature.feat_id,
					ev->u.feature.data, ev->u.feature.size);
		return 0;
	case PD_RECORD_HEADER_BUILD_ID:
		if (!ev->u.build_id.filename)
			return 0;
		if (!strcmp(ev->u.build_id.filename, "[kernel.kallsyms]"))
			session_origin__kernel(s->origin, ev->u.build_id.build_id,
					       ev->u.build_id.size);
		return bid_add(s, ev->u.build_id.filename,
			       ev->u.build_id.build_id, ev->u.build_id.size,
			       ev->misc);
	default:
		return 0;
	}
}

PD_EXPORT int pd_session__kernel_build_id(const struct pd_session *s,
					  uint8_t *bid, size_t max)
{
	const struct bid_entry *b = bid_find(s, "[kernel.kallsyms]");
	const uint8_t *id = NULL;
	size_t i, n = 0;

	/* the one the kernel's DSO is loaded by (map_dso()), else MMAP2's */
	if (b) {
		id = b->id;
		n = b->size;
	}
	for (i = 0; !id && i < s->kmaps->nr; i++) {
		const struct pd_map *m = &s->kmaps->v[i];

		if (m->build_id_size && !strcmp(m->name, "[kernel.kallsyms]")) {
			id = m->build_id;
			n = m->build_id_size;
		}
	}
	if (!id || !n)
		return -ENOENT;
	if (n > max)
		n = max;
	memcpy(bid, id, n);
	return (int)n;
}

PD_EXPORT int pd_session__kernel_ref(const struct pd_session *s,
				     const char **name, uint64_t *addr)
{
	if (!s->kref_name || !s->kref_name[0] || !s->kref_addr)
		return -ENOENT;
	*name = s->kref_name;
	*addr = s->kref_addr;
	return 0;
}

PD_EXPORT bool pd_session__recorded_here(struct pd_session *s)
{
	return session_origin__here(s->origin, s->sym);
}

/*
 * A user map's DSO, by what the recording says of its file. Where the
 * symbolizer found the build id it was given to be another file's (the
 * DSO has none then), the map's frames no longer carry it either.
 */
static struct pd_dso *mapped_dso(struct pd_session *s, struct pd_map *map)
{
	struct pd_mapped_file f = {
		.sz = sizeof(f),
		.path = map->path,
		.build_id = map->build_id,
		.build_id_size = map->build_id_size,
		.map_build_id = map->map_build_id,
		.has_inode = map->has_inode,
		.maj = map->maj,
		.min = map->min,
		.ino = map->ino,
		.ino_generation = map->ino_generation,
	};
	struct pd_dso *d;
	size_t n;

	/* (only a file the kernel named by device and inode is checked) */
	if (map->has_inode)
		f.recorded_here = pd_session__recorded_here(s);
	d = pd_symbolizer__mapped_dso(s->sym, &f);
	if (d && map->build_id && !pd_dso__build_id(d, &n)) {
		map->build_id = NULL;
		map->build_id_size = 0;
	}
	return d;
}

static struct pd_dso *map_dso(struct pd_session *s, struct pd_map *map,
			      bool kernel)
{
	if (map->dso_looked_up)
		return map->dso;
	map->dso_looked_up = true;
	/*
	 * A module's symbols, in perf 6.1: its map's DSO loads on the
	 * first lookup in it, from the module's file if that is there
	 * (not read here: kallsyms names the same functions) and else
	 * from nothing but what the kernel's load gave it before:
	 * kallsyms' symbols of that module (maps__split_kallsyms(), which
	 * passes over the modules loaded already). Kept by the map after.
	 */
	if (kernel && strcmp(map->name, "[kernel.kallsyms]") &&
	    !s->kernel_narrowed &&
	    !pd__symbolizer_has_module_file(s->sym, map->module_file))
		return map->dso = NULL;
	if (kernel) {
		const struct bid_entry *b = bid_find(s, "[kernel.kallsyms]");

		map->dso = pd_symbolizer__kernel_reloc(s->sym, b ? b->id : NULL,
						       b ? b->size : 0,
						       s->kref_name,
						       s->kref_addr);
	} else if (map->perf_map) {
		map->dso = pd_symbolizer__perf_map(s->sym, map->pid);
	} else if (map->path) {
		map->dso = mapped_dso(s, map);
	}
	return map->dso;
}

const char *pd__session_intern(struct pd_session *s, const char *str)
{
	return intern(s, str);
}

struct pd_symbolizer *pd__session_symbolizer(const struct pd_session *s)
{
	return s->sym;
}

struct pd_maps *pd__thread_maps(const struct pd_thread *t)
{
	return t->maps;
}

struct pd_dso *pd__session_map_dso(struct pd_session *s, struct pd_map *map)
{
	return map_dso(s, map, false);
}

/*
 * A vmlinux's symbols outside .text: perf adds a kernel map per section
 * (dso__process_kernel_symbol()), named after it. Their DSO here is the
 * kernel's, which holds their symbols too. Out of memory, they are left
 * out (the frames stay unresolved).
 */
static void add_kernel_sections(struct pd_session *s, struct pd_dso *dso)
{
	struct pd_map map = { 0 };
	const char *name;
	size_t i;

	for (i = 0; !pd_dso__kernel_section(dso, i, &name, &map.start,
					    &map.end); i++) {
		if (map.start >= map.end)
			continue;
		map.name = intern(s, name);
		if (!map.name)
			return;
		map.path = map.name;
		map.identity = true;
		map.dso = dso;
		map.dso_looked_up = true;
		if (pd__maps_insert(s->kmaps, &map))
			return;
	}
}

/*
 * perf loads the kernel's symbols on its first kernel lookup and, when
 * they come from kallsyms, moves the kernel map to them
 * (dso__load_kernel_sym: map__fixup_start/end): from the first core
 * symbol to the end of the last. That narrows it (addresses outside the
 * symbols then have no map at all, "[unknown]" DSO, such as another
 * arch's kernel addresses named with this machine's kallsyms) and widens
 * it too: the recorded map ends at _etext, but init text (start_kernel,
 * x86_64_start_kernel under swapper's stacks) and the data symbols lie
 * beyond it and are named. With a vmlinux the map moves to its .text.
 */
static void narrow_kernel_maps(struct pd_session *s)
{
	struct pd_map *map = NULL;
	struct pd_dso *dso;
	size_t i;

	if (s->kernel_narrowed)
		return;
	s->kernel_narrowed = true;
	for (i = 0; i < s->kmaps->nr && !map; i++)
		if (!strcmp(s->kmaps->v[i].name, "[kernel.kallsyms]"))
			map = &s->kmaps->v[i];
	if (!map)
		return;
	dso = map_dso(s, map, true);
	if (!dso || pd_dso__kernel_range(dso, &s->kernel_lo, &s->kernel_hi))
		return;
	s->kernel_clip = true;
	/* out of memory, the kernel map is gone: its frames unresolved */
	pd__maps_set_range(s->kmaps, "[kernel.kallsyms]", s->kernel_lo,
			   s->kernel_hi);
	add_kernel_sections(s, dso);
}

static void resolve(struct pd_session *s, struct pd_thread *t, uint8_t cpumode,
		    uint64_t ip, struct pd_frame *out)
{
	struct pd_map *map = NULL, first;
	bool kernel = cpumode == PD_MISC_KERNEL ||
		      cpumode == PD_MISC_GUEST_KERNEL;

	memset(out, 0, sizeof(*out));
	out->ip = ip;
	out->addr = ip;
	out->cpumode = cpumode;
	out->dso_name = "[unknown]";
	if (kernel) {
		if (s->kernel_start && ip < s->kernel_start)
			return;
		map = pd__maps_find(s->kmaps, ip);
		/*
		 * perf loads the kernel's symbols when a lookup first lands
		 * in the kernel map (not before: an address in init text,
		 * past the recorded map, stays unresolved until then), and
		 * names that address in the map it found, moved or not
		 */
		if (map && !s->kernel_narrowed &&
		    !strcmp(map->name, "[kernel.kallsyms]")) {
			first = *map;
			narrow_kernel_maps(s);
			map = &first;
		}
	} else if (t) {
		/* no kernel fallback for user-mode addresses: perf 6.1
		 * prints a kernel address in a user context as
		 * "[unknown] ([unknown])" */
		map = pd__maps_find(t->maps, ip);
	}
	if (!map)
		return;
	out->has_map = true;
	out->kernel = kernel;
	out->dso_name = map->name;
	out->addr = pd__map_ip(map, ip);
	out->map_start = map->start;
	out->map_end = map->end;
	out->map_pgoff = map->pgoff;
	/* (the lookup may find the recorded build id to be another file's) */
	out->dso = map_dso(s, map, kernel);
	out->build_id = map->build_id;
	out->build_id_size = map->build_id_size;
	if (!out->build_id && out->dso) {
		size_t n;

		out->build_id = pd_dso__build_id(out->dso, &n);
		out->build_id_size = out->build_id ? (uint8_t)n : 0;
	}
	if (out->dso)
		out->sym = pd_dso__find(out->dso, out->addr);
}

PD_EXPORT void pd_session__resolve(struct pd_session *s, struct pd_thread *t,
				   uint8_t cpumode, uint64_t ip,
				   struct pd_frame *out)
{
	bool kernel = cpumode == PD_MISC_KERNEL ||
		      cpumode == PD_MISC_GUEST_KERNEL;
	struct pd_maps *maps = kernel ? s->kmaps : t ? t->maps : NULL;
	struct frame_cache_slot *slot;
	uint64_t gen;

	if (!maps) {
		resolve(s, t, cpumode, ip, out);
		return;
	}
	gen = maps->gen;
	slot = frame_slot(s, gen, cpumode, ip);
	if (slot && slot->gen == gen && slot->frame.ip == ip &&
	    slot->frame.cpumode == cpumode) {
		*out = slot->frame;
		return;
	}
	resolve(s, t, cpumode, ip, out);
	/*
	 * A lookup that changed the maps (the first one landing in the
	 * kernel map loads its symbols and moves it) answered from the maps
	 * before the change, as perf does for that one lookup: the same
	 * address asked again gets the new maps' answer, so it is not kept.
	 */
	if (!slot || maps->gen != gen)
		return;
	slot->gen = maps->gen;
	slot->frame = *out;
}

PD_EXPORT int pd_session__sample_frames(struct pd_session *s,
					struct pd_thread *t,
					const struct pd_event *ev,
					struct pd_frame *frames, int max)
{
	const struct pd_sample *smp = &ev->u.sample;
	uint8_t cpumode = PD_MISC_USER;
	int n = 0;
	uint64_t i;

	if (max <= 0)
		return 0;
	if (smp->sample_type & PD_SAMPLE_TIME)
		session_origin__time(s->origin, smp->time, true);
	if ((smp->sample_type & PD_SAMPLE_TIME) && jit_advance(s, smp->time))
		return 0;	/* ENOMEM: the maps stay as they were */
	if (!(smp->sample_type & PD_SAMPLE_CALLCHAIN)) {
		pd_session__resolve(s, t, ev->misc & PD_MISC_CPUMODE_MASK,
				    smp->ip, &frames[0]);
		return 1;
	}
	/*
	 * perf resolves the sample's own ip before its callchain
	 * (machine__resolve(), then thread__resolve_callchain()): a kernel
	 * ip there loads the kernel's symbols before the chain's frames
	 * are looked up
	 */
	cpumode = ev->misc & PD_MISC_CPUMODE_MASK;
	if (!s->kernel_narrowed && (cpumode == PD_MISC_KERNEL ||
				    cpumode == PD_MISC_GUEST_KERNEL))
		pd_session__resolve(s, t, cpumode, smp->ip, &frames[0]);
	cpumode = PD_MISC_USER;
	for (i = 0; i < smp->callchain.nr && n < max; i++) {
		uint64_t ip = smp->callchain.ips[i];

		if (ip >= PD_CONTEXT_MAX) {
			switch (ip) {
			case PD_CONTEXT_HV:
				cpumode = PD_MISC_HYPERVISOR;
				break;
			case PD_CONTEXT_KERNEL:
				cpumode = PD_MISC_KERNEL;
				break;
			case PD_CONTEXT_USER:
				cpumode = PD_MISC_USER;
				break;
			default:
				/* perf drops a chain with an unknown context */
				return 0;
			}
			continue;
		}
		pd_session__resolve(s, t, cpumode, ip, &frames[n++]);
	}
	return n;
}
