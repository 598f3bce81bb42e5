// SPDX-License-Identifier: MIT
/*
 * ustar header blocks (POSIX.1-1988 as extended by POSIX.1-2001): the
 * layout is name[100] mode[8] uid[8] gid[8] size[12] mtime[12]
 * chksum[8] typeflag[1] linkname[100] magic[6] version[2] uname[32]
 * gname[32] devmajor[8] devminor[8] prefix[155], padded to 512 bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "archive-tar.h"
#include "base/internal.h"

#define OFF_NAME	0
#define OFF_MODE	100
#define OFF_UID		108
#define OFF_GID		116
#define OFF_SIZE	124
#define OFF_MTIME	136
#define OFF_CHKSUM	148
#define OFF_TYPE	156
#define OFF_LINKNAME	157
#define OFF_MAGIC	257
#define OFF_VERSION	263
#define OFF_UNAME	265
#define OFF_GNAME	297
#define OFF_PREFIX	345

static void put_octal(uint8_t *field, size_t width, uint64_t v)
{
	/* width - 1 digits, then NUL */
	size_t i = width - 1;

	field[i] = '\0';
	while (i--) {
		field[i] = '0' + (v & 7);
		v >>= 3;
	}
}

static unsigned int checksum(const uint8_t *blk)
{
	unsigned int sum = 0;
	size_t i;

	for (i = 0; i < PD_TAR_BLOCK; i++)
		sum += (i >= OFF_CHKSUM && i < OFF_CHKSUM + 8) ? ' ' : blk[i];
	return sum;
}

/* Old tars summed signed chars: accepted too. */
static int checksum_signed(const uint8_t *blk)
{
	int sum = 0;
	size_t i;

	for (i = 0; i < PD_TAR_BLOCK; i++)
		sum += (i >= OFF_CHKSUM && i < OFF_CHKSUM + 8) ? ' ' :
		       (signed char)blk[i];
	return sum;
}

int pd__tar_make_header(uint8_t blk[PD_TAR_BLOCK], const char *name,
			uint64_t size, char type, uint32_t mode,
			uint64_t mtime)
{
	size_t len = strlen(name);
	const char *split = NULL;

	memset(blk, 0, PD_TAR_BLOCK);
	if (len > 100) {
		/* the last '/' that leaves both parts short enough */
		const char *p;

		for (p = name + len - 1; p > name; p--)
			if (*p == '/' && (size_t)(p - name) <= 155 &&
			    len - (size_t)(p - name) - 1 <= 100) {
				split = p;
				break;
			}
		if (!split || split == name + len - 1)
			return -ENAMETOOLONG;
		memcpy(blk + OFF_PREFIX, name, split - name);
		memcpy(blk + OFF_NAME, split + 1, len - (split - name) - 1);
	} else {
		memcpy(blk + OFF_NAME, name, len);
	}
	if (size > PD_TAR_MAX_SIZE)
		return -EFBIG;
	put_octal(blk + OFF_MODE, 8, mode & 07777);
	put_octal(blk + OFF_UID, 8, 0);
	put_octal(blk + OFF_GID, 8, 0);
	put_octal(blk + OFF_SIZE, 12, size);
	put_octal(blk + OFF_MTIME, 12, mtime & PD_TAR_MAX_SIZE);
	blk[OFF_TYPE] = type;
	memcpy(blk + OFF_MAGIC, "ustar", 6);
	memcpy(blk + OFF_VERSION, "00", 2);
	memcpy(blk + OFF_UNAME, "root", 4);
	memcpy(blk + OFF_GNAME, "root", 4);
	/* chksum: six octal digits, NUL, space */
	put_octal(blk + OFF_CHKSUM, 7, checksum(blk));
	blk[OFF_CHKSUM + 7] = ' ';
	return 0;
}

/* An octal field: digits, optionally led by spaces, ended by NUL or space. */
static int get_octal(const uint8_t *field, size_t width, uint64_t *v)
{
	size_t i = 0;
	bool digits = false;

	*v = 0;
	while (i < width && field[i] == ' ')
		i++;
	for (; i < width && field[i] >= '0' && field[i] <= '7'; i++) {
		if (*v >> 60)
			return -1;
		*v = (*v << 3) | (field[i] - '0');
		digits = true;
	}
	for (; i < width; i++)
		if (field[i] != ' ' && field[i] != '\0')
			return -1;
	return digits ? 0 : -1;
}

int pd__tar_parse_header(const uint8_t blk[PD_TAR_BLOCK],
			 struct pd_tar_entry *e, char *why, size_t why_size)
{
	uint64_t sum;
	size_t i, plen, nlen;

	for (i = 0; i < PD_TAR_BLOCK && !blk[i]; i++)
		;
	if (i == PD_TAR_BLOCK)
		return 1;
	if (memcmp(blk + OFF_MAGIC, "ustar", 5)) {
		snprintf(why, why_size, "not a tar header (no ustar magic)");
		return -PD_ERR_BAD_ARCHIVE;
	}
	if (get_octal(blk + OFF_CHKSUM, 8, &sum) ||
	    (sum != checksum(blk) && (int64_t)sum != checksum_signed(blk))) {
		snprintf(why, why_size,
			 "header checksum mismatch (stored %.8s, computed %o)",
			 (const char *)blk + OFF_CHKSUM, checksum(blk));
		return -PD_ERR_BAD_ARCHIVE;
	}
	if (blk[OFF_SIZE] & 0x80) {
		snprintf(why, why_size, "size field in base-256 (larger than %llu bytes): not accepted",
			 (unsigned long long)PD_TAR_MAX_SIZE);
		return -PD_ERR_BAD_ARCHIVE;
	}
	if (get_octal(blk + OFF_SIZE, 12, &e->size) ||
	    e->size > PD_TAR_MAX_SIZE) {
		snprintf(why, why_size, "size field '%.12s' is not an octal number",
			 (const char *)blk + OFF_SIZE);
		return -PD_ERR_BAD_ARCHIVE;
	}
	e->type = blk[OFF_TYPE] ? (char)blk[OFF_TYPE] : '0';
	plen = strnlen((const char *)blk + OFF_PREFIX, 155);
	nlen = strnlen((const char *)blk + OFF_NAME, 100);
	if (plen) {
		memcpy(e->name, blk + OFF_PREFIX, plen);
		e->name[plen] = '/';
		memcpy(e->name + plen + 1, blk + OFF_NAME, nlen);
		e->name[plen + 1 + nlen] = '\0';
	} else {
		memcpy(e->name, blk + OFF_NAME, nlen);
		e->name[nlen] = '\0';
	}
	return 0;
}

int pd__tar_pax_path(const char *data, size_t size, char *out,
		     size_t out_size, char *why, size_t why_size)
{
	size_t off = 0;
	int found = 0;

	/* records: "LEN KEY=VALUE\n", LEN counting the whole record */
	while (off < size) {
		size_t len = 0, i = off, klen;
		const char *rec = data + off, *eq, *sp;

		while (i < size && data[i] >= '0' && data[i] <= '9' && len < size)
			len = len * 10 + (data[i++] - '0');
		if (i == off || i >= size || data[i] != ' ' || len > size - off ||
		    len < 4 || data[off + len - 1] != '\n') {
			snprintf(why, why_size, "malformed pax header record at byte %zu", off);
			return -PD_ERR_BAD_ARCHIVE;
		}
		sp = data + i;
		eq = memchr(sp, '=', rec + len - sp);
		if (!eq) {
			snprintf(why, why_size, "malformed pax header record at byte %zu", off);
			return -PD_ERR_BAD_ARCHIVE;
		}
		klen = eq - sp - 1;
		if (klen == 4 && !memcmp(sp + 1, "path", 4)) {
			size_t vlen = rec + len - 1 - (eq + 1);

			if (vlen >= out_size || memchr(eq + 1, '\0', vlen)) {
				snprintf(why, why_size, "pax path too long or with a NUL byte");
				return -PD_ERR_BAD_ARCHIVE;
			}
			memcpy(out, eq + 1, vlen);
			out[vlen] = '\0';
			found = 1;
		}
		off += len;
	}
	return found;
}

int pd__tar_check_name(const char *name, char *norm, size_t norm_size,
		       char *why, size_t why_size)
{
	const char *p = name;
	size_t n = 0;

	if (!*name) {
		snprintf(why, why_size, "member with an empty name");
		return -PD_ERR_BAD_ARCHIVE;
	}
	if (*name == '/') {
		snprintf(why, why_size, "member '%.200s': absolute path", name);
		return -PD_ERR_BAD_ARCHIVE;
	}
	while (*p) {
		const char *end = strchr(p, '/');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == 0 && end && end[1]) {
			snprintf(why, why_size, "member '%.200s': empty path component", name);
			return -PD_ERR_BAD_ARCHIVE;
		}
		if (len == 2 && !memcmp(p, "..", 2)) {
			snprintf(why, why_size, "member '%.200s': '..' in the path", name);
			return -PD_ERR_BAD_ARCHIVE;
		}
		if (len && !(len == 1 && *p == '.')) {
			if (n + !!n + len + 1 > norm_size) {
				snprintf(why, why_size, "member '%.200s': name too long", name);
				return -PD_ERR_BAD_ARCHIVE;
			}
			if (n)
				norm[n++] = '/';
			memcpy(norm + n, p, len);
			n += len;
		}
		if (!end)
			break;
		p = end + 1;
	}
	if (!n) {
		snprintf(why, why_size, "member '%.200s': names no file", name);
		return -PD_ERR_BAD_ARCHIVE;
	}
	norm[n] = '\0';
	return 0;
}
