// SPDX-License-Identifier: MIT
/*
 * waiter: off-CPU time in known functions. Each round, wait_long sleeps
 * three times as long as wait_short (default 60 ms and 20 ms, 3
 * rounds). Both sleep through nap(), which makes the nanosleep system
 * call itself (inline asm, x86_64), so that a frame-pointer callchain
 * taken in the kernel walks nap > wait_long|wait_short > run > main
 * without a libc function lacking a frame in between.
 *
 * It prints, on stderr, the nanoseconds each function spent in its
 * calls (clock_gettime around them): what an off-CPU profile of it must
 * find. Arguments: rounds, milliseconds of wait_short.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

static unsigned long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

NOINLINE void nap(long ms)
{
	struct timespec t = { ms / 1000, ms % 1000 * 1000000L };
#if defined(__x86_64__)
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(35L), "D"(&t), "S"(0L)	/* SYS_nanosleep */
			 : "rcx", "r11", "memory");
	(void)ret;
#else
	nanosleep(&t, NULL);
#endif
}

/* the empty asm after each call keeps it a call, not a tail jump */
NOINLINE void wait_long(long ms)
{
	nap(3 * ms);
	__asm__ volatile("" ::: "memory");
}

NOINLINE void wait_short(long ms)
{
	nap(ms);
	__asm__ volatile("" ::: "memory");
}

static unsigned long long t_long, t_short;

NOINLINE void run(int rounds, long ms)
{
	unsigned long long t;
	int i;

	for (i = 0; i < rounds; i++) {
		t = now_ns();
		wait_long(ms);
		t_long += now_ns() - t;
		t = now_ns();
		wait_short(ms);
		t_short += now_ns() - t;
	}
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3;
	long ms = argc > 2 ? atol(argv[2]) : 20;

	run(rounds, ms);
	fprintf(stderr, "wait_long %llu\nwait_short %llu\n", t_long, t_short);
	return 0;
}
