// SPDX-License-Identifier: MIT
/*
 * Input lines to struct flame_line: "STACK COUNT" or, for differential
 * graphs, "STACK COUNT_A COUNT_B". A count is \d+(\.\d*)?, after one
 * whitespace character; whatever precedes that character is the stack,
 * trailing blanks included, which is how flamegraph.pl reads a line. A
 * stack that itself ends in " NUMBER" is therefore the first column of a
 * differential line.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cli.h"
#include "flame-impl.h"

void flame_opts__init(struct flame_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->fonttype = "Verdana";
	o->countname = "samples";
	o->nametype = "Function:";
	o->colors = "hot";
	o->width = 1200;
	o->frameheight = 16;
	o->fontsize = 12;
	o->fontwidth = 0.59;
	o->minwidth = 0.1;
}

struct flame *flame__new(const struct flame_opts *o)
{
	struct flame *fl = calloc(1, sizeof(*fl));

	if (!fl)
		return NULL;
	fl->o = *o;
	return fl;
}

void flame__free(struct flame *fl)
{
	size_t i;

	if (!fl)
		return;

	for (i = 0; i < fl->nbufs; i++) {
		if (fl->mapped[i])
			munmap(fl->bufs[i], fl->mapped[i]);
		else
			free(fl->bufs[i]);
	}
	free(fl->bufs);
	free(fl->mapped);
	tool_arena__free(&fl->arena);
	free(fl->lines);
	free(fl->frames);
	free(fl);
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r' ||
	       c == '\n';
}

/*
 * Whether s[0..len) ends in WHITESPACE NUMBER; *num is where the number
 * starts (the stack is s[0 .. *num - 1)).
 */
static bool split_count(const char *s, size_t len, size_t *num)
{
	size_t i = len, k;

	while (i > 0 && is_digit(s[i - 1]))
		i--;
	if (i > 0 && s[i - 1] == '.') {
		/* a fraction needs digits before its point */
		k = i - 1;
		while (k > 0 && is_digit(s[k - 1]))
			k--;
		if (k == i - 1)
			return false;
		i = k;
	} else if (i == len) {
		return false;
	}
	if (i == 0 || !is_space(s[i - 1]))
		return false;
	*num = i;
	return true;
}

/*
 * The count at s (validated digits, an optional point and digits; not
 * NUL-terminated: the input buffer may end right after it).
 */
static double count_value(const char *s, size_t len)
{
	char buf[64], *p = buf;
	uint64_t u = 0;
	double v;
	size_t i;

	/* most counts: whole numbers of up to 15 digits, exact in a double */
	if (len <= 15 && memchr(s, '.', len) == NULL) {
		for (i = 0; i < len; i++)
			u = u * 10 + (s[i] - '0');
		return (double)u;
	}
	if (len >= sizeof(buf)) {
		p = malloc(len + 1);
		if (!p)
			return HUGE_VAL;	/* the total then is refused */
	}
	memcpy(p, s, len);
	p[len] = '\0';
	v = strtod(p, NULL);
	if (p != buf)
		free(p);
	return v;
}

/* Parses key[0..len) into l; false when it is not a stack line. */
static bool parse_line(const char *key, size_t len, struct flame_line *l)
{
	size_t n1, n2;

	if (!split_count(key, len, &n2))
		return false;
	l->key = key;
	l->key_len = len;
	l->count = count_value(key + n2, len - n2);
	l->stack_len = n2 - 1;
	l->has_delta = false;
	l->delta = 0;
	if (split_count(key, n2 - 1, &n1)) {
		/* differential: widths from the second count */
		l->stack_len = n1 - 1;
		l->delta = l->count - count_value(key + n1, n2 - 1 - n1);
		l->has_delta = true;
	}
	return true;
}

/*
 * --reverse: the frames of the stack in reverse order, then the counts as
 * they were written. As in a split on ';' that drops trailing empty
 * fields, "a;b;" has two frames and a leading ";" an empty one.
 */
static char *reverse_key(struct flame *fl, const char *line, size_t len,
			 const struct flame_line *l, size_t *out_len)
{
	size_t stack_len = l->stack_len, tail, n = 0, end, start;
	char *key;

	while (stack_len > 0 && line[stack_len - 1] == ';')
		stack_len--;
	/* the counts: after the stack's whitespace, re-joined by a space */
	tail = len - (l->stack_len + 1);
	key = tool_arena__alloc(&fl->arena, stack_len + tail + 2);
	if (!key)
		return NULL;
	end = stack_len;
	for (;;) {
		start = end;
		while (start > 0 && line[start - 1] != ';')
			start--;
		memcpy(key + n, line + start, end - start);
		n += end - start;
		if (start == 0)
			break;
		key[n++] = ';';
		end = start - 1;
	}
	key[n++] = ' ';
	if (l->has_delta) {
		/* "A<ws>B" is written "A B", as the script joins them */
		size_t a = l->stack_len + 1, b;

		for (b = a; !is_space(line[b]); b++)
			;
		memcpy(key + n, line + a, b - a);
		n += b - a;
		key[n++] = ' ';
		split_count(line, len, &b);
		memcpy(key + n, line + b, len - b);
		n += len - b;
	} else {
		memcpy(key + n, line + l->stack_len + 1, tail);
		n += tail;
	}
	*out_len = n;
	return key;
}

static int add_line(struct flame *fl, const char *line, size_t len)
{
	struct flame_line l, *v;
	const char *key;
	size_t key_len;

	if (!parse_line(line, len, &l))
		return 1;
	if (fl->o.reverse) {
		key = reverse_key(fl, line, len, &l, &key_len);
		if (!key)
			return -ENOMEM;
		if (!parse_line(key, key_len, &l))
			return 1;
	}
	if (fl->nlines == fl->lines_cap) {
		size_t cap = fl->lines_cap ? fl->lines_cap * 2 : 1024;

		v = realloc(fl->lines, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		fl->lines = v;
		fl->lines_cap = cap;
	}
	fl->lines[fl->nlines++] = l;
	return 0;
}

/* The whole stream in one buffer (kept: the lines point into it). */
static char *slurp(FILE *in, size_t *len)
{
	size_t cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap), *p;

	if (!buf)
		return NULL;
	for (;;) {
		got = fread(buf + n, 1, cap - n, in);
		n += got;
		if (n < cap) {
			if (ferror(in) || feof(in))
				break;
			continue;
		}
		/* large reallocs move pages, not bytes */
		p = realloc(buf, cap * 2);
		if (!p) {
			free(buf);
			errno = ENOMEM;
			return NULL;
		}
		buf = p;
		cap *= 2;
	}
	*len = n;
	return buf;
}

/*
 * A regular file is mapped rather than read: no copy of the input, and
 * its pages come from the page cache. NULL when it cannot be (a pipe).
 */
static char *map_file(FILE *in, size_t *len)
{
	struct stat st;
	void *p;
	int fd = fileno(in);

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size <= 0 || lseek(fd, 0, SEEK_CUR) != 0 ||
	    (uint64_t)st.st_size > SIZE_MAX)
		return NULL;
	p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	if (p == MAP_FAILED)
		return NULL;
	*len = st.st_size;
	return p;
}

static int keep_buffer(struct flame *fl, char *buf, size_t mapped)
{
	size_t *m;

	char **v;

	if (fl->nbufs == fl->bufs_cap) {
		size_t cap = fl->bufs_cap ? fl->bufs_cap * 2 : 4;

		v = realloc(fl->bufs, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		fl->bufs = v;
		m = realloc(fl->mapped, cap * sizeof(*m));
		if (!m)
			return -ENOMEM;
		fl->mapped = m;
		fl->bufs_cap = cap;
	}
	fl->mapped[fl->nbufs] = mapped;
	fl->bufs[fl->nbufs++] = buf;
	return 0;
}

int flame__read(struct flame *fl, FILE *in, const char *name)
{
	unsigned long lineno = 0;
	size_t size, len, mapped;
	char *buf, *line, *end, *nl;
	int r;

	buf = map_file(in, &size);
	mapped = buf ? size : 0;
	if (!buf)
		buf = slurp(in, &size);
	if (!buf) {
		pd_err("out of memory");
		return -ENOMEM;
	}
	if (!mapped && ferror(in)) {
		pd_err("%s: read error: %s", name, strerror(errno));
		free(buf);
		return -EIO;
	}
	if (keep_buffer(fl, buf, mapped) < 0) {
		if (mapped)
			munmap(buf, mapped);
		else
			free(buf);
		pd_err("out of memory");
		return -ENOMEM;
	}
	for (line = buf, end = buf + size; line < end; line = nl + 1) {
		nl = memchr(line, '\n', end - line);
		if (!nl)
			nl = end;
		lineno++;
		len = nl - line;
		/* CRLF files are common enough to read as intended */
		while (len && line[len - 1] == '\r')
			len--;
		if (!len)
			continue;
		r = add_line(fl, line, len);
		if (r < 0) {
			pd_err("out of memory");
			return r;
		}
		if (r > 0 && !fl->bad_lines++) {
			fl->first_bad_lineno = lineno;
			fl->first_bad_name = tool_arena__copy(&fl->arena, name,
							      strlen(name) + 1);
		}
	}
	return 0;
}
