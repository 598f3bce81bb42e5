// SPDX-License-Identifier: MIT
/*
 * What a file says about itself, as Python values: the file header, the
 * header features (one key per feature present, named as perf names it,
 * in lower case: "hostname", "build_id", "cpu_topology", ...) and the
 * events (perf_event_attr fields under their kernel names). Made once,
 * at open(), while the reader that owns them is there.
 */
#include <stdio.h>
#include <string.h>

#include <perfdata/evsel.h>
#include <perfdata/features.h>
#include <perfdata/format.h>

#include "pdpy.h"

/* A new str or None; names come from the recording machine: any bytes. */
static PyObject *str_or_none(const char *s)
{
	if (!s)
		Py_RETURN_NONE;
	return pdpy_decode(s, strlen(s));
}

/* d[key] = v, v stolen; -1 when v is NULL or the set fails */
static int put(PyObject *d, const char *key, PyObject *v)
{
	int err;

	if (!v)
		return -1;
	err = PyDict_SetItemString(d, key, v);
	Py_DECREF(v);
	return err;
}

static int put_u64(PyObject *d, const char *key, uint64_t v)
{
	return put(d, key, PyLong_FromUnsignedLongLong(v));
}

static int put_str(PyObject *d, const char *key, const char *s)
{
	return put(d, key, str_or_none(s));
}

/* list.append(v), v stolen */
static int append(PyObject *list, PyObject *v)
{
	int err;

	if (!v)
		return -1;
	err = PyList_Append(list, v);
	Py_DECREF(v);
	return err;
}

PyObject *pdpy_build_id_str(const uint8_t *id, size_t size)
{
	char hex[2 * 64 + 1];
	size_t i;

	if (!id || !size)
		Py_RETURN_NONE;
	if (size > 64)
		size = 64;
	for (i = 0; i < size; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	return PyUnicode_FromStringAndSize(hex, 2 * size);
}

static const char *lower(const char *name, char *buf, size_t size)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < size; i++)
		buf[i] = name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i];
	buf[i] = '\0';
	return buf;
}

static const char *feature_key(unsigned int bit, char *buf, size_t size)
{
	const char *name = pd_feature_name(bit);

	if (!name) {
		snprintf(buf, size, "feature_%u", bit);
		return buf;
	}
	return lower(name, buf, size);
}

PyObject *pdpy_header_dict(const struct pd_reader *r)
{
	const struct pd_header_info *h = pd_reader__header(r);
	const struct pd_features *f = pd_reader__features(r);
	PyObject *d = PyDict_New(), *names = PyList_New(0);
	unsigned int bit;
	char key[64];

	if (!d || !names)
		goto fail;
	for (bit = 1; f && bit < PD_FEAT_BITS; bit++)
		if (pd_features__seen(f, bit) &&
		    append(names, PyUnicode_FromString(feature_key(bit, key, sizeof(key)))))
			goto fail;
	if (put_str(d, "mode", h->mode == PD_MODE_PIPE ? "pipe" : "file") ||
	    put(d, "version", PyLong_FromLong(h->version)) ||
	    put_str(d, "byte_order", h->big_endian ? "big" : "little") ||
	    put(d, "swapped", PyBool_FromLong(h->needs_swap)) ||
	    put_u64(d, "header_size", h->size) ||
	    put_u64(d, "attr_size", h->attr_size) ||
	    put_u64(d, "data_offset", h->data.offset) ||
	    put_u64(d, "data_size", h->data.size) ||
	    put_u64(d, "file_size", h->file_size) ||
	    put(d, "features", Py_NewRef(names)))
		goto fail;
	Py_DECREF(names);
	return d;
fail:
	Py_XDECREF(d);
	Py_XDECREF(names);
	return NULL;
}

static const char *const flag_names[] = {
	"disabled", "inherit", "pinned", "exclusive", "exclude_user",
	"exclude_kernel", "exclude_hv", "exclude_idle", "mmap", "comm", "freq",
	"inherit_stat", "enable_on_exec", "task", "watermark", NULL, NULL,
	"mmap_data", "sample_id_all", "exclude_host", "exclude_guest",
	"exclude_callchain_kernel", "exclude_callchain_user", "mmap2",
	"comm_exec", "use_clockid", "context_switch", "write_backward",
	"namespaces", "ksymbol", "bpf_event", "aux_output", "cgroup",
	"text_poke", "build_id", "inherit_thread", "remove_on_exec", "sigtrap",
	"defer_callchain", "defer_output",
};

static const char *const sample_bit_names[] = {
	"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU",
	"PERIOD", "STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER",
	"STACK_USER", "WEIGHT", "DATA_SRC", "IDENTIFIER", "TRANSACTION",
	"REGS_INTR", "PHYS_ADDR", "AUX", "CGROUP", "DATA_PAGE_SIZE",
	"CODE_PAGE_SIZE", "WEIGHT_STRUCT",
};

PyObject *pdpy_attr_dict(const struct pd_attr *a)
{
	PyObject *d = PyDict_New();
	size_t i;

	if (!d)
		return NULL;
	if (put_u64(d, "type", a->type) || put_u64(d, "size", a->size) ||
	    put_u64(d, "config", a->config) ||
	    put_u64(d, a->flags & PD_ATTR_FREQ ? "sample_freq" : "sample_period",
		    a->sample_period) ||
	    put_u64(d, "sample_type", a->sample_type) ||
	    put_u64(d, "read_format", a->read_format))
		goto fail;
	for (i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++)
		if (flag_names[i] &&
		    put(d, flag_names[i], PyBool_FromLong(!!(a->flags & (1ULL << i)))))
			goto fail;
	if (put_u64(d, "precise_ip", (a->flags & PD_ATTR_PRECISE_IP_MASK) >>
			PD_ATTR_PRECISE_IP_SHIFT) ||
	    put_u64(d, a->flags & PD_ATTR_WATERMARK ? "wakeup_watermark" :
		    "wakeup_events", a->wakeup_events) ||
	    put_u64(d, "bp_type", a->bp_type) ||
	    put_u64(d, "config1", a->config1) ||
	    put_u64(d, "config2", a->config2) ||
	    put_u64(d, "branch_sample_type", a->branch_sample_type) ||
	    put_u64(d, "sample_regs_user", a->sample_regs_user) ||
	    put_u64(d, "sample_stack_user", a->sample_stack_user) ||
	    put(d, "clockid", PyLong_FromLong(a->clockid)) ||
	    put_u64(d, "sample_regs_intr", a->sample_regs_intr) ||
	    put_u64(d, "aux_watermark", a->aux_watermark) ||
	    put_u64(d, "sample_max_stack", a->sample_max_stack) ||
	    put_u64(d, "aux_sample_size", a->aux_sample_size) ||
	    put_u64(d, "aux_action", a->aux_action) ||
	    put_u64(d, "sig_data", a->sig_data) ||
	    put_u64(d, "config3", a->config3) ||
	    put_u64(d, "config4", a->config4))
		goto fail;
	return d;
fail:
	Py_DECREF(d);
	return NULL;
}

PyObject *pdpy_u64_tuple(const uint64_t *v, uint64_t n)
{
	PyObject *t = PyTuple_New((Py_ssize_t)n);
	uint64_t i;

	for (i = 0; t && i < n; i++) {
		PyObject *x = PyLong_FromUnsignedLongLong(v[i]);

		if (!x) {
			Py_CLEAR(t);
			break;
		}
		PyTuple_SET_ITEM(t, (Py_ssize_t)i, x);
	}
	return t;
}

static PyObject *sample_fields(uint64_t sample_type)
{
	PyObject *t = PyList_New(0);
	size_t i;

	for (i = 0; t && i < sizeof(sample_bit_names) / sizeof(sample_bit_names[0]); i++)
		if ((sample_type & (1ULL << i)) &&
		    append(t, PyUnicode_FromString(sample_bit_names[i])))
			Py_CLEAR(t);
	return t;
}

PyObject *pdpy_events_tuple(const struct pd_reader *r, PyObject **names)
{
	size_t n = pd_reader__nr_evsels(r), i;
	PyObject *t = PyTuple_New((Py_ssize_t)n), *nl = PyList_New(0);

	if (!t || !nl)
		goto fail;
	for (i = 0; i < n; i++) {
		const struct pd_evsel *e = pd_reader__evsel(r, i);
		PyObject *d = PyDict_New(), *ev, *name;
		char buf[256];

		if (!d)
			goto fail;
		name = str_or_none(pd_evsel__name(e, r, buf, sizeof(buf)));
		if (!name || PyList_Append(nl, name) ||
		    put(d, "name", name) ||
		    put(d, "idx", PyLong_FromLong(e->idx)) ||
		    put(d, "ids", pdpy_u64_tuple(e->ids, e->nr_ids)) ||
		    put(d, "sample_fields", sample_fields(e->attr.sample_type)) ||
		    put(d, "attr", pdpy_attr_dict(&e->attr))) {
			Py_DECREF(d);
			goto fail;
		}
		ev = pdpy_namespace(&pdpy_EventType, d);
		if (!ev)
			goto fail;
		PyTuple_SET_ITEM(t, (Py_ssize_t)i, ev);
	}
	*names = nl;
	return t;
fail:
	Py_XDECREF(t);
	Py_XDECREF(nl);
	return NULL;
}

/* Each feature's decoded form; NULL with an exception. */

static PyObject *str_list(const char *const *v, uint32_t n)
{
	PyObject *l = PyList_New(0);
	uint32_t i;

	for (i = 0; l && i < n; i++)
		if (append(l, str_or_none(v[i])))
			Py_CLEAR(l);
	return l;
}

static PyObject *build_ids(const struct pd_features *f)
{
	PyObject *l = PyList_New(0);
	uint32_t i;

	for (i = 0; l && i < f->build_ids.nr; i++) {
		const struct pd_build_id *b = &f->build_ids.ids[i];
		PyObject *d = PyDict_New();

		if (!d || put(d, "pid", PyLong_FromLong(b->pid)) ||
		    put_u64(d, "cpumode", b->misc & PD_MISC_CPUMODE_MASK) ||
		    put(d, "build_id", pdpy_build_id_str(b->id, b->size)) ||
		    put_str(d, "filename", b->filename)) {
			Py_XDECREF(d);
			d = NULL;
		}
		if (append(l, d))
			Py_CLEAR(l);
	}
	return l;
}

static PyObject *event_desc(const struct pd_features *f)
{
	PyObject *l = PyList_New(0);
	uint32_t i;

	for (i = 0; l && i < f->event_desc.nr; i++) {
		const struct pd_event_desc *e = &f->event_desc.events[i];
		PyObject *d = PyDict_New();

		if (!d || put_str(d, "name", e->name) ||
		    put(d, "ids", pdpy_u64_tuple(e->ids, e->nr_ids)) ||
		    put(d, "attr", pdpy_attr_dict(&e->attr))) {
			Py_XDECREF(d);
			d = NULL;
		}
		if (append(l, d))
			Py_CLEAR(l);
	}
	return l;
}

static PyObject *cpu_topology(const struct pd_features *f)
{
	const struct pd_cpu_topology *t = &f->cpu_topology;
	PyObject *d = PyDict_New(), *cpus = PyList_New(0);
	uint32_t i;

	for (i = 0; cpus && i < t->nr_cpus; i++)
		if (append(cpus, Py_BuildValue("{s:i,s:i,s:i}",
					       "core_id", t->cpus[i].core_id,
					       "socket_id", t->cpus[i].socket_id,
					       "die_id", t->cpus[i].die_id)))
			Py_CLEAR(cpus);
	if (!d || !cpus ||
	    put(d, "sockets", str_list(t->sockets, t->nr_sockets)) ||
	    put(d, "dies", t->has_dies ? str_list(t->dies, t->nr_dies) :
			Py_NewRef(Py_None)) ||
	    put(d, "threads", str_list(t->threads, t->nr_threads)) ||
	    put(d, "cpus", Py_NewRef(cpus))) {
		Py_XDECREF(d);
		d = NULL;
	}
	Py_XDECREF(cpus);
	return d;
}

static PyObject *caps_dict(const struct pd_pmu_caps *c)
{
	PyObject *d = PyDict_New();
	uint32_t i;

	for (i = 0; d && i < c->nr_caps; i++)
		if (put_str(d, c->caps[i].name, c->caps[i].value))
			Py_CLEAR(d);
	return d;
}

static PyObject *mem_topology(const struct pd_features *f)
{
	PyObject *nodes = PyList_New(0);
	uint64_t i, b;

	for (i = 0; nodes && i < f->mem_topology.nr; i++) {
		const struct pd_mem_node *n = &f->mem_topology.nodes[i];
		PyObject *blocks = PyList_New(0);

		for (b = 0; blocks && b < n->nbits; b++)
			if ((n->bitmap[b / 64] >> (b % 64)) & 1 &&
			    append(blocks, PyLong_FromUnsignedLongLong(b)))
				Py_CLEAR(blocks);
		if (!blocks ||
		    append(nodes, Py_BuildValue("{s:K,s:K,s:N}", "node",
						(unsigned long long)n->node, "size",
						(unsigned long long)n->size,
						"blocks", blocks)))
			Py_CLEAR(nodes);
	}
	if (!nodes)
		return NULL;
	return Py_BuildValue("{s:K,s:K,s:N}", "version",
			     (unsigned long long)f->mem_topology.version,
			     "block_size",
			     (unsigned long long)f->mem_topology.block_size,
			     "nodes", nodes);
}

static PyObject *cpu_domains(const struct pd_features *f)
{
	PyObject *cpus = PyList_New(0);
	uint32_t i, k;

	for (i = 0; cpus && i < f->cpu_domain_info.nr; i++) {
		const struct pd_cpu_domains *c = &f->cpu_domain_info.cpus[i];
		PyObject *doms = PyList_New(0);

		for (k = 0; doms && k < c->nr_domains; k++) {
			const struct pd_sched_domain *s = &c->domains[k];

			if (append(doms, Py_BuildValue("{s:I,s:N,s:N,s:N}",
						       "domain", s->domain,
						       "name", str_or_none(s->name),
						       "cpumask", str_or_none(s->cpumask),
						       "cpulist", str_or_none(s->cpulist))))
				Py_CLEAR(doms);
		}
		if (!doms || append(cpus, Py_BuildValue("{s:I,s:N}", "cpu", c->cpu,
						       "domains", doms)))
			Py_CLEAR(cpus);
	}
	if (!cpus)
		return NULL;
	return Py_BuildValue("{s:I,s:I,s:N}", "schedstat_version",
			     f->cpu_domain_info.schedstat_version,
			     "max_sched_domains",
			     f->cpu_domain_info.max_sched_domains, "cpus", cpus);
}

static PyObject *tracing(const struct pd_features *f)
{
	const struct pd_tracing *t = &f->tracing;
	PyObject *events = PyList_New(0);
	uint32_t i;

	for (i = 0; events && i < t->nr_events; i++)
		if (append(events, str_or_none(t->events[i].name)))
			Py_CLEAR(events);
	if (!events)
		return NULL;
	return Py_BuildValue("{s:N,s:O,s:I,s:I,s:N,s:n}",
			     "version", str_or_none(t->version),
			     "big_endian", t->big_endian ? Py_True : Py_False,
			     "long_size", (unsigned int)t->long_size,
			     "page_size", t->page_size, "events", events,
			     "size", (Py_ssize_t)t->size);
}

/* A list of n dicts, each made by fn(f, i). */
static PyObject *list_of(const struct pd_features *f, uint64_t n,
			 PyObject *(*fn)(const struct pd_features *, uint64_t))
{
	PyObject *l = PyList_New(0);
	uint64_t i;

	for (i = 0; l && i < n; i++)
		if (append(l, fn(f, i)))
			Py_CLEAR(l);
	return l;
}

static PyObject *numa_node(const struct pd_features *f, uint64_t i)
{
	const struct pd_numa_node *n = &f->numa.nodes[i];

	return Py_BuildValue("{s:I,s:K,s:K,s:N}", "node", n->node,
			     "mem_total", (unsigned long long)n->mem_total,
			     "mem_free", (unsigned long long)n->mem_free,
			     "cpus", str_or_none(n->cpus));
}

static PyObject *group(const struct pd_features *f, uint64_t i)
{
	const struct pd_group_desc *g = &f->group_desc.groups[i];

	return Py_BuildValue("{s:N,s:I,s:I}", "name", str_or_none(g->name),
			     "leader_idx", g->leader_idx,
			     "nr_members", g->nr_members);
}

static PyObject *auxtrace(const struct pd_features *f, uint64_t i)
{
	return Py_BuildValue("(KK)",
			     (unsigned long long)f->auxtrace.entries[i].file_offset,
			     (unsigned long long)f->auxtrace.entries[i].size);
}

static PyObject *cache_level(const struct pd_features *f, uint64_t i)
{
	const struct pd_cache_level *c = &f->cache.levels[i];

	return Py_BuildValue("{s:I,s:I,s:I,s:I,s:N,s:N,s:N}", "level", c->level,
			     "line_size", c->line_size, "sets", c->sets,
			     "ways", c->ways, "type", str_or_none(c->type),
			     "size", str_or_none(c->size),
			     "map", str_or_none(c->map));
}

static PyObject *bpf_prog(const struct pd_features *f, uint64_t i)
{
	const struct pd_bpf_prog *p = &f->bpf_prog_info.progs[i];

	return Py_BuildValue("{s:y#,s:y#}", "info", p->info,
			     (Py_ssize_t)p->info_len, "data", p->data,
			     (Py_ssize_t)p->data_len);
}

static PyObject *bpf_btf(const struct pd_features *f, uint64_t i)
{
	const struct pd_bpf_btf *b = &f->bpf_btf.btfs[i];

	return Py_BuildValue("{s:I,s:y#}", "id", b->id, "data", b->data,
			     (Py_ssize_t)b->size);
}

static PyObject *hybrid(const struct pd_features *f, uint64_t i)
{
	const struct pd_hybrid_pmu *h = &f->hybrid_topology.pmus[i];

	return Py_BuildValue("{s:N,s:N}", "pmu_name", str_or_none(h->pmu_name),
			     "cpus", str_or_none(h->cpus));
}

static PyObject *pmu_caps(const struct pd_features *f)
{
	PyObject *d = PyDict_New();
	uint32_t i;

	for (i = 0; d && i < f->pmu_caps.nr; i++) {
		const struct pd_pmu_caps *c = &f->pmu_caps.pmus[i];

		if (put(d, c->pmu_name ? c->pmu_name : "", caps_dict(c)))
			Py_CLEAR(d);
	}
	return d;
}

static PyObject *pmu_mappings(const struct pd_features *f)
{
	PyObject *d = PyDict_New();
	uint32_t i;

	for (i = 0; d && i < f->pmu_mappings.nr; i++) {
		PyObject *k = PyLong_FromUnsignedLong(f->pmu_mappings.pmus[i].type);
		PyObject *v = str_or_none(f->pmu_mappings.pmus[i].name);

		if (!k || !v || PyDict_SetItem(d, k, v))
			Py_CLEAR(d);
		Py_XDECREF(k);
		Py_XDECREF(v);
	}
	return d;
}

static PyObject *feature(const struct pd_features *f, unsigned int bit)
{
	switch (bit) {
	case PD_FEAT_TRACING_DATA:
		return tracing(f);
	case PD_FEAT_BUILD_ID:
		return build_ids(f);
	case PD_FEAT_HOSTNAME:
		return str_or_none(f->hostname);
	case PD_FEAT_OSRELEASE:
		return str_or_none(f->osrelease);
	case PD_FEAT_VERSION:
		return str_or_none(f->version);
	case PD_FEAT_ARCH:
		return str_or_none(f->arch);
	case PD_FEAT_NRCPUS:
		return Py_BuildValue("{s:I,s:I}", "available", f->nrcpus.avail,
				     "online", f->nrcpus.online);
	case PD_FEAT_CPUDESC:
		return str_or_none(f->cpudesc);
	case PD_FEAT_CPUID:
		return str_or_none(f->cpuid);
	case PD_FEAT_TOTAL_MEM:
		return PyLong_FromUnsignedLongLong(f->total_mem);
	case PD_FEAT_CMDLINE:
		return str_list(f->cmdline.argv, f->cmdline.argc);
	case PD_FEAT_EVENT_DESC:
		return event_desc(f);
	case PD_FEAT_CPU_TOPOLOGY:
		return cpu_topology(f);
	case PD_FEAT_NUMA_TOPOLOGY:
		return list_of(f, f->numa.nr, numa_node);
	case PD_FEAT_PMU_MAPPINGS:
		return pmu_mappings(f);
	case PD_FEAT_GROUP_DESC:
		return list_of(f, f->group_desc.nr, group);
	case PD_FEAT_AUXTRACE:
		return list_of(f, f->auxtrace.nr, auxtrace);
	case PD_FEAT_CACHE:
		return list_of(f, f->cache.nr, cache_level);
	case PD_FEAT_SAMPLE_TIME:
		return Py_BuildValue("{s:K,s:K}", "first",
				     (unsigned long long)f->sample_time.first,
				     "last", (unsigned long long)f->sample_time.last);
	case PD_FEAT_MEM_TOPOLOGY:
		return mem_topology(f);
	case PD_FEAT_CLOCKID:
		return PyLong_FromUnsignedLongLong(f->clockid_res_ns);
	case PD_FEAT_DIR_FORMAT:
		return PyLong_FromUnsignedLongLong(f->dir_format_version);
	case PD_FEAT_BPF_PROG_INFO:
		return list_of(f, f->bpf_prog_info.nr, bpf_prog);
	case PD_FEAT_BPF_BTF:
		return list_of(f, f->bpf_btf.nr, bpf_btf);
	case PD_FEAT_COMPRESSED:
		return Py_BuildValue("{s:I,s:s,s:I,s:I,s:I}", "version",
				     f->compressed.version, "type",
				     f->compressed.type == 1 ? "zstd" : "unknown",
				     "level", f->compressed.level, "ratio",
				     f->compressed.ratio, "mmap_len",
				     f->compressed.mmap_len);
	case PD_FEAT_CPU_PMU_CAPS:
		return caps_dict(&f->cpu_pmu_caps);
	case PD_FEAT_CLOCK_DATA:
		return Py_BuildValue("{s:I,s:i,s:K,s:K}", "version",
				     f->clock_data.version, "clockid",
				     f->clock_data.clockid, "tod_ns",
				     (unsigned long long)f->clock_data.tod_ns,
				     "clockid_ns",
				     (unsigned long long)f->clock_data.clockid_ns);
	case PD_FEAT_HYBRID_TOPOLOGY:
		return list_of(f, f->hybrid_topology.nr, hybrid);
	case PD_FEAT_PMU_CAPS:
		return pmu_caps(f);
	case PD_FEAT_CPU_DOMAIN_INFO:
		return cpu_domains(f);
	case PD_FEAT_E_MACHINE:
		return Py_BuildValue("{s:I,s:I}", "machine", f->e_machine.machine,
				     "flags", f->e_machine.flags);
	case PD_FEAT_CLN_SIZE:
		return PyLong_FromUnsignedLong(f->cln_size);
	case PD_FEAT_BRANCH_STACK:
	case PD_FEAT_STAT:
		/* sections with nothing in them: their presence is the fact */
		Py_RETURN_TRUE;
	default:
		/* a feature newer than the library: its bytes, as stored */
		return PyBytes_FromStringAndSize(f->raw[bit].data,
						 (Py_ssize_t)f->raw[bit].size);
	}
}

PyObject *pdpy_features_dict(const struct pd_reader *r)
{
	const struct pd_features *f = pd_reader__features(r);
	PyObject *d = PyDict_New();
	unsigned int bit;
	char key[64];

	for (bit = 1; d && f && bit < PD_FEAT_BITS; bit++)
		if (pd_features__has(f, bit) &&
		    put(d, feature_key(bit, key, sizeof(key)), feature(f, bit)))
			Py_CLEAR(d);
	return d;
}
