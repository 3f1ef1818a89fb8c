# profiler/mpi/: librlprof-mpi.so, the PMPI wrapper that sends each MPI
# rank's results to rank 0 at MPI_Finalize (runs without a shared output
# directory), and the wrappers that keep MPI calls out of the counts
# (pmpi_calls.c). Built with Open MPI's mpicc when it is installed; librlprof
# itself never links MPI. `rlprof run` under each rank preloads it into a
# dynamically linked program that imports MPI_Finalize (run_compat.c).
MPICC ?= mpicc
ifneq ($(shell command -v $(MPICC) 2>/dev/null),)
$(LIB)/librlprof-mpi.so: profiler/mpi/send_finalize.c profiler/mpi/pmpi_calls.c profiler/runtime/rl_results_now.h profiler/runtime/rl_mpi_calls.h $(RLPROF_SO)
	@mkdir -p $(dir $@)
	OMPI_CC=$(CC) $(MPICC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) -fvisibility=hidden -shared \
	  $(filter %.c,$^) -o $@ $(ALL_LDFLAGS) -L$(LIB) -lrlprof -Wl,-rpath,'$$ORIGIN'

TARGETS += $(LIB)/librlprof-mpi.so
endif
