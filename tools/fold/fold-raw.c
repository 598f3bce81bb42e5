// SPDX-License-Identifier: MIT
/* The raw frame syntax of pd-fold --raw. See fold-raw.h. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fold-raw.h"

static const char hexd[] = "0123456789abcdef";

static bool needs_escape(unsigned char c)
{
	return c == '%' || c == ';' || c == ' ' || c < 0x20 || c == 0x7f;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* path escaped into buf at *n; false when it does not fit */
static bool put_path(char *buf, size_t size, size_t *n, const char *path)
{
	const unsigned char *p;

	for (p = (const unsigned char *)path; *p; p++) {
		if (*n + 4 > size)
			return false;
		if (needs_escape(*p)) {
			buf[(*n)++] = '%';
			buf[(*n)++] = hexd[*p >> 4];
			buf[(*n)++] = hexd[*p & 15];
		} else {
			buf[(*n)++] = (char)*p;
		}
	}
	return true;
}

static bool put_str(char *buf, size_t size, size_t *n, const char *s)
{
	size_t k = strlen(s);

	if (*n + k + 1 > size)
		return false;
	memcpy(buf + *n, s, k);
	*n += k;
	return true;
}

/* "[kernel.kallsyms]REF": a symbol name after the kernel's map name */
static bool kernel_path(const char *path)
{
	const char *p = path + FOLD_RAW_KERNEL_LEN;

	/* (not a vmlinux section's map, "[kernel.kallsyms].init.text") */
	if (strncmp(path, FOLD_RAW_KERNEL, FOLD_RAW_KERNEL_LEN) || !*p ||
	    *p == '.' || (*p >= '0' && *p <= '9'))
		return false;
	for (; *p; p++)
		if (!(*p == '_' || *p == '.' || (*p >= '0' && *p <= '9') ||
		      (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
			return false;
	return true;
}

size_t fold_raw__format(char *buf, size_t size, const struct fold_raw *r)
{
	char off[24];
	size_t n = 0, i;

	if (r->kernel && (!r->build_id_size || r->dwarf ||
			  !kernel_path(r->path)))
		return 0;
	/* a kernel address below its reference symbol: a negative offset */
	if (r->kernel && (int64_t)r->addr < 0)
		snprintf(off, sizeof(off), "-0x%" PRIx64, -r->addr);
	else
		snprintf(off, sizeof(off), "+0x%" PRIx64 "%s", r->addr,
			 r->dwarf ? "i" : "");
	if (r->build_id_size) {
		if (2 * r->build_id_size + 1 > size)
			return 0;
		for (i = 0; i < r->build_id_size; i++) {
			buf[n++] = hexd[r->build_id[i] >> 4];
			buf[n++] = hexd[r->build_id[i] & 15];
		}
		if (!put_str(buf, size, &n, off) || !put_str(buf, size, &n, "@") ||
		    !put_path(buf, size, &n, r->path))
			return 0;
	} else if (!put_path(buf, size, &n, r->path) ||
		   !put_str(buf, size, &n, off)) {
		return 0;
	}
	buf[n] = '\0';
	return n;
}

/*
 * "+0xHEX[i]" at s (up to end), or "-0xHEX" where neg may be: its end,
 * or NULL; *neg whether it was negative (r->addr then holds the value)
 */
static const char *parse_off(const char *s, const char *end,
			     struct fold_raw *r, bool *neg)
{
	uint64_t v = 0;
	const char *p = s + 3;

	if (end - s < 4 ||
	    (memcmp(s, "+0x", 3) && (!neg || memcmp(s, "-0x", 3))))
		return NULL;
	if (neg)
		*neg = s[0] == '-';
	for (; p < end && hexval(*p) >= 0 && (*p < 'A' || *p > 'F'); p++) {
		if (v >> 60)
			return NULL;
		v = v << 4 | (uint64_t)hexval(*p);
	}
	if (p == s + 3)
		return NULL;
	r->addr = v;
	r->dwarf = s[0] == '+' && p < end && *p == 'i';
	return r->dwarf ? p + 1 : p;
}

static bool parse_path(const char *s, const char *end, struct fold_raw *r)
{
	size_t n = 0;

	if (s == end)
		return false;
	for (; s < end; s++) {
		char c = *s;

		if (c == '%') {
			if (end - s < 3 || hexval(s[1]) < 0 || hexval(s[2]) < 0)
				return false;
			c = (char)(hexval(s[1]) << 4 | hexval(s[2]));
			s += 2;
		}
		if (!c || n + 1 >= sizeof(r->path))
			return false;
		r->path[n++] = c;
	}
	r->path[n] = '\0';
	return true;
}

bool fold_raw__parse(const char *s, size_t len, struct fold_raw *r)
{
	const char *end = s + len, *p, *q;
	size_t i;
	bool neg;

	if (!len)
		return false;
	r->kernel = false;
	if (s[0] == '/' || s[0] == '[') {
		/* PATH+0xOFFSET[i]: the last "+0x" */
		for (p = NULL, q = s; (q = memmem(q, end - q, "+0x", 3)); q++)
			p = q;
		if (!p || parse_off(p, end, r, NULL) != end)
			return false;
		r->build_id_size = 0;
		/* the kernel's, without the build id that names it: none */
		return parse_path(s, p, r) &&
		       strncmp(r->path, FOLD_RAW_KERNEL, FOLD_RAW_KERNEL_LEN);
	}
	for (p = s; p < end && hexval(*p) >= 0 && !(*p >= 'A' && *p <= 'F'); p++)
		;
	i = p - s;
	if (i < 2 || i % 2 || i / 2 > FOLD_RAW_BUILD_ID_MAX)
		return false;
	q = parse_off(p, end, r, &neg);
	if (!q || q == end || *q != '@')
		return false;
	for (i = 0; i < (size_t)(p - s) / 2; i++)
		r->build_id[i] = (uint8_t)(hexval(s[2 * i]) << 4 |
					   hexval(s[2 * i + 1]));
	r->build_id_size = i;
	if (!parse_path(q + 1, end, r))
		return false;
	if (strncmp(r->path, FOLD_RAW_KERNEL, FOLD_RAW_KERNEL_LEN))
		return !neg;
	/* a kernel frame: a reference symbol, no inlined frames */
	if (r->dwarf || !kernel_path(r->path))
		return false;
	r->kernel = true;
	if (neg)
		r->addr = -r->addr;
	return true;
}
