// SPDX-License-Identifier: MIT
/*
 * Records from a host of the other byte order, converted to host order in
 * place, field by field (reading), and host-order records converted to the
 * other order (writing). The walk is the same both ways; only the fields
 * that decide the layout (counts, types, sizes) must be read on the host
 * side of the conversion: after it when reading, before it when writing.
 * Strings, tracepoint payloads, build-id bytes and feature payloads keep
 * the recording host's order (features are converted by feat-swap.c);
 * stack and AUX memory in samples are converted as u64 words, as perf
 * does.
 */
#include "header/attr.h"
#include "reader-state.h"

void pd__swap_header(uint8_t *rec)
{
	pd_swap32_at(rec);
	pd_swap16_at(rec + 4);
	pd_swap16_at(rec + 6);
}

/* Swap a fixed prefix described by a string: '4' = u32, '8' = u64,
 * '2' = u16, '1' = byte. Stops at the end of the record. */
static void swap_fields(uint8_t *rec, size_t size, size_t off, const char *fmt)
{
	for (; *fmt; fmt++) {
		size_t w = *fmt - '0';

		if (off + w > size)
			return;
		if (w == 2)
			pd_swap16_at(rec + off);
		else if (w == 4)
			pd_swap32_at(rec + off);
		else if (w == 8)
			pd_swap64_at(rec + off);
		off += w;
	}
}

/* Swap a u16/u32 at p and return its host-order value. */
static uint16_t sw16(uint8_t *p, int dir)
{
	uint16_t v = pd_get16(p, dir == PD_SWAP_IN);

	pd_swap16_at(p);
	return v;
}

static uint64_t sw64(uint8_t *p, int dir)
{
	uint64_t v = pd_get64(p, dir == PD_SWAP_IN);

	pd_swap64_at(p);
	return v;
}

static void swap_u64s(uint8_t *rec, size_t from, size_t to)
{
	for (; from + 8 <= to; from += 8)
		pd_swap64_at(rec + from);
}

/* CPU map data at off (CPU_MAP record, EVENT_UPDATE CPUS). */
static void swap_cpu_map(uint8_t *rec, size_t size, size_t off, int dir)
{
	uint16_t type, nr, long_size;
	size_t i;

	if (off + 2 > size)
		return;
	type = sw16(rec + off, dir);
	switch (type) {
	case 0:	/* CPUS: u16 nr, u16 cpu[nr] */
		if (off + 4 > size)
			return;
		nr = sw16(rec + off + 2, dir);
		for (i = 0; i < nr && off + 6 + 2 * i <= size; i++)
			pd_swap16_at(rec + off + 4 + 2 * i);
		break;
	case 1:	/* MASK: u16 nr, u16 long_size, [pad], mask words */
		if (off + 6 > size)
			return;
		nr = sw16(rec + off + 2, dir);
		long_size = sw16(rec + off + 4, dir);
		for (i = 0; i < nr; i++) {
			if (long_size == 4 && off + 6 + 4 * i + 4 <= size)
				pd_swap32_at(rec + off + 6 + 4 * i);
			else if (long_size == 8 && off + 10 + 8 * i + 8 <= size)
				pd_swap64_at(rec + off + 10 + 8 * i);
		}
		break;
	case 2:	/* RANGE_CPUS: u8 any_cpu, u8 pad, u16 start, u16 end */
		swap_fields(rec, size, off + 2, "1122");
		break;
	}
}

static void swap_attr_record(uint8_t *rec, size_t size, int dir)
{
	struct pd_attr a;
	uint32_t asize;

	if (size < 8 + PD_ATTR_SIZE_VER0)
		return;
	asize = pd_get32(rec + 12, dir == PD_SWAP_IN);
	if (asize == 0)
		asize = PD_ATTR_SIZE_VER0;
	if (asize > size - 8)
		return;
	if (dir == PD_SWAP_IN) {
		pd__attr_from_disk(&a, rec + 8, asize, true);
		memcpy(rec + 8, &a, asize < sizeof(a) ? asize : sizeof(a));
	} else {
		pd__attr_from_disk(&a, rec + 8, asize, false);
		pd__attr_to_disk(rec + 8, &a,
				 asize < sizeof(a) ? asize : sizeof(a), true);
	}
	if (asize > sizeof(a))
		swap_u64s(rec, 8 + sizeof(a), 8 + asize);
	swap_u64s(rec, 8 + asize, size);
}

static void swap_body(uint8_t *rec, size_t size, int dir);

int pd__swap_record(struct pd_reader *r, uint8_t *rec, size_t size)
{
	uint32_t type = pd_get32(rec, false);
	size_t tsize = 0;
	const struct pd_evsel *e;

	if (type == PD_RECORD_SAMPLE)
		return pd__swap_sample(r, rec, size);
	if (type < PD_RECORD_USER_MIN) {
		/* the trailer first: its id tells the layout */
		tsize = pd__trailer_size(r, rec, size, true, &e);
		if (tsize)
			pd__swap_trailer(r, rec, size);
		size -= tsize;
	}
	swap_body(rec, size, PD_SWAP_IN);
	return 0;
}

int pd__swap_record_out(uint8_t *rec, size_t size, const struct pd_attr *attr,
			bool big_endian)
{
	uint32_t type = pd_get32(rec, false);
	int err = 0;

	if (type == PD_RECORD_SAMPLE) {
		if (!attr)
			return -PD_ERR_NO_ATTR;
		err = pd__swap_sample_out(rec, size, attr, big_endian);
	} else {
		size_t tsize = 0;

		if (type < PD_RECORD_USER_MIN && attr &&
		    (attr->flags & PD_ATTR_SAMPLE_ID_ALL)) {
			tsize = pd__id_hdr_size(attr->sample_type);
			if (tsize > size - 8)
				tsize = 0;
			else
				pd__swap_trailer_out(rec, size, attr);
		}
		swap_body(rec, size - tsize, PD_SWAP_OUT);
	}
	pd__swap_header(rec);
	return err;
}

/* Everything after the header and before any sample_id trailer. */
static void swap_body(uint8_t *rec, size_t size, int dir)
{
	uint32_t type = pd_get32(rec, false);

	switch (type) {
	case PD_RECORD_MMAP:
		swap_fields(rec, size, 8, "44888");
		break;
	case PD_RECORD_MMAP2:
		swap_fields(rec, size, 8, "44888");
		if (!(pd_get16(rec + 4, false) & PD_MISC_MMAP_BUILD_ID))
			swap_fields(rec, size, 40, "4488");
		swap_fields(rec, size, 64, "44");
		break;
	case PD_RECORD_COMM:
	case PD_RECORD_ITRACE_START:
	case PD_RECORD_SWITCH_CPU_WIDE:
		swap_fields(rec, size, 8, "44");
		break;
	case PD_RECORD_EXIT:
	case PD_RECORD_FORK:
		swap_fields(rec, size, 8, "44448");
		break;
	case PD_RECORD_READ:
		swap_fields(rec, size, 8, "44");
		swap_u64s(rec, 16, size);
		break;
	case PD_RECORD_NAMESPACES:
		swap_fields(rec, size, 8, "44");
		swap_u64s(rec, 16, size);
		break;
	case PD_RECORD_KSYMBOL:
		swap_fields(rec, size, 8, "8422");
		break;
	case PD_RECORD_BPF_EVENT:
		swap_fields(rec, size, 8, "224");
		break;
	case PD_RECORD_CGROUP:
	case PD_RECORD_AUX_OUTPUT_HW_ID:
	case PD_RECORD_LOST_SAMPLES:
		swap_fields(rec, size, 8, "8");
		break;
	case PD_RECORD_TEXT_POKE:
		swap_fields(rec, size, 8, "822");
		break;
	case PD_RECORD_LOST:
	case PD_RECORD_THROTTLE:
	case PD_RECORD_UNTHROTTLE:
	case PD_RECORD_AUX:
	case PD_RECORD_CALLCHAIN_DEFERRED:
	case PD_RECORD_ID_INDEX:
	case PD_RECORD_STAT_CONFIG:
	case PD_RECORD_STAT_ROUND:
		swap_u64s(rec, 8, size);
		break;
	case PD_RECORD_HEADER_ATTR:
		swap_attr_record(rec, size, dir);
		break;
	case PD_RECORD_HEADER_EVENT_TYPE:
		swap_fields(rec, size, 8, "8");
		break;
	case PD_RECORD_HEADER_TRACING_DATA:
		swap_fields(rec, size, 8, "4");
		break;
	case PD_RECORD_HEADER_BUILD_ID:
		swap_fields(rec, size, 8, "4");
		break;
	case PD_RECORD_AUXTRACE_INFO:
		swap_fields(rec, size, 8, "44");
		swap_u64s(rec, 16, size);
		break;
	case PD_RECORD_AUXTRACE:
		swap_fields(rec, size, 8, "8884444");
		break;
	case PD_RECORD_AUXTRACE_ERROR:
		swap_fields(rec, size, 8, "44444488");
		swap_fields(rec, size, 112, "44");
		break;
	case PD_RECORD_THREAD_MAP: {
		uint64_t nr, i;

		nr = size >= 16 ? sw64(rec + 8, dir) : 0;
		for (i = 0; i < nr && 16 + 24 * i + 8 <= size; i++)
			pd_swap64_at(rec + 16 + 24 * i);
		break;
	}
	case PD_RECORD_CPU_MAP:
		swap_cpu_map(rec, size, 8, dir);
		break;
	case PD_RECORD_STAT:
		swap_fields(rec, size, 8, "844888");
		break;
	case PD_RECORD_EVENT_UPDATE: {
		uint64_t t;

		t = size >= 16 ? sw64(rec + 8, dir) : 0;
		swap_fields(rec, size, 16, "8");
		if (t == 1)		/* SCALE: a double */
			swap_fields(rec, size, 24, "8");
		else if (t == 3)	/* CPUS */
			swap_cpu_map(rec, size, 24, dir);
		break;
	}
	case PD_RECORD_TIME_CONV:
		swap_fields(rec, size, 8, "88888");
		break;
	case PD_RECORD_HEADER_FEATURE:
	case PD_RECORD_COMPRESSED2:
		swap_fields(rec, size, 8, "8");
		break;
	case PD_RECORD_BPF_METADATA:
		swap_fields(rec, size, 8 + 512, "8");
		break;
	default:
		/* SWITCH, FINISHED_*, COMPRESSED, unknown: nothing to do */
		break;
	}
}
