# kernels/: reference kernels and the rlprof-kernels program.
#
#   $(BIN)/rlprof-kernels      -O3 -march=native (whatever this CPU has)
#   $(BIN)/rlprof-kernels-sim  -O3 -march=x86-64-v3: AVX2 and FMA, no
#                              AVX-512 (Valgrind 3.19 cannot run EVEX
#                              code); FMA runs on the host's FMA unit
#                              under the simulator (counters/sim/rs_fma.c;
#                              VEX's own helper made horner128 100x
#                              slower than a multiply and an add);
#                              -gdwarf-4: Valgrind 3.19 gives up on clang
#                              14's default DWARF 5 ("possibly corrupted
#                              debuginfo file")
#   KERNEL_LIB_OBJS            the kernel library without main, built with
#                              the generic rule (for the test binary)
#
# Kernel flags: -O3; -ffp-contract=fast lets a*b+c become an FMA (flop
# counts do not change: an FMA is 2); loop-to-memcpy/memset rewriting is
# off so copy and fill stay the loops the table describes (a libc memcpy
# may use non-temporal stores, which changes the bytes).
KERNEL_SRCS     := $(wildcard kernels/*.c)
KERNEL_LIB_SRCS := $(filter-out kernels/main.c,$(KERNEL_SRCS))
KERNEL_LIB_OBJS := $(KERNEL_LIB_SRCS:%.c=$(OBJ)/%.o)
KERNEL_NATIVE_OBJS := $(KERNEL_SRCS:kernels/%.c=$(OBJ)/kernels-native/%.o)
KERNEL_SIM_OBJS    := $(KERNEL_SRCS:kernels/%.c=$(OBJ)/kernels-sim/%.o)
# The default array size comes from the machine model (kernels/sizing.c):
# the model's reader (jansson) and the CPU identification that names the
# cache file; not the probes (the sim build must hold no AVX-512 code, and
# rlprof-kernels never measures: kernels/sizing.c has a stub).
KERNEL_MODEL_OBJS = $(OBJ)/profiler/machine/machine_file.o $(OBJ)/probes/cpu.o \
	$(OBJ)/profiler/common/file_read.o $(OBJ)/profiler/common/file_write.o \
	$(OBJ)/profiler/common/held_dir.o \
	$(OBJ)/profiler/common/term_text.o
KERNEL_LIBS     := -ljansson -lpthread -lm

KERNEL_IS_CLANG := $(shell $(CC) --version 2>/dev/null | grep -c clang)
ifeq ($(KERNEL_IS_CLANG),0)
KERNEL_NOIDIOM  := -fno-tree-loop-distribute-patterns
else
KERNEL_NOIDIOM  := -fno-builtin
endif
KERNEL_CFLAGS   := -O3 -ffp-contract=fast $(KERNEL_NOIDIOM)
CFLAGS_kernels_ := $(KERNEL_CFLAGS)

$(OBJ)/kernels-native/%.o: kernels/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(KERNEL_CFLAGS) -march=native -c $< -o $@

$(OBJ)/kernels-sim/%.o: kernels/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(KERNEL_CFLAGS) -march=x86-64-v3 -gdwarf-4 -c $< -o $@

$(BIN)/rlprof-kernels: $(KERNEL_NATIVE_OBJS) $$(KERNEL_MODEL_OBJS) $(RLPROF_SO)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) $(KERNEL_NATIVE_OBJS) $(KERNEL_MODEL_OBJS) -o $@ -L$(LIB) -lrlprof $(RPATH) $(KERNEL_LIBS)

$(BIN)/rlprof-kernels-sim: $(KERNEL_SIM_OBJS) $$(KERNEL_MODEL_OBJS) $(RLPROF_SO)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) $(KERNEL_SIM_OBJS) $(KERNEL_MODEL_OBJS) -o $@ -L$(LIB) -lrlprof $(RPATH) $(KERNEL_LIBS)

TARGETS += $(BIN)/rlprof-kernels $(BIN)/rlprof-kernels-sim
INSTALL_BIN += $(BIN)/rlprof-kernels $(BIN)/rlprof-kernels-sim
