/* SPDX-License-Identifier: MIT */
/*
 * TAP output for the unit test programs: "ok N - what" or "not ok N - what"
 * per check; tests/run.sh counts the lines.
 */
#ifndef PD_TAP_H
#define PD_TAP_H

#include <stdio.h>

static int tap_n, tap_failed;

#define CHECK(cond, ...)						\
	do {								\
		int tap_ok_ = !!(cond);					\
									\
		tap_n++;						\
		if (tap_ok_) {						\
			printf("ok %d - ", tap_n);			\
		} else {						\
			tap_failed++;					\
			printf("not ok %d - ", tap_n);			\
		}							\
		printf(__VA_ARGS__);					\
		printf("%s\n", tap_ok_ ? "" : " (" #cond ")");		\
	} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif /* PD_TAP_H */
