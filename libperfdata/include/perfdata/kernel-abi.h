/* SPDX-License-Identifier: MIT */
/*
 * The kernel interfaces behind perf.data that are not perf.data's own
 * layout: the perf_event_open() calls a recorder makes (flags, ioctls,
 * the ring buffer's control page), the bpf() calls that list the loaded
 * BPF programs, and the kernel objects those calls return which perf
 * keeps verbatim in its BPF_PROG_INFO and BPF_BTF features (struct
 * bpf_prog_info, raw BTF).
 *
 * Why a header of its own: format.h says what the bytes of a perf.data
 * file mean (records, attrs, feature ids), values both perf and the
 * kernel agree on. What is here is the kernel's alone: system-call
 * numbers and argument structures, and objects perf stores as the
 * kernel returned them, in the kernel's layout and versioning (a
 * bpf_prog_info grows by kernel release, not by perf.data revision).
 * In format.h they would mix what every reader of files needs with
 * what a recorder calls and a few readers decode. Together, the two are
 * every kernel constant and layout this project reads or writes: the
 * build never takes them from the build machine's linux/ headers, whose
 * age would otherwise decide which files we can read (Debian 11's
 * headers know no BTF kind after DATASEC, a shorter bpf_prog_info...).
 *
 * The values are facts of the kernel ABI, written here from its
 * documented layout; each says the kernel release that introduced it.
 * Names carry a PD_ / pd_ prefix so this header can be included next to
 * the kernel's own. Structures are laid out as the kernel lays them out
 * on every architecture: 64-bit members are 8-byte aligned even where
 * the C ABI aligns uint64_t to 4 (i386), as the kernel's __aligned_u64.
 */
#ifndef PERFDATA_KERNEL_ABI_H
#define PERFDATA_KERNEL_ABI_H

#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t pd_aligned_u64 __attribute__((aligned(8)));

/*
 * System-call numbers. glibc's <sys/syscall.h> names both since long
 * before 2.28; the fallbacks are for a C library that does not, with the
 * numbers of the two architectures we build on (x86_64, aarch64's
 * generic table).
 */
#ifndef SYS_perf_event_open
# if defined(__x86_64__)
#  define SYS_perf_event_open	298	/* 2.6.31 */
# elif defined(__aarch64__)
#  define SYS_perf_event_open	241	/* 3.7, aarch64's first */
# endif
#endif
#ifndef SYS_bpf
# if defined(__x86_64__)
#  define SYS_bpf		321	/* 3.18 */
# elif defined(__aarch64__)
#  define SYS_bpf		280	/* 3.18 */
# endif
#endif

/* ---- perf_event_open(2) ---------------------------------------------- */

/* its flags argument (the two that came first are not used here) */
#define PD_PERF_FLAG_PID_CGROUP		(1UL << 2)	/* 2.6.39 */
#define PD_PERF_FLAG_FD_CLOEXEC		(1UL << 3)	/* 3.14 */

/*
 * ioctls on an event fd, those a recorder uses: type '$', the number,
 * and the argument's type, whose size is part of the encoding (hence a
 * pointer's size for ID and SET_FILTER).
 */
#define PD_PERF_IOC_ENABLE	_IO('$', 0)			/* 2.6.31 */
#define PD_PERF_IOC_DISABLE	_IO('$', 1)			/* 2.6.31 */
#define PD_PERF_IOC_SET_OUTPUT	_IO('$', 5)			/* 2.6.33 */
#define PD_PERF_IOC_SET_FILTER	_IOW('$', 6, char *)		/* 2.6.33 */
#define PD_PERF_IOC_ID		_IOR('$', 7, uint64_t *)	/* 3.12 */

/*
 * The ring buffer's first page (struct perf_event_mmap_page): the
 * fields before these fill exactly 1 KiB, so these offsets have not
 * moved since 2.6.31. data_head: how far the kernel has written;
 * data_tail: how far the reader has read (the kernel does not overwrite
 * beyond it when the page is mapped writable).
 */
#define PD_MMAP_PAGE_DATA_HEAD		1024	/* u64, 2.6.31 */
#define PD_MMAP_PAGE_DATA_TAIL		1032	/* u64, 2.6.31 */
#define PD_MMAP_PAGE_DATA_OFFSET	1040	/* u64, 4.1 */
#define PD_MMAP_PAGE_DATA_SIZE		1048	/* u64, 4.1 */

/* ---- bpf(2) ------------------------------------------------------------ */

#define PD_BPF_OBJ_NAME_LEN	16	/* 4.15 */
#define PD_BPF_TAG_SIZE		8	/* 4.10 */

/* commands: bpf()'s first argument */
enum pd_bpf_cmd {
	PD_BPF_MAP_CREATE		= 0,	/* 3.18 */
	PD_BPF_PROG_LOAD		= 5,	/* 3.18 */
	PD_BPF_PROG_GET_NEXT_ID		= 11,	/* 4.13 */
	PD_BPF_MAP_GET_NEXT_ID		= 12,	/* 4.13 */
	PD_BPF_PROG_GET_FD_BY_ID	= 13,	/* 4.13 */
	PD_BPF_MAP_GET_FD_BY_ID		= 14,	/* 4.13 */
	PD_BPF_OBJ_GET_INFO_BY_FD	= 15,	/* 4.13 */
	PD_BPF_BTF_LOAD			= 18,	/* 4.18 */
	PD_BPF_BTF_GET_FD_BY_ID		= 19,	/* 4.18 */
};

#define PD_BPF_PROG_TYPE_SOCKET_FILTER	1	/* 3.19 */

/*
 * One instruction: opcode, destination and source registers (4 bits
 * each, declared as bitfields as the kernel declares them, so that each
 * byte order puts them where its kernel reads them), offset, immediate.
 */
struct pd_bpf_insn {
	uint8_t code;
	uint8_t dst_reg:4;
	uint8_t src_reg:4;
	int16_t off;
	int32_t imm;
};

/* opcode parts used to build the smallest programs (3.18) */
#define PD_BPF_JMP		0x05	/* class */
#define PD_BPF_ALU64		0x07	/* class */
#define PD_BPF_K		0x00	/* source: the immediate */
#define PD_BPF_MOV		0xb0	/* ALU op */
#define PD_BPF_CALL		0x80	/* JMP op */
#define PD_BPF_EXIT		0x90	/* JMP op */
#define PD_BPF_REG_0		0
#define PD_BPF_PSEUDO_CALL	1	/* src_reg of a call to a sub-program, 4.16 */

/* a func_info record: the BTF function at an instruction (5.0) */
struct pd_bpf_func_info {
	uint32_t insn_off;
	uint32_t type_id;
};

/*
 * bpf()'s attribute block, the members of the commands used here. The
 * kernel takes any size: it zero-extends a shorter block and refuses a
 * longer one only if the bytes it does not know are not zero, so the
 * block is zeroed, then filled.
 */
union pd_bpf_attr {
	struct {			/* PD_BPF_PROG_LOAD */
		uint32_t prog_type;		/* 3.18 */
		uint32_t insn_cnt;		/* 3.18 */
		pd_aligned_u64 insns;		/* 3.18 */
		pd_aligned_u64 license;		/* 3.18 */
		uint32_t log_level;		/* 3.18 */
		uint32_t log_size;		/* 3.18 */
		pd_aligned_u64 log_buf;		/* 3.18 */
		uint32_t kern_version;		/* 4.1 */
		uint32_t prog_flags;		/* 4.12 */
		char prog_name[PD_BPF_OBJ_NAME_LEN];	/* 4.15 */
		uint32_t prog_ifindex;		/* 4.15 */
		uint32_t expected_attach_type;	/* 4.17 */
		uint32_t prog_btf_fd;		/* 5.0 */
		uint32_t func_info_rec_size;	/* 5.0 */
		pd_aligned_u64 func_info;	/* 5.0 */
		uint32_t func_info_cnt;		/* 5.0 */
	} prog;
	struct {			/* PD_BPF_BTF_LOAD, 4.18 */
		pd_aligned_u64 btf;
		pd_aligned_u64 btf_log_buf;
		uint32_t btf_size;
		uint32_t btf_log_size;
		uint32_t btf_log_level;
	} btf;
	struct {			/* PD_BPF_*_GET_NEXT_ID, _GET_FD_BY_ID, 4.13 */
		uint32_t id;	/* the start id, or the object's id */
		uint32_t next_id;
		uint32_t open_flags;		/* 4.15 */
	} get_id;
	struct {			/* PD_BPF_OBJ_GET_INFO_BY_FD, 4.13 */
		uint32_t bpf_fd;
		uint32_t info_len;	/* in: room; out: what was filled */
		pd_aligned_u64 info;
	} info;
};

/*
 * A program's info (PD_BPF_OBJ_GET_INFO_BY_FD on a program), as perf
 * 6.0 and later keep it in BPF_PROG_INFO: the fields up to
 * attach_btf_id, 232 bytes. The kernel fills the first info_len bytes
 * it knows; a file from an older kernel or perf has a shorter one
 * (208 bytes from 5.1, 216 from 5.12, 224 from 5.16). The array fields
 * are user pointers when asking, offsets into the saved arrays in a
 * perf.data file.
 */
struct pd_bpf_prog_info {
	uint32_t type;				/* 4.13 */
	uint32_t id;				/* 4.13 */
	uint8_t tag[PD_BPF_TAG_SIZE];		/* 4.13 */
	uint32_t jited_prog_len;		/* 4.13 */
	uint32_t xlated_prog_len;		/* 4.13 */
	pd_aligned_u64 jited_prog_insns;	/* 4.13 */
	pd_aligned_u64 xlated_prog_insns;	/* 4.13 */
	uint64_t load_time;			/* 4.15, ns since boot */
	uint32_t created_by_uid;		/* 4.15 */
	uint32_t nr_map_ids;			/* 4.15 */
	pd_aligned_u64 map_ids;			/* 4.15 */
	char name[PD_BPF_OBJ_NAME_LEN];		/* 4.15 */
	uint32_t ifindex;			/* 4.16 */
	uint32_t flags;		/* bit 0: gpl_compatible, 5.1 */
	uint64_t netns_dev;			/* 4.16 */
	uint64_t netns_ino;			/* 4.16 */
	uint32_t nr_jited_ksyms;		/* 4.18 */
	uint32_t nr_jited_func_lens;		/* 4.18 */
	pd_aligned_u64 jited_ksyms;		/* 4.18 */
	pd_aligned_u64 jited_func_lens;		/* 4.18 */
	uint32_t btf_id;			/* 5.0 */
	uint32_t func_info_rec_size;		/* 5.0 */
	pd_aligned_u64 func_info;		/* 5.0 */
	uint32_t nr_func_info;			/* 5.0 */
	uint32_t nr_line_info;			/* 5.0 */
	pd_aligned_u64 line_info;		/* 5.0 */
	pd_aligned_u64 jited_line_info;		/* 5.0 */
	uint32_t nr_jited_line_info;		/* 5.0 */
	uint32_t line_info_rec_size;		/* 5.0 */
	uint32_t jited_line_info_rec_size;	/* 5.0 */
	uint32_t nr_prog_tags;			/* 5.0 */
	pd_aligned_u64 prog_tags;		/* 5.0 */
	uint64_t run_time_ns;			/* 5.1 */
	uint64_t run_cnt;			/* 5.1 */
	uint64_t recursion_misses;		/* 5.12 */
	uint32_t verified_insns;		/* 5.16 */
	uint32_t attach_btf_obj_id;		/* 6.0 */
	uint32_t attach_btf_id;			/* 6.0 */
} __attribute__((aligned(8)));

#define PD_BPF_PROG_INFO_SIZE	232

/* A BTF object's info (PD_BPF_OBJ_GET_INFO_BY_FD on a BTF fd). */
struct pd_bpf_btf_info {
	pd_aligned_u64 btf;	/* 4.18: where to copy the raw BTF */
	uint32_t btf_size;	/* 4.18 */
	uint32_t id;		/* 4.18 */
	pd_aligned_u64 name;	/* 5.11 */
	uint32_t name_len;	/* 5.11 */
	uint32_t kernel_btf;	/* 5.11 */
} __attribute__((aligned(8)));

/* ---- BTF, the raw type format (4.18) ----------------------------------- */

#define PD_BTF_MAGIC	0xeB9F
#define PD_BTF_VERSION	1

/* the header; types and strings follow it at the offsets it gives */
struct pd_btf_header {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t type_off;	/* from the end of the header */
	uint32_t type_len;
	uint32_t str_off;	/* from the end of the header */
	uint32_t str_len;
};

/*
 * A type: its name (an offset in the strings), its info word and a size
 * or a referenced type id, then data whose size depends on its kind.
 * Type ids count from 1 in the order of the records (0 is void).
 */
struct pd_btf_type {
	uint32_t name_off;
	uint32_t info;
	uint32_t size_or_type;
};

/* info: vlen in bits 0-15, kind from bit 24 (4 bits until 5.13's FLOAT
 * made it 5), kind_flag bit 31 (5.0) */
#define PD_BTF_INFO_VLEN(info)	((info) & 0xffff)
#define PD_BTF_INFO_KIND(info)	(((info) >> 24) & 0x1f)
#define PD_BTF_INFO_KFLAG(info)	((info) >> 31)
#define PD_BTF_INFO(kind, kflag, vlen) \
	((uint32_t)(kflag) << 31 | (uint32_t)(kind) << 24 | (uint32_t)(vlen))

enum pd_btf_kind {
	PD_BTF_KIND_UNKN	= 0,
	PD_BTF_KIND_INT		= 1,	/* 4.18 */
	PD_BTF_KIND_PTR		= 2,	/* 4.18 */
	PD_BTF_KIND_ARRAY	= 3,	/* 4.18 */
	PD_BTF_KIND_STRUCT	= 4,	/* 4.18 */
	PD_BTF_KIND_UNION	= 5,	/* 4.18 */
	PD_BTF_KIND_ENUM	= 6,	/* 4.18 */
	PD_BTF_KIND_FWD		= 7,	/* 4.18 */
	PD_BTF_KIND_TYPEDEF	= 8,	/* 4.18 */
	PD_BTF_KIND_VOLATILE	= 9,	/* 4.18 */
	PD_BTF_KIND_CONST	= 10,	/* 4.18 */
	PD_BTF_KIND_RESTRICT	= 11,	/* 4.18 */
	PD_BTF_KIND_FUNC	= 12,	/* 5.0 */
	PD_BTF_KIND_FUNC_PROTO	= 13,	/* 5.0 */
	PD_BTF_KIND_VAR		= 14,	/* 5.2 */
	PD_BTF_KIND_DATASEC	= 15,	/* 5.2 */
	PD_BTF_KIND_FLOAT	= 16,	/* 5.13 */
	PD_BTF_KIND_DECL_TAG	= 17,	/* 5.16 */
	PD_BTF_KIND_TYPE_TAG	= 18,	/* 5.17 */
	PD_BTF_KIND_ENUM64	= 19,	/* 6.0 */
};

/* INT's data: a u32 with the encoding in bits 24-27, offset, bits */
#define PD_BTF_INT_SIGNED	(1u << 0)
#define PD_BTF_INT_DATA(encoding, offset, bits) \
	((uint32_t)(encoding) << 24 | (uint32_t)(offset) << 16 | (uint32_t)(bits))

/* the data after a type record, by kind */
struct pd_btf_array {		/* ARRAY: one */
	uint32_t type;
	uint32_t index_type;
	uint32_t nelems;
};

struct pd_btf_member {		/* STRUCT, UNION: vlen of them */
	uint32_t name_off;
	uint32_t type;
	uint32_t offset;	/* bits; with kind_flag, bitfield size << 24 */
};

struct pd_btf_enum {		/* ENUM: vlen of them */
	uint32_t name_off;
	int32_t val;
};

struct pd_btf_param {		/* FUNC_PROTO: vlen of them */
	uint32_t name_off;
	uint32_t type;
};

struct pd_btf_var {		/* VAR: one */
	uint32_t linkage;
};

struct pd_btf_var_secinfo {	/* DATASEC: vlen of them */
	uint32_t type;
	uint32_t offset;
	uint32_t size;
};

struct pd_btf_decl_tag {	/* DECL_TAG: one */
	int32_t component_idx;
};

struct pd_btf_enum64 {		/* ENUM64: vlen of them */
	uint32_t name_off;
	uint32_t val_lo32;
	uint32_t val_hi32;
};

/*
 * Bytes of kind-specific data after a type record with this info word;
 * -1 for a kind this header does not know (its size is unknown, so the
 * types after it cannot be found: libbpf refuses such a BTF).
 */
static inline int64_t pd_btf_type_extra(uint32_t info)
{
	int64_t vlen = PD_BTF_INFO_VLEN(info);

	switch (PD_BTF_INFO_KIND(info)) {
	case PD_BTF_KIND_INT:
		return 4;
	case PD_BTF_KIND_VAR:
		return sizeof(struct pd_btf_var);
	case PD_BTF_KIND_DECL_TAG:
		return sizeof(struct pd_btf_decl_tag);
	case PD_BTF_KIND_ARRAY:
		return sizeof(struct pd_btf_array);
	case PD_BTF_KIND_STRUCT:
	case PD_BTF_KIND_UNION:
		return vlen * (int64_t)sizeof(struct pd_btf_member);
	case PD_BTF_KIND_ENUM:
		return vlen * (int64_t)sizeof(struct pd_btf_enum);
	case PD_BTF_KIND_FUNC_PROTO:
		return vlen * (int64_t)sizeof(struct pd_btf_param);
	case PD_BTF_KIND_DATASEC:
		return vlen * (int64_t)sizeof(struct pd_btf_var_secinfo);
	case PD_BTF_KIND_ENUM64:
		return vlen * (int64_t)sizeof(struct pd_btf_enum64);
	case PD_BTF_KIND_PTR:
	case PD_BTF_KIND_FWD:
	case PD_BTF_KIND_TYPEDEF:
	case PD_BTF_KIND_VOLATILE:
	case PD_BTF_KIND_CONST:
	case PD_BTF_KIND_RESTRICT:
	case PD_BTF_KIND_FUNC:
	case PD_BTF_KIND_FLOAT:
	case PD_BTF_KIND_TYPE_TAG:
		return 0;
	default:
		return -1;
	}
}

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_KERNEL_ABI_H */
