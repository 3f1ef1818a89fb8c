# profiler/: librlprof (runtime), the report library and the rlprof command.
# launch.c (rl_launch_prepend/setenv) goes into librlprof: the backends
# compiled there call it from prepare_launch(), and a shared library with
# undefined symbols would not link into programs.
RUNTIME_SRCS += $(wildcard profiler/runtime/*.c) profiler/cli/launch.c
REPORT_SRCS  := $(wildcard profiler/report/*.c)
CLI_SRCS     := $(filter-out profiler/cli/launch.c,$(wildcard profiler/cli/*.c))

RUNTIME_OBJS := $(RUNTIME_SRCS:%.c=$(OBJ)/%.o)
REPORT_OBJS  := $(REPORT_SRCS:%.c=$(OBJ)/%.o)
CLI_OBJS     := $(CLI_SRCS:%.c=$(OBJ)/%.o)
CFLAGS_profiler_cli_ = -Iprofiler/cli -Iprofiler/report
CFLAGS_profiler_report_ = -Iprofiler/report
EVENTS_OBJS  := $(EVENTS_SRCS:%.c=$(OBJ)/%.o)

RUNTIME_LIBS := -lpthread -ldl -lm
REPORT_LIBS  := -ljansson -lelf -lm

RLPROF_SO := $(LIB)/librlprof.so
RLPROF_A  := $(LIB)/librlprof.a
RPATH     := -Wl,-rpath,'$$ORIGIN/../lib'

$(RLPROF_SO): $(RUNTIME_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,librlprof.so.0 $(ALL_LDFLAGS) $^ -o $@.0 $(RUNTIME_LIBS)
	ln -sf librlprof.so.0 $@

$(RLPROF_A): $(RUNTIME_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# PROBE_OBJS comes from probes/build.mk (included after this file; the
# prerequisite list is expanded when the rule runs, so order is fine).
$(BIN)/rlprof: $(CLI_OBJS) $(REPORT_OBJS) $$(PROBE_OBJS) $(EVENTS_OBJS) $(RLPROF_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -Wl,--export-dynamic-symbol=rl_runtime_disabled $^ -o $@ $(REPORT_LIBS) $(EVENTS_LIBS) $(RUNTIME_LIBS) $(PROBE_LIBS)

TARGETS += $(RLPROF_SO) $(RLPROF_A) $(BIN)/rlprof
