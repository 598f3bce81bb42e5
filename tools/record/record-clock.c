// SPDX-License-Identifier: MIT
/*
 * -k/--clockid: the clock the kernel stamps records with, by the names
 * and numbers perf record takes, and the two header features that let a
 * reader relate those times to the wall clock: CLOCKID (the clock's
 * resolution) and CLOCK_DATA (one reading of the wall clock and of the
 * chosen clock, taken together when the recording starts).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>

#include "record.h"
#include "common/bytes.h"

#ifndef CLOCK_BOOTTIME
#define CLOCK_BOOTTIME		7
#endif
#ifndef CLOCK_TAI
#define CLOCK_TAI		11
#endif

static const struct {
	const char *name;
	int id;
} clocks[] = {
	{ "monotonic", CLOCK_MONOTONIC },
	{ "monotonic_raw", CLOCK_MONOTONIC_RAW },
	{ "realtime", CLOCK_REALTIME },
	{ "boottime", CLOCK_BOOTTIME },
	{ "tai", CLOCK_TAI },
	/* perf's short forms */
	{ "mono", CLOCK_MONOTONIC },
	{ "raw", CLOCK_MONOTONIC_RAW },
	{ "real", CLOCK_REALTIME },
	{ "boot", CLOCK_BOOTTIME },
};

int rec_clockid_parse(const char *s, int *id)
{
	char *end;
	long v;
	size_t i;

	v = strtol(s, &end, 10);
	if (end != s && !*end && v >= 0 && v < 64) {
		*id = v;
		return 0;
	}
	if (!strncasecmp(s, "CLOCK_", 6))
		s += 6;
	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (!strcasecmp(s, clocks[i].name)) {
			*id = clocks[i].id;
			return 0;
		}
	return -1;
}

/*
 * CLOCKID: u64 resolution in ns (left out when clock_getres() fails, as
 * perf does); CLOCK_DATA: u32 version 1, u32 clockid, u64 wall clock and
 * u64 clockid time in ns, read back to back.
 */
int rec_features_clock(struct pd_writer *w, int clockid)
{
	struct timespec res, ref;
	struct timeval tod;
	struct bytes b = { 0 };
	int err = 0;

	if (!clock_getres(clockid, &res)) {
		uint64_t ns = res.tv_sec * 1000000000ULL + res.tv_nsec;

		if (ns)
			err = pd_writer__set_feature(w, PD_FEAT_CLOCKID, &ns,
						     sizeof(ns));
	}
	if (err)
		return err;
	if (gettimeofday(&tod, NULL) || clock_gettime(clockid, &ref))
		return 0;
	bytes__u32(&b, 1);
	bytes__u32(&b, clockid);
	bytes__u64(&b, tod.tv_sec * 1000000000ULL + tod.tv_usec * 1000ULL);
	bytes__u64(&b, ref.tv_sec * 1000000000ULL + ref.tv_nsec);
	err = b.oom ? -ENOMEM : pd_writer__set_feature(w, PD_FEAT_CLOCK_DATA,
							b.p, b.len);
	free(b.p);
	return err;
}
