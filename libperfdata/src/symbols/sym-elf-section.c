// SPDX-License-Identifier: MIT
/*
 * Whether an ELF file has a section: what debuginfod.c asks of a file
 * the servers sent (has it a .symtab and DWARF?) and the unwinder of a
 * mapped file (has it CFI?). Not in the symbol loader (sym-elf.c),
 * which is above debuginfod.c: it fetches files through it.
 */
#include <gelf.h>
#include <libelf.h>
#include <string.h>

#include "sym-internal.h"

/*
 * Whether elf has a section of that name with contents (not NOBITS) and,
 * unless type is 0, of that type.
 */
bool sym_elf__has_section(Elf *elf, const char *name, Elf64_Word type)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (n && !strcmp(n, name) && (!type || sh.sh_type == type))
			return true;
	}
	return false;
}
