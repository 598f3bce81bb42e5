/* SPDX-License-Identifier: MIT */
/*
 * Buffered, streaming input over a file descriptor: a window of the input
 * is held in memory, never the whole input. Seekable inputs are read with
 * pread() at explicit offsets; streams with read(), moving forward only.
 */
#ifndef PD_INPUT_H
#define PD_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PD_INPUT_BUF_SIZE	(256 * 1024)
/* Largest single object (a tracing data blob) the reader loads at once. */
#define PD_INPUT_MAX_OBJECT	(512ULL * 1024 * 1024)
/*
 * The first sparse read after a skip: a record's header and the start of
 * its body (a sample's fields before its stack copy); each next one reads
 * twice as much, for the runs of small records that follow some samples
 */
#define PD_INPUT_SPARSE_READ	(1 * 1024)
/* sparse reads after a skip, before reads fill the buffer again */
#define PD_INPUT_SPARSE_RUN	16
/* what sparse reading asks the kernel to read ahead, at a time */
#define PD_INPUT_ADVISE_AHEAD	(8 * 1024 * 1024)

struct pd_input {
	int fd;
	bool seekable;
	uint64_t size;		/* size of a regular file, else 0 */
	uint8_t *buf;
	size_t cap;
	size_t start, end;	/* valid bytes are buf[start, end) */
	uint64_t pos;		/* input offset of buf[start] */
	bool eof;
	/*
	 * Reads ask for what is needed and a little more, not a buffer's
	 * worth, this many times more: set by pd_input_skip(), where what
	 * follows is likely skipped too (the reader leaves large records
	 * in the file until they are delivered, order.c)
	 */
	unsigned int sparse;
	size_t sparse_len;	/* the next sparse read's; doubles each read */
	uint64_t advised;	/* the file is asked to be read ahead to here */
	/*
	 * advise: skips ask the kernel to read ahead (the last sparse read
	 * found bytes not in the page cache, or none was made yet); probe:
	 * sparse reads can tell (RWF_NOWAIT works on this file)
	 */
	bool advise, probe;
};

int pd_input_init(struct pd_input *in, int fd);
void pd_input_release(struct pd_input *in);

ssize_t pd__input_fill_more(struct pd_input *in, size_t n);

/*
 * Make n bytes available at the current position. Returns the number of
 * bytes available (less than n only at end of input) or a negative errno.
 * (Twice a record: inline while the buffer holds them.)
 */
static inline ssize_t pd_input_fill(struct pd_input *in, size_t n)
{
	if (in->end - in->start >= n)
		return (ssize_t)n;
	return pd__input_fill_more(in, n);
}

static inline const uint8_t *pd_input_ptr(const struct pd_input *in)
{
	return in->buf + in->start;
}

static inline void pd_input_consume(struct pd_input *in, size_t n)
{
	in->start += n;
	in->pos += n;
}

/*
 * Move to offset off: any offset for seekable inputs, only forward for
 * streams (skipped bytes are read and dropped). Returns 0, a negative
 * errno, or -PD_ERR_TRUNCATED when a stream ends before off.
 */
int pd_input_seek(struct pd_input *in, uint64_t off);
/*
 * pd_input_seek() forward on a seekable input, where the bytes passed
 * are not wanted now: the next read is a small one.
 */
int pd_input_skip(struct pd_input *in, uint64_t off);

/* Read exactly len bytes at off (seekable inputs only). */
int pd_input_pread(struct pd_input *in, void *dst, size_t len, uint64_t off);

/*
 * Copy a non-seekable input into an unlinked temporary file and read that
 * instead, for file-mode data arriving on a pipe. Only before anything
 * was consumed. Returns the new fd, which the caller closes.
 */
int pd_input_spool(struct pd_input *in);

#endif /* PD_INPUT_H */
