/* SPDX-License-Identifier: MIT */
/*
 * unwind-core.c: the unwinder without its helper, which the public entry
 * points (unwind.c) and the helper (unwind-ahead.c) both use.
 */
#ifndef PD_UNWIND_CORE_H
#define PD_UNWIND_CORE_H

#include "unwind-state.h"

struct pd_unwinder *pd__unwinder_new(struct pd_session *s,
				     const struct pd_reader *r,
				     const struct pd_unwind_opts *opts);
void pd__unwinder_free(struct pd_unwinder *u);
const struct pd_unwind_arch *pd__uw_unwind_arch(struct pd_unwinder *u);
/* whether u said that elfutils gives no frame registers */
bool pd__unwinder_warned_frame_reg(const struct pd_unwinder *u);

/* What a sample's unwinding starts from. */
struct uw_start {
	const struct uw_arch *ua;	/* the registers of its process */
	uint64_t ip, sp;		/* its ip and stack pointer */
	int max;			/* frames at most */
};

int pd__unwinder_check(struct pd_unwinder *u, struct pd_thread *t,
		       const struct pd_event *ev, int max,
		       struct uw_start *st);
int pd__unwinder_unwind(struct pd_unwinder *u, struct pd_thread *t,
			const struct pd_event *ev, const struct uw_start *st,
			struct pd_unwind_ip *ips);
/*
 * The stack pointers of the frames of the last pd__unwinder_unwind()
 * (as many as it returned; 0 where not known): the sampled one, then
 * each caller's CFA. Valid until the next unwinding.
 */
const uint64_t *pd__unwinder_sps(const struct pd_unwinder *u);
int pd__unwinder_user_stack(struct pd_unwinder *u, struct pd_thread *t,
			    const struct pd_event *ev,
			    struct pd_unwind_ip *ips, int max);

/*
 * A helper's unwinder notes what each unwinding does with libunwind's
 * cache (struct uw_rs_op): 0 or -ENOMEM. pd__unwinder_rs_ops() gives the
 * last unwinding's notes and their number, -1 when they are lost.
 */
int pd__unwinder_trace_rs(struct pd_unwinder *u);
int pd__unwinder_rs_ops(const struct pd_unwinder *u,
			const struct uw_rs_op **ops);
bool pd__unwinder_rs_replay(struct pd_thread *t, const struct uw_rs_op *ops,
			    int n);

#endif /* PD_UNWIND_CORE_H */
