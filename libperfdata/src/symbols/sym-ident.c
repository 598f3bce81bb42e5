// SPDX-License-Identifier: MIT
/*
 * Whether the file at a path is the file an MMAP2 record mapped: the
 * record carries the device (major, minor) and inode the kernel saw,
 * which tell two files at one path apart (a container's libc and the
 * host's) where no build id does. Asked on the recording machine only:
 * elsewhere the numbers name nothing.
 *
 * stat() is asked first. Its st_dev is not always the kernel's s_dev
 * that MMAP2 and /proc/PID/maps print: a btrfs subvolume reports an
 * anonymous device of its own, an overlayfs file the overlay's device
 * (and maybe another inode) while its maps name the file beneath. So a
 * file stat() does not confirm is mapped here, and the line the kernel
 * prints for that map in /proc/self/maps decides.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "sym-internal.h"

/* The device and inode /proc/self/maps prints for the map at addr. */
static int maps_line_ident(uintptr_t addr, uint32_t *maj, uint32_t *min,
			   uint64_t *ino)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen("/proc/self/maps", "re");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		unsigned long long start, end, off, inode;
		unsigned int ma, mi;
		char perms[8];

		/* "start-end perms offset major:minor inode path" */
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu", &start, &end,
			   perms, &off, &ma, &mi, &inode) != 7)
			continue;
		if (start != addr)
			continue;
		*maj = ma;
		*min = mi;
		*ino = inode;
		ret = 0;
		break;
	}
	free(line);
	fclose(f);
	return ret;
}

/* The kernel's (device, inode) of the open file fd, as a map shows it. */
static int mapped_ident(int fd, uint32_t *maj, uint32_t *min, uint64_t *ino)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p;
	int ret;

	p = mmap(NULL, page > 0 ? (size_t)page : 4096, PROT_READ, MAP_PRIVATE,
		 fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	ret = maps_line_ident((uintptr_t)p, maj, min, ino);
	munmap(p, page > 0 ? (size_t)page : 4096);
	return ret;
}

int sym_file_ident(const char *path, uint32_t maj, uint32_t min, uint64_t ino)
{
	uint32_t kmaj = 0, kmin = 0;
	uint64_t kino = 0;
	struct stat st;
	int fd, ret;

	if (stat(path, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return 0;
	if (major(st.st_dev) == maj && minor(st.st_dev) == min &&
	    (uint64_t)st.st_ino == ino)
		return 1;
	/* an empty file maps no page: it is no mapped ELF file either */
	if (!st.st_size)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = mapped_ident(fd, &kmaj, &kmin, &kino);
	close(fd);
	/* unconfirmed (no /proc): stat() said another file */
	if (ret)
		return 0;
	return kmaj == maj && kmin == min && kino == ino;
}
