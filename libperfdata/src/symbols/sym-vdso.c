// SPDX-License-Identifier: MIT
/*
 * The running process's vdso as a file. perf symbolizes a recording's
 * [vdso] with its own vdso (util/vdso.c copies it to a temporary file)
 * when no build-id cache copy matches: the symbols are right when the
 * recording comes from the same kernel, and the build id check rejects
 * the copy otherwise (a recording without build ids takes it as is).
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "sym-internal.h"

/* The [vdso] line of /proc/self/maps gives the image's extent. */
static size_t vdso_size(uintptr_t base)
{
	char line[512];
	size_t size = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo == base &&
		    strstr(line, "[vdso]")) {
			size = hi - lo;
			break;
		}
	}
	fclose(f);
	return size;
}

const char *sym_own_vdso(struct pd_symbolizer *s)
{
	char path[] = "/tmp/pd-vdso.so-XXXXXX";
	uintptr_t base;
	size_t size;
	int fd;

	if (s->own_vdso_tried)
		return s->own_vdso;
	s->own_vdso_tried = true;
	base = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	if (!base)
		return NULL;
	size = vdso_size(base);
	if (size < sizeof(Elf64_Ehdr) || memcmp((void *)base, ELFMAG, SELFMAG))
		return NULL;
	fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	if (write(fd, (void *)base, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return NULL;
	}
	close(fd);
	s->own_vdso = strdup(path);
	if (!s->own_vdso)
		unlink(path);
	return s->own_vdso;
}
