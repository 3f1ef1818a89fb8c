/*
 * -b sim: the counted build's AVX-512 code said before anything runs.
 * The simulator (Valgrind) cannot execute AVX-512 instructions: a counting
 * run dies of SIGILL at the first one that runs, which on a long program
 * comes minutes in, after the native timing run. So the build the
 * simulator would run (PROGRAM, or --count-with's) and the libraries it
 * brings are read first (inspect/elf_evex.h): where they hold AVX-512
 * code, rlprof names the functions, the rebuild and the --count-with line,
 * and stops (RL_EXIT_SIM_AVX512) unless --sim-avx512 run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "render/render_evex.h"
#include "cli/run/run.h"
#include "inspect/elf_evex.h"

int rl_run_check_avx512(const struct rl_run_options *opt,
			const struct rl_run_target *target,
			const struct rl_run_count *count,
			const struct rl_run_backend *backend)
{
	const char *counted = opt->count_with ? count->program
						  : target->program;
	const struct rl_elf_info *elf =
		opt->count_with ? &count->elf : &target->elf;
	bool go = opt->sim_avx512 && strcmp(opt->sim_avx512, "run") == 0;
	struct rl_evex_scan *s;
	char err[512];

	if (strcmp(rl_run_backend_name(backend), "sim") != 0 ||
	    elf->kind == RL_FILE_SCRIPT || !(s = calloc(1, sizeof *s)))
		return 0;
	/* a file the decoder cannot read is the simulator's to say */
	if (rl_elf_evex_scan(counted, s, err, sizeof err) < 0 || !s->total) {
		free(s);
		return 0;
	}
	if (go) {
		rl_run_warn("'%s' has AVX-512 code (%lu instructions, in %s "
			    "and %zu more places), which the simulator cannot "
			    "execute: counting it anyway (--sim-avx512 run); "
			    "its counting run dies of SIGILL if that code runs",
			    counted, s->total,
			    s->funcs[0].name[0] ? s->funcs[0].name : "code",
			    s->n_funcs - 1 + s->more_funcs);
		free(s);
		return 0;
	}
	fprintf(stderr,
		"rlprof: %s'%s' has AVX-512 code, which the simulator (-b "
		"sim, Valgrind) cannot execute: its counting run would die "
		"(SIGILL) at the first of these that runs; nothing was run:\n",
		opt->count_with ? "the --count-with build " : "",
		counted);
	rl_evex_note_functions(stderr, "rlprof:   ", s, counted);
	if (opt->count_with)
		fputs("rlprof: rebuild it for the simulator "
		      "(-march=x86-64-v3 in place of -march=native, or add "
		      "-mno-avx512f)\n", stderr);
	else
		rl_evex_note_rebuild(stderr, "rlprof: ", opt->argv[0],
				     opt->argv + 1);
	fputs("rlprof: or, when that code sits behind a CPU check the "
	      "simulator never passes, count it anyway: "
	      "'--sim-avx512 run'\n",
	      stderr);
	free(s);
	return RL_EXIT_SIM_AVX512;
}
