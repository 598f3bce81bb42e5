// SPDX-License-Identifier: MIT
/*
 * Appending a range of one file to another. copy_file_range() copies in
 * the kernel, page cache to page cache: one copy of each byte where a
 * read() and write() make two, and no time in this process. Where it is
 * refused (kernels before 4.5, across file systems before 5.3, pipes,
 * an output opened O_APPEND, file systems without it) the bytes go
 * through a buffer, with the same result.
 */
#include <errno.h>
#include <unistd.h>

#include "base/internal.h"
#include "copy-range.h"

/* refusals that a read and a write get past */
static bool refused(int err)
{
	return err == ENOSYS || err == EXDEV || err == EINVAL ||
	       err == EOPNOTSUPP || err == EBADF || err == ETXTBSY ||
	       err == EPERM;
}

static int through_buffer(int in, uint64_t off, int out, uint64_t len,
			  uint8_t *buf, size_t buf_len, const char **where)
{
	while (len) {
		size_t want = len < buf_len ? (size_t)len : buf_len;
		ssize_t got = pread(in, buf, want, (off_t)off);
		int err;

		if (got < 0 && errno == EINTR)
			continue;
		*where = "read";
		if (got < 0)
			return -errno;
		if (!got)
			return -EIO;
		*where = "write";
		err = pd__write_all(out, buf, (size_t)got);
		if (err)
			return err;
		off += (uint64_t)got;
		len -= (uint64_t)got;
	}
	return 0;
}

int pd__copy_range(int in, uint64_t off, int out, uint64_t len, bool *kernel,
		   uint8_t *buf, size_t buf_len, const char **where)
{
	while (len && *kernel) {
		off64_t from = (off64_t)off;
		/* (at most 1 GiB a call: the kernel's limit is near 2 GiB) */
		size_t want = len < (1U << 30) ? (size_t)len : 1U << 30;
		ssize_t got = copy_file_range(in, &from, out, NULL, want, 0);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && refused(errno)) {
			*kernel = false;
			break;
		}
		*where = "copy";
		if (got < 0)
			return -errno;
		if (!got) {
			*where = "read";
			return -EIO;
		}
		off += (uint64_t)got;
		len -= (uint64_t)got;
	}
	return through_buffer(in, off, out, len, buf, buf_len, where);
}
