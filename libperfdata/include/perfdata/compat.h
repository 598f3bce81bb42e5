/* SPDX-License-Identifier: MIT */
/*
 * What each perf version understands, and the shims that make a file
 * readable by a given version.
 *
 * A target (struct pd_perf_target) describes one perf reader: an upstream
 * version ("4.18") or a distribution build whose perf differs from
 * upstream by backports ("rhel8"). The facts come from perf's own code; the
 * table in compat/targets.c cites file and version for each of them.
 *
 * Ownership: targets and shim descriptions are static and never freed.
 */
#ifndef PERFDATA_COMPAT_H
#define PERFDATA_COMPAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PD_PERF_VERSION(a, b)	((uint32_t)(a) << 16 | (uint32_t)(b))

/* Behaviour flags of a target (struct pd_perf_target.flags). */
enum pd_target_flag {
	/* pipe mode: HEADER_ATTR ids located after attr.size bytes (6.6+),
	 * not after sizeof(struct perf_event_attr) */
	PD_TGT_PIPE_ATTR_BY_SIZE	= 1U << 0,
	/* HEADER_BUILD_ID and MMAP2 carry a build-id size (misc
	 * BUILD_ID_SIZE, 5.11+) */
	PD_TGT_BUILD_ID_SIZE		= 1U << 1,
	/* MMAP2 with a build id instead of dev/inode (misc MMAP_BUILD_ID,
	 * 5.12+) */
	PD_TGT_MMAP2_BUILD_ID		= 1U << 2,
	/* CPU_MAP and EVENT_UPDATE(CPUS) RANGE_CPUS encoding (6.0+) */
	PD_TGT_CPU_MAP_RANGE		= 1U << 3,
	/* unknown perf-tool record types are skipped, not fatal (6.16+) */
	PD_TGT_SKIPS_UNKNOWN_USER	= 1U << 4,
	/* unknown kernel record types are skipped with a warning, not fatal */
	PD_TGT_SKIPS_UNKNOWN_KERNEL	= 1U << 5,
	/* pipe mode: a HEADER_FEATURE id above its last feature aborts
	 * perf report (every version that reads HEADER_FEATURE so far) */
	PD_TGT_PIPE_FEATURE_ID_FATAL	= 1U << 6,
	/* TIME_CONV of 56 bytes (time_cycles, time_mask, caps) understood */
	PD_TGT_TIME_CONV_EXT		= 1U << 7,
	/* ID_INDEX entries with machine_pid/vcpu (6.0+) */
	PD_TGT_ID_INDEX_EXT		= 1U << 8,
	/* file mode: the PERFFILE v1 header is the only one it reads */
	PD_TGT_V1_ONLY			= 1U << 9,
	/*
	 * BUILD_ID entries: a user-space DSO's pid is the process's, not
	 * the machine's. No perf in the table reads them so: they take any
	 * pid but -1 (the host) for a guest machine's.
	 */
	PD_TGT_BUILD_ID_PROC_PID	= 1U << 10,
	/*
	 * The build, when known (a distribution's package, or probed):
	 * with zstd, or without it, when it knows COMPRESSED records but
	 * its stub drops them, samples and all, without a word (Debian
	 * 11's 5.10). A bare version has neither flag.
	 */
	PD_TGT_ZSTD			= 1U << 11,
	PD_TGT_NO_ZSTD			= 1U << 12,
	/*
	 * A kernel or module MMAP2 (cpumode KERNEL or GUEST_KERNEL) makes
	 * the kernel's or the module's map (5.11+). Before, the kernel
	 * MMAP2 path reads the record's name where MMAP has it, over
	 * MMAP2's dev/inode or build id: no kernel map is made, and perf
	 * report warns "Kernel address maps ... were restricted".
	 */
	PD_TGT_KERNEL_MMAP2		= 1U << 13,
	/*
	 * A STAT record's cpu is the CPU's number (5.19+), not its position
	 * in the event's CPU map (util/stat.c, perf_event__process_stat_event())
	 */
	PD_TGT_STAT_CPU_NUMBER		= 1U << 14,
};

struct pd_perf_target {
	const char *name;		/* "4.18", "rhel8" */
	const char *description;	/* one line for --list-targets */
	uint32_t version;		/* PD_PERF_VERSION() of its perf code */
	/* largest perf_event_attr.size accepted (file mode) */
	uint32_t attr_size_max;
	/* sizeof(struct perf_event_attr) it was built with: what it writes,
	 * and what pipe-mode HEADER_ATTR parsing assumes before 6.6 */
	uint32_t attr_size;
	uint64_t sample_type;		/* sample_type bits it decodes */
	uint64_t read_format;		/* read_format bits it decodes */
	/* branch_sample_type bits that change the sample layout and that it
	 * knows (HW_INDEX, COUNTERS) */
	uint64_t branch_sample_type;
	uint64_t kernel_records;	/* bit n set: kernel record n known */
	/* PERF_RECORD_HEADER_MAX: perf-tool types 64..user_record_max-1
	 * are known */
	uint32_t user_record_max;
	/* HEADER_LAST_FEATURE: features 1..last_feature-1 are known */
	uint32_t last_feature;
	uint32_t flags;			/* enum pd_target_flag */
	/* How it fails on what it does not know, for --explain. */
	const char *fails_on_attr;
	const char *fails_on_record;
	/* a probed target (pd_perf_target__probe()): what each probe
	 * showed, one line each, for --explain; NULL in the table's */
	const char *probe_report;
	/*
	 * perf_event_attr bits it knows, beyond the sizes and sample bits
	 * above: the flag bits of the bitfield at offset 40 (the rest is
	 * its __reserved_1), the branch_sample_type bits (below its
	 * PERF_SAMPLE_BRANCH_MAX) and the bits of the u32 at offset 116
	 * (aux_action from 6.13, __reserved_3 before). perf 5.10 and later
	 * warn about any other ("Reserved bits are set unexpectedly") and
	 * drop the event names.
	 */
	uint64_t attr_flags;
	uint64_t branch_filter;
	uint32_t aux_action;
};

/* NULL-terminated list of every target, oldest first. */
const struct pd_perf_target *const *pd_perf_targets(void);
/*
 * By name ("6.1", "rhel8", "newest"); NULL and errno ENOENT if unknown.
 * A binary ("auto", a path: pd_perf_target__is_binary()) is probed, once
 * per process; the target is kept until the process ends.
 */
const struct pd_perf_target *pd_perf_target__find(const char *name);
bool pd_perf_target__knows_record(const struct pd_perf_target *t,
				  uint32_t type);
bool pd_perf_target__knows_feature(const struct pd_perf_target *t,
				   unsigned int feat);

/*
 * Probing a perf binary: tiny files written by our writer, one per
 * capability (attr sizes, record types, COMPRESSED/COMPRESSED2 and
 * whether it was built with zstd, MMAP2 build ids, the kernel map as an
 * MMAP2, the attr flag bits it checks, pipe feature ids, a pipe-mode
 * file given with -i PATH), each run through its perf script
 * or perf report with a timeout. The result is the nearest known
 * target's facts (by the version the binary prints) with the probed
 * ones written over them; cached by the binary's build id under
 * $XDG_CACHE_HOME/perfdata/ (else ~/.cache/perfdata/).
 *
 * The probe files are written under $TMPDIR (else /tmp) and passed by
 * path: a wrapper script running perf elsewhere (in a chroot) must see
 * that directory at the same path.
 */
struct pd_perf_probe_opts {
	size_t sz;			/* sizeof(struct pd_perf_probe_opts) */
	const char *cache_dir;		/* NULL: $XDG_CACHE_HOME/perfdata */
	bool no_cache;			/* neither read nor write the cache */
	bool refresh;			/* probe again, then store */
	unsigned int timeout_ms;	/* per perf run; 0: 30 s */
};

/*
 * perf: a path to a perf binary or to a script running one, a name on
 * $PATH, or "auto" ($PERF, else perf on $PATH). Returns a target the
 * caller frees with pd_perf_target__free(); NULL and errno when the
 * binary cannot be run or prints no "perf version N.N" (a warning goes
 * to the log callback).
 */
struct pd_perf_target *pd_perf_target__probe(const char *perf,
					     const struct pd_perf_probe_opts *opts);
/* Frees a probed target; the table's targets are left alone. NULL ok. */
void pd_perf_target__free(struct pd_perf_target *t);
/* Does a --target-perf spec name a binary ("auto", or a path with a
 * slash) rather than a version? */
bool pd_perf_target__is_binary(const char *spec);

/*
 * A distribution's perf: the package, what its perf --version prints, the
 * target whose facts it reads by, and how it was built (compat/distros.c
 * cites where each comes from).
 */
struct pd_perf_distro {
	const char *name;		/* "debian11" */
	const char *description;	/* "Debian 11 (bullseye)" */
	const char *package;		/* "linux-perf-5.10 5.10.223-1" */
	const char *perf_version;	/* "5.10.223", "4.18.0-*.el8" */
	const char *target;		/* a target's name: "5.10" */
	/* PD_TGT_ZSTD, PD_TGT_NO_ZSTD, or 0 when not known */
	uint32_t build;
	const char *build_note;		/* how the build is known */
	/* other names for it, NULL-terminated: "bullseye", "centos8" */
	const char *const *aliases;
};

/* NULL-terminated list of every distribution, by name. */
const struct pd_perf_distro *const *pd_perf_distros(void);
/*
 * By name or alias, case, spaces, '-' and '_' aside ("Debian 11",
 * "centos-8"); NULL and errno ENOENT if unknown.
 */
const struct pd_perf_distro *pd_perf_distro__find(const char *name);

/* How pd_perf_target__resolve() understood what it was given. */
enum pd_target_how {
	PD_TARGET_NAMED,	/* a target's name: "4.18", "newest" */
	PD_TARGET_VERSION,	/* a version a target has: "5.10.223" */
	PD_TARGET_OLDER,	/* between two targets: the older one's facts */
	PD_TARGET_NEWER,	/* past the newest target: its facts */
	PD_TARGET_DISTRO,	/* a distribution's perf: "debian11" */
	PD_TARGET_PROBED,	/* a perf binary asked directly (PATH, auto) */
};

struct pd_perf_resolved {
	size_t sz;		/* sizeof(struct pd_perf_resolved) */
	/*
	 * The facts to convert with: the table's target, named after what
	 * was asked for and with the build a distribution states. Its name
	 * and description point into this struct.
	 */
	struct pd_perf_target target;
	const struct pd_perf_target *base;	/* the table entry used */
	const struct pd_perf_distro *distro;	/* NULL unless a distribution */
	enum pd_target_how how;
	uint32_t version;	/* PD_PERF_VERSION() asked for; 0: none */
	uint32_t patch;		/* its third number, 0 if none */
	char name[64];		/* "debian11", "5.10.223" */
	char description[192];
	/* one line: how the spec was read, which facts are used and why;
	 * for PD_TARGET_NEWER the warning to show */
	char note[256];
};

/*
 * What --target-perf= names: a target's name, MAJOR.MINOR[.PATCH], the
 * line perf --version prints ("perf version 4.18.0-553.el8_10.x86_64": an
 * .elN suffix names RHEL N's perf), a distribution (name or alias), or a
 * perf binary ("auto", a path: pd_perf_target__is_binary()), probed once
 * per process (PD_TARGET_PROBED; base is the probed target, kept for the
 * process's life).
 * A version between two upstream targets gets the older one's facts, one
 * past the newest the newest's (how PD_TARGET_NEWER, with a note saying
 * so). Returns 0, -ENOENT for a name or version it cannot place (older
 * than the oldest target, or no version at all), with a note saying why.
 */
int pd_perf_target__resolve(const char *spec, struct pd_perf_resolved *res);

/*
 * Shims: transforms of the record stream, each with its own name. A target
 * switches on the set it needs for a given input; --shim/--no-shim add or
 * remove them (backports by flag).
 */
enum pd_shim {
	PD_SHIM_ATTR_SIZE,	/* "attr-size" */
	PD_SHIM_SAMPLE_TYPE,	/* "sample-type" */
	PD_SHIM_DROP_RECORDS,	/* "drop-records" */
	PD_SHIM_FINISHED_INIT,	/* "finished-init" */
	PD_SHIM_MMAP2_BUILD_ID,	/* "mmap2-build-id" */
	PD_SHIM_MMAP2_TO_MMAP,	/* "mmap2-to-mmap" */
	PD_SHIM_CPU_MAP_RANGE,	/* "cpu-map-range" */
	PD_SHIM_DECOMPRESS,	/* "decompress" */
	PD_SHIM_COMPRESSED2,	/* "compressed2" */
	PD_SHIM_FEATURES,	/* "features" */
	PD_SHIM_FEATURE_LAYOUT,	/* "feature-layout" */
	PD_SHIM_PIPE_MARKER,	/* "pipe-marker" */
	PD_SHIM_UNWIND,		/* "unwind" */
	PD_SHIM_ATTR_BITS,	/* "attr-bits" */
	PD_SHIM_BUILD_ID_PID,	/* "build-id-pid" */
	PD_SHIM_KERNEL_MMAP2,	/* "kernel-mmap2" */
	PD_SHIM_STAT_CPU,	/* "stat-cpu" */
	PD_SHIM_CLOCK_UNIT,	/* "clock-unit" */
	PD_SHIM__MAX,
};

struct pd_shim_info {
	enum pd_shim id;
	const char *name;
	const char *summary;	/* one line for --list-shims */
};

/* All shims, in the order they apply. */
const struct pd_shim_info *pd_shims(size_t *nr);
/* By name; NULL if unknown. */
const struct pd_shim_info *pd_shim__find(const char *name);

struct pd_build_id;
struct pd_reader;
struct pd_unwind_rewriter;

/* pd_convert_opts.stack_size: each copy cut to what was filled */
#define PD_STACK_SIZE_FILLED	UINT64_MAX

struct pd_convert_opts {
	size_t sz;			/* sizeof(struct pd_convert_opts) */
	/* the reader the output must suit; NULL: the newest, unchanged */
	const struct pd_perf_target *target;
	uint64_t shims_add;		/* 1 << enum pd_shim */
	uint64_t shims_remove;
	int mode;			/* -1: as the input, else enum pd_mode */
	/* 0 as the input (in a form the target reads), 1 compress,
	 * -1 decompress */
	int compress;
	int compress_level;
	int endian;			/* enum pd_endian (writer.h) */
	/* write nothing: only count what the shims would change */
	bool dry_run;
	/*
	 * The "unwind" shim's rewriter (unwind.h), made with the reader in
	 * time order; NULL: one with default options, when the shim is on.
	 * The caller keeps it, and its summary, after pd_convert().
	 */
	struct pd_unwind_rewriter *unwind;
	/*
	 * Build ids known from elsewhere (features.h; an archive's
	 * manifest): a file-mode output's BUILD_ID table gets one for each
	 * file the input names none for, so that perf finds the file in a
	 * build-id cache where its recorded path is not (a pipe recording
	 * carries no build ids). The caller keeps them. NULL: none.
	 */
	const struct pd_build_id *build_ids;
	size_t nr_build_ids;
	/*
	 * User stack copies (STACK_USER) cut to their first stack_size
	 * bytes, a multiple of 8, and the attrs' sample_stack_user with
	 * them, as if recorded with --call-graph dwarf,stack_size; 0:
	 * as they are. PD_STACK_SIZE_FILLED: each cut to what the kernel
	 * filled (its dyn_size, rounded up to 8 bytes with zeros), which
	 * is all that perf, or any unwinder, reads of it: the rest holds
	 * stale bytes of the kernel's buffer.
	 */
	uint64_t stack_size;
	/*
	 * Read the input on a second thread (pd_reader__read_ahead()),
	 * started once the conversion knows which bytes it needs. The
	 * output is the same.
	 */
	bool read_ahead;
	/*
	 * Records that go out unchanged, from a regular input file into a
	 * regular output file of its byte order, uncompressed, can be
	 * copied by the kernel (copy_file_range()), the user stack copies
	 * of samples then not read at all. By default that is done without
	 * read_ahead, where it is faster than reading and writing; with
	 * read_ahead, the read on one thread overlapping the write on the
	 * other is faster than the kernel's copy, which one thread does.
	 * copy_in_memory: never; kernel_copy: even with read_ahead. The
	 * output is the same.
	 */
	bool copy_in_memory;
	bool kernel_copy;
};

struct pd_convert_report {
	uint64_t shims;			/* shims that were on */
	uint64_t records_in, records_out;
	/* of records_out: copied from the input by the kernel, as they are
	 * (pd_convert_opts.kernel_copy) */
	uint64_t records_copied;
	uint64_t samples_in, samples_out;
	/* what each shim did: records (or attrs, features) it changed */
	uint64_t changed[PD_SHIM__MAX];
	uint64_t dropped[PD_SHIM__MAX];
	/* records dropped, by type */
	uint64_t dropped_type[128];
	uint64_t features_dropped[4];	/* bitmap */
	uint32_t attr_size_in, attr_size_out;
	uint64_t sample_bits_removed;	/* sample_type bits taken out */
	uint64_t read_format_removed;
	uint64_t branch_bits_removed;
	/* the attr-bits shim's: flag bits (offset 40), branch filter bits,
	 * aux_action bits and whether reserved bytes were cleared */
	uint64_t attr_flags_removed;
	uint64_t branch_filter_removed;
	uint32_t aux_action_removed;
	bool reserved_cleared;
	/* records written compressed (0, PD_RECORD_COMPRESSED or _2), and
	 * why an input's compression was not kept: a sentence, or NULL */
	uint32_t compress_out;
	const char *compress_why;
	/* sample_type bits given to events that lacked them (a target
	 * that needs one sample_type for all: their values filled in) */
	uint64_t sample_bits_added;
};

/*
 * Read every record of r, apply the shims and write out (unless dry_run).
 * Returns 0 or a negative error; errmsg receives one line naming the
 * input or output, offset and what went wrong.
 */
int pd_convert(struct pd_reader *r, const char *out,
	       const struct pd_convert_opts *opts,
	       struct pd_convert_report *rep, char *errmsg, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_COMPAT_H */
