/* SPDX-License-Identifier: MIT */
/*
 * A lowercase hex digit's value: build ids as perf prints them and as
 * the tools write them are lowercase, and uppercase is refused there.
 */
#ifndef PD_TOOLS_HEX_H
#define PD_TOOLS_HEX_H

static inline int hex_lower(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

#endif /* PD_TOOLS_HEX_H */
