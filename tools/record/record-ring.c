// SPDX-License-Identifier: MIT
/*
 * The kernel's ring buffer of one CPU: a control page (struct
 * perf_event_mmap_page), then 2^n data pages the kernel fills. data_head
 * is where the kernel has written up to; data_tail is where we have read
 * up to. Loading data_head with acquire ordering makes the records before
 * it visible; storing data_tail with release ordering hands the space
 * back only once the records are copied out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <perfdata/kernel-abi.h>

#include "record.h"

int rec_ring__map(struct rec_ring *r, int fd, int cpu, unsigned int pages)
{
	size_t page = sysconf(_SC_PAGESIZE);
	void *p;

	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->cpu = cpu;
	r->data_size = pages * page;
	p = mmap(NULL, page + r->data_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	r->base = p;
	r->copy = malloc(65536);
	if (!r->copy) {
		rec_ring__unmap(r);
		return -ENOMEM;
	}
	return 0;
}

void rec_ring__unmap(struct rec_ring *r)
{
	if (r->base)
		munmap(r->base, sysconf(_SC_PAGESIZE) + r->data_size);
	r->base = NULL;
	free(r->copy);
	r->copy = NULL;
}

long rec_ring__drain(struct rec_ring *r, rec_record_fn fn, void *ctx)
{
	size_t page = sysconf(_SC_PAGESIZE);
	uint8_t *ctl = r->base;
	uint64_t *headp = (uint64_t *)(ctl + PD_MMAP_PAGE_DATA_HEAD);
	uint64_t *tailp = (uint64_t *)(ctl + PD_MMAP_PAGE_DATA_TAIL);
	const uint8_t *data = (const uint8_t *)r->base + page;
	uint64_t mask = r->data_size - 1;
	uint64_t head, tail = r->tail, start = r->tail;
	int err = 0;

	head = __atomic_load_n(headp, __ATOMIC_ACQUIRE);
	while (tail < head) {
		size_t off = tail & mask, size;
		const uint8_t *rec = data + off;
		uint16_t sz;

		/* the header itself may wrap (8 bytes at the very end) */
		if (off + 8 > r->data_size) {
			size_t first = r->data_size - off;

			memcpy(r->copy, rec, first);
			memcpy(r->copy + first, data, 8 - first);
			memcpy(&sz, r->copy + 6, 2);
		} else {
			memcpy(&sz, rec + 6, 2);
		}
		size = sz;
		if (size < 8 || tail + size > head)
			break;	/* cannot happen with a sane kernel */
		if (off + size > r->data_size) {
			size_t first = r->data_size - off;

			memcpy(r->copy, rec, first);
			memcpy(r->copy + first, data, size - first);
			rec = r->copy;
		}
		err = fn(ctx, rec);
		tail += size;
		if (err)
			break;
	}
	r->tail = tail;
	__atomic_store_n(tailp, tail, __ATOMIC_RELEASE);
	return err ? err : (long)(tail - start);
}
