// SPDX-License-Identifier: MIT
/*
 * Reading ahead (pd_reader__read_ahead()): a thread of its own reads the
 * records, takes them out of compressed data and puts them in time order
 * (pd__next_raw()), and hands copies of them over in batches, undecoded;
 * pd_reader__next() (reader-next.c) decodes each on the caller's thread
 * as it returns it.
 * The thread's messages and errors travel with the records and reach the
 * caller after the records before them, as without the thread. It stops
 * before a record whose reading changes what the reader tells its caller
 * (pd__ahead_stops_at()), and the caller's thread reads on from there.
 * A few batches at most are in flight: memory stays flat.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader-state.h"

#define BATCH_SIZE	(256 * 1024)
#define MAX_BATCHES	8

enum entry_kind { ENTRY_RECORD, ENTRY_LOG, ENTRY_END };

struct entry {
	uint32_t kind;
	uint32_t size;		/* record or message bytes */
	uint32_t flags;		/* RECORD: its source's; LOG: the level */
	int32_t ret;		/* END: what pd__next_raw() returned */
	uint64_t offset, inner_offset;
	struct pd_logger *log;	/* LOG: whose message */
	/* RECORD: the record and 8 zero bytes (as order.c leaves them);
	 * LOG: the message and its NUL */
	_Alignas(8) uint8_t data[];
};

struct batch {
	struct batch *next;
	size_t len, pos;
	_Alignas(8) uint8_t data[BATCH_SIZE];
};

struct pd_ahead {
	struct pd_reader *r;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t filled;		/* a batch to read, or ended */
	pthread_cond_t freed;		/* a batch free again, or stop */
	struct batch *full_head, *full_tail;
	struct batch *free_list;
	unsigned int nr_batches;	/* allocated */
	bool stop;			/* the caller's: end now */
	bool ended;			/* the thread's: no more batches */
	int end_ret;			/* ... and what it ended with */
	/* the thread's */
	struct batch *fill;
	struct pd_log_divert divert;
	struct pd_error_divert error_divert;
	bool error;			/* errmsg holds its error */
	char errmsg[sizeof(((struct pd_reader *)0)->errmsg)];
	/* the caller's: the batch read, valid until the next call */
	struct batch *cur;
};

static size_t entry_space(size_t size)
{
	return (sizeof(struct entry) + size + 8 + 7) & ~(size_t)7;
}

/* cur to the caller, a free batch (or a new one) as fill: 0, or -1 when
 * told to stop or out of memory */
static int next_fill(struct pd_ahead *a)
{
	struct batch *b = a->fill;
	bool stopping;

	pthread_mutex_lock(&a->lock);
	if (b && b->len) {
		b->next = NULL;
		if (a->full_tail)
			a->full_tail->next = b;
		else
			a->full_head = b;
		a->full_tail = b;
		pthread_cond_signal(&a->filled);
		b = NULL;
	}
	if (!b) {
		while (!a->free_list && a->nr_batches >= MAX_BATCHES &&
		       !a->stop)
			pthread_cond_wait(&a->freed, &a->lock);
		b = a->free_list;
		if (b)
			a->free_list = b->next;
		else if (!a->stop)
			a->nr_batches++;
	}
	stopping = a->stop;
	if (stopping && b) {
		b->next = a->free_list;
		a->free_list = b;
		b = NULL;
	}
	pthread_mutex_unlock(&a->lock);
	a->fill = NULL;
	if (stopping)
		return -1;
	if (!b) {
		b = malloc(sizeof(*b));
		if (!b) {
			pthread_mutex_lock(&a->lock);
			a->nr_batches--;
			pthread_mutex_unlock(&a->lock);
			return -1;
		}
	}
	b->len = 0;
	b->pos = 0;
	a->fill = b;
	return 0;
}

/* room for an entry with size bytes of data, or NULL */
static struct entry *add_entry(struct pd_ahead *a, enum entry_kind kind,
			       size_t size)
{
	size_t need = entry_space(size);
	struct entry *e;

	if ((!a->fill || a->fill->len + need > BATCH_SIZE) && next_fill(a))
		return NULL;
	e = (struct entry *)(a->fill->data + a->fill->len);
	a->fill->len += need;
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->size = (uint32_t)size;
	return e;
}

static bool divert_log(void *ctx, struct pd_logger *l,
		       enum pd_log_level level, const char *msg)
{
	struct pd_ahead *a = ctx;
	size_t len = strlen(msg);
	struct entry *e = add_entry(a, ENTRY_LOG, len + 1);

	/* (stopping or out of memory: given at once) */
	if (!e)
		return false;
	e->flags = (uint32_t)level;
	e->log = l;
	memcpy(e->data, msg, len + 1);
	return true;
}

/* an error on the thread: the first is kept for the caller (finish()) */
static bool divert_error(void *ctx, struct pd_reader *r, const char *msg)
{
	struct pd_ahead *a = ctx;

	if (a->r != r)
		return false;
	if (!a->error) {
		snprintf(a->errmsg, sizeof(a->errmsg), "%s", msg);
		a->error = true;
	}
	return true;
}

static void end(struct pd_ahead *a, int ret)
{
	struct entry *e = add_entry(a, ENTRY_END, 0);

	if (e)
		e->ret = ret;
	if (a->fill && a->fill->len)
		next_fill(a);
	pthread_mutex_lock(&a->lock);
	a->ended = true;
	/* no END entry (out of memory): the caller sees this */
	a->end_ret = e ? 0 : -ENOMEM;
	pthread_cond_signal(&a->filled);
	pthread_mutex_unlock(&a->lock);
}

static void *ahead_thread(void *arg)
{
	struct pd_ahead *a = arg;
	struct pd_reader *r = a->r;

	pthread_setname_np(pthread_self(), "pd-read-ahead");
	a->error_divert.fn = divert_error;
	a->error_divert.ctx = a;
	pd__error_divert = &a->error_divert;
	a->divert.fn = divert_log;
	a->divert.ctx = a;
	pd__log_divert = &a->divert;
	for (;;) {
		struct pd_raw_src src;
		const uint8_t *rec;
		struct entry *e;
		uint32_t size;
		int ret = pd__next_raw(r, &rec, &src);

		if (ret != 1) {
			end(a, ret);
			break;
		}
		size = pd_get16(rec + 6, false);
		e = add_entry(a, ENTRY_RECORD, size);
		if (!e) {
			end(a, -ENOMEM);
			break;
		}
		e->flags = src.flags;
		e->offset = src.offset;
		e->inner_offset = src.inner_offset;
		if (rec == r->read_back && r->read_head <= r->read_tail &&
		    r->read_tail <= size) {
			/* a sample read in part: that part (most of its
			 * stack copy was never read) */
			memcpy(e->data, rec, r->read_head);
			memcpy(e->data + r->read_tail, rec + r->read_tail,
			       size - r->read_tail);
		} else {
			memcpy(e->data, rec, size);
		}
		r->read_back = NULL;
		memset(e->data + size, 0, 8);
	}
	pd__log_divert = NULL;
	pd__error_divert = NULL;
	return NULL;
}

static void free_list(struct batch *b)
{
	while (b) {
		struct batch *next = b->next;

		free(b);
		b = next;
	}
}

/* The thread told to stop and ended; a freed, the reader reads alone. */
static void stop(struct pd_reader *r, struct pd_ahead *a)
{
	pthread_mutex_lock(&a->lock);
	a->stop = true;
	pthread_cond_signal(&a->freed);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	free(a->cur);
	free(a->fill);
	free_list(a->full_head);
	free_list(a->free_list);
	pthread_cond_destroy(&a->freed);
	pthread_cond_destroy(&a->filled);
	pthread_mutex_destroy(&a->lock);
	r->ahead = NULL;
	r->ahead_stop = false;
}

void pd__ahead_free(struct pd_reader *r)
{
	struct pd_ahead *a = r->ahead;

	if (!a)
		return;
	stop(r, a);
	free(a);
}

/* The thread ended with ret: its error is the reader's now. */
static int finish(struct pd_reader *r, int ret)
{
	struct pd_ahead *a = r->ahead;

	stop(r, a);
	/* stopped before a record: the caller's thread reads it, then the
	 * thread may go on (pd_reader__next()) */
	if (ret != PD__AHEAD_STOP)
		r->ahead_wanted = false;
	if (a->error)
		memcpy(r->errmsg, a->errmsg, sizeof(a->errmsg));
	if (a->error || r->ahead_failed)
		r->failed = true;
	r->ahead_failed = false;
	free(a);
	return ret;
}

int pd__ahead_next(struct pd_reader *r, const uint8_t **rec,
		   struct pd_raw_src *src)
{
	struct pd_ahead *a = r->ahead;

	for (;;) {
		struct batch *b = a->cur;

		while (b && b->pos < b->len) {
			struct entry *e = (struct entry *)(b->data + b->pos);

			b->pos += entry_space(e->size);
			switch (e->kind) {
			case ENTRY_RECORD:
				src->offset = e->offset;
				src->inner_offset = e->inner_offset;
				src->flags = e->flags;
				*rec = e->data;
				return 1;
			case ENTRY_LOG:
				pd__log(e->log, (enum pd_log_level)e->flags,
					"%s", (const char *)e->data);
				break;
			default:
				return finish(r, e->ret);
			}
		}
		/* the last record's event is done with: the batch goes back */
		pthread_mutex_lock(&a->lock);
		if (b) {
			b->next = a->free_list;
			a->free_list = b;
			pthread_cond_signal(&a->freed);
		}
		a->cur = NULL;
		while (!a->full_head && !a->ended)
			pthread_cond_wait(&a->filled, &a->lock);
		b = a->full_head;
		if (b) {
			a->full_head = b->next;
			if (!a->full_head)
				a->full_tail = NULL;
		}
		pthread_mutex_unlock(&a->lock);
		if (!b)
			return finish(r, a->end_ret);
		a->cur = b;
	}
}

int pd__ahead_start(struct pd_reader *r)
{
	struct pd_ahead *a;
	int err;

	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->r = r;
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->filled, NULL);
	pthread_cond_init(&a->freed, NULL);
	r->ahead = a;
	r->ahead_stop = true;
	r->ahead_passed = false;
	err = pthread_create(&a->thread, NULL, ahead_thread, a);
	if (err) {
		r->ahead = NULL;
		r->ahead_stop = false;
		pthread_cond_destroy(&a->freed);
		pthread_cond_destroy(&a->filled);
		pthread_mutex_destroy(&a->lock);
		free(a);
		return -err;
	}
	return 0;
}

PD_EXPORT int pd_reader__read_ahead(struct pd_reader *r)
{
	int err;

	if (r->ahead)
		return 0;
	if (r->failed)
		return -EINVAL;
	/* a pipe's records read ahead for its header: read on the caller's
	 * thread (as AUXTRACE records are, with the AUX data that follows
	 * them: the thread stops before each) */
	if (r->hdr.mode == PD_MODE_PIPE || r->queue_head || r->held)
		return -ENOTSUP;
	/* (read on the thread from its start) */
	r->ahead_wanted = true;
	err = pd__ahead_start(r);
	if (err)
		r->ahead_wanted = false;
	return err;
}
