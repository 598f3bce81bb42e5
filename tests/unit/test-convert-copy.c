// SPDX-License-Identifier: MIT
/*
 * pd_convert() copies unchanged records from the input file by the
 * kernel and then leaves samples' stack copies unread. A target that
 * rewrites the samples of an event that copies stacks (perf 5.4 has no
 * PERF_SAMPLE_CGROUP) needs those bytes: the copy is then off, and the
 * stacks written are the input's, byte for byte. Without CGROUP every
 * record is copied. Either way the output is the one written with every
 * record through memory (copy_in_memory). Reading ahead, the kernel
 * copies only when asked (kernel_copy).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/compat.h>
#include <perfdata/reader.h>
#include <perfdata/writer.h>

#include "tap.h"

#define STACK	8192		/* a sample past the reader's in-file minimum */
#define NR	20

static uint8_t pattern(unsigned int i, unsigned int k)
{
	return (uint8_t)(i * 31 + k * 7 + 1);
}

/* a file of NR samples with STACK-byte copies (partly filled), and CGROUP */
static int write_input(const char *path, bool cgroup)
{
	struct pd_writer_opts wo = { .sz = sizeof(wo), .mode = PD_MODE_FILE };
	struct pd_attr a = {
		.type = PD_TYPE_SOFTWARE, .sample_period = 1,
		.sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME |
			       PD_SAMPLE_STACK_USER |
			       (cgroup ? PD_SAMPLE_CGROUP : 0),
		.flags = PD_ATTR_SAMPLE_ID_ALL,
		.sample_stack_user = STACK,
	};
	static uint64_t rec[(STACK + 128) / 8];
	uint64_t id = 3;
	struct pd_writer *w;
	unsigned int i, k;
	uint8_t *stack;
	size_t n;
	int err;

	w = pd_writer__open(path, &wo);
	if (!w)
		return -1;
	err = pd_writer__add_evsel(w, &a, PD_ATTR_SIZE_VER5, &id, 1);
	for (i = 0; !err && i < NR; i++) {
		n = 1;
		rec[n++] = 0x401000 + i;
		rec[n++] = 42 | (42ULL << 32);
		rec[n++] = 1000 + i;
		rec[n++] = STACK;
		stack = (uint8_t *)&rec[n];
		for (k = 0; k < STACK; k++)
			stack[k] = pattern(i, k);
		n += STACK / 8;
		rec[n++] = 512 + 8 * i;	/* dyn_size */
		if (cgroup)
			rec[n++] = 77;
		rec[0] = PD_RECORD_SAMPLE | ((uint64_t)PD_MISC_USER << 32) |
			 ((uint64_t)(n * 8) << 48);
		err = pd_writer__write(w, rec, &a);
	}
	if (!err)
		err = pd_writer__finish(w);
	pd_writer__free(w);
	return err ? -1 : 0;
}

/* how: 'm' through memory, 'k' the default (no read-ahead: the kernel's
 * copy), 'a' read ahead (memory), 'K' read ahead and kernel_copy */
static int convert(const char *in, const char *out, const char *target,
		   char how, struct pd_convert_report *rep)
{
	struct pd_reader_opts ro = { .sz = sizeof(ro) };
	struct pd_convert_opts co = { .sz = sizeof(co), .mode = -1 };
	struct pd_reader *r = pd_reader__open(in, &ro);
	char why[256];
	int err;

	if (!r)
		return -1;
	co.target = pd_perf_target__find(target);
	co.copy_in_memory = how == 'm';
	co.read_ahead = how == 'a' || how == 'K';
	co.kernel_copy = how == 'K';
	err = pd_convert(r, out, &co, rep, why, sizeof(why));
	if (err)
		printf("# %s\n", why);
	pd_reader__close(r);
	return err;
}

/* every sample's stack copy in path is the pattern, whole: NR, or -1 */
static int stacks_kept(const char *path)
{
	struct pd_reader_opts ro = { .sz = sizeof(ro) };
	struct pd_reader *r = pd_reader__open(path, &ro);
	const struct pd_event *ev;
	const uint8_t *s;
	unsigned int i = 0, k;
	int bad = 0;

	if (!r)
		return -1;
	while (pd_reader__next(r, &ev) > 0) {
		if (ev->type != PD_RECORD_SAMPLE)
			continue;
		s = ev->u.sample.user_stack.data;
		if (ev->u.sample.user_stack.size != STACK || !s)
			bad = 1;
		for (k = 0; !bad && k < STACK; k++)
			if (s[k] != pattern(i, k))
				bad = 1;
		i++;
	}
	pd_reader__close(r);
	return bad ? -1 : (int)i;
}

static bool same_file(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	bool same = fa && fb;
	int ca, cb;

	while (same) {
		ca = getc(fa);
		cb = getc(fb);
		same = ca == cb;
		if (ca == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

static void check_target(const char *in, const char *target, bool cgroup)
{
	char k[] = "/tmp/test-convert-copy-k.XXXXXX";
	char m[] = "/tmp/test-convert-copy-m.XXXXXX";
	struct pd_convert_report rk, rm;
	int fk = mkstemp(k), fm = mkstemp(m);

	if (fk < 0 || fm < 0) {
		CHECK(0, "%s: temporary files", target);
		return;
	}
	close(fk);
	close(fm);
	CHECK(!convert(in, k, target, 'k', &rk) &&
	      !convert(in, m, target, 'm', &rm),
	      "%s, CGROUP %s: converted both ways", target, cgroup ? "on" : "off");
	CHECK(same_file(k, m), "%s, CGROUP %s: the same bytes copied and through memory",
	      target, cgroup ? "on" : "off");
	CHECK(stacks_kept(k) == NR,
	      "%s, CGROUP %s: every stack copy written whole, the input's bytes",
	      target, cgroup ? "on" : "off");
	CHECK(rm.records_copied == 0, "%s: none copied through memory (%llu)",
	      target, (unsigned long long)rm.records_copied);
	if (cgroup && strcmp(target, "newest"))
		CHECK(rk.samples_out == NR && rk.records_copied == 0,
		      "%s: its samples rewritten (no CGROUP), none copied: the stacks are read (%llu copied)",
		      target, (unsigned long long)rk.records_copied);
	else
		CHECK(rk.records_copied == rk.records_out && rk.records_out >= NR,
		      "%s, CGROUP %s: every record copied (%llu of %llu)",
		      target, cgroup ? "on" : "off",
		      (unsigned long long)rk.records_copied,
		      (unsigned long long)rk.records_out);
	unlink(k);
	unlink(m);
}

/* read ahead: the kernel's copy only when asked (kernel_copy) */
static void check_read_ahead(const char *in)
{
	char a[] = "/tmp/test-convert-copy-a.XXXXXX";
	char k[] = "/tmp/test-convert-copy-K.XXXXXX";
	struct pd_convert_report ra, rk;
	int fa = mkstemp(a), fk = mkstemp(k);

	if (fa < 0 || fk < 0) {
		CHECK(0, "read ahead: temporary files");
		return;
	}
	close(fa);
	close(fk);
	CHECK(!convert(in, a, "newest", 'a', &ra) &&
	      !convert(in, k, "newest", 'K', &rk),
	      "read ahead: converted with and without kernel_copy");
	CHECK(ra.records_copied == 0 && rk.records_copied == rk.records_out &&
	      rk.records_out >= NR,
	      "read ahead: nothing copied by default, every record with kernel_copy (%llu, %llu of %llu)",
	      (unsigned long long)ra.records_copied,
	      (unsigned long long)rk.records_copied,
	      (unsigned long long)rk.records_out);
	CHECK(same_file(a, k) && stacks_kept(k) == NR,
	      "read ahead: the same bytes both ways, the stacks the input's");
	unlink(a);
	unlink(k);
}

int main(void)
{
	char in[] = "/tmp/test-convert-copy-in.XXXXXX";
	int fd = mkstemp(in);
	bool cgroup;

	if (fd < 0) {
		CHECK(0, "a temporary file");
		return tap_done();
	}
	close(fd);
	for (cgroup = false; ; cgroup = true) {
		CHECK(!write_input(in, cgroup), "input written (CGROUP %s)",
		      cgroup ? "on" : "off");
		CHECK(stacks_kept(in) == NR, "the input's stacks read back");
		check_target(in, "newest", cgroup);
		check_target(in, "5.4", cgroup);
		if (!cgroup)
			check_read_ahead(in);
		if (cgroup)
			break;
	}
	unlink(in);
	return tap_done();
}
