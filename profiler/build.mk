# profiler/: one folder per job; layers bottom to top (README, "Layout"):
#   common/    errors, UTF-8 and escaping, JSON writing, file writing,
#              the name index (used by every layer)
#   formats/   definitions shared by the files' writers and readers
#   runtime/   librlprof (behind rlprof.h): regions, counter reads, the
#              results file of each process
#   results/   the results files and run.json: read, check, merge
#   machine/   the machine model's file: read, written, cached (never measured)
#   inspect/   what an ELF binary says (rlprof inspect): region records,
#              imports, ISA note, the width of its floating-point code
#   analysis/  placement against roofs and ceilings, diagnosis, reports read
#   render/    one file per output format (table, JSON, CSV, SVG, HTML, plot)
#   cli/       the rlprof command, one file per subcommand
#   compat/, mpi/, fortran/: shims and bindings, each with its build.mk
RUNTIME_SRCS += $(wildcard profiler/runtime/*.c)
# common/ and formats/ (layer 0): what the runtime uses goes into librlprof
# (counters/build.mk), the rest into the command
RUNTIME_COMMON := $(addprefix profiler/common/,rl_error.c utf8.c json_writer.c) \
                  profiler/formats/counter_ids.c
REPORT_SRCS  := $(filter-out $(RUNTIME_COMMON),\
                $(foreach d,common formats machine results analysis render inspect,$(wildcard profiler/$(d)/*.c)))
CLI_SRCS     := $(wildcard profiler/cli/*.c profiler/cli/run/*.c)

RUNTIME_OBJS := $(RUNTIME_SRCS:%.c=$(OBJ)/%.o)
REPORT_OBJS  := $(REPORT_SRCS:%.c=$(OBJ)/%.o)
CLI_OBJS     := $(CLI_SRCS:%.c=$(OBJ)/%.o)
EVENTS_OBJS  := $(EVENTS_SRCS:%.c=$(OBJ)/%.o)

RUNTIME_LIBS := -lpthread -ldl -lm
REPORT_LIBS  := -ljansson -ldw -lelf -lm -lstdc++
# inspect/elf_code_isa.c decodes a program's code with Zydis when
# libzydis-dev is installed (scripts/install-deps); without it, it says so
ifneq ($(wildcard /usr/include/Zydis/Zydis.h),)
CFLAGS_profiler_inspect_ += -DRL_HAVE_ZYDIS=1
REPORT_LIBS  += -lZydis
endif

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
