/* SPDX-License-Identifier: MIT */
/*
 * The summary pd-unwind (and pd-convert --shim=unwind) print on stderr:
 * samples unwound fully, partly and not at all, with the reasons, and
 * the files whose absence cut stacks.
 */
#ifndef PD_TOOLS_UNWIND_SUMMARY_H
#define PD_TOOLS_UNWIND_SUMMARY_H

#include <stdio.h>

#include <perfdata/unwind.h>

void unwind_summary__print(FILE *f, const char *name,
			   const struct pd_unwind_summary *s);

#endif
