// SPDX-License-Identifier: MIT
/*
 * Kernel symbols from /proc/kallsyms (or a saved copy), the way perf
 * 6.1's kallsyms__parse() and dso__load_kallsyms() read them: text,
 * weak, data and bss symbols (T W D B, either case) but '$' ones, every
 * size zero and fixed by symbols__fixup_end()'s kallsyms rule (the last
 * symbol before the kernel/module boundary ends on the next page), then
 * duplicates removed. Module symbols keep their absolute addresses here;
 * pd_dso__kernel_module() tells their "[module]".
 */
#include <elf.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sym-internal.h"

/* perf's KSYM_NAME_LEN in 6.1 */
#define KSYM_NAME_LEN 512
/* read() size: /proc/kallsyms formats as much per call as it is asked */
#define READ_SIZE (1024 * 1024)
/* zero bytes after a block's end: a terminating '\n', then room for
 * hex() to read 16 digits and a space past a line's start */
#define SLACK 18

static int module_index(struct pd_dso *d, const char *mod)
{
	size_t i;
	char **m;

	for (i = d->nr_modules; i-- > 0;)
		if (!strcmp(d->modules[i], mod))
			return (int)i + 1;
	if (d->nr_modules >= UINT16_MAX - 1)
		return 0;
	m = realloc(d->modules, (d->nr_modules + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	d->modules = m;
	m[d->nr_modules] = strdup(mod);
	if (!m[d->nr_modules])
		return -ENOMEM;
	return (int)++d->nr_modules;
}

/* 1 + the value of each hex digit, 0 for other bytes */
static const uint8_t hex_val1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

#define ONES	0x0101010101010101ULL
#define HIGHS	0x8080808080808080ULL

/*
 * 8 hex digits at p (the first the most significant) into *v: false if
 * one of the 8 bytes is no hex digit. All 8 lanes at once: a byte below
 * 0x80 plus (0x80 - lo) sets its lane's top bit exactly when it is lo
 * or above, and carries into no other lane.
 */
static PD_ALWAYS_INLINE bool hex8(const char *p, uint64_t *v)
{
	uint64_t x, digit, lower, upper, nib;

	memcpy(&x, p, 8);
	x = le64toh(x);
	digit = (x + 0x50 * ONES) & ~(x + 0x46 * ONES);		/* 0-9 */
	lower = (x + 0x1f * ONES) & ~(x + 0x19 * ONES);		/* a-f */
	upper = (x + 0x3f * ONES) & ~(x + 0x39 * ONES);		/* A-F */
	if (x & HIGHS || ((digit | lower | upper) & HIGHS) != HIGHS)
		return false;
	/* a digit's value is its low nibble; a letter's, that plus 9 */
	nib = (x & 0x0f * ONES) + 9 * ((x >> 6) & ONES);
	/* the first digit in the top nibble: pair the nibbles up */
	nib = __builtin_bswap64(nib);
	nib = (nib | nib >> 4) & 0x00ff00ff00ff00ffULL;
	nib = (nib | nib >> 8) & 0x0000ffff0000ffffULL;
	*v = (nib | nib >> 16) & 0xffffffffULL;
	return true;
}

/*
 * strtoull(p, end, 16) on 120 thousand lines is a good part of the load:
 * the plain case, up to 16 digits and no "0x", is read here; anything
 * else is strtoull's.
 */
static unsigned long long hex(const char *p, char **end)
{
	unsigned long long v = 0;
	const char *q = p;
	uint64_t hi, lo;
	int k;

	/* a 64-bit kernel's 16 digits and a space, without a loop */
	if (p[16] == ' ' && hex8(p, &hi) && hex8(p + 8, &lo)) {
		*end = (char *)p + 16;
		return hi << 32 | lo;
	}

	while ((k = hex_val1[(unsigned char)*q]) && q - p < 16) {
		v = v << 4 | (unsigned int)(k - 1);
		q++;
	}
	if (hex_val1[(unsigned char)*q] ||
	    ((*q == 'x' || *q == 'X') && q - p == 1 && *p == '0'))
		return strtoull(p, end, 16);
	*end = (char *)q;
	return v;
}

/* A line (a C string: it ends at its first NUL), in memory that lives
 * as long as d: the name stays where it is. */
static int add_line(struct pd_dso *d, struct sym_vec *sv, char *line)
{
	char *p = line, *end, *tab, *name;
	unsigned long long addr;
	size_t len;
	char type;
	int mod = 0, bind;

	/* perf's io__get_hex(): hex digits up to a space */
	if (!hex_val1[(unsigned char)*p])
		return 0;
	addr = hex(p, &end);
	if (*end != ' ' || end[1] == '\0' || end[2] != ' ')
		return 0;
	type = end[1];
	name = end + 3;
	len = strlen(name);
	if (len > KSYM_NAME_LEN) {
		name[KSYM_NAME_LEN] = '\0';
		len = KSYM_NAME_LEN;
	}
	switch (type) {
	case 'T': case 'W': case 'D': case 'B':
	case 't': case 'w': case 'd': case 'b':
		break;
	default:
		return 0;
	}
	if (name[0] == '$')
		return 0;
	tab = memchr(name, '\t', len);
	if (tab) {
		*tab = '\0';
		mod = module_index(d, tab + 1);
		if (mod < 0)
			return mod;
	}
	if (type == 'W')
		bind = STB_WEAK;
	else
		bind = type >= 'A' && type <= 'Z' ? STB_GLOBAL : STB_LOCAL;
	if (sym_vec__push(sv, addr, 0, (uint8_t)bind, name))
		return -ENOMEM;
	sv->v[sv->nr - 1].module = (uint16_t)mod;
	/* the first of each: a module may have a symbol of that name */
	if (!mod && !d->ref_text && !strcmp(name, "_text"))
		d->ref_text = addr;
	else if (!mod && !d->ref_stext && !strcmp(name, "_stext"))
		d->ref_stext = addr;
	return 0;
}

/*
 * Each line of the file to add_line(), as getline() would give them (the
 * last without its newline too), read in large blocks of d's arena: the
 * names stay in them, copied no more.
 */
static int read_lines(struct pd_dso *d, struct sym_vec *sv, int fd)
{
	size_t cap = READ_SIZE, len = 0, pos = 0;
	/* not zeroed: megabytes about to be read into */
	char *buf = pd_arena_alloc_uninit(&d->arena, cap + SLACK), *nl;
	bool eof = false;
	int ret;

	if (!buf)
		return -ENOMEM;
	while (!eof) {
		ssize_t n;

		if (len == cap) {
			/* full: the next block, starting with the line cut
			 * short (one longer than half a block: a larger one) */
			len -= pos;
			if (len * 2 > cap)
				cap = len * 2;
			nl = pd_arena_alloc_uninit(&d->arena, cap + SLACK);
			if (!nl)
				return -ENOMEM;
			memcpy(nl, buf + pos, len);
			buf = nl;
			pos = 0;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		/* a read error ends the file, as it ends getline()'s loop */
		if (n <= 0) {
			eof = true;
			if (pos == len)
				break;
			buf[len++] = '\n';	/* the last line, unterminated */
		} else {
			len += (size_t)n;
		}
		/* the slack past the data: zeros (see SLACK) */
		memset(buf + len, 0, SLACK);
		/* [pos, len): lines not yet added, the last maybe partial */
		while ((nl = memchr(buf + pos, '\n', len - pos))) {
			*nl = '\0';
			ret = add_line(d, sv, buf + pos);
			if (ret)
				return ret;
			pos = (size_t)(nl - buf) + 1;
		}
	}
	return 0;
}

/* perf's pseudo-modules of kallsyms, not in /proc/modules */
static bool pseudo_module(const char *m)
{
	return !strcmp(m, "[bpf]") || !strncmp(m, "[__builtin__", 12);
}

/*
 * Whether the modules d's symbols name are those the running kernel has
 * loaded, as /proc/modules lists them (none when there is no such file:
 * a kernel without modules).
 */
static bool modules_current(const struct pd_dso *d)
{
	char line[512], name[256];
	size_t i, nr_real = 0, nr_loaded = 0;
	FILE *f;
	bool ok = true;

	for (i = 0; i < d->nr_modules; i++)
		nr_real += !pseudo_module(d->modules[i]);
	f = fopen("/proc/modules", "re");
	if (!f)
		return nr_real == 0;
	while (ok && fgets(line, sizeof(line), f)) {
		size_t k = strcspn(line, " \n");

		if (!k || k + 2 >= sizeof(name))
			continue;
		name[0] = '[';
		memcpy(name + 1, line, k);
		name[k + 1] = ']';
		name[k + 2] = '\0';
		nr_loaded++;
		ok = false;
		for (i = 0; i < d->nr_modules && !ok; i++)
			ok = !strcmp(d->modules[i], name);
	}
	fclose(f);
	return ok && nr_loaded == nr_real;
}

/* up to n bytes of path's start into buf: their number, or -1 */
static ssize_t read_head(const char *path, char *buf, size_t n)
{
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (got < n) {
		ssize_t k = read(fd, buf + got, n - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	close(fd);
	return (ssize_t)got;
}

/*
 * Whether the copy begins as /proc/kallsyms does now: a copy some tool
 * put in the cache (a trimmed one, another boot's) does not. The kernel
 * formats only what is read, and the first 64 KiB are a small part.
 */
#define HEAD_SIZE (64 * 1024)

static bool same_head(const char *copy)
{
	char *a = malloc(2 * HEAD_SIZE);
	ssize_t na, nb;
	bool same;

	if (!a)
		return false;
	na = read_head("/proc/kallsyms", a, HEAD_SIZE);
	nb = read_head(copy, a + HEAD_SIZE, HEAD_SIZE);
	same = na > 0 && na == nb && !memcmp(a, a + HEAD_SIZE, (size_t)na);
	free(a);
	return same;
}

static int load(struct pd_dso *d, const char *path, bool copy)
{
	struct sym_vec sv = { 0 };
	int fd, ret = 0;
	bool nonzero = false;

	if (copy && !same_head(path))
		return -ESTALE;
	d->ref_text = 0;
	d->ref_stext = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = read_lines(d, &sv, fd);
	close(fd);
	if (ret)
		goto out;
	for (size_t i = 0; i < sv.nr; i++)
		nonzero |= sv.v[i].start != 0;
	/* kptr_restrict: every address reads as zero, nothing resolves */
	if (!nonzero) {
		sv.nr = 0;
		d->ref_text = 0;
		d->ref_stext = 0;
	}
	if (copy && (!sv.nr || !modules_current(d))) {
		/* the names stay in the arena, unused */
		while (d->nr_modules)
			free(d->modules[--d->nr_modules]);
		ret = -ESTALE;
		goto out;
	}
	sym_vec__sort(&sv);
	sym_vec__fixup_end(&sv, true);
	sym_vec__fixup_duplicate(&sv);
	ret = sym_dso__take_symbols(d, &sv);
	d->loaded = d->nr_syms > 0;
	if (!ret) {
		d->symsrc = strdup(path);
		if (!d->symsrc)
			ret = -ENOMEM;
	}
out:
	free(sv.v);
	return ret;
}

int sym_kallsyms__load(struct pd_dso *d, const char *path)
{
	return load(d, path, false);
}

int sym_kallsyms__load_copy(struct pd_dso *d, const char *path)
{
	return load(d, path, true);
}
