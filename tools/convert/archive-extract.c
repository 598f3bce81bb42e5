// SPDX-License-Identifier: MIT
/*
 * pd-convert --from-archive: an archive back to what perf reads without
 * our tools. DIR/.build-id/xx/REST/{elf,debug} is the layout perf's
 * build-id cache has behind its .build-id/xx/REST links, read by perf
 * 6.1 through a directory as well as a link, so `buildid.dir = DIR` in
 * perf's config finds every file (docs/archive.md). DIR/vmlinux is for
 * perf's --vmlinux; DIR/jit/ holds the JIT files, which perf reads only at
 * the paths the manifest records for them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfdata/archive.h>
#include <perfdata/compat.h>
#include <perfdata/features.h>

#include "archive-make.h"
#include "archive-manifest.h"
#include "common/cli.h"

static int copy_file(const char *src, const char *dst)
{
	char buf[65536], tmp[4200];
	int in, out, err = 0;
	ssize_t n;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	snprintf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", dst);
	out = mkostemp(tmp, O_CLOEXEC);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || write(out, buf, n) != n) {
			err = n < 0 ? -errno : -EIO;
			break;
		}
	}
	close(in);
	fchmod(out, 0644);
	if (close(out) && !err)
		err = -errno;
	if (!err && rename(tmp, dst))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

/* The regular files and directories under src, into dst (made). */
static int copy_tree(const char *src, const char *dst, int depth)
{
	char s[4200], d[4200];
	struct dirent *de;
	DIR *dir;
	int err = 0;

	if (depth > 8)
		return 0;
	if (mkdir(dst, 0755) && errno != EEXIST)
		return -errno;
	dir = opendir(src);
	if (!dir)
		return -errno;
	while (!err && (de = readdir(dir))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(s, sizeof(s), "%s/%s", src, de->d_name);
		snprintf(d, sizeof(d), "%s/%s", dst, de->d_name);
		if (lstat(s, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			err = copy_tree(s, d, depth + 1);
		else if (S_ISREG(st.st_mode))
			err = copy_file(s, d);
		if (err)
			snprintf(s, sizeof(s), "%s", d);
	}
	closedir(dir);
	if (err)
		pd_err("%s: %s", d, strerror(-err));
	return err;
}

/* The kernel's build id from the profile's BUILD_ID table. */
static bool kernel_bid(struct pd_reader *r, char *hx)
{
	const struct pd_features *f = pd_reader__features(r);
	uint32_t i, k;

	if (!f || !pd_features__has(f, PD_FEAT_BUILD_ID))
		return false;
	for (i = 0; i < f->build_ids.nr; i++) {
		const struct pd_build_id *b = &f->build_ids.ids[i];

		if (!b->filename || strcmp(b->filename, "[kernel.kallsyms]"))
			continue;
		for (k = 0; k < b->size && k < 20; k++)
			sprintf(hx + 2 * k, "%02x", b->id[k]);
		return true;
	}
	return false;
}

int archive_extract(struct pd_reader *r, const char *input, const char *dir,
		    const struct pd_convert_opts *opts)
{
	struct pd_convert_opts co = *opts;
	struct pd_build_id *bids;
	size_t nr_bids;
	const char *src = pd_reader__archive_dir(r);
	struct pd_convert_report rep;
	char s[4200], d[4200], errmsg[512], hx[41];
	int err;

	if (!src) {
		pd_err("%s: not a profile archive (a .tar.zst or .tar.gz made by pd-convert --to=archive)",
		       input);
		return PD_EXIT_DATA;
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		pd_err("%s: %s", dir, strerror(errno));
		return PD_EXIT_DATA;
	}
	/* a file perf opens with -i, for the target if one was named;
	 * perf before 5.2 reads no compressed records: --compress keeps
	 * them (the target permitting) */
	co.mode = PD_MODE_FILE;
	co.dry_run = false;
	if (co.compress > 0 && !co.target)
		co.compress = 0;
	else if (co.compress <= 0)
		co.compress = -1;
	snprintf(d, sizeof(d), "%s/perf.data", dir);
	if (pd_cli_same_file(input, d))
		pd_usage_error("the output would overwrite the input '%s'", input);
	/* the archive's files by build id, for perf's build-id cache */
	err = archive_manifest__build_ids(src, &bids, &nr_bids);
	if (err) {
		pd_err("%s/manifest: %s", src, strerror(-err));
		return PD_EXIT_DATA;
	}
	co.build_ids = bids;
	co.nr_build_ids = nr_bids;
	err = pd_convert(r, d, &co, &rep, errmsg, sizeof(errmsg));
	archive_manifest__free(bids, nr_bids);
	if (err) {
		pd_err("%s", errmsg[0] ? errmsg : pd_strerror(err));
		return PD_EXIT_DATA;
	}
	snprintf(s, sizeof(s), "%s/.build-id", src);
	snprintf(d, sizeof(d), "%s/.build-id", dir);
	if (!access(s, F_OK) && copy_tree(s, d, 0))
		return PD_EXIT_DATA;
	/* JIT symbols: perf reads them at their recorded paths only, which
	 * the manifest gives */
	snprintf(s, sizeof(s), "%s/jit", src);
	snprintf(d, sizeof(d), "%s/jit", dir);
	if (!access(s, F_OK) && copy_tree(s, d, 0))
		return PD_EXIT_DATA;
	snprintf(s, sizeof(s), "%s/manifest", src);
	snprintf(d, sizeof(d), "%s/manifest", dir);
	if (!access(s, F_OK) && (err = copy_file(s, d))) {
		pd_err("%s: %s", d, strerror(-err));
		return PD_EXIT_DATA;
	}
	snprintf(s, sizeof(s), "%s/vmlinux", src);
	snprintf(d, sizeof(d), "%s/vmlinux", dir);
	if (!access(s, F_OK) && (err = copy_file(s, d))) {
		pd_err("%s: %s", d, strerror(-err));
		return PD_EXIT_DATA;
	}
	snprintf(s, sizeof(s), "%s/kallsyms", src);
	if (!access(s, F_OK)) {
		snprintf(d, sizeof(d), "%s/kallsyms", dir);
		err = copy_file(s, d);
		/* where perf looks for a kernel that is not the running one */
		if (!err && (kernel_bid(r, hx) ||
			     archive_manifest__kernel_build_id(src, hx, sizeof(hx)))) {
			snprintf(d, sizeof(d), "%s/[kernel.kallsyms]", dir);
			mkdir(d, 0755);
			snprintf(d, sizeof(d), "%s/[kernel.kallsyms]/%s", dir, hx);
			mkdir(d, 0755);
			snprintf(d, sizeof(d), "%s/[kernel.kallsyms]/%s/kallsyms", dir, hx);
			err = copy_file(s, d);
		}
		if (err) {
			pd_err("%s: %s", d, strerror(-err));
			return PD_EXIT_DATA;
		}
	}
	return PD_EXIT_OK;
}
