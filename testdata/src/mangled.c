/*
 * Functions under Rust (legacy and v0) and C++ symbol names, given with
 * asm labels, so that a C program shows how perf demangles them: the
 * frames of a recording of it must be named as perf script names them.
 * Each spins for its share of the time, called from main through a
 * chain of the others.
 */
#include <stdlib.h>
#include <time.h>

#define NAMED(sym) __asm__(sym) __attribute__((noinline, used))

static volatile unsigned long sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void spin(double secs)
{
	double end = now() + secs;
	unsigned long i;

	while (now() < end)
		for (i = 0; i < 10000; i++)
			sink += i * i;
}

/* Rust legacy: mycrate::inner::work, hash dropped */
void rust_legacy(double s) NAMED("_ZN7mycrate5inner4work17h1a2b3c4d5e6f7a8bE");
/* Rust legacy with escapes: <mycrate::Thing as core::fmt::Debug>::fmt */
void rust_impl(double s) NAMED("_ZN51_$LT$mycrate..Thing$u20$as$u20$core..fmt..Debug$GT$3fmt17h0123456789abcdefE");
/* Rust v0: mycrate::main */
void rust_v0(double s) NAMED("_RNvCs15kBYyAo9fc_7mycrate4main");
/* C++: ns::Widget<int>::draw(int) const */
void cxx_method(double s) NAMED("_ZNK2ns6WidgetIiE4drawEi");
/* not mangled at all, though it looks close */
void plain(double s) NAMED("_ZN_not_really");

void rust_legacy(double s)
{
	spin(s);
	rust_impl(s);
}

void rust_impl(double s)
{
	spin(s);
	rust_v0(s);
}

void rust_v0(double s)
{
	spin(s);
	cxx_method(s);
}

void cxx_method(double s)
{
	spin(s);
	plain(s);
}

void plain(double s)
{
	spin(s);
	sink++;		/* a call, not a tail call: plain stays a frame */
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 500;

	rust_legacy(ms / 5000);	/* a fifth in each function */
	return 0;
}
