/* SPDX-License-Identifier: MIT */
/*
 * The reading the file and pipe targets share: every record in file
 * order, decoded and touched; then the same input in time order through
 * a session (threads, maps, frames of every sample) with a symbolizer
 * that finds nothing.
 */
#ifndef PD_FUZZ_READ_H
#define PD_FUZZ_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* open_fd: gives a new descriptor reading the input from its start
 * (closed by close_fd when it is a pipe) */
struct fuzz_source {
	int (*open_fd)(const uint8_t *data, size_t size);
	bool close_fd;
	/* no kallsyms given to the symbolizer: an archive's own is read */
	bool archive_kallsyms;
};

void fuzz_read_all(const struct fuzz_source *src, const uint8_t *data,
		   size_t size);

#endif /* PD_FUZZ_READ_H */
