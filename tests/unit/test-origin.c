// SPDX-License-Identifier: MIT
/*
 * Recorded on this machine or not (session/session-origin.c): the host
 * name and os release against uname(), the kernel build id against the
 * running kernel's, the recording's clock against this boot's, and
 * something of the recording found here (that kernel, or a mapped file
 * with its device and inode). Fed as a pipe's records would feed it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

#include <perfdata/format.h>

#include "session/session-origin.h"
#include "tap.h"

#define NSEC 1000000000ULL

struct rec {
	const char *host, *release;
	int64_t age;			/* seconds before now of the last time */
	bool kernel;			/* the kernel's build id recorded */
	bool other_kernel;		/* ... another kernel's */
	const char *file;		/* a mapped file, or NULL */
	bool other_inode;		/* ... named with another inode */
};

/* perf's string feature: a u32 length, then the string, NUL-padded */
static void feature(struct session_origin *o, uint64_t id, const char *s)
{
	uint8_t buf[4 + 256] = { 0 };
	uint32_t len = 256;

	memcpy(buf, &len, 4);
	snprintf((char *)buf + 4, 256, "%s", s);
	session_origin__feature(o, id, buf, sizeof(buf));
}

static bool here(const struct rec *r)
{
	struct pd_symbolizer *sym = pd_symbolizer__new(NULL);
	struct session_origin *o = session_origin__new(NULL);
	struct timespec ts;
	uint8_t bid[20] = { 0 };
	int n = pd_running_kernel_build_id(bid, sizeof(bid));
	bool ret;

	feature(o, PD_FEAT_HOSTNAME, r->host);
	feature(o, PD_FEAT_OSRELEASE, r->release);
	if (r->kernel && n > 0) {
		if (r->other_kernel)
			bid[0] ^= 1;
		session_origin__kernel(o, bid, n);
	}
	if (r->file) {
		struct stat st;

		if (!stat(r->file, &st))
			session_origin__mmap(o, r->file, major(st.st_dev),
					     minor(st.st_dev),
					     st.st_ino + r->other_inode);
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	session_origin__time(o, (uint64_t)ts.tv_sec * NSEC + ts.tv_nsec -
			     r->age * (int64_t)NSEC, true);
	/* what comes after the first sample changes nothing */
	feature(o, PD_FEAT_HOSTNAME, "elsewhere");
	ret = session_origin__here(o, sym);
	session_origin__free(o);
	pd_symbolizer__free(sym);
	return ret;
}

int main(void)
{
	uint8_t bid[20];
	bool kernel = pd_running_kernel_build_id(bid, sizeof(bid)) > 0;
	char exe[4096];
	struct utsname u;
	struct rec base, r;
	ssize_t n;

	uname(&u);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	/* a recording of this machine a second ago, this program mapped */
	base = (struct rec){
		.host = u.nodename, .release = u.release, .age = 1, .file = exe,
	};
	CHECK(here(&base),
	      "this host, this release, a second ago, a mapped file here: here");
	r = base;
	r.host = "another";
	CHECK(!here(&r), "another host name: elsewhere");
	r = base;
	r.release = "0.0.0";
	CHECK(!here(&r), "another os release: elsewhere");
	r = base;
	r.age = -3600;
	CHECK(!here(&r),
	      "a last sample an hour in this boot's future: another boot");
	r = base;
	r.age = 3600;
	CHECK(!here(&r),
	      "a last sample an hour ago (or before this boot), the input read now: not its end");
	r = base;
	r.age = 20;
	CHECK(here(&r),
	      "a last sample 20 s ago, the input read now: its end (a small recording's build-id pass)");
	r = base;
	r.age = 60;
	CHECK(!here(&r),
	      "a last sample a minute ago, a small input read now: not its end (a copy made at the uptime the recording ended, on a machine of the same image)");
	r = base;
	r.other_inode = true;
	CHECK(!here(&r),
	      "no mapped file here with its device and inode, no kernel build id: elsewhere (a machine made from the same image)");
	r = base;
	r.file = NULL;
	CHECK(!here(&r), "nothing of the recording here: elsewhere");
	if (kernel) {
		r = base;
		r.file = NULL;
		r.kernel = true;
		CHECK(here(&r), "the running kernel's build id: here");
		r = base;
		r.kernel = r.other_kernel = true;
		CHECK(!here(&r),
		      "another kernel's build id: elsewhere, whatever the files");
	} else {
		CHECK(1, "# skip no /sys/kernel/notes: the running kernel's build id unknown");
	}
	return tap_done();
}
