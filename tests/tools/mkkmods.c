// SPDX-License-Identifier: MIT
/*
 * mkkmods [-B] OUT KALLSYMS MODULE...: a system-wide profile whose kernel and
 * module maps are MMAP2 records, as perf 5.12 and later write them with
 * `perf record --buildid-mmap` (perf 7.x: by default), and a kallsyms
 * that names their functions.
 *
 * perf synthesizes those maps at the start of a recording
 * (perf_event__synthesize_kernel_mmap() and perf_event__synthesize_modules()
 * in tools/perf/util/synthetic-events.c): pid -1 (the host machine's),
 * tid 0, misc KERNEL with MMAP_BUILD_ID when it read the build id, a
 * sample_id trailer of zeros. The kernel's is "[kernel.kallsyms]_text"
 * with pgoff the address of _text; a module's is its DSO's long name:
 * the .ko's path when perf found /lib/modules/$(uname -r), else the
 * "[name]" of /proc/modules; pgoff 0.
 *
 * Each MODULE is such a name, mapped at 0xffffffffc0000000 + i MB
 * (64 KB); its function "<kmod>_pd_fn" (kmod: the module's name as
 * /proc/modules gives it, "-" made "_") is at +0x1000, 4 samples in it.
 * The kernel is at 0xffffffff81000000 (32 MB), its function pd_kernel_fn
 * at +0x1000, 2 samples in it, written first (a reader loading kallsyms
 * for the kernel first hands the modules their symbols). Samples are of
 * pid/tid 4242 ("pd-kmods"), cpu-clock, cpu 0.
 *
 * Build ids: the kernel's 0xaa..., module i's (0x11 + i)...; with -B
 * the modules have none (perf could not read them): misc KERNEL alone,
 * dev/inode zero.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/format.h>
#include <perfdata/writer.h>

#define KERNEL_START	0xffffffff81000000ULL
#define KERNEL_LEN	0x2000000ULL
#define MODULE_BASE	0xffffffffc0000000ULL
#define MODULE_LEN	0x10000ULL
#define FN_OFF		0x1000ULL
#define PID		4242

static const struct pd_attr attr = {
	.type = PD_TYPE_SOFTWARE,
	.config = 0,			/* PERF_COUNT_SW_CPU_CLOCK */
	.sample_period = 250000,
	.sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME |
		       PD_SAMPLE_CPU | PD_SAMPLE_PERIOD,
	.flags = PD_ATTR_SAMPLE_ID_ALL | PD_ATTR_DISABLED |
		 PD_ATTR_COMM | PD_ATTR_MMAP | PD_ATTR_MMAP2,
};

/* the sample_id trailer: pid, tid, time, cpu, res */
#define TRAILER	24

static void put_header(uint8_t *b, uint32_t type, uint16_t misc, size_t size)
{
	uint16_t s = (uint16_t)size;

	memcpy(b, &type, 4);
	memcpy(b + 4, &misc, 2);
	memcpy(b + 6, &s, 2);
}

static void put_trailer(uint8_t *b, uint64_t time)
{
	uint32_t pid = PID;

	memset(b, 0, TRAILER);
	memcpy(b, &pid, 4);
	memcpy(b + 4, &pid, 4);
	memcpy(b + 8, &time, 8);
}

/* A synthesized kernel-mode MMAP2 with a build id of 20 bytes id (0: none). */
static int put_kmap(struct pd_writer *w, const char *name, uint64_t start,
		    uint64_t len, uint64_t pgoff, uint8_t id)
{
	uint16_t misc = PD_MISC_KERNEL | (id ? PD_MISC_MMAP_BUILD_ID : 0);
	uint8_t b[8 + 64 + 4096 + TRAILER] = { 0 };
	uint32_t pid = (uint32_t)-1, prot = 0, flags = 0;
	size_t n = strlen(name) + 1, size;

	if (n > 4096)
		return -1;
	size = 72 + ((n + 7) & ~(size_t)7);
	memcpy(b + 8, &pid, 4);
	/* tid 0 */
	memcpy(b + 16, &start, 8);
	memcpy(b + 24, &len, 8);
	memcpy(b + 32, &pgoff, 8);
	if (id) {
		b[40] = 20;
		memset(b + 44, id, 20);
	}
	memcpy(b + 64, &prot, 4);
	memcpy(b + 68, &flags, 4);
	memcpy(b + 72, name, n);
	size += TRAILER;		/* zeros, as perf synthesizes it */
	put_header(b, PD_RECORD_MMAP2, misc, size);
	return pd_writer__write(w, b, &attr);
}

static int put_comm(struct pd_writer *w)
{
	uint8_t b[8 + 8 + 16 + TRAILER] = { 0 };
	uint32_t pid = PID;

	put_header(b, PD_RECORD_COMM, 0, sizeof(b));
	memcpy(b + 8, &pid, 4);
	memcpy(b + 12, &pid, 4);
	memcpy(b + 16, "pd-kmods", 8);
	put_trailer(b + 32, 1000);
	return pd_writer__write(w, b, &attr);
}

static int put_sample(struct pd_writer *w, uint64_t ip, uint64_t time)
{
	uint8_t b[8 + 40] = { 0 };
	uint64_t period = attr.sample_period;
	uint32_t pid = PID;

	put_header(b, PD_RECORD_SAMPLE, PD_MISC_KERNEL, sizeof(b));
	memcpy(b + 8, &ip, 8);
	memcpy(b + 16, &pid, 4);
	memcpy(b + 20, &pid, 4);
	memcpy(b + 24, &time, 8);
	/* cpu 0, res 0 */
	memcpy(b + 40, &period, 8);
	return pd_writer__write(w, b, &attr);
}

/* A string feature as perf writes one: u32 length (64-aligned), string. */
static int put_string_feature(struct pd_writer *w, unsigned int feat,
			      const char *s)
{
	uint8_t b[4 + 128] = { 0 };
	uint32_t len = 64 * ((uint32_t)(strlen(s) + 1 + 63) / 64);

	if (len > 128)
		return -1;
	memcpy(b, &len, 4);
	memcpy(b + 4, s, strlen(s));
	return pd_writer__set_feature(w, feat, b, 4 + len);
}

/* "[ext4]" of ".../ext4.ko", ".../snd-hda-intel.ko.xz" or "[ext4]" */
static void kmod_name(const char *map, char *out, size_t len)
{
	const char *base = strrchr(map, '/'), *ko;
	size_t n;
	char *p;

	if (map[0] == '[') {
		snprintf(out, len, "%s", map);
		return;
	}
	base = base ? base + 1 : map;
	ko = strstr(base, ".ko");
	n = ko ? (size_t)(ko - base) : strlen(base);
	snprintf(out, len, "[%.*s]", (int)n, base);
	for (p = out; *p; p++)
		if (*p == '-')
			*p = '_';
}

int main(int argc, char **argv)
{
	struct pd_writer_opts o = { .sz = sizeof(o), .mode = PD_MODE_FILE };
	static const uint32_t nrcpus[2] = { 1, 1 };
	uint64_t id = 1, time = 2000;
	struct pd_writer *w;
	char kmod[256];
	FILE *ks;
	int i, k, err, no_bid = 0;

	if (argc > 1 && !strcmp(argv[1], "-B")) {
		no_bid = 1;
		argv++;
		argc--;
	}
	if (argc < 4) {
		fprintf(stderr, "usage: mkkmods [-B] OUT KALLSYMS MODULE...\n");
		return 2;
	}
	ks = fopen(argv[2], "w");
	w = pd_writer__open(argv[1], &o);
	if (!ks || !w) {
		fprintf(stderr, "mkkmods: cannot write %s or %s\n", argv[1], argv[2]);
		return 1;
	}
	err = pd_writer__add_evsel(w, &attr, PD_ATTR_SIZE_VER5, &id, 1);
	if (!err)
		err = pd_writer__set_feature(w, PD_FEAT_NRCPUS, nrcpus, sizeof(nrcpus));
	if (!err)
		err = put_string_feature(w, PD_FEAT_ARCH, "x86_64");
	if (!err)
		err = put_string_feature(w, PD_FEAT_OSRELEASE, "6.1.0-pd-amd64");
	if (!err)
		err = put_comm(w);
	if (!err)
		err = put_kmap(w, "[kernel.kallsyms]_text", KERNEL_START,
			       KERNEL_LEN, KERNEL_START, 0xaa);
	fprintf(ks, "%016llx T _text\n%016llx T _stext\n%016llx t pd_kernel_fn\n"
		"%016llx T _etext\n",
		(unsigned long long)KERNEL_START, (unsigned long long)KERNEL_START,
		(unsigned long long)(KERNEL_START + FN_OFF),
		(unsigned long long)(KERNEL_START + KERNEL_LEN - 0x1000));
	for (i = 3; !err && i < argc; i++) {
		uint64_t start = MODULE_BASE + (uint64_t)(i - 3) * 0x100000;

		err = put_kmap(w, argv[i], start, MODULE_LEN, 0,
			       no_bid ? 0 : (uint8_t)(0x11 + i - 3));
		kmod_name(argv[i], kmod, sizeof(kmod));
		fprintf(ks, "%016llx t %.*s_pd_fn\t%s\n",
			(unsigned long long)(start + FN_OFF),
			(int)strlen(kmod) - 2, kmod + 1, kmod);
	}
	for (k = 0; !err && k < 2; k++, time += 1000)
		err = put_sample(w, KERNEL_START + FN_OFF + 0x10, time);
	for (i = 3; !err && i < argc; i++) {
		uint64_t start = MODULE_BASE + (uint64_t)(i - 3) * 0x100000;

		for (k = 0; !err && k < 4; k++, time += 1000)
			err = put_sample(w, start + FN_OFF + 0x10, time);
	}
	if (!err)
		err = pd_writer__finish(w);
	pd_writer__free(w);
	if (fclose(ks) || err) {
		fprintf(stderr, "mkkmods: writing %s failed (%d)\n", argv[1], err);
		return 1;
	}
	return 0;
}
