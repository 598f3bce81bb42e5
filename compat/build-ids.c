// SPDX-License-Identifier: MIT
/*
 * BUILD_ID entries (header feature 2, pipe-mode HEADER_BUILD_ID records)
 * made what a target reads.
 *
 * Each entry is { header (type, misc, size), pid, build_id[24], name }.
 * Every perf read here, 3.10 to 6.17, looks the pid up as a machine
 * (header.c, __event_process_build_id(): perf_session__findnew_machine()
 * with the entry's pid; machine.c, machines__find(): -1, HOST_KERNEL_ID,
 * is the host, any other pid a guest machine, made on first sight) and
 * writes the machine's pid (build-id.c, machine__write_buildid_table() /
 * _cb() of 3.10, 5.12, 6.17: machine->pid, -1 for the host). An entry
 * under a process's pid puts the host's DSO under a guest machine: perf
 * report finds no build id for it and shows raw addresses (checked with
 * Debian 11's perf 5.10: named with -1, raw with the process's pid).
 * That is what the converter wrote for perf 7.x profiles (issue 18):
 * perf 7.x records build ids in MMAP2 records (--buildid-mmap is its
 * default) and no BUILD_ID table, and the table made from them for older
 * targets took each MMAP2's pid (16001 for testdata/newer/perf7.2-fp.data).
 * Entries of any writer are put right here as well.
 *
 * misc: the cpumode, and from 5.10 PERF_RECORD_MISC_BUILD_ID_SIZE (the
 * size byte after the 20 id bytes is valid). Older perfs mask misc with
 * the cpumode (header.c of 3.10, 4.15, 4.18.0-147.el8, 3.10.0-1160.el7)
 * and use 20 bytes: the flag is cleared for them all the same.
 */
#include <string.h>

#include <perfdata/format.h>

#include "build-ids.h"

#define ENTRY_HEAD	36	/* header 8, pid 4, build_id 24 */

int32_t pd__build_id_pid(const struct pd_perf_target *t, uint16_t misc,
			 int32_t pid)
{
	uint16_t cpumode = misc & PD_MISC_CPUMODE_MASK;

	if (t && (t->flags & PD_TGT_BUILD_ID_PROC_PID))
		return pid;
	if (cpumode == PD_MISC_KERNEL || cpumode == PD_MISC_USER)
		return -1;
	return pid;
}

bool pd__build_id_entry_fit(const struct pd_perf_target *t, uint8_t *entry,
			    size_t size)
{
	uint16_t misc;
	int32_t pid, want;
	bool changed = false;

	if (size < ENTRY_HEAD)
		return false;
	memcpy(&misc, entry + 4, 2);
	memcpy(&pid, entry + 8, 4);
	want = pd__build_id_pid(t, misc, pid);
	if (want != pid) {
		memcpy(entry + 8, &want, 4);
		changed = true;
	}
	if ((misc & PD_MISC_BUILD_ID_SIZE) && t &&
	    !(t->flags & PD_TGT_BUILD_ID_SIZE)) {
		misc &= ~PD_MISC_BUILD_ID_SIZE;
		memcpy(entry + 4, &misc, 2);
		changed = true;
	}
	return changed;
}

/* The size of the entry at p, or 0 if it does not fit in left bytes. */
static size_t entry_size(const uint8_t *p, size_t left)
{
	uint16_t size;

	if (left < ENTRY_HEAD)
		return 0;
	memcpy(&size, p + 6, 2);
	return size >= ENTRY_HEAD && size <= left ? size : 0;
}

static bool seen_before(const uint8_t *sec, size_t end, const uint8_t *e,
			size_t size)
{
	size_t off, n;

	for (off = 0; off < end; off += n) {
		n = entry_size(sec + off, end - off);
		if (!n)
			return false;
		if (n == size && !memcmp(sec + off, e, size))
			return true;
	}
	return false;
}

size_t pd__build_ids_fit(const struct pd_perf_target *t, uint8_t *sec,
			 size_t size, uint64_t *changed, uint64_t *dropped)
{
	size_t in = 0, out = 0, n;

	while ((n = entry_size(sec + in, size - in))) {
		if (pd__build_id_entry_fit(t, sec + in, n))
			(*changed)++;
		/* the same DSO for several processes is one host entry now */
		if (seen_before(sec, out, sec + in, n)) {
			(*dropped)++;
		} else {
			memmove(sec + out, sec + in, n);
			out += n;
		}
		in += n;
	}
	memmove(sec + out, sec + in, size - in);
	return out + size - in;
}
