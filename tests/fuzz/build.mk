# tests/fuzz/: libFuzzer harnesses (clang, ASan + UBSan) for the readers of
# untrusted input: the results directory (then every renderer), the
# machine model, the ELF region records, live files, rank trees, saved
# reports and DIR/loops.json. fuzz_targets.c holds the targets;
# main_<target>.c is each libFuzzer entry. The seed corpora are
# tests/fuzz/<target>/ (from real runs); tests/fuzz/<target>/crashes/
# holds every input that once crashed. `make test` replays them all
# (tests/fuzz/test_fuzz_replay.c, built without libFuzzer).
#
#   make fuzz                      each target FUZZ_SECONDS (default 60),
#                                  then PROP_SEEDS (default 3000) seeds of
#                                  the region-count property test
#                                  (tests/cli/test_e2e_counts.c)
#   make fuzz FUZZ_SECONDS=3600 FUZZ_TARGETS=results FUZZ_FLAGS='-jobs=8'
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= results machine elf live ranks report loops
FUZZ_BUILD   ?= build-fuzz
FUZZ_FLAGS   ?=

# The replay in the Criterion binary.
FUZZ_TARGET_OBJ := $(OBJ)/tests/fuzz/fuzz_targets.o
CFLAGS_tests_fuzz_ = $(CFLAGS_tests_)

# Built by the sub-make of `make fuzz` (CC=clang, SANITIZE=1, objects with
# -fsanitize=fuzzer-no-link, BUILD=$(FUZZ_BUILD)).
FUZZ_BINS := $(patsubst %,$(BIN)/fuzz-%,$(FUZZ_TARGETS))
$(BIN)/fuzz-%: $(OBJ)/tests/fuzz/main_%.o $(FUZZ_TARGET_OBJ) $(REPORT_OBJS) $$(PROBE_OBJS) $(EVENTS_OBJS) $$(KERNEL_LIB_OBJS) $(RLPROF_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ -o $@ $(REPORT_LIBS) $(EVENTS_LIBS) $(RUNTIME_LIBS) $(PROBE_LIBS)

.PRECIOUS: $(OBJ)/tests/fuzz/main_%.o
.PHONY: fuzz fuzz-bins
fuzz-bins: $(FUZZ_BINS)

# libFuzzer writes what it finds to $(FUZZ_BUILD)/fuzz/<target>/ (its
# working corpus; the seeds are only read) and a crashing input to
# $(FUZZ_BUILD)/fuzz/crash-<target>-*: copy that into
# tests/fuzz/<target>/crashes/ once fixed, so `make test` replays it.
fuzz: deps
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang SANITIZE=1 \
	  CFLAGS='-fsanitize=fuzzer-no-link' fuzz-bins
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/fuzz/$$t; \
	  echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
	  $(FUZZ_BUILD)/bin/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) \
	    -print_final_stats=1 $(FUZZ_FLAGS) \
	    -artifact_prefix=$(FUZZ_BUILD)/fuzz/crash-$$t- \
	    $(FUZZ_BUILD)/fuzz/$$t tests/fuzz/$$t; \
	done

# The region-count property test (tests/cli/test_e2e_counts.c, 300 seeds in
# `make test`) with more seeds, in the normal build.
PROP_SEEDS ?= 3000
fuzz: fuzz-props
.PHONY: fuzz-props
fuzz-props: all tests
	@echo "fuzz: region counts, $(PROP_SEEDS) seeds (tests/omp/omp_prop.c)"
	@RLPROF_PROP_SEEDS=$(PROP_SEEDS) scripts/run-tests $(BUILD) \
	  --filter 'e2e_counts/property_every_region_exact'
