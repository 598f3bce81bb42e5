// SPDX-License-Identifier: MIT
/*
 * syscalls: system calls in a loop, so that most samples are in the
 * kernel with deep kernel stacks under user frames: main > run >
 * from_zero (read(2) of /dev/zero into a 64 KiB buffer), to_null
 * (write(2) of it to /dev/null), ask_pid (the getpid system call) and
 * open_proc (open(2) and close(2) of /proc/self/stat: path walks).
 * Argument: milliseconds to run (default 300).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define BUF_SIZE (64 * 1024)

static char buf[BUF_SIZE];
static volatile long sink;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* the empty asm after each call keeps it a call (not a tail jump), so
 * the frame stays in frame-pointer callchains */
NOINLINE void from_zero(int fd)
{
	sink += read(fd, buf, sizeof(buf));
	__asm__ volatile("");
}

NOINLINE void to_null(int fd)
{
	sink += write(fd, buf, sizeof(buf));
	__asm__ volatile("");
}

NOINLINE void ask_pid(void)
{
	sink += syscall(SYS_getpid);
	__asm__ volatile("");
}

NOINLINE void open_proc(void)
{
	int fd = open("/proc/self/stat", O_RDONLY);

	if (fd >= 0)
		close(fd);
	__asm__ volatile("");
}

NOINLINE void run(double ms)
{
	int zero = open("/dev/zero", O_RDONLY);
	int null = open("/dev/null", O_WRONLY);
	double end = now_ms() + ms;
	int i;

	if (zero < 0 || null < 0)
		exit(1);
	while (now_ms() < end) {
		for (i = 0; i < 16; i++) {
			from_zero(zero);
			to_null(null);
			ask_pid();
			open_proc();
		}
	}
	close(zero);
	close(null);
	__asm__ volatile("");
}

int main(int argc, char **argv)
{
	run(argc > 1 ? atof(argv[1]) : 300);
	return 0;
}
