// SPDX-License-Identifier: MIT
/*
 * Fuzz target: a perf.data file (file mode, or whatever the bytes are),
 * read from a seekable file: header, attrs, every feature section, every
 * record decoded, then a session over the records in time order.
 */
#include "read.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct fuzz_source src = { .open_fd = fuzz_memfd };

	fuzz_read_all(&src, data, size);
	return 0;
}
