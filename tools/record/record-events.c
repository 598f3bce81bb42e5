// SPDX-License-Identifier: MIT
/*
 * pd-record's events: names to perf_event_attr, the attr bits the options
 * imply, perf_event_open() and what to tell when it is refused.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/compat.h>
#include <perfdata/kernel-abi.h>

#include "record.h"

/* perf_event_attr.size given to the kernel: the 5.13+ layout (sig_data) */
#define REC_ATTR_SIZE	PD_ATTR_SIZE_VER7

#define CAP_SYS_ADMIN_BIT	21
#define CAP_PERFMON_BIT		38

struct named_event {
	const char *name;
	uint32_t type;
	uint64_t config;
};

static const struct named_event named_events[] = {
	{ "cpu-clock",		PD_TYPE_SOFTWARE, PD_SW_CPU_CLOCK },
	{ "task-clock",		PD_TYPE_SOFTWARE, PD_SW_TASK_CLOCK },
	{ "page-faults",	PD_TYPE_SOFTWARE, PD_SW_PAGE_FAULTS },
	{ "faults",		PD_TYPE_SOFTWARE, PD_SW_PAGE_FAULTS },
	{ "context-switches",	PD_TYPE_SOFTWARE, PD_SW_CONTEXT_SWITCHES },
	{ "cs",			PD_TYPE_SOFTWARE, PD_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations",	PD_TYPE_SOFTWARE, PD_SW_CPU_MIGRATIONS },
	{ "migrations",		PD_TYPE_SOFTWARE, PD_SW_CPU_MIGRATIONS },
	{ "minor-faults",	PD_TYPE_SOFTWARE, PD_SW_PAGE_FAULTS_MIN },
	{ "major-faults",	PD_TYPE_SOFTWARE, PD_SW_PAGE_FAULTS_MAJ },
	{ "dummy",		PD_TYPE_SOFTWARE, PD_SW_DUMMY },
	{ "cycles",		PD_TYPE_HARDWARE, PD_HW_CPU_CYCLES },
	{ "cpu-cycles",		PD_TYPE_HARDWARE, PD_HW_CPU_CYCLES },
	{ "instructions",	PD_TYPE_HARDWARE, PD_HW_INSTRUCTIONS },
	{ "cache-references",	PD_TYPE_HARDWARE, PD_HW_CACHE_REFERENCES },
	{ "cache-misses",	PD_TYPE_HARDWARE, PD_HW_CACHE_MISSES },
	{ "branch-instructions", PD_TYPE_HARDWARE, PD_HW_BRANCH_INSTRUCTIONS },
	{ "branches",		PD_TYPE_HARDWARE, PD_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses",	PD_TYPE_HARDWARE, PD_HW_BRANCH_MISSES },
	{ "bus-cycles",		PD_TYPE_HARDWARE, PD_HW_BUS_CYCLES },
	{ "ref-cycles",		PD_TYPE_HARDWARE, PD_HW_REF_CPU_CYCLES },
};

static int read_tracepoint_id(const char *sys, const char *name, uint64_t *id)
{
	const char *dir = rec_tracefs();
	char path[512];
	FILE *f;
	int ok;

	if (!dir)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, sys, name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	ok = fscanf(f, "%" SCNu64, id) == 1;
	fclose(f);
	return ok ? 0 : -EINVAL;
}

int rec_event__parse(struct rec_event *ev, const char *spec, char *err,
		     size_t errlen)
{
	char *copy = strdup(spec), *mod, *colon;
	size_t i;
	int e;

	memset(ev, 0, sizeof(*ev));
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* a trailing :u/:k/:uk modifier (tracepoints have a colon too) */
	mod = strrchr(copy, ':');
	if (mod && mod[1] && strspn(mod + 1, "uk") == strlen(mod + 1)) {
		ev->user_only = strchr(mod + 1, 'u') && !strchr(mod + 1, 'k');
		ev->kernel_only = strchr(mod + 1, 'k') && !strchr(mod + 1, 'u');
		*mod = '\0';
	}
	ev->attr.size = REC_ATTR_SIZE;
	for (i = 0; i < sizeof(named_events) / sizeof(named_events[0]); i++)
		if (!strcmp(copy, named_events[i].name)) {
			ev->attr.type = named_events[i].type;
			ev->attr.config = named_events[i].config;
			ev->name = copy;
			return 0;
		}
	colon = strchr(copy, ':');
	if (!colon || colon == copy || !colon[1] || strchr(colon + 1, ':') ||
	    strchr(copy, '/')) {
		snprintf(err, errlen,
			 "unknown event '%s' (cpu-clock, task-clock, cycles, instructions, context-switches, SYSTEM:TRACEPOINT, ...)",
			 spec);
		free(copy);
		return -1;
	}
	ev->tp_system = strndup(copy, colon - copy);
	ev->tp_event = strdup(colon + 1);
	ev->name = copy;
	if (!ev->tp_system || !ev->tp_event) {
		snprintf(err, errlen, "out of memory");
		rec_event__free(ev);
		return -1;
	}
	ev->attr.type = PD_TYPE_TRACEPOINT;
	e = read_tracepoint_id(ev->tp_system, ev->tp_event, &ev->attr.config);
	if (e) {
		const char *dir = rec_tracefs();

		if (!dir)
			snprintf(err, errlen,
				 "tracepoint '%s': no tracefs (mount -t tracefs nodev /sys/kernel/tracing)",
				 spec);
		else
			snprintf(err, errlen,
				 "tracepoint '%s': %s/events/%s/%s/id: %s%s",
				 spec, dir, ev->tp_system, ev->tp_event,
				 strerror(-e),
				 e == -EACCES ? " (tracefs needs root)" : "");
		rec_event__free(ev);
		return -1;
	}
	return 0;
}

void rec_event__free(struct rec_event *ev)
{
	if (!ev)
		return;
	free(ev->name);
	free(ev->tp_system);
	free(ev->tp_event);
	free(ev->ids);
	memset(ev, 0, sizeof(*ev));
}

/* x86_64 user registers perf samples for DWARF unwinding: all but the
 * segment and flags registers (perf's PERF_REGS_MASK) */
static uint64_t dwarf_regs_mask(void)
{
#if defined(__x86_64__)
	return 0xff0fffULL;
#elif defined(__i386__)
	return 0x1ffULL;
#elif defined(__aarch64__)
	return (1ULL << 33) - 1;
#else
	return 0;
#endif
}

/*
 * A reader without PERF_SAMPLE_IDENTIFIER (perf 3.10) finds the event of a
 * record by its ID, at a place that depends on the sample_type: upstream
 * 3.10 refuses a file whose events differ in sample_type ("non matching
 * sample_type", perf_evlist__valid_sample_type() in util/evlist.c), RHEL
 * 7's perf one where the ID is not at the same place in every event. So,
 * for such a target, every event samples what any of them samples (a
 * tracepoint's RAW and CPU, say; the kernel gives a cpu-clock an empty
 * RAW), as perf 3.10 did for all events with -R.
 */
static void same_sample_type(struct rec_event *evs, size_t nr,
			     const struct rec_opts *o)
{
	uint64_t all = 0;
	size_t i;

	if (nr < 2 || !o->target ||
	    (o->target_perf->sample_type & PD_SAMPLE_IDENTIFIER))
		return;
	for (i = 0; i < nr; i++)
		all |= evs[i].attr.sample_type;
	for (i = 0; i < nr; i++)
		evs[i].attr.sample_type = all;
}

void rec_events__config(struct rec_event *evs, size_t nr,
			const struct rec_opts *o, bool kernel_allowed)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		struct pd_attr *a = &evs[i].attr;
		bool tp = a->type == PD_TYPE_TRACEPOINT;

		a->sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME;
		a->read_format = PD_FORMAT_ID;
		a->flags = PD_ATTR_DISABLED | PD_ATTR_SAMPLE_ID_ALL |
			   PD_ATTR_EXCLUDE_GUEST;
		if (!o->no_inherit)
			a->flags |= PD_ATTR_INHERIT;
		if (o->argv)
			a->flags |= PD_ATTR_ENABLE_ON_EXEC;
		/* a tracepoint samples every hit unless -c says otherwise,
		 * as in perf; other events at 4000 Hz by default */
		if (o->period || tp) {
			a->sample_period = o->period ? o->period : 1;
		} else {
			a->flags |= PD_ATTR_FREQ;
			a->sample_period = o->freq ? o->freq : 4000;
			a->sample_type |= PD_SAMPLE_PERIOD;
		}
		if (tp)
			a->sample_type |= PD_SAMPLE_RAW | PD_SAMPLE_CPU |
					  PD_SAMPLE_PERIOD;
		if (o->all_cpus || o->cpu_list)
			a->sample_type |= PD_SAMPLE_CPU;
		if (nr > 1)
			a->sample_type |= PD_SAMPLE_IDENTIFIER;
		if (o->callgraph != REC_CG_NONE)
			a->sample_type |= PD_SAMPLE_CALLCHAIN;
		if (o->callgraph == REC_CG_DWARF) {
			a->sample_type |= PD_SAMPLE_REGS_USER |
					  PD_SAMPLE_STACK_USER;
			a->sample_regs_user = dwarf_regs_mask();
			a->sample_stack_user = o->stack_size;
			/* perf leaves the user part to the stack copy */
			a->flags |= PD_ATTR_EXCLUDE_CALLCHAIN_USER;
		}
		if (evs[i].user_only || !kernel_allowed)
			a->flags |= PD_ATTR_EXCLUDE_KERNEL | PD_ATTR_EXCLUDE_HV;
		if (evs[i].kernel_only)
			a->flags |= PD_ATTR_EXCLUDE_USER;
		if (o->use_clockid) {
			a->flags |= PD_ATTR_USE_CLOCKID;
			a->clockid = o->clockid;
		}
		/* wake the reader when a quarter of the buffer is full */
		a->flags |= PD_ATTR_WATERMARK;
		a->wakeup_events = (uint32_t)(o->mmap_pages *
					      (uint64_t)sysconf(_SC_PAGESIZE) / 4);
		if (i == 0) {
			a->flags |= PD_ATTR_MMAP | PD_ATTR_COMM | PD_ATTR_TASK |
				    PD_ATTR_MMAP2 | PD_ATTR_COMM_EXEC;
			if (o->switch_events)
				a->flags |= PD_ATTR_CONTEXT_SWITCH;
			/* BPF programs and other kernel text loaded while
			 * recording get a name (KSYMBOL, BPF_EVENT), as perf
			 * asks for them, where the target reads them */
			if (!o->target ||
			    pd_perf_target__knows_record(o->target_perf,
							 PD_RECORD_KSYMBOL))
				a->flags |= PD_ATTR_KSYMBOL | PD_ATTR_BPF_EVENT;
			/* DWARF unwinding reads .eh_frame_hdr and .eh_frame
			 * from the read-only segments: their maps too, as
			 * perf records them */
			if (o->callgraph == REC_CG_DWARF)
				a->flags |= PD_ATTR_MMAP_DATA;
			/* each MMAP2 with its file's build id, read by the
			 * kernel from the file the process maps (5.12+), as
			 * perf record --buildid-mmap asks, where the target
			 * reads them */
			if (!o->target ||
			    (o->target_perf->flags & PD_TGT_MMAP2_BUILD_ID))
				a->flags |= PD_ATTR_BUILD_ID;
		}
	}
	same_sample_type(evs, nr, o);
}

size_t rec_id_hdr_size(const struct pd_attr *attr)
{
	static const uint64_t bits[] = {
		PD_SAMPLE_TID, PD_SAMPLE_TIME, PD_SAMPLE_ID,
		PD_SAMPLE_STREAM_ID, PD_SAMPLE_CPU, PD_SAMPLE_IDENTIFIER,
	};
	size_t i, n = 0;

	if (!(attr->flags & PD_ATTR_SAMPLE_ID_ALL))
		return 0;
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (attr->sample_type & bits[i])
			n += 8;
	return n;
}

/*
 * The kernel's perf_event_attr: the same bytes as struct pd_attr, but for
 * the flag bitfield, which a big-endian compiler allocates from the top.
 */
static void kernel_attr(const struct pd_attr *a, uint8_t out[REC_ATTR_SIZE])
{
	struct pd_attr k = *a;

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	{
		uint64_t f = 0;
		int b;

		for (b = 0; b < 64; b++)
			if (a->flags & (1ULL << b))
				f |= 1ULL << (63 - b);
		k.flags = f;
	}
#endif
	k.size = REC_ATTR_SIZE;
	memcpy(out, &k, REC_ATTR_SIZE);
}

static int sys_perf_event_open(const struct pd_attr *a, pid_t pid, int cpu)
{
	uint8_t buf[REC_ATTR_SIZE];
	long fd;

	kernel_attr(a, buf);
	fd = syscall(SYS_perf_event_open, buf, pid, cpu, -1,
		     PD_PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

int rec_event__open(struct rec_event *ev, pid_t pid, int cpu, bool *fell_back)
{
	int fd = sys_perf_event_open(&ev->attr, pid, cpu);

	/* no PMU for it (a VM): perf records cpu-clock instead */
	if (fd < 0 && ev->attr.type == PD_TYPE_HARDWARE &&
	    (fd == -ENOENT || fd == -EOPNOTSUPP || fd == -ENODEV ||
	     fd == -ENXIO)) {
		struct pd_attr a = ev->attr;
		char *name = strdup("cpu-clock");

		a.type = PD_TYPE_SOFTWARE;
		a.config = PD_SW_CPU_CLOCK;
		fd = sys_perf_event_open(&a, pid, cpu);
		if (fd >= 0 && name) {
			ev->attr = a;
			free(ev->name);
			ev->name = name;
			*fell_back = true;
		} else {
			free(name);
		}
	}
	/* an older kernel: without the newest bits, one kernel version
	 * after the other (EINVAL for a bit it does not know) */
	if (fd == -EINVAL) {
		static const uint64_t newer[] = {
			PD_ATTR_BUILD_ID,			/* 5.12 */
			PD_ATTR_KSYMBOL | PD_ATTR_BPF_EVENT,	/* 5.1 */
		};
		size_t i, n = sizeof(newer) / sizeof(newer[0]);
		struct pd_attr a = ev->attr;

		for (i = 0; fd == -EINVAL && i < n; i++) {
			if (!(a.flags & newer[i]))
				continue;
			a.flags &= ~newer[i];
			fd = sys_perf_event_open(&a, pid, cpu);
			if (fd >= 0)
				ev->attr = a;
		}
	}
	if (fd == -E2BIG) {
		struct pd_attr a = ev->attr;

		a.flags &= ~PD_ATTR_EXCLUDE_GUEST;
		fd = sys_perf_event_open(&a, pid, cpu);
	}
	return fd;
}

int rec_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

static bool has_cap(int bit)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	bool yes = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long caps;

		if (sscanf(line, "CapEff: %llx", &caps) == 1) {
			yes = caps & (1ULL << bit);
			break;
		}
	}
	fclose(f);
	return yes;
}

bool rec_kernel_allowed(void)
{
	return rec_paranoid() <= 1 || has_cap(CAP_PERFMON_BIT) ||
	       has_cap(CAP_SYS_ADMIN_BIT);
}

bool rec_tracepoints_allowed(void)
{
	return rec_paranoid() <= -1 || has_cap(CAP_PERFMON_BIT) ||
	       has_cap(CAP_SYS_ADMIN_BIT);
}

void rec_open_error(const struct rec_event *ev, int err, char *buf, size_t len)
{
	int p = rec_paranoid();

	if (err == -EACCES || err == -EPERM) {
		snprintf(buf, len,
			 "%s: perf_event_open: %s: /proc/sys/kernel/perf_event_paranoid is %d (%s); lower it (sysctl kernel.perf_event_paranoid=%d) or give pd-record CAP_PERFMON (CAP_SYS_ADMIN before Linux 5.8)",
			 ev->name, strerror(-err), p,
			 ev->attr.type == PD_TYPE_TRACEPOINT ?
			 "tracepoints need -1" :
			 "system-wide (-a) and kernel samples need 1 or below, other users' processes 0 or below",
			 ev->attr.type == PD_TYPE_TRACEPOINT ? -1 : p > 1 ? 1 : 0);
	} else if (err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV) {
		snprintf(buf, len,
			 "%s: perf_event_open: %s: this machine has no such event (no hardware PMU in a VM?)",
			 ev->name, strerror(-err));
	} else if (err == -EMFILE) {
		snprintf(buf, len,
			 "%s: perf_event_open: %s: one descriptor per event, CPU and thread: raise ulimit -n",
			 ev->name, strerror(-err));
	} else if (err == -ESRCH) {
		snprintf(buf, len, "%s: perf_event_open: no such process",
			 ev->name);
	} else {
		snprintf(buf, len, "%s: perf_event_open: %s", ev->name,
			 strerror(-err));
	}
}
