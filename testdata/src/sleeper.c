// SPDX-License-Identifier: MIT
/*
 * sleeper: forks a child that execs /bin/true (FORK, COMM with exec,
 * EXIT records), sleeps, then burns a little CPU: scheduler tracepoints
 * and context switches fire.
 */
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static volatile unsigned long sink;

/* a volatile local: the work stays, and the leaf gets a stack frame */
NOINLINE void busy(void)
{
	volatile unsigned long acc = 0;
	unsigned long i;

	for (i = 0; i < 20000000; i++)
		acc += i;
	sink = acc;
}

int main(void)
{
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	pid_t pid = fork();
	int i;

	if (pid == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
	for (i = 0; i < 3; i++) {
		nanosleep(&nap, NULL);
		busy();
	}
	return 0;
}
