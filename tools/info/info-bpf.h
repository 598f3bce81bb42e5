/* SPDX-License-Identifier: MIT */
/*
 * The BPF_PROG_INFO and BPF_BTF features as perf's header view prints
 * them: one line per program (or per sub-program) with its kernel symbol
 * name, address and size, and one line per BTF object.
 */
#ifndef PD_INFO_BPF_H
#define PD_INFO_BPF_H

#include <stdio.h>

#include <perfdata/features.h>

void pd_info_print_bpf_progs(FILE *out, const struct pd_features *f);
void pd_info_print_bpf_btf(FILE *out, const struct pd_features *f);

#endif /* PD_INFO_BPF_H */
