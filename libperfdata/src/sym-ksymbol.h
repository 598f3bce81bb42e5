/* SPDX-License-Identifier: MIT */
/*
 * The DSO of one kernel symbol a recording announces in a KSYMBOL record
 * (a BPF program, trampoline or dispatcher, an ftrace or kprobe
 * out-of-line page), for the session's kernel maps. Not installed.
 */
#ifndef PD_SYM_KSYMBOL_H
#define PD_SYM_KSYMBOL_H

#include <stdint.h>

struct pd_dso;
struct pd_symbolizer;

/*
 * A new DSO (freed with s) holding one symbol, name, over [0, len) of
 * its map; NULL on ENOMEM.
 */
struct pd_dso *pd__symbolizer_ksymbol(struct pd_symbolizer *s,
				      const char *name, uint32_t len);

#endif /* PD_SYM_KSYMBOL_H */
