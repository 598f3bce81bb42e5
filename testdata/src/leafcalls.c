// SPDX-License-Identifier: MIT
/*
 * leafcalls: an aarch64 program without a C library (its own _start and
 * system calls), so that a static build is a few KB and every function
 * in it is compiled with the flags under test (with
 * -mbranch-protection=pac-ret, every return address it pushes is
 * signed). Built and recorded in an arm64 guest: tests/arm64/.
 *
 *   _start > start_c > main > run > descend (6 deep) > via_a > spin (leaf)
 *   _start > start_c > main > run > descend (6 deep) > via_b > spin (leaf)
 *   _start > start_c > main > run > syscalls > ask_pid > sys_getpid (leaf)
 *   _start > start_c > main > run > syscalls > from_zero > sys_read (leaf)
 *   _start > start_c > main > run > syscalls > to_null > sys_write (leaf)
 *
 * The leaves push no frame record (gcc omits leaf frames on aarch64 even
 * with -fno-omit-frame-pointer), so a frame-pointer walk from them skips
 * their caller unless the link register names it: via_a and via_b share
 * spin, ask_pid, from_zero and to_null each own one system call leaf.
 * The argument is the run time in milliseconds (default 300), measured
 * with clock_gettime(CLOCK_MONOTONIC) system calls.
 */
#define NOINLINE __attribute__((noinline))
/* code after a call keeps it a call, not a tail jump that drops a frame */
#define NO_TAIL_CALL() __asm__ __volatile__("" ::: "memory")

#define SYS_openat 56
#define SYS_close 57
#define SYS_read 63
#define SYS_write 64
#define SYS_exit_group 94
#define SYS_clock_gettime 113
#define SYS_getpid 172
#define AT_FDCWD (-100)
#define O_RDONLY 0
#define O_WRONLY 1
#define CLOCK_MONOTONIC 1

struct timespec_k {
	long tv_sec;
	long tv_nsec;
};

static char buf[4096];
static volatile unsigned long sink;

/*
 * A system call: a macro, not a function, so that no inline frames come
 * with it (the functions here are all out of line: unwinders, perf's
 * inline frames and the folding of stacks see the same frames)
 */
#define SVC3(nr, a, b, c) ({						\
	register long x8_ __asm__("x8") = (nr);				\
	register long x0_ __asm__("x0") = (long)(a);			\
	register long x1_ __asm__("x1") = (long)(b);			\
	register long x2_ __asm__("x2") = (long)(c);			\
									\
	__asm__ __volatile__("svc #0"					\
			     : "+r"(x0_)				\
			     : "r"(x8_), "r"(x1_), "r"(x2_)		\
			     : "memory");				\
	x0_;								\
})

/* the system call leaves: out of line, like a C library's wrappers */
NOINLINE long sys_getpid(void)
{
	return SVC3(SYS_getpid, 0, 0, 0);
}

NOINLINE long sys_read(int fd, void *p, unsigned long n)
{
	return SVC3(SYS_read, fd, (long)p, n);
}

NOINLINE long sys_write(int fd, const void *p, unsigned long n)
{
	return SVC3(SYS_write, fd, (long)p, n);
}

NOINLINE int sys_open(const char *path, int flags)
{
	return SVC3(SYS_openat, AT_FDCWD, (long)path, flags);
}

NOINLINE void sys_close(int fd)
{
	SVC3(SYS_close, fd, 0, 0);
}

NOINLINE void sys_exit(int code)
{
	for (;;)
		SVC3(SYS_exit_group, code, 0, 0);
}

NOINLINE long now_ms(void)
{
	struct timespec_k ts;

	SVC3(SYS_clock_gettime, CLOCK_MONOTONIC, (long)&ts, 0);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* the CPU leaf: a loop on a stack slot, no calls, no frame record */
NOINLINE void spin(unsigned long n)
{
	volatile unsigned long acc = sink;
	unsigned long i;

	for (i = 0; i < n; i++)
		acc = (acc ^ (acc >> 13)) * 0x9e3779b97f4a7c15UL + i;
	sink = acc;
}

NOINLINE void via_a(unsigned long n)
{
	spin(n);
	NO_TAIL_CALL();
}

NOINLINE void via_b(unsigned long n)
{
	spin(n / 2);
	NO_TAIL_CALL();
}

NOINLINE void descend(int depth, unsigned long n)
{
	if (depth > 0)
		descend(depth - 1, n);
	else if (n & 1)
		via_a(n);
	else
		via_b(n);
	NO_TAIL_CALL();
}

NOINLINE void ask_pid(void)
{
	sink += sys_getpid();
	NO_TAIL_CALL();
}

NOINLINE void from_zero(int fd)
{
	sink += sys_read(fd, buf, sizeof(buf));
	NO_TAIL_CALL();
}

NOINLINE void to_null(int fd)
{
	sink += sys_write(fd, buf, sizeof(buf));
	NO_TAIL_CALL();
}

NOINLINE void syscalls(int zero, int null)
{
	int i;

	for (i = 0; i < 8; i++) {
		ask_pid();
		from_zero(zero);
		to_null(null);
	}
	NO_TAIL_CALL();
}

NOINLINE void run(long ms)
{
	int zero = sys_open("/dev/zero", O_RDONLY);
	int null = sys_open("/dev/null", O_WRONLY);
	long end = now_ms() + ms;
	unsigned long round = 0;

	if (zero < 0 || null < 0)
		sys_exit(1);
	while (now_ms() < end) {
		descend(6, 20001 + (round++ & 1));
		syscalls(zero, null);
	}
	sys_close(zero);
	sys_close(null);
	NO_TAIL_CALL();
}

NOINLINE long parse_ms(const char *s)
{
	long v = 0;

	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	return v;
}

NOINLINE int main(int argc, char **argv)
{
	run(argc > 1 ? parse_ms(argv[1]) : 300);
	return 0;
}

/* called by _start with the initial stack: argc, then argv[] */
NOINLINE void start_c(long *sp)
{
	int code = main((int)sp[0], (char **)(sp + 1));

	sys_exit(code);
	NO_TAIL_CALL();
}

/*
 * The outermost frame: no caller (x29 = 0 ends frame-pointer walks, an
 * undefined x30 ends DWARF unwinding), as in a C library's _start.
 */
__asm__(".text\n"
	".globl _start\n"
	".type _start, %function\n"
	"_start:\n"
	".cfi_startproc\n"
	".cfi_undefined x30\n"
	"	mov x29, #0\n"
	"	mov x30, #0\n"
	"	mov x0, sp\n"
	"	bl start_c\n"
	"	brk #0\n"
	".cfi_endproc\n"
	".size _start, . - _start\n");
