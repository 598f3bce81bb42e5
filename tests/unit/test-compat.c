// SPDX-License-Identifier: MIT
/*
 * The table of what each perf version understands (compat/targets.c):
 * lookup, order, and the facts read off perf's code of each version.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/compat.h>
#include <perfdata/features.h>
#include <perfdata/format.h>
#include <perfdata/reader.h>
#include <perfdata/writer.h>

#include "../../compat/attr-bits.h"
#include "../../compat/build-ids.h"
#include "tap.h"

static const struct pd_perf_target *T(const char *name)
{
	return pd_perf_target__find(name);
}

static int subset(uint64_t a, uint64_t b)
{
	return (a & ~b) == 0;
}

/* Is upstream u no more permissive than the RHEL build r of its base? */
static void check_not_looser(const char *u_name, const char *r_name)
{
	const struct pd_perf_target *u = T(u_name), *r = T(r_name);

	if (!u || !r) {
		CHECK(0, "%s and %s exist", u_name, r_name);
		return;
	}
	CHECK(u->attr_size_max <= r->attr_size_max &&
	      subset(u->sample_type, r->sample_type) &&
	      subset(u->read_format, r->read_format) &&
	      subset(u->branch_sample_type, r->branch_sample_type) &&
	      subset(u->kernel_records, r->kernel_records) &&
	      u->user_record_max <= r->user_record_max &&
	      u->last_feature <= r->last_feature,
	      "%s reads nothing %s does not", u_name, r_name);
}


/* resolve(spec): 0 and the result, or the error */
static int R(const char *spec, struct pd_perf_resolved *r)
{
	memset(r, 0xa5, sizeof(*r));
	r->sz = sizeof(*r);
	return pd_perf_target__resolve(spec, r);
}

static void check_resolved(const char *spec, const char *base,
			   enum pd_target_how how, const char *name)
{
	struct pd_perf_resolved r;
	int err = R(spec, &r);

	CHECK(!err && r.base && !strcmp(r.base->name, base) && r.how == how &&
	      !strcmp(r.target.name, name) && r.target.name == r.name &&
	      r.note[0],
	      "resolve(\"%s\"): %s facts, named %s (%s, %s, %s)", spec, base,
	      name, err ? "error" : "ok", r.base ? r.base->name : "-",
	      err ? r.note : r.target.name);
}

/* Version and distribution names: pd_perf_target__resolve(). */
static void check_resolve(void)
{
	const struct pd_perf_distro *const *d = pd_perf_distros();
	struct pd_perf_resolved r;
	int i, ok = 1, n = 0;

	check_resolved("5.10", "5.10", PD_TARGET_NAMED, "5.10");
	check_resolved("5.15", "5.14", PD_TARGET_OLDER, "5.15");
	check_resolved("4.19", "4.18", PD_TARGET_OLDER, "4.19");
	check_resolved("5.10.223", "5.10", PD_TARGET_VERSION, "5.10.223");
	check_resolved("perf version 5.10.223", "5.10", PD_TARGET_VERSION,
		       "5.10.223");
	check_resolved("  perf version 6.1.187\t", "6.1", PD_TARGET_VERSION,
		       "6.1.187");
	check_resolved("6.12", "6.8", PD_TARGET_OLDER, "6.12");
	check_resolved("7.2", "6.16", PD_TARGET_NEWER, "7.2");
	check_resolved("6.16.3", "6.16", PD_TARGET_VERSION, "6.16.3");
	check_resolved("perf version 4.18.0-553.el8_10.x86_64", "rhel8",
		       PD_TARGET_DISTRO, "rhel8");
	check_resolved("perf version 3.10.0-1160.el7.x86_64", "rhel7",
		       PD_TARGET_DISTRO, "rhel7");
	check_resolved("5.14.0-427.13.1.el9_4.x86_64", "rhel9",
		       PD_TARGET_DISTRO, "rhel9");
	check_resolved("3.10", "3.10", PD_TARGET_NAMED, "3.10");
	check_resolved("3.10.0", "3.10", PD_TARGET_VERSION, "3.10.0");
	check_resolved("debian11", "5.10", PD_TARGET_DISTRO, "debian11");
	check_resolved("Debian 11", "5.10", PD_TARGET_DISTRO, "debian11");
	check_resolved("bullseye", "5.10", PD_TARGET_DISTRO, "debian11");
	check_resolved("debian10", "4.18", PD_TARGET_DISTRO, "debian10");
	check_resolved("debian12", "6.1", PD_TARGET_DISTRO, "debian12");
	check_resolved("debian13", "6.8", PD_TARGET_DISTRO, "debian13");
	check_resolved("ubuntu18.04", "4.15", PD_TARGET_DISTRO, "ubuntu18.04");
	check_resolved("ubuntu20.04", "5.4", PD_TARGET_DISTRO, "ubuntu20.04");
	check_resolved("ubuntu22.04", "5.14", PD_TARGET_DISTRO, "ubuntu22.04");
	check_resolved("ubuntu-24.04", "6.8", PD_TARGET_DISTRO, "ubuntu24.04");
	check_resolved("rhel7", "rhel7", PD_TARGET_DISTRO, "rhel7");
	check_resolved("centos7", "rhel7", PD_TARGET_DISTRO, "rhel7");
	check_resolved("centos8", "rhel8", PD_TARGET_DISTRO, "rhel8");
	check_resolved("alma9", "rhel9", PD_TARGET_DISTRO, "rhel9");
	check_resolved("rocky9", "rhel9", PD_TARGET_DISTRO, "rhel9");
	check_resolved("ol8", "rhel8", PD_TARGET_DISTRO, "rhel8");
	check_resolved("newest", "6.16", PD_TARGET_NAMED, "6.16");

	CHECK(!R("7.2", &r) && strstr(r.note, "newer") && strstr(r.note, "6.16"),
	      "7.2: the note names the newest known perf (%s)", r.note);
	CHECK(!R("debian11", &r) && (r.target.flags & PD_TGT_NO_ZSTD) &&
	      !(r.base->flags & PD_TGT_NO_ZSTD) &&
	      r.target.attr_size_max == 120 && strstr(r.target.description, "zstd"),
	      "debian11: 5.10's facts, built without zstd (%s)",
	      r.target.description);
	CHECK(!R("debian12", &r) && (r.target.flags & PD_TGT_ZSTD),
	      "debian12: built with zstd");
	CHECK(!R("5.10", &r) && !(r.target.flags & (PD_TGT_ZSTD | PD_TGT_NO_ZSTD)),
	      "a bare version says nothing of the build");
	CHECK(!R("perf version 4.18.0-553.el8_10.x86_64", &r) &&
	      r.version == PD_PERF_VERSION(4, 18) && r.patch == 0 && r.distro,
	      "an .el8 suffix: RHEL 8's perf, version 4.18 kept");
	CHECK(R("2.6.32", &r) == -ENOENT && strstr(r.note, "older"),
	      "2.6.32: older than any target, refused (%s)", r.note);
	CHECK(R("nope", &r) == -ENOENT && r.note[0],
	      "nope: refused with a reason");
	CHECK(R("5", &r) == -ENOENT && R("5.x", &r) == -ENOENT &&
	      R("debian99", &r) == -ENOENT && R("", &r) == -ENOENT,
	      "5, 5.x, debian99 and the empty string are refused");
	CHECK(pd_perf_target__resolve(NULL, &r) == -EINVAL, "NULL spec: EINVAL");

	/* a caller built before the note fields: nothing past its size */
	{
		struct pd_perf_resolved small;
		size_t cut = offsetof(struct pd_perf_resolved, name);

		memset(&small, 0x5a, sizeof(small));
		small.sz = cut;
		CHECK(!pd_perf_target__resolve("debian11", &small) &&
		      small.sz == cut && small.name[0] == 0x5a &&
		      !strcmp(small.target.name, "5.10"),
		      "a smaller struct: filled up to its size, table names");
	}

	for (i = 0; d[i]; i++, n++) {
		const struct pd_perf_distro *x = d[i];

		if (!pd_perf_target__find(x->target) || !x->description ||
		    !x->package || !x->perf_version || !x->build_note ||
		    !x->aliases || pd_perf_distro__find(x->name) != x ||
		    (x->build & ~(PD_TGT_ZSTD | PD_TGT_NO_ZSTD)) ||
		    x->build == (PD_TGT_ZSTD | PD_TGT_NO_ZSTD))
			ok = 0;
		/* compression only matters where the target reads it */
		if (x->build && !pd_perf_target__knows_record(
				pd_perf_target__find(x->target), PD_RECORD_COMPRESSED))
			ok = 0;
	}
	CHECK(ok && n == 11, "11 distributions, each with a target, package, build note");
}

/* One BUILD_ID entry as perf writes it: header, pid, 24 id bytes, name. */
static size_t bid_entry(uint8_t *p, uint16_t misc, int32_t pid, uint8_t id,
			const char *name)
{
	uint16_t size = 36 + 64;

	memset(p, 0, size);
	memcpy(p + 4, &misc, 2);
	memcpy(p + 6, &size, 2);
	memcpy(p + 8, &pid, 4);
	memset(p + 12, id, 20);
	p[32] = 20;
	strcpy((char *)p + 36, name);
	return size;
}

static int32_t bid_pid(const uint8_t *p)
{
	int32_t pid;

	memcpy(&pid, p + 8, 4);
	return pid;
}

static uint16_t bid_misc(const uint8_t *p)
{
	uint16_t misc;

	memcpy(&misc, p + 4, 2);
	return misc;
}

/* The attr-bits and build-id-pid shims' rules (compat/attr-bits.c,
 * compat/build-ids.c). */
static void check_shim_rules(void)
{
	struct pd_attr a = { 0 };
	struct pd_attr_bits rm = { 0 };
	uint8_t sec[6 * 100];
	uint64_t ch = 0, dr = 0;
	size_t n = 0, size;

	/* a perf 7.x attr for 5.10 */
	a.flags = PD_ATTR_DISABLED | PD_ATTR_MMAP2 | PD_ATTR_TEXT_POKE |
		  PD_ATTR_BUILD_ID | PD_ATTR_SIGTRAP;
	a.read_format = PD_FORMAT_ID | PD_FORMAT_LOST;
	a.sample_type = PD_SAMPLE_IP | PD_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = 1 | PD_BRANCH_HW_INDEX | (1ULL << 18) |
			       PD_BRANCH_COUNTERS;
	a.aux_action = 1;
	a.reserved_2 = 5;
	CHECK(pd__attr_bits_fit(T("5.10"), &a, &rm) &&
	      a.flags == (PD_ATTR_DISABLED | PD_ATTR_MMAP2 | PD_ATTR_TEXT_POKE) &&
	      rm.flags == (PD_ATTR_BUILD_ID | PD_ATTR_SIGTRAP),
	      "attr-bits for 5.10: build_id and sigtrap go, text_poke stays");
	CHECK(a.read_format == PD_FORMAT_ID && rm.read_format == PD_FORMAT_LOST,
	      "attr-bits: read_format LOST goes when no sample reads it");
	CHECK(a.branch_sample_type == (1 | PD_BRANCH_HW_INDEX | PD_BRANCH_COUNTERS) &&
	      rm.branch == 1ULL << 18,
	      "attr-bits: PRIV_SAVE goes; hw_idx and counters, which lay out samples, are the sample-type shim's");
	CHECK(!a.aux_action && !a.reserved_2 && rm.aux_action == 1 && rm.reserved_2 == 5,
	      "attr-bits: aux_action and reserved bytes cleared for 5.10");
	memset(&rm, 0, sizeof(rm));
	a.read_format = PD_FORMAT_LOST;
	a.sample_type |= PD_SAMPLE_READ;
	pd__attr_bits_fit(T("5.10"), &a, &rm);
	CHECK(a.read_format == PD_FORMAT_LOST && !rm.read_format,
	      "attr-bits: a sampled read_format is left to the sample-type shim");
	{
		struct pd_perf_target z = *T("5.10");

		z.attr_flags = z.branch_filter = 0;
		a.flags = PD_ATTR_BUILD_ID | PD_ATTR_DISABLED;
		a.branch_sample_type = 1ULL << 18;
		CHECK(!pd__attr_bits_fit(&z, &a, &rm) &&
		      a.flags == (PD_ATTR_BUILD_ID | PD_ATTR_DISABLED) &&
		      a.branch_sample_type == 1ULL << 18,
		      "attr-bits: a target stating no attr bits (0) keeps them all");
	}
	a.flags = PD_ATTR_BUILD_ID;
	a.aux_action = 7;
	CHECK(!pd__attr_bits_fit(T("6.16"), &a, &rm) && a.aux_action == 7,
	      "attr-bits for 6.16: build_id and aux_action known, nothing changes");

	/* a perf 7.x table: two processes' entries for one DSO, a kernel
	 * one, a guest one */
	n += bid_entry(sec + n, PD_MISC_USER | PD_MISC_BUILD_ID_SIZE, 4242, 1, "/bin/burn");
	n += bid_entry(sec + n, PD_MISC_USER | PD_MISC_BUILD_ID_SIZE, 4243, 1, "/bin/burn");
	n += bid_entry(sec + n, PD_MISC_KERNEL | PD_MISC_BUILD_ID_SIZE, 0, 2, "[kernel.kallsyms]");
	n += bid_entry(sec + n, PD_MISC_GUEST_USER | PD_MISC_BUILD_ID_SIZE, 7, 3, "/guest/bin");
	size = pd__build_ids_fit(T("5.10"), sec, n, &ch, &dr);
	CHECK(size == 3 * 100 && ch == 3 && dr == 1,
	      "build-id-pid: 3 entries moved to the host, the duplicate dropped (%zu bytes, %llu, %llu)",
	      size, (unsigned long long)ch, (unsigned long long)dr);
	CHECK(bid_pid(sec) == -1 && bid_pid(sec + 100) == -1 &&
	      bid_pid(sec + 200) == 7,
	      "build-id-pid: user and kernel entries under -1, the guest's kept");
	CHECK((bid_misc(sec) & PD_MISC_BUILD_ID_SIZE) &&
	      !strcmp((const char *)sec + 136, "[kernel.kallsyms]"),
	      "build-id-pid for 5.10: the build-id size flag stays (5.10 reads it)");
	n = bid_entry(sec, PD_MISC_USER | PD_MISC_BUILD_ID_SIZE, 4242, 1, "/bin/burn");
	ch = dr = 0;
	pd__build_ids_fit(T("4.18"), sec, n, &ch, &dr);
	CHECK(bid_pid(sec) == -1 && bid_misc(sec) == PD_MISC_USER,
	      "build-id-pid for 4.18: the size flag cleared (a misc bit it does not know)");
	CHECK(pd__build_id_pid(NULL, PD_MISC_USER, 99) == -1 &&
	      pd__build_id_pid(NULL, PD_MISC_GUEST_KERNEL, 99) == 99,
	      "no target: the host's pid for host entries, as perf up to 6.17 writes");
	n = bid_entry(sec, PD_MISC_USER, 1, 1, "/x");
	memcpy(sec + n, "\x01\x02", 2);
	ch = dr = 0;
	size = pd__build_ids_fit(T("5.10"), sec, n + 2, &ch, &dr);
	CHECK(size == n + 2 && ch == 1 && !memcmp(sec + n, "\x01\x02", 2),
	      "build-id-pid: a malformed tail is kept as it is");
}

/*
 * An MMAP2 as perf 7.x writes them, with a build id: misc cpumode |
 * MMAP_BUILD_ID, no sample_id trailer (the attr has no sample_id_all).
 */
static int put_mmap2(struct pd_writer *w, const struct pd_attr *a,
		     uint16_t cpumode, int32_t pid, uint64_t start,
		     uint8_t id, const char *name)
{
	uint8_t b[8 + 64 + 64] = { 0 };	/* a name of up to 63 bytes */
	uint32_t type = PD_RECORD_MMAP2, p = (uint32_t)pid;
	uint16_t misc = cpumode | PD_MISC_MMAP_BUILD_ID, size = sizeof(b);
	uint64_t len = 0x100000;

	memcpy(b, &type, 4);
	memcpy(b + 4, &misc, 2);
	memcpy(b + 6, &size, 2);
	memcpy(b + 8, &p, 4);
	memcpy(b + 12, &p, 4);
	memcpy(b + 16, &start, 8);
	memcpy(b + 24, &len, 8);
	memcpy(b + 32, &start, 8);	/* pgoff: the kernel's _text */
	b[40] = 20;
	memset(b + 44, id, 20);
	memcpy(b + 72, name, strlen(name));
	return pd_writer__write(w, b, a);
}

/* Converted for target: the records' types in order, the names of the
 * BUILD_ID table's kernel entries (","-separated); -1 if the conversion
 * failed. */
static int convert_mmaps(const char *in, const char *target, uint64_t shims_remove,
			 uint32_t *types, const char **kernel_bid_name)
{
	char out[] = "/tmp/test-compat-out.XXXXXX", err[256];
	struct pd_convert_opts o = {
		.sz = sizeof(o), .target = T(target), .mode = -1,
		.shims_remove = shims_remove,
	};
	struct pd_convert_report rep;
	const struct pd_features *f;
	const struct pd_event *ev;
	struct pd_reader *r;
	int fd = mkstemp(out), n = 0;
	size_t i;
	static char name[256];

	if (fd < 0)
		return -1;
	close(fd);
	r = pd_reader__open(in, NULL);
	if (!r || pd_convert(r, out, &o, &rep, err, sizeof(err))) {
		pd_reader__close(r);
		unlink(out);
		return -1;
	}
	pd_reader__close(r);
	r = pd_reader__open(out, NULL);
	while (r && pd_reader__next(r, &ev) > 0 && n < 8)
		types[n++] = ev->type;
	*kernel_bid_name = NULL;
	name[0] = '\0';
	f = r ? pd_reader__features(r) : NULL;
	for (i = 0; f && i < f->build_ids.nr; i++)
		if ((f->build_ids.ids[i].misc & PD_MISC_CPUMODE_MASK) == PD_MISC_KERNEL &&
		    f->build_ids.ids[i].filename) {
			size_t l = strlen(name);

			snprintf(name + l, sizeof(name) - l, "%s%s", l ? "," : "",
				 f->build_ids.ids[i].filename);
			*kernel_bid_name = name;
		}
	pd_reader__close(r);
	unlink(out);
	return n;
}

/*
 * kernel-mmap2: perf 7.x's kernel map is an MMAP2, and so are the
 * modules' with --buildid-mmap (5.12+), which perf before 5.11 takes
 * for no map; they become MMAPs for those (their build ids in the
 * BUILD_ID table, the kernel's under the kernel DSO's name, a module's
 * under its map's), user-space MMAP2s stay MMAP2s for any target that
 * reads them.
 */
#define KMOD	"/lib/modules/6.1.0-pd/kernel/fs/ext4/ext4.ko"

static void check_kernel_mmap2(void)
{
	char in[] = "/tmp/test-compat-in.XXXXXX";
	struct pd_writer_opts wo = { .sz = sizeof(wo), .mode = PD_MODE_FILE };
	struct pd_attr a = {
		.type = PD_TYPE_SOFTWARE, .sample_period = 1,
		.sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID,
		.flags = PD_ATTR_MMAP | PD_ATTR_MMAP2,
	};
	uint64_t id = 1;
	uint32_t types[8] = { 0 };
	const char *kname;
	struct pd_writer *w;
	int fd = mkstemp(in), n, ok;

	if (fd < 0) {
		CHECK(0, "kernel-mmap2: a temporary file");
		return;
	}
	close(fd);
	w = pd_writer__open(in, &wo);
	ok = w && !pd_writer__add_evsel(w, &a, PD_ATTR_SIZE_VER5, &id, 1) &&
	     !put_mmap2(w, &a, PD_MISC_KERNEL, -1, 0xffffffff81000000ULL, 0xaa,
			"[kernel.kallsyms]_text") &&
	     !put_mmap2(w, &a, PD_MISC_KERNEL, -1, 0xffffffffc0000000ULL, 0xcc, KMOD) &&
	     !put_mmap2(w, &a, PD_MISC_USER, 42, 0x400000, 0xbb, "/bin/burn") &&
	     !pd_writer__finish(w);
	pd_writer__free(w);
	CHECK(ok, "kernel-mmap2: the input is written");

	n = convert_mmaps(in, "5.10", 0, types, &kname);
	CHECK(n == 3 && types[0] == PD_RECORD_MMAP && types[1] == PD_RECORD_MMAP &&
	      types[2] == PD_RECORD_MMAP2,
	      "kernel-mmap2 for 5.10: the kernel's and the module's MMAP2 MMAPs, burn's kept (%d: %u %u %u)",
	      n, types[0], types[1], types[2]);
	CHECK(kname && !strcmp(kname, "[kernel.kallsyms]," KMOD),
	      "kernel-mmap2 for 5.10: the kernel's build id under [kernel.kallsyms], the module's under its path (%s)",
	      kname ? kname : "none");
	n = convert_mmaps(in, "5.10", 1ULL << PD_SHIM_KERNEL_MMAP2, types, &kname);
	CHECK(n == 3 && types[0] == PD_RECORD_MMAP2 && types[1] == PD_RECORD_MMAP2,
	      "--no-shim=kernel-mmap2: the kernel's and the module's MMAP2 kept");
	n = convert_mmaps(in, "6.1", 0, types, &kname);
	CHECK(n == 3 && types[0] == PD_RECORD_MMAP2 && types[1] == PD_RECORD_MMAP2 &&
	      types[2] == PD_RECORD_MMAP2,
	      "kernel-mmap2 for 6.1: off, the MMAP2s kept");
	n = convert_mmaps(in, "3.10", 0, types, &kname);
	CHECK(n == 3 && types[0] == PD_RECORD_MMAP && types[1] == PD_RECORD_MMAP &&
	      types[2] == PD_RECORD_MMAP &&
	      kname && !strcmp(kname, "[kernel.kallsyms]," KMOD),
	      "3.10 (no MMAP2 at all): all MMAPs, the build ids kept in the table");
	unlink(in);
}

int main(void)
{
	const struct pd_perf_target *const *all = pd_perf_targets();
	const struct pd_perf_target *t, *prev_up = NULL;
	int n, i, j, ordered = 1, attr_ok = 1, names_unique = 1;
	int feats_ok = 1, texts_ok = 1, sizes_ok = 1, masks_ok = 1;
	int no_kernel_skip = 1;

	for (n = 0; all[n]; n++)
		;
	CHECK(n == 15, "15 targets listed (%d)", n);

	for (i = 0; all[i]; i++) {
		t = all[i];
		if (i && t->version < all[i - 1]->version)
			ordered = 0;
		if (strncmp(t->name, "rhel", 4)) {
			if (prev_up && t->attr_size_max < prev_up->attr_size_max)
				attr_ok = 0;
			prev_up = t;
		}
		for (j = 0; j < i; j++)
			if (!strcmp(all[j]->name, t->name))
				names_unique = 0;
		if (!pd_perf_target__knows_feature(t, t->last_feature - 1) ||
		    pd_perf_target__knows_feature(t, t->last_feature) ||
		    pd_perf_target__knows_feature(t, PD_FEAT_RESERVED) ||
		    !pd_perf_target__knows_feature(t, PD_FEAT_TRACING_DATA))
			feats_ok = 0;
		if (!t->description || !*t->description || !t->fails_on_attr ||
		    !*t->fails_on_attr || !t->fails_on_record ||
		    !*t->fails_on_record)
			texts_ok = 0;
		if (t->attr_size != t->attr_size_max)
			sizes_ok = 0;
		if (!t->attr_flags || t->attr_flags & ~((1ULL << 40) - 1) ||
		    (t->attr_flags & (t->attr_flags + 1)) ||
		    !t->branch_filter ||
		    (t->branch_filter & (t->branch_filter + 1)) ||
		    (t->branch_sample_type & ~t->branch_filter))
			masks_ok = 0;
		if (t->sample_type & ~PD_SAMPLE_KNOWN_MASK ||
		    t->read_format & ~0x1fULL ||
		    t->branch_sample_type & ~(PD_BRANCH_HW_INDEX | PD_BRANCH_COUNTERS) ||
		    t->kernel_records & 1 ||
		    t->user_record_max > PD_RECORD_USER_MAX)
			masks_ok = 0;
		if (t->flags & PD_TGT_SKIPS_UNKNOWN_KERNEL)
			no_kernel_skip = 0;
	}
	CHECK(ordered, "targets listed oldest perf code first");
	CHECK(attr_ok, "attr_size_max never decreases among upstream targets");
	CHECK(names_unique, "target names are unique");
	CHECK(feats_ok, "knows_feature: 1 .. last_feature - 1, never 0");
	CHECK(texts_ok, "every target has a description and failure texts");
	CHECK(sizes_ok, "every reader accepts exactly its own sizeof(attr)");
	CHECK(masks_ok, "bit sets stay within what the format defines");
	CHECK(no_kernel_skip, "no perf skips unknown kernel records");
	CHECK(!strcmp(all[0]->name, "3.10"), "the oldest target is 3.10");
	CHECK(!strcmp(all[n - 1]->name, "6.16"), "the newest target is 6.16");

	/* lookup */
	t = T("4.18");
	CHECK(t && !strcmp(t->name, "4.18"), "find(\"4.18\")");
	t = T("rhel8");
	CHECK(t && !strcmp(t->name, "rhel8"), "find(\"rhel8\")");
	CHECK(T("newest") && T("newest") == T("6.16"), "find(\"newest\") is 6.16");
	errno = 0;
	CHECK(!T("nope") && errno == ENOENT, "find(\"nope\") fails with ENOENT");
	errno = 0;
	CHECK(!T("6.1.0") && errno == ENOENT, "find(\"6.1.0\"): exact names only");

	/* record types */
	CHECK(pd_perf_target__knows_record(T("6.1"), PD_RECORD_FINISHED_INIT),
	      "6.1 knows FINISHED_INIT (82)");
	CHECK(!pd_perf_target__knows_record(T("6.1"), PD_RECORD_COMPRESSED2),
	      "6.1 does not know COMPRESSED2 (83)");
	CHECK(pd_perf_target__knows_record(T("6.16"), PD_RECORD_COMPRESSED2),
	      "6.16 knows COMPRESSED2 (83)");
	CHECK(!pd_perf_target__knows_record(T("6.16"), PD_RECORD_BPF_METADATA),
	      "6.16 does not know BPF_METADATA (84, 6.17)");
	CHECK(!pd_perf_target__knows_record(T("4.18"), PD_RECORD_FINISHED_INIT),
	      "4.18 does not know FINISHED_INIT (82)");
	CHECK(pd_perf_target__knows_record(T("4.18"), PD_RECORD_HEADER_FEATURE) &&
	      !pd_perf_target__knows_record(T("4.18"), PD_RECORD_COMPRESSED),
	      "4.18: HEADER_FEATURE (80) is its last perf-tool type");
	CHECK(pd_perf_target__knows_record(T("3.10"), PD_RECORD_FINISHED_ROUND) &&
	      !pd_perf_target__knows_record(T("3.10"), PD_RECORD_ID_INDEX),
	      "3.10: FINISHED_ROUND (68) is its last perf-tool type");
	CHECK(!pd_perf_target__knows_record(T("3.10"), PD_RECORD_MMAP2) &&
	      pd_perf_target__knows_record(T("3.10"), PD_RECORD_SAMPLE),
	      "3.10 delivers types 1-9 only, no MMAP2");
	CHECK(pd_perf_target__knows_record(T("4.1"), PD_RECORD_MMAP2) &&
	      !pd_perf_target__knows_record(T("4.1"), PD_RECORD_AUX),
	      "4.1 knows MMAP2 but not the kernel's AUX yet");
	CHECK(pd_perf_target__knows_record(T("4.1"), PD_RECORD_ID_INDEX) &&
	      !pd_perf_target__knows_record(T("4.1"), PD_RECORD_AUXTRACE_INFO),
	      "4.1: ID_INDEX (69) is its last perf-tool type");
	CHECK(pd_perf_target__knows_record(T("4.3"), PD_RECORD_SWITCH_CPU_WIDE) &&
	      pd_perf_target__knows_record(T("4.3"), PD_RECORD_AUXTRACE_ERROR) &&
	      !pd_perf_target__knows_record(T("4.3"), PD_RECORD_THREAD_MAP),
	      "4.3 knows SWITCH_CPU_WIDE and AUXTRACE_ERROR, not THREAD_MAP");
	CHECK(pd_perf_target__knows_record(T("5.4"), PD_RECORD_KSYMBOL) &&
	      pd_perf_target__knows_record(T("5.4"), PD_RECORD_COMPRESSED) &&
	      !pd_perf_target__knows_record(T("5.4"), PD_RECORD_CGROUP),
	      "5.4 knows KSYMBOL and COMPRESSED, not CGROUP");
	CHECK(pd_perf_target__knows_record(T("5.10"), PD_RECORD_TEXT_POKE) &&
	      !pd_perf_target__knows_record(T("5.10"), PD_RECORD_AUX_OUTPUT_HW_ID),
	      "5.10 knows TEXT_POKE, not AUX_OUTPUT_HW_ID");
	CHECK(pd_perf_target__knows_record(T("6.1"), PD_RECORD_AUX_OUTPUT_HW_ID),
	      "6.1 knows AUX_OUTPUT_HW_ID");
	CHECK(pd_perf_target__knows_record(T("4.18"), PD_RECORD_NAMESPACES) &&
	      !pd_perf_target__knows_record(T("rhel7"), PD_RECORD_NAMESPACES),
	      "RHEL 7 perf delivers no NAMESPACES, upstream 4.18 does");
	CHECK(!pd_perf_target__knows_record(T("rhel8"), PD_RECORD_KSYMBOL),
	      "RHEL 8.1 perf knows no KSYMBOL");
	CHECK(!pd_perf_target__knows_record(T("6.16"), PD_RECORD_CALLCHAIN_DEFERRED),
	      "6.16 knows no CALLCHAIN_DEFERRED");
	CHECK(!pd_perf_target__knows_record(T("6.16"), 0) &&
	      !pd_perf_target__knows_record(T("6.16"), 40),
	      "type 0 and unassigned kernel types are unknown");

	/* attr sizes */
	CHECK(T("4.18")->attr_size_max == 112, "4.18 accepts attrs up to 112");
	CHECK(T("6.1")->attr_size_max == 128, "6.1 accepts attrs up to 128");
	CHECK(T("3.10")->attr_size_max == 96, "3.10 accepts attrs up to 96");
	CHECK(T("rhel7")->attr_size_max == 112, "RHEL 7 perf accepts 112");
	CHECK(T("5.10")->attr_size_max == 120, "5.10 accepts attrs up to 120");
	CHECK(T("5.14")->attr_size_max == 128, "5.14 accepts attrs up to 128");
	CHECK(T("6.6")->attr_size_max == 136 && T("6.16")->attr_size_max == 136,
	      "6.6 and 6.16 accept attrs up to 136");

	/* sample_type, read_format, branch bits */
	CHECK(!(T("3.10")->sample_type & PD_SAMPLE_READ) &&
	      (T("4.1")->sample_type & PD_SAMPLE_READ),
	      "3.10 refuses sample READ, 4.1 decodes it");
	CHECK(!(T("3.10")->sample_type & PD_SAMPLE_IDENTIFIER) &&
	      (T("4.1")->sample_type & PD_SAMPLE_IDENTIFIER),
	      "IDENTIFIER: not in 3.10, in 4.1");
	CHECK(!(T("4.3")->sample_type & PD_SAMPLE_PHYS_ADDR) &&
	      (T("4.18")->sample_type & PD_SAMPLE_PHYS_ADDR),
	      "PHYS_ADDR: not in 4.3, in 4.18");
	CHECK(!(T("5.4")->sample_type & PD_SAMPLE_AUX) &&
	      (T("5.10")->sample_type & PD_SAMPLE_AUX),
	      "AUX sample: not in 5.4, in 5.10");
	CHECK(!(T("5.10")->sample_type & PD_SAMPLE_WEIGHT_STRUCT) &&
	      (T("5.14")->sample_type & PD_SAMPLE_WEIGHT_STRUCT),
	      "WEIGHT_STRUCT: not in 5.10, in 5.14");
	CHECK(T("6.16")->sample_type == PD_SAMPLE_KNOWN_MASK,
	      "6.16 decodes every sample bit up to WEIGHT_STRUCT");
	CHECK(!(T("5.14")->read_format & PD_FORMAT_LOST) &&
	      (T("6.1")->read_format & PD_FORMAT_LOST),
	      "read_format LOST: not in 5.14, in 6.1");
	CHECK(!(T("5.4")->branch_sample_type & PD_BRANCH_HW_INDEX) &&
	      (T("5.10")->branch_sample_type & PD_BRANCH_HW_INDEX),
	      "branch hw_idx: not in 5.4, in 5.10");
	CHECK(!(T("6.6")->branch_sample_type & PD_BRANCH_COUNTERS) &&
	      (T("6.16")->branch_sample_type & PD_BRANCH_COUNTERS),
	      "branch counters: not in 6.6, in 6.16");

	/* attr flag bits, branch filter bits, aux_action (uapi of each) */
	for (i = 1, ordered = 1; all[i]; i++)
		if (strncmp(all[i]->name, "rhel", 4) &&
		    strncmp(all[i - 1]->name, "rhel", 4) &&
		    (all[i]->attr_flags & all[i - 1]->attr_flags) !=
		    all[i - 1]->attr_flags)
			ordered = 0;
	CHECK(ordered, "upstream perfs know the attr flags their elders know");
	CHECK(!(T("5.10")->attr_flags & PD_ATTR_BUILD_ID) &&
	      (T("5.10")->attr_flags & PD_ATTR_TEXT_POKE) &&
	      (T("5.14")->attr_flags & PD_ATTR_SIGTRAP),
	      "attr build_id (5.12): reserved to 5.10, known to 5.14");
	CHECK(!(T("rhel7")->attr_flags & PD_ATTR_NAMESPACES) &&
	      (T("rhel7")->attr_flags & PD_ATTR_WRITE_BACKWARD) &&
	      (T("rhel8")->attr_flags & PD_ATTR_NAMESPACES),
	      "RHEL 7's attr has no namespaces bit, RHEL 8's has");
	CHECK(T("3.10")->attr_flags == (1ULL << 23) - 1 &&
	      !(T("4.18")->attr_flags & PD_ATTR_AUX_OUTPUT) &&
	      (T("5.4")->attr_flags & PD_ATTR_AUX_OUTPUT),
	      "3.10 ends at exclude_callchain_user; aux_output from 5.4");
	CHECK(!(T("6.16")->attr_flags & PD_ATTR_DEFER_CALLCHAIN),
	      "6.16 knows no defer_callchain");
	CHECK(T("5.10")->branch_filter == (1ULL << 18) - 1 &&
	      T("6.1")->branch_filter == (1ULL << 19) - 1 &&
	      T("6.8")->branch_filter == (1ULL << 20) - 1,
	      "branch filters: HW_INDEX (5.10), PRIV_SAVE (6.1), COUNTERS (6.8)");
	CHECK(T("6.16")->aux_action == 7 && !T("6.8")->aux_action,
	      "aux_action bits: 6.13 on (6.16), reserved in 6.8");
	CHECK(T("4.15")->last_feature == 21 &&
	      T("4.15")->user_record_max == T("4.18")->user_record_max &&
	      (T("4.15")->sample_type & PD_SAMPLE_PHYS_ADDR),
	      "4.15: features up to CACHE (20), PHYS_ADDR, perf-tool types to 80");
	CHECK((T("6.8")->branch_sample_type & PD_BRANCH_COUNTERS) &&
	      !pd_perf_target__knows_record(T("6.8"), PD_RECORD_COMPRESSED2) &&
	      (T("6.8")->flags & PD_TGT_PIPE_ATTR_BY_SIZE),
	      "6.8: branch counters, no COMPRESSED2, pipe ids by attr.size");

	/* features */
	CHECK(T("3.10")->last_feature == 18 && T("4.1")->last_feature == 18,
	      "3.10 and 4.1 end at GROUP_DESC (17)");
	CHECK(T("4.18")->last_feature == 23 && T("rhel8")->last_feature == 24,
	      "4.18 ends at MEM_TOPOLOGY, RHEL 8 has CLOCKID backported");
	CHECK(T("5.4")->last_feature == 28 && T("5.10")->last_feature == 30,
	      "5.4 ends at COMPRESSED, 5.10 at CLOCK_DATA");
	CHECK(pd_perf_target__knows_feature(T("6.16"), PD_FEAT_PMU_CAPS) &&
	      !pd_perf_target__knows_feature(T("6.16"), PD_FEAT_CPU_DOMAIN_INFO),
	      "6.16 knows PMU_CAPS, not CPU_DOMAIN_INFO");

	/* flags */
	CHECK(!(T("6.1")->flags & PD_TGT_PIPE_ATTR_BY_SIZE) &&
	      (T("6.6")->flags & PD_TGT_PIPE_ATTR_BY_SIZE),
	      "pipe HEADER_ATTR ids by attr.size: not 6.1, 6.6");
	CHECK(!(T("6.6")->flags & PD_TGT_SKIPS_UNKNOWN_USER) &&
	      (T("6.16")->flags & PD_TGT_SKIPS_UNKNOWN_USER),
	      "unknown perf-tool types skipped: not 6.6, 6.16");
	CHECK(!(T("5.14")->flags & PD_TGT_CPU_MAP_RANGE) &&
	      (T("6.1")->flags & PD_TGT_CPU_MAP_RANGE) &&
	      (T("6.1")->flags & PD_TGT_ID_INDEX_EXT),
	      "CPU map RANGE and ID_INDEX extension: not 5.14, 6.1");
	CHECK(!(T("5.10")->flags & PD_TGT_MMAP2_BUILD_ID) &&
	      (T("5.14")->flags & PD_TGT_MMAP2_BUILD_ID),
	      "MMAP2 build ids: not 5.10, 5.14");
	CHECK(!(T("5.10")->flags & PD_TGT_KERNEL_MMAP2) &&
	      !(T("rhel8")->flags & PD_TGT_KERNEL_MMAP2) &&
	      (T("5.14")->flags & PD_TGT_KERNEL_MMAP2) &&
	      (T("rhel9")->flags & PD_TGT_KERNEL_MMAP2) &&
	      (T("6.16")->flags & PD_TGT_KERNEL_MMAP2),
	      "a kernel MMAP2 makes the kernel map: not 5.10, rhel8; 5.14, rhel9, 6.16");
	CHECK(pd_shim__find("kernel-mmap2") &&
	      pd_shim__find("kernel-mmap2")->id == PD_SHIM_KERNEL_MMAP2,
	      "the kernel-mmap2 shim by name");
	CHECK(!(T("5.4")->flags & PD_TGT_TIME_CONV_EXT) &&
	      (T("5.10")->flags & PD_TGT_TIME_CONV_EXT) &&
	      (T("5.10")->flags & PD_TGT_BUILD_ID_SIZE),
	      "TIME_CONV extension and build-id size: not 5.4, 5.10");
	CHECK(!(T("4.3")->flags & PD_TGT_PIPE_FEATURE_ID_FATAL) &&
	      (T("4.18")->flags & PD_TGT_PIPE_FEATURE_ID_FATAL) &&
	      (T("rhel7")->flags & PD_TGT_PIPE_FEATURE_ID_FATAL),
	      "pipe feature ids past the last abort perf report: 4.18, RHEL 7");

	/* RHEL builds against their upstream base */
	check_not_looser("3.10", "rhel7");
	check_not_looser("4.18", "rhel8");
	check_not_looser("5.14", "rhel9");
	t = T("rhel9");
	CHECK(t && t->sample_type == T("5.14")->sample_type &&
	      t->user_record_max == T("5.14")->user_record_max &&
	      t->flags == T("5.14")->flags,
	      "rhel9 carries the upstream 5.14 facts");
	CHECK(T("rhel7")->version > T("3.10")->version,
	      "RHEL 7 perf code is newer than upstream 3.10");

	check_resolve();
	check_shim_rules();
	check_kernel_mmap2();
	return tap_done();
}
