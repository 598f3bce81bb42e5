// SPDX-License-Identifier: MIT
/*
 * The machine's memory and cache layout as perf record writes it in the
 * header: CACHE (the distinct cache levels of all CPUs), NUMA_TOPOLOGY
 * (per node: memory and CPUs) and MEM_TOPOLOGY (per node: which memory
 * blocks it holds). Read from sysfs with the same choices perf makes
 * (which files, which order, what is left out), so that perf report
 * --header-only prints the same lines for our file as for its own.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record.h"
#include "common/bytes.h"

#define SYS_CPU		"/sys/devices/system/cpu"
#define SYS_NODE	"/sys/devices/system/node"
#define SYS_MEMORY	"/sys/devices/system/memory"
#define MAX_CACHE_LEVELS 4	/* index0..3 per CPU, as perf looks */
#define MAX_NODES	2000	/* perf's bound for MEM_TOPOLOGY */

/* A sysfs file's text without surrounding white space; 0 or -1. */
static int read_text(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n, start = 0;

	if (!f)
		return -1;
	n = fread(out, 1, len - 1, f);
	fclose(f);
	out[n] = '\0';
	while (n && isspace((unsigned char)out[n - 1]))
		out[--n] = '\0';
	while (isspace((unsigned char)out[start]))
		start++;
	memmove(out, out + start, n - start + 1);
	return 0;
}

static int read_u32(const char *path, uint32_t *v)
{
	char text[32];

	if (read_text(path, text, sizeof(text)))
		return -1;
	*v = strtoul(text, NULL, 10);
	return 0;
}

static int set_section(struct pd_writer *w, unsigned int feat,
		       struct bytes *b)
{
	int err = b->oom ? -ENOMEM : pd_writer__set_feature(w, feat, b->p,
							     b->len);

	free(b->p);
	return err;
}

/* ---- CACHE ---- */

struct cache_level {
	uint32_t level, line_size, sets, ways;
	char type[32], size[32], map[256];
};

/* 1: no such index (the CPU's last level was passed), 0 read, -1 error */
static int cache_read(struct cache_level *c, int cpu, int idx)
{
	char dir[128], path[192];
	struct stat st;

	snprintf(dir, sizeof(dir), SYS_CPU "/cpu%d/cache/index%d", cpu, idx);
	if (stat(dir, &st))
		return 1;
#define FILE_OF(name) (snprintf(path, sizeof(path), "%s/" name, dir), path)
	if (read_u32(FILE_OF("level"), &c->level) ||
	    read_u32(FILE_OF("coherency_line_size"), &c->line_size) ||
	    read_u32(FILE_OF("number_of_sets"), &c->sets) ||
	    read_u32(FILE_OF("ways_of_associativity"), &c->ways) ||
	    read_text(FILE_OF("type"), c->type, sizeof(c->type)) ||
	    read_text(FILE_OF("size"), c->size, sizeof(c->size)) ||
	    read_text(FILE_OF("shared_cpu_list"), c->map, sizeof(c->map)))
		return -1;
#undef FILE_OF
	return 0;
}

static bool cache_same(const struct cache_level *a,
		       const struct cache_level *b)
{
	return a->level == b->level && a->line_size == b->line_size &&
	       a->sets == b->sets && a->ways == b->ways &&
	       !strcmp(a->type, b->type) && !strcmp(a->size, b->size) &&
	       !strcmp(a->map, b->map);
}

/*
 * CACHE: u32 version 1, u32 nr; per cache: u32 level, line size, sets,
 * ways; strings type, size, shared CPU list. The distinct caches in the
 * order CPUs and indexes are walked, then ordered by level (stably, as
 * perf's sort leaves them with glibc). A read error leaves the feature
 * out, as perf does.
 */
static int set_cache(struct pd_writer *w)
{
	int nr_cpus = sysconf(_SC_NPROCESSORS_CONF), cpu, idx;
	struct cache_level *c, tmp;
	struct bytes b = { 0 };
	size_t n = 0, i, j;

	if (nr_cpus <= 0)
		return 0;
	c = calloc((size_t)nr_cpus * MAX_CACHE_LEVELS, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (cpu = 0; cpu < nr_cpus; cpu++)
		for (idx = 0; idx < MAX_CACHE_LEVELS; idx++) {
			int ret = cache_read(&c[n], cpu, idx);

			if (ret < 0)
				goto out;
			if (ret)
				break;
			for (i = 0; i < n; i++)
				if (cache_same(&c[i], &c[n]))
					break;
			if (i == n)
				n++;
		}
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && c[j - 1].level > c[j].level; j--) {
			tmp = c[j];
			c[j] = c[j - 1];
			c[j - 1] = tmp;
		}
	bytes__u32(&b, 1);
	bytes__u32(&b, n);
	for (i = 0; i < n; i++) {
		bytes__u32(&b, c[i].level);
		bytes__u32(&b, c[i].line_size);
		bytes__u32(&b, c[i].sets);
		bytes__u32(&b, c[i].ways);
		rec_bytes_string(&b, c[i].type);
		rec_bytes_string(&b, c[i].size);
		rec_bytes_string(&b, c[i].map);
	}
	free(c);
	return set_section(w, PD_FEAT_CACHE, &b);
out:
	free(c);
	return 0;
}

/* ---- NUMA_TOPOLOGY ---- */

/*
 * The numbers of a list like "0-3,8" into out (ascending as written);
 * returns how many, or -1 for text that is not such a list.
 */
static int parse_list(const char *s, unsigned int *out, int max)
{
	int n = 0;

	while (*s) {
		char *end;
		unsigned long lo = strtoul(s, &end, 10), hi = lo;

		if (end == s)
			return -1;
		if (*end == '-') {
			s = end + 1;
			hi = strtoul(s, &end, 10);
			if (end == s || hi < lo)
				return -1;
		}
		for (; lo <= hi; lo++) {
			if (n == max)
				return -1;
			out[n++] = lo;
		}
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return n;
}

/* "Node N MemTotal:  123 kB" and MemFree of one node's meminfo, in kB */
static int node_meminfo(unsigned int node, uint64_t *total, uint64_t *free_kb)
{
	char path[96], line[256], field[32];
	unsigned long long v;
	FILE *f;

	snprintf(path, sizeof(path), SYS_NODE "/node%u/meminfo", node);
	f = fopen(path, "r");
	if (!f)
		return -1;
	*total = *free_kb = 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strchr(line, ':'))
			continue;
		if (sscanf(line, "%*s %*d %31s %llu", field, &v) != 2)
			break;
		if (!strcmp(field, "MemTotal:"))
			*total = v;
		if (!strcmp(field, "MemFree:"))
			*free_kb = v;
		if (*total && *free_kb)
			break;
	}
	fclose(f);
	return 0;
}

/*
 * NUMA_TOPOLOGY: u32 nr; per online node: u32 node, u64 MemTotal and
 * MemFree (kB), string CPU list. Any node unreadable: no feature, as perf.
 */
static int set_numa(struct pd_writer *w)
{
	static unsigned int nodes[MAX_NODES];
	char text[4096], path[96];
	struct bytes b = { 0 };
	int nr, i;

	if (read_text(SYS_NODE "/online", text, sizeof(text)))
		return 0;
	nr = parse_list(text, nodes, MAX_NODES);
	if (nr < 0)
		return 0;
	bytes__u32(&b, nr);
	for (i = 0; i < nr; i++) {
		uint64_t total, free_kb;

		snprintf(path, sizeof(path), SYS_NODE "/node%u/cpulist",
			 nodes[i]);
		if (node_meminfo(nodes[i], &total, &free_kb) ||
		    read_text(path, text, sizeof(text))) {
			free(b.p);
			return 0;
		}
		bytes__u32(&b, nodes[i]);
		bytes__u64(&b, total);
		bytes__u64(&b, free_kb);
		rec_bytes_string(&b, text);
	}
	return set_section(w, PD_FEAT_NUMA_TOPOLOGY, &b);
}

/* ---- MEM_TOPOLOGY ---- */

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

/* the "memoryN" entries of a node directory as a bitmap of N */
static int node_blocks(struct bytes *b, unsigned int node)
{
	char path[96];
	struct dirent *d;
	uint64_t bits = 0, *map, i;
	unsigned int blk;
	DIR *dp;

	snprintf(path, sizeof(path), SYS_NODE "/node%u", node);
	dp = opendir(path);
	if (!dp)
		return -1;
	while ((d = readdir(dp)))
		if (sscanf(d->d_name, "memory%u", &blk) == 1 && blk >= bits)
			bits = (uint64_t)blk + 1;
	if (!bits)
		bits = 1;	/* perf's bitmap is one bit long then */
	map = calloc((bits + 63) / 64, 8);
	if (!map) {
		closedir(dp);
		return -ENOMEM;
	}
	rewinddir(dp);
	while ((d = readdir(dp)))
		if (sscanf(d->d_name, "memory%u", &blk) == 1 && blk < bits)
			map[blk / 64] |= 1ULL << (blk % 64);
	closedir(dp);
	bytes__u64(b, node);
	bytes__u64(b, bits);
	bytes__u64(b, bits);
	for (i = 0; i < (bits + 63) / 64; i++)
		bytes__u64(b, map[i]);
	free(map);
	return 0;
}

/*
 * MEM_TOPOLOGY: u64 version 1, u64 block size (bytes), u64 nr; per node
 * in node order: u64 node, u64 bitmap length in bits, then the bitmap (its
 * length again, then u64 words) of the memory blocks in the node.
 */
static int set_mem_topology(struct pd_writer *w)
{
	static unsigned int nodes[MAX_NODES];
	struct bytes b = { 0 };
	struct dirent *d;
	char text[64];
	int nr = 0, i, err;
	DIR *dp;

	if (read_text(SYS_MEMORY "/block_size_bytes", text, sizeof(text)))
		return 0;
	dp = opendir(SYS_NODE);
	if (!dp)
		return 0;
	while ((d = readdir(dp))) {
		unsigned int node;
		char end;

		if (sscanf(d->d_name, "node%u%c", &node, &end) != 1)
			continue;
		if (nr == MAX_NODES) {
			closedir(dp);
			return 0;
		}
		nodes[nr++] = node;
	}
	closedir(dp);
	qsort(nodes, nr, sizeof(nodes[0]), cmp_uint);
	bytes__u64(&b, 1);
	bytes__u64(&b, strtoull(text, NULL, 16));
	bytes__u64(&b, nr);
	for (i = 0; i < nr; i++) {
		err = node_blocks(&b, nodes[i]);
		if (err) {
			free(b.p);
			return err == -ENOMEM ? err : 0;
		}
	}
	return set_section(w, PD_FEAT_MEM_TOPOLOGY, &b);
}

int rec_features_topology(struct pd_writer *w)
{
	int err = set_numa(w);

	if (!err)
		err = set_cache(w);
	if (!err)
		err = set_mem_topology(w);
	return err;
}
