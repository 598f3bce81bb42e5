// SPDX-License-Identifier: MIT
/*
 * Large samples of a file read back from it (the reader leaves them
 * there until they are delivered: stream.c, order.c): whole, or, for a
 * caller that reads user stack copies only as far as the kernel filled
 * them (stack_used_only), the fields after the copy (its dyn_size first)
 * and the record up to the end of what was filled: 13 KiB of a 64 KiB
 * copy on average on a system-wide profile; or none of the copy for a
 * caller that never reads it (stack_unread).
 */
#include <string.h>

#include "reader-state.h"

/*
 * The record's first n bytes into data, from the have bytes of it the
 * input buffer holds (or data itself, where they were copied already)
 * and the rest from the file
 */
static int read_head(struct pd_reader *r, uint64_t off, uint8_t *data,
		     size_t n, const uint8_t *have, size_t have_len)
{
	if (have_len > n)
		have_len = n;
	/* (memcpy() takes no NULL, even for 0 bytes) */
	if (have_len && have != data)
		memcpy(data, have, have_len);
	if (have_len == n)
		return 0;
	return pd_input_pread(&r->in, data + have_len, n - have_len,
			      off + have_len);
}

/*
 * With the copy's tail (its dyn_size and the fields after it) in data
 * already: the record up to the end of what was filled (or of the
 * fields before the copy, stack_unread), and which part that is for the
 * read-ahead thread (r->read_back). 1 done, 0 not (a dyn_size larger
 * than the copy: the caller reads it whole), <0 error.
 */
static int read_to_filled(struct pd_reader *r, uint64_t off,
			  uint32_t stack_at, uint32_t stack_size,
			  uint8_t *data, const uint8_t *have, size_t have_len)
{
	uint32_t tail = stack_at + stack_size, head;
	uint64_t dyn = pd_get64(data + tail, false);
	int err;

	if (dyn > stack_size)
		return 0;
	head = stack_at + (r->opts.stack_unread ? 0 : (uint32_t)dyn);
	err = read_head(r, off, data, head, have, have_len);
	if (err)
		return err;
	r->read_back = data;
	r->read_head = head;
	r->read_tail = tail;
	return 1;
}

/*
 * err, what read_to_filled() returned, as 0 or <0: the record read whole
 * where its copy was not read as filled
 */
static int whole_unless_filled(struct pd_reader *r, int err, uint64_t off,
			       uint32_t size, uint8_t *data)
{
	/* (a dyn_size past the copy: read whole, for the decoder to report) */
	if (err == 0)
		return pd_input_pread(&r->in, data, size, off);
	return err > 0 ? 0 : err;
}

int pd__sample_read_back(struct pd_reader *r, uint64_t off, uint32_t size,
			 uint32_t stack_at, uint32_t stack_size, uint8_t *data,
			 const uint8_t *have, size_t have_len)
{
	uint32_t tail = stack_at + stack_size;
	int err = 0;

	r->read_back = NULL;
	if (stack_size) {
		err = pd_input_pread(&r->in, data + tail, size - tail,
				     off + tail);
		if (!err)
			err = read_to_filled(r, off, stack_at, stack_size,
					     data, have, have_len);
	}
	err = whole_unless_filled(r, err, off, size, data);
	if (err)
		/* the file changed under the reader since it was read */
		return pd__set_error(r, err, off,
				     "sample of %u bytes read again: %s",
				     size, pd_strerror(err));
	/* 8 spare bytes after the record, as the reader's own buffer has */
	memset(data + size, 0, 8);
	return 0;
}

int pd__sample_take_here(struct pd_reader *r, uint64_t off, uint32_t size,
			 uint32_t stack_at, uint32_t stack_size, uint8_t *data,
			 const uint8_t *have, size_t have_len)
{
	uint32_t tail = stack_at + stack_size;
	size_t keep = have_len < tail ? have_len : tail;
	ssize_t n;
	int err;

	r->read_back = NULL;
	/* (have is the input's buffer, which the read below reuses) */
	if (keep)
		memcpy(data, have, keep);
	err = pd_input_skip(&r->in, off + tail);
	if (!err) {
		n = pd_input_fill(&r->in, size - tail);
		err = n < 0 ? (int)n :
		      (size_t)n < size - tail ? -PD_ERR_TRUNCATED : 0;
	}
	if (!err) {
		memcpy(data + tail, pd_input_ptr(&r->in), size - tail);
		pd_input_consume(&r->in, size - tail);
		err = read_to_filled(r, off, stack_at, stack_size, data, data,
				     keep);
		err = whole_unless_filled(r, err, off, size, data);
	}
	if (err)
		return pd__set_error(r, err, off, "sample of %u bytes: %s",
				     size, pd_strerror(err));
	memset(data + size, 0, 8);
	return 0;
}
