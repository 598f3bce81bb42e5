/* SPDX-License-Identifier: MIT */
/*
 * Header feature sections from one byte order to the other.
 */
#ifndef PD_FEAT_SWAP_H
#define PD_FEAT_SWAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Convert one feature section in place between host order and the other
 * byte order: to_foreign, from host order to the other one (writing);
 * else from the other order to host order (reading). Layouts are those
 * of feat-parse.c. Returns 0, or -PD_ERR_BAD_FEATURE when the section is
 * malformed or its layout is one this library cannot convert (id 0, ids
 * past CLN_SIZE, BPF_PROG_INFO, BPF_BTF): the caller drops the feature.
 * On error the section is left unchanged. TRACING_DATA is returned as
 * is: the blob states its own byte order.
 *
 * CPU_TOPOLOGY's per-cpu arrays have NRCPUS' avail count of entries,
 * which this function does not have: it infers the count from the
 * section (see feat-swap.c). Callers that hold NRCPUS should use
 * pd__feat_swap_cpu_topology(), which decides as the parser does.
 */
int pd__feat_swap(unsigned int feat, void *data, size_t size, bool to_foreign);

/* CPU_TOPOLOGY with NRCPUS' nr_cpus_avail (in host order) known. */
int pd__feat_swap_cpu_topology(void *data, size_t size, bool to_foreign,
			       uint32_t nr_cpus_avail);

#endif /* PD_FEAT_SWAP_H */
