// SPDX-License-Identifier: MIT
/*
 * The header features perf writes about the recording machine and
 * session, in the layout of perf's file sections: host name, OS release,
 * version, architecture, CPUs, CPU description and id, memory, command
 * line, the events with their names and ids, the CPU topology and the
 * PMU mappings. Caches and NUMA nodes are record-topo.c's, PMU
 * capabilities record-pmucaps.c's, the clock record-clock.c's; the
 * header string all of them write is record-strings.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "record.h"
#include "common/bytes.h"

#define PD_RECORD_VERSION	"pd-record (perfdata 0.1.0)"

static int set_string(struct pd_writer *w, unsigned int feat, const char *s)
{
	size_t n = rec_string_size(s);
	uint8_t *buf = malloc(n);
	int err;

	if (!buf)
		return -ENOMEM;
	rec_put_string(buf, s);
	err = pd_writer__set_feature(w, feat, buf, n);
	free(buf);
	return err;
}

/* The value of the first "key : value" line of /proc/cpuinfo. */
static int cpuinfo(const char *key, char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[1024];
	size_t klen = strlen(key);
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *v;

		if (strncmp(line, key, klen) ||
		    (line[klen] != ' ' && line[klen] != '\t' && line[klen] != ':'))
			continue;
		v = strchr(line, ':');
		if (!v)
			continue;
		v++;
		while (*v == ' ')
			v++;
		v[strcspn(v, "\n")] = '\0';
		snprintf(out, len, "%s", v);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

static int set_cpu(struct pd_writer *w)
{
	char desc[256], vendor[64], fam[16], model[16], step[16], id[160];
	int err = 0;

	if (!cpuinfo("model name", desc, sizeof(desc)) ||
	    !cpuinfo("Processor", desc, sizeof(desc)))
		err = set_string(w, PD_FEAT_CPUDESC, desc);
	/* x86: vendor,family,model,stepping, as perf's cpuid */
	if (!err && !cpuinfo("vendor_id", vendor, sizeof(vendor)) &&
	    !cpuinfo("cpu family", fam, sizeof(fam)) &&
	    !cpuinfo("model", model, sizeof(model)) &&
	    !cpuinfo("stepping", step, sizeof(step))) {
		snprintf(id, sizeof(id), "%s,%s,%s,%s", vendor, fam, model, step);
		err = set_string(w, PD_FEAT_CPUID, id);
	}
	return err;
}

static int set_mem(struct pd_writer *w)
{
	FILE *f = fopen("/proc/meminfo", "r");
	unsigned long long kb = 0;
	char line[256];
	uint64_t v;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	fclose(f);
	if (!kb)
		return 0;
	v = kb;
	return pd_writer__set_feature(w, PD_FEAT_TOTAL_MEM, &v, sizeof(v));
}

static int set_cmdline(struct pd_writer *w, const struct rec_opts *o)
{
	size_t n = 4, i;
	uint8_t *buf, *p;
	uint32_t nr = o->argc_all;
	int err;

	for (i = 0; i < nr; i++)
		n += rec_string_size(o->argv_all[i]);
	buf = malloc(n);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, &nr, 4);
	p = buf + 4;
	for (i = 0; i < nr; i++)
		p += rec_put_string(p, o->argv_all[i]);
	err = pd_writer__set_feature(w, PD_FEAT_CMDLINE, buf, n);
	free(buf);
	return err;
}

/* u32 nr, u32 attr size; per event: attr, u32 nr_ids, name, ids */
static int set_event_desc(struct pd_writer *w, const struct rec_event *evs,
			  size_t nr)
{
	uint32_t asz = PD_ATTR_SIZE_VER7, v;
	size_t n = 8, i;
	uint8_t *buf, *p;
	int err;

	for (i = 0; i < nr; i++)
		n += asz + 4 + rec_string_size(evs[i].name) + 8 * evs[i].nr_ids;
	buf = calloc(1, n);
	if (!buf)
		return -ENOMEM;
	v = nr;
	memcpy(buf, &v, 4);
	memcpy(buf + 4, &asz, 4);
	p = buf + 8;
	for (i = 0; i < nr; i++) {
		struct pd_attr a = evs[i].attr;

		a.size = asz;
		memcpy(p, &a, asz);
		p += asz;
		v = evs[i].nr_ids;
		memcpy(p, &v, 4);
		p += 4;
		p += rec_put_string(p, evs[i].name);
		memcpy(p, evs[i].ids, 8 * evs[i].nr_ids);
		p += 8 * evs[i].nr_ids;
	}
	err = pd_writer__set_feature(w, PD_FEAT_EVENT_DESC, buf, n);
	free(buf);
	return err;
}

/* ---- the variable-size sections, built in a growing buffer ---- */

static int sec_set(struct pd_writer *w, unsigned int feat, struct bytes *b)
{
	int err = b->oom ? -ENOMEM : pd_writer__set_feature(w, feat, b->p,
							     b->len);

	free(b->p);
	return err;
}

/* PMU_MAPPINGS: u32 nr, then {u32 type, string name} per PMU */
static int set_pmu_mappings(struct pd_writer *w)
{
	const char *dir = "/sys/bus/event_source/devices";
	struct bytes b = { 0 };
	struct dirent *d;
	uint32_t nr = 0;
	DIR *dp = opendir(dir);

	if (!dp)
		return 0;
	bytes__u32(&b, 0);
	while ((d = readdir(dp))) {
		char path[512];
		unsigned int type;
		FILE *f;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/type", dir, d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%u", &type) == 1) {
			bytes__u32(&b, type);
			rec_bytes_string(&b, d->d_name);
			nr++;
		}
		fclose(f);
	}
	closedir(dp);
	if (!nr || b.oom) {
		free(b.p);
		return b.oom ? -ENOMEM : 0;
	}
	memcpy(b.p, &nr, 4);
	return sec_set(w, PD_FEAT_PMU_MAPPINGS, &b);
}

static int read_topo(int cpu, const char *name, char *out, size_t len)
{
	char path[128];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fgets(out, len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	out[strcspn(out, "\n")] = '\0';
	return 0;
}

/* the distinct lists of one topology file over all CPUs */
static void sibling_lists(struct bytes *b, int nr_cpus, const char *name,
			  const char *old_name)
{
	char (*seen)[256] = calloc(nr_cpus ? nr_cpus : 1, sizeof(*seen));
	uint32_t n = 0;
	size_t at = b->len;
	int cpu, i;

	bytes__u32(b, 0);
	if (!seen) {
		b->oom = true;
		return;
	}
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		char list[256];

		if (read_topo(cpu, name, list, sizeof(list)) &&
		    (!old_name || read_topo(cpu, old_name, list, sizeof(list))))
			continue;	/* offline */
		for (i = 0; i < (int)n; i++)
			if (!strcmp(seen[i], list))
				break;
		if (i < (int)n)
			continue;
		snprintf(seen[n++], sizeof(seen[0]), "%s", list);
		rec_bytes_string(b, list);
	}
	free(seen);
	if (!b->oom)
		memcpy(b->p + at, &n, 4);
}

static int topo_id(int cpu, const char *name)
{
	char v[32];

	return read_topo(cpu, name, v, sizeof(v)) ? -1 : atoi(v);
}

/*
 * CPU_TOPOLOGY: package (socket) sibling lists, thread sibling lists,
 * {core id, socket id} per CPU, die sibling lists, die id per CPU; the
 * per-CPU arrays as long as NRCPUS' available count.
 */
static int set_cpu_topology(struct pd_writer *w)
{
	int nr = sysconf(_SC_NPROCESSORS_CONF), cpu;
	struct bytes b = { 0 };

	if (nr <= 0 || read_topo(0, "core_id", (char[32]){ 0 }, 32))
		return 0;
	sibling_lists(&b, nr, "package_cpus_list", "core_siblings_list");
	sibling_lists(&b, nr, "thread_siblings_list", "core_cpus_list");
	for (cpu = 0; cpu < nr; cpu++) {
		bytes__u32(&b, topo_id(cpu, "core_id"));
		bytes__u32(&b, topo_id(cpu, "physical_package_id"));
	}
	sibling_lists(&b, nr, "die_cpus_list", "package_cpus_list");
	for (cpu = 0; cpu < nr; cpu++) {
		int die = topo_id(cpu, "die_id");

		bytes__u32(&b, die < 0 ? 0 : die);
	}
	return sec_set(w, PD_FEAT_CPU_TOPOLOGY, &b);
}

int rec_features__set(struct pd_writer *w, const struct rec_event *evs,
		      size_t nr, const struct rec_opts *o)
{
	struct utsname u;
	uint32_t cpus[2];
	char host[256];
	int err = 0;

	if (uname(&u) == 0) {
		err = set_string(w, PD_FEAT_OSRELEASE, u.release);
		if (!err)
			err = set_string(w, PD_FEAT_ARCH, u.machine);
	}
	if (!err && gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		err = set_string(w, PD_FEAT_HOSTNAME, host);
	}
	if (!err)
		err = set_string(w, PD_FEAT_VERSION, PD_RECORD_VERSION);
	cpus[0] = sysconf(_SC_NPROCESSORS_CONF);
	cpus[1] = sysconf(_SC_NPROCESSORS_ONLN);
	if (!err)
		err = pd_writer__set_feature(w, PD_FEAT_NRCPUS, cpus,
					     sizeof(cpus));
	if (!err)
		err = set_cpu(w);
	if (!err)
		err = set_mem(w);
	if (!err)
		err = set_cmdline(w, o);
	if (!err)
		err = set_event_desc(w, evs, nr);
	if (!err)
		err = set_cpu_topology(w);
	if (!err)
		err = set_pmu_mappings(w);
	if (!err)
		err = rec_features_topology(w);
	if (!err)
		err = rec_features_pmu_caps(w);
	if (!err && o->use_clockid)
		err = rec_features_clock(w, o->clockid);
	return err;
}

int rec_feature_sample_time(struct pd_writer *w, uint64_t first, uint64_t last)
{
	uint64_t v[2] = { first, last };

	return pd_writer__set_feature(w, PD_FEAT_SAMPLE_TIME, v, sizeof(v));
}
