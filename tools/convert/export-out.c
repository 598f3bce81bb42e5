// SPDX-License-Identifier: MIT
/* pd-convert --to: the output file of a format (see export-out.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cli.h"
#include "export-out.h"

int export_out__open(struct export_out *out, const char *path)
{
	const char *slash;
	mode_t um;
	int fd;

	memset(out, 0, sizeof(*out));
	out->path = path;
	if (!strcmp(path, "-")) {
		out->f = stdout;
		out->name = "<stdout>";
		return PD_EXIT_OK;
	}
	out->name = path;
	if (pd_cli_output_in_place(path)) {
		out->f = fopen(path, "w");
		if (!out->f) {
			pd_err("%s: %s", path, strerror(errno));
			return PD_EXIT_DATA;
		}
		return PD_EXIT_OK;
	}
	/* ".NAME.XXXXXX" next to it, as the library's writer names its own */
	slash = strrchr(path, '/');
	if (asprintf(&out->tmp, "%.*s.%s.XXXXXX", slash ? (int)(slash - path + 1) : 0,
		     path, slash ? slash + 1 : path) < 0) {
		out->tmp = NULL;
		pd_err("%s: %s", path, strerror(ENOMEM));
		return PD_EXIT_DATA;
	}
	fd = mkstemp(out->tmp);
	if (fd < 0 || !(out->f = fdopen(fd, "w"))) {
		pd_err("%s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(out->tmp);
		}
		free(out->tmp);
		out->tmp = NULL;
		return PD_EXIT_DATA;
	}
	/* mkstemp makes it 0600: as a file created the usual way instead */
	um = umask(0);
	umask(um);
	fchmod(fd, 0666 & ~um);
	return PD_EXIT_OK;
}

int export_out__close(struct export_out *out, bool ok)
{
	int ret;

	if (!out->f)
		return PD_EXIT_DATA;
	ret = pd_cli_close_output(out->f, out->name);
	out->f = NULL;
	if (!out->tmp)
		return ok ? ret : PD_EXIT_DATA;
	if (ok && !ret && rename(out->tmp, out->path)) {
		pd_err("%s: %s", out->path, strerror(errno));
		ret = PD_EXIT_DATA;
	}
	if (!ok || ret)
		unlink(out->tmp);
	free(out->tmp);
	out->tmp = NULL;
	return ok ? ret : PD_EXIT_DATA;
}
