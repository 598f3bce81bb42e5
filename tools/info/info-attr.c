// SPDX-License-Identifier: MIT
#include <inttypes.h>

#include "info-attr.h"

struct bit_name {
	uint64_t bit;
	const char *name;
};

static const struct bit_name sample_bits[] = {
	{ PD_SAMPLE_IP, "IP" }, { PD_SAMPLE_TID, "TID" },
	{ PD_SAMPLE_TIME, "TIME" }, { PD_SAMPLE_ADDR, "ADDR" },
	{ PD_SAMPLE_READ, "READ" }, { PD_SAMPLE_CALLCHAIN, "CALLCHAIN" },
	{ PD_SAMPLE_ID, "ID" }, { PD_SAMPLE_CPU, "CPU" },
	{ PD_SAMPLE_PERIOD, "PERIOD" }, { PD_SAMPLE_STREAM_ID, "STREAM_ID" },
	{ PD_SAMPLE_RAW, "RAW" }, { PD_SAMPLE_BRANCH_STACK, "BRANCH_STACK" },
	{ PD_SAMPLE_REGS_USER, "REGS_USER" },
	{ PD_SAMPLE_STACK_USER, "STACK_USER" },
	{ PD_SAMPLE_WEIGHT, "WEIGHT" }, { PD_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ PD_SAMPLE_IDENTIFIER, "IDENTIFIER" },
	{ PD_SAMPLE_TRANSACTION, "TRANSACTION" },
	{ PD_SAMPLE_REGS_INTR, "REGS_INTR" },
	{ PD_SAMPLE_PHYS_ADDR, "PHYS_ADDR" }, { PD_SAMPLE_CGROUP, "CGROUP" },
	{ PD_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ PD_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ PD_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	{ 0, NULL },
};

static const struct bit_name read_bits[] = {
	{ PD_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
	{ PD_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" },
	{ PD_FORMAT_ID, "ID" }, { PD_FORMAT_GROUP, "GROUP" },
	{ PD_FORMAT_LOST, "LOST" },
	{ 0, NULL },
};

/* perf_branch_sample_type, by bit number */
static const char *const branch_names[] = {
	"USER", "KERNEL", "HV", "ANY", "ANY_CALL", "ANY_RETURN", "IND_CALL",
	"ABORT_TX", "IN_TX", "NO_TX", "COND", "CALL_STACK", "IND_JUMP", "CALL",
	"NO_FLAGS", "NO_CYCLES", "TYPE_SAVE", "HW_INDEX", "PRIV_SAVE",
	"COUNTERS",
};

static const char *const flag_names[] = {
	"disabled", "inherit", "pinned", "exclusive", "exclude_user",
	"exclude_kernel", "exclude_hv", "exclude_idle", "mmap", "comm",
	"freq", "inherit_stat", "enable_on_exec", "task", "watermark",
	NULL /* precise_ip, two bits */, NULL, "mmap_data", "sample_id_all",
	"exclude_host", "exclude_guest", "exclude_callchain_kernel",
	"exclude_callchain_user", "mmap2", "comm_exec", "use_clockid",
	"context_switch", "write_backward", "namespaces", "ksymbol",
	"bpf_event", "aux_output", "cgroup", "text_poke", "build_id",
	"inherit_thread", "remove_on_exec", "sigtrap", "defer_callchain",
	"defer_output",
};

static void print_bits(FILE *out, const char *name, uint64_t v,
		       const struct bit_name *bits)
{
	const char *sep = "";
	int i;

	if (!v)
		return;
	fprintf(out, ", %s = ", name);
	for (i = 0; bits[i].name; i++) {
		if (v & bits[i].bit) {
			fprintf(out, "%s%s", sep, bits[i].name);
			sep = "|";
		}
	}
}

static void print_branch(FILE *out, uint64_t v)
{
	const char *sep = "";
	size_t i;

	if (!v)
		return;
	fprintf(out, ", branch_sample_type = ");
	for (i = 0; i < sizeof(branch_names) / sizeof(branch_names[0]); i++) {
		if (v & (1ULL << i)) {
			fprintf(out, "%s%s", sep, branch_names[i]);
			sep = "|";
		}
	}
}

static void print_u(FILE *out, const char *name, uint64_t v)
{
	if (v)
		fprintf(out, ", %s = %" PRIu64, name, v);
}

static void print_x(FILE *out, const char *name, uint64_t v)
{
	if (v)
		fprintf(out, ", %s = %#" PRIx64, name, v);
}

void pd_info_print_attr(FILE *out, const struct pd_attr *a)
{
	size_t i;

	print_u(out, "type", a->type);
	print_u(out, "size", a->size);
	print_x(out, "config", a->config);
	print_u(out, "{ sample_period, sample_freq }", a->sample_period);
	print_bits(out, "sample_type", a->sample_type, sample_bits);
	print_bits(out, "read_format", a->read_format, read_bits);
	for (i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++) {
		if (i == 15)
			print_u(out, "precise_ip",
				(a->flags & PD_ATTR_PRECISE_IP_MASK) >>
					PD_ATTR_PRECISE_IP_SHIFT);
		if (flag_names[i] && (a->flags & (1ULL << i)))
			fprintf(out, ", %s = 1", flag_names[i]);
	}
	print_u(out, "{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	print_u(out, "bp_type", a->bp_type);
	print_x(out, "{ bp_addr, config1 }", a->config1);
	print_x(out, "{ bp_len, config2 }", a->config2);
	print_branch(out, a->branch_sample_type);
	print_x(out, "sample_regs_user", a->sample_regs_user);
	print_u(out, "sample_stack_user", a->sample_stack_user);
	if (a->clockid)
		fprintf(out, ", clockid = %" PRId32, a->clockid);
	print_x(out, "sample_regs_intr", a->sample_regs_intr);
	print_u(out, "aux_watermark", a->aux_watermark);
	print_u(out, "sample_max_stack", a->sample_max_stack);
	print_u(out, "aux_sample_size", a->aux_sample_size);
	print_u(out, "aux_action", a->aux_action);
	print_u(out, "sig_data", a->sig_data);
	print_x(out, "config3", a->config3);
	print_x(out, "config4", a->config4);
}
