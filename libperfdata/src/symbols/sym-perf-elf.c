// SPDX-License-Identifier: MIT
/*
 * Whether perf would read a mapped file as ELF. perf 6.1 registers its
 * DWARF unwinder for a process (unwind__prepare_access(), for each map
 * added or copied at fork) only when dso__type() of the map's DSO is
 * known: when dso__data_get_fd() opens a file for it, the build-id
 * cache's (DSO_BINARY_TYPE__BUILD_ID_CACHE) or else the one at its path
 * (DSO_BINARY_TYPE__SYSTEM_PATH_DSO), and that file is ELF. A process
 * none of whose maps is such a file (its MMAP records lost, or only
 * anonymous memory and files of another machine) has no unwinder: perf
 * prints none of its user frames, not even the sampled one.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sym-internal.h"
#include "sym-perf-elf.h"

#define PERF_ELF_BUCKETS	256

struct sym_perf_elf {
	struct sym_perf_elf *next;
	uint64_t hash;
	uint8_t bid[PD_BUILD_ID_MAX];
	size_t bid_size;
	bool elf;
	char path[];
};

/* An ELF header libelf takes for one (elf_kind() ELF_K_ELF). */
static bool is_elf(const char *path)
{
	unsigned char id[EI_NIDENT];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = pread(fd, id, sizeof(id), 0);
	close(fd);
	return n == (ssize_t)sizeof(id) && !memcmp(id, ELFMAG, SELFMAG) &&
	       (id[EI_CLASS] == ELFCLASS32 || id[EI_CLASS] == ELFCLASS64) &&
	       (id[EI_DATA] == ELFDATA2LSB || id[EI_DATA] == ELFDATA2MSB) &&
	       id[EI_VERSION] == EV_CURRENT;
}

/* The build-id cache's file for bid, as sym-elf.c finds it for a DSO. */
static bool cache_is_elf(const struct pd_symbolizer *s, const char *path,
			 const uint8_t *bid, size_t bid_size)
{
	char hex[2 * PD_BUILD_ID_MAX + 1], dir[4096], file[4200];
	size_t i;

	if (!s->buildid_dir || !bid_size || bid_size > PD_BUILD_ID_MAX)
		return false;
	for (i = 0; i < bid_size; i++)
		sprintf(hex + 2 * i, "%02x", bid[i]);
	snprintf(dir, sizeof(dir), "%s/.build-id/%.2s/%s", s->buildid_dir, hex,
		 hex + 2);
	/* an old-style cache links the file itself */
	if (sym_is_regular_file(dir))
		return is_elf(dir);
	snprintf(file, sizeof(file), "%s/%s", dir,
		 !strcmp(path, "[vdso]") ? "vdso" : "elf");
	return is_elf(file);
}

static bool perf_opens_elf(struct pd_symbolizer *s, const char *path,
			   const uint8_t *bid, size_t bid_size)
{
	char buf[4096];
	size_t i;

	if (cache_is_elf(s, path, bid, bid_size))
		return true;
	/* perf's own vdso, copied to a file, unless the build-id table
	 * named one (then only the cache has it) */
	if (!strcmp(path, "[vdso]"))
		return !bid_size;
	if (path[0] != '/')
		return false;
	sym_join_symfs(s, buf, sizeof(buf), path);
	if (is_elf(buf))
		return true;
	/* a container's files, which perf would find at their paths */
	for (i = 0; i < s->nr_roots; i++)
		if (!sym_join_root(s, i, buf, sizeof(buf), path) && is_elf(buf))
			return true;
	/*
	 * A file debuginfod may serve by its build id: taken as the file
	 * present, so that fetching gives what having the binaries does
	 * (asking here would fetch every mapped file of every process;
	 * one the servers lack leaves its frames unresolved later)
	 */
	return bid_size && sym_debuginfod(s);
}

static uint64_t key_hash(const char *path, const uint8_t *bid, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (; *path; path++)
		h = (h ^ (unsigned char)*path) * 1099511628211ULL;
	for (i = 0; i < n; i++)
		h = (h ^ bid[i]) * 1099511628211ULL;
	return h;
}

bool pd__symbolizer_perf_opens_elf(struct pd_symbolizer *s, const char *path,
				   const uint8_t *bid, size_t bid_size)
{
	static const uint8_t none[1];
	struct sym_perf_elf **b, *e;
	uint64_t h;

	if (!path)
		return false;
	if (!bid || !bid_size) {
		bid = none;	/* (memcmp() takes no NULL, even for 0 bytes) */
		bid_size = 0;
	}
	if (bid_size > PD_BUILD_ID_MAX)
		bid_size = PD_BUILD_ID_MAX;
	h = key_hash(path, bid, bid_size);
	if (!s->perf_elf)
		s->perf_elf = calloc(PERF_ELF_BUCKETS, sizeof(*s->perf_elf));
	if (!s->perf_elf)
		return perf_opens_elf(s, path, bid, bid_size);
	b = &s->perf_elf[h % PERF_ELF_BUCKETS];
	for (e = *b; e; e = e->next)
		if (e->hash == h && e->bid_size == bid_size &&
		    !memcmp(e->bid, bid, bid_size) && !strcmp(e->path, path))
			return e->elf;
	e = malloc(sizeof(*e) + strlen(path) + 1);
	if (!e)
		return perf_opens_elf(s, path, bid, bid_size);
	e->hash = h;
	e->bid_size = bid_size;
	if (bid_size)
		memcpy(e->bid, bid, bid_size);
	strcpy(e->path, path);
	e->elf = perf_opens_elf(s, path, bid, bid_size);
	e->next = *b;
	*b = e;
	return e->elf;
}

void sym_perf_elf__free(struct pd_symbolizer *s)
{
	struct sym_perf_elf *e, *next;
	size_t i;

	for (i = 0; s->perf_elf && i < PERF_ELF_BUCKETS; i++) {
		for (e = s->perf_elf[i]; e; e = next) {
			next = e->next;
			free(e);
		}
	}
	free(s->perf_elf);
	s->perf_elf = NULL;
}
