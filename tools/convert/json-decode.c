// SPDX-License-Identifier: MIT
/*
 * Decoded fields for pd-convert --to=json (see json-decode.h): the rarer
 * kernel and user records, and every header feature the library decodes.
 * Numbers up to 2^53 are JSON numbers; addresses, ids and masks are hex
 * strings as in the rest of the output; strings are escaped by json-out.
 */
#include <inttypes.h>
#include <string.h>

#include <perfdata/format.h>

#include "json-decode.h"
#include "common/json-out.h"

static void key(FILE *f, const char *k)
{
	fprintf(f, ",\"%s\":", k);
}

static void num(FILE *f, const char *k, uint64_t v)
{
	fprintf(f, ",\"%s\":%" PRIu64, k, v);
}

static void snum(FILE *f, const char *k, int64_t v)
{
	fprintf(f, ",\"%s\":%" PRId64, k, v);
}

static void hex(FILE *f, const char *k, uint64_t v)
{
	fprintf(f, ",\"%s\":\"%#" PRIx64 "\"", k, v);
}

static void str(FILE *f, const char *k, const char *s)
{
	key(f, k);
	json_cstr(f, s);
}

/* a JSON array of C strings */
static void strs(FILE *f, const char *k, const char *const *v, uint32_t n)
{
	uint32_t i;

	key(f, k);
	fputc('[', f);
	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		json_cstr(f, v[i]);
	}
	fputc(']', f);
}

static void cpu_map(FILE *f, const char *k, const struct pd_cpu_map *m)
{
	uint32_t i;

	key(f, k);
	fprintf(f, "{\"encoding\":%u,\"any_cpu\":%s,\"cpus\":[", m->encoding,
		m->any_cpu ? "true" : "false");
	for (i = 0; i < m->nr; i++)
		fprintf(f, "%s%d", i ? "," : "", m->cpus[i]);
	fputs("]}", f);
}

static void read_values(FILE *f, const struct pd_read *rd)
{
	uint64_t i;

	key(f, "read");
	fputc('[', f);
	for (i = 0; i < rd->nr; i++)
		fprintf(f, "%s{\"value\":%" PRIu64 ",\"id\":%" PRIu64 "}",
			i ? "," : "", rd->values[i].value, rd->values[i].id);
	fputc(']', f);
}

bool json_decode_record(FILE *f, const struct pd_event *ev)
{
	uint64_t i;

	switch (ev->type) {
	case PD_RECORD_THROTTLE:
	case PD_RECORD_UNTHROTTLE:
		num(f, "time", ev->u.throttle.time);
		num(f, "id", ev->u.throttle.id);
		num(f, "stream_id", ev->u.throttle.stream_id);
		return true;
	case PD_RECORD_READ:
		num(f, "pid", ev->u.read.pid);
		num(f, "tid", ev->u.read.tid);
		read_values(f, &ev->u.read.read);
		return true;
	case PD_RECORD_AUX:
		hex(f, "aux_offset", ev->u.aux.aux_offset);
		num(f, "aux_size", ev->u.aux.aux_size);
		hex(f, "flags", ev->u.aux.flags);
		return true;
	case PD_RECORD_ITRACE_START:
		num(f, "pid", ev->u.itrace_start.pid);
		num(f, "tid", ev->u.itrace_start.tid);
		return true;
	case PD_RECORD_LOST_SAMPLES:
		num(f, "lost", ev->u.lost_samples.lost);
		return true;
	case PD_RECORD_SWITCH:
		fprintf(f, ",\"out\":%s", ev->misc & PD_MISC_SWITCH_OUT ? "true" : "false");
		return true;
	case PD_RECORD_SWITCH_CPU_WIDE:
		fprintf(f, ",\"out\":%s", ev->misc & PD_MISC_SWITCH_OUT ? "true" : "false");
		num(f, "next_prev_pid", ev->u.context_switch.next_prev_pid);
		num(f, "next_prev_tid", ev->u.context_switch.next_prev_tid);
		return true;
	case PD_RECORD_NAMESPACES:
		num(f, "pid", ev->u.namespaces.pid);
		num(f, "tid", ev->u.namespaces.tid);
		key(f, "namespaces");
		fputc('[', f);
		for (i = 0; i < ev->u.namespaces.nr; i++)
			fprintf(f, "%s{\"dev\":\"%#" PRIx64 "\",\"ino\":%" PRIu64 "}",
				i ? "," : "", ev->u.namespaces.link_info[2 * i],
				ev->u.namespaces.link_info[2 * i + 1]);
		fputc(']', f);
		return true;
	case PD_RECORD_KSYMBOL:
		hex(f, "addr", ev->u.ksymbol.addr);
		num(f, "len", ev->u.ksymbol.len);
		num(f, "ksym_type", ev->u.ksymbol.ksym_type);
		hex(f, "ksym_flags", ev->u.ksymbol.flags);
		str(f, "ksym_name", ev->u.ksymbol.name);
		return true;
	case PD_RECORD_BPF_EVENT:
		num(f, "bpf_type", ev->u.bpf.type);
		hex(f, "bpf_flags", ev->u.bpf.flags);
		num(f, "bpf_id", ev->u.bpf.id);
		key(f, "tag");
		json_hex(f, ev->u.bpf.tag, sizeof(ev->u.bpf.tag));
		return true;
	case PD_RECORD_CGROUP:
		num(f, "cgroup_id", ev->u.cgroup.id);
		str(f, "path", ev->u.cgroup.path);
		return true;
	case PD_RECORD_TEXT_POKE:
		hex(f, "addr", ev->u.text_poke.addr);
		key(f, "old_bytes");
		json_hex(f, ev->u.text_poke.bytes, ev->u.text_poke.old_len);
		key(f, "new_bytes");
		json_hex(f, ev->u.text_poke.bytes + ev->u.text_poke.old_len,
			 ev->u.text_poke.new_len);
		return true;
	case PD_RECORD_AUX_OUTPUT_HW_ID:
		hex(f, "hw_id", ev->u.aux_output_hw_id.hw_id);
		return true;
	case PD_RECORD_HEADER_ATTR:
		num(f, "evsel_idx", (uint64_t)ev->u.attr.evsel_idx);
		key(f, "ids");
		fputc('[', f);
		for (i = 0; i < ev->u.attr.nr_ids; i++)
			fprintf(f, "%s\"%" PRIu64 "\"", i ? "," : "", ev->u.attr.ids[i]);
		fputc(']', f);
		return true;
	case PD_RECORD_ID_INDEX:
		key(f, "entries");
		fputc('[', f);
		for (i = 0; i < ev->u.id_index.nr; i++) {
			const struct pd_id_index_entry *e = &ev->u.id_index.entries[i];

			fprintf(f, "%s{\"id\":\"%" PRIu64 "\",\"idx\":%" PRIu64
				",\"cpu\":%" PRId64 ",\"tid\":%" PRId64 "}",
				i ? "," : "", e->id, e->idx, (int64_t)e->cpu,
				(int64_t)e->tid);
		}
		fputc(']', f);
		return true;
	case PD_RECORD_AUXTRACE_INFO:
		num(f, "auxtrace_type", ev->u.auxtrace_info.type);
		num(f, "nr_priv", ev->u.auxtrace_info.nr_priv);
		return true;
	case PD_RECORD_AUXTRACE_ERROR:
		num(f, "error_type", ev->u.auxtrace_error.type);
		num(f, "code", ev->u.auxtrace_error.code);
		num(f, "cpu", ev->u.auxtrace_error.cpu);
		num(f, "pid", ev->u.auxtrace_error.pid);
		num(f, "tid", ev->u.auxtrace_error.tid);
		hex(f, "ip", ev->u.auxtrace_error.ip);
		num(f, "time", ev->u.auxtrace_error.time);
		str(f, "msg", ev->u.auxtrace_error.msg);
		return true;
	case PD_RECORD_THREAD_MAP:
		key(f, "threads");
		fputc('[', f);
		for (i = 0; i < ev->u.thread_map.nr; i++) {
			fprintf(f, "%s{\"pid\":%" PRId64 ",\"comm\":", i ? "," : "",
				(int64_t)ev->u.thread_map.entries[i].pid);
			json_cstr(f, ev->u.thread_map.entries[i].comm);
			fputc('}', f);
		}
		fputc(']', f);
		return true;
	case PD_RECORD_CPU_MAP:
		cpu_map(f, "cpu_map", &ev->u.cpu_map);
		return true;
	case PD_RECORD_STAT_CONFIG:
		key(f, "config");
		fputc('[', f);
		for (i = 0; i < ev->u.stat_config.nr; i++)
			fprintf(f, "%s{\"tag\":%" PRIu64 ",\"val\":%" PRIu64 "}",
				i ? "," : "", ev->u.stat_config.pairs[2 * i],
				ev->u.stat_config.pairs[2 * i + 1]);
		fputc(']', f);
		return true;
	case PD_RECORD_STAT:
		num(f, "id", ev->u.stat.id);
		snum(f, "cpu", (int32_t)ev->u.stat.cpu);
		snum(f, "thread", (int32_t)ev->u.stat.thread);
		num(f, "val", ev->u.stat.val);
		num(f, "ena", ev->u.stat.ena);
		num(f, "run", ev->u.stat.run);
		return true;
	case PD_RECORD_STAT_ROUND:
		num(f, "round_type", ev->u.stat_round.type);
		num(f, "time", ev->u.stat_round.time);
		return true;
	case PD_RECORD_EVENT_UPDATE:
		num(f, "update_type", ev->u.event_update.type);
		num(f, "id", ev->u.event_update.id);
		if (ev->u.event_update.type == 0 || ev->u.event_update.type == 2)
			str(f, "value", ev->u.event_update.str);
		else if (ev->u.event_update.type == 1)
			fprintf(f, ",\"scale\":%.17g", ev->u.event_update.scale);
		else if (ev->u.event_update.type == 3)
			cpu_map(f, "cpus", &ev->u.event_update.cpus);
		return true;
	case PD_RECORD_TIME_CONV:
		num(f, "time_shift", ev->u.time_conv.time_shift);
		num(f, "time_mult", ev->u.time_conv.time_mult);
		num(f, "time_zero", ev->u.time_conv.time_zero);
		if (ev->u.time_conv.extended) {
			num(f, "time_cycles", ev->u.time_conv.time_cycles);
			hex(f, "time_mask", ev->u.time_conv.time_mask);
			num(f, "cap_user_time_zero", ev->u.time_conv.cap_user_time_zero);
			num(f, "cap_user_time_short", ev->u.time_conv.cap_user_time_short);
		}
		return true;
	default:
		return false;
	}
}

static void build_ids(FILE *f, const struct pd_features *ft)
{
	uint32_t i;

	key(f, "build_ids");
	fputc('[', f);
	for (i = 0; i < ft->build_ids.nr; i++) {
		const struct pd_build_id *b = &ft->build_ids.ids[i];

		fprintf(f, "%s{\"pid\":%d,\"misc\":\"%#x\",\"build_id\":",
			i ? "," : "", b->pid, b->misc);
		json_hex(f, b->id, b->size <= sizeof(b->id) ? b->size : sizeof(b->id));
		fputs(",\"filename\":", f);
		json_cstr(f, b->filename);
		fputc('}', f);
	}
	fputc(']', f);
}

static void event_desc(FILE *f, const struct pd_features *ft)
{
	uint32_t i, k;

	key(f, "events");
	fputc('[', f);
	for (i = 0; i < ft->event_desc.nr; i++) {
		const struct pd_event_desc *e = &ft->event_desc.events[i];

		fprintf(f, "%s{\"name\":", i ? "," : "");
		json_cstr(f, e->name);
		fprintf(f, ",\"attr_type\":%u,\"config\":\"%#" PRIx64 "\",\"ids\":[",
			e->attr.type, e->attr.config);
		for (k = 0; k < e->nr_ids; k++)
			fprintf(f, "%s\"%" PRIu64 "\"", k ? "," : "", e->ids[k]);
		fputs("]}", f);
	}
	fputc(']', f);
}

static void topology(FILE *f, const struct pd_cpu_topology *t)
{
	uint32_t i;

	strs(f, "sockets", t->sockets, t->nr_sockets);
	if (t->has_dies)
		strs(f, "dies", t->dies, t->nr_dies);
	strs(f, "threads", t->threads, t->nr_threads);
	key(f, "cpus");
	fputc('[', f);
	for (i = 0; i < t->nr_cpus; i++)
		fprintf(f, "%s{\"core_id\":%d,\"socket_id\":%d,\"die_id\":%d}",
			i ? "," : "", t->cpus[i].core_id, t->cpus[i].socket_id,
			t->cpus[i].die_id);
	fputc(']', f);
}

static void pmu_caps(FILE *f, const struct pd_pmu_caps *p)
{
	uint32_t i;

	fputs("{\"pmu_name\":", f);
	json_cstr(f, p->pmu_name);
	fputs(",\"caps\":{", f);
	for (i = 0; i < p->nr_caps; i++) {
		if (i)
			fputc(',', f);
		json_cstr(f, p->caps[i].name);
		fputc(':', f);
		json_cstr(f, p->caps[i].value);
	}
	fputs("}}", f);
}

static void tracing(FILE *f, const struct pd_tracing *t)
{
	uint32_t i;

	str(f, "version", t->version);
	fprintf(f, ",\"big_endian\":%s", t->big_endian ? "true" : "false");
	num(f, "long_size", t->long_size);
	num(f, "page_size", t->page_size);
	num(f, "nr_ftrace", t->nr_ftrace);
	key(f, "events");
	fputc('[', f);
	for (i = 0; i < t->nr_events; i++) {
		fprintf(f, "%s{\"id\":%" PRIu64 ",\"name\":", i ? "," : "",
			t->events[i].id);
		json_cstr(f, t->events[i].name);
		fputc('}', f);
	}
	fputc(']', f);
	num(f, "printk_size", t->printk_size);
	num(f, "saved_cmdlines_size", t->saved_cmdlines_size);
}

/* The members of one decoded feature; false for those not listed here. */
static bool feature_members(FILE *f, const struct pd_features *ft,
			    unsigned int id)
{
	uint32_t i;

	switch (id) {
	case PD_FEAT_TRACING_DATA:
		tracing(f, &ft->tracing);
		return true;
	case PD_FEAT_BUILD_ID:
		build_ids(f, ft);
		return true;
	case PD_FEAT_HOSTNAME:
		str(f, "hostname", ft->hostname);
		return true;
	case PD_FEAT_OSRELEASE:
		str(f, "osrelease", ft->osrelease);
		return true;
	case PD_FEAT_VERSION:
		str(f, "version", ft->version);
		return true;
	case PD_FEAT_ARCH:
		str(f, "arch", ft->arch);
		return true;
	case PD_FEAT_NRCPUS:
		num(f, "avail", ft->nrcpus.avail);
		num(f, "online", ft->nrcpus.online);
		return true;
	case PD_FEAT_CPUDESC:
		str(f, "cpudesc", ft->cpudesc);
		return true;
	case PD_FEAT_CPUID:
		str(f, "cpuid", ft->cpuid);
		return true;
	case PD_FEAT_TOTAL_MEM:
		num(f, "total_mem_kb", ft->total_mem);
		return true;
	case PD_FEAT_CMDLINE:
		strs(f, "argv", ft->cmdline.argv, ft->cmdline.argc);
		return true;
	case PD_FEAT_EVENT_DESC:
		event_desc(f, ft);
		return true;
	case PD_FEAT_CPU_TOPOLOGY:
		topology(f, &ft->cpu_topology);
		return true;
	case PD_FEAT_NUMA_TOPOLOGY:
		key(f, "nodes");
		fputc('[', f);
		for (i = 0; i < ft->numa.nr; i++) {
			const struct pd_numa_node *n = &ft->numa.nodes[i];

			fprintf(f, "%s{\"node\":%u,\"mem_total_kb\":%" PRIu64
				",\"mem_free_kb\":%" PRIu64 ",\"cpus\":",
				i ? "," : "", n->node, n->mem_total, n->mem_free);
			json_cstr(f, n->cpus);
			fputc('}', f);
		}
		fputc(']', f);
		return true;
	case PD_FEAT_PMU_MAPPINGS:
		key(f, "pmus");
		fputc('[', f);
		for (i = 0; i < ft->pmu_mappings.nr; i++) {
			fprintf(f, "%s{\"type\":%u,\"name\":", i ? "," : "",
				ft->pmu_mappings.pmus[i].type);
			json_cstr(f, ft->pmu_mappings.pmus[i].name);
			fputc('}', f);
		}
		fputc(']', f);
		return true;
	case PD_FEAT_GROUP_DESC:
		key(f, "groups");
		fputc('[', f);
		for (i = 0; i < ft->group_desc.nr; i++) {
			const struct pd_group_desc *g = &ft->group_desc.groups[i];

			fprintf(f, "%s{\"name\":", i ? "," : "");
			json_cstr(f, g->name);
			fprintf(f, ",\"leader_idx\":%u,\"nr_members\":%u}",
				g->leader_idx, g->nr_members);
		}
		fputc(']', f);
		return true;
	case PD_FEAT_AUXTRACE:
		key(f, "index");
		fputc('[', f);
		for (i = 0; i < ft->auxtrace.nr; i++)
			fprintf(f, "%s{\"file_offset\":%" PRIu64 ",\"size\":%" PRIu64 "}",
				i ? "," : "", ft->auxtrace.entries[i].file_offset,
				ft->auxtrace.entries[i].size);
		fputc(']', f);
		return true;
	case PD_FEAT_CACHE:
		num(f, "version", ft->cache.version);
		key(f, "levels");
		fputc('[', f);
		for (i = 0; i < ft->cache.nr; i++) {
			const struct pd_cache_level *c = &ft->cache.levels[i];

			fprintf(f, "%s{\"level\":%u,\"line_size\":%u,\"sets\":%u,\"ways\":%u,\"type\":",
				i ? "," : "", c->level, c->line_size, c->sets, c->ways);
			json_cstr(f, c->type);
			fputs(",\"size\":", f);
			json_cstr(f, c->size);
			fputs(",\"map\":", f);
			json_cstr(f, c->map);
			fputc('}', f);
		}
		fputc(']', f);
		return true;
	case PD_FEAT_SAMPLE_TIME:
		num(f, "first", ft->sample_time.first);
		num(f, "last", ft->sample_time.last);
		return true;
	case PD_FEAT_MEM_TOPOLOGY:
		num(f, "version", ft->mem_topology.version);
		num(f, "block_size", ft->mem_topology.block_size);
		key(f, "nodes");
		fputc('[', f);
		for (i = 0; i < ft->mem_topology.nr; i++)
			fprintf(f, "%s{\"node\":%" PRIu64 ",\"size\":%" PRIu64
				",\"nbits\":%" PRIu64 "}", i ? "," : "",
				ft->mem_topology.nodes[i].node,
				ft->mem_topology.nodes[i].size,
				ft->mem_topology.nodes[i].nbits);
		fputc(']', f);
		return true;
	case PD_FEAT_CLOCKID:
		num(f, "clockid_res_ns", ft->clockid_res_ns);
		return true;
	case PD_FEAT_DIR_FORMAT:
		num(f, "dir_format_version", ft->dir_format_version);
		return true;
	case PD_FEAT_BPF_PROG_INFO:
		num(f, "nr_progs", ft->bpf_prog_info.nr);
		return true;
	case PD_FEAT_BPF_BTF:
		key(f, "btfs");
		fputc('[', f);
		for (i = 0; i < ft->bpf_btf.nr; i++)
			fprintf(f, "%s{\"id\":%u,\"size\":%u}", i ? "," : "",
				ft->bpf_btf.btfs[i].id, ft->bpf_btf.btfs[i].size);
		fputc(']', f);
		return true;
	case PD_FEAT_COMPRESSED:
		num(f, "version", ft->compressed.version);
		num(f, "compression_type", ft->compressed.type);
		num(f, "level", ft->compressed.level);
		num(f, "ratio", ft->compressed.ratio);
		num(f, "mmap_len", ft->compressed.mmap_len);
		return true;
	case PD_FEAT_CPU_PMU_CAPS:
		key(f, "pmu");
		pmu_caps(f, &ft->cpu_pmu_caps);
		return true;
	case PD_FEAT_CLOCK_DATA:
		num(f, "version", ft->clock_data.version);
		snum(f, "clockid", ft->clock_data.clockid);
		num(f, "tod_ns", ft->clock_data.tod_ns);
		num(f, "clockid_ns", ft->clock_data.clockid_ns);
		return true;
	case PD_FEAT_HYBRID_TOPOLOGY:
		key(f, "pmus");
		fputc('[', f);
		for (i = 0; i < ft->hybrid_topology.nr; i++) {
			fputs(i ? ",{\"pmu_name\":" : "{\"pmu_name\":", f);
			json_cstr(f, ft->hybrid_topology.pmus[i].pmu_name);
			fputs(",\"cpus\":", f);
			json_cstr(f, ft->hybrid_topology.pmus[i].cpus);
			fputc('}', f);
		}
		fputc(']', f);
		return true;
	case PD_FEAT_PMU_CAPS:
		key(f, "pmus");
		fputc('[', f);
		for (i = 0; i < ft->pmu_caps.nr; i++) {
			if (i)
				fputc(',', f);
			pmu_caps(f, &ft->pmu_caps.pmus[i]);
		}
		fputc(']', f);
		return true;
	case PD_FEAT_E_MACHINE:
		num(f, "e_machine", ft->e_machine.machine);
		return true;
	case PD_FEAT_CLN_SIZE:
		num(f, "cln_size", ft->cln_size);
		return true;
	default:
		return false;
	}
}

void json_decode_feature(FILE *f, const struct pd_features *ft,
			 unsigned int id)
{
	if (!ft || id >= PD_FEAT_KNOWN_MAX || !pd_features__has(ft, id))
		return;
	fputs(",\"decoded\":{\"feature\":", f);
	json_cstr(f, pd_feature_name(id));
	feature_members(f, ft, id);
	fputc('}', f);
}
