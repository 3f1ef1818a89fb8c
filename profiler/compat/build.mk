# profiler/compat/: shims that give programs annotated for other tools
# rlprof regions without a rebuild. `rlprof run` preloads them (run_compat.c)
# in front of the real library when the program imports its functions:
#   librlprof-likwid.so   LIKWID's marker API (likwid_marker*)
#   librlprof-papihl.so   PAPI's high-level API (PAPI_hl_*)
# Each calls librlprof's public rl_region_* functions (found through its
# DT_NEEDED and an $ORIGIN rpath, so the installed tree works as a whole).
COMPAT_CFLAGS = $(filter-out -MMD -MP,$(ALL_CFLAGS)) -fvisibility=hidden -shared
COMPAT_COMMON := profiler/compat/compat_regions.c profiler/compat/compat_regions.h \
	profiler/compat/clock_interpose.c profiler/runtime/rl_clock_interpose.h

$(LIB)/librlprof-likwid.so: profiler/compat/likwid_shim.c $(COMPAT_COMMON) $(RLPROF_SO)
	@mkdir -p $(dir $@)
	$(CC) $(COMPAT_CFLAGS) $(filter %.c,$^) -o $@ $(ALL_LDFLAGS) \
	  -L$(LIB) -lrlprof -Wl,-rpath,'$$ORIGIN' -lpthread

$(LIB)/librlprof-papihl.so: profiler/compat/papihl_shim.c $(COMPAT_COMMON) $(RLPROF_SO)
	@mkdir -p $(dir $@)
	$(CC) $(COMPAT_CFLAGS) $(filter %.c,$^) -o $@ $(ALL_LDFLAGS) \
	  -L$(LIB) -lrlprof -Wl,-rpath,'$$ORIGIN' -lpthread

TARGETS += $(LIB)/librlprof-likwid.so $(LIB)/librlprof-papihl.so

# likwid/likwid-marker.h: LIKWID's marker macros for a program built where
# LIKWID is not installed (linked with -lrlprof-likwid); installed as
# include/rlprof/likwid/likwid-marker.h
$(BUILD)/include/rlprof/likwid/likwid-marker.h: profiler/compat/likwid/likwid-marker.h
	@mkdir -p $(dir $@)
	cp $< $@
TARGETS += $(BUILD)/include/rlprof/likwid/likwid-marker.h
