// SPDX-License-Identifier: MIT
/* See flame-out.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cli.h"
#include "flame-out.h"

/* PD_EXIT_*; *written: a whole SVG went out (maybe the "no counts" one) */
static int write_to(struct flame *fl, FILE *out, const char *name,
		    bool *written)
{
	int ret = flame__write_svg(fl, out), ret2;

	ret2 = pd_cli_close_output(out, name);
	*written = ret2 == PD_EXIT_OK && (ret == 0 || ret == -ENODATA);
	if (ret)
		return PD_EXIT_DATA;
	return ret2;
}

int flame_out__write(struct flame *fl, const char *path)
{
	bool written;
	mode_t mask;
	char *tmp;
	FILE *out;
	int fd, ret;

	if (!path || !strcmp(path, "-"))
		return write_to(fl, stdout, "<stdout>", &written);
	if (pd_cli_output_in_place(path)) {
		out = fopen(path, "w");
		if (!out) {
			pd_err("%s: %s", path, strerror(errno));
			return PD_EXIT_DATA;
		}
		return write_to(fl, out, path, &written);
	}
	if (asprintf(&tmp, "%s.XXXXXX", path) < 0) {
		pd_err("out of memory");
		return PD_EXIT_DATA;
	}
	fd = mkstemp(tmp);
	out = fd < 0 ? NULL : fdopen(fd, "w");
	if (!out) {
		pd_err("%s: %s", tmp, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return PD_EXIT_DATA;
	}
	/* mkstemp makes it private; an SVG gets a new file's usual mode */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0)
		pd_warn("%s: %s", tmp, strerror(errno));
	ret = write_to(fl, out, path, &written);
	if (written && rename(tmp, path) < 0) {
		pd_err("%s: %s", path, strerror(errno));
		ret = PD_EXIT_DATA;
	}
	unlink(tmp);
	free(tmp);
	return ret;
}

int flame_out__draw(const struct flame_opts *opts,
		    int (*produce)(FILE *out, void *arg), void *arg,
		    const char *path)
{
	struct flame *fl = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *mem, *in;
	int ret;

	mem = open_memstream(&text, &len);
	if (!mem) {
		pd_err("out of memory");
		return PD_EXIT_DATA;
	}
	ret = produce(mem, arg);
	if (fclose(mem) && !ret) {
		pd_err("out of memory");
		ret = PD_EXIT_DATA;
	}
	if (ret)
		goto out;
	fl = flame__new(opts);
	/* fmemopen refuses a zero size: no text is no lines */
	in = fmemopen(len ? text : (char *)"\n", len ? len : 1, "r");
	if (!fl || !in) {
		if (in)
			fclose(in);
		pd_err("out of memory");
		ret = PD_EXIT_DATA;
		goto out;
	}
	ret = flame__read(fl, in, "<folded>") ? PD_EXIT_DATA : PD_EXIT_OK;
	fclose(in);
	if (!ret) {
		/* the folded text is read: give its memory back before drawing */
		free(text);
		text = NULL;
		ret = flame_out__write(fl, path);
	}
out:
	flame__free(fl);
	free(text);
	return ret;
}
