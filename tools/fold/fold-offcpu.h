/* SPDX-License-Identifier: MIT */
/*
 * pd-fold --off-cpu: stacks weighted by the time their thread spent off
 * CPU, in nanoseconds (the unit of perf's own offcpu-time event).
 *
 * A sched:sched_switch sample, or one of the context-switches software
 * event, is taken as its task leaves the CPU, with that task's stack: the stack is kept until the task runs again, which
 * is the first of: a sched_switch naming it as next_pid, a context-switch
 * record switching it in, or any later sample of it. The wait is the
 * difference of the two times. perf's offcpu-time samples (perf record
 * --off-cpu) carry the wait as their period and are folded as they are.
 */
#ifndef PD_TOOLS_FOLD_OFFCPU_H
#define PD_TOOLS_FOLD_OFFCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perfdata/event.h>
#include <perfdata/reader.h>

struct fold_offcpu;

struct fold_offcpu *fold_offcpu__new(struct pd_reader *r);
void fold_offcpu__free(struct fold_offcpu *oc);

/*
 * Whether the file has sched_switch samples this build cannot read (no
 * libtraceevent): said once already, so nothing more is to be said about
 * off-CPU samples not found.
 */
bool fold_offcpu__unreadable(const struct fold_offcpu *oc);

/* For a sched:sched_switch sample: the tasks leaving and entering. */
bool fold_offcpu__is_switch(struct fold_offcpu *oc, const struct pd_event *ev,
			    int32_t *prev_tid, int32_t *next_tid);

/* tid left the CPU at time; text: its header-less frame lines. 0 or
 * -ENOMEM. A stack still pending for tid is dropped (lost switch-in). */
int fold_offcpu__out(struct fold_offcpu *oc, int32_t tid, uint64_t time,
		     const char *text, size_t len);

/*
 * tid runs again at time: returns its pending frame lines and the time
 * it waited (*wait_ns), or NULL if nothing is pending. The text stays
 * valid until the next call on oc.
 */
const char *fold_offcpu__in(struct fold_offcpu *oc, int32_t tid, uint64_t time,
			    uint64_t *wait_ns, size_t *len);

#endif /* PD_TOOLS_FOLD_OFFCPU_H */
