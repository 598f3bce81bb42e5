// SPDX-License-Identifier: MIT
/*
 * An exited process's maps (session.c, process_exit()): kept for a second
 * of the session's time after its EXIT (the kernel samples a task in its
 * last moments, after the EXIT record, with its user registers), then
 * emptied once no thread of the process uses them, its name kept. Not
 * emptied when its pid came back without a FORK (one lost: new MMAPs in
 * them within the second), nor while another thread of it lives; a FORK
 * reusing the pid starts afresh.
 */
#include <string.h>

#include <perfdata/format.h>
#include <perfdata/session.h>
#include <perfdata/symbols.h>

#include "session/session-internal.h"
#include "session/session-maps.h"
#include "tap.h"

#define SEC	1000000000ULL

static struct pd_session *s;

static int event(struct pd_event *ev, uint64_t time)
{
	ev->sid.present = PD_SAMPLE_TIME;
	ev->sid.time = time;
	return pd_session__event(s, ev);
}

static void fork_ev(uint32_t ppid, uint32_t pid, uint32_t tid, uint64_t time)
{
	struct pd_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = PD_RECORD_FORK;
	ev.u.fork.ppid = ev.u.fork.ptid = ppid;
	ev.u.fork.pid = pid;
	ev.u.fork.tid = tid;
	ev.u.fork.time = time;
	CHECK(!event(&ev, time), "FORK %u/%u", pid, tid);
}

static void exit_ev(uint32_t pid, uint32_t tid, uint64_t time)
{
	struct pd_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = PD_RECORD_EXIT;
	ev.u.fork.pid = pid;
	ev.u.fork.tid = tid;
	ev.u.fork.time = time;
	CHECK(!event(&ev, time), "EXIT %u/%u", pid, tid);
}

static void comm_ev(uint32_t pid, const char *comm, uint64_t time)
{
	struct pd_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = PD_RECORD_COMM;
	ev.u.comm.pid = ev.u.comm.tid = pid;
	ev.u.comm.comm = comm;
	CHECK(!event(&ev, time), "COMM %u %s", pid, comm);
}

static void mmap_ev(uint32_t pid, uint64_t start, uint64_t time)
{
	struct pd_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = PD_RECORD_MMAP2;
	ev.misc = PD_MISC_USER;
	ev.u.mmap.pid = ev.u.mmap.tid = pid;
	ev.u.mmap.start = start;
	ev.u.mmap.len = 0x1000;
	ev.u.mmap.prot = 5;	/* PROT_READ | PROT_EXEC */
	ev.u.mmap.filename = "/nonexistent/lib.so";
	CHECK(!event(&ev, time), "MMAP2 of %u at %#llx", pid,
	      (unsigned long long)start);
}

/* the time moves on: a COMM of an unrelated process */
static void tick(uint64_t time)
{
	comm_ev(9999, "ticker", time);
}

static size_t nr_maps(uint32_t tid)
{
	struct pd_thread *t = pd_session__thread(s, -1, tid);

	return t ? pd__thread_maps(t)->nr : (size_t)-1;
}

int main(void)
{
	struct pd_symbolizer_opts so = { .sz = sizeof(so) };
	struct pd_symbolizer *sym = pd_symbolizer__new(&so);
	struct pd_session_opts xo = { .sz = sizeof(xo), .symbolizer = sym };
	struct pd_thread *t;
	uint64_t now = 100 * SEC;

	s = pd_session__new(NULL, &xo);
	CHECK(sym && s, "symbolizer, session");
	if (!s)
		return tap_done();

	/* a process: its maps, its EXIT, its last moments, then gone */
	fork_ev(1, 100, 100, now);
	comm_ev(100, "short", now);
	mmap_ev(100, 0x10000, now);
	exit_ev(100, 100, now + 1000);
	tick(now + SEC / 2);
	CHECK(nr_maps(100) == 1,
	      "half a second after its EXIT, an exited process keeps its maps (samples of its last moments)");
	tick(now + 2 * SEC);
	t = pd_session__thread(s, 100, 100);
	CHECK(nr_maps(100) == 0 && t && !strcmp(pd_thread__comm(t), "short"),
	      "a second after, its maps are emptied, its name kept");
	fork_ev(1, 100, 100, now + 3 * SEC);
	mmap_ev(100, 0x20000, now + 3 * SEC);
	CHECK(nr_maps(100) == 1, "its pid reused with a FORK: the new process's maps");

	/* a thread exits, the process lives on */
	now = 200 * SEC;
	fork_ev(1, 200, 200, now);
	mmap_ev(200, 0x10000, now);
	fork_ev(200, 200, 201, now + 1);
	exit_ev(200, 201, now + 2);
	tick(now + 2 * SEC);
	CHECK(nr_maps(200) == 1 && nr_maps(201) == 0,
	      "a thread exited: the process keeps its maps, the thread has none");

	/* the leader exits first, a thread lives on */
	now = 300 * SEC;
	fork_ev(1, 300, 300, now);
	mmap_ev(300, 0x10000, now);
	fork_ev(300, 300, 301, now + 1);
	exit_ev(300, 300, now + 2);
	tick(now + 2 * SEC);
	CHECK(nr_maps(301) == 1 && nr_maps(300) == 1,
	      "the leader exited, a thread lives: the maps stay");

	/* the pid back without a FORK (lost) within the second */
	now = 400 * SEC;
	fork_ev(1, 400, 400, now);
	mmap_ev(400, 0x10000, now);
	exit_ev(400, 400, now + 1);
	comm_ev(400, "reused", now + SEC / 2);
	mmap_ev(400, 0x30000, now + SEC / 2);
	tick(now + 3 * SEC);
	CHECK(nr_maps(400) == 2,
	      "a pid back without its FORK within the second: its maps stay, the old ones under them, as in perf");

	pd_session__free(s);
	pd_symbolizer__free(sym);
	return tap_done();
}
