#include <errno.h>
#include <string.h>
#include <perfdata/compat.h>
#include <perfdata/format.h>
#include "internal.h"
static const struct pd_perf_target t418 = { "4.18", "tmp 4.18", PD_PERF_VERSION(4,18), 112, 112, (1ULL<<20)-1, 15, 0, (1ULL<<17)-2, 81, 23, PD_TGT_SKIPS_UNKNOWN_KERNEL, "", "" };
static const struct pd_perf_target t61 = { "6.1", "tmp 6.1", PD_PERF_VERSION(6,1), 128, 128, (1ULL<<24)-1, 31, (1ULL<<17), (1ULL<<22)-2, 83, 32, PD_TGT_BUILD_ID_SIZE|PD_TGT_MMAP2_BUILD_ID|PD_TGT_CPU_MAP_RANGE|PD_TGT_SKIPS_UNKNOWN_KERNEL|PD_TGT_TIME_CONV_EXT|PD_TGT_ID_INDEX_EXT, "", "" };
static const struct pd_perf_target *const all[] = { &t418, &t61, NULL };
PD_EXPORT const struct pd_perf_target *const *pd_perf_targets(void) { return all; }
PD_EXPORT const struct pd_perf_target *pd_perf_target__find(const char *n)
{ for (int i = 0; all[i]; i++) if (!strcmp(all[i]->name, n)) return all[i]; errno = ENOENT; return NULL; }
PD_EXPORT bool pd_perf_target__knows_record(const struct pd_perf_target *t, uint32_t type)
{ if (type < 64) return t->kernel_records & (1ULL << type); return type < t->user_record_max; }
PD_EXPORT bool pd_perf_target__knows_feature(const struct pd_perf_target *t, unsigned int f)
{ return f > 0 && f < t->last_feature; }
