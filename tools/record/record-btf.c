// SPDX-License-Identifier: MIT
/*
 * The BTF of a BPF program, fetched by id with the bpf() system call, and
 * the name of one of its functions: what perf record uses to name a
 * program's sub-programs and keeps in the BPF_BTF header feature.
 *
 * Only the raw BTF layout is read (linux/btf.h): the header, then the
 * types, each a struct btf_type followed by data whose size depends on
 * its kind. A kind unknown here makes the whole BTF unusable, as it does
 * to libbpf, which perf reads it with.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/bpf.h>

#include "record.h"

#define BTF_MAGIC	0xeB9F
#define BTF_MAX_SIZE	(64u << 20)	/* bounds what a kernel answer makes us allocate */

int rec_bpf_sys(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

int rec_btf_fetch(uint32_t id, void **data, uint32_t *size)
{
	struct bpf_btf_info info;
	union bpf_attr a;
	uint32_t want;
	void *buf;
	int fd, err = 0;

	memset(&a, 0, sizeof(a));
	a.btf_id = id;
	fd = rec_bpf_sys(BPF_BTF_GET_FD_BY_ID, &a);
	if (fd < 0)
		return -errno;
	/* first the size, then the bytes */
	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = fd;
	a.info.info_len = sizeof(info);
	a.info.info = (uint64_t)(uintptr_t)&info;
	if (rec_bpf_sys(BPF_OBJ_GET_INFO_BY_FD, &a)) {
		err = -errno;
		goto out;
	}
	want = info.btf_size;
	if (!want || want > BTF_MAX_SIZE) {
		err = -EINVAL;
		goto out;
	}
	buf = malloc(want);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	memset(&info, 0, sizeof(info));
	info.btf = (uint64_t)(uintptr_t)buf;
	info.btf_size = want;
	if (rec_bpf_sys(BPF_OBJ_GET_INFO_BY_FD, &a) || info.btf_size != want) {
		err = errno ? -errno : -EAGAIN;
		free(buf);
		goto out;
	}
	*data = buf;
	*size = want;
out:
	close(fd);
	return err;
}

static uint32_t u32_at(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* Bytes after struct btf_type for a kind and vlen; -1 unknown. */
static long kind_extra(unsigned int kind, uint32_t vlen)
{
	switch (kind) {
	case 2: case 7: case 8: case 9: case 10: case 11: case 12: case 16:
	case 18:	/* PTR FWD TYPEDEF VOLATILE CONST RESTRICT FUNC FLOAT TYPE_TAG */
		return 0;
	case 1: case 14: case 17:	/* INT VAR DECL_TAG */
		return 4;
	case 3:				/* ARRAY */
		return 12;
	case 4: case 5: case 15: case 19:	/* STRUCT UNION DATASEC ENUM64 */
		return 12L * vlen;
	case 6: case 13:		/* ENUM FUNC_PROTO */
		return 8L * vlen;
	default:
		return -1;
	}
}

int rec_btf_name(const void *data, uint32_t size, uint32_t type_id,
		 const char **name)
{
	const uint8_t *p = data;
	uint32_t hdr_len, type_off, type_len, str_off, str_len, off, end, id;
	uint16_t magic;

	if (size < 24)
		return -EINVAL;
	memcpy(&magic, p, 2);
	hdr_len = u32_at(p + 4);
	type_off = u32_at(p + 8);
	type_len = u32_at(p + 12);
	str_off = u32_at(p + 16);
	str_len = u32_at(p + 20);
	if (magic != BTF_MAGIC || hdr_len < 24 || hdr_len > size ||
	    type_off > size - hdr_len || type_len > size - hdr_len - type_off ||
	    str_off > size - hdr_len || str_len > size - hdr_len - str_off ||
	    !str_len || p[hdr_len + str_off + str_len - 1])
		return -EINVAL;
	off = hdr_len + type_off;
	end = off + type_len;
	/* a complete walk, so that a BTF libbpf would refuse is refused */
	*name = NULL;
	for (id = 1; off < end; id++) {
		uint32_t name_off, info;
		long extra;

		if (end - off < 12)
			return -EINVAL;
		name_off = u32_at(p + off);
		info = u32_at(p + off + 4);
		extra = kind_extra((info >> 24) & 0x1f, info & 0xffff);
		if (extra < 0 || (uint64_t)extra > end - off - 12 ||
		    name_off >= str_len)
			return -EINVAL;
		if (id == type_id)
			*name = (const char *)p + hdr_len + str_off + name_off;
		off += 12 + extra;
	}
	if (!type_id)
		*name = "";	/* the void type */
	return *name ? 0 : -ENOENT;
}
