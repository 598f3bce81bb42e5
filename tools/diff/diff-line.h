/* SPDX-License-Identifier: MIT */
/*
 * Folded lines as FlameGraph's difffolded.pl reads them (its 2014 rules,
 * unchanged through FlameGraph 41fee1f, 2024-10):
 *
 * - one trailing '\n' is removed (Perl's chomp); a '\r' stays;
 * - the line must match ^(.*)\s+?(\d+(?:\.\d*)?)$: the count is what
 *   follows the last whitespace character (space, \t, \n, \v, \f, \r)
 *   and must be ASCII digits with at most one '.' after the first digit;
 *   the stack is everything before that one character, so any other
 *   trailing blanks stay part of the stack;
 * - a line that does not match (blank, no count, a CRLF line ending)
 *   still creates the stack "" with nothing added to it: the script
 *   prints it as " 0 0" (or adds it to the stack of a line " 5");
 * - -s replaces every "0x" followed by hex digits, anywhere in the stack,
 *   with "0x..." ("0X" is not matched).
 */
#ifndef PD_TOOLS_DIFF_LINE_H
#define PD_TOOLS_DIFF_LINE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Splits line (len bytes, its '\n' included or not) into the stack's
 * length and the count's bytes. False when the line does not match.
 */
bool diff_line__split(const char *line, size_t len, size_t *stack_len,
		      const char **count, size_t *count_len);

/*
 * -s: the stack with hex numbers replaced, into out (room for
 * 2 * len + 1 bytes). Returns the new length.
 */
size_t diff_line__strip_hex(const char *s, size_t len, char *out);

#endif /* PD_TOOLS_DIFF_LINE_H */
