# perfdata: libperfdata and the pd-* tools.
#
#   make                 library (static and shared) and tools, in build/
#   make check           every test; ends with "N passed, N failed"
#   make check-bins      what make check runs, built (for tests/run.sh FILE...)
#   make asan / ubsan    the same suite built with a sanitizer
#   make sanitize        the same suite with both at once
#   make fuzz            each libFuzzer target (clang) for FUZZ_TIME seconds
#                        (default 60; FUZZ_TARGETS="fuzz-file ..." for some)
#   make bench           throughput against perf on large inputs
#   make bench-system    its system-wide step alone (perf record -a at the sizes
#                        of PD_BENCH_SYSTEM_SIZES, 1G unless set)
#   make bench-stitch    DWARF samples reaching their root, without and with
#                        pd-unwind --stitch (mixed bench, testdata, deep)
#   make distro-check    build and tests in Debian chroots (tests/distro/)
#   make arm64-check     recordings by arm64 perf in an emulated arm64
#                        Debian guest, checked live (tests/arm64/)
#   make fleet-check     GNU parallel over ssh workers and a Slurm job array
#                        on this machine, folding and merging profiles
#                        (tests/fleet/; docs/fleet.md)
#   make bench-fleet     10,000 profiles folded at 1, 2 and 4 job slots and
#                        merged: wall time and merge memory (docs/fleet.md)
#   make static          every pd-* tool linked statically, in build/static/
#   make dist            build/perfdata-VERSION-ARCH-static.tar.gz: those
#                        tools and their man pages
#   make python          the Python module perfdata, in build/python/
#                        (PYTHON=python3; docs/python.md)
#   make install PREFIX=/usr/local DESTDIR=

VERSION     := 0.1.0
SOVERSION   := 0
PREFIX      ?= /usr/local
LIBDIR      ?= $(PREFIX)/lib
INCLUDEDIR  ?= $(PREFIX)/include
BINDIR      ?= $(PREFIX)/bin
MANDIR      ?= $(PREFIX)/share/man
B           ?= build

CC          ?= cc
PKG_CONFIG  ?= pkg-config
# required; libtraceevent is optional (config.mk adds it to DEPS when found)
DEPS        := libelf libdw zlib libzstd
APT_DEPS    := make gcc pkg-config libelf-dev libdw-dev zlib1g-dev libzstd-dev libtraceevent-dev libiberty-dev libdebuginfod-dev

ifeq ($(filter help clean,$(MAKECMDGOALS)),)
DEPS_MISSING := $(shell for p in $(DEPS); do $(PKG_CONFIG) --exists $$p || echo $$p; done)
ifneq ($(strip $(DEPS_MISSING)),)
$(error missing libraries: $(DEPS_MISSING). Install them with: apt-get install $(APT_DEPS))
endif
include config.mk
DEPS        += $(if $(HAVE_TEP),libtraceevent)
DEPS_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(DEPS))
DEPS_LIBS   := $(shell $(PKG_CONFIG) --libs $(if $(TOOL_LDSTATIC),--static) $(DEPS))
endif

WARN        := -Wall -Wextra -Wno-unused-parameter -Wshadow -Wstrict-prototypes \
               -Wmissing-prototypes -Wformat=2
OPT         ?= -O2 -g
SAN         ?=
BASE_CFLAGS := -std=gnu11 $(OPT) $(WARN) $(SAN) -D_GNU_SOURCE -fno-strict-aliasing \
               $(FEATURE_CFLAGS)
LIB_CFLAGS  := $(BASE_CFLAGS) -fPIC -fvisibility=hidden -Ilibperfdata/include \
               -Ilibperfdata/src $(DEPS_CFLAGS)
TOOL_CFLAGS := $(BASE_CFLAGS) -Ilibperfdata/include -Itools $(DEPS_CFLAGS)
TEST_CFLAGS := $(BASE_CFLAGS) -Ilibperfdata/include -Ilibperfdata/src -Itools \
               $(DEPS_CFLAGS)
# A static link names libdl too: before glibc 2.34 (Debian 11's 2.31)
# dlopen() is there, and libdw's and libtraceevent's .pc files do not
# name it; later glibc keeps an empty libdl.a. So does a build that
# opens libdebuginfod (config.mk).
LDLIBS      := $(DEPS_LIBS) -liberty -lpthread $(if $(TOOL_LDSTATIC)$(HAVE_DEBUGINFOD),-ldl)

# libperfdata/src/<layer>/, from the bottom up: a folder uses only the
# folders before it, compat/ uses them all (docs/architecture.md; t0005
# checks includes and symbol references)
LIB_LAYERS  := base archives header reading tracepoints symbols session writing unwinding
LIB_SRCS    := $(wildcard $(LIB_LAYERS:%=libperfdata/src/%/*.c))
COMPAT_SRCS := $(wildcard compat/*.c)
LIB_OBJS    := $(LIB_SRCS:libperfdata/src/%.c=$(B)/lib/%.o) \
               $(COMPAT_SRCS:compat/%.c=$(B)/compat/%.o)
# tools/<tool>/: pd-<tool>.c and the modules only that tool uses;
# tools/common/: what several tools share. A tool links its own folder's
# modules, common's, and those of the folders it names in <tool>_USES,
# whose code it reaches only through the headers those folders name in
# <tool>_INTERFACE (docs/architecture.md; t0005 checks both).
TOOL_DIRS   := $(patsubst tools/%/,%,$(dir $(wildcard tools/*/pd-*.c)))
TOOLS       := $(TOOL_DIRS:%=pd-%)
COMMON_SRCS := $(wildcard tools/common/*.c)
COMMON_OBJS := $(COMMON_SRCS:%.c=$(B)/%.o)
mods        = $(patsubst %.c,$(B)/%.o,$(filter-out tools/$(1)/pd-%.c,$(wildcard tools/$(1)/*.c)))
convert_USES := fold unwind
diff_USES   := fold flame
fold_USES   := flame
fold_INTERFACE := fold.h fold-data.h fold-cli.h fold-inline.h
flame_INTERFACE := flame.h flame-cli.h flame-out.h
unwind_INTERFACE := unwind-summary.h
# A unit test or fuzz target of a tool folder names it (NAME_TESTS) and
# links it, with what a tool of that folder links; the others test the
# library and link it alone.
test-flame-num_TESTS := flame
test-htab_TESTS := common
fuzz-flame_TESTS := flame
fuzz-script_TESTS := fold
test-fold-raw_TESTS := fold
folder_objs = $(if $(filter-out common,$(1)),$(call mods,$(1)) $(foreach u,$($(1)_USES),$(call mods,$(u)))) $(if $(1),$(COMMON_OBJS))
tested_objs = $(call folder_objs,$($(1)_TESTS))
TOOL_BINS   := $(TOOLS:%=$(B)/bin/%)
UNIT_SRCS   := $(wildcard tests/unit/test-*.c)
UNIT_BINS   := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)
TEST_TOOLS  := $(patsubst tests/tools/%.c,$(B)/tests/tools/%,$(wildcard tests/tools/*.c))
# Fuzz targets: tests/fuzz/fuzz-*.c, each linked with libFuzzer (make fuzz)
# and, for make check, with tests/fuzz/replay.c instead.
FUZZ_NAMES  := $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
FUZZ_HELPERS := $(filter-out tests/fuzz/fuzz-%.c tests/fuzz/replay.c,$(wildcard tests/fuzz/*.c))
FUZZ_HELPER_OBJS := $(FUZZ_HELPERS:tests/fuzz/%.c=$(B)/fuzz/%.o)
FUZZ_CFLAGS := $(TEST_CFLAGS) -Itests/fuzz
REPLAY_BINS := $(FUZZ_NAMES:%=$(B)/fuzz/replay-%)
FUZZ_B      ?= build-fuzz
FUZZ_TIME   ?= 60
FUZZ_TARGETS ?= $(FUZZ_NAMES)

STATIC_LIB  := $(B)/libperfdata.a
SHARED_LIB  := $(B)/libperfdata.so.$(VERSION)
PC_FILE     := $(B)/libperfdata.pc

.SECONDARY:
.PHONY: all lib tools check check-bins asan ubsan sanitize bench bench-system bench-fleet bench-stitch install uninstall clean help fuzz fuzz-bins layout \
	static dist distro-check arm64-check fleet-check python python-if-headers
all: lib tools

lib: $(STATIC_LIB) $(SHARED_LIB) $(PC_FILE)
tools: $(TOOL_BINS)

$(B)/lib/%.o: libperfdata/src/%.c $(wildcard libperfdata/src/*/*.h libperfdata/include/perfdata/*.h)
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -c -o $@ $<

# compat/: the version table and the shims, built into the library
$(B)/compat/%.o: compat/%.c $(wildcard compat/*.h libperfdata/src/*/*.h libperfdata/include/perfdata/*.h)
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -Icompat -c -o $@ $<

$(STATIC_LIB): $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(SHARED_LIB): $(LIB_OBJS) libperfdata/libperfdata.map
	$(CC) $(SAN) -shared -Wl,-soname,libperfdata.so.$(SOVERSION) \
		-Wl,--version-script=libperfdata/libperfdata.map -o $@ $(LIB_OBJS) $(LDLIBS)
	ln -sf libperfdata.so.$(VERSION) $(B)/libperfdata.so.$(SOVERSION)
	ln -sf libperfdata.so.$(SOVERSION) $(B)/libperfdata.so

# The .pc names the install paths: written again by install, with its PREFIX.
define make_pc
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    -e 's|@DEPS@|$(DEPS)|' libperfdata/libperfdata.pc.in > $(1)
endef

$(PC_FILE): libperfdata/libperfdata.pc.in Makefile
	@mkdir -p $(@D)
	$(call make_pc,$@)

$(B)/tools/%.o: tools/%.c $(wildcard tools/*/*.h libperfdata/include/perfdata/*.h)
	@mkdir -p $(@D)
	$(CC) $(TOOL_CFLAGS) -c -o $@ $<

# Tools link the static library so they run from the tree.
define tool_rule
$(B)/bin/pd-$(1): $(B)/tools/$(1)/pd-$(1).o $(call mods,$(1)) $(foreach u,$($(1)_USES),$(call mods,$(u))) $(COMMON_OBJS) $(STATIC_LIB)
	@mkdir -p $$(@D)
	$$(CC) $$(SAN) $$(TOOL_LDSTATIC) -o $$@ $$^ $$(LDLIBS)
endef
$(foreach d,$(filter-out flame,$(TOOL_DIRS)),$(eval $(call tool_rule,$(d))))

# pd-flame draws from text: linked with its own modules and the CLI
# helpers only, with libc alone (static unless a sanitizer is on, as
# those need the dynamic loader), it starts in a fraction of the time a
# tool linked with libperfdata's libraries takes, which is most of its
# run on small inputs. FLAME_LDFLAGS= links it dynamically, as happens
# where the C library has no static archive (glibc-static on Fedora).
FLAME_OBJS  := $(call mods,flame) $(B)/tools/common/cli.o $(B)/tools/common/cli-main.o $(B)/tools/common/arena.o
FLAME_LDFLAGS ?= $(if $(SAN),,$(shell printf 'int main(void) { return 0; }' | \
	$(CC) -static -x c -o /dev/null - 2>/dev/null && echo -static))
$(B)/bin/pd-flame: $(B)/tools/flame/pd-flame.o $(FLAME_OBJS)
	@mkdir -p $(@D)
	$(CC) $(SAN) $(FLAME_LDFLAGS) -o $@ $< $(FLAME_OBJS) -lm

# The Python module perfdata (libperfdata/python/, docs/python.md): C over
# the public API, linked with the static library (its objects are -fPIC)
# so that it imports from $(B)/python/ as built; the library's symbols
# stay inside it (--exclude-libs). What the interpreter says (its
# headers, its modules' file suffix, where a PREFIX's modules go) is
# asked of $(PYTHON) only by the goals that build or install it.
PYTHON      ?= python3
PY_SRCS     := $(wildcard libperfdata/python/*.c)
ifneq ($(filter python python-if-headers install uninstall check check-bins bench,$(MAKECMDGOALS)),)
PY_CONF     := $(shell $(PYTHON) -c 'import sys, sysconfig; v = sys.version_info; print(sysconfig.get_paths()["include"], sysconfig.get_config_var("EXT_SUFFIX") or ".so", "lib/python%d.%d/%s" % (v[0], v[1], "dist-packages" if any(p.endswith("dist-packages") for p in sys.path) else "site-packages"))' 2>/dev/null)
endif
PY_INCLUDE  := $(word 1,$(PY_CONF))
PY_MODULE   := $(B)/python/perfdata$(word 2,$(PY_CONF))
# objects per interpreter ABI (.cpython-311-x86_64-linux-gnu): another
# PYTHON's build compiles its own
PY_OBJDIR   := $(B)/python/obj$(basename $(word 2,$(PY_CONF)))
PY_OBJS     := $(PY_SRCS:libperfdata/python/%.c=$(PY_OBJDIR)/%.o)
PY_SITEDIR  ?= $(PREFIX)/$(word 3,$(PY_CONF))
PY_CFLAGS   := $(BASE_CFLAGS) -fPIC -fvisibility=hidden -Ilibperfdata/include \
               -isystem $(PY_INCLUDE) $(DEPS_CFLAGS) -DPDPY_VERSION='"$(VERSION)"'

python: $(PY_MODULE)

# what make install and make check build: the module where $(PYTHON) has
# its headers (Debian: python3-dev)
python-if-headers: $(STATIC_LIB)
	@if [ -f "$(PY_INCLUDE)/Python.h" ]; then \
		$(MAKE) --no-print-directory B=$(B) PYTHON=$(PYTHON) python; \
	else \
		echo "no Python headers for $(PYTHON) (apt-get install python3-dev): the module perfdata is not built"; \
	fi

py_headers = @[ -f "$(PY_INCLUDE)/Python.h" ] || { echo "make python: no Python headers for $(PYTHON) (apt-get install python3-dev)" >&2; exit 1; }

$(PY_OBJDIR)/%.o: libperfdata/python/%.c $(wildcard libperfdata/python/*.h libperfdata/include/perfdata/*.h)
	$(py_headers)
	@mkdir -p $(@D)
	$(CC) $(PY_CFLAGS) -c -o $@ $<

$(PY_MODULE): $(PY_OBJS) $(STATIC_LIB)
	$(py_headers)
	$(CC) $(SAN) -shared -Wl,--exclude-libs,ALL -o $@ $(PY_OBJS) $(STATIC_LIB) $(LDLIBS)

define unit_rule
$(B)/tests/$(1): tests/unit/$(1).c $(wildcard tests/unit/*.h) $(STATIC_LIB) $(call tested_objs,$(1))
	@mkdir -p $$(@D)
	$$(CC) $$(TEST_CFLAGS) -o $$@ $$< $(call tested_objs,$(1)) $$(STATIC_LIB) $$(LDLIBS)
endef
$(foreach t,$(UNIT_SRCS:tests/unit/%.c=%),$(eval $(call unit_rule,$(t))))

# Programs the shell tests use as checkers.
$(B)/tests/tools/%: tests/tools/%.c $(STATIC_LIB)
	@mkdir -p $(@D)
	$(CC) $(TOOL_CFLAGS) -o $@ $< $(STATIC_LIB) $(LDLIBS)

$(B)/fuzz/%.o: tests/fuzz/%.c $(wildcard tests/fuzz/*.h tools/*/*.h libperfdata/src/*/*.h libperfdata/include/perfdata/*.h)
	@mkdir -p $(@D)
	$(CC) $(FUZZ_CFLAGS) -c -o $@ $<

define fuzz_rule
$(B)/fuzz/replay-$(1): $(B)/fuzz/$(1).o $(B)/fuzz/replay.o $(FUZZ_HELPER_OBJS) $(call tested_objs,$(1)) $(STATIC_LIB)
	$$(CC) $$(SAN) -o $$@ $$^ $$(LDLIBS)

# libFuzzer binaries: only in the tree make fuzz builds with clang
$(B)/fuzz/bin/$(1): $(B)/fuzz/$(1).o $(FUZZ_HELPER_OBJS) $(call tested_objs,$(1)) $(STATIC_LIB)
	@mkdir -p $$(@D)
	$$(CC) $$(SAN) -fsanitize=fuzzer -o $$@ $$^ $$(LDLIBS)
endef
$(foreach f,$(FUZZ_NAMES),$(eval $(call fuzz_rule,$(f))))

fuzz-bins: $(FUZZ_TARGETS:%=$(B)/fuzz/bin/%)

# The library's layers, the tool folders, what each uses and names as its
# interface (t0005).
layout:
	@echo 'lib layers=$(LIB_LAYERS)'
	@$(foreach d,$(TOOL_DIRS),echo '$(d) uses=$($(d)_USES) interface=$($(d)_INTERFACE)';)

# what make check runs, built without running it (for tests/run.sh FILE...)
check-bins: all $(UNIT_BINS) $(TEST_TOOLS) $(REPLAY_BINS) python-if-headers

check: check-bins
	@B=$(B) PD_SAN="$(SAN)" PYTHON=$(PYTHON) tests/run.sh

# The distro tests (tests/distro/): Debian's own perfs and toolchains in
# debootstrap chroots cached in $(PD_DISTRO_CACHE); root and the network
# to Debian's archive on first use.
PD_DISTRO_CACHE ?= /var/cache/perfdata-distro
distro-check: all static
	@B=$(B) PD_DISTRO_CACHE=$(PD_DISTRO_CACHE) tests/run.sh tests/distro/t-*.sh

# The arm64 guest tests (tests/arm64/): Debian 12's arm64 perf on its
# arm64 kernel in qemu-system-aarch64, root file system and kernel cached
# in $(PD_ARM64_CACHE); root and the network to Debian's archive on
# first use.
PD_ARM64_CACHE ?= /var/cache/perfdata-arm64
arm64-check: all $(TEST_TOOLS)
	@B=$(B) PD_ARM64_CACHE=$(PD_ARM64_CACHE) tests/run.sh tests/arm64/t-*.sh

# The fleet tests (tests/fleet/): docs/fleet.md's recipes run with GNU
# parallel over sshd workers on loopback ports and as a Slurm job array
# on a one-node cluster, each set up in a temporary directory and torn
# down; a part whose tools are missing skips, naming the Debian package.
fleet-check: all
	@B=$(B) tests/run.sh tests/fleet/t-*.sh

asan:
	PD_ASAN=1 $(MAKE) B=build-asan OPT="-O1 -g" SAN="-fsanitize=address -fno-omit-frame-pointer" check

ubsan:
	$(MAKE) B=build-ubsan OPT="-O1 -g" SAN="-fsanitize=undefined -fno-sanitize-recover=all" check

# Both sanitizers in one build and one run of the suite (what CI runs).
sanitize:
	PD_ASAN=1 $(MAKE) B=build-san OPT="-O1 -g" \
		SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" check

# The library and the targets built by clang with libFuzzer, ASan and
# UBSan in $(FUZZ_B); the seed corpora come from testdata/ (through the
# tools of the normal build) and grow in $(FUZZ_B)/corpus/.
fuzz: all
	@printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }\n' | \
		clang -fsanitize=fuzzer -x c -o /dev/null - 2>/dev/null || \
		{ echo "make fuzz: needs clang with libFuzzer (apt-get install clang libclang-rt-dev)" >&2; exit 1; }
	$(MAKE) B=$(FUZZ_B) CC=clang OPT="-O1 -g" \
		SAN="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
		FUZZ_TARGETS="$(FUZZ_TARGETS)" fuzz-bins
	B=$(FUZZ_B) PD_BIN=$(B)/bin FUZZ_TIME=$(FUZZ_TIME) tests/fuzz/run.sh $(FUZZ_TARGETS)

# One file per tool that runs on any Linux of the architecture, with no
# library installed: glibc, elfutils, zlib, zstd, xz, bzip2,
# libtraceevent and libiberty linked in from their static archives
# (Debian ships them in the -dev packages). Built in a tree of its own;
# the tools are copied out without their debug info.
STATIC_B    := $(B)/static
STRIP       ?= strip
ARCH        := $(shell uname -m)
DIST        := perfdata-$(VERSION)-$(ARCH)-static
static:
	$(MAKE) B=$(STATIC_B)/tree TOOL_LDSTATIC=-static tools
	@for t in $(TOOLS); do \
		$(STRIP) -o $(STATIC_B)/$$t $(STATIC_B)/tree/bin/$$t || exit 1; \
	done
	@echo "make static: $(TOOLS:%=$(STATIC_B)/%)"

dist: static
	rm -rf $(B)/$(DIST) && mkdir -p $(B)/$(DIST)/man1
	cp $(TOOLS:%=$(STATIC_B)/%) $(B)/$(DIST)/
	cp $(wildcard docs/*.1) $(B)/$(DIST)/man1/
	cp README.md $(B)/$(DIST)/
	mkdir -p $(B)/$(DIST)/docs && cp $(wildcard docs/*.md) $(B)/$(DIST)/docs/
	tar -C $(B) -czf $(B)/$(DIST).tar.gz $(DIST)
	@echo "make dist: $(B)/$(DIST).tar.gz"

# then the Python module's part (tests/bench-python.sh)
bench: all python-if-headers
	@B=$(B) tests/bench.sh
	@B=$(B) PYTHON=$(PYTHON) sh tests/bench-python.sh

bench-system: all
	@B=$(B) sh tests/bench-system.sh

bench-fleet: all
	@B=$(B) sh tests/bench-fleet.sh

# the share of DWARF samples reaching their root, without and with
# pd-unwind --stitch (tests/bench-stitch.sh)
bench-stitch: all
	@B=$(B) sh tests/bench-stitch.sh

install: all python-if-headers
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/perfdata \
		$(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 644 $(STATIC_LIB) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED_LIB) $(DESTDIR)$(LIBDIR)/
	ln -sf libperfdata.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libperfdata.so.$(SOVERSION)
	ln -sf libperfdata.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libperfdata.so
	install -m 644 libperfdata/include/perfdata/*.h $(DESTDIR)$(INCLUDEDIR)/perfdata/
	$(call make_pc,$(DESTDIR)$(LIBDIR)/pkgconfig/libperfdata.pc)
	install -m 755 $(TOOL_BINS) $(DESTDIR)$(BINDIR)/
	install -m 644 $(wildcard docs/*.1) $(DESTDIR)$(MANDIR)/man1/
	if [ -f "$(PY_MODULE)" ]; then \
		install -d $(DESTDIR)$(PY_SITEDIR) && \
		install -m 644 $(PY_MODULE) $(DESTDIR)$(PY_SITEDIR)/; \
	fi

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libperfdata.* $(DESTDIR)$(LIBDIR)/pkgconfig/libperfdata.pc
	rm -rf $(DESTDIR)$(INCLUDEDIR)/perfdata
	rm -f $(TOOLS:%=$(DESTDIR)$(BINDIR)/%) $(TOOLS:%=$(DESTDIR)$(MANDIR)/man1/%.1)
	rm -f $(DESTDIR)$(PY_SITEDIR)/$(notdir $(PY_MODULE))

clean:
	rm -rf build build-asan build-ubsan build-san $(FUZZ_B)

help:
	@sed -n '2,/^$$/p' Makefile | sed '/^$$/d; s/^# \{0,1\}//'
