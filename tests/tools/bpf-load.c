// SPDX-License-Identifier: MIT
/*
 * bpf-load NAME: load the smallest eBPF socket filter ("return 0") under
 * NAME with the bpf() system call, then unload it. A JIT-compiled program
 * makes the kernel send KSYMBOL and BPF_EVENT records to the perf events
 * of this process that ask for them (t0112 checks pd-record writes them).
 * Exit 0 loaded, 3 when the kernel refuses (no privilege, no bpf()), with
 * the reason on stderr.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct bpf_insn insns[2];
	union bpf_attr attr;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: bpf-load NAME\n");
		return 2;
	}
	memset(insns, 0, sizeof(insns));
	insns[0].code = BPF_ALU64 | BPF_MOV | BPF_K;	/* r0 = 0 */
	insns[0].dst_reg = BPF_REG_0;
	insns[1].code = BPF_JMP | BPF_EXIT;
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (uint64_t)(uintptr_t)insns;
	attr.insn_cnt = 2;
	attr.license = (uint64_t)(uintptr_t)"GPL";
	strncpy(attr.prog_name, argv[1], sizeof(attr.prog_name) - 1);
	fd = syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
	if (fd < 0) {
		fprintf(stderr, "bpf-load: BPF_PROG_LOAD: %s\n",
			strerror(errno));
		return 3;
	}
	close(fd);
	return 0;
}
