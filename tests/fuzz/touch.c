// SPDX-License-Identifier: MIT
/*
 * Every byte a decoded record, an evsel or a feature points to, read
 * (see touch.h).
 */
#include <string.h>

#include "touch.h"

static volatile uint8_t sink;

static void bytes(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint8_t x = 0;
	size_t i;

	if (!p)
		return;
	for (i = 0; i < n; i++)
		x ^= b[i];
	sink ^= x;
}

static void str(const char *s)
{
	if (s)
		bytes(s, strlen(s) + 1);
}

static void read_values(const struct pd_read *r)
{
	bytes(r->values, r->nr * sizeof(*r->values));
}

static void cpu_map(const struct pd_cpu_map *m)
{
	bytes(m->cpus, m->nr * sizeof(*m->cpus));
}

static void sample(const struct pd_sample *s)
{
	read_values(&s->read);
	bytes(s->callchain.ips, s->callchain.nr * 8);
	bytes(s->raw.data, s->raw.size);
	bytes(s->branch_stack.entries,
	      s->branch_stack.nr * sizeof(*s->branch_stack.entries));
	bytes(s->branch_stack.counters, s->branch_stack.nr * 8);
	bytes(s->user_regs.regs, s->user_regs.nr * 8);
	bytes(s->intr_regs.regs, s->intr_regs.nr * 8);
	bytes(s->user_stack.data, s->user_stack.size);
	bytes(s->aux.data, s->aux.size);
}

void touch_event(const struct pd_event *ev)
{
	const struct pd_auxtrace_event *aux = &ev->u.auxtrace;

	bytes(ev->raw, ev->size);
	switch (ev->type) {
	case PD_RECORD_SAMPLE:
		sample(&ev->u.sample);
		break;
	case PD_RECORD_MMAP:
	case PD_RECORD_MMAP2:
		str(ev->u.mmap.filename);
		break;
	case PD_RECORD_COMM:
		str(ev->u.comm.comm);
		break;
	case PD_RECORD_READ:
		read_values(&ev->u.read.read);
		break;
	case PD_RECORD_NAMESPACES:
		bytes(ev->u.namespaces.link_info, ev->u.namespaces.nr * 16);
		break;
	case PD_RECORD_KSYMBOL:
		str(ev->u.ksymbol.name);
		break;
	case PD_RECORD_CGROUP:
		str(ev->u.cgroup.path);
		break;
	case PD_RECORD_TEXT_POKE:
		bytes(ev->u.text_poke.bytes, (size_t)ev->u.text_poke.old_len +
					     ev->u.text_poke.new_len);
		break;
	case PD_RECORD_CALLCHAIN_DEFERRED:
		bytes(ev->u.callchain_deferred.ips,
		      ev->u.callchain_deferred.nr * 8);
		break;
	case PD_RECORD_HEADER_ATTR:
		bytes(ev->u.attr.ids, ev->u.attr.nr_ids * 8);
		break;
	case PD_RECORD_HEADER_TRACING_DATA:
		bytes(ev->u.tracing_data.data, ev->u.tracing_data.size);
		break;
	case PD_RECORD_HEADER_BUILD_ID:
		str(ev->u.build_id.filename);
		break;
	case PD_RECORD_ID_INDEX:
		bytes(ev->u.id_index.entries,
		      ev->u.id_index.nr * sizeof(*ev->u.id_index.entries));
		if (ev->u.id_index.has_vcpu)
			bytes(ev->u.id_index.machine_vcpu, ev->u.id_index.nr * 16);
		break;
	case PD_RECORD_AUXTRACE_INFO:
		bytes(ev->u.auxtrace_info.priv, ev->u.auxtrace_info.nr_priv * 8);
		break;
	case PD_RECORD_AUXTRACE:
		bytes(aux->data, aux->data ? aux->size : 0);
		break;
	case PD_RECORD_AUXTRACE_ERROR:
		str(ev->u.auxtrace_error.msg);
		break;
	case PD_RECORD_THREAD_MAP:
		bytes(ev->u.thread_map.entries,
		      ev->u.thread_map.nr * sizeof(*ev->u.thread_map.entries));
		break;
	case PD_RECORD_CPU_MAP:
		cpu_map(&ev->u.cpu_map);
		break;
	case PD_RECORD_STAT_CONFIG:
		bytes(ev->u.stat_config.pairs, ev->u.stat_config.nr * 16);
		break;
	case PD_RECORD_EVENT_UPDATE:
		str(ev->u.event_update.str);
		if (ev->u.event_update.type == 3)
			cpu_map(&ev->u.event_update.cpus);
		break;
	case PD_RECORD_HEADER_FEATURE:
		bytes(ev->u.feature.data, ev->u.feature.size);
		break;
	case PD_RECORD_COMPRESSED:
	case PD_RECORD_COMPRESSED2:
		bytes(ev->u.compressed.data, ev->u.compressed.data_size);
		break;
	case PD_RECORD_BPF_METADATA:
		str(ev->u.bpf_metadata.prog_name);
		bytes(ev->u.bpf_metadata.entries,
		      ev->u.bpf_metadata.nr_entries * (64 + 256));
		break;
	default:
		break;
	}
	if (ev->evsel)
		bytes(ev->evsel->attr_raw, ev->evsel->attr_raw_size);
}

void touch_evsels(const struct pd_reader *r)
{
	size_t i, n = pd_reader__nr_evsels(r);

	for (i = 0; i < n; i++) {
		const struct pd_evsel *e = pd_reader__evsel(r, i);

		bytes(e->attr_raw, e->attr_raw_size);
		bytes(e->ids, e->nr_ids * 8);
		str(e->name);
	}
}

void touch_frame(const struct pd_frame *fr)
{
	str(fr->dso_name);
	str(fr->inline_name);
	if (fr->sym)
		str(fr->sym->name);
}

static void strs(const char *const *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		str(v[i]);
}

static void pmu_caps(const struct pd_pmu_caps *p)
{
	size_t i;

	str(p->pmu_name);
	for (i = 0; p->caps && i < p->nr_caps; i++) {
		str(p->caps[i].name);
		str(p->caps[i].value);
	}
}

void touch_features(const struct pd_features *f)
{
	const struct pd_tracing *t = &f->tracing;
	size_t i, j;

	for (i = 0; i < PD_FEAT_BITS; i++)
		bytes(f->raw[i].data, f->raw[i].size);
	str(t->version);
	for (i = 0; t->events && i < t->nr_events; i++) {
		str(t->events[i].name);
		bytes(t->events[i].format, t->events[i].format_len);
	}
	bytes(t->printk, t->printk_size);
	bytes(t->saved_cmdlines, t->saved_cmdlines_size);
	for (i = 0; f->build_ids.ids && i < f->build_ids.nr; i++)
		str(f->build_ids.ids[i].filename);
	str(f->hostname);
	str(f->osrelease);
	str(f->version);
	str(f->arch);
	str(f->cpudesc);
	str(f->cpuid);
	strs(f->cmdline.argv, f->cmdline.argc);
	for (i = 0; f->event_desc.events && i < f->event_desc.nr; i++) {
		str(f->event_desc.events[i].name);
		bytes(f->event_desc.events[i].ids,
		      f->event_desc.events[i].nr_ids * 8);
	}
	strs(f->cpu_topology.sockets, f->cpu_topology.nr_sockets);
	strs(f->cpu_topology.dies, f->cpu_topology.nr_dies);
	strs(f->cpu_topology.threads, f->cpu_topology.nr_threads);
	bytes(f->cpu_topology.cpus,
	      f->cpu_topology.nr_cpus * sizeof(*f->cpu_topology.cpus));
	for (i = 0; f->numa.nodes && i < f->numa.nr; i++)
		str(f->numa.nodes[i].cpus);
	for (i = 0; f->pmu_mappings.pmus && i < f->pmu_mappings.nr; i++)
		str(f->pmu_mappings.pmus[i].name);
	for (i = 0; f->group_desc.groups && i < f->group_desc.nr; i++)
		str(f->group_desc.groups[i].name);
	bytes(f->auxtrace.entries, f->auxtrace.nr * sizeof(*f->auxtrace.entries));
	for (i = 0; f->cache.levels && i < f->cache.nr; i++) {
		str(f->cache.levels[i].type);
		str(f->cache.levels[i].size);
		str(f->cache.levels[i].map);
	}
	for (i = 0; f->mem_topology.nodes && i < f->mem_topology.nr; i++)
		bytes(f->mem_topology.nodes[i].bitmap,
		      (f->mem_topology.nodes[i].nbits + 63) / 64 * 8);
	for (i = 0; f->bpf_prog_info.progs && i < f->bpf_prog_info.nr; i++) {
		bytes(f->bpf_prog_info.progs[i].info,
		      f->bpf_prog_info.progs[i].info_len);
		bytes(f->bpf_prog_info.progs[i].data,
		      f->bpf_prog_info.progs[i].data_len);
	}
	for (i = 0; f->bpf_btf.btfs && i < f->bpf_btf.nr; i++)
		bytes(f->bpf_btf.btfs[i].data, f->bpf_btf.btfs[i].size);
	pmu_caps(&f->cpu_pmu_caps);
	for (i = 0; f->pmu_caps.pmus && i < f->pmu_caps.nr; i++)
		pmu_caps(&f->pmu_caps.pmus[i]);
	for (i = 0; f->hybrid_topology.pmus && i < f->hybrid_topology.nr; i++) {
		str(f->hybrid_topology.pmus[i].pmu_name);
		str(f->hybrid_topology.pmus[i].cpus);
	}
	for (i = 0; f->cpu_domain_info.cpus && i < f->cpu_domain_info.nr; i++) {
		const struct pd_cpu_domains *c = &f->cpu_domain_info.cpus[i];

		for (j = 0; c->domains && j < c->nr_domains; j++) {
			str(c->domains[j].name);
			str(c->domains[j].cpumask);
			str(c->domains[j].cpulist);
		}
	}
}
