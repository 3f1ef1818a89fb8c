# counters/: the backend interface, the registry and the backends compiled
# into librlprof (they may use libc, pthreads and dlopen only).
RUNTIME_SRCS += counters/counter_ids.c counters/rl_error.c \
                counters/registry.c $(wildcard counters/backend_*.c) \
                $(wildcard counters/runtime_*.c)

# Event resolution used by the rlprof command (libpfm4, sysfs, raw table).
EVENTS_SRCS := $(wildcard counters/events/*.c)
EVENTS_LIBS := -lpfm

# hw: why the hardware PMU works or not (libc only: part of librlprof).
RUNTIME_SRCS += counters/perf_probe.c
