// SPDX-License-Identifier: MIT
/*
 * perf_event_attr decoding: sizes from 64 to beyond ours, both byte
 * orders, and the bitfield's bit order on big-endian writers.
 */
#include <stdint.h>
#include <string.h>

#include "header/attr.h"
#include "base/internal.h"
#include "tap.h"

static void put32(uint8_t *p, uint32_t v, int be)
{
	int i;

	for (i = 0; i < 4; i++)
		p[be ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v, int be)
{
	int i;

	for (i = 0; i < 8; i++)
		p[be ? 7 - i : i] = (uint8_t)(v >> (8 * i));
}

/*
 * A big-endian compiler allocates bitfields from the most significant
 * bit: flag bit n is bit 63 - n of the stored u64.
 */
static uint64_t be_bitfield(uint64_t le_flags)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 64; i++)
		if (le_flags & (1ULL << i))
			v |= 1ULL << (63 - i);
	return v;
}

static void make_attr(uint8_t *buf, size_t size, int be)
{
	uint64_t flags = PD_ATTR_DISABLED | PD_ATTR_FREQ | PD_ATTR_SAMPLE_ID_ALL |
			 PD_ATTR_MMAP2 | (2ULL << PD_ATTR_PRECISE_IP_SHIFT) |
			 PD_ATTR_CGROUP;

	memset(buf, 0xee, 256);	/* poison beyond size */
	memset(buf, 0, size);
	put32(buf + 0, 1, be);
	put32(buf + 4, (uint32_t)size, be);
	put64(buf + 8, 0x1234, be);
	put64(buf + 16, 4000, be);
	put64(buf + 24, PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_CALLCHAIN, be);
	put64(buf + 32, PD_FORMAT_ID | PD_FORMAT_LOST, be);
	put64(buf + 40, be ? be_bitfield(flags) : flags, be);
	put32(buf + 48, 7, be);
	if (size >= 72)
		put64(buf + 64, 0xc0ffee, be);
	if (size >= 96) {
		put64(buf + 80, 0xff0, be);
		put32(buf + 88, 8192, be);
		put32(buf + 92, 1, be);		/* clockid */
	}
	if (size >= 112)
		put32(buf + 108, 0x7f, be);	/* max_stack, low u16 in LE */
	if (size >= 136)
		put64(buf + 128, 0xabc, be);
	if (size >= 144)
		put64(buf + 136, 0xdef, be);
}

/*
 * pd__attr_to_disk inverts pd__attr_from_disk: file bytes decoded and
 * written back in the same order are the same bytes, and an attr
 * written in either order and read back is the same attr.
 */
static void test_to_disk(const size_t *sizes, size_t nr_sizes)
{
	int host_be = *(const uint16_t *)"\0\1" == 1;
	uint8_t buf[256], out[256];
	struct pd_attr a, b;
	size_t i;
	int be, swap;

	for (be = 0; be <= 1; be++) {
		for (i = 0; i < nr_sizes; i++) {
			size_t sz = sizes[i];
			bool sw = be != host_be;

			make_attr(buf, sz, be);
			pd__attr_from_disk(&a, buf, sz, sw);
			memset(out, 0x55, sizeof(out));
			pd__attr_to_disk(out, &a, sz, sw);
			CHECK(!memcmp(out, buf, sz) && out[sz] == 0x55,
			      "%s %zu: to_disk(from_disk(bytes)) == bytes, nothing past size",
			      be ? "BE" : "LE", sz);
			for (swap = 0; swap <= 1; swap++) {
				pd__attr_to_disk(out, &a, sz, swap);
				pd__attr_from_disk(&b, out, sz, swap);
				CHECK(!memcmp(&a, &b, sizeof(a)),
				      "%s %zu: from_disk(to_disk(a)) == a, %s",
				      be ? "BE" : "LE", sz, swap ? "swapped" : "host order");
			}
		}
	}

	/* every field set, with bits at both ends of the bitfields */
	memset(&a, 0, sizeof(a));
	a.type = 0x01020304;
	a.size = sizeof(a);
	a.config = 0x1112131415161718ULL;
	a.sample_period = 0x2122232425262728ULL;
	a.sample_type = 0x3132333435363738ULL;
	a.read_format = 0x4142434445464748ULL;
	a.flags = 0x8000000000000001ULL | PD_ATTR_FREQ | PD_ATTR_MMAP2;
	a.wakeup_events = 0x51525354;
	a.bp_type = 0x61626364;
	a.config1 = 0x7172737475767778ULL;
	a.config2 = 0x8182838485868788ULL;
	a.branch_sample_type = 0x9192939495969798ULL;
	a.sample_regs_user = 0xa1a2a3a4a5a6a7a8ULL;
	a.sample_stack_user = 0xb1b2b3b4;
	a.clockid = -2;
	a.sample_regs_intr = 0xc1c2c3c4c5c6c7c8ULL;
	a.aux_watermark = 0xd1d2d3d4;
	a.sample_max_stack = 0xe1e2;
	a.reserved_2 = 0xe3e4;
	a.aux_sample_size = 0xf1f2f3f4;
	a.aux_action = 0x80000005;
	a.sig_data = 0x0102030405060708ULL;
	a.config3 = 0x1020304050607080ULL;
	a.config4 = 0x1122334455667788ULL;
	for (swap = 0; swap <= 1; swap++) {
		size_t sz;

		for (sz = sizeof(a); sz <= sizeof(a) + 16; sz += 16) {
			memset(out, 0x55, sizeof(out));
			pd__attr_to_disk(out, &a, sz, swap);
			pd__attr_from_disk(&b, out, sz, swap);
			CHECK(!memcmp(&a, &b, sizeof(a)) && out[sz] == 0x55 &&
			      (sz == sizeof(a) ||
			       (!memcmp(out + sizeof(a), "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16))),
			      "every field, %zu bytes, %s: round trip, zero past our struct",
			      sz, swap ? "swapped" : "host order");
		}
	}
	/* swapped: numbers byte-swapped, each flag byte's bits reversed */
	pd__attr_to_disk(out, &a, sizeof(a), true);
	CHECK(pd_get32(out, true) == a.type && pd_get64(out + 8, true) == a.config &&
	      out[host_be ? 40 : 47] == 0x01 && out[host_be ? 47 : 40] == 0x80,
	      "swapped attr: byte-swapped fields, flag bits mirrored in each byte");
}

int main(void)
{
	static const size_t sizes[] = { 64, 72, 80, 96, 104, 112, 120, 128, 136, 144, 160 };
	uint8_t buf[256];
	struct pd_attr a;
	size_t i;
	int be;

	for (be = 0; be <= 1; be++) {
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			size_t sz = sizes[i];
			int host_be = *(const uint16_t *)"\0\1" == 1;

			make_attr(buf, sz, be);
			pd__attr_from_disk(&a, buf, sz, be != host_be);
			CHECK(a.type == 1 && a.size == sz && a.config == 0x1234,
			      "%s attr of %zu bytes: type, size, config", be ? "BE" : "LE", sz);
			CHECK(a.sample_type == (PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_CALLCHAIN),
			      "%s %zu: sample_type", be ? "BE" : "LE", sz);
			CHECK((a.flags & PD_ATTR_DISABLED) && (a.flags & PD_ATTR_FREQ) &&
			      (a.flags & PD_ATTR_SAMPLE_ID_ALL) && (a.flags & PD_ATTR_MMAP2) &&
			      (a.flags & PD_ATTR_CGROUP) && !(a.flags & PD_ATTR_INHERIT) &&
			      ((a.flags & PD_ATTR_PRECISE_IP_MASK) >> PD_ATTR_PRECISE_IP_SHIFT) == 2,
			      "%s %zu: flag bits in our order (flags %#llx)", be ? "BE" : "LE", sz,
			      (unsigned long long)a.flags);
			CHECK(a.config2 == (sz >= 72 ? 0xc0ffee : 0),
			      "%s %zu: config2 only when inside size", be ? "BE" : "LE", sz);
			CHECK(a.sample_stack_user == (sz >= 96 ? 8192u : 0) &&
			      a.clockid == (sz >= 96 ? 1 : 0),
			      "%s %zu: stack size and clockid only when inside size", be ? "BE" : "LE", sz);
			CHECK(a.config3 == (sz >= 136 ? 0xabc : 0) &&
			      a.config4 == (sz >= 144 ? 0xdef : 0),
			      "%s %zu: config3/config4, tail past ours ignored", be ? "BE" : "LE", sz);
		}
	}
	test_to_disk(sizes, sizeof(sizes) / sizeof(sizes[0]));
	return tap_done();
}
