// SPDX-License-Identifier: MIT
/*
 * The kernel's symbols: from --vmlinux, --kallsyms, the build-id
 * cache's copy of kallsyms or /proc/kallsyms, whichever perf 6.1's
 * dso__load_kernel_sym() would read, with the warnings that say why
 * kernel frames stay unresolved. Below the symbolizer's kernel lookup
 * (sym-core.c) and the preload (sym-preload.c), which both load so.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "sym-internal.h"

/* The running kernel's GNU build id, from the notes it exports. */
PD_EXPORT int pd_running_kernel_build_id(uint8_t *bid, size_t max)
{
	uint8_t buf[4096];
	size_t n, off = 0;
	FILE *f = fopen("/sys/kernel/notes", "rb");

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	while (off + 12 <= n) {
		uint32_t namesz, descsz, type;
		size_t name, desc;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		name = off + 12;
		desc = name + ((namesz + 3) & ~3u);
		if (namesz > n || descsz > n || desc + descsz > n)
			break;
		if (type == 3 && namesz == 4 && !memcmp(buf + name, "GNU", 4)) {
			if (descsz > max)
				descsz = max;
			memcpy(bid, buf + desc, descsz);
			return (int)descsz;
		}
		off = desc + ((descsz + 3) & ~3u);
	}
	return -1;
}

/* When this boot began, in CLOCK_REALTIME seconds (0: unknown). */
static time_t boot_time(void)
{
	struct timespec now, up;

	if (clock_gettime(CLOCK_REALTIME, &now) ||
	    clock_gettime(CLOCK_BOOTTIME, &up) || now.tv_sec < up.tv_sec)
		return 0;
	return now.tv_sec - up.tv_sec;
}

/*
 * Where the kernel's symbols come from, as perf 6.1's dso__find_kallsyms()
 * decides without a vmlinux: --kallsyms wins; a recording with no kernel
 * build id, or made on the running kernel, reads /proc/kallsyms; one
 * made on another kernel reads only the build-id cache's copy, since the
 * running kernel's addresses would give wrong names.
 *
 * Reading /proc/kallsyms costs more than folding many profiles: the
 * kernel formats its hundred thousand lines on every read. perf record
 * leaves a copy in the build-id cache, and a copy made since this boot
 * holds the same addresses (same kernel, same KASLR offset); it is read
 * instead (*copy set) when it begins as /proc/kallsyms does (a trimmed
 * copy does not) and names the modules loaded now, the only other part
 * perf's names can come from (sym_kallsyms__load_copy()).
 */
static char *kallsyms_path(struct pd_symbolizer *s, const uint8_t *bid,
			   size_t size, bool *copy)
{
	uint8_t running[PD_BUILD_ID_MAX];
	char hex[2 * PD_BUILD_ID_MAX + 1], *path;
	struct stat st;
	time_t boot;
	int n;
	size_t i;

	*copy = false;
	if (s->kallsyms)
		return strdup(s->kallsyms);
	if (!size)
		return strdup("/proc/kallsyms");
	for (i = 0; i < size; i++)
		sprintf(hex + 2 * i, "%02x", bid[i]);
	if (asprintf(&path, "%s/[kernel.kallsyms]/%s/kallsyms",
		     s->buildid_dir, hex) < 0)
		return NULL;
	n = pd_running_kernel_build_id(running, sizeof(running));
	if (n != (int)size || memcmp(running, bid, size))
		return path;
	boot = boot_time();
	/* (a copy written in the boot's first seconds is no copy) */
	if (boot && !stat(path, &st) && S_ISREG(st.st_mode) &&
	    st.st_mtime > boot + 2) {
		*copy = true;
		return path;
	}
	free(path);
	return strdup("/proc/kallsyms");
}

/*
 * perf 6.1's dso__load_vmlinux(): an absolute path is used as is, a
 * relative one under the symfs (symbol__join_symfs(): SYMFS/PATH).
 */
static char *vmlinux_path(const struct pd_symbolizer *s)
{
	char *path;

	if (s->vmlinux[0] == '/' || !s->symfs)
		return strdup(s->vmlinux);
	if (asprintf(&path, "%s/%s", s->symfs, s->vmlinux) < 0)
		return NULL;
	return path;
}

static void warn_vmlinux(struct pd_symbolizer *s, const struct pd_dso *d,
			 const char *path)
{
	char hex[2 * PD_BUILD_ID_MAX + 1];
	size_t i;

	for (i = 0; i < d->build_id_size; i++)
		sprintf(hex + 2 * i, "%02x", d->build_id[i]);
	hex[2 * d->build_id_size] = '\0';
	if (!d->found_file)
		pd__warn(&s->log,
			 "--vmlinux: %s: not found: kernel frames stay unresolved (perf then uses no other kernel symbols)",
			 path);
	else if (d->not_elf)
		pd__warn(&s->log,
			 "--vmlinux: %s: not an ELF file: kernel frames stay unresolved",
			 path);
	else if (d->mismatch)
		pd__warn(&s->log,
			 "--vmlinux: %s: its build id is not the recording kernel's (%s): kernel frames stay unresolved",
			 path, hex);
	else
		pd__warn(&s->log,
			 "--vmlinux: %s: no symbols (no .symtab: stripped?): kernel frames stay unresolved",
			 path);
}

/*
 * kallsyms into d, from the file kallsyms_path() picks (and
 * /proc/kallsyms when a copy turns out stale): 0 whether or not it had
 * symbols, or -ENOMEM; *path the file read (NULL out of memory).
 */
static int kallsyms_into(struct pd_symbolizer *s, struct pd_dso *d,
			 const uint8_t *build_id, size_t build_id_size,
			 char **pathp)
{
	char *path;
	bool copy;
	int err;

	*pathp = NULL;
	path = kallsyms_path(s, build_id, build_id_size, &copy);
	if (!path)
		return -ENOMEM;
	err = copy ? sym_kallsyms__load_copy(d, path) : -ESTALE;
	if (err == -ESTALE && copy) {
		free(path);
		path = strdup("/proc/kallsyms");
		if (!path)
			return -ENOMEM;
	}
	if (err == -ESTALE)
		err = sym_kallsyms__load(d, path);
	*pathp = path;
	return err == -ENOMEM ? err : 0;
}

int sym_kernel_kallsyms(struct pd_symbolizer *s, struct pd_dso *d)
{
	char *path;
	int err = kallsyms_into(s, d, d->build_id, d->key_build_id_size, &path);

	free(path);
	return err;
}

/*
 * perf 6.1's dso__load_kernel_sym(): --kallsyms wins; else a --vmlinux
 * is the only source tried (no fallback when it cannot be used); else
 * kallsyms as kallsyms_path() says, with nothing local under a symfs.
 */
int sym_kernel__load(struct pd_symbolizer *s, struct pd_dso *d,
		     const uint8_t *build_id, size_t build_id_size,
		     const char *ref_name, uint64_t ref_addr)
{
	char *path;
	int err;

	if (s->vmlinux && !s->kallsyms) {
		path = vmlinux_path(s);
		if (!path)
			return -ENOMEM;
		err = sym_vmlinux__load(d, path, ref_name, ref_addr);
		if (!err && !d->loaded)
			warn_vmlinux(s, d, path);
		free(path);
		return err;
	}
	/* perf 6.1's dso__load_kernel_sym() tries no local files when a
	 * symfs is given: neither /proc/kallsyms nor the cache's kallsyms */
	if (s->symfs && !s->kallsyms) {
		pd__warn(&s->log,
			 "--symfs without --kallsyms: kernel frames stay unresolved (as perf leaves them)");
		return 0;
	}
	err = kallsyms_into(s, d, build_id, build_id_size, &path);
	if (err) {
		free(path);
		return err;
	}
	if (!d->loaded && !s->kallsyms && build_id_size &&
	    strcmp(path, "/proc/kallsyms"))
		pd__warn(&s->log,
			 "the recording's kernel is not the running one and %s is missing: kernel frames stay unresolved (use --kallsyms=FILE with that kernel's kallsyms)",
			 path);
	else if (!d->loaded)
		pd__warn(&s->log, "%s: no kernel symbols", path);
	free(path);
	return 0;
}
