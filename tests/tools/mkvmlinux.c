// SPDX-License-Identifier: MIT
/*
 * mkvmlinux [-p PREFIX] [-d DELTA] [-b BUILDID] [-s SYMBOL] KALLSYMS OUT:
 * write a stand-in vmlinux for the kernel KALLSYMS was read from, so
 * that `perf script --vmlinux=OUT` has a kernel image to name frames
 * with on a machine without the real one.
 *
 * OUT is an x86_64 ET_EXEC with
 *  - .text (SHT_NOBITS: perf reads no code for names) from _text to
 *    _etext of KALLSYMS, linked DELTA (hex) bytes below the addresses
 *    kallsyms shows, as a KASLR-moved kernel is: names then only match
 *    when the reader relocates by the recorded `_text`;
 *  - with -s SYMBOL, a second section ".init.text" from SYMBOL's address
 *    to _etext (.text then ends at SYMBOL), to see what a reader does with
 *    symbols outside .text;
 *  - .note.gnu.build-id with BUILDID (hex; default: KALLSYMS's file name);
 *  - .symtab: every core-kernel text symbol (t T w W) as STT_FUNC sized
 *    up to the next address (so sizes come from the ELF, not a fix-up),
 *    named PREFIX + name; _text, _stext and _etext stay STT_NOTYPE and
 *    unprefixed, as the reader looks _text up by name.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ksym {
	uint64_t addr;
	char type;
	char *name;
};

static struct ksym *syms;
static size_t nr_syms;

static void die(const char *what)
{
	fprintf(stderr, "mkvmlinux: %s: %s\n", what,
		errno ? strerror(errno) : elf_errmsg(-1));
	exit(1);
}

static int cmp_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x < y ? -1 : 1;
}

static void read_kallsyms(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024], name[600], type;
	unsigned long long addr;
	size_t alloc = 0;

	if (!f)
		die(path);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %599s", &addr, &type, name) != 3)
			continue;
		if (strchr(line, '[') || !strchr("tTwW", type))
			continue;
		if (nr_syms == alloc) {
			alloc = alloc ? 2 * alloc : 1024;
			syms = realloc(syms, alloc * sizeof(*syms));
			if (!syms)
				die("realloc");
		}
		syms[nr_syms].addr = addr;
		syms[nr_syms].type = type;
		syms[nr_syms].name = strdup(name);
		nr_syms++;
	}
	fclose(f);
	/* stable: kallsyms order among equal addresses stays */
	qsort(syms, nr_syms, sizeof(*syms), cmp_addr);
}

static uint64_t find_addr(const char *name)
{
	size_t i;

	for (i = 0; i < nr_syms; i++)
		if (!strcmp(syms[i].name, name))
			return syms[i].addr;
	fprintf(stderr, "mkvmlinux: no symbol %s\n", name);
	exit(1);
}

/* A growing byte buffer: string tables, the symbol table. */
struct buf {
	char *p;
	size_t n, alloc;
};

static size_t buf_add(struct buf *b, const void *data, size_t n)
{
	size_t off = b->n;

	if (b->n + n > b->alloc) {
		b->alloc = (b->n + n) * 2 + 256;
		b->p = realloc(b->p, b->alloc);
		if (!b->p)
			die("realloc");
	}
	memcpy(b->p + b->n, data, n);
	b->n += n;
	return off;
}

static size_t str_add(struct buf *b, const char *prefix, const char *s)
{
	size_t off = buf_add(b, prefix, strlen(prefix));

	buf_add(b, s, strlen(s) + 1);
	return off;
}

static Elf_Scn *new_section(Elf *elf, struct buf *shstr, const char *name,
			    uint32_t type, uint64_t flags, uint64_t addr,
			    void *data, size_t size, size_t align)
{
	Elf_Scn *scn = elf_newscn(elf);
	Elf_Data *d;
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh))
		die("elf_newscn");
	sh.sh_name = str_add(shstr, "", name);
	sh.sh_type = type;
	sh.sh_flags = flags;
	sh.sh_addr = addr;
	sh.sh_addralign = align;
	if (type == SHT_NOBITS)
		sh.sh_size = size;
	if (!gelf_update_shdr(scn, &sh))
		die("gelf_update_shdr");
	d = elf_newdata(scn);
	if (!d)
		die("elf_newdata");
	d->d_buf = type == SHT_NOBITS ? NULL : data;
	d->d_size = size;
	d->d_type = ELF_T_BYTE;
	d->d_align = align;
	return scn;
}

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

int main(int argc, char **argv)
{
	const char *prefix = "", *bidhex = NULL, *split_sym = NULL, *base;
	uint64_t delta = 0, text, etext, split, note_addr;
	struct buf shstr = { 0 }, strtab = { 0 }, symtab = { 0 };
	uint8_t note[12 + 4 + 20];
	uint32_t w;
	Elf_Scn *stext, *sinit = NULL, *ssym, *sstr;
	size_t text_idx, init_idx = 0, i, nlocal = 0, pass;
	GElf_Ehdr eh;
	GElf_Sym sym;
	GElf_Shdr sh;
	Elf *elf;
	int opt, fd;

	while ((opt = getopt(argc, argv, "p:d:b:s:")) != -1) {
		switch (opt) {
		case 'p':
			prefix = optarg;
			break;
		case 'd':
			delta = strtoull(optarg, NULL, 16);
			break;
		case 'b':
			bidhex = optarg;
			break;
		case 's':
			split_sym = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (argc - optind != 2)
		goto usage;
	read_kallsyms(argv[optind]);
	base = strrchr(argv[optind], '/');
	if (!bidhex)
		bidhex = base ? base + 1 : argv[optind];
	if (strlen(bidhex) != 40) {
		fprintf(stderr, "mkvmlinux: build id %s: 40 hex digits wanted\n",
			bidhex);
		return 1;
	}
	text = find_addr("_text");
	etext = find_addr("_etext");
	split = split_sym ? find_addr(split_sym) : etext;

	elf_version(EV_CURRENT);
	fd = open(argv[optind + 1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die(argv[optind + 1]);
	elf = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!elf || !gelf_newehdr(elf, ELFCLASS64) || !gelf_getehdr(elf, &eh))
		die("elf_begin");
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_type = ET_EXEC;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_entry = text - delta;

	buf_add(&shstr, "", 1);
	stext = new_section(elf, &shstr, ".text", SHT_NOBITS,
			    SHF_ALLOC | SHF_EXECINSTR, text - delta, NULL,
			    split - text, 4096);
	text_idx = elf_ndxscn(stext);
	if (split != etext) {
		sinit = new_section(elf, &shstr, ".init.text", SHT_NOBITS,
				    SHF_ALLOC | SHF_EXECINSTR, split - delta,
				    NULL, etext - split, 16);
		init_idx = elf_ndxscn(sinit);
	}

	/* the GNU build-id note: namesz 4, descsz 20, type 3, "GNU" */
	w = 4;
	memcpy(note, &w, 4);
	w = 20;
	memcpy(note + 4, &w, 4);
	w = NT_GNU_BUILD_ID;
	memcpy(note + 8, &w, 4);
	memcpy(note + 12, "GNU", 4);
	for (i = 0; i < 20; i++)
		note[16 + i] = (uint8_t)(hexval(bidhex[2 * i]) << 4 |
					 hexval(bidhex[2 * i + 1]));
	note_addr = etext - delta + 4096;
	new_section(elf, &shstr, ".note.gnu.build-id", SHT_NOTE, SHF_ALLOC,
		    note_addr, note, sizeof(note), 4);

	/* symbols: the null one, locals, then globals (ELF's order) */
	buf_add(&strtab, "", 1);
	memset(&sym, 0, sizeof(sym));
	buf_add(&symtab, &sym, sizeof(sym));
	nlocal = 1;
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < nr_syms; i++) {
			const struct ksym *k = &syms[i];
			bool label = !strcmp(k->name, "_text") ||
				     !strcmp(k->name, "_stext") ||
				     !strcmp(k->name, "_etext");
			bool local = k->type == 't';
			size_t j;

			if (local != (pass == 0))
				continue;
			if (k->addr < text || k->addr > etext)
				continue;
			memset(&sym, 0, sizeof(sym));
			sym.st_name = str_add(&strtab, label ? "" : prefix,
					      k->name);
			sym.st_value = k->addr - delta;
			sym.st_shndx = k->addr >= split && sinit && !label ?
				       init_idx : text_idx;
			if (label) {
				sym.st_info = GELF_ST_INFO(STB_GLOBAL, STT_NOTYPE);
			} else {
				sym.st_info = GELF_ST_INFO(
					k->type == 'w' || k->type == 'W' ?
					STB_WEAK : local ? STB_LOCAL : STB_GLOBAL,
					STT_FUNC);
				for (j = i + 1; j < nr_syms &&
				     syms[j].addr == k->addr; j++)
					;
				sym.st_size = j < nr_syms ?
					      syms[j].addr - k->addr : 0;
			}
			buf_add(&symtab, &sym, sizeof(sym));
			if (pass == 0)
				nlocal++;
		}
	}
	ssym = new_section(elf, &shstr, ".symtab", SHT_SYMTAB, 0, 0,
			   symtab.p, symtab.n, 8);
	sstr = new_section(elf, &shstr, ".strtab", SHT_STRTAB, 0, 0,
			   strtab.p, strtab.n, 1);
	if (!gelf_getshdr(ssym, &sh))
		die("gelf_getshdr");
	sh.sh_link = elf_ndxscn(sstr);
	sh.sh_info = nlocal;
	sh.sh_entsize = sizeof(Elf64_Sym);
	if (!gelf_update_shdr(ssym, &sh))
		die("gelf_update_shdr");
	elf_getdata(ssym, NULL)->d_type = ELF_T_SYM;
	{
		Elf_Scn *s = new_section(elf, &shstr, ".shstrtab", SHT_STRTAB,
					 0, 0, NULL, 0, 1);
		Elf_Data *d;

		d = elf_getdata(s, NULL);
		d->d_buf = shstr.p;
		d->d_size = shstr.n;
		eh.e_shstrndx = elf_ndxscn(s);
	}
	if (!gelf_update_ehdr(elf, &eh))
		die("gelf_update_ehdr");
	if (elf_update(elf, ELF_C_WRITE) < 0)
		die("elf_update");
	elf_end(elf);
	/* the sections' buffers, which elf_update() wrote out */
	free(shstr.p);
	free(strtab.p);
	free(symtab.p);
	if (close(fd))
		die(argv[optind + 1]);
	return 0;
usage:
	fprintf(stderr,
		"usage: mkvmlinux [-p PREFIX] [-d HEXDELTA] [-b BUILDID] [-s SYMBOL] KALLSYMS OUT\n");
	return 2;
}
