/* SPDX-License-Identifier: MIT */
/*
 * JSON text for the exporters: strings escaped as RFC 8259 requires
 * (quote, backslash, control characters), with bytes that are not UTF-8
 * written as \u00XX (their Latin-1 reading) so that the output is always
 * valid UTF-8 whatever a symbol or comm holds.
 */
#ifndef PD_TOOLS_JSON_OUT_H
#define PD_TOOLS_JSON_OUT_H

#include <stddef.h>
#include <stdio.h>

/* "s" (len bytes) with its quotes. */
void json_str(FILE *f, const char *s, size_t len);
/* The same for a NUL-terminated string; NULL is written as null. */
void json_cstr(FILE *f, const char *s);
/* len bytes as a quoted lowercase hex string. */
void json_hex(FILE *f, const void *p, size_t len);

#endif /* PD_TOOLS_JSON_OUT_H */
