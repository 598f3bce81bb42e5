// SPDX-License-Identifier: MIT
/*
 * pd-convert --to=script: the text `perf script` prints by default, the
 * input stackcollapse-perf.pl, speedscope, the Firefox Profiler and
 * hotspot import. The text is pd-fold's (script-text.c through
 * fold-data.c), so what pd-fold folds and what this prints are one.
 */
#include "common/cli.h"
#include "export-format.h"
#include "export-out.h"

int export_script(const struct export_opts *o)
{
	struct fold_data_opts data = o->data;
	struct export_out out;
	int ret;

	ret = export_out__open(&out, o->output);
	if (ret)
		return ret;
	data.script_out = out.f;
	data.script_all = true;
	data.select = &o->select;
	ret = fold_perf_data(o->input, &data, NULL);
	return export_out__close(&out, ret == PD_EXIT_OK) ? PD_EXIT_DATA : ret;
}
