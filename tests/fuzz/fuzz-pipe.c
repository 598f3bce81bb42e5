// SPDX-License-Identifier: MIT
/*
 * Fuzz target: a pipe-mode stream read from a pipe (not seekable):
 * HEADER_ATTR, HEADER_FEATURE, tracing data, build ids and the records,
 * decoded, then through a session. An input not starting with a perf
 * magic gets the 16-byte pipe header put in front, so that mutations go
 * to the records.
 */
#include <stdlib.h>
#include <string.h>

#include <perfdata/format.h>

#include "read.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct fuzz_source src = {
		.open_fd = fuzz_pipe,
		.close_fd = true,
	};
	uint64_t hdr[2] = { PD_MAGIC_PERFILE2, PD_PIPE_HEADER_SIZE };
	uint8_t *buf;

	if (size >= 8 && (!memcmp(data, "PERFILE2", 8) ||
			  !memcmp(data, "2ELIFREP", 8) ||
			  !memcmp(data, "PERFFILE", 8))) {
		fuzz_read_all(&src, data, size);
		return 0;
	}
	buf = malloc(size + sizeof(hdr));
	if (!buf)
		return 0;
	memcpy(buf, hdr, sizeof(hdr));
	memcpy(buf + sizeof(hdr), data, size);
	fuzz_read_all(&src, buf, size + sizeof(hdr));
	free(buf);
	return 0;
}
