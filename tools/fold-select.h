/* SPDX-License-Identifier: MIT */
/*
 * pd-fold's sample selections: --comm=LIST, --cpu=LIST and the --time
 * range syntax. Parse errors print one message and fail, so the caller
 * can exit with a usage error.
 */
#ifndef PD_TOOLS_FOLD_SELECT_H
#define PD_TOOLS_FOLD_SELECT_H

#include <stdbool.h>
#include <stdint.h>

struct fold_select;

/* Either list may be NULL (no selection). NULL with errno on failure. */
struct fold_select *fold_select__new(const char *comm_list,
				     const char *cpu_list);
void fold_select__free(struct fold_select *s);

bool fold_select__has_cpu(const struct fold_select *s);
bool fold_select__comm(const struct fold_select *s, const char *comm);
bool fold_select__cpu(const struct fold_select *s, int cpu);

/*
 * "START,END" in seconds with an optional fraction of up to 9 digits, as
 * perf's --time takes it; either end may be empty (0 = open). 0 or -EINVAL.
 */
int fold_parse_time_range(const char *arg, uint64_t *start_ns,
			  uint64_t *end_ns);

#endif /* PD_TOOLS_FOLD_SELECT_H */
