# profiler/fortran/: the Fortran module rlprof (rlprof.f90, iso_c_binding
# over librlprof's rl_region_* functions), built with gfortran when it is
# installed: $(BUILD)/include/rlprof/fortran/rlprof.mod, the archive
# $(BUILD)/lib/librlprof_fortran.a and, at install, rlprof-fortran.pc.
# A build without gfortran leaves them out (the tests then skip).
ifeq ($(origin FC),default)
FC := gfortran
endif
HAVE_FC := $(shell command -v $(FC) 2>/dev/null)

FORTRAN_MODDIR := $(BUILD)/include/rlprof/fortran
FORTRAN_OBJ    := $(OBJ)/profiler/fortran/rlprof.o
FORTRAN_A      := $(LIB)/librlprof_fortran.a

$(FORTRAN_OBJ): profiler/fortran/rlprof.f90
	@mkdir -p $(dir $@) $(FORTRAN_MODDIR)
	$(FC) -std=f2008 -Wall -Wextra -g $(OPT) -fPIC $(SANFLAGS) $(FFLAGS) \
	  -J$(FORTRAN_MODDIR) -c $< -o $@

$(FORTRAN_A): $(FORTRAN_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

ifneq ($(HAVE_FC),)
TARGETS += $(FORTRAN_A)
endif
