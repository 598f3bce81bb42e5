// SPDX-License-Identifier: MIT
/*
 * inl: a small C++ program for demangling and inline-frame tests.
 *
 *   main -> shapes::run -> shapes::Accum<unsigned long>::feed (out of line)
 *        -> shapes::detail::step<unsigned long> (inlined)
 *        -> shapes::detail::mix (inlined)
 *   main -> shapes::run -> (anonymous namespace)::cold_path(int)
 *
 * Templates, namespaces, an anonymous namespace, an overloaded operator
 * and functions that gcc inlines at -O2, so that DWARF has inline chains
 * two deep. No C++ library calls: the binary needs only libc. The
 * argument is the run time in milliseconds (default 200).
 */
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
#define NO_TAIL_CALL() __asm__ __volatile__("" ::: "memory")

static volatile unsigned long sink;

namespace shapes {
namespace detail {

inline unsigned long mix(unsigned long x)
{
	x ^= x >> 13;
	x *= 0x9e3779b97f4a7c15UL;
	return x ^ (x >> 29);
}

template <typename T>
inline T step(T acc, T i)
{
	return mix(acc + i) ^ (acc >> 7);
}

} /* namespace detail */

template <typename T>
struct Accum {
	volatile T acc;

	NOINLINE void feed(T n)
	{
		for (T i = 0; i < n; i++)
			acc = detail::step<T>(acc, i);
	}

	NOINLINE Accum &operator+=(T v)
	{
		for (T i = 0; i < v; i++)
			acc = acc * 31 + i;
		return *this;
	}
};

} /* namespace shapes */

namespace {

NOINLINE int cold_path(int rounds)
{
	shapes::Accum<unsigned int> a = { 1 };

	for (int r = 0; r < rounds; r++)
		a += 20000u;
	return (int)a.acc;
}

} /* namespace */

namespace shapes {

NOINLINE void run(long ms)
{
	struct timespec t0, t;
	Accum<unsigned long> a = { sink };

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		a.feed(200000);
		sink += cold_path(2);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 +
		 (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	sink += a.acc;
	NO_TAIL_CALL();
}

} /* namespace shapes */

int main(int argc, char **argv)
{
	shapes::run(argc > 1 ? atol(argv[1]) : 200);
	return 0;
}
