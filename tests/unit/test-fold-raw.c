// SPDX-License-Identifier: MIT
/*
 * pd-fold --raw's frame syntax (fold/fold-raw.h): frames with and
 * without a build id, DWARF marks and paths with the characters a
 * folded line cannot hold (';', blanks, '%', newlines) written and read
 * back the same, nothing of it a ';' or a blank; kernel frames
 * (--raw-kernel) with their build id, reference symbol and offsets on
 * either side of it; and the frames of ordinary folded stacks, and
 * damaged raw ones (kernel ones without a build id or reference symbol,
 * or with a DWARF mark), not taken for raw.
 */
#include <string.h>

#include "fold/fold-raw.h"
#include "tap.h"

static bool round_trip(const struct fold_raw *r, const char *want)
{
	struct fold_raw back;
	char buf[3 * FOLD_RAW_PATH_MAX];
	size_t n = fold_raw__format(buf, sizeof(buf), r);

	if (!n || strpbrk(buf, "; \n\t"))
		return false;
	if (want && strcmp(buf, want))
		return false;
	memset(&back, 0xa5, sizeof(back));
	return fold_raw__parse(buf, n, &back) &&
	       back.build_id_size == r->build_id_size &&
	       !memcmp(back.build_id, r->build_id, r->build_id_size) &&
	       !strcmp(back.path, r->path) && back.addr == r->addr &&
	       back.dwarf == r->dwarf && back.kernel == r->kernel;
}

static void kernel_frames(void)
{
	static const char *const not_raw[] = {
		"[kernel.kallsyms]_text+0x10", "[kernel.kallsyms]+0x10",
		"ab+0x10@[kernel.kallsyms]", "ab+0x10i@[kernel.kallsyms]_text",
		"ab+0x10@[kernel.kallsyms].init.text",
		"ab+0x10@[kernel.kallsyms]_te%3bxt",
		"ab+0x10@[kernel.kallsyms]9a",
		"ab-0x10@/usr/lib/libc.so.6", "ab-0x10i@[kernel.kallsyms]_text",
		"ab-0x@[kernel.kallsyms]_text",
		"ab+-0x10@[kernel.kallsyms]_text",
		"-0x10@[kernel.kallsyms]_text", "[[kernel.kallsyms]]",
		"ab-0x11111111111111111@[kernel.kallsyms]_text",
	};
	struct fold_raw r = { .build_id = { 0xab, 0xf9 }, .build_id_size = 2,
			      .path = "[kernel.kallsyms]_text",
			      .addr = 0x604fa0, .kernel = true };
	struct fold_raw back;
	char buf[64];
	size_t i;

	CHECK(round_trip(&r, "abf9+0x604fa0@[kernel.kallsyms]_text"),
	      "a kernel frame: build id, offset from _text");
	r.addr = -(uint64_t)0x1000;
	CHECK(round_trip(&r, "abf9-0x1000@[kernel.kallsyms]_text"),
	      "a kernel address below the reference: a negative offset");
	r.addr = 1ULL << 63;
	CHECK(round_trip(&r, "abf9-0x8000000000000000@[kernel.kallsyms]_text"),
	      "the farthest offset below");
	r.addr = 0;
	strcpy(r.path, "[kernel.kallsyms]_stext");
	CHECK(round_trip(&r, "abf9+0x0@[kernel.kallsyms]_stext"),
	      "_stext (arm64), offset 0");
	r.build_id_size = 0;
	CHECK(!fold_raw__format(buf, sizeof(buf), &r),
	      "no kernel frame without a build id");
	r.build_id_size = 2;
	r.dwarf = true;
	CHECK(!fold_raw__format(buf, sizeof(buf), &r),
	      "no kernel frame with inlined frames");
	r.dwarf = false;
	strcpy(r.path, "[kernel.kallsyms]");
	CHECK(!fold_raw__format(buf, sizeof(buf), &r),
	      "no kernel frame without its reference symbol");
	for (i = 0; i < sizeof(not_raw) / sizeof(not_raw[0]); i++)
		CHECK(!fold_raw__parse(not_raw[i], strlen(not_raw[i]), &back),
		      "'%s' is no raw frame", not_raw[i]);
	CHECK(fold_raw__parse("ab+0x10@[kernel.kallsyms]_text", 30, &back) &&
	      back.kernel && fold_raw__parse("ab+0x10@/x", 10, &back) &&
	      !back.kernel,
	      "a user frame read after a kernel one is no kernel frame");
}

int main(void)
{
	static const char *const not_raw[] = {
		"main", "[unknown]", "[libc.so.6]", "_start_[k]",
		"/usr/bin/x", "/usr/bin/x+0x", "/usr/bin/x+0xg",
		"abc+0x10@/x", "ab+0x@/x", "ab+0x10", "ab+0x10/x",
		"AB+0x10@/x", "ab+0x10@", "ab+0x10@/x%2", "ab+0x10@/x%zz",
		"0123456789abcdef0123456789abcdef0123456789+0x1@/x",
		"ab+0x11111111111111111@/x", "java/lang/Thread.run",
	};
	struct fold_raw r = { .build_id = { 0xde, 0xad, 0xbe, 0xef },
			      .build_id_size = 4, .path = "/usr/lib/libc.so.6",
			      .addr = 0x1a2b };
	struct fold_raw back;
	char buf[64];
	size_t i;

	CHECK(round_trip(&r, "deadbeef+0x1a2b@/usr/lib/libc.so.6"),
	      "a build id, its offset and path");
	r.dwarf = true;
	CHECK(round_trip(&r, "deadbeef+0x1a2bi@/usr/lib/libc.so.6"),
	      "a DWARF-unwound frame: 'i'");
	r.build_id_size = 0;
	CHECK(round_trip(&r, "/usr/lib/libc.so.6+0x1a2bi"),
	      "no build id: the path and the offset");
	r.dwarf = false;
	strcpy(r.path, "/opt/my app;v2/100%/lib\nx.so");
	CHECK(round_trip(&r, "/opt/my%20app%3bv2/100%25/lib%0ax.so+0x1a2b"),
	      "';', blanks, '%%' and newlines escaped");
	r.build_id_size = 20;
	memset(r.build_id, 0x7f, 20);
	strcpy(r.path, "/a+0x10/b@c");
	r.addr = UINT64_MAX;
	CHECK(round_trip(&r, NULL), "a 20-byte build id, '+0x' and '@' in the path, the largest offset");
	r.build_id_size = 0;
	CHECK(round_trip(&r, NULL), "the same without the build id: the last '+0x'");
	strcpy(r.path, "[vdso]");
	CHECK(round_trip(&r, NULL), "the vdso");
	for (i = 0; i < sizeof(not_raw) / sizeof(not_raw[0]); i++)
		CHECK(!fold_raw__parse(not_raw[i], strlen(not_raw[i]), &back),
		      "'%s' is no raw frame", not_raw[i]);
	memset(r.path, 'a', sizeof(r.path) - 1);
	r.path[sizeof(r.path) - 1] = '\0';
	CHECK(!fold_raw__format(buf, sizeof(buf), &r),
	      "a frame that does not fit: 0");
	kernel_frames();
	return tap_done();
}
