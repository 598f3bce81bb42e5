// SPDX-License-Identifier: MIT
/*
 * Names of BPF programs from the saved struct bpf_prog_info.
 *
 * perf saves each program's info with its arrays (jited symbol addresses,
 * function lengths, tags, BTF func_info records) appended, the info's
 * array pointers rewritten as offsets into that appended data. A program
 * symbol is "bpf_prog_<tag>_<function>": the function named by BTF when
 * the program's BTF object was saved too, else the program's own name
 * for a program without sub-programs, else "F". Programs and BTF objects
 * are listed by id, as perf keeps them. Everything here is bounds-checked:
 * a field or array outside what was saved ends that program's lines.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/btf.h>

#include "info-bpf.h"

#define FIELD_END(f) (offsetof(struct bpf_prog_info, f) + \
		      sizeof(((struct bpf_prog_info *)0)->f))

/* The saved info, zero-extended to our struct if the kernel's was older. */
static void load_info(const struct pd_bpf_prog *p, struct bpf_prog_info *info)
{
	memset(info, 0, sizeof(*info));
	memcpy(info, p->info, p->info_len < sizeof(*info) ? p->info_len :
							     sizeof(*info));
}

/* nr elements of size at data offset off, or NULL if not all saved */
static const uint8_t *array_at(const struct pd_bpf_prog *p, uint64_t off,
			       uint64_t nr, uint64_t size)
{
	if (nr > UINT32_MAX || off > p->data_len ||
	    nr * size > p->data_len - off)
		return NULL;
	return p->data + off;
}

static const struct pd_bpf_btf *find_btf(const struct pd_features *f,
					 uint32_t id)
{
	uint32_t i;

	for (i = 0; i < f->bpf_btf.nr; i++)
		if (f->bpf_btf.btfs[i].id == id)
			return &f->bpf_btf.btfs[i];
	return NULL;
}

/* Bytes of kind-specific data after a btf_type record. */
static int64_t btf_extra(uint32_t info)
{
	uint32_t vlen = BTF_INFO_VLEN(info);

	switch (BTF_INFO_KIND(info)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return (int64_t)vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return (int64_t)vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return (int64_t)vlen * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return (int64_t)vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_ENUM64:
		return (int64_t)vlen * sizeof(struct btf_enum64);
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	default:
		return -1;	/* unknown kind: its size is unknown */
	}
}

/* The name of BTF type id, or NULL. Type ids count from 1. */
static const char *btf_type_name(const struct pd_bpf_btf *b, uint32_t id,
				 char *buf, size_t len)
{
	struct btf_header h;
	struct btf_type t;
	uint64_t pos, end, str, str_end;
	uint32_t k;

	if (b->size < sizeof(h))
		return NULL;
	memcpy(&h, b->data, sizeof(h));
	if (h.magic != BTF_MAGIC || h.hdr_len < sizeof(h) ||
	    (uint64_t)h.hdr_len + h.type_off + h.type_len > b->size ||
	    (uint64_t)h.hdr_len + h.str_off + h.str_len > b->size || !id)
		return NULL;
	pos = (uint64_t)h.hdr_len + h.type_off;
	end = pos + h.type_len;
	for (k = 1; pos + sizeof(t) <= end; k++) {
		int64_t extra;

		memcpy(&t, b->data + pos, sizeof(t));
		if (k == id) {
			str = (uint64_t)h.hdr_len + h.str_off;
			str_end = str + h.str_len;
			if (t.name_off >= h.str_len)
				return NULL;
			snprintf(buf, len, "%.*s",
				 (int)(str_end - str - t.name_off),
				 (const char *)b->data + str + t.name_off);
			return buf;
		}
		extra = btf_extra(t.info);
		if (extra < 0)
			return NULL;
		pos += sizeof(t) + (uint64_t)extra;
	}
	return NULL;
}

static void prog_name(char *buf, size_t len, const struct bpf_prog_info *info,
		      const struct pd_bpf_prog *p, const struct pd_bpf_btf *btf,
		      const uint8_t *tags, uint32_t sub, uint32_t nr_subs)
{
	const char *fn = NULL;
	char fnbuf[128];
	size_t n;
	int i;

	n = (size_t)snprintf(buf, len, "bpf_prog_");
	for (i = 0; i < BPF_TAG_SIZE && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%02x",
				      tags[sub * BPF_TAG_SIZE + i]);
	if (btf) {
		const uint8_t *rec = array_at(p, info->func_info,
					      (uint64_t)sub + 1,
					      info->func_info_rec_size);
		struct bpf_func_info fi;

		if (rec && info->func_info_rec_size >= sizeof(fi)) {
			memcpy(&fi, rec + (size_t)sub * info->func_info_rec_size,
			       sizeof(fi));
			fn = btf_type_name(btf, fi.type_id, fnbuf, sizeof(fnbuf));
		}
	} else if (sub == 0 && nr_subs == 1) {
		char name[BPF_OBJ_NAME_LEN + 1] = "";

		memcpy(name, info->name, BPF_OBJ_NAME_LEN);
		if (name[0])
			fn = strcpy(fnbuf, name);
	} else {
		fn = "F";
	}
	if (fn && n < len)
		snprintf(buf + n, len - n, "_%s", fn);
}

static void print_prog(FILE *out, const struct pd_features *f,
		       const struct pd_bpf_prog *p)
{
	const struct pd_bpf_btf *btf = NULL;
	const uint8_t *addrs, *lens, *tags;
	struct bpf_prog_info info;
	uint32_t i, nr;
	char name[256];

	if (p->info_len < FIELD_END(prog_tags) || !p->info)
		return;
	load_info(p, &info);
	nr = info.nr_jited_ksyms;
	/* perf lists nothing for a program whose arrays disagree */
	if (nr != info.nr_prog_tags || nr != info.nr_jited_func_lens)
		return;
	addrs = array_at(p, info.jited_ksyms, nr, 8);
	lens = array_at(p, info.jited_func_lens, nr, 4);
	tags = array_at(p, info.prog_tags, nr, BPF_TAG_SIZE);
	if (!addrs || !lens || !tags || !nr)
		return;
	if (info.btf_id)
		btf = find_btf(f, info.btf_id);
	for (i = 0; i < nr; i++) {
		uint64_t addr;
		uint32_t len;

		memcpy(&addr, addrs + 8 * i, 8);
		memcpy(&len, lens + 4 * i, 4);
		prog_name(name, sizeof(name), &info, p, btf, tags, i, nr);
		if (nr == 1) {
			fprintf(out, "# bpf_prog_info %u: %s addr %#" PRIx64 " size %u\n",
				info.id, name, addr, len);
			return;
		}
		if (i == 0)
			fprintf(out, "# bpf_prog_info %u:\n", info.id);
		fprintf(out, "# \tsub_prog %u: %s addr %#" PRIx64 " size %u\n",
			i, name, addr, len);
	}
}

static uint32_t prog_id(const struct pd_bpf_prog *p)
{
	uint32_t id = 0;

	if (p->info && p->info_len >= FIELD_END(id))
		memcpy(&id, p->info + offsetof(struct bpf_prog_info, id), 4);
	return id;
}

static int by_prog_id(const void *a, const void *b)
{
	uint32_t x = prog_id(*(const struct pd_bpf_prog *const *)a);
	uint32_t y = prog_id(*(const struct pd_bpf_prog *const *)b);

	return x < y ? -1 : x > y;
}

void pd_info_print_bpf_progs(FILE *out, const struct pd_features *f)
{
	const struct pd_bpf_prog **v;
	uint32_t i, n = f->bpf_prog_info.nr;

	v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return;
	for (i = 0; i < n; i++)
		v[i] = &f->bpf_prog_info.progs[i];
	qsort(v, n, sizeof(*v), by_prog_id);
	for (i = 0; i < n; i++)
		if (i == 0 || prog_id(v[i]) != prog_id(v[i - 1]))
			print_prog(out, f, v[i]);
	free(v);
}

static int by_btf_id(const void *a, const void *b)
{
	uint32_t x = (*(const struct pd_bpf_btf *const *)a)->id;
	uint32_t y = (*(const struct pd_bpf_btf *const *)b)->id;

	return x < y ? -1 : x > y;
}

void pd_info_print_bpf_btf(FILE *out, const struct pd_features *f)
{
	const struct pd_bpf_btf **v;
	uint32_t i, n = f->bpf_btf.nr;

	v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return;
	for (i = 0; i < n; i++)
		v[i] = &f->bpf_btf.btfs[i];
	qsort(v, n, sizeof(*v), by_btf_id);
	for (i = 0; i < n; i++)
		if (i == 0 || v[i]->id != v[i - 1]->id)
			fprintf(out, "# btf info of id %u\n", v[i]->id);
	free(v);
}
