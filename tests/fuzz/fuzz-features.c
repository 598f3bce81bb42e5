// SPDX-License-Identifier: MIT
/*
 * Fuzz target: one header feature section through its parser, as the
 * reader hands it over for a file-mode section or a pipe-mode
 * HEADER_FEATURE record. Input: the feature id (one byte), the byte order
 * (one byte: bit 0 set for a file of the other order), the section.
 * The section is given in a buffer of its exact size, so that reading
 * past its end shows.
 */
#include <stdlib.h>
#include <string.h>

#include <perfdata/features.h>

#include "features-internal.h"
#include "touch.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pd_logger log = { .fn = fuzz_log, .name = "fuzz" };
	struct pd_features *f;
	unsigned int id;
	uint8_t *sec;
	bool swap;

	if (size < 2)
		return 0;
	id = data[0];
	swap = data[1] & 1;
	size -= 2;
	sec = malloc(size ? size : 1);
	f = pd_features__new();
	if (!sec || !f)
		goto out;
	memcpy(sec, data + 2, size);
	pd_features__add(f, id, sec, size, swap, &log);
	/* the parsed feature must not point into the caller's buffer */
	free(sec);
	sec = NULL;
	touch_features(f);
	/* a second section of the same kind replaces or extends the first */
	pd_features__add(f, id, data + 2, size, swap, &log);
	touch_features(f);
out:
	pd_features__free(f);
	free(sec);
	return 0;
}
