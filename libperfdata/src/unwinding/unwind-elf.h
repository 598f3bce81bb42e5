/* SPDX-License-Identifier: MIT */
/* unwind-elf.c: the mapped files, as the unwinder reads them itself. */
#ifndef PD_UNWIND_ELF_H
#define PD_UNWIND_ELF_H

#include "unwind-state.h"

struct uw_stray *pd__uw_stray_file(struct pd_unwinder *u, struct pd_dso *dso);
bool pd__uw_file_has_section(const char *path, const char *name);
bool pd__uw_map_bias(const struct pd_unwind_arch *a, Elf *elf,
		     const struct pd_map *map, uint64_t *bias);
bool pd__uw_dso_bias(struct pd_unwinder *u, const struct pd_unwind_arch *a,
		     struct pd_dso *dso, const struct pd_map *map,
		     uint64_t *bias);
uint64_t pd__uw_first_load_page(Elf *elf);
void pd__uw_file_tables(struct pd_unwinder *u, struct pd_dso *dso, Elf *elf,
			struct uw_mod *m);
bool pd__uw_file_bytes(struct pd_unwinder *u, struct pd_dso *dso,
		       const uint8_t **raw, size_t *size);
Elf *pd__uw_shared_elf(struct pd_unwinder *u, struct pd_dso *dso,
		       uint64_t *lo, uint64_t *hi);
void pd__uw_layouts_free(struct pd_unwinder *u);

#endif /* PD_UNWIND_ELF_H */
