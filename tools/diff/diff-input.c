// SPDX-License-Identifier: MIT
/*
 * Reading one pd-diff input. The format is told by the first 8 bytes,
 * which are then given back: by seeking when the input can seek, else
 * (a pipe: `perf record -o - | pd-diff - B`, `pd-diff <(...) B`) by a
 * thread that feeds them and the rest of the stream through a new pipe,
 * so that the reader sees the whole stream.
 *
 * A perf.data input is folded by pd-fold's folder, printed as pd-fold
 * prints it, and that text read back like any folded file: so
 * `pd-diff A.data B.data` and `pd-diff <(pd-fold A.data) <(pd-fold
 * B.data)` agree by construction.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/evsel.h>
#include <perfdata/features.h>
#include <perfdata/reader.h>

#include "common/cli.h"
#include "common/progress.h"
#include "diff-input.h"
#include "diff-line.h"
#include "diff-table.h"
#include "fold/fold-data.h"
#include "fold/fold.h"

#define MAGIC_LEN	8

struct feed {
	char head[MAGIC_LEN];
	size_t head_len;
	int src, dst;
};

static bool is_perf_data(const char *head, size_t len)
{
	/* perf's magics: v2 in either byte order, and v1; a profile
	 * archive is zstd or gzip data (docs/archive.md), never text */
	return (len == MAGIC_LEN && (!memcmp(head, "PERFILE2", 8) ||
				     !memcmp(head, "2ELIFREP", 8) ||
				     !memcmp(head, "PERFFILE", 8))) ||
	       (len >= 4 && !memcmp(head, "\x28\xb5\x2f\xfd", 4)) ||
	       (len >= 2 && !memcmp(head, "\x1f\x8b", 2));
}

static bool write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t k = write(fd, p, len);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		len -= (size_t)k;
	}
	return true;
}

/*
 * The head, then the rest of the stream. A read error ends the stream
 * early: the reader then reports a truncated file, naming the offset.
 */
static void *feed_thread(void *arg)
{
	struct feed *fd = arg;
	char buf[65536];
	ssize_t k;

	if (write_all(fd->dst, fd->head, fd->head_len)) {
		while ((k = read(fd->src, buf, sizeof(buf))) != 0) {
			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0 || !write_all(fd->dst, buf, (size_t)k))
				break;
		}
	}
	close(fd->dst);
	close(fd->src);
	free(fd);
	return NULL;
}

/* A pipe whose read end gives head + the rest of src (which it takes). */
static int refeed(int src, const char *head, size_t head_len)
{
	struct feed *f = calloc(1, sizeof(*f));
	pthread_t th;
	int p[2];

	if (!f)
		return -ENOMEM;
	if (pipe(p) < 0) {
		free(f);
		return -errno;
	}
	memcpy(f->head, head, head_len);
	f->head_len = head_len;
	f->src = src;
	f->dst = p[1];
	/*
	 * Detached: if the reader stops early the thread blocks on a full
	 * pipe whose read end stays open until exit, which ends it.
	 */
	if (pthread_create(&th, NULL, feed_thread, f)) {
		close(p[0]);
		close(p[1]);
		free(f);
		return -EAGAIN;
	}
	pthread_detach(th);
	return p[0];
}

/* A stream that yields head, then fd's bytes (folded text from a pipe). */
struct cookie {
	char head[MAGIC_LEN];
	size_t head_len, head_pos;
	int fd;
};

static ssize_t cookie_read(void *c_, char *buf, size_t size)
{
	struct cookie *c = c_;
	ssize_t k;

	if (c->head_pos < c->head_len) {
		size_t n = c->head_len - c->head_pos;

		if (n > size)
			n = size;
		memcpy(buf, c->head + c->head_pos, n);
		c->head_pos += n;
		return (ssize_t)n;
	}
	do
		k = read(c->fd, buf, size);
	while (k < 0 && errno == EINTR);
	return k;
}

static int cookie_close(void *c_)
{
	struct cookie *c = c_;

	if (c->fd != STDIN_FILENO)
		close(c->fd);
	free(c);
	return 0;
}

static FILE *open_with_head(int fd, const char *head, size_t head_len)
{
	cookie_io_functions_t io = { .read = cookie_read, .close = cookie_close };
	struct cookie *c = calloc(1, sizeof(*c));
	FILE *f;

	if (!c)
		return NULL;
	memcpy(c->head, head, head_len);
	c->head_len = head_len;
	c->fd = fd;
	f = fopencookie(c, "r", io);
	if (!f)
		free(c);
	return f;
}

/* One line, as difffolded.pl adds it to its hash. */
static int add_line(struct diff_input *in, int side, struct diff_table *t,
		    const struct diff_read_opts *o, const char *line,
		    size_t len, char **strip, size_t *strip_cap)
{
	const char *key = line, *count = NULL;
	size_t klen = 0, clen = 0;
	struct pnum c = { .nv = false };
	struct diff_entry *e;

	if (diff_line__split(line, len, &klen, &count, &clen)) {
		c = pnum_parse(count, clen);
	} else {
		/* the script adds undef to the stack "" */
		in->nr_malformed++;
		klen = 0;
	}
	if (o->strip_hex && klen) {
		if (2 * klen + 1 > *strip_cap) {
			char *s = realloc(*strip, 2 * klen + 1);

			if (!s)
				return -ENOMEM;
			*strip = s;
			*strip_cap = 2 * klen + 1;
		}
		klen = diff_line__strip_hex(line, klen, *strip);
		key = *strip;
	}
	e = diff_table__get(t, key, klen);
	if (!e)
		return -ENOMEM;
	e->count[side] = pnum_add(e->count[side], c);
	in->total = pnum_add(in->total, c);
	return 0;
}

static int read_folded(struct diff_input *in, int side, struct diff_table *t,
		       const struct diff_read_opts *o, FILE *f)
{
	char *line = NULL, *strip = NULL;
	size_t cap = 0, strip_cap = 0;
	ssize_t n;
	int ret = PD_EXIT_OK;
	struct pd_text_progress *prog = pd_progress_text(f, in->name);

	errno = 0;
	while ((n = getline(&line, &cap, f)) >= 0) {
		pd_progress_text__read(prog, n);
		if (add_line(in, side, t, o, line, (size_t)n, &strip,
			     &strip_cap) < 0) {
			pd_err("%s: out of memory", in->name);
			ret = PD_EXIT_DATA;
			goto out;
		}
	}
	if (ferror(f)) {
		pd_err("%s: read error: %s", in->name, strerror(errno ? errno : EIO));
		ret = PD_EXIT_DATA;
	}
out:
	pd_progress_text__done(prog);
	free(line);
	free(strip);
	return ret;
}

static void hex_id(const struct pd_build_id *b, char *hex)
{
	unsigned int i, n = b->size && b->size <= 20 ? b->size : 20;

	for (i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", b->id[i]);
	hex[2 * n] = '\0';
}

/*
 * The one event with callchains, when the file has one: the folder knows
 * the event only where perf script text shows its name to the parser (a
 * tracepoint's fields hide it), so the header's is the fallback.
 */
static void header_event(struct diff_input *in, struct pd_reader *r)
{
	size_t i, n = pd_reader__nr_evsels(r), found = 0;
	const struct pd_evsel *one = NULL;
	char name[256];

	for (i = 0; i < n; i++) {
		const struct pd_evsel *e = pd_reader__evsel(r, i);

		/* perf's dummy:HG (software, config 9) carries sideband
		 * records, never samples */
		if (!e || (e->attr.type == 1 && e->attr.config == 9))
			continue;
		if (e->attr.sample_type & PD_SAMPLE_CALLCHAIN) {
			one = e;
			found++;
		}
	}
	if (found == 1)
		in->header_event = strdup(pd_evsel__name(one, r, name, sizeof(name)));
}

/*
 * The file's BUILD_ID feature, to tell whether the two recordings ran
 * the same binaries, and its events. Only a seekable input is read
 * twice; a failure here is left for the folding to report.
 */
static void read_header(struct diff_input *in, int fd)
{
	struct pd_reader_opts ro = { .sz = sizeof(ro), .name = in->name };
	const struct pd_features *ft;
	struct pd_reader *r;
	uint32_t i;

	r = pd_reader__open_fd(fd, &ro);
	if (!r)
		return;
	/* pipe mode: the attrs and features are records at the start */
	if (pd_reader__read_header(r) < 0) {
		pd_reader__close(r);
		return;
	}
	header_event(in, r);
	ft = pd_reader__features(r);
	if (ft && ft->build_ids.nr) {
		in->ids = calloc(ft->build_ids.nr, sizeof(*in->ids));
		for (i = 0; in->ids && i < ft->build_ids.nr; i++) {
			const struct pd_build_id *b = &ft->build_ids.ids[i];

			if (!b->filename)
				continue;
			in->ids[in->nr_ids].file = strdup(b->filename);
			if (!in->ids[in->nr_ids].file)
				break;
			hex_id(b, in->ids[in->nr_ids].hex);
			in->nr_ids++;
		}
	}
	pd_reader__close(r);
}

/* Fold path as pd-fold would, then read its output back. */
static int read_data(struct diff_input *in, int side, struct diff_table *t,
		     const struct diff_read_opts *o, const char *path)
{
	struct folder *f = folder__new(o->fo);
	const char *ev;
	char *text = NULL;
	size_t text_len = 0;
	FILE *mem = NULL;
	int ret = PD_EXIT_DATA, err;

	if (!f) {
		pd_err("%s: %s", in->name, strerror(errno));
		return PD_EXIT_DATA;
	}
	ret = fold_perf_data(path, o->data, f);
	if (ret)
		goto out;
	ret = PD_EXIT_DATA;
	ev = folder__event(f, &in->nr_other_event);
	if (ev) {
		in->event = strdup(ev);
		if (!in->event)
			goto nomem;
	}
	mem = open_memstream(&text, &text_len);
	if (!mem)
		goto nomem;
	err = folder__write(f, mem);
	if (fclose(mem) || err < 0)
		goto nomem;
	mem = fmemopen(text, text_len ? text_len : 1, "r");
	if (!mem)
		goto nomem;
	if (!text_len)
		ret = PD_EXIT_OK;	/* nothing folded */
	else
		ret = read_folded(in, side, t, o, mem);
	fclose(mem);
	goto out;
nomem:
	pd_err("%s: out of memory", in->name);
out:
	free(text);
	folder__free(f);
	return ret;
}

int diff_input__read(struct diff_input *in, int side, struct diff_table *t,
		     const struct diff_read_opts *o)
{
	bool is_stdin = !strcmp(in->path, "-");
	char head[MAGIC_LEN], fdpath[32];
	size_t n = 0;
	ssize_t k;
	FILE *f;
	int fd, p, ret;

	in->name = is_stdin ? "<stdin>" : in->path;
	fd = is_stdin ? STDIN_FILENO : open(in->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		pd_err("%s: %s", in->name, strerror(errno));
		return PD_EXIT_DATA;
	}
	while (n < MAGIC_LEN && (k = read(fd, head + n, MAGIC_LEN - n)) != 0) {
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			pd_err("%s: %s", in->name, strerror(errno));
			if (!is_stdin)
				close(fd);
			return PD_EXIT_DATA;
		}
		n += (size_t)k;
	}
	in->is_data = is_perf_data(head, n);
	in->empty = !n;
	if (!in->is_data) {
		f = open_with_head(fd, head, n);
		if (!f) {
			pd_err("%s: %s", in->name, strerror(errno));
			if (!is_stdin)
				close(fd);
			return PD_EXIT_DATA;
		}
		ret = read_folded(in, side, t, o, f);
		fclose(f);
		return ret;
	}
	if (lseek(fd, 0, SEEK_SET) == 0) {
		read_header(in, fd);
		if (lseek(fd, 0, SEEK_SET) != 0) {
			pd_err("%s: %s", in->name, strerror(errno));
			if (!is_stdin)
				close(fd);
			return PD_EXIT_DATA;
		}
		if (!is_stdin)
			close(fd);
		return read_data(in, side, t, o, in->path);
	}
	/* a pipe: the reader gets the head back through a pipe of ours */
	if (is_stdin) {
		fd = dup(STDIN_FILENO);
		if (fd < 0) {
			pd_err("%s: %s", in->name, strerror(errno));
			return PD_EXIT_DATA;
		}
	}
	p = refeed(fd, head, n);
	if (p < 0) {
		pd_err("%s: %s", in->name, strerror(-p));
		close(fd);
		return PD_EXIT_DATA;
	}
	if (is_stdin) {
		if (dup2(p, STDIN_FILENO) < 0) {
			pd_err("%s: %s", in->name, strerror(errno));
			return PD_EXIT_DATA;
		}
		close(p);
		return read_data(in, side, t, o, "-");
	}
	/* messages name /dev/fd/N, which is what <(...) names anyway */
	snprintf(fdpath, sizeof(fdpath), "/dev/fd/%d", p);
	return read_data(in, side, t, o, fdpath);
}

void diff_input__release(struct diff_input *in)
{
	size_t i;

	for (i = 0; i < in->nr_ids; i++)
		free(in->ids[i].file);
	free(in->ids);
	free(in->event);
	free(in->header_event);
	in->header_event = NULL;
	in->ids = NULL;
	in->nr_ids = 0;
	in->event = NULL;
}
