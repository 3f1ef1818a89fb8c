/*
 * rlprof run --count-with PORTABLE: on a machine without a PMU the
 * simulated PMU counts, but Valgrind cannot run every build (AVX-512 code
 * stops it with SIGILL). The native timing run then times PROGRAM (the
 * build the user cares about) and the counting run counts PORTABLE, a
 * build of the same source the simulator can run. Their regions are
 * matched by name and calls (results_native.c); here they are compared
 * before the run as far as the binaries tell (their region records), and
 * the ISA the timed build was made for is found, for its compute ceiling.
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "inspect/elf_code_isa.h"
#include "inspect/elf_isa.h"
#include "cli/run/run.h"
#include "common/name_index.h"
#include "common/rl_error.h"

static const char *const timed_isas[] = {"scalar", "sse2", "sse", "avx2",
					 "avx512"};

static bool known_isa(const char *isa)
{
	for (size_t i = 0; i < sizeof timed_isas / sizeof *timed_isas; i++)
		if (strcmp(isa, timed_isas[i]) == 0)
			return true;
	return false;
}

/* The name expressions of e's records, indexed (a scan per record was
 * quadratic). 0 or RL_ENOMEM. */
static int index_sites(const struct rl_elf_info *e, struct rl_name_index *ix)
{
	for (size_t i = 0; i < e->n_sites; i++)
		if (rl_name_index_put(ix, e->sites[i].expr, i))
			return RL_ENOMEM;
	return 0;
}

/* Region records (name expressions) in one build and not the other. */
static void compare_sites(const struct rl_run_count *count,
			  const struct rl_run_target *target)
{
	const struct rl_elf_info *a = &target->elf, *b = &count->elf;
	struct rl_name_index ix[2] = {{0}, {0}};
	size_t said = 0, at;

	if (index_sites(a, &ix[0]) || index_sites(b, &ix[1])) {
		rl_name_index_release(&ix[0]);
		rl_name_index_release(&ix[1]);
		rl_run_warn("out of memory comparing the region records of the "
			    "two builds");
		return;
	}
	for (int pass = 0; pass < 2; pass++) {
		const struct rl_elf_info *x = pass ? b : a;
		const struct rl_name_index *y = &ix[pass ? 0 : 1];
		for (size_t i = 0; i < x->n_sites; i++) {
			if (rl_name_index_get(y, x->sites[i].expr, &at) ||
			    said++ >= 8)
				continue;
			rl_run_warn(
				"region %s (%s:%u) is in '%s' but not in "
				"'%s': the two builds differ, so its counts "
				"and times may not match",
				x->sites[i].expr, x->sites[i].file,
				x->sites[i].line,
				pass ? count->program : target->program,
				pass ? target->program : count->program);
		}
	}
	if (said > 8)
		rl_run_warn("%zu more regions differ between the two builds",
			    said - 8);
	rl_name_index_release(&ix[0]);
	rl_name_index_release(&ix[1]);
}

/* What the timed build's note says, when it says nothing useful. */
static void note_said(char *buf, size_t len, const struct rl_run_target *target,
		      enum rl_isa_level level)
{
	if (level == RL_ISA_LEVEL_NONE)
		snprintf(buf, len, "'%s' has no GNU property note of its ISA",
			 target->name);
	else
		snprintf(buf, len,
			 "the GNU property note of '%s' says %s, which "
			 "compilers write whatever -march was",
			 target->name, rl_isa_level_name(level));
}

/* The widest floating-point arithmetic of the timed build's own code
 * (elf_code_isa.h): true when found; else why not, in why. */
static bool timed_isa_from_code(struct rl_run_count *count,
				const struct rl_run_target *target,
				const char *note, char *why, size_t whylen)
{
	struct rl_code_isa c;
	char err[PATH_MAX + 128];
	const char *isa;

	if (rl_elf_code_isa(target->program, &c, err, sizeof err) < 0) {
		snprintf(why, whylen, "%s", err);
		return false;
	}
	isa = rl_code_isa_ceiling(c.widest_bits);
	if (!isa) {
		snprintf(why, whylen, "its own code has no floating-point arithmetic (its "
			 "libraries are not read)");
		return false;
	}
	count->timed_fma = c.widest_fma;
	snprintf(count->timed_isa, sizeof count->timed_isa, "%s", isa);
	snprintf(count->timed_isa_source, sizeof count->timed_isa_source,
		 "the code of '%s': its widest floating-point arithmetic is "
		 "%u-bit, %s (%lu scalar, %lu 128-bit, %lu 256-bit, %lu "
		 "512-bit instructions; shared libraries not read; %s)",
		 target->name, c.widest_bits,
		 count->timed_fma ? "with FMA" : "without FMA", c.n[0], c.n[1],
		 c.n[2], c.n[3], note);
	return true;
}

static void find_timed_isa(struct rl_run_count *count,
			   const struct rl_run_target *target,
			   const struct rl_run_options *opt)
{
	enum rl_isa_level level;
	char err[PATH_MAX + 128], note[PATH_MAX + 128];

	count->timed_fma = -1;
	if (opt->timed_isa) {
		snprintf(count->timed_isa, sizeof count->timed_isa, "%s",
			 opt->timed_isa);
		snprintf(count->timed_isa_source,
			 sizeof count->timed_isa_source, "--timed-isa %s",
			 opt->timed_isa);
		return;
	}
	if (rl_elf_isa_level(target->program, &level, err, sizeof err) < 0)
		level = RL_ISA_LEVEL_NONE;
	if (level >= RL_ISA_LEVEL_V2) {
		snprintf(count->timed_isa, sizeof count->timed_isa, "%s",
			 rl_isa_level_ceiling(level));
		snprintf(count->timed_isa_source,
			 sizeof count->timed_isa_source,
			 "the GNU property note of '%s' (%s)", target->name,
			 rl_isa_level_name(level));
		return;
	}
	note_said(note, sizeof note, target, level);
	if (timed_isa_from_code(count, target, note, err, sizeof err))
		return;
	count->timed_isa[0] = '\0';
	snprintf(count->timed_isa_source, sizeof count->timed_isa_source,
		 "unknown: %s, and %s; say it with --timed-isa", note, err);
}

int rl_run_check_count_with(struct rl_run_count *count,
			    const struct rl_run_target *target,
			    const struct rl_run_options *opt,
			    const struct rl_run_backend *choice,
			    const struct rl_run_native *native)
{
	const char *backend = rl_run_backend_name(choice);
	char msg[PATH_MAX + 256], err[1024];
	int rc;

	if (opt->timed_isa && !opt->count_with) {
		fprintf(stderr, "rlprof run: option '--timed-isa' goes with "
				"'--count-with'; see 'rlprof run --help'\n");
		return RL_EXIT_USAGE;
	}
	if (opt->timed_isa && !known_isa(opt->timed_isa)) {
		fprintf(stderr,
			"rlprof run: option '--timed-isa' takes scalar, sse2, "
			"sse, avx2 or avx512, not '%s'; see 'rlprof run "
			"--help'\n",
			opt->timed_isa);
		return RL_EXIT_USAGE;
	}
	if (!opt->count_with)
		return 0;
	if (strcmp(backend, "sim") != 0) {
		if (strcmp(opt->backend, "auto") != 0) {
			fprintf(stderr,
				"rlprof run: option '--count-with' goes with "
				"the simulated PMU ('-b sim'), not '-b %s', "
				"which counts '%s' itself\n",
				backend, target->name);
			return RL_EXIT_USAGE;
		}
		rl_run_warn("'--count-with %s' is not used: backend '%s' "
			    "counts '%s' itself",
			    opt->count_with, backend, target->name);
		return 0;
	}
	if (!native->timing) {
		fprintf(stderr,
			"rlprof run: options '--count-with' and '--sim-timing "
			"sim' do not go together: the timed build runs natively; "
			"see 'rlprof run --help'\n");
		return RL_EXIT_USAGE;
	}
	rc = rl_resolve_program(opt->count_with, count->program,
				sizeof count->program, msg, sizeof msg);
	if (rc != 0) {
		fprintf(stderr, "rlprof: --count-with: %s\n", msg);
		return rc;
	}
	if (rl_elf_inspect(count->program, &count->elf, err, sizeof err) < 0) {
		fprintf(stderr, "rlprof: --count-with: %s\n", err);
		return RL_EXIT_NOEXEC;
	}
	compare_sites(count, target);
	find_timed_isa(count, target, opt);
	if (count->timed_isa[0])
		rl_run_say(opt,
			   "--count-with: '%s' is held against the %s "
			   "ceiling%s: from %s",
			   target->name, count->timed_isa,
			   count->timed_fma == 0 ? " without FMA" : "",
			   count->timed_isa_source);
	else
		rl_run_say(opt,
			   "--count-with: the ISA of '%s' is %s; the best "
			   "peak is its ceiling",
			   target->name, count->timed_isa_source);
	return 0;
}
