/* SPDX-License-Identifier: MIT */
/*
 * Error codes and logging.
 *
 * Functions returning int return 0 (or a positive count) on success and a
 * negative code on failure: -errno for system errors, -PD_ERR_* for format
 * errors. Functions returning pointers return NULL and set errno to the
 * positive code. pd_strerror() explains either kind.
 *
 * The library never prints. Messages (warnings about skipped or unknown
 * parts, debug notes) go to the callback set with pd_set_log(); the default
 * callback drops them.
 */
#ifndef PERFDATA_ERRORS_H
#define PERFDATA_ERRORS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Format errors sit above the errno range. */
enum pd_error {
	PD_ERR_BASE = 4000,
	PD_ERR_NOT_PERF_DATA = PD_ERR_BASE,	/* no perf.data magic */
	PD_ERR_TRUNCATED,			/* data ends inside a structure */
	PD_ERR_BAD_HEADER,			/* inconsistent file header */
	PD_ERR_BAD_ATTR,			/* invalid perf_event_attr */
	PD_ERR_BAD_RECORD,			/* invalid record size or layout */
	PD_ERR_BAD_SAMPLE,			/* sample does not fit its layout */
	PD_ERR_BAD_FEATURE,			/* invalid feature section */
	PD_ERR_BAD_COMPRESSED,			/* zstd stream cannot be decoded */
	PD_ERR_UNSUPPORTED,			/* valid but not supported here */
	PD_ERR_TOO_BIG,				/* size beyond what the input holds */
	PD_ERR_NO_ATTR,				/* record maps to no known attr */
	PD_ERR_BAD_ARCHIVE,			/* invalid profile archive (tar) */
	PD_ERR_MAX,
};

const char *pd_strerror(int err);

enum pd_log_level {
	PD_LOG_WARN,
	PD_LOG_INFO,
	PD_LOG_DEBUG,
};

/* msg has no trailing newline. */
typedef void (*pd_log_fn)(enum pd_log_level level, const char *msg, void *ctx);

/* Process-wide default; readers may override it through their opts. */
void pd_set_log(pd_log_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_ERRORS_H */
