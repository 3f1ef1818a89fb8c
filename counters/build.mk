# counters/: the backend interface, the registry and the backends compiled
# into librlprof (they may use libc, pthreads and dlopen only).
RUNTIME_SRCS += profiler/formats/counter_ids.c profiler/common/rl_error.c \
                profiler/common/utf8.c profiler/common/json_writer.c counters/launch.c \
                counters/registry.c $(wildcard counters/backend_*.c) \
                $(wildcard counters/runtime_*.c)

# Event resolution used by the rlprof command (libpfm4, sysfs, raw table).
EVENTS_SRCS := $(wildcard counters/events/*.c)
# The known-answer check's kernels (the runner: profiler/results/
# selftest_run.c), in the command beside the event tables.
EVENTS_SRCS += $(wildcard counters/selftest/*.c)
EVENTS_LIBS := -lpfm

# hw: why the hardware PMU works or not (libc only: part of librlprof).
RUNTIME_SRCS += counters/perf_probe.c counters/perf_why.c

# hw: the PAPI and LIKWID backends are plugins ($(LIB)/rlprof/rlprof-*.so,
# linking -lpapi / -llikwid), dlopened by the forwarding backends
# counters/backend_{papi,likwid}.c through counters/plugins/loader.c.
RUNTIME_SRCS += counters/plugins/loader.c
PLUGIN_SHARED := counters/events/uarch.c counters/events/msr_why.c profiler/formats/counter_ids.c profiler/common/rl_error.c
PLUGIN_CFLAGS  = $(filter-out -MMD -MP,$(ALL_CFLAGS)) -shared -Wl,-Bsymbolic

$(LIB)/rlprof/rlprof-papi.so: counters/plugins/papi_plugin.c $(PLUGIN_SHARED) counters/plugins/plugin.h counters/events/events.h counters/backend.h
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) $(filter %.c,$^) -o $@ $(ALL_LDFLAGS) -lpapi

$(LIB)/rlprof/rlprof-likwid.so: counters/plugins/likwid_plugin.c $(PLUGIN_SHARED) counters/plugins/plugin.h counters/backend.h
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) $(filter %.c,$^) -o $@ $(ALL_LDFLAGS) -llikwid -lpthread

TARGETS += $(LIB)/rlprof/rlprof-papi.so $(LIB)/rlprof/rlprof-likwid.so

# runtime: RLPROF_PERF_EVENTS parsing and formatting (libc only).
RUNTIME_SRCS += counters/perf_spec.c
