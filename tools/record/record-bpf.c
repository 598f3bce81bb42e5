// SPDX-License-Identifier: MIT
/*
 * The BPF programs loaded before the recording started, as perf record
 * synthesizes them: per program, one KSYMBOL (type BPF) per JIT-compiled
 * sub-program, named "bpf_prog_<tag>_<name>", and one BPF_EVENT (program
 * loaded, id, tag); then a KSYMBOL per BPF trampoline and dispatcher
 * image of /proc/kallsyms. The header features keep what perf annotates
 * and names them with later: BPF_PROG_INFO (each program's struct
 * bpf_prog_info followed by the arrays it points to, pointers made
 * offsets) and BPF_BTF (the raw BTF of the programs that have function
 * info), both in id order.
 *
 * perf's rules followed here, so that both write the same records: the
 * arrays asked for are the JIT-compiled code, the symbol addresses and
 * lengths, the function and line info and the tags; a program whose
 * counts disagree, or whose addresses are hidden, or whose BTF cannot be
 * read ends the walk (those before it stay); no privilege (EPERM) or no
 * bpf() (EINVAL) means no programs, silently. The sub-program name is the
 * BTF function's name when the program has function info, else the
 * program's name when it has one sub-program, else "F".
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/kernel-abi.h>

#include "record.h"
#include "common/bytes.h"

#define REC_MAX		4096
#define NAME_MAX_LEN	512	/* perf 6.1's KSYM_NAME_LEN */
#define TAG_SIZE	PD_BPF_TAG_SIZE

/* perf's array numbering (bpf-utils.h, v6.1): bit n of "arrays" */
enum {
	ARR_JITED_INSNS, ARR_XLATED_INSNS, ARR_MAP_IDS, ARR_JITED_KSYMS,
	ARR_JITED_FUNC_LENS, ARR_FUNC_INFO, ARR_LINE_INFO, ARR_JITED_LINE_INFO,
	ARR_PROG_TAGS, ARR_NR,
};

#define OFF(f)	offsetof(struct pd_bpf_prog_info, f)

/* where each array's pointer, count and element size (or fixed size) are */
static const struct {
	size_t ptr, count;
	size_t size_field;	/* 0: fixed size */
	uint32_t fixed;
} arrays[ARR_NR] = {
	[ARR_JITED_INSNS] = { OFF(jited_prog_insns), OFF(jited_prog_len), 0, 1 },
	[ARR_XLATED_INSNS] = { OFF(xlated_prog_insns), OFF(xlated_prog_len), 0, 1 },
	[ARR_MAP_IDS] = { OFF(map_ids), OFF(nr_map_ids), 0, 4 },
	[ARR_JITED_KSYMS] = { OFF(jited_ksyms), OFF(nr_jited_ksyms), 0, 8 },
	[ARR_JITED_FUNC_LENS] = { OFF(jited_func_lens), OFF(nr_jited_func_lens), 0, 4 },
	[ARR_FUNC_INFO] = { OFF(func_info), OFF(nr_func_info),
			    OFF(func_info_rec_size), 0 },
	[ARR_LINE_INFO] = { OFF(line_info), OFF(nr_line_info),
			    OFF(line_info_rec_size), 0 },
	[ARR_JITED_LINE_INFO] = { OFF(jited_line_info), OFF(nr_jited_line_info),
				  OFF(jited_line_info_rec_size), 0 },
	[ARR_PROG_TAGS] = { OFF(prog_tags), OFF(nr_prog_tags), 0, TAG_SIZE },
};

/* what perf record asks for */
#define ARRAYS_WANTED	(1u << ARR_JITED_INSNS | 1u << ARR_JITED_KSYMS | \
			 1u << ARR_JITED_FUNC_LENS | 1u << ARR_FUNC_INFO | \
			 1u << ARR_LINE_INFO | 1u << ARR_JITED_LINE_INFO | \
			 1u << ARR_PROG_TAGS)

/* a sanity bound on one program's arrays (a kernel answer) */
#define DATA_MAX	(256u << 20)

struct prog_entry {
	uint32_t id;
	struct bytes entry;	/* info_len, data_len, arrays, info, data */
};

struct btf_blob {
	uint32_t id, size;
	void *data;
};

struct rec_bpf {
	const struct pd_attr *attr;
	struct bytes recs;	/* the records, sent after the features */
	struct prog_entry *progs;	/* BPF_PROG_INFO entries, by id */
	size_t nr_progs;
	struct btf_blob *btfs;	/* sorted by id */
	size_t nr_btfs;
};

static uint32_t get32(const void *info, size_t off)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)info + off, 4);
	return v;
}

static uint64_t get64(const void *info, size_t off)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)info + off, 8);
	return v;
}

static void put32(void *info, size_t off, uint32_t v)
{
	memcpy((uint8_t *)info + off, &v, 4);
}

static void put64(void *info, size_t off, uint64_t v)
{
	memcpy((uint8_t *)info + off, &v, 8);
}

static uint32_t elem_size(const void *info, int i)
{
	return arrays[i].size_field ? get32(info, arrays[i].size_field) :
				      arrays[i].fixed;
}

static int get_info(int fd, struct pd_bpf_prog_info *info)
{
	union pd_bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = fd;
	a.info.info_len = sizeof(*info);
	a.info.info = (uint64_t)(uintptr_t)info;
	return rec_bpf_sys(PD_BPF_OBJ_GET_INFO_BY_FD, &a) ? -errno : 0;
}

/* Keep the BTF of id, once; 0 or a negative error. */
static int keep_btf(struct rec_bpf *s, uint32_t id, const void **data,
		    uint32_t *size)
{
	struct btf_blob *v;
	const char *unused;
	size_t i;
	int err;

	for (i = 0; i < s->nr_btfs && s->btfs[i].id <= id; i++) {
		if (s->btfs[i].id == id) {
			*data = s->btfs[i].data;
			*size = s->btfs[i].size;
			return 0;
		}
	}
	v = realloc(s->btfs, (s->nr_btfs + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->btfs = v;
	memmove(v + i + 1, v + i, (s->nr_btfs - i) * sizeof(*v));
	v[i].id = id;
	err = rec_btf_fetch(id, &v[i].data, &v[i].size);
	if (!err && rec_btf_name(v[i].data, v[i].size, 0, &unused)) {
		free(v[i].data);
		err = -EINVAL;
	}
	if (err) {
		memmove(v + i, v + i + 1, (s->nr_btfs - i) * sizeof(*v));
		return err;
	}
	s->nr_btfs++;
	*data = v[i].data;
	*size = v[i].size;
	return 0;
}

static void sub_prog_name(char *buf, size_t len,
			  const struct pd_bpf_prog_info *info, const uint8_t *tag,
			  const char *btf_name, uint32_t sub)
{
	const char *name = NULL;
	size_t n;
	int i;

	n = snprintf(buf, len, "bpf_prog_");
	for (i = 0; i < TAG_SIZE && n < len; i++)
		n += snprintf(buf + n, len - n, "%02x", tag[i]);
	if (btf_name)
		name = btf_name;
	else if (sub == 0 && info->nr_jited_ksyms == 1)
		name = info->name[0] ? info->name : NULL;	/* NUL-ended */
	else
		name = "F";
	if (name && n < len)
		snprintf(buf + n, len - n, "_%s", name);
}

static int add_ksymbol(struct rec_bpf *s, uint64_t addr, uint32_t len,
			const char *name)
{
	uint8_t rec[REC_MAX + NAME_MAX_LEN];
	uint16_t type = PD_KSYMBOL_TYPE_BPF, flags = 0;
	size_t n = 8;

	memset(rec, 0, 8);
	memcpy(rec + n, &addr, 8);
	memcpy(rec + n + 8, &len, 4);
	memcpy(rec + n + 12, &type, 2);
	memcpy(rec + n + 14, &flags, 2);
	n += 16;
	n += rec_synth_name(rec + n, name);
	n += rec_synth_trailer(rec + n, s->attr, 0, 0);
	rec_synth_header(rec, PD_RECORD_KSYMBOL, 0, n);
	bytes__put(&s->recs, rec, n);
	return s->recs.oom ? -ENOMEM : 0;
}

static int add_bpf_event(struct rec_bpf *s, uint32_t id,
			  const uint8_t *tag)
{
	uint8_t rec[REC_MAX];
	uint16_t type = PD_BPF_EVENT_PROG_LOAD, flags = 0;
	size_t n = 8;

	memcpy(rec + n, &type, 2);
	memcpy(rec + n + 2, &flags, 2);
	memcpy(rec + n + 4, &id, 4);
	memcpy(rec + n + 8, tag, TAG_SIZE);
	n += 16;
	n += rec_synth_trailer(rec + n, s->attr, 0, 0);
	rec_synth_header(rec, PD_RECORD_BPF_EVENT, 0, n);
	bytes__put(&s->recs, rec, n);
	return s->recs.oom ? -ENOMEM : 0;
}

/* Whether the entry of id is there; else where it goes. */
static bool find_prog(const struct rec_bpf *s, uint32_t id, size_t *at)
{
	size_t i;

	for (i = 0; i < s->nr_progs && s->progs[i].id < id; i++)
		;
	*at = i;
	return i < s->nr_progs && s->progs[i].id == id;
}

/*
 * The BPF_PROG_INFO entry of a program, in id order. The info is
 * PD_BPF_PROG_INFO_SIZE bytes, the size of the struct perf 6.0 and later
 * are built with: perf refuses the whole header for a larger info_len
 * ("detected invalid bpf_prog_info"), and --target-perf shrinks it for
 * older ones.
 */
static int add_entry(struct rec_bpf *s, const struct pd_bpf_prog_info *info,
		     uint32_t want, const uint8_t *data, uint32_t data_len)
{
	uint32_t info_len = PD_BPF_PROG_INFO_SIZE;
	struct prog_entry *v, *e;
	size_t at;

	if (find_prog(s, info->id, &at))
		return 0;	/* perf keeps the first */
	v = realloc(s->progs, (s->nr_progs + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->progs = v;
	memmove(v + at + 1, v + at, (s->nr_progs - at) * sizeof(*v));
	s->nr_progs++;
	e = &v[at];
	memset(e, 0, sizeof(*e));
	e->id = info->id;
	bytes__u32(&e->entry, info_len);
	bytes__u32(&e->entry, data_len);
	bytes__u64(&e->entry, want);
	bytes__put(&e->entry, info, info_len);
	bytes__put(&e->entry, data, data_len);
	return e->entry.oom ? -ENOMEM : 0;
}

/*
 * One program: with synth, its records (kept for later) and its
 * BPF_PROG_INFO entry, 0 done, 1 the walk ends here (as perf's does), or
 * -ENOMEM. Without (a program loaded while recording, as perf's side-band
 * thread takes it): the entry only, and the BTF of any program that has
 * one, without perf's checks.
 */
static int one_prog(struct rec_bpf *s, int fd, bool synth)
{
	struct pd_bpf_prog_info first, info;
	uint32_t data_len = 0, sub, cnt, want = 0;
	const uint8_t *tags;
	const uint64_t *addrs;
	const uint32_t *lens;
	const void *btf = NULL;
	uint32_t btf_size = 0;
	uint8_t *data = NULL;
	size_t off;
	int i, err = 1;

	memset(&first, 0, sizeof(first));
	if (get_info(fd, &first))
		return 1;
	for (i = 0; i < ARR_NR; i++) {
		uint64_t bytes;

		if (!(ARRAYS_WANTED & (1u << i)))
			continue;
		want |= 1u << i;
		bytes = (uint64_t)get32(&first, arrays[i].count) *
			elem_size(&first, i);
		data_len += (bytes + 7) & ~7ull;
		if (bytes > DATA_MAX || data_len > DATA_MAX)
			return 1;
	}
	data = calloc(1, data_len ? data_len : 1);
	if (!data)
		return -ENOMEM;
	memset(&info, 0, sizeof(info));
	off = 0;
	for (i = 0; i < ARR_NR; i++) {
		uint32_t count = get32(&first, arrays[i].count);
		uint32_t size = elem_size(&first, i);

		if (!(want & (1u << i)))
			continue;
		put32(&info, arrays[i].count, count);
		if (arrays[i].size_field)
			put32(&info, arrays[i].size_field, size);
		put64(&info, arrays[i].ptr, (uint64_t)(uintptr_t)(data + off));
		off += ((uint64_t)count * size + 7) & ~7ull;
	}
	if (get_info(fd, &info))
		goto out;
	/* the kernel may only have shrunk what it reported */
	for (i = 0; i < ARR_NR; i++)
		if ((want & (1u << i)) &&
		    (get32(&info, arrays[i].count) >
		     get32(&first, arrays[i].count) ||
		     elem_size(&info, i) != elem_size(&first, i)))
			goto out;
	if (!synth) {
		if (info.btf_id && keep_btf(s, info.btf_id, &btf, &btf_size) ==
				   -ENOMEM) {
			err = -ENOMEM;
			goto out;
		}
		err = 0;
		goto entry;
	}
	cnt = info.nr_jited_ksyms;
	if (!info.jited_ksyms || cnt != info.nr_prog_tags ||
	    cnt != info.nr_jited_func_lens)
		goto out;	/* addresses hidden, or no JIT */
	if (info.btf_id && info.nr_func_info && info.func_info_rec_size) {
		if (cnt != info.nr_func_info || info.func_info_rec_size < 8)
			goto out;
		err = keep_btf(s, info.btf_id, &btf, &btf_size);
		if (err == -ENOMEM)
			goto out;
		err = 1;
		if (!btf)
			goto out;
	}
	addrs = (const uint64_t *)(uintptr_t)info.jited_ksyms;
	lens = (const uint32_t *)(uintptr_t)info.jited_func_lens;
	tags = (const uint8_t *)(uintptr_t)info.prog_tags;
	for (sub = 0; sub < cnt; sub++) {
		char name[NAME_MAX_LEN];
		const char *btf_name = NULL;
		uint64_t addr;
		uint32_t len;

		if (btf) {
			const uint8_t *fi = (const uint8_t *)(uintptr_t)
				info.func_info + sub * info.func_info_rec_size;

			if (rec_btf_name(btf, btf_size, get32(fi, 4),
					 &btf_name))
				btf_name = NULL;
		}
		memcpy(&addr, addrs + sub, 8);
		memcpy(&len, lens + sub, 4);
		sub_prog_name(name, sizeof(name), &info, tags + sub * TAG_SIZE,
			      btf_name, sub);
		err = add_ksymbol(s, addr, len, name);
		if (err)
			goto out;
	}
	err = add_bpf_event(s, info.id, info.tag);
	if (err)
		goto out;
entry:
	/* pointers become offsets into the arrays */
	for (i = 0; i < ARR_NR; i++)
		if (want & (1u << i))
			put64(&info, arrays[i].ptr,
			      get64(&info, arrays[i].ptr) -
			      (uint64_t)(uintptr_t)data);
	err = add_entry(s, &info, want, data, data_len);
out:
	free(data);
	return err;
}

/* BPF trampolines and dispatchers: kallsyms' "[bpf]" images */
static int bpf_images(struct rec_bpf *s)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	long page = sysconf(_SC_PAGESIZE);
	char line[1024];
	int err = 0;

	if (!f)
		return 0;
	while (!err && fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[NAME_MAX_LEN], mod[16];
		unsigned long id;
		char rest[NAME_MAX_LEN];

		if (sscanf(line, "%llx %c %511s %15s", &addr, &type, name,
			   mod) != 4 || strcmp(mod, "[bpf]"))
			continue;
		if (sscanf(name, "bpf_trampoline_%lu", &id) == 1 ||
		    sscanf(name, "bpf_dispatcher_%511s", rest) == 1)
			err = add_ksymbol(s, addr, page, name);
	}
	fclose(f);
	return err;
}

int rec_bpf__features(struct rec_bpf *s, struct pd_writer *w)
{
	struct bytes b = { 0 };
	size_t i;
	int err;

	bytes__u32(&b, s->nr_progs);
	for (i = 0; i < s->nr_progs; i++)
		bytes__put(&b, s->progs[i].entry.p, s->progs[i].entry.len);
	err = b.oom ? -ENOMEM :
	      pd_writer__set_feature(w, PD_FEAT_BPF_PROG_INFO, b.p, b.len);
	free(b.p);
	if (err)
		return err;
	memset(&b, 0, sizeof(b));
	bytes__u32(&b, s->nr_btfs);
	for (i = 0; i < s->nr_btfs; i++) {
		bytes__u32(&b, s->btfs[i].id);
		bytes__u32(&b, s->btfs[i].size);
		bytes__put(&b, s->btfs[i].data, s->btfs[i].size);
	}
	err = b.oom ? -ENOMEM :
	      pd_writer__set_feature(w, PD_FEAT_BPF_BTF, b.p, b.len);
	free(b.p);
	return err;
}

struct rec_bpf *rec_bpf__collect(const struct pd_attr *attr,
				struct pd_writer *w, int *errp)
{
	struct rec_bpf *s = calloc(1, sizeof(*s));
	uint32_t id = 0;
	int err = 0;

	if (!s) {
		*errp = -ENOMEM;
		return NULL;
	}
	s->attr = attr;
	for (;;) {
		union pd_bpf_attr a;
		int fd;

		memset(&a, 0, sizeof(a));
		a.get_id.id = id;
		if (rec_bpf_sys(PD_BPF_PROG_GET_NEXT_ID, &a))
			break;	/* ENOENT: the last; EPERM, EINVAL: none */
		id = a.get_id.next_id;
		memset(&a, 0, sizeof(a));
		a.get_id.id = id;
		fd = rec_bpf_sys(PD_BPF_PROG_GET_FD_BY_ID, &a);
		if (fd < 0)
			continue;	/* unloaded meanwhile */
		err = one_prog(s, fd, true);
		close(fd);
		if (err) {
			err = err < 0 ? err : 0;
			break;
		}
	}
	if (!err)
		err = bpf_images(s);
	if (!err)
		err = rec_bpf__features(s, w);
	*errp = err;
	if (err) {
		rec_bpf__free(s);
		return NULL;
	}
	return s;
}

int rec_bpf__loaded(struct rec_bpf *s, uint32_t id)
{
	union pd_bpf_attr a;
	size_t at;
	int fd, err;

	if (find_prog(s, id, &at))
		return 0;
	memset(&a, 0, sizeof(a));
	a.get_id.id = id;
	fd = rec_bpf_sys(PD_BPF_PROG_GET_FD_BY_ID, &a);
	if (fd < 0)
		return 0;	/* gone already, or no privilege */
	err = one_prog(s, fd, false);
	close(fd);
	return err < 0 ? err : 0;
}

int rec_bpf__emit(struct rec_bpf *s, rec_emit_fn emit, void *ctx)
{
	size_t off, size;
	int err = 0;

	for (off = 0; !err && off + 8 <= s->recs.len; off += size) {
		uint16_t sz;

		memcpy(&sz, s->recs.p + off + 6, 2);
		size = sz;
		err = emit(ctx, s->recs.p + off, s->attr);
	}
	return err;
}

void rec_bpf__free(struct rec_bpf *s)
{
	size_t i;

	if (!s)
		return;
	free(s->recs.p);
	for (i = 0; i < s->nr_progs; i++)
		free(s->progs[i].entry.p);
	free(s->progs);
	for (i = 0; i < s->nr_btfs; i++)
		free(s->btfs[i].data);
	free(s->btfs);
	free(s);
}
