// SPDX-License-Identifier: MIT
/*
 * pd-fold's folding thread (fold-ahead.h). The samples travel in batches
 * of a fixed size, a few at most in flight: the reading thread waits for
 * a free one when the folding thread lags, so memory stays flat however
 * long the input.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cli.h"
#include "fold-ahead.h"
#include "script-text.h"

/*
 * 256 KiB: each hand-over may wake the other thread, and on a 2-CPU
 * machine every wake-up is a context switch (64 KiB batches made about
 * three times as many, a few ms of a 60 ms run); 8 of them, 2 MiB, is
 * still flat memory
 */
#define BATCH_SIZE	(256 * 1024)
#define MAX_BATCHES	8
/* longest line the folding thread formats (as fold-data.c's) */
#define LINE_SIZE	8192

enum item_kind { ITEM_FIELDS, ITEM_TEXT, ITEM_FRAMES, ITEM_END, ITEM_SAMPLE };

struct item {
	uint32_t kind;
	uint32_t size;		/* payload bytes after the item */
};

/* what script_text__frame() and the folder's memo read of a frame */
struct ahead_frame {
	uint64_t ip, addr;
	const struct pd_sym *sym;
	const char *dso_name;
	const char *inline_name;
	bool kernel;
};

/* an ITEM_SAMPLE's payload: this, the header's fields if has_fields,
 * then nr frames; the whole sample in one item */
struct sample_head {
	uint32_t has_fields;
	uint32_t nr;
};

struct batch {
	struct batch *next;
	size_t len;
	_Alignas(8) uint8_t data[BATCH_SIZE];
};

struct fold_ahead {
	struct folder *f;
	struct fold_script_parser *p;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t filled;		/* a batch to fold, or done */
	pthread_cond_t freed;		/* a batch free again */
	struct batch *full_head, *full_tail;	/* to fold, in order */
	struct batch *free_list;
	unsigned int nr_batches;	/* allocated */
	bool done;
	struct batch *cur;		/* the reading thread's */
	char line[LINE_SIZE];		/* the folding thread's */
};

bool fold_ahead__wanted(bool apt)
{
	const char *e = getenv("PD_FOLD_THREADS");

	/* (the variable decides even where the thread is not apt) */
	if (!(e && *e) && !apt)
		return false;
	return pd_cli_cpu_to_spare("PD_FOLD_THREADS");
}

static void copy_frames(struct ahead_frame *v, const struct pd_frame *frames,
			size_t n);

static void fold_frames(struct fold_ahead *a, const struct ahead_frame *v,
			size_t n)
{
	size_t i, len;

	for (i = 0; i < n; i++) {
		struct pd_frame fr = {
			.ip = v[i].ip,
			.addr = v[i].addr,
			.kernel = v[i].kernel,
			.sym = v[i].sym,
			.dso_name = v[i].dso_name,
			.inline_name = v[i].inline_name,
		};

		if (folder__replay(a->f, fr.sym, fr.dso_name, fr.inline_name))
			continue;
		len = script_text__frame(&fr, a->line, sizeof(a->line));
		folder__record_begin(a->f, fr.sym, fr.dso_name, fr.inline_name);
		fold_script_parser__line(a->p, a->line, len);
		folder__record_end(a->f);
	}
}

static void fold_batch(struct fold_ahead *a, const struct batch *b)
{
	size_t pos = 0;

	while (pos < b->len) {
		struct item it;
		const uint8_t *payload;

		memcpy(&it, b->data + pos, sizeof(it));
		payload = b->data + pos + sizeof(it);
		switch (it.kind) {
		case ITEM_FIELDS: {
			struct fold_sample smp;

			memcpy(&smp, payload, sizeof(smp));
			folder__begin(a->f, &smp);
			break;
		}
		case ITEM_TEXT:
			memcpy(a->line, payload, it.size);
			a->line[it.size] = '\0';
			fold_script_parser__line(a->p, a->line, it.size);
			break;
		case ITEM_FRAMES:
			fold_frames(a, (const struct ahead_frame *)payload,
				    it.size / sizeof(struct ahead_frame));
			break;
		case ITEM_END:
			a->line[0] = '\0';
			fold_script_parser__line(a->p, a->line, 0);
			break;
		case ITEM_SAMPLE: {
			struct sample_head h;
			struct fold_sample smp;

			memcpy(&h, payload, sizeof(h));
			payload += sizeof(h);
			if (h.has_fields) {
				memcpy(&smp, payload, sizeof(smp));
				payload += sizeof(smp);
				folder__begin(a->f, &smp);
			}
			fold_frames(a, (const struct ahead_frame *)payload,
				    h.nr);
			a->line[0] = '\0';
			fold_script_parser__line(a->p, a->line, 0);
			break;
		}
		}
		pos += sizeof(it) + ((it.size + 7) & ~(size_t)7);
	}
}

static void *folding_thread(void *arg)
{
	struct fold_ahead *a = arg;
	struct batch *b;

	/* its name in top -H and perf report --comm */
	pthread_setname_np(pthread_self(), "pd-fold-ahead");

	for (;;) {
		pthread_mutex_lock(&a->lock);
		while (!a->full_head && !a->done)
			pthread_cond_wait(&a->filled, &a->lock);
		b = a->full_head;
		if (b) {
			a->full_head = b->next;
			if (!a->full_head)
				a->full_tail = NULL;
		}
		pthread_mutex_unlock(&a->lock);
		if (!b)
			return NULL;	/* done, nothing left */
		fold_batch(a, b);
		pthread_mutex_lock(&a->lock);
		b->next = a->free_list;
		a->free_list = b;
		pthread_cond_signal(&a->freed);
		pthread_mutex_unlock(&a->lock);
	}
}

/* cur to the folding thread; a free batch (or a new one) as cur */
static int next_batch(struct fold_ahead *a)
{
	struct batch *b = a->cur;

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
		while (!a->free_list && a->nr_batches >= MAX_BATCHES)
			pthread_cond_wait(&a->freed, &a->lock);
		b = a->free_list;
		if (b)
			a->free_list = b->next;
		else
			a->nr_batches++;
	}
	pthread_mutex_unlock(&a->lock);
	if (!b) {
		b = malloc(sizeof(*b));
		if (!b) {
			pthread_mutex_lock(&a->lock);
			a->nr_batches--;
			pthread_mutex_unlock(&a->lock);
			a->cur = NULL;
			return -ENOMEM;
		}
	}
	b->len = 0;
	a->cur = b;
	return 0;
}

/* room for an item of size payload bytes in cur: where its payload goes */
static void *add_item(struct fold_ahead *a, enum item_kind kind, size_t size)
{
	size_t need = sizeof(struct item) + ((size + 7) & ~(size_t)7);
	struct item it = { .kind = kind, .size = (uint32_t)size };
	uint8_t *p;

	if (need > BATCH_SIZE)
		return NULL;
	if ((!a->cur || a->cur->len + need > BATCH_SIZE) && next_batch(a))
		return NULL;
	p = a->cur->data + a->cur->len;
	memcpy(p, &it, sizeof(it));
	a->cur->len += need;
	return p + sizeof(it);
}

struct fold_ahead *fold_ahead__new(struct folder *f,
				   struct fold_script_parser *p)
{
	struct fold_ahead *a = calloc(1, sizeof(*a));
	int err;

	if (!a)
		return NULL;
	a->f = f;
	a->p = p;
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->filled, NULL);
	pthread_cond_init(&a->freed, NULL);
	err = pthread_create(&a->thread, NULL, folding_thread, a);
	if (err) {
		pthread_cond_destroy(&a->freed);
		pthread_cond_destroy(&a->filled);
		pthread_mutex_destroy(&a->lock);
		free(a);
		errno = err;
		return NULL;
	}
	return a;
}

int fold_ahead__header_fields(struct fold_ahead *a,
			      const struct fold_sample *smp)
{
	void *p = add_item(a, ITEM_FIELDS, sizeof(*smp));

	if (!p)
		return -ENOMEM;
	memcpy(p, smp, sizeof(*smp));
	return 0;
}

int fold_ahead__header_text(struct fold_ahead *a, const char *line,
			    size_t len)
{
	void *p;

	if (len >= LINE_SIZE)
		len = LINE_SIZE - 1;
	p = add_item(a, ITEM_TEXT, len);
	if (!p)
		return -ENOMEM;
	memcpy(p, line, len);
	return 0;
}

int fold_ahead__frames(struct fold_ahead *a, const struct pd_frame *frames,
		       int n)
{
	/* frames per item: a batch holds the longest chain in pieces */
	const size_t per = (BATCH_SIZE / 2) / sizeof(struct ahead_frame);
	size_t done = 0, k;

	while (done < (size_t)n) {
		struct ahead_frame *v;

		k = (size_t)n - done < per ? (size_t)n - done : per;
		v = add_item(a, ITEM_FRAMES, k * sizeof(*v));
		if (!v)
			return -ENOMEM;
		copy_frames(v, frames + done, k);
		done += k;
	}
	return add_item(a, ITEM_END, 0) ? 0 : -ENOMEM;
}

static void copy_frames(struct ahead_frame *v, const struct pd_frame *frames,
			size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct pd_frame *fr = &frames[i];

		v[i] = (struct ahead_frame){
			.ip = fr->ip,
			.addr = fr->addr,
			.sym = fr->sym,
			.dso_name = fr->dso_name,
			.inline_name = fr->inline_name,
			.kernel = fr->kernel,
		};
	}
}

int fold_ahead__sample(struct fold_ahead *a, const struct fold_sample *smp,
		       const struct pd_frame *frames, int n)
{
	struct sample_head h = { .has_fields = smp != NULL, .nr = (uint32_t)n };
	size_t size = sizeof(h) + (smp ? sizeof(*smp) : 0) +
		      (size_t)n * sizeof(struct ahead_frame);
	uint8_t *p;

	/* a long chain: in pieces, as fold_ahead__frames() sends them */
	if (size > BATCH_SIZE / 2) {
		if (smp && fold_ahead__header_fields(a, smp))
			return -ENOMEM;
		return fold_ahead__frames(a, frames, n);
	}
	p = add_item(a, ITEM_SAMPLE, size);
	if (!p)
		return -ENOMEM;
	memcpy(p, &h, sizeof(h));
	p += sizeof(h);
	if (smp) {
		memcpy(p, smp, sizeof(*smp));
		p += sizeof(*smp);
	}
	copy_frames((struct ahead_frame *)p, frames, (size_t)n);
	return 0;
}

void fold_ahead__finish(struct fold_ahead *a)
{
	struct batch *b;

	if (!a)
		return;
	if (a->cur && a->cur->len)
		next_batch(a);
	pthread_mutex_lock(&a->lock);
	a->done = true;
	pthread_cond_signal(&a->filled);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	free(a->cur);
	while ((b = a->free_list)) {
		a->free_list = b->next;
		free(b);
	}
	pthread_cond_destroy(&a->freed);
	pthread_cond_destroy(&a->filled);
	pthread_mutex_destroy(&a->lock);
	free(a);
}
