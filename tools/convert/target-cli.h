/* SPDX-License-Identifier: MIT */
/*
 * pd-convert's side of --target-perf: reading what the user names
 * (through pd_perf_target__resolve()), listing what it can name, the
 * output mode a target gets, and the --explain lines about the target.
 */
#ifndef PD_CONVERT_TARGET_CLI_H
#define PD_CONVERT_TARGET_CLI_H

#include <stdio.h>

#include <perfdata/compat.h>

/*
 * The facts for --target-perf=SPEC, into res (which the returned target
 * points into). A bad spec is a usage error (exit 2) naming why; a perf
 * newer than the table gets a warning naming the newest known.
 */
const struct pd_perf_target *target_cli__parse(const char *spec,
					       struct pd_perf_resolved *res);

/* --list-targets: the versions, then the distributions and their builds. */
void target_cli__list(FILE *f);

/*
 * The output mode (enum pd_mode) for a target when none was asked:
 * file mode for a regular file (as perf inject writes, and as perf 3.10
 * to 5.10 open with -i FILE), pipe mode for a pipe, terminal or socket.
 * output is a path or "-" (standard output).
 */
int target_cli__mode(const char *output);

/* --explain: how the target was read, compression and attr-bits details. */
void target_cli__explain(FILE *f, const struct pd_perf_resolved *res,
			 const struct pd_convert_report *rep);

#endif
