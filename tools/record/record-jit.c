// SPDX-License-Identifier: MIT
/*
 * The symbols a JIT writes for perf, from a process in a container: its
 * perf map (/tmp/perf-PID.map) and its jitdump (jit-PID.dump, mapped by
 * the JIT as a marker) are files of the process's own root, named with
 * its pid in its own pid namespace (NSpid in /proc/PID/status), and go
 * with the container. The tools look for them here, by the pid the
 * kernel reports: perf and the library read /tmp/perf-PID.map (perf 6.1's
 * dso__find_perf_map() falls back to it once the process's namespace is
 * gone), and a jitdump at the marker's path, whose jit-PID must name the
 * map's pid or the process's own (perf's jit_detect()).
 *
 * So, where the file the process sees is not the one at that path here:
 * - its perf map is opened through /proc/PID/root while it lives, and
 *   once it is gone (or at the end) copied to /tmp/perf-PID.map here, for
 *   a process whose samples fell in its JIT code; the copy replaces, in
 *   one rename, whatever an older process with that pid left there (a
 *   JIT that replaces its map by a rename is copied as it was when
 *   first seen);
 * - its jitdump is opened through its marker's map, the marker's record
 *   names a copy in the build-id cache instead
 *   (DIR/jit/pd-record-XXXXXX/N/jit-PID.dump, perf's jit/ directory,
 *   where perf inject --jit also writes its .so files next to the dump),
 *   and the copy is written when the process is gone (or at the end),
 *   the dump then complete, with the host's pids (record-jitdump.c).
 * An fd keeps each file readable after the container is gone; at most
 * JIT_MAX_FDS are held, one process's for as long as it lives.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cli.h"
#include "record.h"

#define JIT_MAX_FDS	256

enum perfmap_state {
	PM_UNTRIED,	/* not looked for yet, or not there yet */
	PM_HELD,	/* fd open: the process's own, not ours */
	PM_DONE,	/* ours already (same file), or given up */
};

struct jit_dump {
	int fd;
	int32_t tid;		/* the marker's thread */
	char *copy;		/* the path the marker now names */
};

struct jit_proc {
	int32_t pid;
	int nspid;		/* in its own pid namespace; 0: unknown */
	enum perfmap_state pm;
	int pm_fd;
	uint64_t pm_round;	/* the round it was last looked for in */
	bool hit;		/* samples in its JIT code */
	struct jit_dump *dumps;
	size_t nr_dumps;
};

struct rec_jit {
	struct rec_bidcache *cache;
	struct jit_proc *procs;
	size_t nr, cap;
	size_t nr_fds;
	uint64_t round;
	char *dump_dir;		/* DIR/jit/pd-record-XXXXXX, once made */
	unsigned int nr_markers;
	bool warned_fds;
};

struct rec_jit *rec_jit__new(struct rec_bidcache *cache)
{
	struct rec_jit *j = calloc(1, sizeof(*j));

	if (j) {
		j->cache = cache;
		j->round = 1;
	}
	return j;
}

static struct jit_proc *find(struct rec_jit *j, int32_t pid, bool create)
{
	size_t i;

	for (i = 0; i < j->nr; i++)
		if (j->procs[i].pid == pid)
			return &j->procs[i];
	if (!create)
		return NULL;
	if (j->nr == j->cap) {
		size_t cap = j->cap ? 2 * j->cap : 16;
		struct jit_proc *v = realloc(j->procs, cap * sizeof(*v));

		if (!v)
			return NULL;
		j->procs = v;
		j->cap = cap;
	}
	memset(&j->procs[j->nr], 0, sizeof(j->procs[0]));
	j->procs[j->nr].pid = pid;
	j->procs[j->nr].pm_fd = -1;
	return &j->procs[j->nr++];
}

static int nspid_of(struct jit_proc *p)
{
	if (!p->nspid)
		p->nspid = rec_proc_nspid(p->pid);
	return p->nspid;
}

/* Look for the process's perf map, at most once a round until found. */
static void try_perfmap(struct rec_jit *j, struct jit_proc *p)
{
	char theirs[96], ours[64];
	int fd;

	if (p->pm != PM_UNTRIED || p->pm_round == j->round)
		return;
	p->pm_round = j->round;
	if (nspid_of(p) <= 0)
		return;
	if (j->nr_fds >= JIT_MAX_FDS) {
		if (!j->warned_fds && pd_verbose)
			pd_warn("more than %d processes in containers with perf maps: the others' are not copied",
				JIT_MAX_FDS);
		j->warned_fds = true;
		return;
	}
	snprintf(theirs, sizeof(theirs), "/proc/%d/root/tmp/perf-%d.map",
		 (int)p->pid, p->nspid);
	fd = open(theirs, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;		/* not written yet, or not ours to read */
	snprintf(ours, sizeof(ours), "/tmp/perf-%d.map", (int)p->pid);
	if (rec_same_file(fd, ours)) {
		close(fd);	/* the tools read it where it is */
		p->pm = PM_DONE;
		return;
	}
	p->pm = PM_HELD;
	p->pm_fd = fd;
	j->nr_fds++;
}

void rec_jit__anon_map(struct rec_jit *j, int32_t pid)
{
	struct jit_proc *p = find(j, pid, true);

	if (p)
		try_perfmap(j, p);
}

void rec_jit__anon_hit(struct rec_jit *j, int32_t pid)
{
	struct jit_proc *p = find(j, pid, false);

	if (!p)
		return;
	p->hit = true;
	try_perfmap(j, p);
}

static bool is_marker(const char *name)
{
	const char *b = strrchr(name, '/');
	size_t n;

	if (!b || strncmp(b, "/jit-", 5))
		return false;
	n = strspn(b + 5, "0123456789");
	return n && !strcmp(b + 5 + n, ".dump");
}

const char *rec_jit__marker(struct rec_jit *j, const struct rec_map_at *at,
			    int32_t tid, const char *name,
			    const struct rec_file_id *fid)
{
	struct jit_proc *p;
	struct jit_dump *v;
	char *copy = NULL, *sub = NULL;
	int fd;

	if (!is_marker(name) || !j->cache || j->nr_fds >= JIT_MAX_FDS)
		return NULL;
	fd = rec_map_open(at, name, fid);
	if (fd < 0)
		return NULL;
	if (rec_same_file(fd, name)) {
		close(fd);	/* here too: nothing to copy */
		return NULL;
	}
	if (!j->dump_dir) {
		char *dir;

		if (asprintf(&dir, "%s/jit", rec_bidcache__dir(j->cache)) < 0)
			goto fail;
		if (mkdir(dir, 0755) && errno != EEXIST) {
			/* the cache itself may not exist yet */
			if (mkdir(rec_bidcache__dir(j->cache), 0755) ||
			    mkdir(dir, 0755)) {
				free(dir);
				goto fail;
			}
		}
		free(dir);
		if (asprintf(&j->dump_dir, "%s/jit/pd-record-XXXXXX",
			     rec_bidcache__dir(j->cache)) < 0) {
			j->dump_dir = NULL;
			goto fail;
		}
		if (!mkdtemp(j->dump_dir)) {
			free(j->dump_dir);
			j->dump_dir = NULL;
			goto fail;
		}
	}
	/* one directory per marker: perf inject --jit writes a dump's .so
	 * files next to it, and a pid may come back */
	if (asprintf(&sub, "%s/%u", j->dump_dir, ++j->nr_markers) < 0) {
		sub = NULL;
		goto fail;
	}
	if (mkdir(sub, 0755) ||
	    asprintf(&copy, "%s/jit-%d.dump", sub, (int)at->pid) < 0) {
		copy = NULL;
		goto fail;
	}
	p = find(j, at->pid, true);
	if (!p)
		goto fail;
	v = realloc(p->dumps, (p->nr_dumps + 1) * sizeof(*v));
	if (!v)
		goto fail;
	p->dumps = v;
	v[p->nr_dumps].fd = fd;
	v[p->nr_dumps].tid = tid;
	v[p->nr_dumps++].copy = copy;
	j->nr_fds++;
	free(sub);
	return copy;
fail:
	close(fd);
	free(copy);
	free(sub);
	return NULL;
}

struct copy {
	int fd;
	int32_t pid, tid;	/* a jitdump's, for its records */
};

static int copy_map(void *ctx, int out)
{
	return rec_copy_fd(((struct copy *)ctx)->fd, out);
}

static int copy_dump(void *ctx, int out)
{
	struct copy *c = ctx;

	return rec_jitdump_copy(c->fd, out, c->pid, c->tid);
}

static void write_copy(const char *path, rec_write_fn fn, struct copy *c,
		       const char *what)
{
	int err = rec_write_atomic(path, 0644, fn, c);

	if (err && !pd_quiet)
		pd_warn("%s of process %d: %s: %s", what, c->pid, path,
			strerror(-err));
}

/* Its copies written (unless write is false), fds closed, entry removed. */
static void flush(struct rec_jit *j, struct jit_proc *p, bool write)
{
	char ours[64];
	size_t i;

	if (p->pm == PM_HELD) {
		snprintf(ours, sizeof(ours), "/tmp/perf-%d.map", (int)p->pid);
		struct copy c = { .fd = p->pm_fd, .pid = p->pid };

		if (write && p->hit)
			write_copy(ours, copy_map, &c, "perf map");
		close(p->pm_fd);
		j->nr_fds--;
	}
	for (i = 0; i < p->nr_dumps; i++) {
		struct copy c = { .fd = p->dumps[i].fd, .pid = p->pid,
				  .tid = p->dumps[i].tid };

		if (write)
			write_copy(p->dumps[i].copy, copy_dump, &c, "jitdump");
		close(p->dumps[i].fd);
		free(p->dumps[i].copy);
		j->nr_fds--;
	}
	free(p->dumps);
	*p = j->procs[--j->nr];
}

void rec_jit__gone(struct rec_jit *j, int32_t pid)
{
	struct jit_proc *p = find(j, pid, false);

	if (p)
		flush(j, p, true);
}

void rec_jit__round(struct rec_jit *j)
{
	j->round++;
}

void rec_jit__finish(struct rec_jit *j)
{
	while (j->nr)
		flush(j, &j->procs[j->nr - 1], true);
}

void rec_jit__free(struct rec_jit *j)
{
	if (!j)
		return;
	while (j->nr)
		flush(j, &j->procs[j->nr - 1], false);
	free(j->procs);
	free(j->dump_dir);
	free(j);
}
