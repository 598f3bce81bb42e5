// SPDX-License-Identifier: MIT
/*
 * Messages and error strings. The library never prints: messages go to a
 * callback, by default one that drops them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static pd_log_fn default_log_fn;
static void *default_log_ctx;

PD_EXPORT void pd_set_log(pd_log_fn fn, void *ctx)
{
	default_log_fn = fn;
	default_log_ctx = ctx;
}

__thread struct pd_log_divert *pd__log_divert;

void pd__log(struct pd_logger *l, enum pd_log_level level, const char *fmt, ...)
{
	pd_log_fn fn = l && l->fn ? l->fn : default_log_fn;
	void *ctx = l && l->fn ? l->ctx : default_log_ctx;
	char msg[512];
	int n = 0;
	va_list ap;

	/* a thread whose messages another gives, in their turn */
	if (pd__log_divert) {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		if (pd__log_divert->fn(pd__log_divert->ctx, l, level, msg))
			return;
	}
	if (level == PD_LOG_WARN && l)
		l->nr_warnings++;
	if (!fn)
		return;
	if (l && l->name)
		n = snprintf(msg, sizeof(msg), "%s: ", l->name);
	if (n < 0 || (size_t)n >= sizeof(msg))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	va_end(ap);
	fn(level, msg, ctx);
}

static const char *const pd_error_strings[PD_ERR_MAX - PD_ERR_BASE] = {
	[PD_ERR_NOT_PERF_DATA - PD_ERR_BASE] = "not a perf.data file",
	[PD_ERR_TRUNCATED - PD_ERR_BASE] = "truncated data",
	[PD_ERR_BAD_HEADER - PD_ERR_BASE] = "invalid file header",
	[PD_ERR_BAD_ATTR - PD_ERR_BASE] = "invalid perf_event_attr",
	[PD_ERR_BAD_RECORD - PD_ERR_BASE] = "invalid record",
	[PD_ERR_BAD_SAMPLE - PD_ERR_BASE] = "sample does not match its layout",
	[PD_ERR_BAD_FEATURE - PD_ERR_BASE] = "invalid feature section",
	[PD_ERR_BAD_COMPRESSED - PD_ERR_BASE] = "invalid compressed data",
	[PD_ERR_UNSUPPORTED - PD_ERR_BASE] = "unsupported",
	[PD_ERR_TOO_BIG - PD_ERR_BASE] = "size exceeds the input",
	[PD_ERR_NO_ATTR - PD_ERR_BASE] = "no attr for this record",
	[PD_ERR_BAD_ARCHIVE - PD_ERR_BASE] = "invalid profile archive",
};

PD_EXPORT const char *pd_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err >= PD_ERR_BASE && err < PD_ERR_MAX)
		return pd_error_strings[err - PD_ERR_BASE];
	return strerror(err);
}
