// SPDX-License-Identifier: MIT
/*
 * What each perf version understands: one struct pd_perf_target per perf
 * reader we convert for, oldest first, and the questions asked of the
 * table alone (an entry by name, the records and features a target
 * knows). Names that are no entry's (a binary to probe, a version, a
 * distribution) are resolve.c's.
 *
 * Every value below was read off perf's own code of that version; the
 * comments name the file and the version. The trees read were:
 *
 *   3.10   upstream 3.10.99        (github harviswang/linux-3.10.99)
 *   4.1    upstream 4.1.15         (github liwanliang-123/linux-4.1.15-elf)
 *   4.3    upstream 4.3            (github YoungjaeLee/linux-4.3-cxlbdev)
 *   4.15   upstream 4.15           (github Keitokuch/linux-4.15-lb)
 *   4.18   upstream 4.18           (github zzwd/linux-4.18-rt: RT patches,
 *                                   tools/perf as upstream)
 *   5.4    upstream 5.4.59         (github BoKyoungHan/linux-5.4.59-vanilla)
 *   5.10   upstream 5.10.13        (github Rtoax/linux-5.10.13, the import
 *                                   before its 6.1 sync)
 *   5.14   upstream 5.14-rc5       (github lsk-legends/linux-5.14)
 *   6.1    upstream 6.1-rc7        (github krr-io/linux-6.1.0)
 *   6.6    upstream 6.6.9          (github mihaelbh/...-linux-6.6.9)
 *   6.8    upstream 6.8.1          (github sndrzt/linux-6.8), checked
 *          against 6.12.19         (github wishday/linux-6.12.y)
 *   6.16   no 6.16 tree was at hand: the 6.17 tree (github
 *          busysteve/linux-6.17.0-rust-ported-c) minus what 6.17 added
 *          (PERF_RECORD_BPF_METADATA, 84); see the 6.16 entry
 *   rhel7  3.10.0-1160.el7         (github tremb1e/linux-3.10.0-1160.el7)
 *   rhel8  4.18.0-147.el8          (github cai-fuqiang/linux-4.18.0-147)
 *   rhel9  no RHEL 9 / CentOS Stream 9 source tree was found: upstream
 *          5.14 facts, see the rhel9 entry
 *
 * Files, by the names they have in those trees:
 *   header.c   tools/perf/util/header.c: read_attr() (file-mode attr size),
 *              perf_event__process_attr() (pipe-mode HEADER_ATTR),
 *              perf_event__process_feature() (pipe-mode features)
 *   header.h   tools/perf/util/header.h: the HEADER_* feature enum
 *   session.c  tools/perf/util/session.c: perf_session__process_event(),
 *              perf_session__process_user_event(), machines__deliver_event()
 *              (perf_session_deliver_event() in 3.10)
 *   evsel.c    tools/perf/util/evsel.c: perf_evsel__parse_sample() /
 *              evsel__parse_sample()
 *   event.h    the perf_user_event_type enum: tools/perf/util/event.h up to
 *              5.4, tools/lib/perf/include/perf/event.h from 5.10 (5.4 has
 *              it in tools/perf/lib/include/perf/event.h)
 *   uapi       the perf_event.h perf compiles with: include/uapi/linux/ up
 *              to 4.3 (and in the 5.10 tree read), tools/include/uapi/linux/
 *              otherwise. attr_size is sizeof(struct perf_event_attr) of
 *              that header, checked by compiling it.
 *
 * Common to every version read (so not repeated per entry):
 * - read_attr() reads 64 bytes, then refuses an attr.size larger than its
 *   own sizeof(struct perf_event_attr) (debug message: more recent,
 *   unsupported ABI, N bytes extra); perf_session__open() then prints
 *   "incompatible file format (rerun with -v to learn more)". So
 *   attr_size_max == attr_size everywhere.
 * - perf_session__process_event() returns -EINVAL for a type at or past
 *   PERF_RECORD_HEADER_MAX (until 6.16); the reader prints
 *   "<offset> [<size>]: failed to process type: <type>" and stops.
 * - machines__deliver_event() has a default case that counts the record in
 *   nr_unknown_events and returns -1: an unknown kernel record type (below
 *   64) stops processing in every version, 6.17 included, with the
 *   warning "Found N unknown events!" from perf_session__warn_about_errors().
 *   No target here has PD_TGT_SKIPS_UNKNOWN_KERNEL.
 * - Pipe mode before 6.6: perf_event__process_attr() takes the HEADER_ATTR
 *   ids from right after its own sizeof(attr) (event->attr.id), whatever
 *   attr.size says.
 *
 * Safety between an upstream entry and the RHEL build of the same base
 * ("what upstream 4.18 reads, the RHEL 8 build reads too"): checked field
 * by field, see the rhel7/rhel8/rhel9 entries. Two pipe-mode conflicts
 * cannot be solved in this table without breaking the upstream reader;
 * they are stated at the 3.10 and 4.18 entries and in docs/compat.md.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <perfdata/compat.h>
#include <perfdata/format.h>

#include "base/internal.h"
#include "targets.h"

/* Kernel record types lo..hi as a kernel_records mask. */
#define KREC(lo, hi)	((~0ULL >> (63 - (hi))) & ~((1ULL << (lo)) - 1))

/*
 * sample_type sets, by what the parsers decode. Each step is checked in
 * evsel.c of the versions that use it (see the entries).
 */
/* 3.10: no READ ("unsupported for now", the sample is refused), no
 * IDENTIFIER, TRANSACTION, REGS_INTR */
#define SAMPLE_310	(PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME |	\
			 PD_SAMPLE_ADDR | PD_SAMPLE_CALLCHAIN | PD_SAMPLE_ID |	\
			 PD_SAMPLE_CPU | PD_SAMPLE_PERIOD |			\
			 PD_SAMPLE_STREAM_ID | PD_SAMPLE_RAW |			\
			 PD_SAMPLE_BRANCH_STACK | PD_SAMPLE_REGS_USER |	\
			 PD_SAMPLE_STACK_USER | PD_SAMPLE_WEIGHT |		\
			 PD_SAMPLE_DATA_SRC)
/* 4.1, 4.3: READ, IDENTIFIER, TRANSACTION, REGS_INTR added */
#define SAMPLE_41	(SAMPLE_310 | PD_SAMPLE_READ | PD_SAMPLE_IDENTIFIER |	\
			 PD_SAMPLE_TRANSACTION | PD_SAMPLE_REGS_INTR)
/* 4.18, 5.4, rhel7, rhel8: PHYS_ADDR added */
#define SAMPLE_418	(SAMPLE_41 | PD_SAMPLE_PHYS_ADDR)
/* 5.10: AUX and CGROUP added (no page sizes, no WEIGHT_STRUCT yet) */
#define SAMPLE_510	(SAMPLE_418 | PD_SAMPLE_AUX | PD_SAMPLE_CGROUP)
/* 5.14 and later: DATA/CODE_PAGE_SIZE and WEIGHT_STRUCT added: all 25 */
#define SAMPLE_514	(SAMPLE_510 | PD_SAMPLE_DATA_PAGE_SIZE |		\
			 PD_SAMPLE_CODE_PAGE_SIZE | PD_SAMPLE_WEIGHT_STRUCT)

/* read_format in samples (4.1 to 5.14); LOST from 6.0 */
#define READ_41		(PD_FORMAT_TOTAL_TIME_ENABLED |			\
			 PD_FORMAT_TOTAL_TIME_RUNNING | PD_FORMAT_ID |		\
			 PD_FORMAT_GROUP)
#define READ_61		(READ_41 | PD_FORMAT_LOST)

/*
 * perf_event_attr flag bits 0..n-1: the bitfield at offset 40 up to its
 * __reserved_1, in the uapi perf_event.h the perf was built with.
 */
#define ATTR_FLAGS(n)	((1ULL << (n)) - 1)
/* branch_sample_type bits below PERF_SAMPLE_BRANCH_MAX = 1 << n */
#define BRANCH_BITS(n)	((1ULL << (n)) - 1)

#define FAIL_ATTR	"incompatible file format (rerun with -v to learn more)"
#define FAIL_RECORD							\
	"stops at the first unknown record type: \"failed to process "	\
	"type: N\" for a perf-tool type, \"Found N unknown events!\" "	\
	"for a kernel type"

static const struct pd_perf_target t_3_10 = {
	.name = "3.10",
	.description = "upstream perf 3.10",
	.version = PD_PERF_VERSION(3, 10),
	/* uapi (v3.10.99): PERF_ATTR_SIZE_VER3, sizeof(attr) = 96 */
	.attr_size_max = PD_ATTR_SIZE_VER3,
	/*
	 * Pipe mode (header.c v3.10.99, perf_event__process_attr()): ids
	 * after 96 bytes. RHEL 7 perf looks for them after 112 bytes. The
	 * converter writes the 96-byte attr, 16 zero bytes, then the ids:
	 * upstream 3.10 reads two extra ids 0 (never an event's), RHEL 7
	 * zeros for the fields past VER3 (convert.c, open_writer()).
	 */
	.attr_size = PD_ATTR_SIZE_VER3,
	/*
	 * evsel.c (v3.10.99), perf_evsel__parse_sample(): IP, TID, TIME,
	 * ADDR, ID, STREAM_ID, CPU, PERIOD, CALLCHAIN, RAW, BRANCH_STACK,
	 * REGS_USER, STACK_USER, WEIGHT, DATA_SRC; a sample with READ is
	 * refused (returns -1)
	 */
	.sample_type = SAMPLE_310,
	/*
	 * No read_format bit is decoded: sample READ is refused (above) and
	 * PERF_RECORD_READ is read as a fixed struct (value, times, id)
	 * without looking at read_format (event.h v3.10.99, read_event)
	 */
	.read_format = 0,
	.branch_sample_type = 0,
	/*
	 * session.c (v3.10.99), perf_session_deliver_event(): MMAP, LOST,
	 * COMM, EXIT, THROTTLE, UNTHROTTLE, FORK, READ, SAMPLE; no MMAP2
	 * (event.c v3.10.99 has no name for it either)
	 */
	.kernel_records = KREC(PD_RECORD_MMAP, PD_RECORD_SAMPLE),
	/* event.h (v3.10.99): FINISHED_ROUND (68) is the last user type */
	.user_record_max = 69,
	/* header.h (v3.10.99): GROUP_DESC (17) is the last feature */
	.last_feature = 18,
	/* knows no HEADER_FEATURE (80): none of the pipe feature rules */
	.flags = 0,
	.fails_on_attr = FAIL_ATTR,
	.fails_on_record = FAIL_RECORD,
	/*
	 * uapi (v3.10.99): flags up to exclude_callchain_user (bit 22),
	 * __reserved_1:41; PERF_SAMPLE_BRANCH_MAX = 1 << 7
	 */
	.attr_flags = ATTR_FLAGS(23),
	.branch_filter = BRANCH_BITS(7),
};

static const struct pd_perf_target t_4_1 = {
	.name = "4.1",
	.description = "upstream perf 4.1",
	.version = PD_PERF_VERSION(4, 1),
	/* uapi (v4.1.15): PERF_ATTR_SIZE_VER5, sizeof(attr) = 112 */
	.attr_size_max = PD_ATTR_SIZE_VER5,
	.attr_size = PD_ATTR_SIZE_VER5,
	/* evsel.c (v4.1.15): adds READ, IDENTIFIER, TRANSACTION, REGS_INTR */
	.sample_type = SAMPLE_41,
	/* evsel.c (v4.1.15): GROUP, ID, TOTAL_TIME_ENABLED/RUNNING */
	.read_format = READ_41,
	.branch_sample_type = 0,
	/*
	 * session.c (v4.1.15), machines__deliver_event(): types 1-10 (MMAP2
	 * added); the kernel's AUX, ITRACE_START (4.1) are not delivered by
	 * this perf yet
	 */
	.kernel_records = KREC(PD_RECORD_MMAP, PD_RECORD_MMAP2),
	/* event.h (v4.1.15): ID_INDEX (69) is the last user type */
	.user_record_max = 70,
	/* header.h (v4.1.15): GROUP_DESC (17) is still the last feature */
	.last_feature = 18,
	.flags = 0,
	.fails_on_attr = FAIL_ATTR,
	.fails_on_record = FAIL_RECORD,
	/*
	 * uapi (v4.1.15): flags up to use_clockid (bit 25),
	 * __reserved_1:38; branch CALL_STACK (11) is the last
	 */
	.attr_flags = ATTR_FLAGS(26),
	.branch_filter = BRANCH_BITS(12),
};

static const struct pd_perf_target t_4_3 = {
	.name = "4.3",
	.description = "upstream perf 4.3",
	.version = PD_PERF_VERSION(4, 3),
	/* uapi (v4.3): sizeof(attr) = 112 */
	.attr_size_max = PD_ATTR_SIZE_VER5,
	.attr_size = PD_ATTR_SIZE_VER5,
	/* evsel.c (v4.3): same bits as 4.1 */
	.sample_type = SAMPLE_41,
	.read_format = READ_41,
	.branch_sample_type = 0,
	/*
	 * session.c (v4.3), machines__deliver_event(): types 1-15 (AUX,
	 * ITRACE_START, LOST_SAMPLES, SWITCH, SWITCH_CPU_WIDE added)
	 */
	.kernel_records = KREC(PD_RECORD_MMAP, PD_RECORD_SWITCH_CPU_WIDE),
	/* event.h (v4.3): AUXTRACE_ERROR (72) is the last user type */
	.user_record_max = 73,
	/* header.h (v4.3): AUXTRACE (18) is the last feature */
	.last_feature = 19,
	.flags = 0,
	.fails_on_attr = FAIL_ATTR,
	.fails_on_record = FAIL_RECORD,
	/*
	 * uapi (v4.3): flags up to context_switch (bit 26),
	 * __reserved_1:37; branch IND_JUMP (12) is the last
	 */
	.attr_flags = ATTR_FLAGS(27),
	.branch_filter = BRANCH_BITS(13),
};

/* Ubuntu 18.04's perf (linux-tools-4.15). */
static const struct pd_perf_target t_4_15 = {
	.name = "4.15",
	.description = "upstream perf 4.15",
	.version = PD_PERF_VERSION(4, 15),
	/* tools uapi (v4.15): PERF_ATTR_SIZE_VER5, sizeof(attr) = 112 */
	.attr_size_max = PD_ATTR_SIZE_VER5,
	.attr_size = PD_ATTR_SIZE_VER5,
	/* evsel.c (v4.15), perf_evsel__parse_sample(): 4.3's bits and
	 * PHYS_ADDR (4.14); no branch hw_idx */
	.sample_type = SAMPLE_418,
	.read_format = READ_41,
	.branch_sample_type = 0,
	/* session.c (v4.15), machines__deliver_event(): 1-16 (NAMESPACES) */
	.kernel_records = KREC(PD_RECORD_MMAP, PD_RECORD_NAMESPACES),
	/* event.h (v4.15): HEADER_FEATURE (80) is the last user type */
	.user_record_max = 81,
	/* header.h (v4.15): CACHE (20) is the last feature */
	.last_feature = 21,
	/* builtin-report.c (v4.15), process_feature_event(): "wrong
	 * feature ID" */
	.flags = PD_TGT_PIPE_FEATURE_ID_FATAL,
	.fails_on_attr = FAIL_ATTR,
	.fails_on_record = FAIL_RECORD,
	/* tools uapi (v4.15): flags up to namespaces (bit 28),
	 * __reserved_1:35; branch TYPE_SAVE (16) is the last */
	.attr_flags = ATTR_FLAGS(29),
	.branch_filter = BRANCH_BITS(17),
};

static const struct pd_perf_target t_4_18 = {
	.name = "4.18",
	.description = "upstream perf 4.18",
	.version = PD_PERF_VERSION(4, 18),
	/* tools uapi (v4.18): sizeof(attr) = 112 */
	.attr_size_max = PD_ATTR_SIZE_VER5,
	.attr_size = PD_ATTR_SIZE_VER5,
	/* evsel.c (v4.18): adds PHYS_ADDR; no branch hw_idx */
	.sample_type = SAMPLE_418,
	.read_format = READ_41,
	.branch_sample_type = 0,
	/* session.c (v4.18), machines__deliver_event(): 1-16 (NAMESPACES) */
	.kernel_records = KREC(PD_RECORD_MMAP, PD_RECORD_NAMESPACES),
	/*
	 * event.h (v4.18): HEADER_FEATURE (80) is the last user type.
	 *
	 * Pipe mode: perf writes and expects its own last feature as the
	 * end-of-features marker, 23 here; RHEL 8 perf knows feature 23
	 * (CLOCKID) and fails on an empty one (header.c of 4.18.0-147:
	 * process_clockid() cannot read its u64,
	 * perf_event__process_feature() returns -1). The writer gives
	 * marker 23 a zero u64 (features-internal.h,
	 * pd__pipe_marker_body()), which RHEL 8 and perf 6.1 read as a
	 * resolution of 0; the rhel8 target is still the one for RHEL 8.
	 */
	.user_record_max = 81,
	/* header.h (v4.18): MEM_TOPOLOGY (22) is the last feature */
	.last_feature = 23,
	/*
	 * builtin-report.c (v4.18), process_feature_event(): an id past
	 * HEADER_LAST_FEATURE is "wrong feature ID", -1
	 */
	.flags = PD_TGT_PIPE_FEATURE_ID_FATAL,
	.fails_on_attr = FAIL_ATTR,
	.fails_on_record = FAIL_RECORD,
	/*
	 * tools uapi (v4.18): flags up to namespaces (bit 28),
	 * __reserved_1:35; branch TYPE_SAVE (16) is the last
	 */
	.attr_flags = ATTR_FLAGS(29),
	.branch_filter = BRANCH_BITS(17),
};

/*
 * RHEL 7.9 perf: the kernel is 3.10 but tools/perf was rebased to a code
 * base close to upstream 5.0 (CLOCKID feature, no KSYMBOL or DIR_FORMAT),
 * hence version 5.0.
 */
static const struct pd_perf_target t_rhel7 = {
	.name = "rhel7",
	.description = "RHEL 7.9 perf (kernel 3.10.0-1160.el7)",
	.version = PD_PERF_VERSION(5, 0),
	/*
	 * tools uapi (3.10.0-1160.el7): PERF_ATTR_SIZE_VER5, sizeof(attr) =
	 * 112; upstream 3.10 accepts 96 only, so the 3.10 entry is the
	 * stricter one
	 */
	.attr_size_max = PD_ATTR_SIZE_VER5,
	.attr_size = PD_ATTR_SIZE_VER5,
	/*
	 * evsel.c (3.10.0-1160.el7): upstream 3.10's bits plus READ,
	 * IDENTIFIER, TRANSACTION, REGS_INTR, PHYS_ADDR; no hw_idx
	 */
	.sample_type = SAMPLE_418,
	.read_format = READ_41,
	.branch_sample_type = 0,
	/*
	 * session.c (3.10.0-1160.el7), machines__deliver_event(): 1-15; no
	 * NAMESPACES case (16), unlike upstream 4.12+ (event.c has no name
	 * for it either)
	 */
	.kernel_records = KREC(PD_RECORD_MMAP, PD_RECORD_SWITCH_CPU_WIDE),
	/* event.h (3.10.0-1160.el7): HEADER_FEATURE (80) is the last */
	.user_record_max = 81,
	/* header.h (3.10.0-1160.el7): CLOCKID (23) is the last feature */
	.last_feature = 24,
	/* builtin-report.c (3.10.0-1160.el7): "wrong feature ID" is fatal */
	.flags = PD_TGT_PIPE_FEATURE_ID_FATAL,
	.fails_on_attr = FAIL_ATTR,
	.fails_on_record = FAIL_RECORD,
	/*
	 * tools uapi (3.10.0-1160.el7): flags up to write_backward
	 * (bit 27), __reserved_1:36 (no namespaces bit); branch TYPE_SAVE (16)
	 * is the last
	 */
	.attr_flags = ATTR_FLAGS(28),
	.branch_filter = BRANCH_BITS(17),
};

/*
 * RHEL 8.1 perf: 4.18 kernel, perf code close to upstream 5.0 (CLOCKID
 * backported, libtraceevent tep_* names), hence version 5.0.
 */
static const struct pd_perf_target t_rhel8 = {
	.name = "rhel8",
	.description = "RHEL 8.1 perf (kernel 4.18.0-147.el8)",
	.version = PD_PERF_VERSION(5, 0),
	/* tools uapi (4.18.0-147.el8): sizeof(attr) = 112, as upstream */
	.attr_size_max = PD_ATTR_SIZE_VER5,
	.attr_size = PD_ATTR_SIZE_VER5,
	/* evsel.c (4.18.0-147.el8): the same bits as upstream 4.18 */
	.sample_type = SAMPLE_418,
	.read_format = READ_41,
	.branch_sample_type = 0,
	/*
	 * session.c (4.18.0-147.el8), machines__deliver_event(): 1-16, as
	 * upstream; no KSYMBOL/BPF_EVENT
	 */
	.kernel_records = KREC(PD_RECORD_MMAP, PD_RECORD_NAMESPACES),
	/* event.h (4.18.0-147.el8): HEADER_FEATURE (80) is the last */
	.user_record_max = 81,
	/*
	 * header.h (4.18.0-147.el8): CLOCKID (23) backported, so 24 where
	 * upstream 4.18 has 23 (see the pipe-marker note at 4.18)
	 */
	.last_feature = 24,
	/* builtin-report.c (4.18.0-147.el8): "wrong feature ID" is fatal */
	.flags = PD_TGT_PIPE_FEATURE_ID_FATAL,
	.fails_on_attr = FAIL_ATTR,
	.fails_on_record = FAIL_RECORD,
	/*
	 * tools uapi (4.18.0-147.el8): as upstream 4.18
	 */
	.attr_flags = ATTR_FLAGS(29),
	.branch_filter = BRANCH_BITS(17),
};

static const struct pd_perf_target t_5_4 = {
	.name = "5.4",
	.description = "upstream perf 5.4",
	.version = PD_PERF_VERSION(5, 4),
	/* tools uapi (v5.4.59): sizeof(attr) = 112 (AUX sampling is 5.5) */
	.attr_size_max = PD_ATTR_SIZE_VER5,
	.attr_size = PD_ATTR_SIZE_VER5,
	/* evsel.c (v5.4.59): the same bits as 4.18; no AUX, CGROUP */
	.sample_type = SAMPLE_418,
	.read_format = READ_41,
	.branch_sample_type = 0,
	/* session.c (v5.4.59): 1-18 (KSYMBOL, BPF_EVENT added) */
	.kernel_records = KREC(PD_RECORD_MMAP, PD_RECORD_BPF_EVENT),
	/*
	 * session.c (v5.4.59), perf_session__process_user_event(): COMPRESSED
	 * (81) is the last case; event.c names it last
	 */
	.user_record_max = 82,
	/* header.h (v5.4.59): COMPRESSED (27) is the last feature */
	.last_feature = 28,
	/* builtin-report.c (v5.4.59): "wrong feature ID" is fatal */
	.flags = PD_TGT_PIPE_FEATURE_ID_FATAL,
	.fails_on_attr = FAIL_ATTR,
	.fails_on_record = FAIL_RECORD,
	/*
	 * tools uapi (v5.4.59): flags up to aux_output (bit 31),
	 * __reserved_1:32; branch TYPE_SAVE (16) is the last
	 */
	.attr_flags = ATTR_FLAGS(32),
	.branch_filter = BRANCH_BITS(17),
};

static const struct pd_perf_target t_5_10 = {
	.name = "5.10",
	.description = "upstream perf 5.10",
	.version = PD_PERF_VERSION(5, 10),
	/* uapi (v5.10.13): PERF_ATTR_SIZE_VER6, sizeof(attr) = 120 */
	.attr_size_max = PD_ATTR_SIZE_VER6,
	.attr_size = PD_ATTR_SIZE_VER6,
	/*
	 * evsel.c (v5.10.13): adds AUX and CGROUP; no DATA/CODE_PAGE_SIZE
	 * or WEIGHT_STRUCT
	 */
	.sample_type = SAMPLE_510,
	.read_format = READ_41,
	/* evsel.c (v5.10.13): hw_idx read when the attr asks for it */
	.branch_sample_type = PD_BRANCH_HW_INDEX,
	/* session.c (v5.10.13): 1-20 (CGROUP, TEXT_POKE added) */
	.kernel_records = KREC(PD_RECORD_MMAP, PD_RECORD_TEXT_POKE),
	/* lib/perf event.h (v5.10.13): COMPRESSED (81) is the last */
	.user_record_max = 82,
	/* header.h (v5.10.13): CLOCK_DATA (29) is the last feature */
	.last_feature = 30,
	/*
	 * header.c (v5.10.13): a HEADER_BUILD_ID with misc BUILD_ID_SIZE
	 * uses its size byte (already in 5.10, not 5.11 as compat.h says);
	 * lib/perf event.h + tsc.c (v5.10.13): TIME_CONV has time_cycles,
	 * time_mask and the caps; builtin-report.c: "wrong feature ID".
	 * No PD_TGT_KERNEL_MMAP2: machine.c (v5.10.13),
	 * machine__process_mmap2_event() hands a KERNEL or GUEST_KERNEL
	 * MMAP2 to machine__process_kernel_mmap_event(), which reads
	 * event->mmap.filename, start, len and pgoff: the name at MMAP's
	 * offset 40, where an MMAP2 has maj/min or its build id. So a
	 * kernel MMAP2 ("[kernel.kallsyms]_text", perf 5.12+ with
	 * --buildid-mmap, 7.x always) is neither the kernel map nor a
	 * module's. The same code is in every older tree read (4.3,
	 * 4.18, 4.19, rhel7, rhel8).
	 */
	.flags = PD_TGT_BUILD_ID_SIZE | PD_TGT_TIME_CONV_EXT |
		 PD_TGT_PIPE_FEATURE_ID_FATAL,
	.fails_on_attr = FAIL_ATTR,
	.fails_on_record = FAIL_RECORD,
	/*
	 * tools uapi (v5.10.13): flags up to text_poke (bit 33),
	 * __reserved_1:30, so build_id (34, 5.12) is reserved here; branch
	 * HW_INDEX (17) is the last; offset 116 is __reserved_3. header.c
	 * (v5.10.13), perf_attr_check(): any of them set gives "Reserved
	 * bits are set unexpectedly. Please update perf tool." (the
	 * EVENT_DESC is dropped, and the event names with it)
	 */
	.attr_flags = ATTR_FLAGS(34),
	.branch_filter = BRANCH_BITS(18),
};

static const struct pd_perf_target t_5_14 = {
	.name = "5.14",
	.description = "upstream perf 5.14",
	.version = PD_PERF_VERSION(5, 14),
	/* tools uapi (v5.14-rc5): PERF_ATTR_SIZE_VER7, sizeof(attr) = 128 */
	.attr_size_max = PD_ATTR_SIZE_VER7,
	.attr_size = PD_ATTR_SIZE_VER7,
	/*
	 * evsel.c (v5.14-rc5): every bit up to WEIGHT_STRUCT (the
	 * PERF_SAMPLE_WEIGHT_TYPE test), page sizes included
	 */
	.sample_type = SAMPLE_514,
	.read_format = READ_41,
	.branch_sample_type = PD_BRANCH_HW_INDEX,
	/* session.c (v5.14-rc5): 1-20, as 5.10 */
	.kernel_records = KREC(PD_RECORD_MMAP, PD_RECORD_TEXT_POKE),
	/* lib/perf event.h (v5.14-rc5): COMPRESSED (81) is the last */
	.user_record_max = 82,
	/* header.h (v5.14-rc5): HYBRID_CPU_PMU_CAPS (31) is the last */
	.last_feature = 32,
	/*
	 * header.c (v5.14-rc5): BUILD_ID_SIZE; machine.c: MMAP2 with misc
	 * MMAP_BUILD_ID; tsc.c: TIME_CONV extension; builtin-report.c:
	 * "wrong feature ID". machine.c (v5.14-rc5),
	 * machine__process_mmap2_event(): a kernel MMAP2's start, len,
	 * pgoff and filename go into a struct extra_kernel_map for
	 * machine__process_kernel_mmap_event(), so it makes the kernel
	 * or module map (since 5.11: Jiri Olsa's "perf tools: Use struct
	 * extra_kernel_map in machine__process_kernel_mmap_event", posted
	 * 2020-11, after 5.10; the same in 5.15.85, 6.1, 6.6.9, 6.8.1,
	 * 6.12.19 and 6.17)
	 */
	.flags = PD_TGT_BUILD_ID_SIZE | PD_TGT_MMAP2_BUILD_ID |
		 PD_TGT_KERNEL_MMAP2 | PD_TGT_TIME_CONV_EXT |
		 PD_TGT_PIPE_FEATURE_ID_FATAL,
	.fails_on_attr = FAIL_ATTR,
	.fails_on_record = FAIL_RECORD,
	/*
	 * tools uapi (v5.14-rc5): flags up to sigtrap (bit 37),
	 * __reserved_1:26; branch HW_INDEX (17) is the last
	 */
	.attr_flags = ATTR_FLAGS(38),
	.branch_filter = BRANCH_BITS(18),
};

/*
 * RHEL 9 perf. No RHEL 9 or CentOS Stream 9 kernel tree could be read (the
 * stored CentOS repositories hold only packaging), so these are the
 * upstream 5.14 facts, which RHEL 9.0's perf (5.14 base with backports)
 * meets or exceeds. Later RHEL 9 minor releases rebase perf further; not
 * verified: if one were rebased to upstream 6.3-6.5 it would look for
 * pipe-mode HEADER_ATTR ids after 136 bytes, not 128.
 */
static const struct pd_perf_target t_rhel9 = {
	.name = "rhel9",
	.description = "RHEL 9 perf (kernel 5.14.0-*.el9; upstream 5.14 facts)",
	.version = PD_PERF_VERSION(5, 14),
	.attr_size_max = PD_ATTR_SIZE_VER7,
	.attr_size = PD_ATTR_SIZE_VER7,
	.sample_type = SAMPLE_514,
	.read_format = READ_41,
	.branch_sample_type = PD_BRANCH_HW_INDEX,
	.kernel_records = KREC(PD_RECORD_MMAP, PD_RECORD_TEXT_POKE),
	.user_record_max = 82,
	.last_feature = 32,
	.flags = PD_TGT_BUILD_ID_SIZE | PD_TGT_MMAP2_BUILD_ID |
		 PD_TGT_KERNEL_MMAP2 | PD_TGT_TIME_CONV_EXT |
		 PD_TGT_PIPE_FEATURE_ID_FATAL,
	.fails_on_attr = FAIL_ATTR,
	.fails_on_record = FAIL_RECORD,
	/*
	 * upstream 5.14 facts (see above)
	 */
	.attr_flags = ATTR_FLAGS(38),
	.branch_filter = BRANCH_BITS(18),
};

static const struct pd_perf_target t_6_1 = {
	.name = "6.1",
	.description = "upstream perf 6.1",
	.version = PD_PERF_VERSION(6, 1),
	/* tools uapi (v6.1-rc7): sizeof(attr) = 128 (config3 is 6.3) */
	.attr_size_max = PD_ATTR_SIZE_VER7,
	.attr_size = PD_ATTR_SIZE_VER7,
	/* evsel.c (v6.1-rc7): as 5.14 */
	.sample_type = SAMPLE_514,
	/* evsel.c (v6.1-rc7): PERF_FORMAT_LOST read after each value */
	.read_format = READ_61,
	.branch_sample_type = PD_BRANCH_HW_INDEX,
	/* session.c (v6.1-rc7): 1-21 (AUX_OUTPUT_HW_ID added) */
	.kernel_records = KREC(PD_RECORD_MMAP, PD_RECORD_AUX_OUTPUT_HW_ID),
	/* lib/perf event.h (v6.1-rc7): FINISHED_INIT (82) is the last */
	.user_record_max = 83,
	/* header.h (v6.1-rc7): PMU_CAPS (31) is the last feature */
	.last_feature = 32,
	/*
	 * lib/perf cpumap.c (v6.1-rc7): RANGE_CPUS; session.c: ID_INDEX
	 * entries with machine_pid/vcpu; stat.c: a STAT record's cpu looked
	 * up in the event's CPU map (perf_cpu_map__idx(), "Invalid CPU %d
	 * for event %s" when absent: run here on a per-task stat file of
	 * perf 4.18, whose cpu 0 is the position in { -1 }); plus the 5.14
	 * flags
	 */
	.flags = PD_TGT_BUILD_ID_SIZE | PD_TGT_MMAP2_BUILD_ID |
		 PD_TGT_KERNEL_MMAP2 | PD_TGT_CPU_MAP_RANGE |
		 PD_TGT_STAT_CPU_NUMBER |
		 PD_TGT_TIME_CONV_EXT |
		 PD_TGT_ID_INDEX_EXT | PD_TGT_PIPE_FEATURE_ID_FATAL,
	.fails_on_attr = FAIL_ATTR,
	.fails_on_record = FAIL_RECORD,
	/*
	 * tools uapi (v6.1-rc7): flags up to sigtrap (bit 37); branch
	 * PRIV_SAVE (18) is the last
	 */
	.attr_flags = ATTR_FLAGS(38),
	.branch_filter = BRANCH_BITS(19),
};

static const struct pd_perf_target t_6_6 = {
	.name = "6.6",
	.description = "upstream perf 6.6",
	.version = PD_PERF_VERSION(6, 6),
	/* tools uapi (v6.6.9): PERF_ATTR_SIZE_VER8, sizeof(attr) = 136 */
	.attr_size_max = PD_ATTR_SIZE_VER8,
	.attr_size = PD_ATTR_SIZE_VER8,
	.sample_type = SAMPLE_514,
	.read_format = READ_61,
	/* evsel.c (v6.6.9): hw_idx; branch counters are not read yet */
	.branch_sample_type = PD_BRANCH_HW_INDEX,
	/* session.c (v6.6.9): 1-21 */
	.kernel_records = KREC(PD_RECORD_MMAP, PD_RECORD_AUX_OUTPUT_HW_ID),
	/* lib/perf event.h (v6.6.9): FINISHED_INIT (82) is the last */
	.user_record_max = 83,
	/* header.h (v6.6.9): PMU_CAPS (31) is the last feature */
	.last_feature = 32,
	/*
	 * header.c (v6.6.9), perf_event__process_attr(): ids counted from
	 * attr.size (perf_record_header_attr_id()); plus the 6.1 flags
	 */
	.flags = PD_TGT_PIPE_ATTR_BY_SIZE | PD_TGT_BUILD_ID_SIZE |
		 PD_TGT_MMAP2_BUILD_ID | PD_TGT_KERNEL_MMAP2 |
		 PD_TGT_CPU_MAP_RANGE | PD_TGT_STAT_CPU_NUMBER |
		 PD_TGT_TIME_CONV_EXT | PD_TGT_ID_INDEX_EXT |
		 PD_TGT_PIPE_FEATURE_ID_FATAL,
	.fails_on_attr = FAIL_ATTR,
	.fails_on_record = FAIL_RECORD,
	/*
	 * tools uapi (v6.6.9): as 6.1
	 */
	.attr_flags = ATTR_FLAGS(38),
	.branch_filter = BRANCH_BITS(19),
};

/*
 * Ubuntu 24.04's perf; Debian 13's 6.12 reads what 6.8 reads (every
 * fact below is the same in the 6.12.19 tree; aux_action came with 6.13,
 * COMPRESSED2 with 6.15).
 */
static const struct pd_perf_target t_6_8 = {
	.name = "6.8",
	.description = "upstream perf 6.8 (to 6.12)",
	.version = PD_PERF_VERSION(6, 8),
	/* tools uapi (v6.8.1): PERF_ATTR_SIZE_VER8, sizeof(attr) = 136 */
	.attr_size_max = PD_ATTR_SIZE_VER8,
	.attr_size = PD_ATTR_SIZE_VER8,
	.sample_type = SAMPLE_514,
	.read_format = READ_61,
	/* evsel.c (v6.8.1), evsel__parse_sample(): hw_idx, and the branch
	 * counters when evsel__has_branch_counters() */
	.branch_sample_type = PD_BRANCH_HW_INDEX | PD_BRANCH_COUNTERS,
	/* session.c (v6.8.1): 1-21 */
	.kernel_records = KREC(PD_RECORD_MMAP, PD_RECORD_AUX_OUTPUT_HW_ID),
	/* lib/perf event.h (v6.8.1): FINISHED_INIT (82) is the last */
	.user_record_max = 83,
	/* header.h (v6.8.1): PMU_CAPS (31) is the last feature */
	.last_feature = 32,
	/* header.c (v6.8.1): ids after attr.size; builtin-report.c: "wrong
	 * feature ID"; plus the 6.1 flags */
	.flags = PD_TGT_PIPE_ATTR_BY_SIZE | PD_TGT_BUILD_ID_SIZE |
		 PD_TGT_MMAP2_BUILD_ID | PD_TGT_KERNEL_MMAP2 |
		 PD_TGT_CPU_MAP_RANGE | PD_TGT_STAT_CPU_NUMBER |
		 PD_TGT_TIME_CONV_EXT | PD_TGT_ID_INDEX_EXT |
		 PD_TGT_PIPE_FEATURE_ID_FATAL,
	.fails_on_attr = FAIL_ATTR,
	.fails_on_record = FAIL_RECORD,
	/* tools uapi (v6.8.1): flags up to sigtrap (bit 37); branch
	 * COUNTERS (19) is the last */
	.attr_flags = ATTR_FLAGS(38),
	.branch_filter = BRANCH_BITS(20),
};

/*
 * 6.16, read from the 6.17 tree: BPF_METADATA (84) came with 6.17 (Blake
 * Jones' series; docs/perf-data-format.md section 5), so 6.16's HEADER_MAX
 * is 84. Nothing else below changed between 6.16 and 6.17 that the
 * reference note or the tree shows; not checked against a 6.16 tree.
 */
static const struct pd_perf_target t_6_16 = {
	.name = "6.16",
	.description = "upstream perf 6.16",
	.version = PD_PERF_VERSION(6, 16),
	/* tools uapi (v6.17): sizeof(attr) = 136; config4 is not there */
	.attr_size_max = PD_ATTR_SIZE_VER8,
	.attr_size = PD_ATTR_SIZE_VER8,
	.sample_type = SAMPLE_514,
	.read_format = READ_61,
	/* evsel.c (v6.17): hw_idx and branch counters (6.8) */
	.branch_sample_type = PD_BRANCH_HW_INDEX | PD_BRANCH_COUNTERS,
	/* session.c (v6.17): 1-21; CALLCHAIN_DEFERRED (22) is later */
	.kernel_records = KREC(PD_RECORD_MMAP, PD_RECORD_AUX_OUTPUT_HW_ID),
	/* lib/perf event.h (v6.17) less BPF_METADATA: COMPRESSED2 (83) */
	.user_record_max = 84,
	/* header.h (v6.17): PMU_CAPS (31) is still the last feature */
	.last_feature = 32,
	/*
	 * session.c (v6.17; the change is "perf report: Skip unsupported
	 * new event types", applied April 2025 for 6.16): a type past
	 * HEADER_MAX with a size that is a multiple of 8 gets a warning and
	 * is skipped. In file mode the skip is counted twice (the reader
	 * adds the returned size to the record size), so the bytes after
	 * it are skipped too: converting still drops unknown types.
	 */
	.flags = PD_TGT_PIPE_ATTR_BY_SIZE | PD_TGT_BUILD_ID_SIZE |
		 PD_TGT_MMAP2_BUILD_ID | PD_TGT_KERNEL_MMAP2 |
		 PD_TGT_CPU_MAP_RANGE | PD_TGT_STAT_CPU_NUMBER |
		 PD_TGT_SKIPS_UNKNOWN_USER | PD_TGT_TIME_CONV_EXT |
		 PD_TGT_ID_INDEX_EXT | PD_TGT_PIPE_FEATURE_ID_FATAL,
	.fails_on_attr = FAIL_ATTR,
	.fails_on_record =
		"warns \"Unsupported header type N, please consider updating "
		"perf.\" and skips an unknown perf-tool type (and, in file "
		"mode, as many bytes after it); stops at an unknown kernel "
		"type (\"Found N unknown events!\")",
	/*
	 * tools uapi (v6.17): flags up to sigtrap (bit 37); branch
	 * COUNTERS (19) is the last; aux_action has aux_start_paused,
	 * aux_pause, aux_resume (bits 0-2, 6.13)
	 */
	.attr_flags = ATTR_FLAGS(38),
	.branch_filter = BRANCH_BITS(20),
	.aux_action = 0x7,
};

/*
 * Oldest perf code first (the version field); the RHEL builds sit where
 * their perf code does.
 */
static const struct pd_perf_target *const targets[] = {
	&t_3_10,
	&t_4_1,
	&t_4_3,
	&t_4_15,
	&t_4_18,
	&t_rhel7,
	&t_rhel8,
	&t_5_4,
	&t_5_10,
	&t_5_14,
	&t_rhel9,
	&t_6_1,
	&t_6_6,
	&t_6_8,
	&t_6_16,
	NULL,
};

PD_EXPORT const struct pd_perf_target *const *pd_perf_targets(void)
{
	return targets;
}

const struct pd_perf_target *pd__perf_target_named(const char *name)
{
	size_t i;

	if (name && !strcmp(name, "newest"))
		return &t_6_16;
	for (i = 0; name && targets[i]; i++)
		if (!strcmp(targets[i]->name, name))
			return targets[i];
	errno = ENOENT;
	return NULL;
}

PD_EXPORT bool pd_perf_target__knows_record(const struct pd_perf_target *t,
					    uint32_t type)
{
	if (!t || type == 0)
		return false;
	if (type < PD_RECORD_USER_MIN)
		return t->kernel_records & (1ULL << type);
	return type < t->user_record_max;
}

PD_EXPORT bool pd_perf_target__knows_feature(const struct pd_perf_target *t,
					     unsigned int feat)
{
	return t && feat > PD_FEAT_RESERVED && feat < t->last_feature;
}
