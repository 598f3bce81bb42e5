// SPDX-License-Identifier: MIT
/*
 * Event names derived from attrs, following the naming rules perf applies
 * to files that do not store names: generic event names, then modifiers
 * (":u", ":k", "p" for precision, "H"/"G" for host/guest).
 */
#include <stdio.h>
#include <string.h>

#include <perfdata/evsel.h>
#include <perfdata/features.h>

#include "base/internal.h"

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles",
};

static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

static const char *const cache_names[] = {
	"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node",
};
static const char *const cache_ops[] = { "load", "store", "prefetch" };
static const char *const cache_results[] = { "refs", "misses" };

static size_t append(char *buf, size_t len, size_t at, const char *fmt, ...)
	PD_PRINTF(4, 5);

static size_t append(char *buf, size_t len, size_t at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (at >= len)
		return at;
	va_start(ap, fmt);
	n = vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
	return n < 0 ? at : at + n;
}

/*
 * Modifiers: which privilege levels are counted when some are excluded,
 * the precise_ip level, and host/guest when they differ from the default
 * (guests are excluded by default for events with a modifier).
 */
static size_t add_modifiers(const struct pd_attr *a, char *buf, size_t len,
			    size_t at)
{
	uint64_t f = a->flags;
	unsigned int precise = (f & PD_ATTR_PRECISE_IP_MASK) >> PD_ATTR_PRECISE_IP_SHIFT;
	bool guest_default = false;
	char mods[16];
	size_t n = 0;

	if (f & (PD_ATTR_EXCLUDE_KERNEL | PD_ATTR_EXCLUDE_USER | PD_ATTR_EXCLUDE_HV)) {
		if (!(f & PD_ATTR_EXCLUDE_KERNEL))
			mods[n++] = 'k';
		if (!(f & PD_ATTR_EXCLUDE_USER))
			mods[n++] = 'u';
		if (!(f & PD_ATTR_EXCLUDE_HV))
			mods[n++] = 'h';
		guest_default = true;
	}
	while (precise--)
		mods[n++] = 'p';
	if (f & PD_ATTR_PRECISE_IP_MASK)
		guest_default = true;
	if ((f & PD_ATTR_EXCLUDE_HOST) ||
	    !!(f & PD_ATTR_EXCLUDE_GUEST) == guest_default) {
		if (!(f & PD_ATTR_EXCLUDE_HOST))
			mods[n++] = 'H';
		if (!(f & PD_ATTR_EXCLUDE_GUEST))
			mods[n++] = 'G';
	}
	mods[n] = '\0';
	if (n)
		at = append(buf, len, at, ":%s", mods);
	return at;
}

static const char *tracepoint_name(const struct pd_reader *r, uint64_t id)
{
	const struct pd_features *f = r ? pd_reader__features(r) : NULL;
	uint32_t i;

	if (!f || !pd_features__has(f, PD_FEAT_TRACING_DATA))
		return NULL;
	for (i = 0; i < f->tracing.nr_events; i++)
		if (f->tracing.events[i].id == id)
			return f->tracing.events[i].name;
	return NULL;
}

static const char *pmu_name(const struct pd_reader *r, uint32_t type)
{
	const struct pd_features *f = r ? pd_reader__features(r) : NULL;
	uint32_t i;

	if (!f || !pd_features__has(f, PD_FEAT_PMU_MAPPINGS))
		return NULL;
	for (i = 0; i < f->pmu_mappings.nr; i++)
		if (f->pmu_mappings.pmus[i].type == type)
			return f->pmu_mappings.pmus[i].name;
	return NULL;
}

PD_EXPORT const char *pd_attr__name(const struct pd_attr *a,
				    const struct pd_reader *r, char *buf,
				    size_t len)
{
	uint64_t cfg = a->config;
	size_t at = 0;
	const char *s;

	if (!len)
		return buf;
	buf[0] = '\0';
	switch (a->type) {
	case PD_TYPE_HARDWARE:
		cfg &= 0xffffffff;	/* upper half: hybrid PMU type */
		if (cfg < PD_ARRAY_SIZE(hw_names))
			at = append(buf, len, at, "%s", hw_names[cfg]);
		else
			at = append(buf, len, at, "unknown-hardware");
		break;
	case PD_TYPE_SOFTWARE:
		if (cfg < PD_ARRAY_SIZE(sw_names))
			at = append(buf, len, at, "%s", sw_names[cfg]);
		else
			at = append(buf, len, at, "unknown-software");
		break;
	case PD_TYPE_HW_CACHE: {
		uint64_t type = cfg & 0xff, op = (cfg >> 8) & 0xff;
		uint64_t res = (cfg >> 16) & 0xff;

		if (type >= PD_ARRAY_SIZE(cache_names) ||
		    op >= PD_ARRAY_SIZE(cache_ops) ||
		    res >= PD_ARRAY_SIZE(cache_results)) {
			at = append(buf, len, at, "unknown-ext-hardware-cache-type");
			break;
		}
		if (res == 0)	/* accesses */
			at = append(buf, len, at, "%s-%ss", cache_names[type],
				    cache_ops[op]);
		else
			at = append(buf, len, at, "%s-%s-%s", cache_names[type],
				    cache_ops[op], cache_results[res]);
		break;
	}
	case PD_TYPE_TRACEPOINT:
		s = tracepoint_name(r, cfg);
		at = append(buf, len, at, "%s", s ? s : "unknown tracepoint");
		return buf;
	case PD_TYPE_RAW:
		at = append(buf, len, at, "raw 0x%llx", (unsigned long long)cfg);
		break;
	case PD_TYPE_BREAKPOINT:
		at = append(buf, len, at, "mem:0x%llx:",
			    (unsigned long long)a->config1);
		if (a->bp_type & 1)
			at = append(buf, len, at, "r");
		if (a->bp_type & 2)
			at = append(buf, len, at, "w");
		if (a->bp_type & 4)
			at = append(buf, len, at, "x");
		break;
	default:
		s = pmu_name(r, a->type);
		if (s)
			at = append(buf, len, at, "%s/config=0x%llx/", s,
				    (unsigned long long)cfg);
		else
			at = append(buf, len, at, "unknown attr type: %u",
				    a->type);
		return buf;
	}
	add_modifiers(a, buf, len, at);
	return buf;
}

PD_EXPORT const char *pd_evsel__name(const struct pd_evsel *e,
				     const struct pd_reader *r, char *buf,
				     size_t len)
{
	if (e->name) {
		snprintf(buf, len, "%s", e->name);
		return buf;
	}
	return pd_attr__name(&e->attr, r, buf, len);
}
