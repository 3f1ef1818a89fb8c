# rlprof - top-level build. Each folder adds its part in its build.mk:
#   counters/build.mk   librlprof's backends, plugins, event resolution
#   profiler/build.mk   librlprof runtime, model, analysis, renderers, the command
#   probes/build.mk     roof probes (linked into rlprof)
#   kernels/build.mk    reference kernels and rlprof-kernels
#   counters/sim/build.mk  the Valgrind tool (simulated PMU)
#   tests/build.mk      Criterion tests and the test programs
#
#   make                build everything into $(BUILD)/ (laid out as installed)
#   make test           install missing Debian packages, build, run every test
#   make demo           install missing packages, build, profile the kernels
#   make bench          side-by-side benchmarks (prints figures, not a test)
#   make install PREFIX=DIR
#   make SANITIZE=1     ASan + UBSan build (make test SANITIZE=1)
#   make CC=clang       warning-free under clang too
#   make fuzz           libFuzzer + ASan/UBSan on the readers, FUZZ_SECONDS each
#                       (tests/fuzz/build.mk)

BUILD   ?= build
PREFIX  ?= /usr/local
CC      ?= cc
OPT     ?= -O2
SANITIZE ?= 0

WARN      := -Wall -Wextra
# Includes name their folder ("results/run_results.h", "counters/backend.h"): the
# two source roots are the only include paths.
SRC_INC   := -I. -Iprofiler
# What a user program gets from pkg-config: the public header's folder.
PUBLIC_INC := -Iprofiler/runtime
BASEFLAGS := -std=c11 -D_GNU_SOURCE -g -gdwarf-4 $(WARN) -fPIC -MMD -MP \
             $(SRC_INC)
ifeq ($(SANITIZE),1)
SANFLAGS  := -fsanitize=address,undefined -fno-omit-frame-pointer \
             -fno-sanitize-recover=undefined
endif
ALL_CFLAGS  = $(BASEFLAGS) $(OPT) $(SANFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)

OBJ := $(BUILD)/obj
BIN := $(BUILD)/bin
LIB := $(BUILD)/lib
LIBEXEC := $(BUILD)/libexec/rlprof
TESTBIN := $(BUILD)/tests

# Filled by the fragments.
TARGETS :=
TEST_TARGETS :=
INSTALL_BIN :=
INSTALL_LIB :=
INSTALL_LIBEXEC :=

.PHONY: all deps test demo bench install clean format lint check-hw-counters
.SECONDEXPANSION:
all:

include counters/build.mk
include profiler/build.mk
include profiler/fortran/build.mk
include profiler/compat/build.mk
include profiler/mpi/build.mk
include probes/build.mk
include kernels/build.mk
include counters/sim/build.mk
include tests/build.mk

all: $(TARGETS)

$(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CFLAGS_$(subst /,_,$(dir $<))) -c $< -o $@

deps:
	@scripts/install-deps

test: deps
	@$(MAKE) --no-print-directory all tests
	@scripts/run-tests $(BUILD)

# make demo builds quietly (warnings and errors still show); V=1 prints
# every compiler command.
demo: deps
	@echo "== building rlprof into $(BUILD)/ (make demo V=1 shows the commands)"
	@$(MAKE) --no-print-directory $(if $(filter 1,$(V)),,-s) all
	@scripts/demo $(BUILD)

bench: deps
	@$(MAKE) --no-print-directory all
	@scripts/bench $(BUILD)

check-hw-counters: all
	@scripts/check-hw-counters $(BUILD)

install: all
	scripts/install-tree $(BUILD) $(DESTDIR)$(PREFIX) $(PREFIX)

format:
	clang-format -i $$(git ls-files '*.c' '*.h' | grep -v '^counters/sim/')

# tests/fuzz's harnesses are linted; its Criterion test is not (cppcheck
# reads Test() as an unknown macro since the tests moved there).
lint:
	cppcheck --quiet --enable=warning,performance,portability --std=c11 \
	  --suppress=missingIncludeSystem $(SRC_INC) \
	  -icounters/sim -itests/fuzz/test_fuzz_replay.c \
	  profiler counters probes kernels tests/fuzz

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
