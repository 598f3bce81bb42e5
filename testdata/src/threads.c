// SPDX-License-Identifier: MIT
/*
 * threads: three threads named "worker-a", "worker-b" and "worker-c",
 * each burning CPU for about 200 ms in its own function (work_a, work_b,
 * work_c), for per-thread (tid, comm, COMM record) tests. Each thread
 * names itself before it starts working.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

struct worker {
	const char *name;
	void (*fn)(void);
};

static volatile unsigned long sink;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* inlined into each work_* so that the samples land in distinct functions */
static inline __attribute__((always_inline)) void spin(double ms,
						       unsigned long k)
{
	double end = now_ms() + ms;
	unsigned long i;

	while (now_ms() < end)
		for (i = 0; i < 100000; i++)
			sink += i * k;
}

NOINLINE void work_a(void)
{
	spin(200, 3);
}

NOINLINE void work_b(void)
{
	spin(200, 5);
}

NOINLINE void work_c(void)
{
	spin(200, 7);
}

static void *thread_main(void *arg)
{
	const struct worker *w = arg;

	pthread_setname_np(pthread_self(), w->name);
	w->fn();
	return NULL;
}

int main(void)
{
	static const struct worker workers[] = {
		{ "worker-a", work_a },
		{ "worker-b", work_b },
		{ "worker-c", work_c },
	};
	pthread_t t[3];
	int i;

	for (i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, thread_main, (void *)&workers[i]);
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	return 0;
}
