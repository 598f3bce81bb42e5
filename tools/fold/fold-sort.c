// SPDX-License-Identifier: MIT
/* External merge sort of folded stacks. See fold-sort.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cli.h"
#include "fold-lines.h"
#include "fold-sort.h"
#include "fold-table.h"

/* what a table entry costs besides its key: entry, slot, arena rounding */
#define ENTRY_COST	64

/* A run: a temporary file (open, unlinked) or a sorted input (a path). */
struct run {
	FILE *tmp;
	char *path;
};

struct fold_sort {
	size_t mem, used;
	struct fold_table *table;
	struct run *runs;
	size_t nr_runs, cap_runs, nr_tmp;
};

/* One run being read: its current line, and the one before (order). */
struct src {
	FILE *f;
	const char *name;
	char *buf[2];
	size_t cap[2];
	int cur;		/* buf[cur] holds the current line */
	size_t len;		/* its stack's length */
	uint64_t count;
	unsigned long lineno;
	bool started;		/* a line was read */
};

struct fold_sort *fold_sort__new(size_t mem)
{
	struct fold_sort *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->mem = mem ? mem : FOLD_SORT_MEM;
	s->table = fold_table__new();
	if (!s->table) {
		free(s);
		return NULL;
	}
	return s;
}

static void run_release(struct run *r)
{
	if (r->tmp)
		fclose(r->tmp);
	free(r->path);
	r->tmp = NULL;
	r->path = NULL;
}

void fold_sort__free(struct fold_sort *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr_runs; i++)
		run_release(&s->runs[i]);
	free(s->runs);
	fold_table__free(s->table);
	free(s);
}

static int push_run(struct fold_sort *s, FILE *tmp, char *path)
{
	if (s->nr_runs == s->cap_runs) {
		size_t cap = s->cap_runs ? 2 * s->cap_runs : 64;
		struct run *v = realloc(s->runs, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->runs = v;
		s->cap_runs = cap;
	}
	s->runs[s->nr_runs].tmp = tmp;
	s->runs[s->nr_runs].path = path;
	s->nr_runs++;
	if (tmp)
		s->nr_tmp++;
	return 0;
}

/* A temporary file, already unlinked: it goes when it is closed. */
static FILE *tmp_file(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	FILE *f;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	if ((size_t)snprintf(path, sizeof(path), "%s/pd-fold-run.XXXXXX",
			     dir) >= sizeof(path)) {
		pd_err("%s: temporary directory name too long", dir);
		return NULL;
	}
	fd = mkstemp(path);
	if (fd < 0) {
		pd_err("%s: %s", path, strerror(errno));
		return NULL;
	}
	unlink(path);
	f = fdopen(fd, "w+");
	if (!f) {
		pd_err("%s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

/* A written run back to its start, checked for write errors. */
static int finish_tmp(FILE *f)
{
	if (fflush(f) || ferror(f) || fseek(f, 0, SEEK_SET)) {
		pd_err("temporary run (in $TMPDIR or /tmp): %s",
		       strerror(errno ? errno : EIO));
		return -EIO;
	}
	return 0;
}

/* The table, sorted, into a temporary run; the table starts over. */
static int spill(struct fold_sort *s)
{
	struct fold_table *t;
	FILE *f;
	int err;

	if (!fold_table__nr(s->table))
		return 0;
	f = tmp_file();
	if (!f)
		return -EIO;
	err = fold_table__write(s->table, f);
	if (!err)
		err = finish_tmp(f);
	if (!err)
		err = push_run(s, f, NULL);
	if (err) {
		if (err == -ENOMEM)
			pd_err("out of memory");
		fclose(f);
		return err;
	}
	t = fold_table__new();
	if (!t) {
		pd_err("out of memory");
		return -ENOMEM;
	}
	fold_table__free(s->table);
	s->table = t;
	s->used = 0;
	return 0;
}

static int merge_runs(struct run *runs, size_t n, FILE *out);

/* Too many temporary runs open at once: merge them into one. */
static int compact(struct fold_sort *s)
{
	struct run *tmps;
	size_t i, k = 0;
	FILE *f;
	int err;

	tmps = malloc(s->nr_tmp * sizeof(*tmps));
	if (!tmps) {
		pd_err("out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < s->nr_runs; i++) {
		if (s->runs[i].tmp)
			tmps[k++] = s->runs[i];
		else
			s->runs[i - k] = s->runs[i];
	}
	s->nr_runs -= k;
	s->nr_tmp = 0;
	f = tmp_file();
	err = f ? merge_runs(tmps, k, f) : -EIO;
	if (!err)
		err = finish_tmp(f);
	if (!err)
		err = push_run(s, f, NULL);
	else if (f)
		fclose(f);
	for (i = 0; i < k; i++)
		run_release(&tmps[i]);
	free(tmps);
	return err;
}

int fold_sort__add(struct fold_sort *s, const char *key, size_t len,
		   uint64_t count)
{
	int added = fold_table__add(s->table, key, len, count);

	if (added < 0) {
		pd_err("out of memory");
		return added;
	}
	if (!added)
		return 0;
	s->used += len + ENTRY_COST;
	if (s->used < s->mem)
		return 0;
	added = spill(s);
	if (!added && s->nr_tmp >= FOLD_SORT_FANIN)
		added = compact(s);
	return added;
}

int fold_sort__add_sorted(struct fold_sort *s, const char *path)
{
	char *p = strdup(path);

	if (!p || push_run(s, NULL, p)) {
		free(p);
		pd_err("out of memory");
		return -ENOMEM;
	}
	return 0;
}

/* The next line of a run into src; 1: one, 0: the run ended, -errno. */
static int src_next(struct src *r)
{
	int nx = !r->cur;
	uint64_t count;
	size_t len;
	ssize_t n;

	do {
		n = getline(&r->buf[nx], &r->cap[nx], r->f);
		if (n < 0) {
			if (!ferror(r->f))
				return 0;
			pd_err("%s: read error: %s", r->name, strerror(errno));
			return -EIO;
		}
		r->lineno++;
	} while (n == 0 || r->buf[nx][0] == '\n');
	len = n;
	if (!fold_parse_line(r->buf[nx], &len, &count)) {
		pd_err("%s:%lu: not a folded stack line (\"STACK COUNT\")",
		       r->name, r->lineno);
		return -EINVAL;
	}
	/* checked when the file was chosen as a run: it changed since */
	if (r->started &&
	    fold_key_cmp(r->buf[r->cur], r->len, r->buf[nx], len) > 0) {
		pd_err("%s:%lu: not in pd-fold's order any more (changed while merged?)",
		       r->name, r->lineno);
		return -EINVAL;
	}
	r->started = true;
	r->cur = nx;
	r->len = len;
	r->count = count;
	return 1;
}

static bool src_less(const struct src *a, const struct src *b)
{
	return fold_key_cmp(a->buf[a->cur], a->len, b->buf[b->cur], b->len) < 0;
}

static void heap_down(struct src **h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct src *t;

		if (l < n && src_less(h[l], h[m]))
			m = l;
		if (l + 1 < n && src_less(h[l + 1], h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static int open_src(struct src *r, const struct run *run)
{
	memset(r, 0, sizeof(*r));
	if (run->tmp) {
		r->f = run->tmp;
		r->name = "temporary run";
	} else {
		r->name = run->path;
		r->f = fopen(run->path, "r");
		if (!r->f) {
			pd_err("%s: %s", run->path, strerror(errno));
			return -errno;
		}
	}
	return 0;
}

/*
 * Lines of n runs into out, in order, equal stacks added up. The key
 * of the line being summed is kept in acc while the runs move on.
 */
static int merge_runs(struct run *runs, size_t n, FILE *out)
{
	struct src *v = calloc(n ? n : 1, sizeof(*v));
	struct src **h = calloc(n ? n : 1, sizeof(*h));
	char *acc = NULL;
	size_t acc_len = 0, acc_cap = 0, nh = 0, i;
	uint64_t acc_count = 0;
	bool have = false;
	int err = 0;

	if (!v || !h) {
		pd_err("out of memory");
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n && !err; i++) {
		err = open_src(&v[i], &runs[i]);
		if (!err) {
			err = src_next(&v[i]);
			if (err > 0)
				h[nh++] = &v[i];
			err = err < 0 ? err : 0;
		}
	}
	for (i = nh / 2; i-- > 0;)
		heap_down(h, nh, i);
	while (!err && nh) {
		struct src *r = h[0];

		if (have && fold_key_cmp(acc, acc_len, r->buf[r->cur], r->len)) {
			fold_put_line(out, acc, acc_len, acc_count);
			have = false;
		}
		if (!have) {
			if (r->len + 1 > acc_cap) {
				char *p = realloc(acc, r->len + 1);

				if (!p) {
					pd_err("out of memory");
					err = -ENOMEM;
					break;
				}
				acc = p;
				acc_cap = r->len + 1;
			}
			memcpy(acc, r->buf[r->cur], r->len);
			acc_len = r->len;
			acc_count = 0;
			have = true;
		}
		acc_count += r->count;
		err = src_next(r);
		if (err == 0)
			h[0] = h[--nh];
		err = err < 0 ? err : 0;
		heap_down(h, nh, 0);
	}
	if (!err && have)
		fold_put_line(out, acc, acc_len, acc_count);
	if (!err && ferror(out))
		err = -EIO;
out:
	for (i = 0; v && i < n; i++) {
		if (v[i].f && !runs[i].tmp)
			fclose(v[i].f);
		free(v[i].buf[0]);
		free(v[i].buf[1]);
	}
	free(v);
	free(h);
	free(acc);
	return err;
}

int fold_sort__write(struct fold_sort *s, FILE *out)
{
	int err;

	/* nothing spilled, no sorted file: the table is the output */
	if (!s->nr_runs)
		return fold_table__write(s->table, out);
	err = spill(s);
	/* a tree: the first FANIN runs into one, at the end, until few */
	while (!err && s->nr_runs > FOLD_SORT_FANIN) {
		FILE *f = tmp_file();
		size_t i;

		if (!f)
			return -EIO;
		err = merge_runs(s->runs, FOLD_SORT_FANIN, f);
		if (!err)
			err = finish_tmp(f);
		for (i = 0; i < FOLD_SORT_FANIN; i++) {
			if (s->runs[i].tmp)
				s->nr_tmp--;
			run_release(&s->runs[i]);
		}
		memmove(s->runs, s->runs + FOLD_SORT_FANIN,
			(s->nr_runs - FOLD_SORT_FANIN) * sizeof(*s->runs));
		s->nr_runs -= FOLD_SORT_FANIN;
		if (!err)
			err = push_run(s, f, NULL);
		else
			fclose(f);
	}
	if (!err)
		err = merge_runs(s->runs, s->nr_runs, out);
	return err;
}
