// SPDX-License-Identifier: MIT
/*
 * Encoding SAMPLE records and sample_id trailers from their decoded form,
 * for a given layout (host byte order). The inverse of sample.c's walk:
 * used to rewrite samples for an attr with fewer sample_type, read_format
 * or branch_sample_type bits.
 */
#include <errno.h>

#include "sample-encode.h"

struct out {
	uint8_t *p;
	uint8_t *end;
	bool full;
};

static void put(struct out *o, const void *src, size_t n)
{
	if (o->full || (size_t)(o->end - o->p) < n) {
		o->full = true;
		return;
	}
	if (n)
		memcpy(o->p, src, n);
	o->p += n;
}

static void put64(struct out *o, uint64_t v)
{
	put(o, &v, 8);
}

static void put32x2(struct out *o, uint32_t a, uint32_t b)
{
	put(o, &a, 4);
	put(o, &b, 4);
}

static void put_zeros(struct out *o, size_t n)
{
	static const uint8_t z[8];

	while (n >= 8) {
		put(o, z, 8);
		n -= 8;
	}
	put(o, z, n);
}

static void put_read(struct out *o, const struct pd_read *r, uint64_t rf)
{
	uint64_t i;

	if (rf & PD_FORMAT_GROUP) {
		put64(o, r->nr);
		if (rf & PD_FORMAT_TOTAL_TIME_ENABLED)
			put64(o, r->time_enabled);
		if (rf & PD_FORMAT_TOTAL_TIME_RUNNING)
			put64(o, r->time_running);
	}
	for (i = 0; i < (rf & PD_FORMAT_GROUP ? r->nr : 1); i++) {
		const struct pd_read_value *v = i < r->nr ? &r->values[i] : NULL;

		put64(o, v ? v->value : 0);
		if (!(rf & PD_FORMAT_GROUP)) {
			if (rf & PD_FORMAT_TOTAL_TIME_ENABLED)
				put64(o, r->time_enabled);
			if (rf & PD_FORMAT_TOTAL_TIME_RUNNING)
				put64(o, r->time_running);
		}
		if (rf & PD_FORMAT_ID)
			put64(o, v ? v->id : 0);
		if (rf & PD_FORMAT_LOST)
			put64(o, v ? v->lost : 0);
	}
}

static void put_regs(struct out *o, const struct pd_regs *r)
{
	put64(o, r->abi);
	if (r->abi)
		put(o, r->regs, 8 * (size_t)r->nr);
}

int pd__encode_sample(const struct pd_sample *s, const struct pd_attr *a,
		      uint16_t misc, void *buf, size_t cap, size_t *size)
{
	uint64_t st = a->sample_type;
	struct out o = { buf, (uint8_t *)buf + cap, false };
	uint8_t *start = buf;
	uint64_t w;

	put_zeros(&o, 8);	/* header, filled below */
	if (st & PD_SAMPLE_IDENTIFIER)
		put64(&o, s->id);
	if (st & PD_SAMPLE_IP)
		put64(&o, s->ip);
	if (st & PD_SAMPLE_TID)
		put32x2(&o, s->pid, s->tid);
	if (st & PD_SAMPLE_TIME)
		put64(&o, s->time);
	if (st & PD_SAMPLE_ADDR)
		put64(&o, s->addr);
	if (st & PD_SAMPLE_ID)
		put64(&o, s->id);
	if (st & PD_SAMPLE_STREAM_ID)
		put64(&o, s->stream_id);
	if (st & PD_SAMPLE_CPU)
		put32x2(&o, s->cpu, s->cpu_res);
	if (st & PD_SAMPLE_PERIOD)
		put64(&o, s->period);
	if (st & PD_SAMPLE_READ)
		put_read(&o, &s->read, a->read_format);
	if (st & PD_SAMPLE_CALLCHAIN) {
		put64(&o, s->callchain.nr);
		put(&o, s->callchain.ips, 8 * s->callchain.nr);
	}
	if (st & PD_SAMPLE_RAW) {
		uint32_t rs = s->raw.size;

		put(&o, &rs, 4);
		put(&o, s->raw.data, rs);
	}
	if (st & PD_SAMPLE_BRANCH_STACK) {
		put64(&o, s->branch_stack.nr);
		if (a->branch_sample_type & PD_BRANCH_HW_INDEX)
			put64(&o, s->branch_stack.has_hw_idx ?
				       s->branch_stack.hw_idx : (uint64_t)-1);
		put(&o, s->branch_stack.entries, 24 * s->branch_stack.nr);
		if (a->branch_sample_type & PD_BRANCH_COUNTERS) {
			if (s->branch_stack.counters)
				put(&o, s->branch_stack.counters,
				    8 * s->branch_stack.nr);
			else
				put_zeros(&o, 8 * s->branch_stack.nr);
		}
	}
	if (st & PD_SAMPLE_REGS_USER)
		put_regs(&o, &s->user_regs);
	if (st & PD_SAMPLE_STACK_USER) {
		put64(&o, s->user_stack.size);
		if (s->user_stack.size) {
			put(&o, s->user_stack.data, s->user_stack.size);
			put64(&o, s->user_stack.dyn_size);
		}
	}
	if (st & PD_SAMPLE_WEIGHT_TYPE) {
		w = s->weight;
		/* WEIGHT from WEIGHT_STRUCT: the latency half, as perf
		 * reports it */
		if ((st & PD_SAMPLE_WEIGHT) &&
		    (s->sample_type & PD_SAMPLE_WEIGHT_STRUCT))
			w = pd_weight_var1(w);
		put64(&o, w);
	}
	if (st & PD_SAMPLE_DATA_SRC)
		put64(&o, s->data_src);
	if (st & PD_SAMPLE_TRANSACTION)
		put64(&o, s->transaction);
	if (st & PD_SAMPLE_REGS_INTR)
		put_regs(&o, &s->intr_regs);
	if (st & PD_SAMPLE_PHYS_ADDR)
		put64(&o, s->phys_addr);
	if (st & PD_SAMPLE_CGROUP)
		put64(&o, s->cgroup);
	if (st & PD_SAMPLE_DATA_PAGE_SIZE)
		put64(&o, s->data_page_size);
	if (st & PD_SAMPLE_CODE_PAGE_SIZE)
		put64(&o, s->code_page_size);
	if (st & PD_SAMPLE_AUX) {
		put64(&o, s->aux.size);
		put(&o, s->aux.data, s->aux.size);
	}
	if (o.full || o.p - start > PD_MAX_RECORD)
		return -PD_ERR_TOO_BIG;
	*size = o.p - start;
	memcpy(start, &(uint32_t){ PD_RECORD_SAMPLE }, 4);
	memcpy(start + 4, &misc, 2);
	memcpy(start + 6, &(uint16_t){ (uint16_t)*size }, 2);
	return 0;
}

int pd__encode_read_record(const struct pd_read_event *rd, uint64_t rf,
			   uint16_t misc, void *buf, size_t cap, size_t *size)
{
	struct out o = { buf, (uint8_t *)buf + cap, false };
	uint8_t *start = buf;

	put_zeros(&o, 8);	/* header, filled below */
	put32x2(&o, rd->pid, rd->tid);
	put_read(&o, &rd->read, rf);
	if (o.full || o.p - start > PD_MAX_RECORD)
		return -PD_ERR_TOO_BIG;
	*size = o.p - start;
	memcpy(start, &(uint32_t){ PD_RECORD_READ }, 4);
	memcpy(start + 4, &misc, 2);
	memcpy(start + 6, &(uint16_t){ (uint16_t)*size }, 2);
	return 0;
}

size_t pd__encode_trailer(const struct pd_sample_id *sid, uint64_t st,
			  void *buf)
{
	uint8_t *p = buf;

#define PUT64(v) do { uint64_t x_ = (v); memcpy(p, &x_, 8); p += 8; } while (0)
#define PUT32X2(a, b) do { uint32_t x_[2] = { (a), (b) }; memcpy(p, x_, 8); p += 8; } while (0)
	if (st & PD_SAMPLE_TID)
		PUT32X2(sid->pid, sid->tid);
	if (st & PD_SAMPLE_TIME)
		PUT64(sid->time);
	if (st & PD_SAMPLE_ID)
		PUT64(sid->id);
	if (st & PD_SAMPLE_STREAM_ID)
		PUT64(sid->stream_id);
	if (st & PD_SAMPLE_CPU)
		PUT32X2(sid->cpu, sid->cpu_res);
	if (st & PD_SAMPLE_IDENTIFIER)
		PUT64(sid->id);
#undef PUT64
#undef PUT32X2
	return p - (uint8_t *)buf;
}
