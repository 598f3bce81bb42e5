// SPDX-License-Identifier: MIT
/*
 * threads: three named threads, each burning CPU in its own function,
 * for per-thread (tid, comm) tests. About 200 ms each.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

static volatile unsigned long sink;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void spin(double ms, unsigned long k)
{
	double end = now_ms() + ms;
	unsigned long i;

	while (now_ms() < end)
		for (i = 0; i < 100000; i++)
			sink += i * k;
}

NOINLINE void work_a(void) { spin(200, 3); }
NOINLINE void work_b(void) { spin(200, 5); }
NOINLINE void work_c(void) { spin(200, 7); }

static void *thread_main(void *arg)
{
	void (*fn)(void) = (void (*)(void))arg;

	fn();
	return NULL;
}

int main(void)
{
	static const char *const names[] = { "worker-a", "worker-b", "worker-c" };
	void (*const fns[])(void) = { work_a, work_b, work_c };
	pthread_t t[3];
	int i;

	for (i = 0; i < 3; i++) {
		pthread_create(&t[i], NULL, thread_main, (void *)fns[i]);
		pthread_setname_np(t[i], names[i]);
	}
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	return 0;
}
