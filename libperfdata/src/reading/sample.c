// SPDX-License-Identifier: MIT
/*
 * SAMPLE records and sample_id trailers: one walk over the layout given by
 * the attr (sample_type, read_format, branch_sample_type, register masks),
 * used both to convert a foreign-endian record to host order in place and
 * to decode a host-order record. Every variable-size field is checked
 * against the record's size before it is touched.
 */
#include <errno.h>
#include <stdlib.h>

#include "reader-state.h"

struct walk {
	uint8_t *p;
	uint8_t *end;
	int swap;	/* PD_SWAP_*: convert in place as we go */
	bool bad;
};

static PD_ALWAYS_INLINE bool need(struct walk *w, uint64_t n)
{
	if (w->bad || (uint64_t)(w->end - w->p) < n) {
		w->bad = true;
		return false;
	}
	return true;
}

static PD_ALWAYS_INLINE uint64_t u64(struct walk *w)
{
	uint64_t v;

	if (!need(w, 8))
		return 0;
	if (w->swap == PD_SWAP_IN)
		pd_swap64_at(w->p);
	v = pd_get64(w->p, false);
	if (w->swap == PD_SWAP_OUT)
		pd_swap64_at(w->p);
	w->p += 8;
	return v;
}

static PD_ALWAYS_INLINE void u32x2(struct walk *w, uint32_t *a, uint32_t *b)
{
	if (!need(w, 8)) {
		*a = *b = 0;
		return;
	}
	if (w->swap == PD_SWAP_IN) {
		pd_swap32_at(w->p);
		pd_swap32_at(w->p + 4);
	}
	*a = pd_get32(w->p, false);
	*b = pd_get32(w->p + 4, false);
	if (w->swap == PD_SWAP_OUT) {
		pd_swap32_at(w->p);
		pd_swap32_at(w->p + 4);
	}
	w->p += 8;
}

static PD_ALWAYS_INLINE const uint64_t *u64_array(struct walk *w, uint64_t nr)
{
	const uint64_t *start = (const uint64_t *)w->p;
	uint64_t i, bytes;

	if (pd_mul_overflows(nr, 8, &bytes)) {
		w->bad = true;
		return NULL;
	}
	if (!need(w, bytes))
		return NULL;
	if (w->swap)
		for (i = 0; i < nr; i++)
			pd_swap64_at(w->p + 8 * i);
	w->p += bytes;
	return start;
}

static void swap_words(uint8_t *p, uint64_t n)
{
	uint64_t i;

	for (i = 0; i + 8 <= n; i += 8)
		pd_swap64_at(p + i);
}

static const void *bytes(struct walk *w, uint64_t n)
{
	const void *start = w->p;

	if (!need(w, n))
		return NULL;
	w->p += n;
	return start;
}

/*
 * Branch flags written by a big-endian host: its compiler allocated the
 * bitfields from the most significant bit down; the rest of the library
 * uses the little-endian allocation. Moves every field from one
 * allocation to the other, either way.
 */
static uint64_t branch_flags_realloc(uint64_t v, bool to_be)
{
	static const uint8_t widths[] = { 1, 1, 1, 1, 16, 4, 2, 4, 3, 31 };
	unsigned int i, be_shift = 64, le_shift = 0;
	uint64_t out = 0;

	for (i = 0; i < PD_ARRAY_SIZE(widths); i++) {
		uint64_t mask = (1ULL << widths[i]) - 1;

		be_shift -= widths[i];
		if (to_be)
			out |= ((v >> le_shift) & mask) << be_shift;
		else
			out |= ((v >> be_shift) & mask) << le_shift;
		le_shift += widths[i];
	}
	return out;
}

int pd__decode_read(struct pd_reader *r, const uint64_t *p, size_t words,
		    uint64_t rf, struct pd_read *out, size_t *used)
{
	size_t per = 1 + !!(rf & PD_FORMAT_ID) + !!(rf & PD_FORMAT_LOST);
	size_t i = 0, k;
	uint64_t nr = 1;

	memset(out, 0, sizeof(*out));
	if (rf & PD_FORMAT_GROUP) {
		if (words < 1)
			return -PD_ERR_BAD_SAMPLE;
		nr = pd_get64(&p[i++], false);
	}
	if (rf & PD_FORMAT_GROUP) {
		if (rf & PD_FORMAT_TOTAL_TIME_ENABLED)
			out->time_enabled = i < words ? pd_get64(&p[i++], false) : 0;
		if (rf & PD_FORMAT_TOTAL_TIME_RUNNING)
			out->time_running = i < words ? pd_get64(&p[i++], false) : 0;
	}
	if (nr > (words - (i < words ? i : words)) / per)
		return -PD_ERR_BAD_SAMPLE;
	if (nr > r->read_vals_cap) {
		struct pd_read_value *v = realloc(r->read_vals, nr * sizeof(*v));

		if (!v)
			return -ENOMEM;
		r->read_vals = v;
		r->read_vals_cap = nr;
	}
	for (k = 0; k < nr; k++) {
		struct pd_read_value *v = &r->read_vals[k];

		memset(v, 0, sizeof(*v));
		v->value = pd_get64(&p[i++], false);
		if (!(rf & PD_FORMAT_GROUP)) {
			if (rf & PD_FORMAT_TOTAL_TIME_ENABLED) {
				if (i >= words)
					return -PD_ERR_BAD_SAMPLE;
				out->time_enabled = pd_get64(&p[i++], false);
			}
			if (rf & PD_FORMAT_TOTAL_TIME_RUNNING) {
				if (i >= words)
					return -PD_ERR_BAD_SAMPLE;
				out->time_running = pd_get64(&p[i++], false);
			}
		}
		if (rf & PD_FORMAT_ID) {
			if (i >= words)
				return -PD_ERR_BAD_SAMPLE;
			v->id = pd_get64(&p[i++], false);
		}
		if (rf & PD_FORMAT_LOST) {
			if (i >= words)
				return -PD_ERR_BAD_SAMPLE;
			v->lost = pd_get64(&p[i++], false);
		}
	}
	out->nr = nr;
	out->values = r->read_vals;
	*used = i;
	return 0;
}

/* Words of a read_format block, or 0 if it does not fit in left words. */
static uint64_t read_words(struct walk *w, uint64_t rf)
{
	uint64_t per = 1 + !!(rf & PD_FORMAT_ID) + !!(rf & PD_FORMAT_LOST);
	uint64_t nr = 1, n;
	uint64_t left = (uint64_t)(w->end - w->p) / 8;

	if (!(rf & PD_FORMAT_GROUP))
		return per + !!(rf & PD_FORMAT_TOTAL_TIME_ENABLED) +
		       !!(rf & PD_FORMAT_TOTAL_TIME_RUNNING);
	if (left < 1)
		return UINT64_MAX;
	nr = pd_get64(w->p, w->swap == PD_SWAP_IN);
	n = 1 + !!(rf & PD_FORMAT_TOTAL_TIME_ENABLED) +
	    !!(rf & PD_FORMAT_TOTAL_TIME_RUNNING);
	if (nr > left / per)
		return UINT64_MAX;
	return n + nr * per;
}

static void regs(struct walk *w, uint64_t mask, struct pd_regs *out)
{
	out->mask = mask;
	out->abi = u64(w);
	out->nr = 0;
	out->regs = NULL;
	if (out->abi) {
		out->nr = __builtin_popcountll(mask);
		out->regs = u64_array(w, out->nr);
	}
}

/*
 * Walk a SAMPLE. With s == NULL only converts (swap); else decodes.
 * other_bitfields: the branch flags of the other byte order use the other
 * bitfield allocation (a big-endian host on one side). Inlined in each
 * caller: decoding, once per sample, then tests no swap at each field.
 */
static PD_ALWAYS_INLINE int
walk_sample(struct pd_reader *r, uint8_t *rec, size_t size,
	    const struct pd_attr *a, int swap, bool other_bitfields,
	    struct pd_sample *s)
{
	uint64_t st = a->sample_type;
	struct pd_sample tmp;
	struct walk w = { rec + 8, rec + size, swap, false };

	/* a decoded sample is r->ev's, zeroed with it (reader-next.c) */
	if (!s) {
		s = &tmp;
		memset(s, 0, sizeof(*s));
	}
	s->sample_type = st;
	if (st & PD_SAMPLE_IDENTIFIER)
		s->id = u64(&w);
	if (st & PD_SAMPLE_IP)
		s->ip = u64(&w);
	if (st & PD_SAMPLE_TID)
		u32x2(&w, &s->pid, &s->tid);
	if (st & PD_SAMPLE_TIME)
		s->time = u64(&w);
	if (st & PD_SAMPLE_ADDR)
		s->addr = u64(&w);
	if (st & PD_SAMPLE_ID)
		s->id = u64(&w);
	if (st & PD_SAMPLE_STREAM_ID)
		s->stream_id = u64(&w);
	if (st & PD_SAMPLE_CPU)
		u32x2(&w, &s->cpu, &s->cpu_res);
	if (st & PD_SAMPLE_PERIOD)
		s->period = u64(&w);
	if (st & PD_SAMPLE_READ) {
		uint64_t n = read_words(&w, a->read_format);
		const uint64_t *p;
		size_t used;

		if (n == UINT64_MAX || !(p = u64_array(&w, n)))
			goto bad;
		if (s != &tmp && pd__decode_read(r, p, n, a->read_format,
						 &s->read, &used) < 0)
			goto bad;
	}
	if (st & PD_SAMPLE_CALLCHAIN) {
		s->callchain.nr = u64(&w);
		s->callchain.ips = u64_array(&w, s->callchain.nr);
		if (w.bad)
			goto bad;
	}
	if (st & PD_SAMPLE_RAW) {
		if (!need(&w, 4))
			goto bad;
		if (swap == PD_SWAP_IN)
			pd_swap32_at(w.p);
		s->raw.size = pd_get32(w.p, false);
		if (swap == PD_SWAP_OUT)
			pd_swap32_at(w.p);
		w.p += 4;
		/* tracepoint payloads stay in the recording host's order */
		s->raw.data = bytes(&w, s->raw.size);
		if (w.bad)
			goto bad;
	}
	if (st & PD_SAMPLE_BRANCH_STACK) {
		uint64_t i, bytes_nr;

		s->branch_stack.nr = u64(&w);
		if (a->branch_sample_type & PD_BRANCH_HW_INDEX) {
			s->branch_stack.has_hw_idx = true;
			s->branch_stack.hw_idx = u64(&w);
		}
		if (pd_mul_overflows(s->branch_stack.nr, 24, &bytes_nr) ||
		    !need(&w, bytes_nr))
			goto bad;
		s->branch_stack.entries = (const void *)w.p;
		for (i = 0; swap && i < s->branch_stack.nr; i++) {
			uint8_t *ent = w.p + 24 * i;
			uint64_t f;

			if (swap == PD_SWAP_OUT && other_bitfields) {
				f = branch_flags_realloc(pd_get64(ent + 16, false), true);
				memcpy(ent + 16, &f, 8);
			}
			pd_swap64_at(ent);
			pd_swap64_at(ent + 8);
			pd_swap64_at(ent + 16);
			if (swap == PD_SWAP_IN && other_bitfields) {
				f = branch_flags_realloc(pd_get64(ent + 16, false), false);
				memcpy(ent + 16, &f, 8);
			}
		}
		w.p += bytes_nr;
		if (a->branch_sample_type & PD_BRANCH_COUNTERS) {
			s->branch_stack.counters = u64_array(&w, s->branch_stack.nr);
			if (w.bad)
				goto bad;
		}
	}
	if (st & PD_SAMPLE_REGS_USER) {
		regs(&w, a->sample_regs_user, &s->user_regs);
		if (w.bad)
			goto bad;
	}
	if (st & PD_SAMPLE_STACK_USER) {
		s->user_stack.size = u64(&w);
		if (s->user_stack.size) {
			/*
			 * perf converts the whole sample as u64 words and
			 * leaves stack memory so: do the same, so that what
			 * perf unwinds from a file we wrote is what it
			 * unwinds from the original.
			 */
			s->user_stack.data = bytes(&w, s->user_stack.size);
			if (s->user_stack.data && swap)
				swap_words((uint8_t *)s->user_stack.data,
					   s->user_stack.size);
			s->user_stack.dyn_size = u64(&w);
			if (s->user_stack.dyn_size > s->user_stack.size)
				goto bad;
		}
		if (w.bad)
			goto bad;
	}
	if (st & PD_SAMPLE_WEIGHT_TYPE)
		s->weight = u64(&w);
	if (st & PD_SAMPLE_DATA_SRC)
		s->data_src = u64(&w);
	if (st & PD_SAMPLE_TRANSACTION)
		s->transaction = u64(&w);
	if (st & PD_SAMPLE_REGS_INTR)
		regs(&w, a->sample_regs_intr, &s->intr_regs);
	if (st & PD_SAMPLE_PHYS_ADDR)
		s->phys_addr = u64(&w);
	if (st & PD_SAMPLE_CGROUP)
		s->cgroup = u64(&w);
	if (st & PD_SAMPLE_DATA_PAGE_SIZE)
		s->data_page_size = u64(&w);
	if (st & PD_SAMPLE_CODE_PAGE_SIZE)
		s->code_page_size = u64(&w);
	if (st & PD_SAMPLE_AUX) {
		s->aux.size = u64(&w);
		s->aux.data = bytes(&w, s->aux.size);
		if (s->aux.data && swap)	/* as perf does, see above */
			swap_words((uint8_t *)s->aux.data, s->aux.size);
	}
	if (w.bad)
		goto bad;
	return 0;
bad:
	return -PD_ERR_BAD_SAMPLE;
}

int pd__decode_sample(struct pd_reader *r, struct pd_event *ev,
		      const struct pd_evsel *e)
{
	int err;

	if (!e)
		return -PD_ERR_NO_ATTR;
	err = walk_sample(r, (uint8_t *)ev->raw, ev->size, &e->attr,
			  PD_SWAP_NONE, false, &ev->u.sample);
	if (!err) {
		const struct pd_sample *s = &ev->u.sample;
		uint64_t idbits = PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID |
				  PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU |
				  PD_SAMPLE_IDENTIFIER;

		/* the same identity fields other records carry in trailers */
		ev->sid.present = s->sample_type & idbits;
		ev->sid.pid = s->pid;
		ev->sid.tid = s->tid;
		ev->sid.time = s->time;
		ev->sid.id = s->id;
		ev->sid.stream_id = s->stream_id;
		ev->sid.cpu = s->cpu;
		ev->sid.cpu_res = s->cpu_res;
	}
	if (err == -PD_ERR_BAD_SAMPLE)
		return pd__set_error(r, err, ev->offset,
				     "SAMPLE of %u bytes does not match its sample_type 0x%llx",
				     ev->size,
				     (unsigned long long)e->attr.sample_type);
	return err;
}

/* Find the evsel of a sample or trailer in a record that may be unswapped. */
static const struct pd_evsel *lookup(struct pd_reader *r, const uint8_t *rec,
				     size_t size, bool sample, bool swap)
{
	const struct pd_evsel *first;
	uint64_t st;
	int pos = 0;

	if (!r->nr_evsels)
		return NULL;
	first = r->evsels[0];
	if (r->nr_evsels == 1)
		return first;
	st = first->attr.sample_type;
	if (sample) {
		pos = pd__sample_id_word(st);
		if (pos < 0 || 8 + 8 * (size_t)pos + 8 > size)
			return NULL;
		return pd_reader__evsel_by_id(r, pd_get64(rec + 8 + 8 * pos, swap));
	}
	if (!(first->attr.flags & PD_ATTR_SAMPLE_ID_ALL))
		return NULL;
	pos = pd__trailer_id_word(st);
	if (pos < 0 || 8 + 8 * (size_t)pos > size)
		return NULL;
	return pd_reader__evsel_by_id(r, pd_get64(rec + size - 8 * pos, swap));
}

const struct pd_evsel *pd__evsel_for_sample(struct pd_reader *r,
					    const uint8_t *rec, size_t size)
{
	return lookup(r, rec, size, true, false);
}

const struct pd_evsel *pd__evsel_for_trailer(struct pd_reader *r,
					     const uint8_t *rec, size_t size)
{
	return lookup(r, rec, size, false, false);
}

int pd__swap_sample(struct pd_reader *r, uint8_t *rec, size_t size)
{
	const struct pd_evsel *e = lookup(r, rec, size, true, true);

	if (!e)
		return 0;	/* left as is; decoding will report it */
	return walk_sample(r, rec, size, &e->attr, PD_SWAP_IN,
			   pd_host_is_be() != r->hdr.big_endian, NULL);
}

int pd__swap_sample_out(uint8_t *rec, size_t size, const struct pd_attr *a,
			bool big_endian)
{
	return walk_sample(NULL, rec, size, a, PD_SWAP_OUT,
			   pd_host_is_be() != big_endian, NULL);
}

/*
 * The trailer of a kernel record: walked backwards from the end. Swapping
 * is the same in both directions: no trailer field decides the layout.
 */
static bool walk_trailer(uint8_t *rec, size_t size, uint64_t st, bool swap,
			 struct pd_sample_id *sid)
{
	uint8_t *p = rec + size;
	struct pd_sample_id tmp;

	if (!sid)
		sid = &tmp;
	memset(sid, 0, sizeof(*sid));
	if (pd__id_hdr_size(st) > size - 8)
		return false;
#define TAKE64(field, bit)						\
	if (st & (bit)) {						\
		p -= 8;							\
		if (swap)						\
			pd_swap64_at(p);				\
		sid->field = pd_get64(p, false);			\
		sid->present |= (bit);					\
	}
#define TAKE32X2(a, b, bit)						\
	if (st & (bit)) {						\
		p -= 8;							\
		if (swap) {						\
			pd_swap32_at(p);				\
			pd_swap32_at(p + 4);				\
		}							\
		sid->a = pd_get32(p, false);				\
		sid->b = pd_get32(p + 4, false);			\
		sid->present |= (bit);					\
	}
	TAKE64(id, PD_SAMPLE_IDENTIFIER)
	TAKE32X2(cpu, cpu_res, PD_SAMPLE_CPU)
	TAKE64(stream_id, PD_SAMPLE_STREAM_ID)
	if (st & PD_SAMPLE_ID) {
		p -= 8;
		if (swap)
			pd_swap64_at(p);
		if (!(st & PD_SAMPLE_IDENTIFIER))
			sid->id = pd_get64(p, false);
		sid->present |= PD_SAMPLE_ID;
	}
	TAKE64(time, PD_SAMPLE_TIME)
	TAKE32X2(pid, tid, PD_SAMPLE_TID)
#undef TAKE64
#undef TAKE32X2
	return true;
}

/* Bytes the trailer takes at the end of a kernel record of this reader. */
size_t pd__trailer_size(struct pd_reader *r, const uint8_t *rec, size_t size,
			bool swap, const struct pd_evsel **out)
{
	const struct pd_evsel *e = lookup(r, rec, size, false, swap);

	*out = e;
	if (!e || !(e->attr.flags & PD_ATTR_SAMPLE_ID_ALL))
		return 0;
	return e->id_hdr_size <= size - 8 ? e->id_hdr_size : 0;
}

void pd__swap_trailer(struct pd_reader *r, uint8_t *rec, size_t size)
{
	const struct pd_evsel *e;

	if (pd__trailer_size(r, rec, size, true, &e))
		walk_trailer(rec, size, e->attr.sample_type, true, NULL);
}

void pd__swap_trailer_out(uint8_t *rec, size_t size, const struct pd_attr *a)
{
	walk_trailer(rec, size, a->sample_type, true, NULL);
}

void pd__decode_trailer(struct pd_event *ev, const struct pd_evsel *e)
{
	if (!e || !(e->attr.flags & PD_ATTR_SAMPLE_ID_ALL))
		return;
	walk_trailer((uint8_t *)ev->raw, ev->size, e->attr.sample_type, false,
		     &ev->sid);
}

bool pd__sample_stack_span(struct pd_reader *r, const uint8_t *rec,
			   size_t len, uint32_t *at, uint32_t *size)
{
	const struct pd_evsel *e = lookup(r, rec, len, true, false);
	uint32_t rsize = pd_get16(rec + 6, false);
	struct walk w = { (uint8_t *)rec + 8, (uint8_t *)rec + len, 0, false };
	uint64_t st, n;

	if (!e || !((st = e->attr.sample_type) & PD_SAMPLE_STACK_USER))
		return false;
	/* the fields before the stack, as walk_sample() reads them */
	w.p += 8 * (!!(st & PD_SAMPLE_IDENTIFIER) + !!(st & PD_SAMPLE_IP) +
		    !!(st & PD_SAMPLE_TID) + !!(st & PD_SAMPLE_TIME) +
		    !!(st & PD_SAMPLE_ADDR) + !!(st & PD_SAMPLE_ID) +
		    !!(st & PD_SAMPLE_STREAM_ID) + !!(st & PD_SAMPLE_CPU) +
		    !!(st & PD_SAMPLE_PERIOD));
	if (w.p > w.end)
		return false;
	if (st & PD_SAMPLE_READ) {
		n = read_words(&w, e->attr.read_format);
		if (n == UINT64_MAX || !u64_array(&w, n))
			return false;
	}
	if (st & PD_SAMPLE_CALLCHAIN) {
		n = u64(&w);
		if (!u64_array(&w, n))
			return false;
	}
	if (st & PD_SAMPLE_RAW) {
		if (!need(&w, 4))
			return false;
		n = pd_get32(w.p, false);
		w.p += 4;
		if (!bytes(&w, n))
			return false;
	}
	if (st & PD_SAMPLE_BRANCH_STACK) {
		n = u64(&w);
		if (e->attr.branch_sample_type & PD_BRANCH_HW_INDEX)
			u64(&w);
		if (n > len || !bytes(&w, 24 * n) ||
		    ((e->attr.branch_sample_type & PD_BRANCH_COUNTERS) &&
		     !u64_array(&w, n)))
			return false;
	}
	if ((st & PD_SAMPLE_REGS_USER) && u64(&w) &&
	    !u64_array(&w, __builtin_popcountll(e->attr.sample_regs_user)))
		return false;
	n = u64(&w);
	if (w.bad || !n)
		return false;
	*at = w.p - rec;
	/* the copy and its dyn_size within the record */
	if (n > rsize || *at + n + 8 > rsize)
		return false;
	*size = n;
	return true;
}

bool pd__record_time(struct pd_reader *r, const uint8_t *rec, size_t size,
		     uint64_t *time)
{
	uint32_t type = pd_get32(rec, false);
	const struct pd_evsel *e;
	struct pd_sample_id sid;
	uint64_t st;
	size_t pos;

	if (type == PD_RECORD_SAMPLE) {
		e = lookup(r, rec, size, true, false);
		if (!e || !((st = e->attr.sample_type) & PD_SAMPLE_TIME))
			return false;
		pos = 8 + 8 * (!!(st & PD_SAMPLE_IDENTIFIER) +
			       !!(st & PD_SAMPLE_IP) + !!(st & PD_SAMPLE_TID));
		if (pos + 8 > size)
			return false;
		*time = pd_get64(rec + pos, false);
		return true;
	}
	if (!pd__trailer_size(r, rec, size, false, &e) ||
	    !(e->attr.sample_type & PD_SAMPLE_TIME))
		return false;
	walk_trailer((uint8_t *)rec, size, e->attr.sample_type, false, &sid);
	*time = sid.time;
	return true;
}
