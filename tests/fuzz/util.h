/* SPDX-License-Identifier: MIT */
/*
 * What the fuzz targets share: the libFuzzer entry point they define, and
 * ways to hand a memory buffer to the reader, which reads file
 * descriptors: a memfd (a seekable file) or a pipe (a stream).
 */
#ifndef PD_FUZZ_UTIL_H
#define PD_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <perfdata/errors.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * A file holding data, positioned at its start; the same memfd each call
 * (the caller does not close it). -1 on failure.
 */
int fuzz_memfd(const uint8_t *data, size_t size);

/*
 * The read end of a pipe holding data and closed for writing, so that a
 * reader sees it as a stream that ends. The input is cut to what the pipe
 * holds (1 MiB at most). The caller closes it; -1 on failure.
 */
int fuzz_pipe(const uint8_t *data, size_t size);

/* A log callback that formats every message and drops it. */
void fuzz_log(enum pd_log_level level, const char *msg, void *ctx);

/* Stop with a message (a finding): abort(), which the fuzzer reports. */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2),
						     noreturn));

#endif /* PD_FUZZ_UTIL_H */
