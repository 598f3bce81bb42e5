// SPDX-License-Identifier: MIT
/*
 * pd__copy_range(): a range of one file appended to another, by the
 * kernel where it copies (copy_file_range()), else through a buffer
 * smaller than the range. The bytes must be the input's either way: to a
 * regular file, to one opened O_APPEND (which copy_file_range() refuses),
 * into a pipe; a range past the input's end is an error that says the
 * read failed, after what was there was written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "writing/copy-range.h"
#include "tap.h"

#define IN_SIZE	(300 * 1024 + 13)

static uint8_t byte_at(size_t i)
{
	return (uint8_t)(i * 131 + (i >> 9));
}

static int temp_file(char *path, int flags)
{
	int fd = mkstemp(path);

	if (fd < 0)
		return -1;
	if (flags) {
		close(fd);
		fd = open(path, O_WRONLY | flags);
	}
	return fd;
}

/* the n bytes at out's start are the input's from off */
static bool holds(const char *path, uint64_t off, size_t n)
{
	uint8_t *b = malloc(n + 1);
	FILE *f = fopen(path, "rb");
	bool same = b && f && fread(b, 1, n + 1, f) == n;
	size_t i;

	for (i = 0; same && i < n; i++)
		same = b[i] == byte_at(off + i);
	if (f)
		fclose(f);
	free(b);
	return same;
}

static void to_file(int in, int flags, bool kernel_first, const char *what)
{
	char out_path[] = "/tmp/test-copy-range-out.XXXXXX";
	uint8_t buf[4096];
	const char *where = "";
	bool kernel = kernel_first;
	int out = temp_file(out_path, flags), err;

	if (out < 0) {
		CHECK(0, "%s: an output file", what);
		return;
	}
	/* two ranges, the second out of order, through a 4 KiB buffer */
	err = pd__copy_range(in, 1000, out, 200000, &kernel, buf, sizeof(buf),
			     &where);
	if (!err)
		err = pd__copy_range(in, 201000, out, IN_SIZE - 201000, &kernel,
				     buf, sizeof(buf), &where);
	close(out);
	CHECK(!err && holds(out_path, 1000, IN_SIZE - 1000),
	      "%s: the input's bytes from 1000 to its end (err %d, %s)", what,
	      err, where);
	if (flags & O_APPEND)
		CHECK(!kernel, "%s: copy_file_range() refused, bytes through the buffer",
		      what);
	unlink(out_path);
}

int main(void)
{
	char in_path[] = "/tmp/test-copy-range-in.XXXXXX";
	char out_path[] = "/tmp/test-copy-range-cut.XXXXXX";
	uint8_t *data = malloc(IN_SIZE), buf[4096], got[64];
	const char *where = "";
	int in, out, p[2], err;
	bool kernel;
	size_t i;

	in = temp_file(in_path, 0);
	if (!data || in < 0) {
		CHECK(0, "an input file");
		return tap_done();
	}
	for (i = 0; i < IN_SIZE; i++)
		data[i] = byte_at(i);
	CHECK(write(in, data, IN_SIZE) == IN_SIZE, "input written");

	to_file(in, 0, true, "to a file, kernel first");
	to_file(in, 0, false, "to a file, through the buffer");
	to_file(in, O_APPEND, true, "to a file opened O_APPEND");

	/* into a pipe: 40 bytes, read back */
	kernel = true;
	if (!pipe(p)) {
		err = pd__copy_range(in, 5000, p[1], 40, &kernel, buf,
				     sizeof(buf), &where);
		close(p[1]);
		CHECK(!err && read(p[0], got, sizeof(got)) == 40 &&
		      !memcmp(got, data + 5000, 40),
		      "into a pipe: the input's 40 bytes (err %d)", err);
		close(p[0]);
	}

	/* past the end: what is there written, then an error */
	for (i = 0; i < 2; i++) {
		char path[sizeof(out_path)];

		memcpy(path, out_path, sizeof(path));
		out = temp_file(path, 0);
		kernel = i == 0;
		where = "";
		err = pd__copy_range(in, IN_SIZE - 100, out, 500, &kernel, buf,
				     sizeof(buf), &where);
		close(out);
		CHECK(err == -EIO && !strcmp(where, "read") &&
		      holds(path, IN_SIZE - 100, 100),
		      "%s: 400 bytes past the input's end: -EIO on the read (%d, %s), its last 100 bytes written",
		      i ? "through the buffer" : "kernel first", err, where);
		unlink(path);
	}
	close(in);
	unlink(in_path);
	free(data);
	return tap_done();
}
