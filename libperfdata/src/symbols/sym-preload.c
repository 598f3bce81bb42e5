// SPDX-License-Identifier: MIT
/*
 * Files loaded ahead of their first lookup (pd_session__preload_symbols):
 * a thread of its own loads them in the order given, each into a pd_dso
 * no other thread sees. A lookup takes its DSO from here, waiting if the
 * thread is loading it; one the thread has not begun is the lookup's to
 * load, as without a preload, and the thread skips it. A load reads
 * nothing the symbolizer changes once started (its directories and
 * options), so the symbols are the same whichever thread loads them; one
 * that would do more (ask a debuginfod server, leave something to warn
 * of) is not taken: the lookup loads the file again and does all of it.
 */
#include <errno.h>
#include <gelf.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sym-internal.h"

enum item_state { ITEM_QUEUED, ITEM_LOADING, ITEM_LOADED, ITEM_TAKEN };

struct preload_item {
	struct pd_dso *d;	/* NULL once taken */
	enum item_state state;
	bool ok;		/* loaded as a lookup would have */
};

struct sym_preload {
	struct pd_symbolizer *s;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t loaded;
	struct preload_item *items;
	size_t nr;
	bool stop;
};

/* d loaded as a lookup would load it, warning of nothing */
static bool load_one(struct pd_symbolizer *s, struct pd_dso *d)
{
	if (d->kind == PD_DSO_KERNEL)
		return !sym_kernel_kallsyms(s, d) && d->loaded;
	d->preloading = true;
	if (sym_elf__load(d))
		return false;
	d->preloading = false;
	return d->loaded && !d->preload_gave_up;
}

static void *preload_thread(void *arg)
{
	struct sym_preload *p = arg;
	size_t i = 0;

	pthread_setname_np(pthread_self(), "pd-sym-preload");
	for (;;) {
		struct preload_item *it;
		bool ok;

		pthread_mutex_lock(&p->lock);
		while (i < p->nr && p->items[i].state != ITEM_QUEUED)
			i++;
		if (p->stop || i >= p->nr) {
			pthread_mutex_unlock(&p->lock);
			return NULL;
		}
		it = &p->items[i];
		it->state = ITEM_LOADING;
		pthread_mutex_unlock(&p->lock);
		ok = load_one(p->s, it->d);
		pthread_mutex_lock(&p->lock);
		it->ok = ok;
		it->state = ITEM_LOADED;
		pthread_cond_broadcast(&p->loaded);
		pthread_mutex_unlock(&p->lock);
	}
}

/*
 * Whether a load could ask a debuginfod server: as sym_debuginfod()
 * decides, but without making its client (nor its warnings) here.
 */
static bool remote_possible(const struct pd_symbolizer *s)
{
	if (s->opts.no_debuginfod)
		return false;
	if (s->debuginfod_tried)
		return s->debuginfod != NULL;
	return getenv("DEBUGINFOD_URLS") != NULL;
}

static void free_items(struct sym_preload *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		if (p->items[i].d)
			sym_dso__free(p->items[i].d);
	free(p->items);
}

int sym_preload__start(struct pd_symbolizer *s,
		       const struct sym_preload_req *v, size_t n)
{
	struct sym_preload *p;
	bool remote = remote_possible(s);
	size_t i;
	int err;

	/*
	 * Not with an archive (its manifest changes the keys), once only.
	 * The kernel only from kallsyms: a vmlinux load depends on the map
	 * that asks, a symfs without --kallsyms loads nothing.
	 */
	if (s->preload || s->archive || !n)
		return 0;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->s = s;
	p->items = calloc(n, sizeof(*p->items));
	if (!p->items) {
		free(p);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		struct pd_dso *d;
		size_t size = v[i].build_id_size;

		if (v[i].kind == PD_DSO_KERNEL &&
		    (s->vmlinux || (s->symfs && !s->kallsyms)))
			continue;
		if (v[i].kind != PD_DSO_KERNEL && v[i].kind != PD_DSO_ELF)
			continue;
		if (!v[i].build_id)
			size = 0;
		if (size > PD_BUILD_ID_MAX)
			size = PD_BUILD_ID_MAX;
		d = sym_dso__alloc(s, v[i].kind, v[i].path);
		if (!d) {
			free_items(p);
			free(p);
			return -ENOMEM;
		}
		if (size) {
			memcpy(d->build_id, v[i].build_id, size);
			d->build_id_size = size;
			d->key_build_id_size = size;
			d->has_build_id = true;
		}
		d->preload_remote = remote;
		p->items[p->nr++].d = d;
	}
	if (!p->nr) {
		free_items(p);
		free(p);
		return 0;
	}
	/* libelf's one-time setup, before two threads may ask for it */
	elf_version(EV_CURRENT);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->loaded, NULL);
	err = pthread_create(&p->thread, NULL, preload_thread, p);
	if (err) {
		pthread_cond_destroy(&p->loaded);
		pthread_mutex_destroy(&p->lock);
		free_items(p);
		free(p);
		return -err;
	}
	s->preload = p;
	return 0;
}

static bool same_key(const struct pd_dso *d, enum pd_dso_kind kind,
		     const char *path, const uint8_t *bid, size_t size)
{
	return d->kind == kind && d->key_build_id_size == size &&
	       (!size || !memcmp(d->build_id, bid, size)) &&
	       !strcmp(d->path, path);
}

struct pd_dso *sym_preload__take(struct pd_symbolizer *s,
				 enum pd_dso_kind kind, const char *path,
				 const uint8_t *build_id, size_t build_id_size)
{
	struct sym_preload *p = s->preload;
	struct pd_dso *d = NULL, *dropped = NULL;
	size_t i;

	if (!p)
		return NULL;
	if (!build_id)
		build_id_size = 0;
	pthread_mutex_lock(&p->lock);
	for (i = 0; i < p->nr; i++) {
		struct preload_item *it = &p->items[i];

		if (it->state == ITEM_TAKEN ||
		    !same_key(it->d, kind, path, build_id, build_id_size))
			continue;
		while (it->state == ITEM_LOADING)
			pthread_cond_wait(&p->loaded, &p->lock);
		if (it->state == ITEM_LOADED && it->ok)
			d = it->d;
		else if (it->state == ITEM_LOADED)
			dropped = it->d;
		else	/* not begun: the thread leaves it to the lookup */
			sym_dso__free(it->d);
		it->d = NULL;
		it->state = ITEM_TAKEN;
		break;
	}
	pthread_mutex_unlock(&p->lock);
	sym_dso__free(dropped);
	return d;
}

void sym_preload__free(struct pd_symbolizer *s)
{
	struct sym_preload *p = s->preload;

	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	pthread_cond_destroy(&p->loaded);
	pthread_mutex_destroy(&p->lock);
	free_items(p);
	free(p);
	s->preload = NULL;
}
