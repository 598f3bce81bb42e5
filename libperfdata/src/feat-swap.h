/* SPDX-License-Identifier: MIT */
#ifndef PD_FEAT_SWAP_H
#define PD_FEAT_SWAP_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Convert one feature section in place between host order and the other
 * byte order: to_foreign, from host order to the other one (writing);
 * else from the other order to host order (reading). Returns 0, or a
 * negative PD_ERR_* when the section is malformed or its layout is one
 * this library does not convert (the caller drops the feature).
 */
int pd__feat_swap(unsigned int feat, void *data, size_t size, bool to_foreign);

#endif
