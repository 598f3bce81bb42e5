// SPDX-License-Identifier: MIT
/*
 * symlookup: the symbolizer as a filter, for the shell tests to compare
 * with perf script, addr2line and kallsyms.
 *
 *   symlookup [--symfs DIR] [--kallsyms FILE] [--no-demangle]
 *       stdin "DSO ADDR [BUILDID]" -> "NAME+0xOFF" or "[unknown]", as
 *       perf script prints a callchain frame (DSO "[kernel.kallsyms]":
 *       ADDR absolute; "/tmp/perf-PID.map": absolute; else map_ip)
 *   symlookup -i FILE
 *       stdin "ADDR" (ELF virtual address) -> addr2line -i -f -C lines
 *   symlookup -I FILE
 *       the same, ADDR a map_ip address (pd_dso__inline_frames)
 *   symlookup -P
 *       stdin: `perf script --no-inline -F ip,sym,symoff,dso` lines;
 *       stdout: the same with each frame replaced by its inline chain
 *       the way perf script prints DWARF-unwound callchains (see
 *       pd_inline_frame.perf_name); other lines unchanged
 *   symlookup -P --build-id HEX
 *       the same, every DSO given that build id (found through the
 *       build-id cache, as in a recording's build-id table)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/symbols.h>

static int parse_bid(const char *hex, uint8_t *bid)
{
	int n = 0;

	while (hex[0] && hex[1] && n < 20) {
		unsigned int v;

		if (sscanf(hex, "%2x", &v) != 1)
			break;
		bid[n++] = (uint8_t)v;
		hex += 2;
	}
	return n;
}

static void print_inline(struct pd_dso *d, uint64_t addr, bool vaddr)
{
	struct pd_inline_frame f[64];
	int i, n;

	n = vaddr ? pd_dso__addr2line(d, addr, f, 64) :
		    pd_dso__inline_frames(d, addr, f, 64);
	if (n <= 0) {
		printf("??\n??:0\n");
		return;
	}
	for (i = 0; i < n; i++) {
		printf("%s\n", f[i].function ? f[i].function : "??");
		/* addr2line: "?" for an unknown line */
		printf("%s:", f[i].file ? f[i].file : "??");
		if (f[i].line)
			printf("%u\n", f[i].line);
		else
			printf("?\n");
	}
}

/* "\t%16llx SYM+0xOFF (DSO)" */
static void perf_inline_line(struct pd_symbolizer *s, const char *line,
			     const uint8_t *bid, int nb)
{
	struct pd_inline_frame f[64];
	const struct pd_sym *sym;
	const char *open, *close;
	unsigned long long ip;
	char path[4096];
	struct pd_dso *d;
	int i, n, len;

	open = strrchr(line, '(');
	close = open ? strrchr(open, ')') : NULL;
	if (sscanf(line, " %llx", &ip) != 1 || !close ||
	    close - open - 1 >= (long)sizeof(path) || open[1] == '[') {
		fputs(line, stdout);
		return;
	}
	len = (int)(close - open - 1);
	memcpy(path, open + 1, len);
	path[len] = '\0';
	d = pd_symbolizer__dso(s, path, nb ? bid : NULL, nb);
	sym = d ? pd_dso__find(d, ip) : NULL;
	n = sym ? pd_dso__inline_frames(d, ip, f, 64) : 0;
	if (n <= 0) {
		fputs(line, stdout);
		return;
	}
	for (i = 0; i < n; i++) {
		const char *name = f[i].perf_name ? f[i].perf_name : "??";

		if (!strcmp(name, sym->name))
			fputs(line, stdout);
		else
			printf("\t%16llx %s+0x%llx (inlined)\n", ip, name,
			       ip - (unsigned long long)sym->start);
	}
}

int main(int argc, char **argv)
{
	struct pd_symbolizer_opts opts = { .sz = sizeof(opts) };
	struct pd_symbolizer *s;
	const char *inl = NULL;
	bool inl_vaddr = false, perf_inline = false;
	uint8_t p_bid[20];
	int p_nb = 0;
	char line[8192];
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--symfs") && i + 1 < argc)
			opts.symfs = argv[++i];
		else if (!strcmp(argv[i], "--kallsyms") && i + 1 < argc)
			opts.kallsyms = argv[++i];
		else if (!strcmp(argv[i], "-P"))
			perf_inline = true;
		else if (!strcmp(argv[i], "--build-id") && i + 1 < argc)
			p_nb = parse_bid(argv[++i], p_bid);
		else if (!strcmp(argv[i], "--no-demangle"))
			opts.no_demangle = true;
		else if ((!strcmp(argv[i], "-i") || !strcmp(argv[i], "-I")) &&
			 i + 1 < argc) {
			inl_vaddr = argv[i][1] == 'i';
			inl = argv[++i];
		} else {
			fprintf(stderr, "usage: symlookup [--symfs DIR] [--kallsyms FILE] [--no-demangle] [-i|-I FILE|-P [--build-id HEX]]\n");
			return 2;
		}
	}
	s = pd_symbolizer__new(&opts);
	if (!s)
		return 1;
	while (fgets(line, sizeof(line), stdin)) {
		char path[4096], bidhex[64] = "";
		unsigned long long addr;
		const struct pd_sym *sym;
		struct pd_dso *d;
		uint8_t bid[20];
		int nb = 0, pid;

		if (perf_inline) {
			perf_inline_line(s, line, p_bid, p_nb);
			continue;
		}
		if (inl) {
			if (sscanf(line, "%llx", &addr) != 1)
				continue;
			d = pd_symbolizer__dso(s, inl, NULL, 0);
			print_inline(d, addr, inl_vaddr);
			continue;
		}
		if (sscanf(line, "%4095s %llx %63s", path, &addr, bidhex) < 2) {
			printf("[bad line]\n");
			continue;
		}
		if (bidhex[0])
			nb = parse_bid(bidhex, bid);
		if (!strcmp(path, "[kernel.kallsyms]"))
			d = pd_symbolizer__kernel(s, nb ? bid : NULL, nb);
		else if (sscanf(path, "/tmp/perf-%d.map", &pid) == 1)
			d = pd_symbolizer__perf_map(s, pid);
		else
			d = pd_symbolizer__dso(s, path, nb ? bid : NULL, nb);
		sym = d ? pd_dso__find(d, addr) : NULL;
		if (sym)
			printf("%s+0x%llx\n", sym->name,
			       (unsigned long long)(addr - sym->start));
		else
			printf("[unknown]\n");
	}
	pd_symbolizer__free(s);
	return fclose(stdout) ? 1 : 0;
}
