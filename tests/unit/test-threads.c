// SPDX-License-Identifier: MIT
/*
 * The session's threads, found as perf 6.1's machine__findnew_thread()
 * finds them: by tid alone. A sample the kernel gives tid -1 (taken in
 * a task whose pid is already released, late in its exit: perf script
 * prints it as ":-1 -1") is the one thread -1, named ":-1" whatever its
 * pid; the first pid it is seen with gives it that process's maps
 * (machine__update_thread_pid()), later ones change nothing.
 */
#include <stdio.h>
#include <string.h>

#include <perfdata/format.h>
#include <perfdata/session.h>
#include <perfdata/symbols.h>

#include "session/session-internal.h"
#include "tap.h"

static void comm_event(struct pd_session *s, uint32_t pid, const char *comm)
{
	struct pd_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = PD_RECORD_COMM;
	ev.u.comm.pid = ev.u.comm.tid = pid;
	ev.u.comm.comm = comm;
	CHECK(!pd_session__event(s, &ev), "COMM %u %s taken", pid, comm);
}

int main(void)
{
	struct pd_symbolizer_opts so = { .sz = sizeof(so) };
	struct pd_symbolizer *sym = pd_symbolizer__new(&so);
	struct pd_session_opts xo = { .sz = sizeof(xo), .symbolizer = sym };
	struct pd_session *s = pd_session__new(NULL, &xo);
	struct pd_thread *t, *u, *leader;

	CHECK(sym && s, "symbolizer, session");
	if (!s)
		return tap_done();
	comm_event(s, 27069, "memfd:sealed-9");
	leader = pd_session__thread(s, 27069, 27069);
	t = pd_session__thread(s, 27069, -1);
	CHECK(t && t != leader && pd_thread__tid(t) == -1 &&
	      !strcmp(pd_thread__comm(t), ":-1"),
	      "tid -1 of pid 27069: thread -1, named \":-1\", not the process's leader (perf script: \":-1 -1\")");
	CHECK(t && pd_thread__pid(t) == 27069 &&
	      pd__thread_maps(t) == pd__thread_maps(leader),
	      "... with pid 27069's maps");
	u = pd_session__thread(s, 41, -1);
	CHECK(u == t && pd_thread__pid(u) == 27069 &&
	      pd__thread_maps(u) == pd__thread_maps(leader),
	      "tid -1 of another pid: the same thread, which keeps its pid and maps");
	pd_session__free(s);

	/* first seen without a pid (pid -1 too), then learning one */
	s = pd_session__new(NULL, &xo);
	t = s ? pd_session__thread(s, -1, -1) : NULL;
	CHECK(t && pd_thread__pid(t) == -1 && pd_thread__tid(t) == -1,
	      "pid -1, tid -1: thread -1 without a pid");
	u = s ? pd_session__thread(s, 500, -1) : NULL;
	leader = s ? pd_session__thread(s, 500, 500) : NULL;
	CHECK(u == t && t && pd_thread__pid(t) == 500 &&
	      pd__thread_maps(t) == pd__thread_maps(leader) &&
	      !strcmp(pd_thread__comm(t), ":-1"),
	      "... then pid 500: it learns the pid and shares its maps, still \":-1\"");
	pd_session__free(s);
	pd_symbolizer__free(sym);
	return tap_done();
}
