// SPDX-License-Identifier: MIT
/*
 * Recorded on this machine or not, decided once per session. Device and
 * inode numbers name files only on the machine that saw them, and only
 * while it runs: tmpfs, overlayfs and btrfs subvolumes get other numbers
 * at the next mount. So "here" is this machine in the boot that recorded:
 * - the HOSTNAME and OSRELEASE features are uname()'s nodename and
 *   release (a recording without either was made elsewhere);
 * - where the recording names the kernel's build id (the BUILD_ID table,
 *   a HEADER_BUILD_ID record, a kernel MMAP2 carrying one), it is the
 *   running kernel's (/sys/kernel/notes), when that is readable;
 * - the recording's clock is this boot's: its CLOCK_DATA reference (perf
 *   record -k) puts the clock's zero where this boot's is; else its last
 *   sample (SAMPLE_TIME, or the latest time seen) lies in this boot, and
 *   the input was written (its mtime; a pipe: now) soon after it, as
 *   perf record ends a file: within 30 s and a second per 20 MB of it
 *   (perf record's build-id pass reads the whole file). Not ten minutes
 *   whatever the size: a copy of a small recording (a checkout, cp
 *   without -p) made on a machine of the same image at the uptime the
 *   recording ended was taken for the recording itself;
 * - and something here is the recording's: that kernel build id, or a
 *   file mapped before the first sample (a launcher's, a shell's, the
 *   host's processes' of a system-wide recording; the first few are
 *   tried), found at its path with the device and inode of its MMAP2.
 * The last two keep machines made from one image (VMs, hosts named
 * "localhost"), whose host name, kernel and paths are the recording
 * machine's but whose files are other inodes, and older recordings, from
 * reading every inode as "another file": there, as for a copy of the
 * recording made later (cp without -p), the recorded build ids and perf's
 * rules apply.
 *
 * Decided at the first question (the session's first lookup of a mapped
 * file's DSO) from what the records before the first sample said: the
 * maps of the processes sampled first are known by then, and a helper's
 * session reading the same file (unwind-ahead.c) decides the same
 * whenever it asks.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <perfdata/features.h>
#include <perfdata/format.h>

#include "reading/reader-state.h"
#include "session-origin.h"
#include "symbols/sym-internal.h"

#define NSEC 1000000000ULL
/* how far the clocks may disagree, and a file's end lag its last sample */
#define ORIGIN_SLACK_NS (10 * NSEC)
#define ORIGIN_END_NS (30 * NSEC)
#define ORIGIN_END_NS_PER_BYTE 50	/* a second per 20 MB */

/* files tried as witnesses at most: the first maps of a recording */
#define ORIGIN_MAX_FILES 32

struct origin_file {
	const char *path;
	uint32_t maj, min;
	uint64_t ino;
};

struct session_origin {
	char hostname[128], osrelease[128];	/* as recorded, or "" */
	bool decided, here;
	bool sampled;		/* the first sample was seen: no more input */
	int clock;		/* the recording's clock, -1: unknown */
	bool has_clock_data;
	int64_t clock_zero;	/* CLOCK_DATA: its clock's zero, wall ns */
	uint64_t end_wall;	/* the input's mtime, ns; 0: a pipe */
	uint64_t end_lag;	/* how long after its last sample it may be */
	uint64_t last_time;	/* its last sample's time */
	bool header_last;	/* ... from SAMPLE_TIME */
	uint8_t kbid[PD_BUILD_ID_MAX];
	size_t kbid_size;
	struct origin_file files[ORIGIN_MAX_FILES];
	size_t nr_files;
};

static bool header_is_here(const struct session_origin *o)
{
	struct utsname u;

	if (!o->hostname[0] || !o->osrelease[0] || uname(&u))
		return false;
	return !strcmp(o->hostname, u.nodename) &&
	       !strcmp(o->osrelease, u.release);
}

static void set_string(char *dst, size_t size, const char *s, size_t len)
{
	if (len >= size)
		len = 0;	/* no nodename or release is that long */
	memcpy(dst, s, len);
	dst[len] = '\0';
}

/*
 * The clock the samples' times are in: perf's own (sched_clock, which
 * follows CLOCK_MONOTONIC) unless perf record -k chose one; -1 for one
 * not compared here.
 */
static int recording_clock(const struct pd_reader *r)
{
	const struct pd_evsel *e = pd_reader__nr_evsels(r) ?
				   pd_reader__evsel(r, 0) : NULL;

	if (!e || !(e->attr.flags & PD_ATTR_USE_CLOCKID))
		return CLOCK_MONOTONIC;
	switch (e->attr.clockid) {
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
		return CLOCK_MONOTONIC;
	case CLOCK_BOOTTIME:
	case CLOCK_REALTIME:
		return e->attr.clockid;
	default:
		return -1;
	}
}

/* When and in which clock the recording was made, from r's header. */
static void origin_times(struct session_origin *o, const struct pd_reader *r,
			 const struct pd_features *f)
{
	struct stat st;

	o->clock = recording_clock(r);
	if (pd_features__has(f, PD_FEAT_CLOCK_DATA) && f->clock_data.tod_ns) {
		o->has_clock_data = true;
		o->clock_zero = (int64_t)(f->clock_data.tod_ns -
					  f->clock_data.clockid_ns);
		if (f->clock_data.clockid == CLOCK_REALTIME ||
		    f->clock_data.clockid == CLOCK_BOOTTIME)
			o->clock = f->clock_data.clockid;
	}
	if (pd_features__has(f, PD_FEAT_SAMPLE_TIME) && f->sample_time.last) {
		o->last_time = f->sample_time.last;
		o->header_last = true;
	}
	if (!fstat(r->in.fd, &st) && S_ISREG(st.st_mode)) {
		o->end_wall = (uint64_t)st.st_mtim.tv_sec * NSEC +
			      (uint64_t)st.st_mtim.tv_nsec;
		o->end_lag += (uint64_t)st.st_size * ORIGIN_END_NS_PER_BYTE;
	}
}

struct session_origin *session_origin__new(const struct pd_reader *r)
{
	struct session_origin *o = calloc(1, sizeof(*o));
	const struct pd_features *f;
	uint32_t i;

	if (!o)
		return NULL;
	/* perf's own clock, unless the header says otherwise */
	o->clock = CLOCK_MONOTONIC;
	o->end_lag = ORIGIN_END_NS;
	if (!r)
		return o;
	f = pd_reader__features(r);
	if (pd_features__has(f, PD_FEAT_HOSTNAME) && f->hostname)
		set_string(o->hostname, sizeof(o->hostname), f->hostname,
			   strlen(f->hostname));
	if (pd_features__has(f, PD_FEAT_OSRELEASE) && f->osrelease)
		set_string(o->osrelease, sizeof(o->osrelease), f->osrelease,
			   strlen(f->osrelease));
	origin_times(o, r, f);
	if (pd_features__has(f, PD_FEAT_BUILD_ID)) {
		for (i = 0; i < f->build_ids.nr; i++) {
			const struct pd_build_id *b = &f->build_ids.ids[i];

			if (b->filename && !strcmp(b->filename, "[kernel.kallsyms]"))
				session_origin__kernel(o, b->id, b->size);
		}
	}
	return o;
}

void session_origin__free(struct session_origin *o)
{
	free(o);
}

void session_origin__kernel(struct session_origin *o, const uint8_t *bid,
			    size_t size)
{
	if (o->sampled || !size)
		return;
	o->kbid_size = size < PD_BUILD_ID_MAX ? size : PD_BUILD_ID_MAX;
	memcpy(o->kbid, bid, o->kbid_size);
}

void session_origin__feature(struct session_origin *o, uint64_t feat,
			     const void *data, uint64_t size)
{
	char *dst = feat == PD_FEAT_HOSTNAME ? o->hostname :
		    feat == PD_FEAT_OSRELEASE ? o->osrelease : NULL;
	uint32_t len;

	if (o->sampled || !dst || size < 4)
		return;
	/* perf's string: a u32 length (padding and NUL included), then it */
	memcpy(&len, data, 4);
	if (len > size - 4)
		len = __builtin_bswap32(len);
	if (len > size - 4)
		return;
	set_string(dst, sizeof(o->hostname), (const char *)data + 4,
		   strnlen((const char *)data + 4, len));
}

void session_origin__time(struct session_origin *o, uint64_t time,
			  bool sample)
{
	if (o->sampled)
		return;
	if (!o->header_last && time > o->last_time)
		o->last_time = time;
	o->sampled = sample;
}

void session_origin__mmap(struct session_origin *o, const char *path,
			  uint32_t maj, uint32_t min, uint64_t ino)
{
	size_t i;

	if (o->sampled || !ino || path[0] != '/' ||
	    o->nr_files == ORIGIN_MAX_FILES)
		return;
	for (i = 0; i < o->nr_files; i++)
		if (o->files[i].path == path && o->files[i].ino == ino &&
		    o->files[i].maj == maj && o->files[i].min == min)
			return;
	o->files[o->nr_files++] = (struct origin_file){
		.path = path, .maj = maj, .min = min, .ino = ino,
	};
}

/*
 * The recorded kernel build id against the running one: 1 the same, 0
 * another, -1 either unknown. perf pads a shorter id with zeros.
 */
static int kernel_is_running(const struct session_origin *o)
{
	uint8_t run[PD_BUILD_ID_MAX];
	int n;
	size_t i;

	if (!o->kbid_size)
		return -1;
	n = pd_running_kernel_build_id(run, sizeof(run));
	if (n <= 0)
		return -1;
	if ((size_t)n > o->kbid_size || memcmp(o->kbid, run, n))
		return 0;
	for (i = n; i < o->kbid_size; i++)
		if (o->kbid[i])
			return 0;
	return 1;
}

static uint64_t now_ns(int clock)
{
	struct timespec ts;

	if (clock_gettime(clock, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * NSEC + (uint64_t)ts.tv_nsec;
}

/* The recording's clock is this boot's, and it ended lately. */
static bool this_boot(const struct session_origin *o)
{
	uint64_t wall, clk, end, last_wall;
	int64_t zero;

	if (o->clock < 0)
		return false;
	wall = now_ns(CLOCK_REALTIME);
	clk = o->clock == CLOCK_REALTIME ? wall : now_ns(o->clock);
	if (!wall || !clk)
		return false;
	/* this boot's zero of the clock, in wall-clock time */
	zero = (int64_t)(wall - clk);
	/* (a wall clock's zero is no boot's) */
	if (o->has_clock_data && o->clock != CLOCK_REALTIME)
		return llabs(o->clock_zero - zero) <= (long long)ORIGIN_SLACK_NS;
	if (!o->last_time || o->last_time > clk)
		return false;
	last_wall = (uint64_t)zero + o->last_time;
	end = o->end_wall ? o->end_wall : wall;
	return end + ORIGIN_SLACK_NS >= last_wall &&
	       end <= last_wall + o->end_lag;
}

bool session_origin__here(struct session_origin *o,
			  const struct pd_symbolizer *sym)
{
	char file[4096];
	size_t i;
	int k;

	if (o->decided)
		return o->here;
	o->decided = true;
	if (!header_is_here(o) || !this_boot(o))
		return false;
	k = kernel_is_running(o);
	if (k == 0)
		return false;
	if (k == 1)
		return o->here = true;
	for (i = 0; i < o->nr_files && !o->here; i++) {
		const struct origin_file *w = &o->files[i];

		sym_join_symfs(sym, file, sizeof(file), w->path);
		o->here = sym_file_ident(file, w->maj, w->min, w->ino) > 0;
	}
	return o->here;
}
