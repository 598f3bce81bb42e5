// SPDX-License-Identifier: MIT
/*
 * Asking a perf binary what it reads.
 *
 * A version number does not tell everything: distributions backport
 * (RHEL 7's "3.10" perf reads much like a 5.0) and build with other
 * options (Debian 11's perf 5.10 has no zstd, so it reads -z records as
 * nothing, silently). So for --target-perf=PATH and =auto the perf itself
 * is run on tiny probe files, one per capability, each written with our
 * own writer; what it prints decides. The result is a struct
 * pd_perf_target made at run time: the facts of the nearest known target
 * (by the version the binary reports), with what the probes showed
 * written over them (attr flag bits and whether a kernel MMAP2 makes the
 * kernel map included). The facts not probed (sample_type, read_format
 * and branch bits, pipe attr layout) stay the nearest target's.
 *
 * Probing takes a few dozen runs of perf; the result is cached under
 * $XDG_CACHE_HOME/perfdata/ (~/.cache/perfdata/), keyed by the binary's
 * build id (a script's: its bytes and what the perf it runs says of its
 * version), so a second conversion for the same perf runs it once.
 *
 * The probe files are written under $TMPDIR (else /tmp) and named by
 * absolute path: a wrapper that runs perf elsewhere (a chroot, a
 * container) must make that directory visible there at the same path.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <perfdata/compat.h>
#include <perfdata/format.h>
#include <perfdata/symbols.h>
#include <perfdata/writer.h>

#include "base/internal.h"
#include "probe.h"
#include "targets.h"

/* Bump when the probes, the cache format or the flags a probed perf
 * takes from its nearest target change: old entries are then probed
 * again (3: PD_TGT_STAT_CPU_NUMBER). */
#define PROBE_FORMAT	3

/* attr flag bits 0..n-1 (n < 64) */
#define ATTR_FLAG_BITS(n)	((1ULL << (n)) - 1)

#define PROBE_PID	4242
#define PROBE_IP	0x401000ULL
/* a build id no real file has, to find in perf script's MMAP2 line */
static const uint8_t probe_bid[20] = {
	0xd1, 0x5e, 0xa5, 0xe0, 0x0b, 0x1d, 0x42, 0x17, 0x18, 0x18,
	0xd1, 0x5e, 0xa5, 0xe0, 0x0b, 0x1d, 0x42, 0x17, 0x18, 0x18,
};
#define PROBE_BID_HEX	"d15ea5e00b1d42171818d15ea5e00b1d42171818"

struct run {
	int status;		/* exit status, or -1: did not run or timed out */
	char *out;		/* stdout, NUL-terminated */
	char *err;		/* stderr */
};

struct probe {
	const char *perf;	/* the binary run (absolute or as given) */
	char dir[PATH_MAX];	/* the probe files */
	unsigned int timeout_ms;
	char *report;		/* what each probe showed, lines */
	size_t report_len;
	unsigned int runs;
};

struct probed_target {
	struct pd_perf_target t;	/* first: what the caller is given */
	char name[PATH_MAX];
	char description[PATH_MAX + 256];
	char *report;
};

static void report(struct probe *p, const char *fmt, ...) PD_PRINTF(2, 3);

static void report(struct probe *p, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	size_t n;
	char *r;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	n = strlen(line);
	r = realloc(p->report, p->report_len + n + 2);
	if (!r)
		return;
	memcpy(r + p->report_len, line, n);
	r[p->report_len + n] = '\n';
	r[p->report_len + n + 1] = '\0';
	p->report = r;
	p->report_len += n + 1;
}

/* ---- running perf ---- */

static char *slurp(int fd)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap + 1);
	ssize_t n;

	if (!buf)
		return NULL;
	if (lseek(fd, 0, SEEK_SET) < 0) {
		buf[0] = '\0';
		return buf;
	}
	while ((n = read(fd, buf + len, cap - len)) > 0) {
		len += n;
		if (len == cap) {
			/* perf's output on a probe is small: keep 1 MiB */
			char *nb = cap < (1U << 20) ? realloc(buf, 2 * cap + 1) : NULL;

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
	}
	buf[len] = '\0';
	return buf;
}

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

static int tmpfile_in(const struct probe *p, const char *name)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/%s", p->dir, name);
	return open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
}

extern char **environ;

/*
 * The environment perf runs in: ours, but without perf's configuration
 * (PERF_CONFIG=/dev/null: a user's report.children or colors would
 * change what is parsed here) and with no pager. Made before fork(): the
 * child only execs.
 */
static char **probe_env(void)
{
	static char *const ours[] = {
		"PERF_CONFIG=/dev/null", "PAGER=cat", "PERF_PAGER=cat",
	};
	size_t n = 0, i, j = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + PD_ARRAY_SIZE(ours) + 1, sizeof(*env));
	if (!env)
		return NULL;
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], "PERF_CONFIG=", 12) &&
		    strncmp(environ[i], "PAGER=", 6) &&
		    strncmp(environ[i], "PERF_PAGER=", 11))
			env[j++] = environ[i];
	for (i = 0; i < PD_ARRAY_SIZE(ours); i++)
		env[j++] = ours[i];
	return env;
}

/*
 * Run perf with args (NULL-terminated, without argv[0]), stdin from the
 * file stdin_path or /dev/null. Its own process group, so that a
 * wrapper's children die with it on a timeout.
 */
static int run_perf(struct probe *p, const char *const *args,
		    const char *stdin_path, struct run *r)
{
	const char *argv[16];
	int fo, fe, status = 0;
	unsigned int waited = 0;
	char **envp;
	size_t i, n = 0;
	pid_t pid;

	r->status = -1;
	r->out = r->err = NULL;
	argv[n++] = p->perf;
	for (i = 0; args[i] && n < PD_ARRAY_SIZE(argv) - 1; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	envp = probe_env();
	if (!envp)
		return -ENOMEM;
	fo = tmpfile_in(p, "stdout");
	fe = tmpfile_in(p, "stderr");
	if (fo < 0 || fe < 0) {
		if (fo >= 0)
			close(fo);
		if (fe >= 0)
			close(fe);
		free(envp);
		return -EIO;
	}
	p->runs++;
	pid = fork();
	if (pid < 0) {
		close(fo);
		close(fe);
		free(envp);
		return -EAGAIN;
	}
	if (pid == 0) {
		int fi = open(stdin_path ? stdin_path : "/dev/null", O_RDONLY);

		setpgid(0, 0);
		if (fi < 0 || dup2(fi, 0) < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0)
			_exit(127);
		execve(argv[0], (char *const *)argv, envp);
		_exit(127);
	}
	free(envp);
	for (;;) {
		struct timespec ts = { 0, 5 * 1000 * 1000 };
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			status = -1;
			break;
		}
		if (waited >= p->timeout_ms) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			status = -1;
			break;
		}
		nanosleep(&ts, NULL);
		waited += 5;
	}
	r->out = slurp(fo);
	r->err = slurp(fe);
	close(fo);
	close(fe);
	if (status >= 0 && WIFEXITED(status))
		r->status = WEXITSTATUS(status);
	if (!r->out || !r->err) {
		run_free(r);
		return -ENOMEM;
	}
	return 0;
}

/* Lines of text holding s (case-insensitive). */
static bool says(const char *text, const char *s)
{
	return text && strcasestr(text, s);
}

/* What perf prints when it cannot or will not read something. */
static bool complains(const struct run *r)
{
	/* not "error" alone: perf report --stats lists AUXTRACE_ERROR */
	static const char *const words[] = {
		"failed to process", "unknown event", "unsupported",
		"incompatible", "can't parse", "cannot", "couldn't",
		"error:", "wrong feature", "reserved bits", "warning",
	};
	size_t i;

	for (i = 0; i < PD_ARRAY_SIZE(words); i++)
		if (says(r->out, words[i]) || says(r->err, words[i]))
			return true;
	return false;
}

/* perf script's sample lines (the probe's event is cpu-clock) */
static unsigned int script_samples(const struct run *r)
{
	unsigned int n = 0;
	const char *s;

	for (s = r->out; s && (s = strstr(s, "cpu-clock")); s++)
		n++;
	return n;
}

/* perf report --stats: "SAMPLE events: N" */
static long stats_samples(const struct run *r)
{
	const char *s = r->out ? strstr(r->out, "SAMPLE events:") : NULL;

	return s ? strtol(s + strlen("SAMPLE events:"), NULL, 10) : 0;
}

/* ---- the probe files ---- */

enum extra_kind {
	EXTRA_NONE,
	EXTRA_RECORD,		/* one record of a given type, zero body */
	EXTRA_MMAP2_BUILD_ID,	/* an MMAP2 with a build id */
	EXTRA_KERNEL_MAP,	/* the kernel's map as an MMAP (extra_type) or
				 * MMAP2, and a kernel sample in it */
};

struct probe_file {
	const char *name;
	enum pd_mode mode;
	uint32_t attr_size;
	uint32_t compress;		/* 0, PD_RECORD_COMPRESSED(2) */
	uint32_t pipe_last_feature;
	enum extra_kind extra;
	uint32_t extra_type;
	uint64_t attr_flags;		/* set on top of probe_attr's */
};

static const struct pd_attr probe_attr = {
	.type = PD_TYPE_SOFTWARE,
	.config = 0,			/* PERF_COUNT_SW_CPU_CLOCK */
	.sample_period = 1000000,
	.sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME |
		       PD_SAMPLE_PERIOD,
	.flags = PD_ATTR_SAMPLE_ID_ALL | PD_ATTR_DISABLED |
		 PD_ATTR_ENABLE_ON_EXEC | PD_ATTR_COMM | PD_ATTR_MMAP,
};

/* the sample_id_all trailer of probe_attr: pid, tid, time */
static size_t put_trailer(uint8_t *b, uint64_t time)
{
	uint32_t pid = PROBE_PID;

	memcpy(b, &pid, 4);
	memcpy(b + 4, &pid, 4);
	memcpy(b + 8, &time, 8);
	return 16;
}

static void put_header(uint8_t *b, uint32_t type, uint16_t misc, size_t size)
{
	uint16_t s = size;

	memcpy(b, &type, 4);
	memcpy(b + 4, &misc, 2);
	memcpy(b + 6, &s, 2);
}

/* A sample of the probe's process at ip, in the cpumode misc names. */
static int write_sample_at(struct pd_writer *w, uint64_t time, uint64_t ip,
			   uint16_t misc)
{
	uint8_t b[40];
	uint64_t period = 1000000;
	uint32_t pid = PROBE_PID;

	put_header(b, PD_RECORD_SAMPLE, misc, sizeof(b));
	memcpy(b + 8, &ip, 8);
	memcpy(b + 16, &pid, 4);
	memcpy(b + 20, &pid, 4);
	memcpy(b + 24, &time, 8);
	memcpy(b + 32, &period, 8);
	return pd_writer__write(w, b, &probe_attr);
}

static int write_sample(struct pd_writer *w, uint64_t time)
{
	return write_sample_at(w, time, PROBE_IP, PD_MISC_USER);
}

static int write_comm(struct pd_writer *w)
{
	uint8_t b[8 + 8 + 16 + 16] = { 0 };
	uint32_t pid = PROBE_PID;

	put_header(b, PD_RECORD_COMM, 0, sizeof(b));
	memcpy(b + 8, &pid, 4);
	memcpy(b + 12, &pid, 4);
	memcpy(b + 16, "pd-probe", 8);
	put_trailer(b + 32, 100);
	return pd_writer__write(w, b, &probe_attr);
}

/* MMAP2 of [0x400000, +1M) with the probe's build id (misc
 * MMAP_BUILD_ID: size byte, 3 reserved, 20 id bytes where dev/inode go) */
static int write_mmap2_build_id(struct pd_writer *w)
{
	uint8_t b[8 + 40 + 24 + 8 + 16 + 16] = { 0 };
	uint64_t start = 0x400000, len = 0x100000;
	uint32_t pid = PROBE_PID, prot = 5, flags = 2;

	put_header(b, PD_RECORD_MMAP2, PD_MISC_USER | PD_MISC_MMAP_BUILD_ID,
		   sizeof(b));
	memcpy(b + 8, &pid, 4);
	memcpy(b + 12, &pid, 4);
	memcpy(b + 16, &start, 8);
	memcpy(b + 24, &len, 8);
	/* pgoff 0 */
	b[40] = sizeof(probe_bid);
	memcpy(b + 44, probe_bid, sizeof(probe_bid));
	memcpy(b + 64, &prot, 4);
	memcpy(b + 68, &flags, 4);
	memcpy(b + 72, "/pd-probe", 9);
	put_trailer(b + 88, 150);
	return pd_writer__write(w, b, &probe_attr);
}

#define PROBE_KERNEL	0xffffffff81000000ULL

/*
 * The kernel's map as perf writes it: "[kernel.kallsyms]_text", pid -1,
 * misc KERNEL, pgoff the address of _text (where perf relocates the
 * kallsyms by); an MMAP as perf up to 6.12 synthesizes it, or an MMAP2
 * as 7.x does (dev/inode zero).
 */
static int write_kernel_map(struct pd_writer *w, uint32_t type)
{
	uint8_t b[8 + 64 + 24 + 16] = { 0 };
	uint64_t start = PROBE_KERNEL, len = 0x1000000;
	uint32_t pid = (uint32_t)-1;
	size_t name = type == PD_RECORD_MMAP2 ? 72 : 40;
	size_t n = name + 24;

	memcpy(b + 8, &pid, 4);
	memcpy(b + 12, &pid, 4);
	memcpy(b + 16, &start, 8);
	memcpy(b + 24, &len, 8);
	memcpy(b + 32, &start, 8);
	memcpy(b + name, "[kernel.kallsyms]_text", 22);
	n += put_trailer(b + n, 50);
	put_header(b, type, PD_MISC_KERNEL, n);
	return pd_writer__write(w, b, &probe_attr);
}

/* A sample in the kernel's map: perf report then looks for its kernel
 * map and warns when it has none. */
static int write_kernel_sample(struct pd_writer *w, uint64_t time)
{
	return write_sample_at(w, time, PROBE_KERNEL + 0x1000, PD_MISC_KERNEL);
}

/* A record of the given type with a zero body: for the kernel and
 * perf-tool types the probes ask about, zeros are a valid empty record
 * (no name, no entries, length 0), so a perf that knows the type reads
 * it without a word. */
static int write_zero_record(struct pd_writer *w, uint32_t type)
{
	uint8_t b[528 + 16] = { 0 };
	size_t n = 8 + 64;

	/* NAMESPACES: perf warns unless all 7 entries (net, uts, ipc, pid,
	 * user, mnt, cgroup; since 4.12) are there: pid, tid, nr, 7 x 16 */
	if (type == PD_RECORD_NAMESPACES) {
		uint64_t nr = 7;

		memcpy(b + 16, &nr, 8);
		n = 8 + 16 + 7 * 16;
	}
	/* BPF_METADATA: a 512-byte program name and an entry count */
	if (type == PD_RECORD_BPF_METADATA)
		n = 8 + 512 + 8;

	if (type < PD_RECORD_USER_MIN)
		n += put_trailer(b + n, 1500);
	put_header(b, type, type < PD_RECORD_USER_MIN ? PD_MISC_USER : 0, n);
	return pd_writer__write(w, b,
				type < PD_RECORD_USER_MIN ? &probe_attr : NULL);
}

/*
 * EVENT_DESC of the one event: count, attr size, the attr, its id count,
 * its name (a u32 length, padded to 64 bytes, then the bytes) and id 1.
 * perf 5.10 and later check its attrs' reserved bits (header.c,
 * read_event_desc() -> perf_attr_check()).
 */
static int write_event_desc(struct pd_writer *w, const struct pd_attr *a,
			    uint32_t attr_size)
{
	uint8_t sec[8 + 256 + 4 + 4 + 64 + 8] = { 0 };
	uint32_t one = 1, name_len = 64;
	uint64_t id = 1;
	uint8_t *p = sec;

	if (attr_size > 256)
		return -EINVAL;
	memcpy(p, &one, 4);
	memcpy(p + 4, &attr_size, 4);
	p += 8;
	memcpy(p, a, attr_size < sizeof(*a) ? attr_size : sizeof(*a));
	p += attr_size;
	memcpy(p, &one, 4);
	memcpy(p + 4, &name_len, 4);
	memcpy(p + 8, "cpu-clock", 9);
	p += 8 + name_len;
	memcpy(p, &id, 8);
	p += 8;
	return pd_writer__set_feature(w, PD_FEAT_EVENT_DESC, sec, p - sec);
}

static int write_probe_file(struct probe *p, const struct probe_file *f,
			    char *path, size_t len)
{
	struct pd_writer_opts o = {
		.sz = sizeof(o),
		.mode = f->mode,
		.compress = f->compress,
		.pipe_last_feature = f->pipe_last_feature,
	};
	static const uint32_t nrcpus[2] = { 1, 1 };	/* online, available */
	struct pd_attr a = probe_attr;
	uint64_t id = 1;
	struct pd_writer *w;
	int err;

	snprintf(path, len, "%s/%s.data", p->dir, f->name);
	w = pd_writer__open(path, &o);
	if (!w)
		return -errno;
	a.size = f->attr_size;
	a.flags |= f->attr_flags;
	err = pd_writer__add_evsel(w, &a, f->attr_size, &id, 1);
	/* perf 7.x warns of a file without it */
	if (!err)
		err = pd_writer__set_feature(w, PD_FEAT_NRCPUS, nrcpus,
					     sizeof(nrcpus));
	/* the attr flags probe: perf checks the attrs of EVENT_DESC */
	if (!err && f->attr_flags)
		err = write_event_desc(w, &a, f->attr_size);
	if (!err)
		err = write_comm(w);
	if (!err && f->extra == EXTRA_MMAP2_BUILD_ID)
		err = write_mmap2_build_id(w);
	if (!err && f->extra == EXTRA_KERNEL_MAP)
		err = write_kernel_map(w, f->extra_type);
	if (!err && f->extra == EXTRA_KERNEL_MAP)
		err = write_kernel_sample(w, 500);
	if (!err)
		err = write_sample(w, 1000);
	if (!err && f->extra == EXTRA_RECORD)
		err = write_zero_record(w, f->extra_type);
	if (!err)
		err = write_sample(w, 2000);
	if (!err)
		err = pd_writer__finish(w);
	pd_writer__free(w);
	return err;
}

/* ---- the probes ---- */

/* perf script -i FILE on a probe: both samples, nothing complained of */
static bool probe_reads(struct probe *p, const struct probe_file *f,
			struct run *out)
{
	static const char *const args_file[] = { "script", "-i", NULL, NULL };
	const char *args[4];
	char path[PATH_MAX + 64];
	struct run r;
	bool ok;

	if (write_probe_file(p, f, path, sizeof(path)))
		return false;
	memcpy(args, args_file, sizeof(args));
	args[2] = path;
	if (run_perf(p, args, NULL, &r))
		return false;
	ok = r.status == 0 && script_samples(&r) == 2 && !complains(&r);
	if (out)
		*out = r;
	else
		run_free(&r);
	return ok;
}

/* The largest attr size it accepts in a file: PERF_ATTR_SIZE_VER5 (112)
 * up in steps of 8, as the kernel grows the struct. */
static uint32_t probe_attr_size(struct probe *p, uint32_t nearest)
{
	uint32_t s, best = 0;

	for (s = PD_ATTR_SIZE_VER3; s <= PD_ATTR_SIZE_VER9 + 8; s += 8) {
		struct probe_file f = {
			.name = "attr", .mode = PD_MODE_FILE, .attr_size = s,
		};

		if (s < PD_ATTR_SIZE_VER5 && s != PD_ATTR_SIZE_VER3)
			continue;
		if (probe_reads(p, &f, NULL))
			best = s;
	}
	report(p, "attr size: largest read %u (nearest target: %u)", best,
	       nearest);
	return best;
}

/*
 * -z: a file whose records are all in one COMPRESSED (or COMPRESSED2)
 * record. 2 samples: it knows the type and has zstd; 0 and no complaint:
 * it knows the type but was built without zstd (its stub drops the
 * records); a complaint: it does not know the type.
 */
enum zstd_probe { Z_UNKNOWN, Z_NO_ZSTD, Z_READS };

static enum zstd_probe probe_compressed(struct probe *p, uint32_t type,
					uint32_t attr_size)
{
	struct probe_file f = {
		.name = type == PD_RECORD_COMPRESSED ? "z" : "z2",
		.mode = PD_MODE_FILE, .attr_size = attr_size, .compress = type,
	};
	static const char *const args0[] = { "report", "--stats", "-i", NULL, NULL };
	const char *args[5];
	char path[PATH_MAX + 64];
	enum zstd_probe z = Z_UNKNOWN;
	struct run r;
	long n;

	if (write_probe_file(p, &f, path, sizeof(path)))
		return Z_UNKNOWN;
	memcpy(args, args0, sizeof(args));
	args[3] = path;
	if (run_perf(p, args, NULL, &r))
		return Z_UNKNOWN;
	n = stats_samples(&r);
	if (r.status == 0 && n == 2 && !complains(&r))
		z = Z_READS;
	else if (r.status == 0 && n == 0 && !complains(&r))
		z = Z_NO_ZSTD;
	run_free(&r);
	report(p, "%s (%u): %s", type == PD_RECORD_COMPRESSED ?
	       "COMPRESSED" : "COMPRESSED2", type,
	       z == Z_READS ? "read (zstd built in)" :
	       z == Z_NO_ZSTD ? "known, but no samples come out: built without zstd" :
	       "not read");
	return z;
}

/* MMAP2 with a build id (5.12+): perf script --show-mmap-events prints
 * the build id where older perfs print dev/inode numbers. */
static bool probe_mmap2_build_id(struct probe *p, uint32_t attr_size)
{
	struct probe_file f = {
		.name = "mmap2", .mode = PD_MODE_FILE, .attr_size = attr_size,
		.extra = EXTRA_MMAP2_BUILD_ID,
	};
	static const char *const args0[] = {
		"script", "--show-mmap-events", "-i", NULL, NULL,
	};
	const char *args[5];
	char path[PATH_MAX + 64];
	struct run r;
	bool ok;

	if (write_probe_file(p, &f, path, sizeof(path)))
		return false;
	memcpy(args, args0, sizeof(args));
	args[3] = path;
	if (run_perf(p, args, NULL, &r))
		return false;
	ok = r.status == 0 && says(r.out, PROBE_BID_HEX);
	run_free(&r);
	report(p, "MMAP2 with a build id: %s", ok ? "read" : "not read");
	return ok;
}

/* perf report --stdio on a probe file: its run, or false */
static bool report_run(struct probe *p, const struct probe_file *f,
		       struct run *r)
{
	static const char *const args0[] = {
		"report", "--stdio", "-i", NULL, NULL,
	};
	const char *args[5];
	char path[PATH_MAX + 64];

	if (write_probe_file(p, f, path, sizeof(path)))
		return false;
	memcpy(args, args0, sizeof(args));
	args[3] = path;
	return !run_perf(p, args, NULL, r);
}

/*
 * A kernel MMAP2 taken for the kernel map (5.11+): perf report warns
 * "Kernel address maps (/proc/{kallsyms,modules}) were restricted"
 * when a kernel sample finds no kernel map with its relocation symbol.
 * The same file with the map as an MMAP, which every perf takes, is the
 * control: if perf warns on that too, the probe says nothing (-1).
 */
static int probe_kernel_mmap2(struct probe *p, uint32_t attr_size)
{
	struct probe_file f = {
		.name = "kmap", .mode = PD_MODE_FILE, .attr_size = attr_size,
		.extra = EXTRA_KERNEL_MAP, .extra_type = PD_RECORD_MMAP,
	};
	static const char warn[] = "Kernel address maps";
	struct run r;
	int known = -1;

	if (!report_run(p, &f, &r))
		goto out;
	if (r.status != 0 || says(r.out, warn) || says(r.err, warn)) {
		run_free(&r);
		goto out;
	}
	run_free(&r);
	f.extra_type = PD_RECORD_MMAP2;
	if (!report_run(p, &f, &r))
		goto out;
	if (r.status == 0)
		known = !says(r.out, warn) && !says(r.err, warn);
	run_free(&r);
out:
	report(p, "the kernel map as an MMAP2: %s", known < 0 ?
	       "not known (the MMAP control did not read cleanly)" :
	       known ? "taken for the kernel map" :
	       "no kernel map (\"Kernel address maps ... were restricted\")");
	return known;
}

/*
 * The attr flag bits it knows: perf 5.10 and later check every attr
 * (header.c, perf_attr_check()) and warn "Reserved bits are set
 * unexpectedly" for a bit of its __reserved_1, that is every bit from
 * its first unknown one up. So a probe with bit 63 set shows whether it
 * checks at all, and the lowest bit it warns of is found by bisection.
 * Returns the number of known bits, or 0: it does not check (the bits
 * then matter to no one; the nearest target's list stays).
 */
static unsigned int probe_attr_flags(struct probe *p, uint32_t attr_size,
				     unsigned int nearest)
{
	struct probe_file f = {
		.name = "flags", .mode = PD_MODE_FILE, .attr_size = attr_size,
	};
	unsigned int lo = nearest, hi = 63, mid;
	struct run out = { 0 };
	bool checks;

	f.attr_flags = 1ULL << 63;
	checks = !probe_reads(p, &f, &out) &&
		 (says(out.err, "reserved bits") || says(out.out, "reserved bits"));
	run_free(&out);
	if (!checks) {
		report(p, "attr flag bits: not checked (no \"Reserved bits\" warning for bit 63); the nearest target's 0-%u kept",
		       nearest - 1);
		return 0;
	}
	/* bits below the nearest target's count are known to it: the
	 * lowest unknown one is in [nearest, 63] */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		f.attr_flags = 1ULL << mid;
		if (probe_reads(p, &f, NULL))
			lo = mid + 1;
		else
			hi = mid;
	}
	report(p, "attr flag bits: 0-%u known, %u warned of (\"Reserved bits are set unexpectedly\"; nearest target: 0-%u)",
	       lo - 1, lo, nearest - 1);
	return lo;
}

/*
 * Pipe mode: perf report stops on a HEADER_FEATURE id past its own last
 * feature ("wrong feature ID") and takes exactly its HEADER_LAST_FEATURE
 * for the end marker; an id below it is a feature, parsed or not. So the
 * last feature is the largest marker id not refused. Returns 0 when no
 * id was refused (the perf knows no HEADER_FEATURE, or does not check).
 */
static uint32_t probe_last_feature(struct probe *p, uint32_t attr_size,
				   uint32_t nearest, bool *fatal)
{
	static const char *const args0[] = { "report", "--stdio", "-i", "-", NULL };
	uint32_t lo = PD_FEAT_GROUP_DESC, hi = PD_FEAT_BITS / 4, mid;
	bool refused_any = false;

	/* invariant: lo is not refused, hi is (or is past any id perf has) */
	while (hi - lo > 1) {
		struct probe_file f = {
			.name = "feat", .mode = PD_MODE_PIPE,
			.attr_size = attr_size,
		};
		char path[PATH_MAX + 64];
		struct run r;
		bool refused;

		mid = lo + (hi - lo) / 2;
		/* start near the known value: two runs settle most */
		if (lo == PD_FEAT_GROUP_DESC && hi == PD_FEAT_BITS / 4 && nearest)
			mid = nearest + 1;
		f.pipe_last_feature = mid;
		if (write_probe_file(p, &f, path, sizeof(path)) ||
		    run_perf(p, args0, path, &r))
			return 0;
		refused = says(r.out, "wrong feature") || says(r.err, "wrong feature");
		run_free(&r);
		refused_any |= refused;
		if (refused)
			hi = mid;
		else
			lo = mid;
	}
	*fatal = refused_any;
	if (!refused_any) {
		report(p, "pipe feature ids: none refused, up to %u (nearest target's last feature %u kept)",
		       PD_FEAT_BITS / 4 - 1, nearest);
		return 0;
	}
	report(p, "pipe feature ids: %u is its end marker, past it \"wrong feature ID\" (nearest target: %u)",
	       lo, nearest);
	return lo;
}

/* A pipe-mode file named with -i PATH (RHEL 7 and 8 perf read pipe
 * data only from stdin). */
static bool probe_pipe_by_path(struct probe *p, uint32_t attr_size,
			       uint32_t last_feature)
{
	struct probe_file f = {
		.name = "pipe", .mode = PD_MODE_PIPE, .attr_size = attr_size,
		.pipe_last_feature = last_feature,
	};
	bool ok = probe_reads(p, &f, NULL);

	report(p, "pipe-mode file given with -i PATH: %s", ok ? "read" : "not read");
	return ok;
}

/* The record types the versions differ on: kernel 10 (MMAP2) to the
 * newest, perf-tool 82 (FINISHED_INIT) and past; COMPRESSED(2) above. */
static void probe_records(struct probe *p, struct pd_perf_target *t)
{
	uint32_t type;
	char known[256] = "", unknown[256] = "";

	for (type = PD_RECORD_MMAP2; type < PD_RECORD_KERNEL_MAX; type++) {
		struct probe_file f = {
			.name = "rec", .mode = PD_MODE_FILE,
			.attr_size = t->attr_size_max, .extra = EXTRA_RECORD,
			.extra_type = type,
		};
		char *list;

		if (probe_reads(p, &f, NULL)) {
			t->kernel_records |= 1ULL << type;
			list = known;
		} else {
			t->kernel_records &= ~(1ULL << type);
			list = unknown;
		}
		snprintf(list + strlen(list), 256 - strlen(list), " %u", type);
	}
	report(p, "kernel records read:%s; not read:%s", known, unknown);
	known[0] = unknown[0] = '\0';
	/* perf-tool types are known up to one past HEADER_MAX - 1 */
	for (type = PD_RECORD_FINISHED_INIT; type < PD_RECORD_USER_MAX; type++) {
		struct probe_file f = {
			.name = "rec", .mode = PD_MODE_FILE,
			.attr_size = t->attr_size_max, .extra = EXTRA_RECORD,
			.extra_type = type,
		};

		/* COMPRESSED2 has its own probe, with real content */
		if (type == PD_RECORD_COMPRESSED2)
			continue;
		if (!probe_reads(p, &f, NULL)) {
			snprintf(unknown, sizeof(unknown), " %u", type);
			break;
		}
		snprintf(known + strlen(known), 256 - strlen(known), " %u", type);
	}
	t->user_record_max = type;
	report(p, "perf-tool records from %u read:%s; first not read:%s",
	       PD_RECORD_FINISHED_INIT, known, unknown[0] ? unknown : " none");
}

/* ---- the version, the nearest target ---- */

/* "perf version 5.10.223", "perf version 4.18.0-147.el8.x86_64" */
static bool parse_version(const char *s, unsigned int *maj, unsigned int *min,
			  char *full, size_t len)
{
	const char *v = s ? strstr(s, "perf version ") : NULL;
	size_t n = 0;

	if (!v)
		return false;
	v += strlen("perf version ");
	while (v[n] && !isspace((unsigned char)v[n]))
		n++;
	snprintf(full, len, "%.*s", (int)n, v);
	return sscanf(v, "%u.%u", maj, min) == 2;
}

/* The newest upstream target at or before the version (the oldest when
 * it is older than all): distro entries are for their own names. */
static const struct pd_perf_target *nearest_target(uint32_t version)
{
	const struct pd_perf_target *const *t, *best = NULL, *oldest = NULL;

	for (t = pd_perf_targets(); *t; t++) {
		if (!isdigit((unsigned char)(*t)->name[0]))
			continue;
		if (!oldest)
			oldest = *t;
		if ((*t)->version <= version &&
		    (!best || (*t)->version >= best->version))
			best = *t;
	}
	return best ? best : oldest;
}

/* ---- the cache ---- */

static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const uint8_t *b = data;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/*
 * The binary's build id; for a script (a wrapper running perf in a
 * chroot), a hash of its bytes and of what the perf it runs says of its
 * version, as the script alone does not change when that perf does.
 */
static int cache_key(const char *path, const char *version_out, char *key,
		     size_t len)
{
	uint8_t bid[64];
	int n = pd_elf_build_id(path, bid, sizeof(bid));
	uint64_t h = 0xcbf29ce484222325ULL;
	char buf[4096];
	ssize_t r;
	int fd, i;

	if (n > 0) {
		size_t o = 0;

		for (i = 0; i < n && o + 3 < len; i++)
			o += snprintf(key + o, len - o, "%02x", bid[i]);
		return 0;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		h = fnv1a(h, buf, r);
	close(fd);
	h = fnv1a(h, version_out, strlen(version_out));
	snprintf(key, len, "script-%016llx", (unsigned long long)h);
	return 0;
}

static int cache_path(const char *dir, const char *key, char *path, size_t len)
{
	const char *base = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	if (dir)
		n = snprintf(path, len, "%s/perf-%s", dir, key);
	else if (base && *base)
		n = snprintf(path, len, "%s/perfdata/perf-%s", base, key);
	else if (home && *home)
		n = snprintf(path, len, "%s/.cache/perfdata/perf-%s", home, key);
	else
		return -ENOENT;
	return n > 0 && (size_t)n < len ? 0 : -ENAMETOOLONG;
}

static void mkdirs(char *path)
{
	char *s;

	for (s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
}

static void cache_store(const char *path, const struct probed_target *pt,
			const char *nearest)
{
	const struct pd_perf_target *t = &pt->t;
	char tmp[PATH_MAX + 16], copy[PATH_MAX];
	FILE *f;

	if (strlen(path) >= sizeof(copy))
		return;
	memcpy(copy, path, strlen(path) + 1);
	mkdirs(copy);
	snprintf(tmp, sizeof(tmp), "%s.%d", path, (int)getpid());
	f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "perfdata-probe %d\n", PROBE_FORMAT);
	fprintf(f, "nearest %s\nversion %u\nattr_size_max %u\nattr_size %u\n",
		nearest, t->version, t->attr_size_max, t->attr_size);
	fprintf(f, "kernel_records %llu\nuser_record_max %u\nlast_feature %u\nflags %u\n",
		(unsigned long long)t->kernel_records, t->user_record_max,
		t->last_feature, t->flags);
	fprintf(f, "attr_flags %llu\n", (unsigned long long)t->attr_flags);
	fprintf(f, "description %s\n", pt->description);
	fprintf(f, "report\n%s", pt->report ? pt->report : "");
	if (fclose(f) || rename(tmp, path))
		unlink(tmp);
}

static int cache_load(const char *path, struct probed_target *pt)
{
	struct pd_perf_target *t = &pt->t;
	char line[sizeof(pt->description) + 16], nearest[64] = "";
	unsigned long long kr = 0, af = 0;
	const struct pd_perf_target *n;
	int format = 0, got = 0;
	FILE *f = fopen(path, "r");
	size_t rlen = 0;

	if (!f)
		return -ENOENT;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		got += sscanf(line, "perfdata-probe %d", &format);
		got += sscanf(line, "nearest %63s", nearest);
		got += sscanf(line, "version %u", &t->version);
		got += sscanf(line, "attr_size_max %u", &t->attr_size_max);
		got += sscanf(line, "attr_size %u", &t->attr_size);
		got += sscanf(line, "kernel_records %llu", &kr);
		got += sscanf(line, "user_record_max %u", &t->user_record_max);
		got += sscanf(line, "last_feature %u", &t->last_feature);
		got += sscanf(line, "flags %u", &t->flags);
		got += sscanf(line, "attr_flags %llu", &af);
		if (!strncmp(line, "description ", 12)) {
			/* cut to its size: written from it */
			line[12 + sizeof(pt->description) - 1] = '\0';
			memcpy(pt->description, line + 12,
			       strlen(line + 12) + 1);
			got++;
		}
		if (!strcmp(line, "report"))
			break;
	}
	while (fgets(line, sizeof(line), f)) {
		size_t l = strlen(line);
		char *r = realloc(pt->report, rlen + l + 1);

		if (!r)
			break;
		memcpy(r + rlen, line, l + 1);
		pt->report = r;
		rlen += l;
	}
	fclose(f);
	/* a table entry's name, as cache_store() wrote it */
	n = pd__perf_target_named(nearest);
	if (format != PROBE_FORMAT || got != 11 || !n || !pt->report) {
		free(pt->report);
		pt->report = NULL;
		return -EINVAL;
	}
	t->kernel_records = kr;
	/* the facts no probe asks about */
	t->sample_type = n->sample_type;
	t->read_format = n->read_format;
	t->branch_sample_type = n->branch_sample_type;
	t->fails_on_attr = n->fails_on_attr;
	t->fails_on_record = n->fails_on_record;
	t->attr_flags = af;		/* probed, or the nearest's */
	t->branch_filter = n->branch_filter;
	t->aux_action = n->aux_action;
	return 0;
}

/* ---- putting it together ---- */

/* "auto": $PERF, else perf on PATH; a name without a slash is looked up
 * on PATH too. The result is absolute or as given with a slash. */
static int find_binary(const char *spec, char *out, size_t len)
{
	const char *name = spec, *path;
	char *copy, *dir, *save = NULL;

	if (!strcmp(spec, "auto")) {
		name = getenv("PERF");
		if (!name || !*name)
			name = "perf";
	}
	if (strchr(name, '/')) {
		snprintf(out, len, "%s", name);
		return access(out, X_OK) ? -errno : 0;
	}
	path = getenv("PATH");
	copy = strdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	if (!copy)
		return -ENOMEM;
	for (dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/%s", *dir ? dir : ".", name);
		if (!access(out, X_OK)) {
			free(copy);
			return 0;
		}
	}
	free(copy);
	return -ENOENT;
}

static void probe_all(struct probe *p, struct probed_target *pt,
		      const struct pd_perf_target *n)
{
	struct pd_perf_target *t = &pt->t;
	uint32_t size, last;
	enum zstd_probe z, z2;
	unsigned int nflags;
	bool fatal = false;
	int kmap;

	size = probe_attr_size(p, n->attr_size_max);
	if (size) {
		t->attr_size_max = size;
		/* what perf accepts is its sizeof(struct perf_event_attr) */
		t->attr_size = size;
	}
	probe_records(p, t);
	z = probe_compressed(p, PD_RECORD_COMPRESSED, t->attr_size_max);
	z2 = probe_compressed(p, PD_RECORD_COMPRESSED2, t->attr_size_max);
	if (z == Z_UNKNOWN) {
		/* COMPRESSED is 81: nothing from there on is known */
		if (t->user_record_max > PD_RECORD_COMPRESSED)
			t->user_record_max = PD_RECORD_COMPRESSED;
	} else if (z2 != Z_UNKNOWN) {
		if (t->user_record_max <= PD_RECORD_COMPRESSED2)
			t->user_record_max = PD_RECORD_COMPRESSED2 + 1;
	} else if (t->user_record_max > PD_RECORD_COMPRESSED2) {
		t->user_record_max = PD_RECORD_COMPRESSED2;
	}
	report(p, "perf-tool records known: up to %u", t->user_record_max - 1);
	t->flags &= ~(PD_TGT_ZSTD | PD_TGT_NO_ZSTD);
	if (z == Z_NO_ZSTD || z2 == Z_NO_ZSTD)
		t->flags |= PD_TGT_NO_ZSTD;
	else if (z == Z_READS || z2 == Z_READS)
		t->flags |= PD_TGT_ZSTD;
	if (probe_mmap2_build_id(p, t->attr_size_max))
		t->flags |= PD_TGT_MMAP2_BUILD_ID;
	else
		t->flags &= ~PD_TGT_MMAP2_BUILD_ID;
	/* not known: the nearest target's fact stays */
	kmap = probe_kernel_mmap2(p, t->attr_size_max);
	if (kmap > 0)
		t->flags |= PD_TGT_KERNEL_MMAP2;
	else if (!kmap)
		t->flags &= ~PD_TGT_KERNEL_MMAP2;
	nflags = probe_attr_flags(p, t->attr_size_max,
				  (unsigned int)__builtin_popcountll(n->attr_flags));
	if (nflags)
		t->attr_flags = ATTR_FLAG_BITS(nflags);
	if (pd_perf_target__knows_record(t, PD_RECORD_HEADER_FEATURE)) {
		last = probe_last_feature(p, t->attr_size_max, n->last_feature,
					  &fatal);
		if (last) {
			t->last_feature = last;
			t->flags |= PD_TGT_PIPE_FEATURE_ID_FATAL;
		} else if (!fatal) {
			t->flags &= ~PD_TGT_PIPE_FEATURE_ID_FATAL;
		}
	}
	probe_pipe_by_path(p, t->attr_size_max, t->last_feature);
}

static void rm_probe_dir(const char *dir)
{
	static const char *const names[] = {
		"attr.data", "rec.data", "z.data", "z2.data", "mmap2.data",
		"kmap.data", "flags.data",
		"feat.data", "pipe.data", "stdout", "stderr",
	};
	char path[PATH_MAX + 32];
	size_t i;

	/* $PD_PROBE_KEEP: the last probe's files stay, to be run by hand */
	if (getenv("PD_PROBE_KEEP"))
		return;
	for (i = 0; i < PD_ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

PD_EXPORT struct pd_perf_target *
pd_perf_target__probe(const char *perf, const struct pd_perf_probe_opts *opts)
{
	static const char *const vargs[] = { "--version", NULL };
	struct pd_perf_probe_opts o = { 0 };
	struct probe p = { 0 };
	struct probed_target *pt;
	const struct pd_perf_target *n;
	char bin[PATH_MAX], key[160] = "", cpath[PATH_MAX] = "", full[64];
	const char *tmp = getenv("TMPDIR");
	unsigned int maj, min;
	struct run r;
	int err;

	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	if (!perf) {
		errno = EINVAL;
		return NULL;
	}
	err = find_binary(perf, bin, sizeof(bin));
	if (err) {
		pd__warn(NULL, "%s: no perf to probe (%s)", perf, strerror(-err));
		errno = -err;
		return NULL;
	}
	pt = calloc(1, sizeof(*pt));
	if (!pt)
		return NULL;
	p.perf = bin;
	p.timeout_ms = o.timeout_ms ? o.timeout_ms : 30000;
	snprintf(p.dir, sizeof(p.dir), "%s/pd-probe-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(p.dir)) {
		err = -errno;
		pd__warn(NULL, "%s: cannot make a directory for the probe files: %s",
			 p.dir, strerror(errno));
		goto fail;
	}
	/* perf --version: which known target is nearest, and part of the
	 * key of a script */
	err = run_perf(&p, vargs, NULL, &r);
	if (err || r.status != 0 ||
	    !parse_version(r.out, &maj, &min, full, sizeof(full))) {
		pd__warn(NULL, "%s: not a perf: '%s --version' printed no \"perf version N.N\"",
			 bin, bin);
		if (!err)
			run_free(&r);
		err = -ENOEXEC;
		goto fail;
	}
	snprintf(pt->name, sizeof(pt->name), "%s", perf);
	pt->t.name = pt->name;
	pt->t.description = pt->description;
	if (!o.no_cache && !cache_key(bin, r.out, key, sizeof(key)) &&
	    !cache_path(o.cache_dir, key, cpath, sizeof(cpath)) &&
	    !o.refresh && !cache_load(cpath, pt)) {
		run_free(&r);
		pt->t.probe_report = pt->report;
		rm_probe_dir(p.dir);
		return &pt->t;
	}
	run_free(&r);
	n = nearest_target(PD_PERF_VERSION(maj, min));
	pt->t = *n;
	pt->t.name = pt->name;
	pt->t.description = pt->description;
	pt->t.version = PD_PERF_VERSION(maj, min);
	report(&p, "perf %s at %s; nearest known target %s%s", full, bin,
	       n->name, PD_PERF_VERSION(maj, min) > nearest_target(~0U)->version ?
	       " (newer than every known target: its facts, then the probes)" : "");
	probe_all(&p, pt, n);
	report(&p, "sample_type, read_format and branch bits, pipe attr layout: %s's (not probed); %u perf runs",
	       n->name, p.runs);
	pt->report = p.report;
	p.report = NULL;
	snprintf(pt->description, sizeof(pt->description),
		 "perf %s at %s, probed (nearest known target %s%s)", full, bin,
		 n->name, pt->t.flags & PD_TGT_NO_ZSTD ? ", built without zstd" : "");
	pt->t.probe_report = pt->report;
	if (!o.no_cache && key[0] && cpath[0])
		cache_store(cpath, pt, n->name);
	rm_probe_dir(p.dir);
	return &pt->t;
fail:
	if (p.dir[0] && strcmp(p.dir + strlen(p.dir) - 6, "XXXXXX"))
		rm_probe_dir(p.dir);
	free(p.report);
	free(pt);
	errno = -err;
	return NULL;
}

PD_EXPORT void pd_perf_target__free(struct pd_perf_target *t)
{
	struct probed_target *pt = (struct probed_target *)t;

	/* the table's targets are static: only probed ones carry a report */
	if (!t || !t->probe_report)
		return;
	free(pt->report);
	free(pt);
}

PD_EXPORT bool pd_perf_target__is_binary(const char *spec)
{
	return spec && (!strcmp(spec, "auto") || strchr(spec, '/'));
}

/*
 * The meeting point with the version names (pd_perf_target__find() and
 * the resolver, in resolve.c): a spec naming a binary is probed
 * once per process, and the result kept for the process's life, as the
 * table's targets are.
 */
const struct pd_perf_target *pd__perf_target_binary(const char *spec)
{
	static struct {
		char spec[PATH_MAX];
		struct pd_perf_target *t;
	} seen[4];
	static unsigned int nr;
	unsigned int i;
	struct pd_perf_target *t;

	for (i = 0; i < nr; i++)
		if (!strcmp(seen[i].spec, spec))
			return seen[i].t;
	t = pd_perf_target__probe(spec, NULL);
	if (t && nr < PD_ARRAY_SIZE(seen)) {
		snprintf(seen[nr].spec, sizeof(seen[nr].spec), "%s", spec);
		seen[nr++].t = t;
	}
	return t;
}
