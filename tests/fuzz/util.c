// SPDX-License-Identifier: MIT
/*
 * Memory buffers as file descriptors for the fuzz targets (see util.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util.h"

#define PIPE_MAX	(1024 * 1024)

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= w;
	}
	return 0;
}

int fuzz_memfd(const uint8_t *data, size_t size)
{
	static int fd = -1;

	if (fd < 0) {
		fd = memfd_create("fuzz-input", MFD_CLOEXEC);
		if (fd < 0)
			return -1;
	}
	if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET) ||
	    write_all(fd, data, size) || lseek(fd, 0, SEEK_SET))
		return -1;
	return fd;
}

int fuzz_pipe(const uint8_t *data, size_t size)
{
	int fds[2], cap;

	if (pipe2(fds, O_CLOEXEC))
		return -1;
	cap = fcntl(fds[1], F_GETPIPE_SZ);
	if (cap >= 0 && (size_t)cap < size)
		cap = fcntl(fds[1], F_SETPIPE_SZ,
			    size < PIPE_MAX ? (int)size : PIPE_MAX);
	if (cap < 0)
		goto fail;
	if (size > (size_t)cap)
		size = cap;
	if (write_all(fds[1], data, size))
		goto fail;
	close(fds[1]);
	return fds[0];
fail:
	close(fds[0]);
	close(fds[1]);
	return -1;
}

void fuzz_log(enum pd_log_level level, const char *msg, void *ctx)
{
	/* read the whole message: a bad format shows here */
	volatile size_t n = strlen(msg);

	(void)n;
}

void fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("fuzz finding: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}
