// SPDX-License-Identifier: MIT
/* A write() that goes on until every byte is written. */
#include <errno.h>
#include <unistd.h>

#include "internal.h"

int pd__write_all(int fd, const void *buf, size_t n)
{
	const uint8_t *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}
