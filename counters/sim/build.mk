# SPDX-License-Identifier: GPL-2.0-or-later
# counters/sim/: the Valgrind tool of the simulated PMU (GPL-2.0-or-later).
#
# Built with gcc and Valgrind's own flags (not ALL_CFLAGS: no -fPIC, no
# sanitizers), linked statically at the tool load address of amd64-linux
# against the archives Debian's valgrind package ships. Without them the
# tool is skipped with a message and the sim backend says so at run time.
VG_LIBDIR  ?= /usr/lib/x86_64-linux-gnu/valgrind
VG_INCDIR  ?= /usr/include/valgrind
VG_PRELOAD ?= /usr/libexec/valgrind/vgpreload_core-amd64-linux.so
SIM_CC     ?= gcc

SIM_ARCHIVES := $(VG_LIBDIR)/libcoregrind-amd64-linux.a \
                $(VG_LIBDIR)/libvex-amd64-linux.a \
                $(VG_LIBDIR)/libgcc-sup-amd64-linux.a
SIM_SRCS  := $(wildcard counters/sim/*.c)
SIM_OBJS  := $(SIM_SRCS:%.c=$(OBJ)/vgtool/%.o)
SIM_TOOL  := $(LIBEXEC)/rlprofsim-amd64-linux
SIM_PRELOAD_LINK := $(LIBEXEC)/vgpreload_core-amd64-linux.so
SIM_CFLAGS := -std=gnu99 -O2 -g -Wall -Wextra -Wno-unused-parameter \
              -I. -Iprofiler -I$(VG_INCDIR) -DVGA_amd64=1 -DVGO_linux=1 -DVGP_amd64_linux=1 \
              -DVGPV_amd64_linux_vanilla=1 -fno-strict-aliasing -fno-builtin \
              -fno-stack-protector -fomit-frame-pointer -fno-pie -MMD -MP
SIM_LDFLAGS := -static -nodefaultlibs -nostartfiles -u _start -no-pie \
               -Wl,-Ttext-segment=0x58000000

# The sim backend (counters/backend_sim.c, in librlprof) includes
# <valgrind/valgrind.h> when present; without it the runtime side cannot
# talk to the tool and init() says so.
ifneq ($(wildcard $(VG_INCDIR)/valgrind.h),)
CFLAGS_counters_ += -DRL_SIM_HAVE_VALGRIND_H=1
endif

ifeq ($(words $(wildcard $(SIM_ARCHIVES) $(VG_INCDIR)/pub_tool_basics.h)),4)
TARGETS += $(SIM_TOOL) $(SIM_PRELOAD_LINK)
INSTALL_LIBEXEC += $(SIM_TOOL) $(SIM_PRELOAD_LINK)

$(OBJ)/vgtool/%.o: %.c
	@mkdir -p $(dir $@)
	$(SIM_CC) $(SIM_CFLAGS) -c $< -o $@

# rs_fma.c alone uses the host's FMA unit (checked by CPUID at tool start)
$(OBJ)/vgtool/counters/sim/rs_fma.o: SIM_CFLAGS += -mfma

$(SIM_TOOL): $(SIM_OBJS)
	@mkdir -p $(dir $@)
	$(SIM_CC) $(SIM_LDFLAGS) $^ -o $@ $(VG_LIBDIR)/libcoregrind-amd64-linux.a \
	  $(VG_LIBDIR)/libvex-amd64-linux.a -lgcc \
	  $(VG_LIBDIR)/libgcc-sup-amd64-linux.a

$(SIM_PRELOAD_LINK):
	@mkdir -p $(dir $@)
	ln -sf $(VG_PRELOAD) $@

# tests/simcache/rs_trace.c: the cache model alone (with its --caches
# reader, rs_cache_spec.c), built natively and fed synthetic traces
# (tests/counters/sim/test_sim_cache.c); -full walks the model for every
# access (RS_CACHE_CHECK_ALL), the reference.
SIM_TRACE := $(TESTBIN)/simcache/rs-trace $(TESTBIN)/simcache/rs-trace-full
$(TESTBIN)/simcache/rs-trace-full: SIM_TRACE_FLAGS := -DRS_CACHE_CHECK_ALL
SIM_TRACE_SRCS := tests/simcache/rs_trace.c counters/sim/rs_cache.c \
                  counters/sim/rs_cache_spec.c
$(SIM_TRACE): $(SIM_TRACE_SRCS) counters/sim/rs.h
	@mkdir -p $(dir $@)
	$(SIM_CC) $(filter-out -MMD -MP -g,$(SIM_CFLAGS)) $(SIM_TRACE_FLAGS) \
	  -I. -Iprofiler -no-pie $(SIM_TRACE_SRCS) -o $@
tests: $(SIM_TRACE)
else
TARGETS += sim-tool-missing
.PHONY: sim-tool-missing
sim-tool-missing:
	@echo "rlprof: the simulator (counters/sim) is not built: Valgrind's tool archives are missing in '$(VG_LIBDIR)': install valgrind (apt-get install valgrind)" >&2
endif
