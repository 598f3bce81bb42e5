/*
 * Calls through the PLT in a loop, so that a share of the samples lands
 * in the .plt stubs. perf names a stub after the zero-size _init that
 * symbols__fixup_end() stretches over the .plt, or after NAME@plt,
 * depending on the shape of its symbol tree: here abs's stub gets _init
 * and the others their names (abs is called most, for enough samples of
 * both). Built with -fno-builtin so that the calls stay calls.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <strings.h>

static volatile long sink;

static void spin(long rounds)
{
	long i;

	for (i = 0; i < rounds; i++)
		sink += abs((int)i) + abs((int)-i) + abs((int)(i >> 1)) + labs(i) + llabs(i) + imaxabs(i) +
			ffs((int)i);
}

int main(int argc, char **argv)
{
	spin(argc > 1 ? atol(argv[1]) : 50000000);
	return 0;
}
