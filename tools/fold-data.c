// SPDX-License-Identifier: MIT
/* Placeholder until the session model lands. */
#include "common/cli.h"
#include "fold-data.h"

int fold_perf_data(const char *path, const struct fold_data_opts *o,
		   struct folder *f)
{
	pd_err("%s: perf.data input is not implemented yet", path);
	return PD_EXIT_DATA;
}
