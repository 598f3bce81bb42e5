// SPDX-License-Identifier: MIT
/* difffolded.pl's line rules, without a regex engine (see diff-line.h). */
#include <string.h>

#include "diff-line.h"

/* Perl's \s on a byte string (no unicode_strings): ASCII only */
static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	       c == '\r';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_xdigit(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/*
 * With (.*) greedy, the match that wins puts \s+? on the last whitespace
 * character: the count after it has no whitespace, and a match with more
 * whitespace would also match one character later.
 */
bool diff_line__split(const char *line, size_t len, size_t *stack_len,
		      const char **count, size_t *count_len)
{
	size_t sp, i;

	if (len && line[len - 1] == '\n')
		len--;	/* chomp */
	for (sp = len; sp > 0 && !is_space(line[sp - 1]); sp--)
		;
	if (!sp)
		return false;
	i = sp;
	if (i == len || !is_digit(line[i]))
		return false;
	while (i < len && is_digit(line[i]))
		i++;
	if (i < len && line[i] == '.')
		i++;
	while (i < len && is_digit(line[i]))
		i++;
	if (i != len)
		return false;
	*stack_len = sp - 1;
	*count = line + sp;
	*count_len = len - sp;
	return true;
}

/* s/0x[0-9a-fA-F]+/0x.../g: matches do not overlap, left to right */
size_t diff_line__strip_hex(const char *s, size_t len, char *out)
{
	size_t i = 0, n = 0;

	while (i < len) {
		if (s[i] == '0' && i + 2 < len && s[i + 1] == 'x' &&
		    is_xdigit(s[i + 2])) {
			memcpy(out + n, "0x...", 5);
			n += 5;
			for (i += 2; i < len && is_xdigit(s[i]); i++)
				;
			continue;
		}
		out[n++] = s[i++];
	}
	return n;
}
