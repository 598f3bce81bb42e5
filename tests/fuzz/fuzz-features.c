// SPDX-License-Identifier: MIT
/*
 * Fuzz target: one header feature section through its parser, as the
 * reader hands it over for a file-mode section or a pipe-mode
 * HEADER_FEATURE record. Input: the feature id (one byte), the byte order
 * (one byte: bit 0 set for a file of the other order), the section.
 * The section is given in a buffer of its exact size, so that reading
 * past its end shows. Tracing data also goes through the tracepoint
 * printer, each event printing a sample made of the section's bytes.
 */
#include <stdlib.h>
#include <string.h>

#include <perfdata/features.h>
#include <perfdata/trace.h>

#include "header/features-internal.h"
#include "touch.h"
#include "util.h"

/* a sample of each event (its type in the first two bytes), from bytes */
static void print_tracepoints(const struct pd_features *f,
			      const uint8_t *bytes, size_t n)
{
	struct pd_trace_printer *p = pd_trace_printer__new(f);
	uint8_t raw[256];
	char buf[256];
	uint32_t i;

	if (!p)
		return;
	if (n > sizeof(raw))
		n = sizeof(raw);
	memset(raw, 0, sizeof(raw));
	memcpy(raw, bytes, n);
	for (i = 0; i < f->tracing.nr_events && i < 16; i++) {
		uint16_t type = (uint16_t)f->tracing.events[i].id;

		raw[0] = f->tracing.big_endian ? type >> 8 : type & 0xff;
		raw[1] = f->tracing.big_endian ? type & 0xff : type >> 8;
		pd_trace_printer__print(p, f->tracing.events[i].id, 0, raw,
					n < 8 ? 8 : n, buf, sizeof(buf));
	}
	pd_trace_printer__free(p);
}

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
	if (id == PD_FEAT_TRACING_DATA && pd_features__has(f, id))
		print_tracepoints(f, data + 2, size);
	/* a second section of the same kind replaces or extends the first */
	pd_features__add(f, id, data + 2, size, swap, &log);
	touch_features(f);
out:
	pd_features__free(f);
	free(sec);
	return 0;
}
