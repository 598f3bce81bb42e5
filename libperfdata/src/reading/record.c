// SPDX-License-Identifier: MIT
/*
 * Decoding of host-order records into struct pd_event. Samples are in
 * sample.c. A record too short for its type's fixed part is an error;
 * strings are bounded by the record.
 */
#include <errno.h>
#include <stdlib.h>

#include "reader-state.h"

/* A string field from off to the end of the payload, bounded. */
static const char *str_at(struct pd_event *ev, size_t off, size_t end)
{
	const char *s = (const char *)ev->raw + off;

	if (off >= end || !memchr(s, '\0', end - off))
		return NULL;
	return s;
}

static int short_record(struct pd_reader *r, struct pd_event *ev, size_t need)
{
	const char *name = pd_record_type_name(ev->type);

	return pd__set_error(r, -PD_ERR_BAD_RECORD, ev->offset,
			     "%s record of %u bytes is shorter than its %zu-byte minimum",
			     name ? name : "?", ev->size, need);
}

static int decode_cpu_map(struct pd_reader *r, const uint8_t *p, size_t len,
			  struct pd_cpu_map *m)
{
	uint32_t nr = 0, i, k = 0;
	int32_t *cpus;
	uint16_t type;

	memset(m, 0, sizeof(*m));
	if (len < 2)
		return -PD_ERR_BAD_RECORD;
	type = pd_get16(p, false);
	m->encoding = type;
	if (type == 0) {
		if (len < 4)
			return -PD_ERR_BAD_RECORD;
		nr = pd_get16(p + 2, false);
		if (4 + 2 * (size_t)nr > len)
			return -PD_ERR_BAD_RECORD;
		cpus = pd__scratch(r, (nr ? nr : 1) * sizeof(*cpus));
		if (!cpus)
			return -ENOMEM;
		for (i = 0; i < nr; i++) {
			uint16_t c = pd_get16(p + 4 + 2 * i, false);

			cpus[i] = c == 0xffff ? -1 : c;
		}
		m->nr = nr;
		m->cpus = cpus;
	} else if (type == 1) {
		uint16_t words, lsz;
		size_t base, bit;

		if (len < 6)
			return -PD_ERR_BAD_RECORD;
		words = pd_get16(p + 2, false);
		lsz = pd_get16(p + 4, false);
		if (lsz != 4 && lsz != 8)
			return -PD_ERR_BAD_RECORD;
		base = lsz == 4 ? 6 : 10;
		if (base + (size_t)words * lsz > len)
			return -PD_ERR_BAD_RECORD;
		cpus = pd__scratch(r, ((size_t)words * lsz * 8 + 1) * sizeof(*cpus));
		if (!cpus)
			return -ENOMEM;
		for (bit = 0; bit < (size_t)words * lsz * 8; bit++) {
			size_t w = bit / (lsz * 8), b = bit % (lsz * 8);
			uint64_t v = lsz == 4 ? pd_get32(p + base + 4 * w, false) :
						pd_get64(p + base + 8 * w, false);

			if (v & (1ULL << b))
				cpus[k++] = (int32_t)bit;
		}
		m->nr = k;
		m->cpus = cpus;
	} else if (type == 2) {
		uint16_t start, end;

		if (len < 8)
			return -PD_ERR_BAD_RECORD;
		m->any_cpu = p[2];
		start = pd_get16(p + 4, false);
		end = pd_get16(p + 6, false);
		if (end < start)
			return -PD_ERR_BAD_RECORD;
		nr = end - start + 1 + m->any_cpu;
		cpus = pd__scratch(r, nr * sizeof(*cpus));
		if (!cpus)
			return -ENOMEM;
		if (m->any_cpu)
			cpus[k++] = -1;
		for (i = start; i <= end; i++)
			cpus[k++] = (int32_t)i;
		m->nr = k;
		m->cpus = cpus;
	} else {
		pd__warn(&r->log, "CPU map encoding %u not known; left undecoded",
			 type);
	}
	return 0;
}

int pd__decode_record(struct pd_reader *r, struct pd_event *ev)
{
	const uint8_t *p = ev->raw;
	size_t size = ev->size, end = size;
	const struct pd_evsel *e = NULL;
	int err = 0;

	if (ev->type == PD_RECORD_SAMPLE) {
		e = pd__evsel_for_sample(r, p, size);
		ev->evsel = e;
		if (!e) {
			if (!r->nr_evsels)
				return pd__set_error(r, -PD_ERR_NO_ATTR, ev->offset,
						     "SAMPLE but the file has no attrs");
			return pd__set_error(r, -PD_ERR_NO_ATTR, ev->offset,
					     "SAMPLE with an id that matches no attr");
		}
		return pd__decode_sample(r, ev, e);
	}
	if (ev->type < PD_RECORD_USER_MIN) {
		size_t t = pd__trailer_size(r, p, size, false, &e);

		ev->evsel = e;
		pd__decode_trailer(ev, e);
		end = size - t;
	}

#define NEED(n) do { if (end < (n)) return short_record(r, ev, (n)); } while (0)
	switch (ev->type) {
	case PD_RECORD_MMAP:
	case PD_RECORD_MMAP2: {
		struct pd_mmap_event *m = &ev->u.mmap;
		size_t fn = ev->type == PD_RECORD_MMAP ? 40 : 72;

		NEED(fn);
		m->pid = pd_get32(p + 8, false);
		m->tid = pd_get32(p + 12, false);
		m->start = pd_get64(p + 16, false);
		m->len = pd_get64(p + 24, false);
		m->pgoff = pd_get64(p + 32, false);
		if (ev->type == PD_RECORD_MMAP2) {
			if (ev->misc & PD_MISC_MMAP_BUILD_ID) {
				m->has_build_id = true;
				m->build_id_size = p[40] <= 20 ? p[40] : 20;
				memcpy(m->build_id, p + 44, 20);
			} else {
				m->maj = pd_get32(p + 40, false);
				m->min = pd_get32(p + 44, false);
				m->ino = pd_get64(p + 48, false);
				m->ino_generation = pd_get64(p + 56, false);
			}
			m->prot = pd_get32(p + 64, false);
			m->flags = pd_get32(p + 68, false);
		}
		m->filename = str_at(ev, fn, end);
		if (!m->filename)
			m->filename = "";
		break;
	}
	case PD_RECORD_COMM:
		NEED(16);
		ev->u.comm.pid = pd_get32(p + 8, false);
		ev->u.comm.tid = pd_get32(p + 12, false);
		ev->u.comm.comm = str_at(ev, 16, end);
		if (!ev->u.comm.comm)
			ev->u.comm.comm = "";
		break;
	case PD_RECORD_EXIT:
	case PD_RECORD_FORK:
		NEED(32);
		ev->u.fork.pid = pd_get32(p + 8, false);
		ev->u.fork.ppid = pd_get32(p + 12, false);
		ev->u.fork.tid = pd_get32(p + 16, false);
		ev->u.fork.ptid = pd_get32(p + 20, false);
		ev->u.fork.time = pd_get64(p + 24, false);
		break;
	case PD_RECORD_LOST:
		NEED(24);
		ev->u.lost.id = pd_get64(p + 8, false);
		ev->u.lost.lost = pd_get64(p + 16, false);
		break;
	case PD_RECORD_THROTTLE:
	case PD_RECORD_UNTHROTTLE:
		NEED(32);
		ev->u.throttle.time = pd_get64(p + 8, false);
		ev->u.throttle.id = pd_get64(p + 16, false);
		ev->u.throttle.stream_id = pd_get64(p + 24, false);
		break;
	case PD_RECORD_READ: {
		size_t used;

		NEED(24);
		ev->u.read.pid = pd_get32(p + 8, false);
		ev->u.read.tid = pd_get32(p + 12, false);
		if (!e)
			break;
		err = pd__decode_read(r, (const uint64_t *)(p + 16),
				      (end - 16) / 8, e->attr.read_format,
				      &ev->u.read.read, &used);
		if (err == -PD_ERR_BAD_SAMPLE)
			return pd__set_error(r, -PD_ERR_BAD_RECORD, ev->offset,
					     "READ record does not match read_format 0x%llx",
					     (unsigned long long)e->attr.read_format);
		break;
	}
	case PD_RECORD_AUX:
		NEED(32);
		ev->u.aux.aux_offset = pd_get64(p + 8, false);
		ev->u.aux.aux_size = pd_get64(p + 16, false);
		ev->u.aux.flags = pd_get64(p + 24, false);
		break;
	case PD_RECORD_ITRACE_START:
		NEED(16);
		ev->u.itrace_start.pid = pd_get32(p + 8, false);
		ev->u.itrace_start.tid = pd_get32(p + 12, false);
		break;
	case PD_RECORD_LOST_SAMPLES:
		NEED(16);
		ev->u.lost_samples.lost = pd_get64(p + 8, false);
		break;
	case PD_RECORD_SWITCH:
		break;
	case PD_RECORD_SWITCH_CPU_WIDE:
		NEED(16);
		ev->u.context_switch.next_prev_pid = pd_get32(p + 8, false);
		ev->u.context_switch.next_prev_tid = pd_get32(p + 12, false);
		break;
	case PD_RECORD_NAMESPACES: {
		uint64_t nr;

		NEED(24);
		ev->u.namespaces.pid = pd_get32(p + 8, false);
		ev->u.namespaces.tid = pd_get32(p + 12, false);
		nr = pd_get64(p + 16, false);
		if (nr > (end - 24) / 16)
			return pd__set_error(r, -PD_ERR_BAD_RECORD, ev->offset,
					     "NAMESPACES with %llu entries in %zu bytes",
					     (unsigned long long)nr, end);
		ev->u.namespaces.nr = nr;
		ev->u.namespaces.link_info = (const uint64_t *)(p + 24);
		break;
	}
	case PD_RECORD_KSYMBOL:
		NEED(24);
		ev->u.ksymbol.addr = pd_get64(p + 8, false);
		ev->u.ksymbol.len = pd_get32(p + 16, false);
		ev->u.ksymbol.ksym_type = pd_get16(p + 20, false);
		ev->u.ksymbol.flags = pd_get16(p + 22, false);
		ev->u.ksymbol.name = str_at(ev, 24, end);
		if (!ev->u.ksymbol.name)
			ev->u.ksymbol.name = "";
		break;
	case PD_RECORD_BPF_EVENT:
		NEED(24);
		ev->u.bpf.type = pd_get16(p + 8, false);
		ev->u.bpf.flags = pd_get16(p + 10, false);
		ev->u.bpf.id = pd_get32(p + 12, false);
		memcpy(ev->u.bpf.tag, p + 16, 8);
		break;
	case PD_RECORD_CGROUP:
		NEED(16);
		ev->u.cgroup.id = pd_get64(p + 8, false);
		ev->u.cgroup.path = str_at(ev, 16, end);
		if (!ev->u.cgroup.path)
			ev->u.cgroup.path = "";
		break;
	case PD_RECORD_TEXT_POKE:
		NEED(20);
		ev->u.text_poke.addr = pd_get64(p + 8, false);
		ev->u.text_poke.old_len = pd_get16(p + 16, false);
		ev->u.text_poke.new_len = pd_get16(p + 18, false);
		NEED(20 + (size_t)ev->u.text_poke.old_len + ev->u.text_poke.new_len);
		ev->u.text_poke.bytes = p + 20;
		break;
	case PD_RECORD_AUX_OUTPUT_HW_ID:
		NEED(16);
		ev->u.aux_output_hw_id.hw_id = pd_get64(p + 8, false);
		break;
	case PD_RECORD_CALLCHAIN_DEFERRED: {
		uint64_t nr;

		NEED(24);
		ev->u.callchain_deferred.cookie = pd_get64(p + 8, false);
		nr = pd_get64(p + 16, false);
		if (nr > (end - 24) / 8)
			return short_record(r, ev, 24);
		ev->u.callchain_deferred.nr = nr;
		ev->u.callchain_deferred.ips = (const uint64_t *)(p + 24);
		break;
	}
	case PD_RECORD_HEADER_ATTR: {
		size_t idx = r->nr_attr_records++;
		uint32_t asize;

		NEED(8 + PD_ATTR_SIZE_VER0);
		asize = pd_get32(p + 12, false);
		if (!asize)
			asize = PD_ATTR_SIZE_VER0;
		ev->u.attr.evsel_idx = idx < r->nr_evsels ? (int)idx : -1;
		ev->evsel = idx < r->nr_evsels ? r->evsels[idx] : NULL;
		if (asize <= size - 8) {
			ev->u.attr.nr_ids = (size - 8 - asize) / 8;
			ev->u.attr.ids = (const uint64_t *)(p + 8 + asize);
		}
		break;
	}
	case PD_RECORD_HEADER_TRACING_DATA:
		NEED(12);
		ev->u.tracing_data.size = pd_get32(p + 8, false);
		ev->u.tracing_data.data = r->blob;
		break;
	case PD_RECORD_HEADER_BUILD_ID: {
		NEED(36);
		ev->u.build_id.pid = (int32_t)pd_get32(p + 8, false);
		memcpy(ev->u.build_id.build_id, p + 12, 20);
		ev->u.build_id.size = (ev->misc & PD_MISC_BUILD_ID_SIZE) && p[32] <= 20 ?
				      p[32] : 20;
		ev->u.build_id.filename = str_at(ev, 36, size);
		if (!ev->u.build_id.filename)
			ev->u.build_id.filename = "";
		break;
	}
	case PD_RECORD_ID_INDEX: {
		uint64_t nr;

		NEED(16);
		nr = pd_get64(p + 8, false);
		if (nr > (size - 16) / 32)
			return pd__set_error(r, -PD_ERR_BAD_RECORD, ev->offset,
					     "ID_INDEX with %llu entries in %zu bytes",
					     (unsigned long long)nr, size);
		ev->u.id_index.nr = nr;
		ev->u.id_index.entries = (const void *)(p + 16);
		if (nr && size >= 16 + 48 * nr) {
			ev->u.id_index.has_vcpu = true;
			ev->u.id_index.machine_vcpu = (const uint64_t *)(p + 16 + 32 * nr);
		}
		break;
	}
	case PD_RECORD_AUXTRACE_INFO:
		NEED(16);
		ev->u.auxtrace_info.type = pd_get32(p + 8, false);
		ev->u.auxtrace_info.nr_priv = (size - 16) / 8;
		ev->u.auxtrace_info.priv = (const uint64_t *)(p + 16);
		break;
	case PD_RECORD_AUXTRACE:
		NEED(48);
		ev->u.auxtrace.size = pd_get64(p + 8, false);
		ev->u.auxtrace.offset = pd_get64(p + 16, false);
		ev->u.auxtrace.reference = pd_get64(p + 24, false);
		ev->u.auxtrace.idx = pd_get32(p + 32, false);
		ev->u.auxtrace.tid = pd_get32(p + 36, false);
		ev->u.auxtrace.cpu = pd_get32(p + 40, false);
		ev->u.auxtrace.data_offset = r->in.seekable ? r->aux_data_offset : 0;
		ev->u.auxtrace.data = r->aux_loaded ? r->aux : NULL;
		break;
	case PD_RECORD_AUXTRACE_ERROR: {
		struct pd_auxtrace_error_event *a = &ev->u.auxtrace_error;

		NEED(48);
		a->type = pd_get32(p + 8, false);
		a->code = pd_get32(p + 12, false);
		a->cpu = pd_get32(p + 16, false);
		a->pid = pd_get32(p + 20, false);
		a->tid = pd_get32(p + 24, false);
		a->fmt = pd_get32(p + 28, false);
		a->ip = pd_get64(p + 32, false);
		if (a->fmt >= 1)
			a->time = pd_get64(p + 40, false);
		if (size >= 112) {
			memcpy(a->msg, p + 48, 64);
			a->msg[64] = '\0';
		}
		if (a->fmt >= 2 && size >= 120) {
			a->machine_pid = pd_get32(p + 112, false);
			a->vcpu = pd_get32(p + 116, false);
		}
		break;
	}
	case PD_RECORD_THREAD_MAP: {
		struct pd_thread_map_entry *t;
		uint64_t nr, i;

		NEED(16);
		nr = pd_get64(p + 8, false);
		if (nr > (size - 16) / 24)
			return pd__set_error(r, -PD_ERR_BAD_RECORD, ev->offset,
					     "THREAD_MAP with %llu entries in %zu bytes",
					     (unsigned long long)nr, size);
		t = pd__scratch(r, (nr ? nr : 1) * sizeof(*t));
		if (!t)
			return -ENOMEM;
		for (i = 0; i < nr; i++) {
			t[i].pid = pd_get64(p + 16 + 24 * i, false);
			memcpy(t[i].comm, p + 24 + 24 * i, 16);
			t[i].comm[16] = '\0';
		}
		ev->u.thread_map.nr = nr;
		ev->u.thread_map.entries = t;
		break;
	}
	case PD_RECORD_CPU_MAP:
		err = decode_cpu_map(r, p + 8, size - 8, &ev->u.cpu_map);
		if (err == -PD_ERR_BAD_RECORD)
			return pd__set_error(r, err, ev->offset,
					     "CPU_MAP record is malformed");
		break;
	case PD_RECORD_STAT_CONFIG: {
		uint64_t nr;

		NEED(16);
		nr = pd_get64(p + 8, false);
		if (nr > (size - 16) / 16)
			return pd__set_error(r, -PD_ERR_BAD_RECORD, ev->offset,
					     "STAT_CONFIG with %llu entries in %zu bytes",
					     (unsigned long long)nr, size);
		ev->u.stat_config.nr = nr;
		ev->u.stat_config.pairs = (const uint64_t *)(p + 16);
		break;
	}
	case PD_RECORD_STAT:
		NEED(48);
		ev->u.stat.id = pd_get64(p + 8, false);
		ev->u.stat.cpu = pd_get32(p + 16, false);
		ev->u.stat.thread = pd_get32(p + 20, false);
		ev->u.stat.val = pd_get64(p + 24, false);
		ev->u.stat.ena = pd_get64(p + 32, false);
		ev->u.stat.run = pd_get64(p + 40, false);
		break;
	case PD_RECORD_STAT_ROUND:
		NEED(24);
		ev->u.stat_round.type = pd_get64(p + 8, false);
		ev->u.stat_round.time = pd_get64(p + 16, false);
		break;
	case PD_RECORD_EVENT_UPDATE: {
		struct pd_event_update_event *u = &ev->u.event_update;

		NEED(24);
		u->type = pd_get64(p + 8, false);
		u->id = pd_get64(p + 16, false);
		ev->evsel = pd_reader__evsel_by_id(r, u->id);
		if (u->type == 0 || u->type == 2) {
			u->str = str_at(ev, 24, size);
		} else if (u->type == 1) {
			NEED(32);
			memcpy(&u->scale, p + 24, 8);
		} else if (u->type == 3) {
			err = decode_cpu_map(r, p + 24, size - 24, &u->cpus);
			if (err == -PD_ERR_BAD_RECORD)
				return pd__set_error(r, err, ev->offset,
						     "EVENT_UPDATE cpu map is malformed");
		}
		break;
	}
	case PD_RECORD_TIME_CONV: {
		struct pd_time_conv_event *t = &ev->u.time_conv;

		NEED(32);
		t->time_shift = pd_get64(p + 8, false);
		t->time_mult = pd_get64(p + 16, false);
		t->time_zero = pd_get64(p + 24, false);
		if (size >= 56) {
			t->extended = true;
			t->time_cycles = pd_get64(p + 32, false);
			t->time_mask = pd_get64(p + 40, false);
			t->cap_user_time_zero = p[48];
			t->cap_user_time_short = p[49];
		}
		break;
	}
	case PD_RECORD_HEADER_FEATURE:
		NEED(16);
		ev->u.feature.feat_id = pd_get64(p + 8, false);
		ev->u.feature.size = size - 16;
		ev->u.feature.data = p + 16;
		break;
	case PD_RECORD_COMPRESSED:
		ev->u.compressed.data_size = size - 8;
		ev->u.compressed.data = p + 8;
		break;
	case PD_RECORD_COMPRESSED2:
		NEED(16);
		ev->u.compressed.data_size = pd_get64(p + 8, false);
		ev->u.compressed.data = p + 16;
		break;
	case PD_RECORD_BPF_METADATA: {
		uint64_t nr;

		NEED(8 + 512 + 8);
		ev->u.bpf_metadata.prog_name = str_at(ev, 8, 8 + 512);
		nr = pd_get64(p + 520, false);
		if (nr > (size - 528) / 320)
			return short_record(r, ev, 528);
		ev->u.bpf_metadata.nr_entries = nr;
		ev->u.bpf_metadata.entries = (const char *)p + 528;
		break;
	}
	case PD_RECORD_FINISHED_ROUND:
	case PD_RECORD_FINISHED_INIT:
	case PD_RECORD_HEADER_EVENT_TYPE:
		break;
	default:
		ev->flags |= PD_EVENT_UNKNOWN;
		break;
	}
#undef NEED
	return err < 0 ? err : 0;
}
