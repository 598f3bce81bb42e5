// SPDX-License-Identifier: MIT
/*
 * pd-info --dump: one line per record, in the spirit of perf report -D:
 * offset and size, type, then the decoded fields. Records taken out of a
 * compressed record show that record's offset and their position in the
 * decompressed stream.
 */
#include <inttypes.h>

#include <perfdata/evsel.h>

#include "info-dump.h"

static void dump_sample(FILE *out, const struct pd_event *ev)
{
	const struct pd_sample *s = &ev->u.sample;
	uint64_t st = s->sample_type, i;

	fprintf(out, " %u/%u: %#" PRIx64 " period: %" PRIu64,
		s->pid, s->tid, s->ip, s->period);
	if (st & PD_SAMPLE_TIME)
		fprintf(out, " time: %" PRIu64, s->time);
	if (st & PD_SAMPLE_CPU)
		fprintf(out, " cpu: %u", s->cpu);
	if (st & (PD_SAMPLE_ID | PD_SAMPLE_IDENTIFIER))
		fprintf(out, " id: %" PRIu64, s->id);
	if (st & PD_SAMPLE_ADDR)
		fprintf(out, " addr: %#" PRIx64, s->addr);
	if (ev->evsel) {
		char name[128];

		fprintf(out, " event: %s",
			pd_evsel__name(ev->evsel, NULL, name, sizeof(name)));
	}
	if (st & PD_SAMPLE_CALLCHAIN) {
		fprintf(out, " callchain: %" PRIu64 " [", s->callchain.nr);
		for (i = 0; i < s->callchain.nr; i++)
			fprintf(out, "%s%#" PRIx64, i ? " " : "",
				s->callchain.ips[i]);
		fputc(']', out);
	}
	if (st & PD_SAMPLE_READ)
		fprintf(out, " read: %" PRIu64 " values", s->read.nr);
	if (st & PD_SAMPLE_RAW)
		fprintf(out, " raw: %u bytes", s->raw.size);
	if (st & PD_SAMPLE_BRANCH_STACK)
		fprintf(out, " branches: %" PRIu64, s->branch_stack.nr);
	if (st & PD_SAMPLE_REGS_USER)
		fprintf(out, " user_regs: abi %" PRIu64 " nr %u",
			s->user_regs.abi, s->user_regs.nr);
	if (st & PD_SAMPLE_STACK_USER)
		fprintf(out, " user_stack: %" PRIu64 "/%" PRIu64,
			s->user_stack.dyn_size, s->user_stack.size);
	if (st & PD_SAMPLE_WEIGHT_TYPE)
		fprintf(out, " weight: %#" PRIx64, s->weight);
	if (st & PD_SAMPLE_DATA_SRC)
		fprintf(out, " data_src: %#" PRIx64, s->data_src);
	if (st & PD_SAMPLE_TRANSACTION)
		fprintf(out, " transaction: %#" PRIx64, s->transaction);
	if (st & PD_SAMPLE_PHYS_ADDR)
		fprintf(out, " phys_addr: %#" PRIx64, s->phys_addr);
	if (st & PD_SAMPLE_CGROUP)
		fprintf(out, " cgroup: %" PRIu64, s->cgroup);
	if (st & PD_SAMPLE_DATA_PAGE_SIZE)
		fprintf(out, " data_page_size: %" PRIu64, s->data_page_size);
	if (st & PD_SAMPLE_CODE_PAGE_SIZE)
		fprintf(out, " code_page_size: %" PRIu64, s->code_page_size);
	if (st & PD_SAMPLE_AUX)
		fprintf(out, " aux: %" PRIu64 " bytes", s->aux.size);
}

static void dump_fields(FILE *out, const struct pd_event *ev)
{
	switch (ev->type) {
	case PD_RECORD_SAMPLE:
		dump_sample(out, ev);
		break;
	case PD_RECORD_MMAP:
	case PD_RECORD_MMAP2: {
		const struct pd_mmap_event *m = &ev->u.mmap;

		fprintf(out, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64,
			(int)m->pid, (int)m->tid, m->start, m->len, m->pgoff);
		if (ev->type == PD_RECORD_MMAP2) {
			if (m->has_build_id) {
				int i;

				fprintf(out, " build-id ");
				for (i = 0; i < m->build_id_size; i++)
					fprintf(out, "%02x", m->build_id[i]);
			} else {
				fprintf(out, " %02x:%02x %" PRIu64 " %" PRIu64,
					m->maj, m->min, m->ino,
					m->ino_generation);
			}
			fprintf(out, " prot %#x flags %#x", m->prot, m->flags);
		}
		fprintf(out, "]: %s", m->filename);
		break;
	}
	case PD_RECORD_COMM:
		fprintf(out, "%s: %s:%u/%u",
			ev->misc & PD_MISC_COMM_EXEC ? " EXEC" : "",
			ev->u.comm.comm, ev->u.comm.pid, ev->u.comm.tid);
		break;
	case PD_RECORD_FORK:
	case PD_RECORD_EXIT:
		fprintf(out, " (%u:%u):(%u:%u)", ev->u.fork.pid, ev->u.fork.tid,
			ev->u.fork.ppid, ev->u.fork.ptid);
		break;
	case PD_RECORD_LOST:
		fprintf(out, " id %" PRIu64 " lost %" PRIu64, ev->u.lost.id,
			ev->u.lost.lost);
		break;
	case PD_RECORD_LOST_SAMPLES:
		fprintf(out, " lost %" PRIu64, ev->u.lost_samples.lost);
		break;
	case PD_RECORD_THROTTLE:
	case PD_RECORD_UNTHROTTLE:
		fprintf(out, " time %" PRIu64 " id %" PRIu64,
			ev->u.throttle.time, ev->u.throttle.id);
		break;
	case PD_RECORD_SWITCH:
	case PD_RECORD_SWITCH_CPU_WIDE:
		fprintf(out, " %s", ev->misc & PD_MISC_SWITCH_OUT ? "OUT" : "IN ");
		if (ev->type == PD_RECORD_SWITCH_CPU_WIDE)
			fprintf(out, " next/prev pid/tid %u/%u",
				ev->u.context_switch.next_prev_pid,
				ev->u.context_switch.next_prev_tid);
		break;
	case PD_RECORD_NAMESPACES:
		fprintf(out, " %u/%u nr %" PRIu64, ev->u.namespaces.pid,
			ev->u.namespaces.tid, ev->u.namespaces.nr);
		break;
	case PD_RECORD_KSYMBOL:
		fprintf(out, " addr %#" PRIx64 " len %u type %u flags %#x name %s",
			ev->u.ksymbol.addr, ev->u.ksymbol.len,
			ev->u.ksymbol.ksym_type, ev->u.ksymbol.flags,
			ev->u.ksymbol.name);
		break;
	case PD_RECORD_BPF_EVENT:
		fprintf(out, " type %u flags %u id %u", ev->u.bpf.type,
			ev->u.bpf.flags, ev->u.bpf.id);
		break;
	case PD_RECORD_CGROUP:
		fprintf(out, " cgroup: %" PRIu64 " %s", ev->u.cgroup.id,
			ev->u.cgroup.path);
		break;
	case PD_RECORD_HEADER_ATTR:
		fprintf(out, " evsel %d ids %" PRIu64, ev->u.attr.evsel_idx,
			ev->u.attr.nr_ids);
		break;
	case PD_RECORD_HEADER_FEATURE: {
		const char *n = pd_feature_name(ev->u.feature.feat_id);

		fprintf(out, " feature %" PRIu64 " (%s) %" PRIu64 " bytes",
			ev->u.feature.feat_id, n ? n : "unknown",
			ev->u.feature.size);
		break;
	}
	case PD_RECORD_HEADER_TRACING_DATA:
		fprintf(out, " %u bytes", ev->u.tracing_data.size);
		break;
	case PD_RECORD_HEADER_BUILD_ID:
		fprintf(out, " pid %d %s", ev->u.build_id.pid,
			ev->u.build_id.filename);
		break;
	case PD_RECORD_ID_INDEX:
		fprintf(out, " nr %" PRIu64, ev->u.id_index.nr);
		break;
	case PD_RECORD_THREAD_MAP:
		fprintf(out, " nr %" PRIu64, ev->u.thread_map.nr);
		break;
	case PD_RECORD_CPU_MAP:
		fprintf(out, " nr %u", ev->u.cpu_map.nr);
		break;
	case PD_RECORD_TIME_CONV:
		fprintf(out, " shift %" PRIu64 " mult %" PRIu64 " zero %" PRIu64,
			ev->u.time_conv.time_shift, ev->u.time_conv.time_mult,
			ev->u.time_conv.time_zero);
		break;
	case PD_RECORD_COMPRESSED:
	case PD_RECORD_COMPRESSED2:
		fprintf(out, " %" PRIu64 " bytes", ev->u.compressed.data_size);
		break;
	case PD_RECORD_AUXTRACE:
		fprintf(out, " size %#" PRIx64 " offset %#" PRIx64 " ref %#" PRIx64
			" idx %u tid %d cpu %d", ev->u.auxtrace.size,
			ev->u.auxtrace.offset, ev->u.auxtrace.reference,
			ev->u.auxtrace.idx, (int)ev->u.auxtrace.tid,
			(int)ev->u.auxtrace.cpu);
		break;
	case PD_RECORD_STAT:
		fprintf(out, " id %" PRIu64 " cpu %u thread %u val %" PRIu64
			" ena %" PRIu64 " run %" PRIu64, ev->u.stat.id,
			ev->u.stat.cpu, ev->u.stat.thread, ev->u.stat.val,
			ev->u.stat.ena, ev->u.stat.run);
		break;
	default:
		break;
	}
}

int pd_info_print_dump(FILE *out, struct pd_reader *r)
{
	const struct pd_event *ev;
	int err;

	while ((err = pd_reader__next(r, &ev)) > 0) {
		const char *name = pd_record_type_name(ev->type);

		if (ev->flags & PD_EVENT_DECOMPRESSED)
			fprintf(out, "0x%" PRIx64 "+0x%" PRIx64 " [0x%x]:", ev->offset,
				ev->inner_offset, ev->size);
		else
			fprintf(out, "0x%" PRIx64 " [0x%x]:", ev->offset, ev->size);
		if (ev->sid.present & PD_SAMPLE_TIME)
			fprintf(out, " %" PRIu64, ev->sid.time);
		if (name)
			fprintf(out, " PERF_RECORD_%s", name);
		else
			fprintf(out, " unknown record type %u", ev->type);
		fprintf(out, "(misc %#x)", ev->misc);
		if (ev->type == PD_RECORD_HEADER_FEATURE &&
		    ev->u.feature.feat_id == pd_reader__header(r)->pipe_feature_marker)
			/* the id is the writer's last feature, not that
			 * feature: naming it would mislead */
			fprintf(out, " end of the features (id %" PRIu64 ")",
				ev->u.feature.feat_id);
		else
			dump_fields(out, ev);
		fputc('\n', out);
	}
	return err;
}
