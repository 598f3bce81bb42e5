// SPDX-License-Identifier: MIT
/*
 * A mapped file as its process sees it. A process in a container has its
 * own mount namespace and root: the path in its maps names a file of that
 * root, and the file at the same path here may be another one (the host's
 * libc, another build of the program). So a map's file is opened through
 * the process, never by its path here:
 * - /proc/PID/map_files/START-END, the mapped file itself whatever its
 *   path (the kernel asks for CAP_SYS_ADMIN, or CAP_CHECKPOINT_RESTORE
 *   since 5.9);
 * - else /proc/PID/root/PATH, the path in the process's own root;
 * - else, the process gone already (a short-lived one: its records are
 *   read some milliseconds after it mapped), the same path in its
 *   parent's root, most often its own (a container's shell, its init),
 *   and last PATH here, either only when it is the file the record names
 *   (its device and inode, or its build id).
 * An fd so opened keeps the file readable after its process, its mount
 * namespace and its root are gone.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <perfdata/symbols.h>

#include "record.h"

int rec_fd_build_id(int fd, uint8_t id[REC_BUILD_ID_MAX])
{
	char path[64];
	int n;

	/* the library reads a path: this fd's own, which opens its file */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	memset(id, 0, REC_BUILD_ID_MAX);
	n = pd_elf_build_id(path, id, REC_BUILD_ID_MAX);
	return n > 0 ? n : -ENOENT;
}

bool rec_file_id__matches(const struct rec_file_id *want, int fd)
{
	uint8_t id[REC_BUILD_ID_MAX];
	struct stat st;
	int n;

	if (want->has_dev)
		return !fstat(fd, &st) && st.st_ino == want->ino &&
		       major(st.st_dev) == want->maj &&
		       minor(st.st_dev) == want->min;
	if (!want->id_size)
		return false;
	n = rec_fd_build_id(fd, id);
	return n == want->id_size && !memcmp(id, want->id, n);
}

static int open_checked(const char *path, const struct rec_file_id *want,
			bool must_match)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;

	if (fd < 0)
		return -errno;
	/* a FIFO or device at the path would block or read forever */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (must_match && !rec_file_id__matches(want, fd))) {
		close(fd);
		return -ENOENT;
	}
	return fd;
}

int rec_map_open(const struct rec_map_at *at, const char *name,
		 const struct rec_file_id *want)
{
	bool says = want->has_dev || want->id_size;
	char path[4200];
	int fd;

	if (at->pid > 0) {
		snprintf(path, sizeof(path),
			 "/proc/%d/map_files/%" PRIx64 "-%" PRIx64,
			 (int)at->pid, at->start, at->end);
		fd = open_checked(path, want, false);
		if (fd >= 0)
			return fd;
	}
	if (name[0] != '/' || strlen(name) > 4000)
		return -ENOENT;
	/*
	 * Without the privilege map_files asks for. The path may have
	 * changed hands since the mapping: what the record says is checked
	 * where it says something.
	 */
	if (at->pid > 0) {
		snprintf(path, sizeof(path), "/proc/%d/root%s", (int)at->pid,
			 name);
		fd = open_checked(path, want, says);
		if (fd >= 0)
			return fd;
	}
	if (at->ppid > 0 && says) {
		snprintf(path, sizeof(path), "/proc/%d/root%s", (int)at->ppid,
			 name);
		fd = open_checked(path, want, true);
		if (fd >= 0)
			return fd;
	}
	/* the process gone, or not ours to look into */
	return open_checked(name, want, true);
}

int rec_proc_nspid(int32_t pid)
{
	char path[64], line[256];
	int nspid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p, *end;

		if (strncmp(line, "NSpid:", 6))
			continue;
		/* the host's pid first, the process's own namespace's last */
		for (p = line + 6;; p = end) {
			long v = strtol(p, &end, 10);

			if (end == p)
				break;
			nspid = (int)v;
		}
		break;
	}
	fclose(f);
	return nspid;
}

bool rec_same_file(int fd, const char *path)
{
	struct stat a, b;

	return !fstat(fd, &a) && !stat(path, &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}
