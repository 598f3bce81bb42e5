// SPDX-License-Identifier: MIT
/*
 * The perfs distributions ship: which package, which version it prints,
 * which target's facts it reads by (compat/targets.c) and how it was
 * built. A name a user knows their machine by ("debian11", "centos8")
 * then converts for the perf that machine really has.
 *
 * Sources, per entry: the package and its build options where they could
 * be run or downloaded here (Debian 11 from a debootstrap chroot of
 * bullseye, Debian 12 on this project's test host, 2026-11-25); else the
 * distribution's kernel version, which its perf is built from (tools/perf
 * of the same tree), as the distribution publishes it. "Not verified"
 * marks a build option nobody here could check.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include <perfdata/compat.h>

#include "base/internal.h"

#define ALIASES(...)	((const char *const[]){ __VA_ARGS__, NULL })

/*
 * Targets before 5.2 know no COMPRESSED record: their build does not
 * matter for compression, which the converter never writes for them.
 */
#define NO_COMPRESSED	"knows no compressed records (before 5.2)"
#define NOT_VERIFIED	"zstd: not verified"

/*
 * Debian 10 buster: linux-perf-4.19, built from the 4.19 LTS kernel
 * (4.19.x). tools/perf of 4.19.95 reads what 4.18 reads: attr 112 bytes,
 * features up to MEM_TOPOLOGY (22), perf-tool records up to 80, kernel
 * records 1-16 (header.h, event.h, session.c of github
 * Pascal-0x90/linux-4.19).
 */
static const struct pd_perf_distro debian10 = {
	.name = "debian10",
	.description = "Debian 10 (buster)",
	.package = "linux-perf-4.19 (4.19.x)",
	.perf_version = "4.19.x",
	.target = "4.18",
	.build_note = NO_COMPRESSED,
	.aliases = ALIASES("buster"),
};

/*
 * Debian 11 bullseye: linux-perf-5.10 5.10.223-1 (the meta-package
 * linux-perf 5.10.223-1 depends on it). `perf_5.10 version
 * --build-options` in a bullseye chroot: "perf version 5.10.223",
 * "zstd: [ OFF ]" (run 2026-11-25): a -z recording shows 0 samples and
 * no error in it.
 */
static const struct pd_perf_distro debian11 = {
	.name = "debian11",
	.description = "Debian 11 (bullseye)",
	.package = "linux-perf-5.10 5.10.223-1",
	.perf_version = "5.10.223",
	.target = "5.10",
	.build = PD_TGT_NO_ZSTD,
	.build_note = "zstd: OFF (perf_5.10 version --build-options)",
	.aliases = ALIASES("bullseye"),
};

/*
 * Debian 12 bookworm: linux-perf 6.1.192-2 (the 6.1 LTS kernel,
 * bookworm's updates follow it). `perf version --build-options` on the
 * test host: "perf version 6.1.192", "zstd: [ on  ]".
 */
static const struct pd_perf_distro debian12 = {
	.name = "debian12",
	.description = "Debian 12 (bookworm)",
	.package = "linux-perf 6.1.192-2",
	.perf_version = "6.1.x",
	.target = "6.1",
	.build = PD_TGT_ZSTD,
	.build_note = "zstd: on (perf version --build-options)",
	.aliases = ALIASES("bookworm"),
};

/*
 * Debian 13 trixie: linux-perf 6.12.x (the 6.12 LTS kernel). Built with
 * zstd: its perf record -z writes COMPRESSED records
 * (testdata/newer/perf6.12-zstd-pipe.data), and the probe of its perf
 * 6.12.117 (compat/probe.c, docs/compat.md) saw it read them. 6.12 reads
 * what 6.8 reads (checked in the 6.12.19 tree, see the 6.8 target).
 */
static const struct pd_perf_distro debian13 = {
	.name = "debian13",
	.description = "Debian 13 (trixie)",
	.package = "linux-perf 6.12.x",
	.perf_version = "6.12.x",
	.target = "6.8",
	.build = PD_TGT_ZSTD,
	.build_note = "zstd: on (its perf -z writes and reads compressed records)",
	.aliases = ALIASES("trixie"),
};

/* Ubuntu 18.04 bionic: linux-tools-4.15.0-* (its GA kernel, 4.15). */
static const struct pd_perf_distro ubuntu1804 = {
	.name = "ubuntu18.04",
	.description = "Ubuntu 18.04 LTS (bionic)",
	.package = "linux-tools-4.15.0-*",
	.perf_version = "4.15.x",
	.target = "4.15",
	.build_note = NO_COMPRESSED,
	.aliases = ALIASES("bionic"),
};

/* Ubuntu 20.04 focal: linux-tools-5.4.0-* (its GA kernel, 5.4). */
static const struct pd_perf_distro ubuntu2004 = {
	.name = "ubuntu20.04",
	.description = "Ubuntu 20.04 LTS (focal)",
	.package = "linux-tools-5.4.0-*",
	.perf_version = "5.4.x",
	.target = "5.4",
	.build_note = NOT_VERIFIED,
	.aliases = ALIASES("focal"),
};

/*
 * Ubuntu 22.04 jammy: linux-tools-5.15.0-* (its GA kernel, 5.15). 5.15
 * reads what 5.14 reads: attr 128 bytes, features up to
 * HYBRID_CPU_PMU_CAPS (31), perf-tool records up to 81, kernel records
 * 1-20 (github Tptogiar/linux-5.15.85).
 */
static const struct pd_perf_distro ubuntu2204 = {
	.name = "ubuntu22.04",
	.description = "Ubuntu 22.04 LTS (jammy)",
	.package = "linux-tools-5.15.0-*",
	.perf_version = "5.15.x",
	.target = "5.14",
	.build_note = NOT_VERIFIED,
	.aliases = ALIASES("jammy"),
};

/* Ubuntu 24.04 noble: linux-tools-6.8.0-* (its GA kernel, 6.8). */
static const struct pd_perf_distro ubuntu2404 = {
	.name = "ubuntu24.04",
	.description = "Ubuntu 24.04 LTS (noble)",
	.package = "linux-tools-6.8.0-*",
	.perf_version = "6.8.x",
	.target = "6.8",
	.build_note = NOT_VERIFIED,
	.aliases = ALIASES("noble"),
};

/*
 * RHEL 7.9: perf-3.10.0-1160.el7, a tools/perf rebased near upstream 5.0
 * (the rhel7 target). CentOS 7 and Oracle Linux 7 rebuild the same
 * package.
 */
static const struct pd_perf_distro rhel7 = {
	.name = "rhel7",
	.description = "RHEL 7 / CentOS 7 / Oracle Linux 7",
	.package = "perf-3.10.0-1160.el7",
	.perf_version = "3.10.0-1160.el7",
	.target = "rhel7",
	.build_note = NO_COMPRESSED,
	.aliases = ALIASES("centos7", "ol7", "oraclelinux7"),
};

/*
 * RHEL 8: perf-4.18.0-*.el8. The rhel8 target holds RHEL 8.1's facts
 * (4.18.0-147); later minor releases rebase perf further and read at
 * least as much. CentOS 8, AlmaLinux 8, Rocky Linux 8 and Oracle Linux 8
 * rebuild the same package.
 */
static const struct pd_perf_distro rhel8 = {
	.name = "rhel8",
	.description = "RHEL 8 / CentOS 8 / Alma 8 / Rocky 8 / Oracle Linux 8",
	.package = "perf-4.18.0-*.el8",
	.perf_version = "4.18.0-*.el8",
	.target = "rhel8",
	.build_note = "RHEL 8.1's perf knows no compressed records",
	.aliases = ALIASES("centos8", "alma8", "almalinux8", "rocky8",
			   "rockylinux8", "ol8", "oraclelinux8"),
};

/* RHEL 9: perf-5.14.0-*.el9 (upstream 5.14 facts: the rhel9 target). */
static const struct pd_perf_distro rhel9 = {
	.name = "rhel9",
	.description = "RHEL 9 / CentOS Stream 9 / Alma 9 / Rocky 9 / Oracle Linux 9",
	.package = "perf-5.14.0-*.el9",
	.perf_version = "5.14.0-*.el9",
	.target = "rhel9",
	.build_note = NOT_VERIFIED,
	.aliases = ALIASES("centos9", "centosstream9", "alma9", "almalinux9",
			   "rocky9", "rockylinux9", "ol9", "oraclelinux9"),
};

static const struct pd_perf_distro *const distros[] = {
	&debian10, &debian11, &debian12, &debian13,
	&ubuntu1804, &ubuntu2004, &ubuntu2204, &ubuntu2404,
	&rhel7, &rhel8, &rhel9,
	NULL,
};

PD_EXPORT const struct pd_perf_distro *const *pd_perf_distros(void)
{
	return distros;
}

/* "Debian 11", "centos-8", "RHEL_9" -> "debian11", "centos8", "rhel9" */
static void fold_name(const char *in, char *out, size_t len)
{
	size_t n = 0;

	for (; *in && n + 1 < len; in++)
		if (!isspace((unsigned char)*in) && *in != '-' && *in != '_')
			out[n++] = tolower((unsigned char)*in);
	out[n] = 0;
}

PD_EXPORT const struct pd_perf_distro *pd_perf_distro__find(const char *name)
{
	char want[64];
	size_t i, j;

	if (name && strlen(name) < sizeof(want)) {
		fold_name(name, want, sizeof(want));
		for (i = 0; distros[i]; i++) {
			if (!strcmp(distros[i]->name, want))
				return distros[i];
			for (j = 0; distros[i]->aliases[j]; j++)
				if (!strcmp(distros[i]->aliases[j], want))
					return distros[i];
		}
	}
	errno = ENOENT;
	return NULL;
}
