// SPDX-License-Identifier: MIT
/*
 * Java method signatures as perf 6.1 demangles ELF symbol names it could
 * not demangle as C++ or OCaml (util/demangle-java.c,
 * java_demangle_sym() with JAVA_DEMANGLE_NORET): what perf-jvmti style
 * JIT names ("Ljava/lang/String;hashCode()I", in jitdumps and so in the
 * ELF files perf inject writes) look like in perf script.
 *
 * The rules, as perf applies them to the name up to its last ')' (the
 * return type after it is dropped), one character at a time in one of
 * five modes, starting in PREFIX:
 * - 'L' starts the class (PREFIX -> CLASS) or, among the parameters
 *   (TYPE), a class parameter (-> CTYPE, after ", " unless first);
 *   elsewhere it is copied;
 * - 'B' 'C' 'D' 'F' 'I' 'J' 'S' 'Z' are base types among the parameters
 *   (", " unless first, the type's name, then "[]" per pending '[');
 *   'V' is "void" there (with its "[]", no comma, not counted); else
 *   copied;
 * - '[' counts an array level, only among the parameters (else: no
 *   demangling); a class parameter does not use the count up, the next
 *   base type does;
 * - '(' only after the class (FUNC): copied, parameters start; ')' only
 *   among them: copied, the comma count restarts;
 * - ';' only in a class: ends it (CLASS -> FUNC, with a '.' when a
 *   letter follows; CTYPE -> TYPE); '/' only in a class: '.';
 * - anything else is copied.
 * The output is cut at 3 * strlen + 1 bytes, as perf's buffer is.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sym-internal.h"

enum jmode { M_PREFIX, M_CLASS, M_FUNC, M_TYPE, M_CTYPE };

struct jout {
	char *buf;
	size_t len, cap;	/* cap includes the NUL */
};

/* perf's scnprintf(): what fits, always NUL-terminated */
static void put(struct jout *o, const char *s)
{
	while (*s && o->len + 1 < o->cap)
		o->buf[o->len++] = *s++;
	o->buf[o->len] = '\0';
}

static void put_char(struct jout *o, char c)
{
	char s[2] = { c, '\0' };

	put(o, s);
}

static const char *base_type(char c)
{
	switch (c) {
	case 'B': return "byte";
	case 'C': return "char";
	case 'D': return "double";
	case 'F': return "float";
	case 'I': return "int";
	case 'J': return "long";
	case 'S': return "short";
	case 'Z': return "boolean";
	default: return NULL;
	}
}

static void put_arrays(struct jout *o, int *array)
{
	for (; *array > 0; (*array)--)
		put(o, "[]");
	*array = 0;
}

char *sym_demangle_java(const char *name)
{
	const char *close = strrchr(name, ')'), *q;
	enum jmode mode = M_PREFIX;
	int array = 0, narg = 0;
	struct jout o;

	if (!close)
		return NULL;
	o.cap = strlen(name) * 3 + 1;
	o.buf = malloc(o.cap);
	if (!o.buf)
		return NULL;
	o.len = 0;
	o.buf[0] = '\0';
	for (q = name; q != close + 1 && o.len != o.cap - 1; q++) {
		switch (*q) {
		case 'L':
			if (mode == M_PREFIX) {
				mode = M_CLASS;
			} else if (mode == M_TYPE) {
				if (narg)
					put(&o, ", ");
				narg++;
				mode = M_CTYPE;
			} else {
				put_char(&o, *q);
			}
			break;
		case 'B': case 'C': case 'D': case 'F':
		case 'I': case 'J': case 'S': case 'Z':
			if (mode == M_TYPE) {
				if (narg)
					put(&o, ", ");
				put(&o, base_type(*q));
				put_arrays(&o, &array);
				narg++;
			} else {
				put_char(&o, *q);
			}
			break;
		case 'V':
			if (mode == M_TYPE) {
				put(&o, "void");
				put_arrays(&o, &array);
			} else {
				put_char(&o, *q);
			}
			break;
		case '[':
			if (mode != M_TYPE)
				goto fail;
			array++;
			break;
		case '(':
			if (mode != M_FUNC)
				goto fail;
			put_char(&o, *q);
			mode = M_TYPE;
			break;
		case ')':
			if (mode != M_TYPE)
				goto fail;
			put_char(&o, *q);
			narg = 0;
			break;
		case ';':
			if (mode != M_CLASS && mode != M_CTYPE)
				goto fail;
			if (mode == M_CLASS && isalpha((unsigned char)q[1]))
				put_char(&o, '.');
			mode = mode == M_CLASS ? M_FUNC : M_TYPE;
			break;
		case '/':
			if (mode != M_CLASS && mode != M_CTYPE)
				goto fail;
			put_char(&o, '.');
			break;
		default:
			put_char(&o, *q);
		}
	}
	return o.buf;
fail:
	free(o.buf);
	return NULL;
}
