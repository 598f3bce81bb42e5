/* SPDX-License-Identifier: MIT */
/*
 * pd-record's parts: events and their perf_event_open() setup
 * (record-events.c), the per-CPU ring buffers (record-ring.c), the
 * side-band records synthesized for what already runs (record-synth.c),
 * the header features (record-feat.c, with the machine's topology in
 * record-topo.c, the PMU capabilities in record-pmucaps.c, the clock in
 * record-clock.c and the header string they all write in
 * record-strings.c), the BPF programs already loaded (record-bpf.c,
 * record-btf.c), the tracing data of tracepoints (record-tracing.c), the
 * DSOs that got samples (record-buildid.c) and their build ids
 * (record-bidtable.c), each file mapped as its process sees it
 * (record-mapfile.c, record-dsos.c) and kept in the build-id cache
 * (record-bidcache.c), a container's JIT symbols (record-jit.c,
 * record-jitdump.c) and the session loop (record-session.c).
 *
 * Everything is in host byte order; the writer converts.
 */
#ifndef PD_TOOLS_RECORD_H
#define PD_TOOLS_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <perfdata/format.h>
#include <perfdata/writer.h>

enum rec_callgraph {
	REC_CG_NONE,
	REC_CG_FP,
	REC_CG_DWARF,
};

struct rec_event {
	char *name;		/* as perf names it: "cpu-clock", "sched:sched_switch" */
	struct pd_attr attr;
	char *tp_system;	/* tracepoints: "sched" */
	char *tp_event;		/* "sched_switch" */
	char *filter;		/* tracepoint filter (--filter), or NULL */
	bool user_only;		/* :u */
	bool kernel_only;	/* :k */
	uint64_t *ids;		/* one per opened fd */
	size_t nr_ids, cap_ids;
};

struct rec_opts {
	const char *output;		/* "-" pipe mode to stdout */
	char **argv;			/* the command, or NULL */
	pid_t pid;			/* -p, 0: none */
	pid_t tid;			/* -t, 0: none */
	bool all_cpus;			/* -a */
	const char *cpu_list;		/* -C */
	uint64_t freq;			/* -F, 0: not given */
	uint64_t period;		/* -c, 0: not given */
	enum rec_callgraph callgraph;
	uint32_t stack_size;		/* --call-graph dwarf,SIZE */
	bool no_inherit;
	bool switch_events;
	unsigned int mmap_pages;	/* data pages per ring buffer (power of 2) */
	const char *target;		/* --target-perf, as given */
	/* what it names (pd_perf_target__resolve(), as pd-convert reads
	 * it): a version, perf --version's line, a distribution, a binary */
	const struct pd_perf_target *target_perf;
	bool compress;			/* -z */
	int compress_level;
	bool no_buildid;		/* -B */
	bool no_buildid_cache;		/* -N */
	bool use_clockid;		/* -k */
	int clockid;
	bool quiet;
	int verbose;
	int argc_all;			/* pd-record's own command line, for CMDLINE */
	char **argv_all;
};

/* ---- events (record-events.c) ---- */

/*
 * Parse one event spec (cpu-clock, task-clock, cycles, instructions,
 * context-switches/cs, page-faults, ..., SYSTEM:NAME, with :u/:k).
 * Returns 0, or -1 with a message in err.
 */
int rec_event__parse(struct rec_event *ev, const char *spec, char *err,
		     size_t errlen);
void rec_event__free(struct rec_event *ev);
/* The attrs for the options; the first event tracks side-band records. */
void rec_events__config(struct rec_event *evs, size_t nr,
			const struct rec_opts *o, bool kernel_allowed);
/*
 * perf_event_open() of ev for pid on cpu (close-on-exec); fd or -errno.
 * A hardware event the PMU lacks is turned into cpu-clock, as perf does,
 * with a warning (*fell_back set).
 */
int rec_event__open(struct rec_event *ev, pid_t pid, int cpu, bool *fell_back);
/* One line saying why opening failed and what setting would allow it. */
void rec_open_error(const struct rec_event *ev, int err, char *buf,
		    size_t len);
/* Whether kernel samples are allowed (root, capabilities or paranoid). */
bool rec_kernel_allowed(void);
int rec_paranoid(void);
/* Whether tracepoint samples are allowed (raw data needs more). */
bool rec_tracepoints_allowed(void);
/* Size of the sample_id trailer of non-sample records for attr. */
size_t rec_id_hdr_size(const struct pd_attr *attr);

/* ---- ring buffers (record-ring.c) ---- */

struct rec_ring {
	int fd;
	int cpu;
	void *base;		/* control page, then the data pages */
	size_t data_size;
	uint64_t tail;
	uint8_t *copy;		/* a record that wraps around the end */
};

int rec_ring__map(struct rec_ring *r, int fd, int cpu, unsigned int pages);
void rec_ring__unmap(struct rec_ring *r);
typedef int (*rec_record_fn)(void *ctx, const void *rec);
/* Hand every complete record to fn, then release them to the kernel.
 * Returns the number of bytes read, or a negative error from fn. */
long rec_ring__drain(struct rec_ring *r, rec_record_fn fn, void *ctx);

/* ---- mapped files, from their process's view (record-mapfile.c) ---- */

#define REC_BUILD_ID_MAX	20

/* What a record says of a mapped file (MMAP2: either form). */
struct rec_file_id {
	bool has_dev;
	uint32_t maj, min;
	uint64_t ino;
	uint8_t id_size;		/* 0: no build id known */
	uint8_t id[REC_BUILD_ID_MAX];
};

/* Where a file is mapped. */
struct rec_map_at {
	int32_t pid;		/* 0: nowhere now */
	int32_t ppid;		/* its parent, 0: unknown */
	uint64_t start, end;
};

/*
 * The file of a map, named name in the process's view: through
 * /proc/PID/map_files, else /proc/PID/root/NAME (checked against want
 * where it says something), else /proc/PPID/root/NAME (a process gone
 * already: its parent's root is most often its own, a container's) and
 * last NAME here, both only when they are want's file. An fd
 * (close-on-exec), or -errno.
 */
int rec_map_open(const struct rec_map_at *at, const char *name,
		 const struct rec_file_id *want);
/* Whether fd is the file want names (its device and inode, or its id). */
bool rec_file_id__matches(const struct rec_file_id *want, int fd);
/* The GNU build id of the ELF file fd: its size, or -ENOENT. */
int rec_fd_build_id(int fd, uint8_t id[REC_BUILD_ID_MAX]);
/* pid in its own pid namespace (the last of NSpid), or -1. */
int rec_proc_nspid(int32_t pid);
/* Whether fd and path here are one file. */
bool rec_same_file(int fd, const char *path);

/* ---- the build-id cache (record-bidcache.c) ---- */

enum rec_cache_kind {
	REC_CACHE_ELF,		/* DIR/PATH/BUILDID/elf */
	REC_CACHE_VDSO,		/* DIR/[vdso]/BUILDID/vdso */
	REC_CACHE_KALLSYMS,	/* DIR/[kernel.kallsyms]/BUILDID/kallsyms */
};

struct rec_bidcache;
/* The cache perf and the library read; NULL and errno when none. */
struct rec_bidcache *rec_bidcache__new(void);
void rec_bidcache__free(struct rec_bidcache *c);
const char *rec_bidcache__dir(const struct rec_bidcache *c);
/* Whether the cache holds the file of this build id already. */
bool rec_bidcache__has(const struct rec_bidcache *c, const uint8_t *id,
		       size_t size, enum rec_cache_kind kind);
/*
 * The file of build id id, named name ("/usr/lib/...", "[vdso]"), into
 * the cache: the content of fd (from its start) when fd >= 0, else len
 * bytes of buf. A file the cache holds is not written again. 0 or -errno.
 */
int rec_bidcache__add(struct rec_bidcache *c, const uint8_t *id, size_t size,
		      const char *name, enum rec_cache_kind kind, int fd,
		      const void *buf, size_t len);
/* Writes a file's content to out: 0 or -errno. */
typedef int (*rec_write_fn)(void *ctx, int out);
/* path replaced in one rename by what fn writes (mode). 0 or -errno. */
int rec_write_atomic(const char *path, mode_t mode, rec_write_fn fn,
		     void *ctx);
/* All of buf to out; all of fd (from its start) to out. 0 or -errno. */
int rec_write_all(int out, const void *buf, size_t len);
int rec_copy_fd(int fd, int out);

/* ---- the files mapped: one DSO each (record-dsos.c) ---- */

struct rec_dso {
	struct rec_dso *next;		/* its hash bucket's */
	char *name;			/* the path in its process's view */
	struct rec_file_id fid;		/* what is known of it */
	int fd;				/* the file, while the cache needs it */
	uint32_t nr_maps;		/* maps of processes alive */
	bool hit;			/* samples in it */
	bool cached;			/* in the cache, or none to write */
};

struct rec_dsos;
/* cache NULL: none written; at most max_fds files held open. */
struct rec_dsos *rec_dsos__new(struct rec_bidcache *cache,
			       unsigned int max_fds);
void rec_dsos__free(struct rec_dsos *d);
/*
 * The DSO of the map at of the file name, fid what its record
 * says: found by name and identity, else added; its build id read and
 * its file held through the process where they are needed. One more map
 * counted; NULL when out of memory.
 */
struct rec_dso *rec_dsos__map(struct rec_dsos *d,
			      const struct rec_map_at *at, const char *name,
			      const struct rec_file_id *fid);
/* One map more or less; a DSO without maps or samples is forgotten. */
void rec_dsos__get(struct rec_dso *f);
void rec_dsos__put(struct rec_dsos *d, struct rec_dso *f);
/* A sample in f, through the map at. */
void rec_dsos__hit(struct rec_dsos *d, struct rec_dso *f,
		   const struct rec_map_at *at);
/* At the end: the build ids still missing, the hit files cached. */
void rec_dsos__finish(struct rec_dsos *d);
/* The DSOs with samples, in no order: *pos 0 first; NULL at the end. */
struct rec_dso *rec_dsos__next_hit(struct rec_dsos *d, size_t *pos,
				   struct rec_dso *prev);

/* ---- JIT symbols of processes in containers (record-jit.c) ---- */

struct rec_jit;
/* cache: where jitdump copies go (NULL: none are made). */
struct rec_jit *rec_jit__new(struct rec_bidcache *cache);
/* Copies not made, fds closed. */
void rec_jit__free(struct rec_jit *j);
/* An executable map without a file (//anon, [heap]...) of pid. */
void rec_jit__anon_map(struct rec_jit *j, int32_t pid);
/* A sample in one. */
void rec_jit__anon_hit(struct rec_jit *j, int32_t pid);
/*
 * A map of pid: for a jitdump marker (jit-N.dump) whose file here is not
 * the process's, the name of the copy its record names instead; else NULL.
 */
const char *rec_jit__marker(struct rec_jit *j, const struct rec_map_at *at,
			    int32_t tid, const char *name,
			    const struct rec_file_id *fid);
/*
 * The jitdump of fd to out, its pids (the header's, each code load's and
 * move's) and tids made pid and tid, the process as the host knows it.
 */
int rec_jitdump_copy(int fd, int out, int32_t pid, int32_t tid);
/* pid is gone (a round ago): its copies written now. */
void rec_jit__gone(struct rec_jit *j, int32_t pid);
void rec_jit__round(struct rec_jit *j);
/* The copies of the processes still there written. */
void rec_jit__finish(struct rec_jit *j);

/* ---- the BUILD_ID feature (record-bidtable.c) ---- */

/* The section: the kernel, the vdso, every file of d hit, as they got
 * samples; the caller frees *data. */
int rec_bidtable(struct rec_dsos *d, bool kernel_hit, bool vdso_hit,
		 void **data, size_t *size, unsigned int *nr);
/* The kernel's symbols and the vdso into c, as they got samples. */
void rec_bidtable__cache_kernel(struct rec_bidcache *c, bool kernel_hit,
				bool vdso_hit);

/* ---- build ids (record-buildid.c) ---- */

struct rec_buildids_opts {
	/* MMAP2 records get the build ids read from their process's
	 * files (the target reads them) */
	bool mmap2_ids;
	struct rec_bidcache *cache;	/* NULL: none written (-N) */
	unsigned int max_fds;		/* files held open at most */
};

struct rec_buildids;
struct rec_buildids *rec_buildids__new(const struct rec_buildids_opts *o);
void rec_buildids__free(struct rec_buildids *b);
/*
 * Follow the side-band records and the samples (sample_type of attr).
 * *out is the record to write: rec, or one rewritten with a build id or
 * another name, valid until the next call.
 */
int rec_buildids__record(struct rec_buildids *b, const void *rec,
			 const struct pd_attr *attr, const void **out);
/* A FINISHED_ROUND was written: forget processes gone for a round. */
void rec_buildids__round(struct rec_buildids *b);
/* The end: build ids still missing read, files copied to the cache. */
void rec_buildids__finish(struct rec_buildids *b);
/* The BUILD_ID feature section of the DSOs that got samples. */
int rec_buildids__feature(struct rec_buildids *b, void **data, size_t *size,
			  unsigned int *nr);

/* ---- side band (record-synth.c) ---- */

typedef int (*rec_emit_fn)(void *ctx, const void *rec,
			   const struct pd_attr *attr);
/* The kernel map (MMAP of [kernel.kallsyms]_text). */
int rec_synth_kernel(const struct pd_attr *attr, rec_emit_fn emit, void *ctx);
/* COMM of each thread and MMAP2 of each executable map of pid. */
int rec_synth_process(pid_t pid, const struct pd_attr *attr, rec_emit_fn emit,
		      void *ctx);
/* Every process in /proc (-a). */
int rec_synth_all(const struct pd_attr *attr, rec_emit_fn emit, void *ctx);
/* The pieces of a synthesized record: its header, a NUL-padded name, the
 * sample_id trailer of attr (pid/tid given, the rest 0); sizes returned. */
void rec_synth_header(uint8_t *p, uint32_t type, uint16_t misc, size_t size);
size_t rec_synth_name(uint8_t *p, const char *name);
size_t rec_synth_trailer(uint8_t *p, const struct pd_attr *attr, int32_t pid,
			 int32_t tid);
/* An MMAP per loaded kernel module (record-modules.c). */
int rec_synth_modules(const struct pd_attr *attr, rec_emit_fn emit,
		      void *ctx);

/*
 * The BPF programs already loaded (record-bpf.c): collected, with the
 * BPF_PROG_INFO and BPF_BTF features set on w, before any record is
 * written (a pipe takes no feature after one); their KSYMBOL and
 * BPF_EVENT records, as perf record synthesizes them, emitted later. No
 * privilege: no programs, not an error. NULL and *err on failure.
 */
struct rec_bpf;
struct rec_bpf *rec_bpf__collect(const struct pd_attr *attr,
				struct pd_writer *w, int *err);
int rec_bpf__emit(struct rec_bpf *b, rec_emit_fn emit, void *ctx);
/* A program loaded while recording (its BPF_EVENT): its info kept, as
 * perf's side-band thread does, for the features set again at the end. */
int rec_bpf__loaded(struct rec_bpf *b, uint32_t id);
int rec_bpf__features(struct rec_bpf *b, struct pd_writer *w);
void rec_bpf__free(struct rec_bpf *b);
/* bpf() with a zeroed-then-filled attr; its result, errno set. */
union pd_bpf_attr;
int rec_bpf_sys(int cmd, union pd_bpf_attr *attr);
/* The raw BTF of id (record-btf.c); the caller frees *data. */
int rec_btf_fetch(uint32_t id, void **data, uint32_t *size);
/* The name of type_id in a raw BTF (0: the BTF is valid, *name ""). */
int rec_btf_name(const void *data, uint32_t size, uint32_t type_id,
		 const char **name);

/* ---- header features (record-feat.c) ---- */

int rec_features__set(struct pd_writer *w, const struct rec_event *evs,
		      size_t nr, const struct rec_opts *o);
int rec_feature_sample_time(struct pd_writer *w, uint64_t first,
			    uint64_t last);
/* CACHE, NUMA_TOPOLOGY, MEM_TOPOLOGY from sysfs (record-topo.c). */
int rec_features_topology(struct pd_writer *w);
/* CPU_PMU_CAPS and PMU_CAPS from sysfs (record-pmucaps.c). */
int rec_features_pmu_caps(struct pd_writer *w);
/* -k: a clock name or number as perf takes them; 0 or -1. */
int rec_clockid_parse(const char *s, int *id);
/* CLOCKID and CLOCK_DATA for clockid (record-clock.c). */
int rec_features_clock(struct pd_writer *w, int clockid);

/* ---- header strings (record-strings.c) ---- */

/* A perf header string: u32 padded length, the text, NULs to 64 bytes. */
size_t rec_put_string(uint8_t *dst, const char *s);
size_t rec_string_size(const char *s);
struct bytes;
/* The same string added to a growing section (b->oom when out of memory). */
void rec_bytes_string(struct bytes *b, const char *s);

/* ---- tracepoints (record-tracing.c) ---- */

/* The tracefs directory (mounted if needed), or NULL. */
const char *rec_tracefs(void);
/* The TRACING_DATA blob for the tracepoint events in evs. */
int rec_tracing_data(const struct rec_event *evs, size_t nr, void **data,
		     size_t *size, char *err, size_t errlen);

/* ---- the session (record-session.c) ---- */

/* Record as o says; returns the tool's exit status. */
int rec_session__run(const struct rec_opts *o, struct rec_event *evs,
		     size_t nr);

#endif /* PD_TOOLS_RECORD_H */
