// SPDX-License-Identifier: MIT
/*
 * pd_reader__next(): the next record as an event, decoded (record.c) on
 * the caller's thread, from the records the read-ahead thread read
 * (stream-ahead.c) while it runs, else from the record stream (stream.c).
 */
#include <string.h>

#include "reader-state.h"

/* Decodes rec (r->rec, or a queued record that stays put until the next
 * call) into r->ev. */
static int deliver_at(struct pd_reader *r, const uint8_t *rec,
		      const struct pd_raw_src *src, const struct pd_event **out)
{
	struct pd_event *ev = &r->ev;
	int err;

	memset(ev, 0, sizeof(*ev));
	ev->type = pd_get32(rec, false);
	ev->misc = pd_get16(rec + 4, false);
	ev->size = pd_get16(rec + 6, false);
	ev->flags = src->flags;
	ev->offset = src->offset;
	ev->inner_offset = src->inner_offset;
	ev->raw = rec;
	err = pd__decode_record(r, ev);
	if (err < 0)
		return err;
	*out = ev;
	return 1;
}

PD_EXPORT int pd_reader__next(struct pd_reader *r, const struct pd_event **out)
{
	struct pd_raw_src src;
	const uint8_t *rec;
	int ret;

	/* the read-ahead thread's records first, its end then ours */
	if (r->ahead) {
		ret = pd__ahead_next(r, &rec, &src);
		if (ret == 1)
			return deliver_at(r, rec, &src, out);
		if (ret != PD__AHEAD_STOP)
			return ret;
	}
	if (r->failed)
		return -PD_ERR_BAD_RECORD;
	/*
	 * the read-ahead thread on again past the record it stopped before
	 * (the caller is done with the event it made); a file of many such
	 * records is read here after a few
	 */
	if (r->ahead_wanted && r->ahead_passed && !r->held) {
		if (++r->nr_ahead_starts > 64 || pd__ahead_start(r))
			r->ahead_wanted = false;
		else
			return pd_reader__next(r, out);
	}
	ret = pd__next_raw(r, &rec, &src);
	if (ret <= 0)
		return ret;
	return deliver_at(r, rec, &src, out);
}
