// SPDX-License-Identifier: MIT
/*
 * pd-record's session: start the command stopped, open the events on
 * every CPU with one ring buffer per CPU, synthesize what already runs,
 * let the command go, copy records from the ring buffers to the writer
 * until the command exits or a signal stops us, then write the build ids
 * and the header.
 *
 * Records of one ring buffer are in time order but the buffers are not
 * ordered with one another: after each pass over all of them a
 * FINISHED_ROUND record tells readers that everything before it may be
 * sorted and flushed (perf's own rule).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <perfdata/compat.h>
#include <perfdata/kernel-abi.h>
#include <perfdata/reader.h>

#include "common/cli.h"
#include "record.h"

/*
 * the longest wait between two reads: a process's files are opened
 * through it when its MMAP2 is read (record-mapfile.c), so that the one
 * of a short-lived process, or of a container gone meanwhile, must be
 * read soon
 */
#define POLL_MS		20
/* draining pace without poll() wakeups: 10 ms of samples fit any buffer */
#define DRAIN_MS	10

struct id_ev {
	uint64_t id;
	size_t ev;
};

struct rec_session {
	const struct rec_opts *o;
	struct rec_event *evs;
	size_t nr_evs;
	int *cpus;
	size_t nr_cpus;
	pid_t *tids;			/* -p/-t: the threads; else one entry */
	size_t nr_tids;
	int *fds;
	size_t nr_fds, cap_fds;
	struct rec_ring *rings;
	size_t nr_rings;
	struct id_ev *ids;
	size_t nr_ids;
	struct pd_writer *w;
	const char *write_path;		/* the output, or a temporary file */
	char *tmp_path;
	struct rec_buildids *bids;	/* NULL: -B */
	struct rec_bidcache *cache;	/* NULL: -N, -B */
	struct rec_bpf *bpf;		/* BPF programs, or NULL */
	pid_t child;
	int go_fd, exec_err_fd;
	uint64_t nr_samples, nr_lost, nr_lost_records, bytes;
	uint64_t first_time, last_time;
	unsigned long wakeups;
	bool write_failed;
	bool epipe;
	int err;
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void on_child(int sig)
{
	(void)sig;	/* only wakes poll() */
}

/* ---- CPUs and threads ---- */

static int parse_cpu_list(const char *s, int **cpus, size_t *nr)
{
	size_t cap = 0;
	char *end;

	*cpus = NULL;
	*nr = 0;
	while (*s && *s != '\n') {
		long a = strtol(s, &end, 10), b = a, c;

		if (end == s || a < 0 || a > 65535)
			return -EINVAL;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a || b > 65535)
				return -EINVAL;
			s = end;
		}
		for (c = a; c <= b; c++) {
			if (*nr == cap) {
				int *v;

				cap = cap ? 2 * cap : 16;
				v = realloc(*cpus, cap * sizeof(*v));
				if (!v)
					return -ENOMEM;
				*cpus = v;
			}
			(*cpus)[(*nr)++] = c;
		}
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return *nr ? 0 : -EINVAL;
}

static int online_cpus(int **cpus, size_t *nr)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	char line[4096];
	long i, n;

	if (f && fgets(line, sizeof(line), f)) {
		fclose(f);
		return parse_cpu_list(line, cpus, nr);
	}
	if (f)
		fclose(f);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	*cpus = calloc(n > 0 ? n : 1, sizeof(**cpus));
	if (!*cpus)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		(*cpus)[i] = i;
	*nr = n > 0 ? n : 1;
	return 0;
}

static int process_threads(pid_t pid, pid_t **tids, size_t *nr)
{
	char path[64];
	struct dirent *e;
	size_t cap = 0;
	int err = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		if (*nr == cap) {
			pid_t *v;

			cap = cap ? 2 * cap : 16;
			v = realloc(*tids, cap * sizeof(*v));
			if (!v) {
				err = -ENOMEM;
				break;
			}
			*tids = v;
		}
		(*tids)[(*nr)++] = atoi(e->d_name);
	}
	closedir(d);
	return err;
}

/* ---- the command ---- */

/* Fork the command; it waits for a byte on go_fd before exec. */
static int start_child(struct rec_session *s)
{
	int go[2], eerr[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(eerr, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return -errno;
	}
	pid = fork();
	if (pid < 0) {
		int e = -errno;

		close(go[0]);
		close(go[1]);
		close(eerr[0]);
		close(eerr[1]);
		return e;
	}
	if (pid == 0) {
		char c;
		int e;

		close(go[1]);
		close(eerr[0]);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		/* the profile goes to stdout: keep the command's output
		 * out of the stream */
		if (!strcmp(s->o->output, "-"))
			dup2(STDERR_FILENO, STDOUT_FILENO);
		if (read(go[0], &c, 1) != 1)
			_exit(127);	/* pd-record gave up */
		execvp(s->o->argv[0], s->o->argv);
		e = errno;
		if (write(eerr[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(eerr[1]);
	s->child = pid;
	s->go_fd = go[1];
	s->exec_err_fd = eerr[0];
	return 0;
}

/* Let the command exec; 0, or its exec error as -errno. */
static int release_child(struct rec_session *s)
{
	ssize_t n;
	int e = 0;

	if (write(s->go_fd, "g", 1) != 1)
		return -EPIPE;
	close(s->go_fd);
	s->go_fd = -1;
	do
		n = read(s->exec_err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(s->exec_err_fd);
	s->exec_err_fd = -1;
	return n == sizeof(e) ? -e : 0;
}

/* ---- records ---- */

static int cmp_id(const void *a, const void *b)
{
	const struct id_ev *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static const struct pd_attr *attr_of(struct rec_session *s, const uint8_t *rec)
{
	uint32_t type;
	uint16_t size;
	uint64_t id;
	struct id_ev key, *hit;

	if (s->nr_evs == 1)
		return &s->evs[0].attr;
	/* IDENTIFIER: first in a sample, last in the trailer of others */
	memcpy(&type, rec, 4);
	memcpy(&size, rec + 6, 2);
	if (size < 16)
		return &s->evs[0].attr;
	if (type == PD_RECORD_SAMPLE)
		memcpy(&id, rec + 8, 8);
	else
		memcpy(&id, rec + size - 8, 8);
	key.id = id;
	hit = bsearch(&key, s->ids, s->nr_ids, sizeof(*s->ids), cmp_id);
	return hit ? &s->evs[hit->ev].attr : &s->evs[0].attr;
}

static void note_sample_time(struct rec_session *s, const uint8_t *rec,
			     const struct pd_attr *a)
{
	size_t off = 8;
	uint64_t t;

	if (!(a->sample_type & PD_SAMPLE_TIME))
		return;
	if (a->sample_type & PD_SAMPLE_IDENTIFIER)
		off += 8;
	if (a->sample_type & PD_SAMPLE_IP)
		off += 8;
	if (a->sample_type & PD_SAMPLE_TID)
		off += 8;
	memcpy(&t, rec + off, 8);
	if (!s->first_time || t < s->first_time)
		s->first_time = t;
	if (t > s->last_time)
		s->last_time = t;
}

static int write_rec(struct rec_session *s, const void *rec,
		     const struct pd_attr *a)
{
	uint16_t size;
	int err;

	if (s->write_failed)
		return 0;
	memcpy(&size, (const uint8_t *)rec + 6, 2);
	err = pd_writer__write(s->w, rec, a);
	if (err) {
		s->write_failed = true;
		s->err = err;
		if (err == -EPIPE)
			s->epipe = true;
		return err;
	}
	s->bytes += size;
	return 0;
}

static int emit_synth(void *ctx, const void *rec, const struct pd_attr *a)
{
	struct rec_session *s = ctx;
	const void *out;
	int err = rec_buildids__record(s->bids, rec, a, &out);

	if (err)
		return err;
	return write_rec(s, out, a);
}

static int on_record(void *ctx, const void *rec)
{
	struct rec_session *s = ctx;
	const struct pd_attr *a = attr_of(s, rec);
	const void *out;
	uint32_t type;
	int err;

	memcpy(&type, rec, 4);
	if (type == PD_RECORD_SAMPLE) {
		s->nr_samples++;
		note_sample_time(s, rec, a);
	} else if (type == PD_RECORD_LOST) {
		uint64_t lost;

		memcpy(&lost, (const uint8_t *)rec + 16, 8);
		s->nr_lost += lost;
		s->nr_lost_records++;
	} else if (type == PD_RECORD_BPF_EVENT && s->bpf) {
		uint16_t what;
		uint32_t id;

		memcpy(&what, (const uint8_t *)rec + 8, 2);
		memcpy(&id, (const uint8_t *)rec + 12, 4);
		if (what == PD_BPF_EVENT_PROG_LOAD) {
			err = rec_bpf__loaded(s->bpf, id);
			if (err)
				return err;
		}
	}
	err = rec_buildids__record(s->bids, rec, a, &out);
	if (err)
		return err;
	return write_rec(s, out, a);
}

static int finished_round(struct rec_session *s)
{
	uint8_t rec[8] = { 0 };
	uint32_t type = PD_RECORD_FINISHED_ROUND;
	uint16_t size = 8;

	memcpy(rec, &type, 4);
	memcpy(rec + 6, &size, 2);
	rec_buildids__round(s->bids);
	return write_rec(s, rec, NULL);
}

/* One pass over every ring buffer; a FINISHED_ROUND if it read any. */
static int drain_all(struct rec_session *s)
{
	long total = 0;
	size_t i;

	for (i = 0; i < s->nr_rings; i++) {
		long n = rec_ring__drain(&s->rings[i], on_record, s);

		if (n < 0)
			return n;
		total += n;
	}
	if (total)
		return finished_round(s);
	return 0;
}

/* ---- opening ---- */

static int add_fd(struct rec_session *s, int fd)
{
	if (s->nr_fds == s->cap_fds) {
		size_t cap = s->cap_fds ? 2 * s->cap_fds : 64;
		int *v = realloc(s->fds, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->fds = v;
		s->cap_fds = cap;
	}
	s->fds[s->nr_fds++] = fd;
	return 0;
}

static int add_id(struct rec_session *s, size_t ev, int fd)
{
	struct rec_event *e = &s->evs[ev];
	uint64_t id;

	if (ioctl(fd, PD_PERF_IOC_ID, &id))
		return -errno;
	if (e->nr_ids == e->cap_ids) {
		size_t cap = e->cap_ids ? 2 * e->cap_ids : 16;
		uint64_t *v = realloc(e->ids, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		e->ids = v;
		e->cap_ids = cap;
	}
	e->ids[e->nr_ids++] = id;
	return 0;
}

static int open_events(struct rec_session *s)
{
	const struct rec_opts *o = s->o;
	bool warned[64] = { false };
	size_t c, e, t, nid = 0;
	char msg[512];
	int err;

	s->rings = calloc(s->nr_cpus, sizeof(*s->rings));
	if (!s->rings)
		return -ENOMEM;
	for (c = 0; c < s->nr_cpus; c++) {
		int ring_fd = -1;

		for (e = 0; e < s->nr_evs; e++) {
			for (t = 0; t < s->nr_tids; t++) {
				bool fell_back = false;
				char asked[64];
				int fd;

				snprintf(asked, sizeof(asked), "%s",
					 s->evs[e].name);
				fd = rec_event__open(&s->evs[e], s->tids[t],
						     s->cpus[c], &fell_back);

				if (fd == -ESRCH && o->pid)
					continue;	/* a thread ended */
				if (fd < 0) {
					rec_open_error(&s->evs[e], fd, msg,
						       sizeof(msg));
					pd_err("%s", msg);
					return fd;
				}
				if (fell_back && e < 64 && !warned[e] && !o->quiet) {
					warned[e] = true;
					pd_warn("%s is not supported here (no hardware PMU for it): recording cpu-clock instead, as perf does",
						asked);
				}
				err = add_fd(s, fd);
				if (err) {
					close(fd);
					return err;
				}
				if (s->evs[e].filter &&
				    ioctl(fd, PD_PERF_IOC_SET_FILTER,
					  s->evs[e].filter)) {
					pd_err("%s: filter '%s': %s",
					       s->evs[e].name, s->evs[e].filter,
					       strerror(errno));
					return -EINVAL;
				}
				err = add_id(s, e, fd);
				if (err)
					return err;
				if (ring_fd < 0) {
					struct rec_ring *r = &s->rings[s->nr_rings];

					err = rec_ring__map(r, fd, s->cpus[c],
							    o->mmap_pages);
					if (err) {
						pd_err("mmap of the ring buffer of CPU %d (%u pages): %s%s",
						       s->cpus[c], o->mmap_pages,
						       strerror(-err),
						       err == -EPERM ?
						       " (locked memory: /proc/sys/kernel/perf_event_mlock_kb; use fewer -m pages)" :
						       "");
						return err;
					}
					s->nr_rings++;
					ring_fd = fd;
				} else if (ioctl(fd, PD_PERF_IOC_SET_OUTPUT,
						 ring_fd)) {
					err = -errno;
					pd_err("%s: redirecting to the ring buffer of CPU %d: %s",
					       s->evs[e].name, s->cpus[c],
					       strerror(errno));
					return err;
				}
			}
		}
	}
	if (!s->nr_fds) {
		pd_err("nothing to record: no thread of process %d is left",
		       (int)o->pid);
		return -ESRCH;
	}
	for (e = 0; e < s->nr_evs; e++)
		nid += s->evs[e].nr_ids;
	s->ids = calloc(nid ? nid : 1, sizeof(*s->ids));
	if (!s->ids)
		return -ENOMEM;
	for (e = 0; e < s->nr_evs; e++)
		for (t = 0; t < s->evs[e].nr_ids; t++) {
			s->ids[s->nr_ids].id = s->evs[e].ids[t];
			s->ids[s->nr_ids++].ev = e;
		}
	qsort(s->ids, s->nr_ids, sizeof(*s->ids), cmp_id);
	if (pd_verbose)
		fprintf(stderr, "%s: %zu event(s) on %zu CPU(s) for %zu thread(s): %zu descriptors, %zu ring buffers of %u pages\n",
			pd_prog, s->nr_evs, s->nr_cpus, s->nr_tids, s->nr_fds,
			s->nr_rings, o->mmap_pages);
	return 0;
}

static void ioctl_all(struct rec_session *s, unsigned long req)
{
	size_t i;

	for (i = 0; i < s->nr_fds; i++)
		ioctl(s->fds[i], req, 0);
}

/* ---- output ---- */

/*
 * The build ids and the files of the DSOs, from each process's view:
 * at most half the descriptors left once the events have theirs held
 * open for the build-id cache (a process's files, kept for the end).
 */
static int open_buildids(struct rec_session *s)
{
	const struct rec_opts *o = s->o;
	struct rec_buildids_opts bo = { 0 };
	struct rlimit rl;
	long avail = 1024;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY)
		avail = ((long)rl.rlim_cur - (long)s->nr_fds - 64) / 2;
	bo.max_fds = avail < 0 ? 0 : avail > 1024 ? 1024 : avail;
	/* the target reads MMAP2 build ids (perf 5.12+) */
	bo.mmap2_ids = !o->target ||
		       (o->target_perf->flags & PD_TGT_MMAP2_BUILD_ID);
	if (!o->no_buildid_cache) {
		s->cache = rec_bidcache__new();
		if (!s->cache && errno == ENOMEM) {
			pd_err("%s", strerror(ENOMEM));
			return -ENOMEM;
		}
		if (!s->cache && pd_verbose)
			pd_warn("no build-id cache: neither $PERF_BUILDID_DIR, perf's buildid.dir nor $HOME");
		if (s->cache && pd_verbose)
			fprintf(stderr, "%s: build-id cache %s\n", pd_prog,
				rec_bidcache__dir(s->cache));
	}
	bo.cache = s->cache;
	s->bids = rec_buildids__new(&bo);
	if (!s->bids) {
		pd_err("%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	return 0;
}

static int open_writer(struct rec_session *s)
{
	const struct rec_opts *o = s->o;
	struct pd_writer_opts wo = { .sz = sizeof(wo) };
	bool to_stdout = !strcmp(o->output, "-");
	size_t e;
	int err;

	s->write_path = o->output;
	if (o->target) {
		/* the newest format first, then converted for the target
		 * by the same code as pd-convert */
		const char *dir = getenv("TMPDIR");
		char *slash;
		int fd;

		if (to_stdout) {
			if (asprintf(&s->tmp_path, "%s/pd-record-XXXXXX",
				     dir && *dir ? dir : "/tmp") < 0)
				return -ENOMEM;
		} else {
			if (asprintf(&s->tmp_path, "%s.pd-record-XXXXXX",
				     o->output) < 0)
				return -ENOMEM;
			slash = strrchr(s->tmp_path, '/');
			(void)slash;
		}
		fd = mkstemp(s->tmp_path);
		if (fd < 0) {
			err = -errno;
			pd_err("%s: %s", s->tmp_path, strerror(errno));
			free(s->tmp_path);
			s->tmp_path = NULL;
			return err;
		}
		close(fd);
		s->write_path = s->tmp_path;
	} else {
		wo.mode = to_stdout ? PD_MODE_PIPE : PD_MODE_FILE;
		if (o->compress) {
			/* what perf 6.1 reads: records kept whole */
			wo.compress = PD_RECORD_COMPRESSED;
			wo.compress_level = o->compress_level;
		}
		/* the end marker perf 6.1 expects (a larger id is fatal
		 * to it); newer perfs read it too */
		if (to_stdout)
			wo.pipe_last_feature =
				pd_perf_target__find("6.1")->last_feature;
	}
	s->w = pd_writer__open(s->write_path, &wo);
	if (!s->w) {
		err = errno ? -errno : -EIO;
		pd_err("%s", pd_writer__open_errmsg());
		return err;
	}
	for (e = 0; e < s->nr_evs; e++) {
		err = pd_writer__add_evsel(s->w, &s->evs[e].attr,
					   PD_ATTR_SIZE_VER7, s->evs[e].ids,
					   s->evs[e].nr_ids);
		if (err)
			goto fail;
	}
	err = rec_features__set(s->w, s->evs, s->nr_evs, o);
	if (err)
		goto fail;
	for (e = 0; e < s->nr_evs; e++)
		if (s->evs[e].tp_system)
			break;
	if (e < s->nr_evs) {
		char msg[512];
		size_t size;
		void *blob;

		err = rec_tracing_data(s->evs, s->nr_evs, &blob, &size, msg,
				       sizeof(msg));
		if (err) {
			pd_err("tracing data: %s", msg);
			return err;
		}
		err = pd_writer__set_feature(s->w, PD_FEAT_TRACING_DATA, blob,
					     size);
		free(blob);
		if (err)
			goto fail;
	}
	return 0;
fail:
	pd_err("%s", pd_writer__errmsg(s->w));
	return err;
}

static int finish_output(struct rec_session *s)
{
	const struct rec_opts *o = s->o;
	unsigned int nr;
	size_t size;
	void *data;
	int err = 0;

	if (s->bids) {
		/* the files stay open until here: short-lived processes',
		 * and those of containers gone meanwhile, are copied too */
		rec_buildids__finish(s->bids);
		err = rec_buildids__feature(s->bids, &data, &size, &nr);
		if (!err && size)
			err = pd_writer__set_feature(s->w, PD_FEAT_BUILD_ID,
						     data, size);
		if (!err && !size)
			pd_writer__clear_feature(s->w, PD_FEAT_BUILD_ID);
		if (!err)
			free(data);
	}
	if (!err && s->first_time && strcmp(s->write_path, "-"))
		err = rec_feature_sample_time(s->w, s->first_time,
					      s->last_time);
	/* with the programs loaded meanwhile (a pipe sent them already) */
	if (!err && s->bpf && strcmp(s->write_path, "-"))
		err = rec_bpf__features(s->bpf, s->w);
	if (!err)
		err = pd_writer__finish(s->w);
	if (err) {
		if (err == -EPIPE)
			s->epipe = true;
		else
			pd_err("%s", pd_writer__errmsg(s->w));
		return err;
	}
	if (o->target) {
		struct pd_convert_opts co = {
			.sz = sizeof(co),
			.target = o->target_perf,
			.mode = strcmp(o->output, "-") ? PD_MODE_FILE :
				PD_MODE_PIPE,
			.compress = o->compress ? 1 : 0,
			.compress_level = o->compress_level,
		};
		struct pd_convert_report rep;
		struct pd_reader *r;
		char msg[512] = "";

		r = pd_reader__open(s->tmp_path, NULL);
		if (!r) {
			pd_err("%s", pd_reader__open_errmsg());
			return -EIO;
		}
		err = pd_convert(r, o->output, &co, &rep, msg, sizeof(msg));
		pd_reader__close(r);
		if (err) {
			pd_err("%s", msg[0] ? msg : pd_strerror(err));
			return err;
		}
	}
	return 0;
}

/* ---- the loop ---- */

static bool target_alive(struct rec_session *s)
{
	int status;

	if (s->child > 0) {
		pid_t p = waitpid(s->child, &status, WNOHANG);

		if (p == s->child) {
			s->child = -status - 1;	/* reaped: keep the status */
			return false;
		}
		return true;
	}
	if (s->o->pid || s->o->tid)
		return kill(s->o->pid ? s->o->pid : s->o->tid, 0) == 0 ||
		       errno == EPERM;
	return true;	/* -a without a command: until a signal */
}

/*
 * Wait for a ring buffer to pass its watermark. A descriptor that reports
 * POLLHUP (its task gone, or at once on some kernels for a command's
 * events) would wake poll() forever: it leaves the set, and once none is
 * left a short timer paces the draining instead.
 */
static void loop(struct rec_session *s)
{
	struct pollfd *pfd = calloc(s->nr_rings, sizeof(*pfd));
	size_t i, live = pfd ? s->nr_rings : 0;

	for (i = 0; pfd && i < s->nr_rings; i++) {
		pfd[i].fd = s->rings[i].fd;
		pfd[i].events = POLLIN;
	}
	while (!stop_signal && !s->write_failed) {
		int n = poll(pfd, pfd ? s->nr_rings : 0,
			     live ? POLL_MS : DRAIN_MS);
		bool woken = false;

		for (i = 0; n > 0 && i < s->nr_rings; i++) {
			if (pfd[i].revents & POLLIN)
				woken = true;
			if (pfd[i].revents & (POLLHUP | POLLERR | POLLNVAL)) {
				pfd[i].fd = -1;
				live--;
			}
		}
		if (woken)
			s->wakeups++;
		if (drain_all(s))
			break;
		if (!target_alive(s))
			break;
	}
	free(pfd);
}

static void report_child(struct rec_session *s)
{
	int status;

	if (s->child > 0) {
		/* stopped by a signal: the command goes too */
		kill(s->child, SIGTERM);
		while (waitpid(s->child, &status, 0) < 0 && errno == EINTR)
			;
	} else if (s->child < 0) {
		status = -(s->child + 1);
	} else {
		return;
	}
	if (s->o->quiet)
		return;
	if (WIFEXITED(status) && WEXITSTATUS(status))
		pd_warn("%s exited with status %d", s->o->argv[0],
			WEXITSTATUS(status));
	else if (WIFSIGNALED(status) && WTERMSIG(status) != SIGTERM &&
		 WTERMSIG(status) != SIGINT)
		pd_warn("%s was killed by signal %d (%s)", s->o->argv[0],
			WTERMSIG(status), strsignal(WTERMSIG(status)));
}

static void summary(struct rec_session *s)
{
	const struct rec_opts *o = s->o;
	double mb = s->bytes / (1024.0 * 1024.0);
	struct stat st;

	if (o->quiet)
		return;
	if (strcmp(o->output, "-") && !stat(o->output, &st))
		mb = st.st_size / (1024.0 * 1024.0);
	fprintf(stderr, "[ %s: Woken up %lu times to write data ]\n", pd_prog,
		s->wakeups);
	if (s->nr_lost)
		fprintf(stderr, "%s: warning: %" PRIu64 " records lost in %" PRIu64
			" LOST records (the ring buffers filled up): record with more -m pages or a lower -F\n",
			pd_prog, s->nr_lost, s->nr_lost_records);
	fprintf(stderr, "[ %s: Captured and wrote %.3f MB %s (%" PRIu64 " samples) ]\n",
		pd_prog, mb, strcmp(o->output, "-") ? o->output : "<stdout>",
		s->nr_samples);
}

static void cleanup(struct rec_session *s)
{
	size_t i;

	for (i = 0; i < s->nr_rings; i++)
		rec_ring__unmap(&s->rings[i]);
	for (i = 0; i < s->nr_fds; i++)
		close(s->fds[i]);
	if (s->go_fd >= 0)
		close(s->go_fd);
	if (s->exec_err_fd >= 0)
		close(s->exec_err_fd);
	pd_writer__free(s->w);
	if (s->tmp_path)
		unlink(s->tmp_path);
	free(s->tmp_path);
	rec_buildids__free(s->bids);
	rec_bidcache__free(s->cache);
	rec_bpf__free(s->bpf);
	free(s->rings);
	free(s->fds);
	free(s->ids);
	free(s->cpus);
	free(s->tids);
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int rec_session__run(const struct rec_opts *o, struct rec_event *evs,
		     size_t nr)
{
	struct rec_session s = {
		.o = o, .evs = evs, .nr_evs = nr, .go_fd = -1,
		.exec_err_fd = -1,
	};
	int ret = PD_EXIT_DATA, err;

	install_signals();
	err = o->cpu_list ? parse_cpu_list(o->cpu_list, &s.cpus, &s.nr_cpus) :
	      online_cpus(&s.cpus, &s.nr_cpus);
	if (err) {
		if (o->cpu_list)
			pd_usage_error("bad CPU list '%s'", o->cpu_list);
		pd_err("cannot list the online CPUs");
		goto out;
	}
	if (o->pid || o->tid) {
		if (o->tid) {
			s.tids = malloc(sizeof(*s.tids));
			if (s.tids)
				s.tids[s.nr_tids++] = o->tid;
		} else if (process_threads(o->pid, &s.tids, &s.nr_tids) ||
			   !s.nr_tids) {
			pd_err("process %d: no such process", (int)o->pid);
			goto out;
		}
	} else {
		s.tids = malloc(sizeof(*s.tids));
		if (s.tids)
			s.tids[s.nr_tids++] = -1;
	}
	if (!s.tids) {
		pd_err("%s", strerror(ENOMEM));
		goto out;
	}
	if (o->argv) {
		err = start_child(&s);
		if (err) {
			pd_err("cannot start %s: %s", o->argv[0], strerror(-err));
			goto out;
		}
		if (!o->all_cpus && !o->cpu_list)
			s.tids[0] = s.child;
	}
	if (open_events(&s))
		goto out;
	if (open_writer(&s))
		goto out;
	if (!o->no_buildid && open_buildids(&s))
		goto out;
	if (evs[0].attr.flags & PD_ATTR_KSYMBOL) {
		s.bpf = rec_bpf__collect(&evs[0].attr, s.w, &err);
		if (!s.bpf) {
			pd_err("%s", err == -ENOMEM ? strerror(ENOMEM) :
				     pd_writer__errmsg(s.w));
			goto out;
		}
	}
	err = rec_synth_kernel(&evs[0].attr, emit_synth, &s);
	if (!err)
		err = rec_synth_modules(&evs[0].attr, emit_synth, &s);
	if (!err && s.bpf)
		err = rec_bpf__emit(s.bpf, emit_synth, &s);
	if (!err && (o->pid || o->tid))
		err = rec_synth_process(o->pid ? o->pid : o->tid, &evs[0].attr,
					emit_synth, &s);
	if (!err && (o->all_cpus || (o->cpu_list && !o->argv)))
		err = rec_synth_all(&evs[0].attr, emit_synth, &s);
	if (!err)
		err = finished_round(&s);
	if (err) {
		pd_err("%s", pd_writer__errmsg(s.w));
		goto out;
	}
	/* a command's events start at its exec (enable_on_exec) */
	if (!o->argv || o->all_cpus || o->cpu_list)
		ioctl_all(&s, PD_PERF_IOC_ENABLE);
	if (o->argv) {
		err = release_child(&s);
		if (err) {
			pd_err("cannot run '%s': %s", o->argv[0], strerror(-err));
			waitpid(s.child, NULL, 0);
			s.child = 0;
			goto out;
		}
	}
	loop(&s);
	ioctl_all(&s, PD_PERF_IOC_DISABLE);
	if (!s.write_failed)
		drain_all(&s);
	report_child(&s);
	if (s.write_failed) {
		if (!s.epipe)
			pd_err("%s", pd_writer__errmsg(s.w));
		ret = s.epipe ? PD_EXIT_OK : PD_EXIT_DATA;
		goto out;
	}
	if (finish_output(&s)) {
		ret = s.epipe ? PD_EXIT_OK : PD_EXIT_DATA;
		goto out;
	}
	summary(&s);
	ret = PD_EXIT_OK;
out:
	if (s.child > 0 && ret != PD_EXIT_OK) {
		kill(s.child, SIGKILL);
		waitpid(s.child, NULL, 0);
	}
	cleanup(&s);
	return ret;
}
