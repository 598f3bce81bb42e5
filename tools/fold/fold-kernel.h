/* SPDX-License-Identifier: MIT */
/*
 * pd-fold --symbolize's raw kernel frames (fold-raw.h, pd-fold
 * --raw-kernel): each names an address of the kernel of its build id as
 * an offset from a reference symbol, which the symbols of that kernel
 * from any boot turn back into an address there. The symbols of a kernel
 * come, as pd-fold finds them for a recording of it: from --kallsyms or
 * --vmlinux when given; else from the archive (--archive) when its
 * manifest says they are that kernel's; else from this machine (the
 * build-id cache's [kernel.kallsyms]/BUILDID/kallsyms, /proc/kallsyms
 * when that kernel is running).
 */
#ifndef PD_TOOLS_FOLD_KERNEL_H
#define PD_TOOLS_FOLD_KERNEL_H

#include <perfdata/session.h>

struct fold_data_opts;
struct fold_raw;
struct fold_kernels;

/*
 * o: --symbolize's options (--kallsyms, --vmlinux, --symfs...);
 * archive_dir: where an --archive was extracted, or NULL. NULL and
 * errno on failure.
 */
struct fold_kernels *fold_kernels__new(const struct fold_data_opts *o,
				       const char *archive_dir);
void fold_kernels__free(struct fold_kernels *k);

/*
 * The raw kernel frame r resolved into *fr as the session resolves a
 * kernel address with those symbols: in the kernel's map (the span of
 * its symbols, moved there as pd-fold moves it) named by its symbol;
 * outside, no map ("[unknown]"). Without symbols of that kernel (one
 * warning per build id says why), a "[kernel.kallsyms]" frame without a
 * symbol, as pd-fold shows a kernel address it cannot name, at the
 * offset. 0 or -ENOMEM.
 */
int fold_kernels__frame(struct fold_kernels *k, const struct fold_raw *r,
			struct pd_frame *fr);

#endif /* PD_TOOLS_FOLD_KERNEL_H */
