// SPDX-License-Identifier: MIT
/* See json-out.h. */
#include <stdint.h>
#include <string.h>

#include "json-out.h"

/* The length of the UTF-8 sequence at s (at most n bytes), 0 if none. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, c = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	return len;
}

void json_str(FILE *f, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, k;

	fputc('"', f);
	while (i < len) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc(c, f);
			i++;
		} else if (c == '\n') {
			fputs("\\n", f);
			i++;
		} else if (c == '\t') {
			fputs("\\t", f);
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
			i++;
		} else if (c < 0x80) {
			fputc(c, f);
			i++;
		} else if ((k = utf8_len(s + i, len - i))) {
			fwrite(s + i, 1, k, f);
			i += k;
		} else {
			fprintf(f, "\\u%04x", c);
			i++;
		}
	}
	fputc('"', f);
}

void json_cstr(FILE *f, const char *s)
{
	if (!s)
		fputs("null", f);
	else
		json_str(f, s, strlen(s));
}

void json_hex(FILE *f, const void *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *b = p;
	size_t i;

	fputc('"', f);
	for (i = 0; i < len; i++) {
		fputc(digits[b[i] >> 4], f);
		fputc(digits[b[i] & 15], f);
	}
	fputc('"', f);
}
