// SPDX-License-Identifier: MIT
/*
 * Side-band records for what existed before the recording started: the
 * kernel's map, and the names and executable maps of processes already
 * running (-p, -a), as the kernel would have reported them. They carry
 * time 0, so that they sort before every sample.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>

#include "record.h"

#define REC_MAX	4096	/* synthesized records stay well below 64 KiB */

/* The sample_id trailer of attr: pid/tid given, everything else 0. */
size_t rec_synth_trailer(uint8_t *p, const struct pd_attr *attr,
			 int32_t pid, int32_t tid)
{
	size_t n = rec_id_hdr_size(attr);

	memset(p, 0, n);
	if (n && (attr->sample_type & PD_SAMPLE_TID)) {
		memcpy(p, &pid, 4);
		memcpy(p + 4, &tid, 4);
	}
	return n;
}

size_t rec_synth_name(uint8_t *p, const char *name)
{
	size_t len = strlen(name) + 1, padded = (len + 7) & ~(size_t)7;

	memset(p, 0, padded);
	memcpy(p, name, len);
	return padded;
}

void rec_synth_header(uint8_t *p, uint32_t type, uint16_t misc, size_t size)
{
	uint16_t sz = size;

	memcpy(p, &type, 4);
	memcpy(p + 4, &misc, 2);
	memcpy(p + 6, &sz, 2);
}

int rec_synth_kernel(const struct pd_attr *attr, rec_emit_fn emit, void *ctx)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	uint64_t text = 0, end = 0, etext = 0;
	char line[512];
	uint8_t rec[REC_MAX];
	int32_t pid = -1, tid = 0;
	size_t n;

	if (!f)
		return 0;	/* no kernel symbols: no kernel map, as perf */
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256];

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (strchr(line, '['))
			continue;	/* a module's or BPF's symbol */
		if (!strcmp(name, "_text") || (!text && !strcmp(name, "_stext")))
			text = addr;
		if (!strcmp(name, "_etext"))
			etext = addr;
		if (addr > end)
			end = addr;
	}
	fclose(f);
	/* the map ends where the kernel's text does, as perf makes it;
	 * without _etext, at its last symbol */
	if (etext > text)
		end = etext;
	if (!text || end <= text)
		return 0;	/* addresses hidden (kptr_restrict) */
	memset(rec, 0, sizeof(rec));
	n = 8;
	memcpy(rec + n, &pid, 4);
	memcpy(rec + n + 4, &tid, 4);
	memcpy(rec + n + 8, &text, 8);
	end -= text;
	memcpy(rec + n + 16, &end, 8);
	memcpy(rec + n + 24, &text, 8);
	n += 32;
	n += rec_synth_name(rec + n, "[kernel.kallsyms]_text");
	n += rec_synth_trailer(rec + n, attr, -1, 0);
	rec_synth_header(rec, PD_RECORD_MMAP, PD_MISC_KERNEL, n);
	return emit(ctx, rec, attr);
}

static int synth_comm(pid_t pid, pid_t tid, const struct pd_attr *attr,
		      rec_emit_fn emit, void *ctx)
{
	char path[64], comm[32] = "";
	uint8_t rec[REC_MAX];
	int32_t p32 = pid, t32 = tid;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid,
		 (int)tid);
	f = fopen(path, "r");
	if (!f)
		return 0;	/* gone meanwhile */
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	n = 8;
	memcpy(rec + n, &p32, 4);
	memcpy(rec + n + 4, &t32, 4);
	n += 8;
	n += rec_synth_name(rec + n, comm);
	n += rec_synth_trailer(rec + n, attr, pid, tid);
	rec_synth_header(rec, PD_RECORD_COMM, 0, n);
	return emit(ctx, rec, attr);
}

static int synth_maps(pid_t pid, const struct pd_attr *attr, rec_emit_fn emit,
		      void *ctx)
{
	char path[64], line[4096 + 256];
	uint8_t rec[REC_MAX];
	int err = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (!err && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff, ino, zero = 0;
		unsigned int maj, min;
		char perm[8];
		int name_at = 0;
		const char *name;
		uint32_t prot = 0, flags, maj32, min32;
		bool data;
		int32_t p32 = pid;
		size_t n;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start,
			   &end, perm, &pgoff, &maj, &min, &ino, &name_at) < 7)
			continue;
		/* perf records the executable maps, and the others only
		 * for data mmaps (mmap_data) */
		data = perm[2] != 'x';
		if (data && !(attr->flags & PD_ATTR_MMAP_DATA))
			continue;
		name = name_at ? line + name_at : "";
		while (*name == ' ')
			name++;
		if (!*name)
			name = "//anon";
		if (strlen(name) > 4000)
			continue;
		if (perm[0] == 'r')
			prot |= PROT_READ;
		if (perm[1] == 'w')
			prot |= PROT_WRITE;
		if (!data)
			prot |= PROT_EXEC;
		flags = perm[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		maj32 = maj;
		min32 = min;
		n = 8;
		memcpy(rec + n, &p32, 4);
		memcpy(rec + n + 4, &p32, 4);
		memcpy(rec + n + 8, &start, 8);
		end -= start;
		memcpy(rec + n + 16, &end, 8);
		memcpy(rec + n + 24, &pgoff, 8);
		memcpy(rec + n + 32, &maj32, 4);
		memcpy(rec + n + 36, &min32, 4);
		memcpy(rec + n + 40, &ino, 8);
		memcpy(rec + n + 48, &zero, 8);
		memcpy(rec + n + 56, &prot, 4);
		memcpy(rec + n + 60, &flags, 4);
		n += 64;
		n += rec_synth_name(rec + n, name);
		n += rec_synth_trailer(rec + n, attr, pid, pid);
		rec_synth_header(rec, PD_RECORD_MMAP2,
			   PD_MISC_USER | (data ? PD_MISC_MMAP_DATA : 0), n);
		err = emit(ctx, rec, attr);
	}
	fclose(f);
	return err;
}

int rec_synth_process(pid_t pid, const struct pd_attr *attr, rec_emit_fn emit,
		      void *ctx)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return 0;
	while (!err && (d = readdir(dir))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		err = synth_comm(pid, atoi(d->d_name), attr, emit, ctx);
	}
	closedir(dir);
	if (!err)
		err = synth_maps(pid, attr, emit, ctx);
	return err;
}

int rec_synth_all(const struct pd_attr *attr, rec_emit_fn emit, void *ctx)
{
	struct dirent *d;
	DIR *dir = opendir("/proc");
	int err = 0;

	if (!dir)
		return -errno;
	while (!err && (d = readdir(dir))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		err = rec_synth_process(atoi(d->d_name), attr, emit, ctx);
	}
	closedir(dir);
	return err;
}
