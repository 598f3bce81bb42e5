// SPDX-License-Identifier: MIT
/*
 * Demangling as perf 6.1 (Debian build: libbfd off, libiberty's
 * cplus_demangle on) and addr2line -C do it.
 *
 * perf's demangle_sym() calls cplus_demangle(name, DMGL_NO_OPTS) unless
 * verbose: C++ names without parameters, return types or clone suffixes
 * ("ns::Klass<int>::method"), legacy and v0 Rust names without the hash
 * (libiberty's auto style tries Rust first). When that fails it tries its
 * OCaml rules, then its Java rules (sym-demangle-java.c: names with a
 * ')', such as JIT code in the ELF files perf inject --jit writes).
 * addr2line -C passes DMGL_PARAMS |
 * DMGL_ANSI through bfd_demangle(), which first drops leading '.'/'$'
 * and an '@' suffix and puts them back.
 *
 * libiberty's demangler files carry a linking exception to their LGPL,
 * and libiberty is the code perf itself links: the one way to get
 * byte-identical names (libstdc++'s __cxa_demangle always prints
 * parameters).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "sym-internal.h"

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

/* perf's ocaml_demangle_sym(): "camlMod__fn_12" -> "Mod.fn_12". */
static char *ocaml_demangle(const char *sym)
{
	size_t len = strlen(sym), i = 4, j = 0;
	char *out;

	if (strncmp(sym, "caml", 4) || !isupper((unsigned char)sym[4]))
		return NULL;
	out = malloc(len + 1);
	if (!out)
		return NULL;
	while (i < len) {
		if (sym[i] == '_' && sym[i + 1] == '_') {
			out[j++] = '.';
			i += 2;
		} else if (sym[i] == '$' && isxdigit((unsigned char)sym[i + 1]) &&
			   isxdigit((unsigned char)sym[i + 2])) {
			out[j++] = (char)(hexval(sym[i + 1]) << 4 | hexval(sym[i + 2]));
			i += 3;
		} else {
			out[j++] = sym[i++];
		}
	}
	out[j] = '\0';
	return out;
}

char *sym_demangle(const char *name)
{
	char *d = cplus_demangle(name, DMGL_NO_OPTS);

	if (!d)
		d = ocaml_demangle(name);
	return d ? d : sym_demangle_java(name);
}

char *sym_demangle_params(const char *name)
{
	size_t pre = strspn(name, ".$");
	const char *at = strchr(name + pre, '@');
	char *base, *d, *out;

	base = at ? strndup(name + pre, at - (name + pre)) : strdup(name + pre);
	if (!base)
		return NULL;
	d = cplus_demangle(base, DMGL_PARAMS | DMGL_ANSI);
	free(base);
	if (!d || (!pre && !at))
		return d;
	if (asprintf(&out, "%.*s%s%s", (int)pre, name, d, at ? at : "") < 0)
		out = NULL;
	free(d);
	return out;
}
