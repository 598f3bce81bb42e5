/*
 * A function whose unwind table entry is marked a signal frame (the
 * CIE's 'S' augmentation, as glibc marks __restore_rt), spinning in
 * itself and in a leaf it calls. For libunwind on x86_64 a frame
 * stepped from by such an entry is a signal frame: perf prints the
 * frame it steps to at its exact address, not less one, and looks up
 * that frame's table entry there. Samples in spin_sigframe past its
 * first instruction do what a sample at __restore_rt's syscall does.
 *
 * Usage: sigcfi [ROUNDS]
 */
#include <stdlib.h>

void spin_leaf(long n);
void spin_sigframe(long rounds);

__attribute__((noinline)) void spin_leaf(long n)
{
	volatile long i;

	for (i = 0; i < n; i++)
		;
}

/* rounds of spin_leaf(2000) and a loop of 2000 here (System V ABI) */
__asm__(
	"	.text\n"
	"	.globl	spin_sigframe\n"
	"	.type	spin_sigframe, @function\n"
	"spin_sigframe:\n"
	"	.cfi_startproc\n"
	"	.cfi_signal_frame\n"
	"	pushq	%rbx\n"
	"	.cfi_adjust_cfa_offset 8\n"
	"	.cfi_rel_offset %rbx, 0\n"
	"	movq	%rdi, %rbx\n"
	"1:	movl	$2000, %edi\n"
	"	call	spin_leaf\n"
	"	movl	$2000, %ecx\n"
	"2:	decq	%rcx\n"
	"	jnz	2b\n"
	"	decq	%rbx\n"
	"	jnz	1b\n"
	"	popq	%rbx\n"
	"	.cfi_adjust_cfa_offset -8\n"
	"	.cfi_restore %rbx\n"
	"	ret\n"
	"	.cfi_endproc\n"
	"	.size	spin_sigframe, .-spin_sigframe\n");

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 20000;

	spin_sigframe(rounds);
	return rounds < 0;
}
