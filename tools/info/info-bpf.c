// SPDX-License-Identifier: MIT
/*
 * Names of BPF programs from the saved struct pd_bpf_prog_info.
 *
 * perf saves each program's info with its arrays (jited symbol addresses,
 * function lengths, tags, BTF func_info records) appended, the info's
 * array pointers rewritten as offsets into that appended data. A program
 * symbol is "bpf_prog_<tag>_<function>": the function named by BTF when
 * the program's BTF object was saved too, else the program's own name
 * for a program without sub-programs, else "F". Programs and BTF objects
 * are listed by id, as perf keeps them. Everything here is bounds-checked:
 * a program whose arrays lie outside what was saved gets a short note, a
 * BTF object that does not parse is not used for names.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/kernel-abi.h>

#include "info-bpf.h"

#define FIELD_END(f) (offsetof(struct pd_bpf_prog_info, f) + \
		      sizeof(((struct pd_bpf_prog_info *)0)->f))

/* The saved info, zero-extended to our struct if the kernel's was older. */
static void load_info(const struct pd_bpf_prog *p, struct pd_bpf_prog_info *info)
{
	memset(info, 0, sizeof(*info));
	memcpy(info, p->info, p->info_len < sizeof(*info) ? p->info_len :
							     sizeof(*info));
}

/* nr elements of size at data offset off, or NULL if not all saved */
static const uint8_t *array_at(const struct pd_bpf_prog *p, uint64_t off,
			       uint64_t nr, uint64_t size)
{
	if (!p->data || nr > UINT32_MAX || off > p->data_len ||
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

/*
 * A BTF object read in place, in either byte order as libbpf reads it.
 * Only what is needed to name a type: where the types and strings are.
 */
struct btf_view {
	const uint8_t *d;
	bool swap;
	uint64_t types, types_end;	/* byte offsets into d */
	uint64_t strs, strs_end;
	uint32_t nr_types;		/* ids 1..nr_types */
};

static uint32_t btf_u32(const struct btf_view *v, uint64_t off)
{
	uint32_t x;

	memcpy(&x, v->d + off, 4);
	return v->swap ? __builtin_bswap32(x) : x;
}

/*
 * Checks a BTF object as loading it would: a header whose sections lie
 * within the object (types 4-aligned, before the strings), a string
 * section starting and ending with NUL, and type records of known kinds
 * that exactly fill the type section. false if it is not usable.
 */
static bool btf_open(const struct pd_bpf_btf *b, struct btf_view *v)
{
	uint64_t hdr_len, type_off, type_len, str_off, str_len, pos;
	uint16_t magic;

	memset(v, 0, sizeof(*v));
	v->d = b->data;
	if (!b->data || b->size < sizeof(struct pd_btf_header))
		return false;
	memcpy(&magic, b->data, 2);
	if (magic == __builtin_bswap16(PD_BTF_MAGIC))
		v->swap = true;
	else if (magic != PD_BTF_MAGIC)
		return false;
	hdr_len = btf_u32(v, offsetof(struct pd_btf_header, hdr_len));
	type_off = btf_u32(v, offsetof(struct pd_btf_header, type_off));
	type_len = btf_u32(v, offsetof(struct pd_btf_header, type_len));
	str_off = btf_u32(v, offsetof(struct pd_btf_header, str_off));
	str_len = btf_u32(v, offsetof(struct pd_btf_header, str_len));
	if (hdr_len < sizeof(struct pd_btf_header) || hdr_len > b->size ||
	    (v->swap && hdr_len != sizeof(struct pd_btf_header)) ||
	    str_off + str_len > b->size - hdr_len ||
	    type_off + type_len > str_off || type_off % 4 || !str_len)
		return false;
	v->types = hdr_len + type_off;
	v->types_end = v->types + type_len;
	v->strs = hdr_len + str_off;
	v->strs_end = v->strs + str_len;
	if (v->d[v->strs] || v->d[v->strs_end - 1])
		return false;
	for (pos = v->types; pos < v->types_end; v->nr_types++) {
		uint64_t left = v->types_end - pos;
		int64_t extra;

		if (left < sizeof(struct pd_btf_type))
			return false;
		left -= sizeof(struct pd_btf_type);
		extra = pd_btf_type_extra(btf_u32(v, pos +
					  offsetof(struct pd_btf_type, info)));
		if (extra < 0 || (uint64_t)extra > left)
			return false;
		pos += sizeof(struct pd_btf_type) + (uint64_t)extra;
	}
	return true;
}

/*
 * The name of type id: "" for id 0 (void), NULL for an id beyond the
 * types or a name outside the strings. The strings end with a NUL.
 */
static const char *btf_type_name(const struct btf_view *v, uint32_t id)
{
	uint64_t pos = v->types, name_off;
	uint32_t k;

	if (!id)
		return "";
	if (id > v->nr_types)
		return NULL;
	for (k = 1; k < id; k++)
		pos += sizeof(struct pd_btf_type) + (uint64_t)pd_btf_type_extra(
			btf_u32(v, pos + offsetof(struct pd_btf_type, info)));
	name_off = btf_u32(v, pos + offsetof(struct pd_btf_type, name_off));
	if (name_off >= v->strs_end - v->strs)
		return NULL;
	return (const char *)v->d + v->strs + name_off;
}

/*
 * "bpf_prog_<tag>_<function>" into buf (truncated as perf truncates, at
 * its KSYM_NAME_LEN). The function is named by the func_info record's
 * BTF type when the program's BTF is usable, else by the program's name
 * when it has no sub-programs, else "F". Without a name, no suffix.
 */
static void prog_name(char *buf, size_t len, const struct pd_bpf_prog_info *info,
		      const struct pd_bpf_prog *p, const struct btf_view *btf,
		      const uint8_t *tags, uint32_t sub, uint32_t nr_subs)
{
	char name[PD_BPF_OBJ_NAME_LEN + 1] = "";
	const char *fn = NULL;
	size_t n;
	int i;

	n = (size_t)snprintf(buf, len, "bpf_prog_");
	for (i = 0; i < PD_BPF_TAG_SIZE && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%02x",
				      tags[sub * PD_BPF_TAG_SIZE + i]);
	if (btf) {
		uint32_t rec_size = info->func_info_rec_size;
		const uint8_t *rec = array_at(p, info->func_info,
					      (uint64_t)sub + 1, rec_size);
		struct pd_bpf_func_info fi;

		if (rec && rec_size >= sizeof(fi)) {
			memcpy(&fi, rec + (size_t)sub * rec_size, sizeof(fi));
			fn = btf_type_name(btf, fi.type_id);
		}
	} else if (sub == 0 && nr_subs == 1) {
		memcpy(name, info->name, PD_BPF_OBJ_NAME_LEN);
		if (name[0])
			fn = name;
	} else {
		fn = "F";
	}
	if (fn && n < len)
		snprintf(buf + n, len - n, "_%s", fn);
}

static void print_prog(FILE *out, const struct pd_features *f,
		       const struct pd_bpf_prog *p)
{
	const uint8_t *addrs, *lens, *tags;
	const struct pd_bpf_btf *b = NULL;
	struct btf_view btf;
	bool have_btf = false;
	struct pd_bpf_prog_info info;
	char name[512];		/* perf's KSYM_NAME_LEN */
	uint32_t i, nr;

	if (!p->info)
		return;
	load_info(p, &info);
	nr = info.nr_jited_ksyms;
	/* perf lists nothing for a program whose arrays disagree */
	if (nr != info.nr_prog_tags || nr != info.nr_jited_func_lens)
		return;
	addrs = array_at(p, info.jited_ksyms, nr, 8);
	lens = array_at(p, info.jited_func_lens, nr, 4);
	tags = array_at(p, info.prog_tags, nr, PD_BPF_TAG_SIZE);
	if (nr && (!addrs || !lens || !tags)) {
		fprintf(out, "# bpf_prog_info %u: (arrays not in saved data)\n",
			info.id);
		return;
	}
	if (info.btf_id)
		b = find_btf(f, info.btf_id);
	if (b)
		have_btf = btf_open(b, &btf);
	for (i = 0; i < nr; i++) {
		uint64_t addr;
		uint32_t len;

		memcpy(&addr, addrs + 8 * i, 8);
		memcpy(&len, lens + 4 * i, 4);
		prog_name(name, sizeof(name), &info, p,
			  have_btf ? &btf : NULL, tags, i, nr);
		if (nr == 1) {
			fprintf(out, "# bpf_prog_info %u: %s addr 0x%" PRIx64
				" size %u\n", info.id, name, addr, len);
			return;
		}
		if (i == 0)
			fprintf(out, "# bpf_prog_info %u:\n", info.id);
		fprintf(out, "# \tsub_prog %u: %s addr 0x%" PRIx64 " size %u\n",
			i, name, addr, len);
	}
	if (!nr)
		fprintf(out, "# bpf_prog_info %u:\n", info.id);
}

static uint32_t prog_id(const struct pd_bpf_prog *p)
{
	uint32_t id = 0;

	if (p->info && p->info_len >= FIELD_END(id))
		memcpy(&id, p->info + offsetof(struct pd_bpf_prog_info, id), 4);
	return id;
}

static int by_prog_id(const void *a, const void *b)
{
	const struct pd_bpf_prog *p = *(const struct pd_bpf_prog *const *)a;
	const struct pd_bpf_prog *q = *(const struct pd_bpf_prog *const *)b;
	uint32_t x = prog_id(p), y = prog_id(q);

	/* equal ids: the first saved one first, the one perf keeps */
	if (x != y)
		return x < y ? -1 : 1;
	return p < q ? -1 : p > q;
}

void pd_info_print_bpf_progs(FILE *out, const struct pd_features *f)
{
	const struct pd_bpf_prog **v;
	uint32_t i, n = f->bpf_prog_info.nr;

	v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return;
	/*
	 * perf 6.1 stops reading the feature at an info larger than its
	 * struct pd_bpf_prog_info (the same size as ours), keeping those
	 * before it.
	 */
	for (i = 0; i < n; i++) {
		v[i] = &f->bpf_prog_info.progs[i];
		if (v[i]->info_len > sizeof(struct pd_bpf_prog_info))
			break;
	}
	n = i;
	qsort(v, n, sizeof(*v), by_prog_id);
	for (i = 0; i < n; i++)
		if (i == 0 || prog_id(v[i]) != prog_id(v[i - 1]))
			print_prog(out, f, v[i]);
	free(v);
}

static int by_btf_id(const void *a, const void *b)
{
	const struct pd_bpf_btf *p = *(const struct pd_bpf_btf *const *)a;
	const struct pd_bpf_btf *q = *(const struct pd_bpf_btf *const *)b;

	if (p->id != q->id)
		return p->id < q->id ? -1 : 1;
	return p < q ? -1 : p > q;
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
