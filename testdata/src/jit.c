// SPDX-License-Identifier: MIT
/*
 * jit: a tiny JIT for the JIT-symbol tests. It copies three small x86_64
 * functions (machine code below, each with a frame) into anonymous
 * executable memory and calls them in a loop:
 *
 *   main -> run -> jit_outer -> jit::hot   (about three quarters)
 *   main -> run -> jit_outer -> jit_warm
 *
 * and describes them the two ways perf knows:
 *  - a jitdump, DIR/jit-PID.dump (perf's jitdump-specification.txt):
 *    header, one JIT_CODE_LOAD per function, a JIT_CODE_MOVE halfway
 *    through when jit_warm moves to a new address, JIT_CODE_CLOSE. The
 *    file is mapped PROT_EXEC first, so that `perf record -k 1` records
 *    its MMAP, which `perf inject --jit` looks for;
 *  - /tmp/perf-PID.map, one "START SIZE NAME" line per code address.
 * jit::hot is named "_ZN3jit3hotEm" in both: perf demangles it as an ELF
 * symbol of the jitted .so that perf inject makes, not in a perf map.
 *
 * Usage: jit [MS [DIR]]: run MS milliseconds (default 300), the dump in
 * DIR (default the working directory). Other architectures: exits 1.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define NO_TAIL_CALL() __asm__ __volatile__("" ::: "memory")

#define JIT_MAGIC	0x4A695444	/* "JiTD" */
#define JIT_CODE_LOAD	0
#define JIT_CODE_MOVE	1
#define JIT_CODE_CLOSE	3

/* uint64_t jit_outer(uint64_t n, uint64_t (*f)(uint64_t)): f(n) + 1 */
static const unsigned char code_outer[] = {
	0x55,				/* push %rbp */
	0x48, 0x89, 0xe5,		/* mov %rsp,%rbp */
	0xff, 0xd6,			/* call *%rsi */
	0x48, 0x83, 0xc0, 0x01,		/* add $1,%rax */
	0x5d,				/* pop %rbp */
	0xc3,				/* ret */
};

/* uint64_t hot(uint64_t n): n rounds of x = x * K + 1 (n > 0) */
static const unsigned char code_hot[] = {
	0x55,				/* push %rbp */
	0x48, 0x89, 0xe5,		/* mov %rsp,%rbp */
	0x48, 0x89, 0xf8,		/* mov %rdi,%rax */
	0x48, 0x69, 0xc0, 0x2d, 0x7f, 0x95, 0x4c, /* 1: imul $K,%rax,%rax */
	0x48, 0x83, 0xc0, 0x01,		/* add $1,%rax */
	0x48, 0x83, 0xef, 0x01,		/* sub $1,%rdi */
	0x75, 0xef,			/* jne 1b */
	0x5d,				/* pop %rbp */
	0xc3,				/* ret */
};

/* uint64_t warm(uint64_t n): the same with another round function */
static const unsigned char code_warm[] = {
	0x55,				/* push %rbp */
	0x48, 0x89, 0xe5,		/* mov %rsp,%rbp */
	0x48, 0x89, 0xf8,		/* mov %rdi,%rax */
	0x48, 0x69, 0xc0, 0x91, 0xf4, 0x45, 0x25, /* 1: imul $K,%rax,%rax */
	0x48, 0x83, 0xf0, 0x55,		/* xor $0x55,%rax */
	0x48, 0x83, 0xef, 0x01,		/* sub $1,%rdi */
	0x75, 0xef,			/* jne 1b */
	0x5d,				/* pop %rbp */
	0xc3,				/* ret */
};

/* where each function goes in the code pages */
#define OFF_OUTER	0x000
#define OFF_HOT		0x040
#define OFF_WARM	0x080
#define OFF_WARM_MOVED	0x1000		/* second page */
#define CODE_SIZE	0x2000

typedef uint64_t (*leaf_fn)(uint64_t);
typedef uint64_t (*outer_fn)(uint64_t, leaf_fn);

struct jit_header {
	uint32_t magic, version, total_size, elf_mach, pad1, pid;
	uint64_t timestamp, flags;
};

struct jit_prefix {
	uint32_t id, total_size;
	uint64_t timestamp;
};

struct jit_load {
	struct jit_prefix p;
	uint32_t pid, tid;
	uint64_t vma, code_addr, code_size, code_index;
};

struct jit_move {
	struct jit_prefix p;
	uint32_t pid, tid;
	uint64_t vma, old_code_addr, new_code_addr, code_size, code_index;
};

static volatile uint64_t sink;
static FILE *dump, *perf_map;

/* jitdump timestamps: CLOCK_MONOTONIC, what perf record -k 1 samples */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void put(const void *p, size_t n)
{
	if (fwrite(p, 1, n, dump) != n) {
		perror("jit: jitdump");
		exit(1);
	}
}

static void emit_load(const char *name, const void *addr, size_t size,
		      uint64_t index)
{
	struct jit_load r = {
		.p.id = JIT_CODE_LOAD,
		.p.total_size = sizeof(r) + strlen(name) + 1 + size,
		.p.timestamp = now_ns(),
		.pid = getpid(),
		.tid = syscall(SYS_gettid),
		.vma = (uintptr_t)addr,
		.code_addr = (uintptr_t)addr,
		.code_size = size,
		.code_index = index,
	};

	put(&r, sizeof(r));
	put(name, strlen(name) + 1);
	put(addr, size);
	fflush(dump);
	fprintf(perf_map, "%lx %zx %s\n", (unsigned long)(uintptr_t)addr, size,
		name);
	fflush(perf_map);
}

static void emit_move(const char *name, const void *from, const void *to,
		      size_t size, uint64_t index)
{
	struct jit_move r = {
		.p.id = JIT_CODE_MOVE,
		.p.total_size = sizeof(r),
		.p.timestamp = now_ns(),
		.pid = getpid(),
		.tid = syscall(SYS_gettid),
		.vma = (uintptr_t)to,
		.old_code_addr = (uintptr_t)from,
		.new_code_addr = (uintptr_t)to,
		.code_size = size,
		.code_index = index,
	};

	put(&r, sizeof(r));
	fflush(dump);
	fprintf(perf_map, "%lx %zx %s\n", (unsigned long)(uintptr_t)to, size,
		name);
	fflush(perf_map);
}

static double elapsed_ms(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1e3 + (t.tv_nsec - t0->tv_nsec) / 1e6;
}

NOINLINE static void run(unsigned char *code, long ms)
{
	outer_fn outer = (outer_fn)(void *)(code + OFF_OUTER);
	leaf_fn hot = (leaf_fn)(void *)(code + OFF_HOT);
	leaf_fn warm = (leaf_fn)(void *)(code + OFF_WARM);
	struct timespec t0;
	int moved = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (elapsed_ms(&t0) < ms) {
		if (!moved && elapsed_ms(&t0) >= ms / 2.0) {
			/* the JIT moves jit_warm's code (as a GC would) */
			emit_move("jit_warm", code + OFF_WARM,
				  code + OFF_WARM_MOVED, sizeof(code_warm), 2);
			warm = (leaf_fn)(void *)(code + OFF_WARM_MOVED);
			moved = 1;
		}
		sink += outer(300000, hot);
		sink += outer(100000, warm);
	}
	NO_TAIL_CALL();
}

int main(int argc, char **argv)
{
	struct jit_header h = {
		.magic = JIT_MAGIC,
		.version = 1,
		.total_size = sizeof(h),
		.elf_mach = EM_X86_64,
		.pid = getpid(),
	};
	struct jit_prefix close_rec = { .id = JIT_CODE_CLOSE,
					.total_size = sizeof(close_rec) };
	long ms = argc > 1 ? atol(argv[1]) : 300;
	const char *dir = argc > 2 ? argv[2] : ".";
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *code;
	char path[4096];
	void *marker;
	int fd;

#ifndef __x86_64__
	fprintf(stderr, "jit: x86_64 only\n");
	return 1;
#endif
	snprintf(path, sizeof(path), "%s/jit-%d.dump", dir, (int)getpid());
	fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
	if (fd < 0 || !(dump = fdopen(fd, "w+"))) {
		perror(path);
		return 1;
	}
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	perf_map = fopen(path, "w");
	if (!perf_map) {
		perror(path);
		return 1;
	}
	h.timestamp = now_ns();
	put(&h, sizeof(h));
	fflush(dump);
	/* the marker perf inject --jit looks for: an executable map of the
	 * dump, before any code (its later //anon maps are then dropped) */
	marker = mmap(NULL, page, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (marker == MAP_FAILED) {
		perror("jit: mmap dump");
		return 1;
	}
	code = mmap(NULL, CODE_SIZE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED) {
		perror("jit: mmap code");
		return 1;
	}
	memcpy(code + OFF_OUTER, code_outer, sizeof(code_outer));
	memcpy(code + OFF_HOT, code_hot, sizeof(code_hot));
	memcpy(code + OFF_WARM, code_warm, sizeof(code_warm));
	memcpy(code + OFF_WARM_MOVED, code_warm, sizeof(code_warm));
	if (mprotect(code, CODE_SIZE, PROT_READ | PROT_EXEC)) {
		perror("jit: mprotect");
		return 1;
	}
	emit_load("jit_outer", code + OFF_OUTER, sizeof(code_outer), 0);
	emit_load("_ZN3jit3hotEm", code + OFF_HOT, sizeof(code_hot), 1);
	emit_load("jit_warm", code + OFF_WARM, sizeof(code_warm), 2);

	run(code, ms);

	close_rec.timestamp = now_ns();
	put(&close_rec, sizeof(close_rec));
	munmap(marker, page);
	if (fclose(dump) || fclose(perf_map)) {
		perror("jit: close");
		return 1;
	}
	return 0;
}
