/* SPDX-License-Identifier: MIT */
/*
 * The session: the state of the profiled machine as the records describe
 * it, rebuilt the way perf rebuilds it. Threads and their names from
 * COMM/FORK/EXIT (exec renames), address-space maps from MMAP/MMAP2 per
 * process (threads of a process share them, a forked process gets a
 * copy), the kernel and module maps, and the build ids that name each
 * mapped file. Addresses resolve to a map, a DSO and a symbol through a
 * pd_symbolizer.
 *
 * Feed every record, in time order (PD_ORDER_TIME), to
 * pd_session__event(); resolve samples in between.
 *
 * Ownership: the session owns threads, maps and strings it returns; they
 * stay valid until pd_session__free(). It does not own the symbolizer.
 */
#ifndef PERFDATA_SESSION_H
#define PERFDATA_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perfdata/errors.h>
#include <perfdata/event.h>
#include <perfdata/reader.h>
#include <perfdata/symbols.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pd_session_opts {
	size_t sz;
	struct pd_symbolizer *symbolizer;	/* required */
	pd_log_fn log;
	void *log_ctx;
};

struct pd_session;
struct pd_thread;

/*
 * r: the reader whose header (BUILD_ID feature) names the files; may be
 * NULL. Build ids arriving later as records (pipe mode) or in MMAP2 are
 * taken from pd_session__event().
 */
struct pd_session *pd_session__new(const struct pd_reader *r,
				   const struct pd_session_opts *opts);
void pd_session__free(struct pd_session *s);
/*
 * Loads the symbols of the files the header's build-id table names (the
 * kernel's too) on a thread of its own, ahead of their first lookup: for
 * a caller with a CPU to spare. Lookups find the same symbols as without
 * it, sooner. Call it before the first event; 0 or -errno (nothing then
 * runs ahead). The thread ends with the symbolizer.
 */
int pd_session__preload_symbols(struct pd_session *s);

/*
 * Whether the recording was made on this machine, in this boot: decided
 * at the first call (the session asks when it first looks up a mapped
 * file), from the records before the first sample, and the same after.
 * Its HOSTNAME and OSRELEASE are uname()'s; the kernel build id it names
 * (if any) is the running kernel's; its clock is this boot's (CLOCK_DATA,
 * else its last sample lies in this boot and the input was written, by
 * its mtime, a pipe now, within ten minutes after it); and either that
 * kernel build id or a file mapped before the first sample is here, at
 * its path (under the symbolizer's symfs) with the device and inode of
 * its MMAP2 record. There, the device and inode tell which file at a path
 * was mapped (pd_symbolizer__mapped_dso()).
 */
bool pd_session__recorded_here(struct pd_session *s);

/*
 * The recorded build id of the kernel ([kernel.kallsyms]: the BUILD_ID
 * table or record, else its MMAP2), as far as the records read so far
 * give it: at most max bytes into bid, their number; -ENOENT when none.
 */
int pd_session__kernel_build_id(const struct pd_session *s, uint8_t *bid,
				size_t max);
/*
 * perf's ref_reloc_sym: the recording's kernel map "[kernel.kallsyms]_text"
 * says the kernel symbol *name ("_text", "_stext") was at *addr in the
 * recording's boot. An address minus *addr is then an offset that does
 * not depend on that boot's KASLR slide (pd_dso__kernel_ref()). 0, or
 * -ENOENT when no such map was read (perf writes a pgoff of 0 when
 * kernel.kptr_restrict hides the address).
 */
int pd_session__kernel_ref(const struct pd_session *s, const char **name,
			   uint64_t *addr);

/* Update the state from one record (others are ignored). 0 or -errno. */
int pd_session__event(struct pd_session *s, const struct pd_event *ev);

/*
 * The thread, created (named ":TID", as perf does) if unknown: by tid
 * alone, as perf finds threads (tid -1 is one thread too, whatever its
 * pid). NULL on ENOMEM.
 */
struct pd_thread *pd_session__thread(struct pd_session *s, int32_t pid,
				     int32_t tid);
/* A sample's thread, as above; pid and tid -1 without PERF_SAMPLE_TID. */
struct pd_thread *pd_session__sample_thread(struct pd_session *s,
					    const struct pd_sample *sample);

const char *pd_thread__comm(const struct pd_thread *t);
int32_t pd_thread__pid(const struct pd_thread *t);
int32_t pd_thread__tid(const struct pd_thread *t);

/* One resolved address, as `perf script` shows a frame. */
struct pd_frame {
	uint64_t ip;		/* the address as sampled */
	uint64_t addr;		/* in the map's terms (perf's map_ip), or ip
				 * when no map covers it */
	uint8_t cpumode;	/* PD_MISC_KERNEL, PD_MISC_USER, ... */
	bool has_map;
	bool kernel;		/* resolved in the kernel's maps */
	const char *dso_name;	/* "/usr/lib/x.so", "[kernel.kallsyms]",
				 * "[ext4]", "[vdso]", "/tmp/perf-1.map";
				 * "[unknown]" without a map */
	struct pd_dso *dso;	/* NULL without a map */
	const struct pd_sym *sym;	/* NULL when no symbol covers it */
	/*
	 * Non-NULL for an inlined frame of a DWARF-unwound callchain
	 * (pd_unwinder__sample_frames): the inlined function's name as
	 * perf prints it ("NAME+0x(addr - sym->start) (inlined)"); the
	 * other fields are those of the frame it was inlined into.
	 */
	const char *inline_name;
	/*
	 * The map the address fell in (has_map): [map_start, map_end) at
	 * file offset map_pgoff, and the build id of its file as the
	 * recording names it (MMAP2, the BUILD_ID feature or records; for
	 * the kernel its DSO's), NULL when unknown.
	 */
	uint64_t map_start, map_end, map_pgoff;
	const uint8_t *build_id;
	uint8_t build_id_size;
};

/* Resolve one address of thread t in cpumode (PD_MISC_*). */
void pd_session__resolve(struct pd_session *s, struct pd_thread *t,
			 uint8_t cpumode, uint64_t ip, struct pd_frame *out);

/*
 * The frames of a sample, leaf first, as perf script lists them: the
 * callchain with its context markers applied (the sample's ip alone when
 * it has no callchain), at most max frames (perf's default limit is
 * kernel.perf_event_max_stack). Returns the number of frames.
 */
int pd_session__sample_frames(struct pd_session *s, struct pd_thread *t,
			      const struct pd_event *ev,
			      struct pd_frame *frames, int max);

/*
 * PERF_SAMPLE_READ samples as perf delivers them: one sample per value
 * read (one per group member with PD_FORMAT_GROUP), each under the event
 * of the value's id, its period the growth of the value since that id's
 * previous sample; values that did not grow and unknown ids are left
 * out. Feed every sample once, in time order.
 */
struct pd_read_periods;

struct pd_read_delivery {
	const struct pd_evsel *evsel;
	uint64_t id;
	uint64_t period;
};

struct pd_read_periods *pd_read_periods__new(const struct pd_reader *r);
void pd_read_periods__free(struct pd_read_periods *p);
/*
 * The deliveries of one sample into out (at most max): the sample itself
 * when it has no READ values. Returns their number (0: none) or -ENOMEM.
 */
int pd_read_periods__deliver(struct pd_read_periods *p,
			     const struct pd_event *ev,
			     struct pd_read_delivery *out, int max);
/*
 * The same deliveries as samples: fn gets the sample itself when it has
 * no READ values, else, per delivery, a copy of it under the value's
 * event with the value's id and growth as period (borrowed for the
 * call). Returns 0, fn's first non-zero result, or -ENOMEM.
 */
typedef int (*pd_read_sample_fn)(void *ctx, const struct pd_event *ev);
int pd_read_periods__for_each(struct pd_read_periods *p,
			      const struct pd_event *ev,
			      pd_read_sample_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_SESSION_H */
