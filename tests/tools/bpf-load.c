// SPDX-License-Identifier: MIT
/*
 * bpf-load [--btf] [--sub] [--hold [--detach]] NAME: load the smallest
 * eBPF socket filter ("return 0") under NAME with the bpf() system call,
 * then unload it. A JIT-compiled program makes the kernel send KSYMBOL and BPF_EVENT
 * records to the perf events of this process that ask for them (t0112
 * checks pd-record writes them).
 *
 * --sub: the program calls a second function (two JIT-compiled
 *        sub-programs, two KSYMBOLs).
 * --btf: with BTF function info (an "int NAME(void)" function, and
 *        "NAME_sub" for --sub), so perf names the sub-programs from BTF.
 * --hold: once loaded, print "loaded ID btf BTF_ID" on stdout and keep
 *        the program until stdin ends (a recording started meanwhile
 *        finds it loaded).
 * --detach: with --hold, a child keeps the program and this process
 *        exits at once (a recording of it ends with the program loaded).
 * --run MS: the program is 2000 additions long (JIT-compiled, a few
 *        KiB of code) and runs in the kernel (BPF_PROG_TEST_RUN) again
 *        and again for about MS milliseconds, so that a profile has
 *        samples in it.
 *
 * Exit 0 loaded, 3 when the kernel refuses (no privilege, no bpf()), with
 * the reason on stderr.
 */
#include <errno.h>
#include <stdbool.h>
#include <time.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/kernel-abi.h>

static int sys_bpf(int cmd, union pd_bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static void put(uint8_t **p, uint32_t v)
{
	memcpy(*p, &v, 4);
	*p += 4;
}

/*
 * BTF: [1] int, [2] int (void), [3] NAME, [4] NAME_sub (both static
 * functions of type 2). Returns its fd, or -1.
 */
static int load_btf(const char *name, bool sub)
{
	uint8_t buf[512], *p;
	char strs[128];
	uint32_t str_len, type_len, off_name, off_sub;
	struct pd_btf_header h;
	union pd_bpf_attr attr;
	int fd;

	memset(strs, 0, sizeof(strs));
	memcpy(strs + 1, "int", 4);
	off_name = 5;
	snprintf(strs + off_name, 40, "%s", name);
	off_sub = off_name + strlen(name) + 1;
	snprintf(strs + off_sub, 48, "%s_sub", name);
	str_len = off_sub + strlen(strs + off_sub) + 1;

	p = buf + sizeof(h);
	put(&p, 1);			/* int */
	put(&p, PD_BTF_INFO(PD_BTF_KIND_INT, 0, 0));
	put(&p, 4);
	put(&p, PD_BTF_INT_DATA(PD_BTF_INT_SIGNED, 0, 32));
	put(&p, 0);			/* int (void) */
	put(&p, PD_BTF_INFO(PD_BTF_KIND_FUNC_PROTO, 0, 0));
	put(&p, 1);
	put(&p, off_name);		/* NAME */
	put(&p, PD_BTF_INFO(PD_BTF_KIND_FUNC, 0, 0));
	put(&p, 2);
	if (sub) {
		put(&p, off_sub);	/* NAME_sub */
		put(&p, PD_BTF_INFO(PD_BTF_KIND_FUNC, 0, 0));
		put(&p, 2);
	}
	type_len = p - (buf + sizeof(h));
	memcpy(p, strs, str_len);
	memset(&h, 0, sizeof(h));
	h.magic = PD_BTF_MAGIC;
	h.version = PD_BTF_VERSION;
	h.hdr_len = sizeof(h);
	h.type_off = 0;
	h.type_len = type_len;
	h.str_off = type_len;
	h.str_len = str_len;
	memcpy(buf, &h, sizeof(h));

	memset(&attr, 0, sizeof(attr));
	attr.btf.btf = (uint64_t)(uintptr_t)buf;
	attr.btf.btf_size = sizeof(h) + type_len + str_len;
	fd = sys_bpf(PD_BPF_BTF_LOAD, &attr);
	if (fd < 0)
		fprintf(stderr, "bpf-load: BPF_BTF_LOAD: %s\n", strerror(errno));
	return fd;
}

/* The kernel's attr of BPF_PROG_TEST_RUN (4.12), only for this. */
#define BPF_PROG_TEST_RUN 10
struct test_run_attr {
	uint32_t prog_fd, retval, data_size_in, data_size_out;
	uint64_t data_in, data_out;
	uint32_t repeat, duration;
};

#define RUN_INSNS 2000
#define BPF_ADD 0x00		/* ALU op (kernel-abi.h has only MOV) */

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Runs the program for about ms milliseconds; 0, or 3 if refused. */
static int run_for(int fd, long ms)
{
	uint8_t pkt[64] = { 0 };	/* an Ethernet header and more */
	struct test_run_attr t;
	double end = now_ms() + ms;

	do {
		memset(&t, 0, sizeof(t));
		t.prog_fd = fd;
		t.data_in = (uint64_t)(uintptr_t)pkt;
		t.data_size_in = sizeof(pkt);
		t.repeat = 1000;
		if (syscall(SYS_bpf, BPF_PROG_TEST_RUN, &t, sizeof(t))) {
			fprintf(stderr, "bpf-load: BPF_PROG_TEST_RUN: %s\n",
				strerror(errno));
			return 3;
		}
	} while (now_ms() < end);
	return 0;
}

int main(int argc, char **argv)
{
	static struct pd_bpf_insn insns[RUN_INSNS + 4];
	struct pd_bpf_func_info finfo[2];
	bool btf = false, sub = false, hold = false, detach = false;
	long run_ms = -1;
	union pd_bpf_attr attr;
	unsigned int n = 0;
	const char *name;
	int fd, btf_fd = -1, i;

	for (i = 1; i < argc - 1; i++) {
		if (!strcmp(argv[i], "--btf"))
			btf = true;
		else if (!strcmp(argv[i], "--sub"))
			sub = true;
		else if (!strcmp(argv[i], "--hold"))
			hold = true;
		else if (!strcmp(argv[i], "--detach"))
			detach = true;
		else if (!strcmp(argv[i], "--run") && i + 2 < argc)
			run_ms = atol(argv[++i]);
		else
			break;
	}
	if (i != argc - 1 || strlen(argv[i]) > 40) {
		fprintf(stderr, "usage: bpf-load [--btf] [--sub] [--hold [--detach]] [--run MS] NAME\n");
		return 2;
	}
	name = argv[i];
	memset(insns, 0, sizeof(insns));
	if (sub) {
		/* call the function at insn 2, return what it returns */
		insns[n].code = PD_BPF_JMP | PD_BPF_CALL;
		insns[n].src_reg = PD_BPF_PSEUDO_CALL;
		insns[n++].imm = 1;
		insns[n++].code = PD_BPF_JMP | PD_BPF_EXIT;
	}
	insns[n].code = PD_BPF_ALU64 | PD_BPF_MOV | PD_BPF_K;	/* r0 = 0 */
	insns[n++].dst_reg = PD_BPF_REG_0;
	for (int k = 0; run_ms >= 0 && k < RUN_INSNS; k++) {	/* r0 += 1 */
		insns[n].code = PD_BPF_ALU64 | BPF_ADD | PD_BPF_K;
		insns[n].dst_reg = PD_BPF_REG_0;
		insns[n++].imm = 1;
	}
	insns[n++].code = PD_BPF_JMP | PD_BPF_EXIT;
	memset(&attr, 0, sizeof(attr));
	if (btf) {
		btf_fd = load_btf(name, sub);
		if (btf_fd < 0)
			return 3;
		finfo[0].insn_off = 0;
		finfo[0].type_id = 3;
		finfo[1].insn_off = 2;
		finfo[1].type_id = 4;
		attr.prog.prog_btf_fd = btf_fd;
		attr.prog.func_info_rec_size = sizeof(finfo[0]);
		attr.prog.func_info = (uint64_t)(uintptr_t)finfo;
		attr.prog.func_info_cnt = sub ? 2 : 1;
	}
	attr.prog.prog_type = PD_BPF_PROG_TYPE_SOCKET_FILTER;
	attr.prog.insns = (uint64_t)(uintptr_t)insns;
	attr.prog.insn_cnt = n;
	attr.prog.license = (uint64_t)(uintptr_t)"GPL";
	strncpy(attr.prog.prog_name, name, sizeof(attr.prog.prog_name) - 1);
	fd = sys_bpf(PD_BPF_PROG_LOAD, &attr);
	if (fd < 0) {
		fprintf(stderr, "bpf-load: BPF_PROG_LOAD: %s\n",
			strerror(errno));
		return 3;
	}
	if (run_ms >= 0) {
		int err = run_for(fd, run_ms);

		if (err)
			return err;
	}
	if (hold) {
		struct pd_bpf_prog_info info;
		char c;

		memset(&info, 0, sizeof(info));
		memset(&attr, 0, sizeof(attr));
		attr.info.bpf_fd = fd;
		attr.info.info_len = sizeof(info);
		attr.info.info = (uint64_t)(uintptr_t)&info;
		if (sys_bpf(PD_BPF_OBJ_GET_INFO_BY_FD, &attr)) {
			fprintf(stderr, "bpf-load: BPF_OBJ_GET_INFO_BY_FD: %s\n",
				strerror(errno));
			return 3;
		}
		printf("loaded %u btf %u\n", info.id, info.btf_id);
		if (fflush(stdout))
			return 1;
		if (detach) {
			pid_t pid = fork();

			if (pid < 0) {
				fprintf(stderr, "bpf-load: fork: %s\n",
					strerror(errno));
				return 1;
			}
			if (pid > 0)
				return 0;
		}
		while (read(0, &c, 1) > 0)
			;
	}
	close(fd);
	if (btf_fd >= 0)
		close(btf_fd);
	return 0;
}
