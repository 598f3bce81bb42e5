// SPDX-License-Identifier: MIT
/*
 * Fuzz target: read, write, read. The input is read and written again by
 * pd_convert() (what pd-convert does with no target) into a temporary
 * file; then the input and the output are read side by side and must give
 * the same records, byte for byte in host order, AUX data included. A
 * conversion that fails must leave no output file. Abort on any
 * difference.
 *
 * The last byte of the input picks the output (so that seeds stay whole
 * perf.data files): bits 0-1 compression (1 compress, 2 decompress, else
 * as the input), bit 2 the other byte order, bit 3 the other mode. Bits
 * 4-7, when not 0, pick a target too: the input is converted for it as
 * well (every shim it needs), and what is written must open and read to
 * its end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/compat.h>
#include <perfdata/reader.h>
#include <perfdata/writer.h>

#include "util.h"

static struct pd_reader *open_reader(const char *path, const uint8_t *data,
				     size_t size)
{
	struct pd_reader_opts ro = {
		.sz = sizeof(ro),
		.load_aux = true,
		.log = fuzz_log,
	};
	int fd;

	if (path)
		return pd_reader__open(path, &ro);
	fd = fuzz_memfd(data, size);
	return fd < 0 ? NULL : pd_reader__open_fd(fd, &ro);
}

/* Records that only frame the stream: their content is in the features,
 * the attrs or the records they hold. */
static bool framing(uint32_t type)
{
	switch (type) {
	case PD_RECORD_HEADER_ATTR:
	case PD_RECORD_HEADER_EVENT_TYPE:
	case PD_RECORD_HEADER_TRACING_DATA:
	case PD_RECORD_HEADER_BUILD_ID:
	case PD_RECORD_HEADER_FEATURE:
	case PD_RECORD_COMPRESSED:
	case PD_RECORD_COMPRESSED2:
		return true;
	}
	return false;
}

/* Next record that is not framing: 1, 0 at the end, <0 error. */
static int next(struct pd_reader *r, const struct pd_event **ev)
{
	int err;

	while ((err = pd_reader__next(r, ev)) > 0)
		if (!framing((*ev)->type))
			return 1;
	return err;
}

static void compare(struct pd_reader *a, struct pd_reader *b)
{
	const struct pd_event *ea, *eb;
	uint64_t n = 0;
	int ra, rb;

	for (;; n++) {
		ra = next(a, &ea);
		rb = next(b, &eb);
		if (ra < 0)
			return;	/* read before without error: cannot be */
		if (rb < 0)
			fuzz_fail("record %llu: the output does not read back: %s",
				  (unsigned long long)n, pd_reader__errmsg(b));
		if (!ra || !rb)
			break;
		if (ea->type != eb->type || ea->size != eb->size ||
		    memcmp(ea->raw, eb->raw, ea->size))
			fuzz_fail("record %llu (type %u size %u at 0x%llx): written back as type %u size %u",
				  (unsigned long long)n, ea->type, ea->size,
				  (unsigned long long)ea->offset, eb->type,
				  eb->size);
		if (ea->type == PD_RECORD_AUXTRACE &&
		    (!ea->u.auxtrace.data != !eb->u.auxtrace.data ||
		     (ea->u.auxtrace.data &&
		      memcmp(ea->u.auxtrace.data, eb->u.auxtrace.data,
			     ea->u.auxtrace.size))))
			fuzz_fail("record %llu: AUX data differs",
				  (unsigned long long)n);
	}
	if (ra != rb)
		fuzz_fail("%s has %llu records, and more",
			  ra ? "the output" : "the input",
			  (unsigned long long)n);
	if (pd_reader__nr_evsels(a) != pd_reader__nr_evsels(b))
		fuzz_fail("%zu attrs written back as %zu", pd_reader__nr_evsels(a),
			  pd_reader__nr_evsels(b));
}

/* The input converted for target number n (1..): written, read back. */
static void for_target(const uint8_t *data, size_t size, unsigned int n,
		       const char *path)
{
	const struct pd_perf_target *const *all = pd_perf_targets();
	struct pd_convert_opts co = { .sz = sizeof(co), .mode = -1 };
	const struct pd_event *ev;
	struct pd_reader *a, *b;
	char errmsg[512];
	unsigned int i;

	for (i = 0; all[i] && i + 1 < n; i++)
		;
	if (!all[i])
		return;
	co.target = all[i];
	a = open_reader(NULL, data, size);
	if (!a)
		return;
	unlink(path);
	if (pd_convert(a, path, &co, NULL, errmsg, sizeof(errmsg))) {
		pd_reader__close(a);
		if (!access(path, F_OK))
			fuzz_fail("failed conversion for %s (%s) left %s",
				  all[i]->name, errmsg, path);
		return;
	}
	pd_reader__close(a);
	b = open_reader(path, NULL, 0);
	if (!b)
		fuzz_fail("the output for %s does not open: %s", all[i]->name,
			  pd_reader__open_errmsg());
	while (pd_reader__next(b, &ev) > 0)
		;
	pd_reader__close(b);
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[4096];
	struct pd_convert_opts co = { .sz = sizeof(co), .mode = -1 };
	struct pd_reader *a, *b;
	char errmsg[512];
	uint8_t how;
	int err;

	if (!path[0]) {
		const char *dir = getenv("TMPDIR");

		snprintf(path, sizeof(path), "%s/pd-fuzz-roundtrip-%d.data",
			 dir && *dir ? dir : "/tmp", (int)getpid());
	}
	if (!size)
		return 0;
	how = data[size - 1];
	a = open_reader(NULL, data, size);
	if (!a)
		return 0;
	co.compress = (how & 3) == 1 ? 1 : (how & 3) == 2 ? -1 : 0;
	if (how & 4)
		co.endian = pd_reader__header(a)->big_endian ? PD_ENDIAN_LITTLE :
							       PD_ENDIAN_BIG;
	if (how & 8)
		co.mode = pd_reader__header(a)->mode == PD_MODE_FILE ?
			  PD_MODE_PIPE : PD_MODE_FILE;
	unlink(path);
	err = pd_convert(a, path, &co, NULL, errmsg, sizeof(errmsg));
	pd_reader__close(a);
	if (err) {
		if (!access(path, F_OK))
			fuzz_fail("failed conversion (%s) left %s", errmsg, path);
		return 0;
	}
	a = open_reader(NULL, data, size);
	b = open_reader(path, NULL, 0);
	if (!b)
		fuzz_fail("the output does not open: %s", pd_reader__open_errmsg());
	if (a)
		compare(a, b);
	pd_reader__close(a);
	pd_reader__close(b);
	unlink(path);
	if (how >> 4)
		for_target(data, size, how >> 4, path);
	return 0;
}
