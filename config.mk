# Optional libraries and library calls, probed once per make run.
#
# We build on the oldest toolchain we claim (Debian 11: elfutils 0.183,
# libtraceevent 1.1.2; RHEL 8: no libtraceevent at all) as on current
# ones. What a library may lack is probed by compiling and linking a
# one-line program, as FLAME_LDFLAGS is; each probe that succeeds adds a
# -DHAVE_... to FEATURE_CFLAGS, and the code keeps a fallback for when it
# does not. A missing optional part is reported with $(info), never an
# error. Included by the Makefile once the required DEPS are found; it
# adds libtraceevent to DEPS when HAVE_TEP is y.

HASH := \#

# probe CFLAGS LIBS, PROGRAM: y when PROGRAM compiles and links
probe = $(shell printf '%b' '$(3)' | \
	$(CC) -x c -o /dev/null $(1) - -x none $(2) >/dev/null 2>&1 && echo y)

# libtraceevent: reads tracepoint formats and prints their fields as perf
# does. Without it (not installed, or NO_LIBTRACEEVENT=1) tracepoints are
# still named from their formats; printing their fields, or pd-fold
# --off-cpu reading sched_switch, says that it cannot.
ifndef NO_LIBTRACEEVENT
HAVE_TEP := $(shell $(PKG_CONFIG) --exists libtraceevent && echo y)
endif
ifeq ($(HAVE_TEP),y)
TEP_CFLAGS  := $(shell $(PKG_CONFIG) --cflags libtraceevent)
TEP_LIBS    := $(shell $(PKG_CONFIG) --libs libtraceevent)
FEATURE_CFLAGS += -DHAVE_LIBTRACEEVENT
# newer than 1.1 (Debian 11 has 1.1.2 without them): else the library
# registers each line itself with tep_register_comm() and
# tep_register_print_string(), which 1.1 has
ifeq ($(call probe,$(TEP_CFLAGS),$(TEP_LIBS),$(HASH)include <traceevent/event-parse.h>\nint main(void) { return tep_parse_saved_cmdlines(0, ""); }\n),y)
FEATURE_CFLAGS += -DHAVE_TEP_PARSE_SAVED_CMDLINES
endif
ifeq ($(call probe,$(TEP_CFLAGS),$(TEP_LIBS),$(HASH)include <traceevent/event-parse.h>\nint main(void) { return tep_parse_printk_formats(0, ""); }\n),y)
FEATURE_CFLAGS += -DHAVE_TEP_PARSE_PRINTK_FORMATS
endif
else
$(info libtraceevent not used$(if $(NO_LIBTRACEEVENT), (NO_LIBTRACEEVENT), (pkg-config libtraceevent fails)): tracepoint fields will not be printed (Debian: apt-get install libtraceevent-dev))
endif

# elfutils 0.188's dwfl_frame_reg(): the registers of any frame, which
# pd-unwind hands to libunwind's guessed step where a frame has no unwind
# tables. Without it only the registers of a chain's first frame are
# known, and a chain ends at a later frame without tables.
ifeq ($(call probe,$(shell $(PKG_CONFIG) --cflags libdw),$(shell $(PKG_CONFIG) --libs libdw),$(HASH)include <elfutils/libdwfl.h>\nint main(void) { Dwarf_Word w; return dwfl_frame_reg(0, 0, &w); }\n),y)
FEATURE_CFLAGS += -DHAVE_DWFL_FRAME_REG
else
$(info elfutils older than 0.188 (no dwfl_frame_reg): DWARF unwinding will not guess past a frame without unwind tables after the first)
endif

# libdebuginfod (elfutils): the files of DSOs this machine lacks, by
# build id, from the servers of $DEBUGINFOD_URLS. Opened with dlopen()
# when first needed (it pulls in libcurl), so the probe wants its header
# and .pc file only, and the link libdl (in libc from glibc 2.34). Not in
# static tools (dlopen() from a static binary needs the very glibc it
# was linked with): there, and with NO_DEBUGINFOD=1 or without it,
# nothing is fetched and --no-debuginfod changes nothing.
ifndef NO_DEBUGINFOD
ifndef TOOL_LDSTATIC
ifeq ($(shell $(PKG_CONFIG) --exists libdebuginfod && echo y),y)
DEBUGINFOD_CFLAGS := $(shell $(PKG_CONFIG) --cflags libdebuginfod)
HAVE_DEBUGINFOD := $(call probe,$(DEBUGINFOD_CFLAGS),-ldl,$(HASH)include <dlfcn.h>\n$(HASH)include <elfutils/debuginfod.h>\nint main(void) { __typeof__(debuginfod_find_executable) *f = 0; return f != 0 || !dlopen("libdebuginfod.so.1", RTLD_LAZY); }\n)
endif
endif
endif
ifeq ($(HAVE_DEBUGINFOD),y)
FEATURE_CFLAGS += -DHAVE_DEBUGINFOD $(DEBUGINFOD_CFLAGS)
else
$(info libdebuginfod not used$(if $(NO_DEBUGINFOD), (NO_DEBUGINFOD),$(if $(TOOL_LDSTATIC), (static tools), (pkg-config libdebuginfod fails))): no symbols from debuginfod servers (Debian: apt-get install libdebuginfod-dev))
endif
