// SPDX-License-Identifier: MIT
/*
 * The BTF of a BPF program, fetched by id with the bpf() system call, and
 * the name of one of its functions: what perf record uses to name a
 * program's sub-programs and keeps in the BPF_BTF header feature.
 *
 * Only the raw BTF layout is read (perfdata/kernel-abi.h): the header,
 * then the types, each a struct pd_btf_type followed by data whose size
 * depends on its kind. A kind unknown here makes the whole BTF unusable, as it does
 * to libbpf, which perf reads it with.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/kernel-abi.h>

#include "record.h"

#define BTF_MAX_SIZE	(64u << 20)	/* bounds what a kernel answer makes us allocate */

int rec_bpf_sys(int cmd, union pd_bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

int rec_btf_fetch(uint32_t id, void **data, uint32_t *size)
{
	struct pd_bpf_btf_info info;
	union pd_bpf_attr a;
	uint32_t want;
	void *buf;
	int fd, err = 0;

	memset(&a, 0, sizeof(a));
	a.get_id.id = id;
	fd = rec_bpf_sys(PD_BPF_BTF_GET_FD_BY_ID, &a);
	if (fd < 0)
		return -errno;
	/* first the size, then the bytes */
	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = fd;
	a.info.info_len = sizeof(info);
	a.info.info = (uint64_t)(uintptr_t)&info;
	if (rec_bpf_sys(PD_BPF_OBJ_GET_INFO_BY_FD, &a)) {
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
	if (rec_bpf_sys(PD_BPF_OBJ_GET_INFO_BY_FD, &a) || info.btf_size != want) {
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

int rec_btf_name(const void *data, uint32_t size, uint32_t type_id,
		 const char **name)
{
	const uint8_t *p = data;
	uint32_t hdr_len, type_off, type_len, str_off, str_len, off, end, id;
	struct pd_btf_header h;

	if (size < sizeof(h))
		return -EINVAL;
	memcpy(&h, p, sizeof(h));
	hdr_len = h.hdr_len;
	type_off = h.type_off;
	type_len = h.type_len;
	str_off = h.str_off;
	str_len = h.str_len;
	if (h.magic != PD_BTF_MAGIC || hdr_len < sizeof(h) || hdr_len > size ||
	    type_off > size - hdr_len || type_len > size - hdr_len - type_off ||
	    str_off > size - hdr_len || str_len > size - hdr_len - str_off ||
	    !str_len || p[hdr_len + str_off + str_len - 1])
		return -EINVAL;
	off = hdr_len + type_off;
	end = off + type_len;
	/* a complete walk, so that a BTF libbpf would refuse is refused */
	*name = NULL;
	for (id = 1; off < end; id++) {
		struct pd_btf_type t;
		int64_t extra;

		if (end - off < sizeof(t))
			return -EINVAL;
		memcpy(&t, p + off, sizeof(t));
		extra = pd_btf_type_extra(t.info);
		if (extra < 0 || (uint64_t)extra > end - off - sizeof(t) ||
		    t.name_off >= str_len)
			return -EINVAL;
		if (id == type_id)
			*name = (const char *)p + hdr_len + str_off + t.name_off;
		off += sizeof(t) + extra;
	}
	if (!type_id)
		*name = "";	/* the void type */
	return *name ? 0 : -ENOENT;
}
