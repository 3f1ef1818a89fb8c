# tests/: one Criterion binary from the tests, which mirror the source
# folders (tests/FOLDER/test_*.c tests what FOLDER holds; tests/cli/ runs
# the rlprof command end to end; tests/test_layers.c reads the whole
# tree), and the helpers of
# tests/lib/ (the process runner, the machine-model and report builders),
# and the small programs of tests/programs/ that the end-to-end tests
# profile.
TEST_SRCS := $(wildcard tests/test_*.c tests/*/test_*.c tests/*/*/test_*.c) \
             $(wildcard tests/lib/*.c)
TEST_OBJS := $(TEST_SRCS:%.c=$(OBJ)/%.o)
TEST_PROGRAMS := $(patsubst tests/programs/%.c,$(TESTBIN)/programs/%,$(wildcard tests/programs/*.c))

TEST_DEFS := -DRL_BUILD_DIR='"$(abspath $(BUILD))"' -DRL_SOURCE_DIR='"$(abspath .)"'
$(foreach d,$(sort $(dir $(TEST_SRCS))),$(eval CFLAGS_$(subst /,_,$(d)) := $(TEST_DEFS)))

$(TESTBIN)/rlprof-tests: $(TEST_OBJS) $$(FUZZ_TARGET_OBJ) $(REPORT_OBJS) $(OBJ)/profiler/cli/machine_obtain.o $$(PROBE_OBJS) $(EVENTS_OBJS) $$(KERNEL_LIB_OBJS) $(RLPROF_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -Wl,--export-dynamic-symbol=rl_runtime_disabled $^ -o $@ -lcriterion $(REPORT_LIBS) $(EVENTS_LIBS) $(RUNTIME_LIBS) $(PROBE_LIBS)

$(TESTBIN)/programs/%: tests/programs/%.c $(RLPROF_SO)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(PUBLIC_INC) $< -o $@ -L$(LIB) -lrlprof -Wl,-rpath,'$(abspath $(LIB))' $(PROGRAM_LDFLAGS) -lpthread -lm

# rt_disabled opts out of the runtime as the rlprof command does: it
# exports rl_runtime_disabled for the runtime's dlsym
$(TESTBIN)/programs/rt_disabled: PROGRAM_LDFLAGS := -Wl,--export-dynamic-symbol=rl_runtime_disabled

# e2e_static*: statically linked, without librlprof (what rlprof run does
# when it can neither find regions nor preload the runtime). No sanitizers:
# their runtimes do not link statically.
E2E_STATIC := $(patsubst tests/programs/%.c,$(TESTBIN)/programs/%,$(wildcard tests/programs/e2e_static*.c))
$(E2E_STATIC): $(TESTBIN)/programs/%: tests/programs/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(PUBLIC_INC) $(OPT) $(CFLAGS) $< -o $@ -static

# The end-to-end tests run the real command and the kernels.
.PHONY: tests
tests: $(TARGETS) $(TESTBIN)/rlprof-tests $(TEST_PROGRAMS)

# tests/programs/count_with/dot.c built three times (rlprof run
# --count-with): for AVX-512 (the simulator cannot run it), for x86-64-v3
# (it can), and for AVX2 without FMA (-mavx2 alone: a timed build whose
# code has no FMA). The reduction's flops do not count in the region: all
# builds do 2N.
COUNT_WITH_PROGRAMS := $(TESTBIN)/programs/dot-native $(TESTBIN)/programs/dot-portable \
                       $(TESTBIN)/programs/dot-avx2
$(TESTBIN)/programs/dot-native: tests/programs/count_with/dot.c $(RLPROF_SO)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(PUBLIC_INC) -mavx512f -mfma $< -o $@ -L$(LIB) -lrlprof -Wl,-rpath,'$(abspath $(LIB))' -lpthread -lm
$(TESTBIN)/programs/dot-portable: tests/programs/count_with/dot.c $(RLPROF_SO)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(PUBLIC_INC) -march=x86-64-v3 $< -o $@ -L$(LIB) -lrlprof -Wl,-rpath,'$(abspath $(LIB))' -lpthread -lm
$(TESTBIN)/programs/dot-avx2: tests/programs/count_with/dot.c $(RLPROF_SO)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(PUBLIC_INC) -mavx2 -mno-fma $< -o $@ -L$(LIB) -lrlprof -Wl,-rpath,'$(abspath $(LIB))' -lpthread -lm
tests: $(COUNT_WITH_PROGRAMS)

# tests/programs/sim_horner/horner.c: scalar FMA chains (fma(), fmaf(), a
# contracted a*b+c), built as the issue's scalar-FMA kernel: -O3
# -march=x86-64-v3 (test_sim_fma.c)
$(TESTBIN)/programs/sim_horner-v3: tests/programs/sim_horner/horner.c $(RLPROF_SO)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(PUBLIC_INC) -O3 -march=x86-64-v3 -fno-tree-vectorize -fno-tree-slp-vectorize -ffp-contract=fast $< -o $@ -L$(LIB) -lrlprof -Wl,-rpath,'$(abspath $(LIB))' -lpthread -lm
tests: $(TESTBIN)/programs/sim_horner-v3

# tests/programs/code_isa/code_isa.c built once per -DISA (test_code_isa.c
# decodes each): code-isa-0 (no floating-point arithmetic) to code-isa-4
# (512-bit); plain flags, as the binaries' code is what the tests check
CODE_ISA_PROGRAMS := $(foreach i,0 1 2 3 4,$(TESTBIN)/programs/code-isa-$(i))
$(CODE_ISA_PROGRAMS): $(TESTBIN)/programs/code-isa-%: tests/programs/code_isa/code_isa.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -DISA=$* $< -o $@
tests: $(CODE_ISA_PROGRAMS)

# tests/programs/evex/: libevex.so, AVX-512 (EVEX) code (-mavx512f), and
# evex-app, a plain program that brings it (RUNPATH $ORIGIN): the AVX-512
# scan (profiler/inspect/elf_evex.c) reads a program's own libraries
# without running them, so its tests run on any CPU
EVEX_PROGRAMS := $(TESTBIN)/programs/libevex.so $(TESTBIN)/programs/evex-app
$(TESTBIN)/programs/libevex.so: tests/programs/evex/evex_lib.c
	@mkdir -p $(dir $@)
	$(CC) -O3 -g -mavx512f -mprefer-vector-width=512 -fPIC -shared $< -o $@
$(TESTBIN)/programs/evex-app: tests/programs/evex/evex_app.c $(TESTBIN)/programs/libevex.so
	$(CC) -O2 -g $< -o $@ -L$(TESTBIN)/programs -levex -Wl,-rpath,'$$ORIGIN'
tests: $(EVEX_PROGRAMS)

# OMP_OK: the compiler has an OpenMP runtime (-fopenmp links)
OMP_OK := $(shell echo 'int main(void){return 0;}' | $(CC) -fopenmp -x c - -o /dev/null 2>/dev/null && echo yes)

# tests/mpi/: MPI programs of the MPI end-to-end tests (test_e2e_mpi.c),
# built with Open MPI's mpicc around $(CC) when it is installed; the tests
# skip when they are absent. The MPI+OpenMP ones (MPI_OMP_SRCS: the
# conjugate-gradient mini-app of test_e2e_cg.c) are built with -fopenmp,
# and only when the compiler has OpenMP too.
MPICC ?= mpicc
MPI_OMP_SRCS := tests/mpi/cg_mini.c
ifneq ($(shell command -v $(MPICC) 2>/dev/null),)
MPI_SRCS := $(filter-out $(if $(filter yes,$(OMP_OK)),,$(MPI_OMP_SRCS)),$(wildcard tests/mpi/*.c))
MPI_TEST_PROGRAMS := $(patsubst tests/mpi/%.c,$(TESTBIN)/mpi/%,$(MPI_SRCS))
$(patsubst tests/mpi/%.c,$(TESTBIN)/mpi/%,$(MPI_OMP_SRCS)): MPI_OMP_FLAGS := -fopenmp
$(MPI_TEST_PROGRAMS): $(TESTBIN)/mpi/%: tests/mpi/%.c $(RLPROF_SO)
	@mkdir -p $(dir $@)
	OMPI_CC=$(CC) $(MPICC) $(ALL_CFLAGS) $(PUBLIC_INC) $(MPI_OMP_FLAGS) $< -o $@ -L$(LIB) -lrlprof -Wl,-rpath,'$(abspath $(LIB))' -lpthread -lm
tests: $(MPI_TEST_PROGRAMS)
# loops per rank: an unannotated MPI triad (tests/programs/loops/)
$(TESTBIN)/programs/loops-mpi: tests/programs/loops/mpi_loops.c
	@mkdir -p $(dir $@)
	OMPI_CC=$(CC) $(MPICC) -O1 -g -gdwarf-4 $< -o $@
tests: $(TESTBIN)/programs/loops-mpi
endif

include tests/fuzz/build.mk

# tests/omp/: OpenMP programs (-fopenmp) of the process-scope tests
# (test_e2e_omp.c); skipped when the compiler has no OpenMP runtime.
ifeq ($(OMP_OK),yes)
OMP_TEST_PROGRAMS := $(patsubst tests/omp/%.c,$(TESTBIN)/omp/%,$(wildcard tests/omp/*.c))
$(OMP_TEST_PROGRAMS): $(TESTBIN)/omp/%: tests/omp/%.c $(RLPROF_SO)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(PUBLIC_INC) -fopenmp $< -o $@ -L$(LIB) -lrlprof -Wl,-rpath,'$(abspath $(LIB))' -lpthread -lm
tests: $(OMP_TEST_PROGRAMS)
endif

# tests/programs/loops/loops.c: loops of known structure (test_loops.c,
# test_sim_loops.c), no annotation, no librlprof: -O0 and -O2 with -g
# (-gdwarf-4 for Valgrind), -O2 without -g (loops named by address)
LOOPS_PROGRAMS := $(TESTBIN)/programs/loops-O0 $(TESTBIN)/programs/loops-O2 \
                  $(TESTBIN)/programs/loops-nog $(TESTBIN)/programs/loops-spin \
                  $(TESTBIN)/programs/loops-stream
$(TESTBIN)/programs/loops-O0: LOOPS_FLAGS := -O0 -g -gdwarf-4
$(TESTBIN)/programs/loops-O2: LOOPS_FLAGS := -O2 -fno-tree-vectorize -g -gdwarf-4
$(TESTBIN)/programs/loops-nog: LOOPS_FLAGS := -O2 -fno-tree-vectorize
$(TESTBIN)/programs/loops-spin: LOOPS_FLAGS := -O1 -g -gdwarf-4
$(TESTBIN)/programs/loops-stream: LOOPS_FLAGS := -O1 -g -gdwarf-4
$(filter-out %-spin %-stream,$(LOOPS_PROGRAMS)): tests/programs/loops/loops.c
	@mkdir -p $(dir $@)
	$(CC) $(LOOPS_FLAGS) $< -o $@
$(TESTBIN)/programs/loops-spin: tests/programs/loops/spin.c
	@mkdir -p $(dir $@)
	$(CC) $(LOOPS_FLAGS) $< -o $@
$(TESTBIN)/programs/loops-stream: tests/programs/loops/stream.c
	@mkdir -p $(dir $@)
	$(CC) $(LOOPS_FLAGS) $< -o $@
tests: $(LOOPS_PROGRAMS)
# loops that share a file:line label (issue 39): two on one line, one
# inlined twice, an element-wise loop beside a reduction; and C++ loops
# through STL vectors and inlined accessors (when g++ is installed)
$(TESTBIN)/programs/loops-shared: tests/programs/loops/shared_lines.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -fno-tree-vectorize -g -gdwarf-4 $< -o $@
tests: $(TESTBIN)/programs/loops-shared
# a loop whose work is all in the functions it calls (its total)
$(TESTBIN)/programs/loops-calls: tests/programs/loops/calls.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -fno-tree-vectorize -g -gdwarf-4 $< -o $@
tests: $(TESTBIN)/programs/loops-calls
ifneq ($(shell command -v g++ 2>/dev/null),)
$(TESTBIN)/programs/loops-stl: tests/programs/loops/stl_loops.cpp tests/programs/loops/stl_field.h
	@mkdir -p $(dir $@)
	g++ -O2 -fno-tree-vectorize -g -gdwarf-4 $< -o $@
tests: $(TESTBIN)/programs/loops-stl
endif
# loops inside regions: their parent in the report
$(TESTBIN)/programs/loops-regions: tests/programs/loops/region_loops.c $(RLPROF_SO)
	@mkdir -p $(dir $@)
	$(CC) -O1 -fno-tree-vectorize -g -gdwarf-4 $(PUBLIC_INC) $< -o $@ -L$(LIB) -lrlprof -Wl,-rpath,'$(abspath $(LIB))' -lpthread -lm
tests: $(TESTBIN)/programs/loops-regions
# loops per thread: an OpenMP triad (when the compiler has OpenMP)
ifeq ($(OMP_OK),yes)
$(TESTBIN)/programs/loops-omp: tests/programs/loops/omp_loops.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -g -gdwarf-4 -fopenmp $< -o $@
tests: $(TESTBIN)/programs/loops-omp
# the same time-step loop with an OpenMP kernel: its total holds the team's
$(TESTBIN)/programs/loops-calls-omp: tests/programs/loops/calls.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -fno-tree-vectorize -g -gdwarf-4 -fopenmp $< -o $@
tests: $(TESTBIN)/programs/loops-calls-omp
# an OpenMP loop through a class's inlined accessors (LULESH's shape)
ifneq ($(shell command -v g++ 2>/dev/null),)
$(TESTBIN)/programs/loops-omp-accessor: tests/programs/loops/omp_accessor.cpp tests/programs/loops/omp_accessor.h
	@mkdir -p $(dir $@)
	g++ -O3 -g -fopenmp $< -o $@
tests: $(TESTBIN)/programs/loops-omp-accessor
endif
# and inside an annotated region: the workers' loops are the region's
$(TESTBIN)/programs/loops-omp-region: tests/programs/loops/omp_region_loops.c $(RLPROF_SO)
	@mkdir -p $(dir $@)
	$(CC) -O1 -g -gdwarf-4 -fopenmp $(PUBLIC_INC) $< -o $@ -L$(LIB) -lrlprof -Wl,-rpath,'$(abspath $(LIB))' -lpthread -lm
tests: $(TESTBIN)/programs/loops-omp-region
endif

# The project's kernels (kernels/) without annotation (-DRLPROF_DISABLE),
# built as rlprof-kernels-sim is with -g: test_sim_loops.c counts each
# kernel's loop nest under the simulator with rlprof run --loops
KERNELS_PLAIN := $(TESTBIN)/programs/kernels-plain
KERNELS_PLAIN_OBJS := $(KERNEL_SRCS:kernels/%.c=$(OBJ)/kernels-plain/%.o)
$(OBJ)/kernels-plain/%.o: kernels/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(KERNEL_CFLAGS) -march=x86-64-v3 -gdwarf-4 -DRLPROF_DISABLE -c $< -o $@
$(KERNELS_PLAIN): $(KERNELS_PLAIN_OBJS) $$(KERNEL_MODEL_OBJS) $(RLPROF_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) $(KERNELS_PLAIN_OBJS) $(KERNEL_MODEL_OBJS) $(RLPROF_A) -o $@ $(KERNEL_LIBS) -ldl
tests: $(KERNELS_PLAIN)
