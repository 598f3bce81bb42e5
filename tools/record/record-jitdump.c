// SPDX-License-Identifier: MIT
/*
 * A jitdump copied out of a container, with the pids the host knows the
 * process by. A JIT in its own pid namespace writes its pid there into
 * the dump (the header's pid, each JIT_CODE_LOAD's and JIT_CODE_MOVE's
 * pid and tid: perf's jitdump-specification.txt), and perf inject --jit
 * makes its maps for that pid: it turns it into the host's only through
 * the live process (nsinfo, read from /proc/PID/status, in
 * jit_repipe_code_load()), and the library takes it as it is. So the copy
 * names the process as its marker's MMAP2 does: its pid, and the marker's
 * thread as every record's tid, which is what perf's translation gives.
 *
 * The rest is copied as it is, and all of it once a record cannot be
 * parsed (a truncated or damaged dump is the readers' to judge), as is a
 * dump of the other byte order.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "record.h"

#define JIT_MAGIC		0x4A695444	/* "JiTD" */
#define JIT_HEADER_SIZE		40		/* up to flags */
#define JIT_HEADER_PID		20
#define JIT_PREFIX_SIZE		16		/* id, total_size, timestamp */
#define JIT_CODE_LOAD		0
#define JIT_CODE_MOVE		1

/* Up to n bytes from fd; fewer at its end. The count, or -errno. */
static ssize_t read_full(int fd, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			break;
		got += r;
	}
	return got;
}

/* n bytes (fewer at the end of fd) from fd to out: 0, 1 at the end. */
static int copy_n(int fd, int out, uint64_t n)
{
	static char buf[65536];

	while (n) {
		ssize_t r = read_full(fd, buf, n < sizeof(buf) ? n : sizeof(buf));
		int err;

		if (r < 0)
			return r;
		err = rec_write_all(out, buf, r);
		if (err)
			return err;
		if ((size_t)r < (n < sizeof(buf) ? n : sizeof(buf)))
			return 1;
		n -= r;
	}
	return 0;
}

int rec_jitdump_copy(int fd, int out, int32_t pid, int32_t tid)
{
	uint8_t head[JIT_HEADER_SIZE];
	uint32_t magic, size, id;
	ssize_t n;
	int err;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	n = read_full(fd, head, sizeof(head));
	if (n < 0)
		return n;
	memcpy(&magic, head, 4);
	memcpy(&size, head + 8, 4);
	if (n < JIT_HEADER_SIZE || magic != JIT_MAGIC || size < JIT_HEADER_SIZE)
		return rec_copy_fd(fd, out);
	memcpy(head + JIT_HEADER_PID, &pid, 4);
	err = rec_write_all(out, head, sizeof(head));
	if (!err)
		err = copy_n(fd, out, size - JIT_HEADER_SIZE);
	while (!err) {
		uint8_t pre[JIT_PREFIX_SIZE + 8];
		uint64_t body;

		n = read_full(fd, pre, JIT_PREFIX_SIZE);
		if (n < JIT_PREFIX_SIZE)
			return n < 0 ? n : rec_write_all(out, pre, n);
		memcpy(&id, pre, 4);
		memcpy(&size, pre + 4, 4);
		if (size < JIT_PREFIX_SIZE) {
			/* not a record: the rest as it is */
			err = rec_write_all(out, pre, n);
			if (!err)
				err = copy_n(fd, out, UINT64_MAX);
			break;
		}
		body = size - JIT_PREFIX_SIZE;
		if ((id == JIT_CODE_LOAD || id == JIT_CODE_MOVE) && body >= 8) {
			n = read_full(fd, pre + JIT_PREFIX_SIZE, 8);
			if (n < 0)
				return n;
			if (n == 8) {
				memcpy(pre + JIT_PREFIX_SIZE, &pid, 4);
				memcpy(pre + JIT_PREFIX_SIZE + 4, &tid, 4);
				body -= 8;
			} else {
				body = 0;	/* the end */
			}
			err = rec_write_all(out, pre, JIT_PREFIX_SIZE + n);
		} else {
			err = rec_write_all(out, pre, JIT_PREFIX_SIZE);
		}
		if (!err)
			err = copy_n(fd, out, body);
	}
	return err < 0 ? err : 0;
}
