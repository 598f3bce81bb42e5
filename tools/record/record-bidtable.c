// SPDX-License-Identifier: MIT
/*
 * The BUILD_ID feature of the DSOs that got samples (record-buildid.c
 * follows them): the kernel's build id from /sys/kernel/notes, the
 * vdso's from pd-record's own (every process gets the same), each file's
 * as its process saw it (record-dsos.c); and, for the build-id cache, the
 * kernel's symbols and the vdso as perf record keeps them.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <perfdata/symbols.h>

#include "record.h"


static int find_gnu_note(const uint8_t *p, size_t len, uint8_t id[20])
{
	size_t off = 0;

	while (off + 12 <= len) {
		uint32_t namesz, descsz, type;
		size_t name_at, desc_at, next;

		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		name_at = off + 12;
		desc_at = name_at + ((namesz + 3) & ~3U);
		next = desc_at + ((descsz + 3) & ~3U);
		if (desc_at > len || next > len || next <= off)
			return -ENOENT;
		if (type == NT_GNU_BUILD_ID && namesz == 4 &&
		    !memcmp(p + name_at, "GNU", 4) && descsz > 0) {
			memset(id, 0, 20);
			memcpy(id, p + desc_at, descsz > 20 ? 20 : descsz);
			return 0;
		}
		off = next;
	}
	return -ENOENT;
}

/* The vdso every process gets is the one mapped into this one. */
static int vdso_build_id(uint8_t id[20])
{
	const Elf64_Ehdr *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Phdr *ph;
	int i;

	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64)
		return -ENOENT;
	ph = (const void *)((const uint8_t *)eh + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_NOTE &&
		    !find_gnu_note((const uint8_t *)eh + ph[i].p_offset,
				   ph[i].p_filesz, id))
			return 0;
	return -ENOENT;
}

/* The vdso every process gets: this one's, its bytes as mapped. */
static bool vdso_image(const void **image, size_t *len)
{
	unsigned long long start, end;
	char line[512];
	bool found = false;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]") &&
		    sscanf(line, "%llx-%llx", &start, &end) == 2 && end > start)
			found = true;
	fclose(f);
	if (!found || start != getauxval(AT_SYSINFO_EHDR))
		return false;
	*image = (const void *)(uintptr_t)start;
	*len = end - start;
	return true;
}

/*
 * The kernel's symbols as perf record keeps them with its build id,
 * for reading the profile once another kernel runs: not when they show
 * no addresses (kptr_restrict), which would only hide a useful copy.
 */
static void cache_kallsyms(struct rec_bidcache *c, const uint8_t *id,
			   size_t size)
{
	char head[32];
	ssize_t n;
	int fd;

	if (rec_bidcache__has(c, id, size, REC_CACHE_KALLSYMS))
		return;
	fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, head, sizeof(head) - 1);
	if (n > 0) {
		head[n] = '\0';
		if (strspn(head, "0") < 8)
			rec_bidcache__add(c, id, size, "[kernel.kallsyms]",
					  REC_CACHE_KALLSYMS, fd, NULL, 0);
	}
	close(fd);
}

void rec_bidtable__cache_kernel(struct rec_bidcache *c, bool kernel_hit,
				bool vdso_hit)
{
	uint8_t id[REC_BUILD_ID_MAX];
	const void *image;
	size_t len;
	int n;

	if (kernel_hit) {
		memset(id, 0, sizeof(id));
		n = pd_running_kernel_build_id(id, sizeof(id));
		if (n > 0)
			cache_kallsyms(c, id, n);
	}
	if (vdso_hit && !vdso_build_id(id) &&
	    !rec_bidcache__has(c, id, sizeof(id), REC_CACHE_VDSO) &&
	    vdso_image(&image, &len))
		rec_bidcache__add(c, id, sizeof(id), "[vdso]", REC_CACHE_VDSO,
				  -1, image, len);
}

/*
 * One entry: header, pid, 20 id bytes, the id's size and 3 bytes, the
 * name padded to 64. An id of 20 bytes says nothing of its size (misc
 * BUILD_ID_SIZE, perf 5.11+), as before it.
 */
static size_t put_entry(uint8_t *p, const char *name, const uint8_t *id,
			size_t id_size, uint16_t misc)
{
	size_t nlen = strlen(name) + 1, padded = (nlen + 63) & ~(size_t)63;
	uint16_t size = 36 + padded;
	int32_t pid = -1;

	if (id_size != REC_BUILD_ID_MAX)
		misc |= PD_MISC_BUILD_ID_SIZE;
	memset(p, 0, size);
	memcpy(p + 4, &misc, 2);
	memcpy(p + 6, &size, 2);
	memcpy(p + 8, &pid, 4);
	memcpy(p + 12, id, id_size);
	if (id_size != REC_BUILD_ID_MAX)
		p[32] = id_size;
	memcpy(p + 36, name, nlen);
	return size;
}

struct table {
	uint8_t *out;
	size_t len, cap;
	unsigned int nr;
};

static int add_entry(struct table *t, const char *name, const uint8_t *id,
		     size_t id_size, uint16_t misc)
{
	if (strlen(name) > 4000)
		return 0;
	if (t->len + 36 + 4096 > t->cap) {
		size_t ncap = t->cap ? 2 * t->cap : 8192;
		uint8_t *v = realloc(t->out, ncap);

		if (!v)
			return -ENOMEM;
		t->out = v;
		t->cap = ncap;
	}
	t->len += put_entry(t->out + t->len, name, id, id_size, misc);
	t->nr++;
	return 0;
}

/* Whether f's name and build id are those of a DSO before it. */
static bool listed(struct rec_dsos *d, const struct rec_dso *f)
{
	struct rec_dso *g;
	size_t pos = 0;

	for (g = rec_dsos__next_hit(d, &pos, NULL); g != f;
	     g = rec_dsos__next_hit(d, &pos, g))
		if (g->fid.id_size == f->fid.id_size &&
		    !memcmp(g->fid.id, f->fid.id, f->fid.id_size) &&
		    !strcmp(g->name, f->name))
			return true;
	return false;
}

int rec_bidtable(struct rec_dsos *d, bool kernel_hit, bool vdso_hit,
		 void **data, size_t *size, unsigned int *nr)
{
	struct table t = { 0 };
	uint8_t id[REC_BUILD_ID_MAX];
	struct rec_dso *f;
	size_t pos = 0;
	int err = 0, n;

	if (kernel_hit) {
		memset(id, 0, sizeof(id));
		n = pd_running_kernel_build_id(id, sizeof(id));
		if (n > 0)
			err = add_entry(&t, "[kernel.kallsyms]", id, sizeof(id),
					PD_MISC_KERNEL);
	}
	if (!err && vdso_hit && !vdso_build_id(id))
		err = add_entry(&t, "[vdso]", id, sizeof(id), PD_MISC_USER);
	/* two files at one path (a container's and the host's) are two */
	for (f = rec_dsos__next_hit(d, &pos, NULL); f && !err;
	     f = rec_dsos__next_hit(d, &pos, f))
		if (f->fid.id_size && f->name[0] == '/' && !listed(d, f))
			err = add_entry(&t, f->name, f->fid.id, f->fid.id_size,
					PD_MISC_USER);
	if (err) {
		free(t.out);
		return err;
	}
	*data = t.out;
	*size = t.len;
	*nr = t.nr;
	return 0;
}
