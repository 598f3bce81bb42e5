/* SPDX-License-Identifier: MIT */
/*
 * What the session's kernel maps other than the kernel's need of the
 * symbolizer: the DSO of a kernel symbol a recording announces in a
 * KSYMBOL record (a BPF program, trampoline or dispatcher, an ftrace or
 * kprobe out-of-line page), and whether a module's file is there. Not
 * installed.
 */
#ifndef PD_SYM_KMAPS_H
#define PD_SYM_KMAPS_H

#include <stdbool.h>
#include <stdint.h>

struct pd_dso;
struct pd_symbolizer;

/*
 * A new DSO (freed with s) holding one symbol, name, over [0, len) of
 * its map; NULL on ENOMEM.
 */
struct pd_dso *pd__symbolizer_ksymbol(struct pd_symbolizer *s,
				      const char *name, uint32_t len);

/*
 * Whether the module file a recording names (its kernel MMAP's file
 * name) is there to read, under the symfs, as perf's dso__load() looks
 * for it (DSO_BINARY_TYPE__SYSTEM_PATH_KMODULE).
 */
bool pd__symbolizer_has_module_file(struct pd_symbolizer *s,
				    const char *file);

#endif /* PD_SYM_KMAPS_H */
