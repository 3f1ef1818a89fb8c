/* rlprof run: profile a program and write its roofline report. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/run/run.h"
#include "cli/run/run_loops.h"
#include "common/held_dir.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: rlprof run [OPTIONS] [--] PROGRAM [ARGS...]\n"
		"\n"
		"Runs PROGRAM, counts flops and DRAM bytes per region (RL_REGION_BEGIN/END;\n"
		"an unannotated program is one region '<program>'), prints the table and\n"
		"writes report.json, report.csv, roofline.svg and report.html into DIR.\n"
		"Options end at PROGRAM: what follows it is the program's.\n"
		"\n"
		"  -o, --output DIR        output directory (default rlprof-out); its raw/\n"
		"                          holds the per-process results files\n"
		"  -b, --backend NAME      counter backend: auto (default: the best that\n"
		"                          works here), perf, papi, likwid, sim, time;\n"
		"                          'rlprof counters' says which work and why not;\n"
		"                          sim runs PROGRAM twice (see --sim-timing)\n"
		"  -q, --quiet             no progress lines (warnings are still shown)\n"
		"      --events LIST       extra events to count, comma-separated\n"
		"      --sim-caches SPEC   sim: cache geometry, SIZE:WAYS per level from L1\n"
		"                          out, e.g. 48K:12,2M:16,32M:16; default: derived\n"
		"                          from the cached machine model, else from what\n"
		"                          the machine claims (sysfs, CPUID)\n"
		"      --sim-bounds MODE   sim: how write-backs are charged: 'cause' (default)\n"
		"                          to the region whose store dirtied the line;\n"
		"                          'region' writes dirty lines back at every region\n"
		"                          bound; 'raw' to the region running at eviction\n"
		"      --sim-timing MODE   sim: 'native' (default) runs PROGRAM twice: first\n"
		"                          natively for the region times (backend time, into\n"
		"                          DIR/raw-native), then under the simulator for the\n"
		"                          counts; 'sim' runs it once, times then Valgrind's\n"
		"      --count-with PORTABLE  sim: time PROGRAM natively but count\n"
		"                          PORTABLE, a build of the same source the\n"
		"                          simulator can run (e.g. PROGRAM built with\n"
		"                          -march=native, PORTABLE with -march=x86-64-v3)\n"
		"      --timed-isa ISA     with --count-with: the ISA PROGRAM was built for\n"
		"                          (scalar, sse2, sse, avx2, avx512), whose compute\n"
		"                          ceiling its regions are held against (default:\n"
		"                          its GNU property note, when it says more than\n"
		"                          x86-64-baseline, else the widest floating-point\n"
		"                          arithmetic in its code)\n"
		"      --sim-avx512 MODE   sim: 'stop' (default) when the build to count\n"
		"                          has AVX-512 code, which the simulator cannot\n"
		"                          execute: the functions and the rebuild are\n"
		"                          said before anything runs (exit status 3);\n"
		"                          'run' counts it anyway (code behind a CPU check)\n"
		"      --compat MODE       programs annotated for LIKWID's marker API or\n"
		"                          PAPI's high-level API: 'auto' (default) finds\n"
		"                          them by their imports and preloads a shim that\n"
		"                          makes their regions rlprof regions; 'likwid' or\n"
		"                          'papi' forces one; 'none' turns the shims off\n"
		"                          (also librlprof-mpi, which 'auto' preloads into\n"
		"                          an MPI rank's program to send its results to\n"
		"                          rank 0 at MPI_Finalize)\n"
		"      --mpi-calls MODE    MPI programs: 'out' (default) keeps the work\n"
		"                          done inside MPI calls out of the regions' counts\n"
		"                          (librlprof-mpi's PMPI wrappers, every backend);\n"
		"                          'in' counts it as the program's; their time is\n"
		"                          each region's mpi_s either way\n"
		"      --no-probe          do not measure this machine when no machine model\n"
		"                          is cached (the report then has no roofs: they\n"
		"                          are marked not measured, and why)\n"
		"      --no-selftest       hardware counters (perf, papi, likwid): skip the\n"
		"                          known-answer check of the events before PROGRAM\n"
		"                          (small kernels of known flops and DRAM bytes;\n"
		"                          cached per machine, kernel and event set)\n"
		"      --plot              draw a small text roofline under the table\n"
		"      --per-thread        show per-thread rows in the table\n"
		"  -v, --verbose           the backend, note and method lines in full (on a\n"
		"                          terminal or with COLUMNS they are cut to its width)\n"
		"      --repeat N          time PROGRAM N times (N-1 more runs, backend\n"
		"                          time, into DIR/repeat/K): per region each run's\n"
		"                          time, the fastest, the median and the spread,\n"
		"                          which 'rlprof diff' and 'rlprof check' test;\n"
		"                          default 5 when its first run took under 0.5 s,\n"
		"                          else 1 (--repeat 1: once); the DRAM roofs are\n"
		"                          sampled between the runs (paired roofs)\n"
		"      --loops             per loop of the program's own code (found in its\n"
		"                          machine code, named by file:line with -g; see\n"
		"                          'rlprof inspect --loops'): counts under the\n"
		"                          simulator (-b sim), time from samples of the\n"
		"                          native run; the hot loops (1%% of the time, at\n"
		"                          most 50) as rows of the report, every loop in\n"
		"                          DIR/loops.json and a table under the regions'\n"
		"      --loop-calls        --loops, and each loop's total with the functions\n"
		"                          it calls (-b sim; slower: the simulator ends its\n"
		"                          blocks at calls)\n"
		"      --expect-status N   PROGRAM's exit status when it succeeds (default\n"
		"                          0; a program with a known non-zero status): its\n"
		"                          native times are kept, as for a status of 0\n"
		"  -h, --help              this text\n"
		"\n"
		"exit status: the program's own (128+N if it died of signal N; with sim,\n"
		"that of its run under the simulator), 127 if PROGRAM is not found, 126\n"
		"if it cannot be executed, 2 usage error, 3 when -b sim would count\n"
		"AVX-512 code (nothing run), 1 when rlprof itself fails\n"
		"before running it, or (the program having succeeded) cannot build or\n"
		"write the report\n");
}

enum { OPT_EVENTS = 256, OPT_SIM_CACHES, OPT_SIM_BOUNDS, OPT_SIM_TIMING,
       OPT_NO_PROBE, OPT_PLOT, OPT_PER_THREAD, OPT_COUNT_WITH, OPT_TIMED_ISA,
       OPT_COMPAT, OPT_MPI_RANK_ONLY, OPT_REPEAT, OPT_LOOPS, OPT_LOOP_CALLS,
       OPT_MPI_CALLS,
       OPT_SIM_AVX512, OPT_NO_SELFTEST, OPT_EXPECT_STATUS };

static int usage_error(const char *fmt, const char *arg)
{
	fputs("rlprof run: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("; see 'rlprof run --help'\n", stderr);
	return RL_EXIT_USAGE;
}

/* Returns -1 to go on, else an exit status. */
static int parse_options(int argc, char **argv, struct rl_run_options *o)
{
	static const struct option opts[] = {
		{"output", required_argument, NULL, 'o'},
		{"backend", required_argument, NULL, 'b'},
		{"quiet", no_argument, NULL, 'q'},
		{"events", required_argument, NULL, OPT_EVENTS},
		{"sim-caches", required_argument, NULL, OPT_SIM_CACHES},
		{"sim-bounds", required_argument, NULL, OPT_SIM_BOUNDS},
		{"sim-timing", required_argument, NULL, OPT_SIM_TIMING},
		{"count-with", required_argument, NULL, OPT_COUNT_WITH},
		{"timed-isa", required_argument, NULL, OPT_TIMED_ISA},
		{"sim-avx512", required_argument, NULL, OPT_SIM_AVX512},
		{"compat", required_argument, NULL, OPT_COMPAT},
		{"no-probe", no_argument, NULL, OPT_NO_PROBE},
		{"no-selftest", no_argument, NULL, OPT_NO_SELFTEST},
		{"plot", no_argument, NULL, OPT_PLOT},
		{"per-thread", no_argument, NULL, OPT_PER_THREAD},
		{"loops", no_argument, NULL, OPT_LOOPS},
		{"loop-calls", no_argument, NULL, OPT_LOOP_CALLS},
		{"mpi-rank-only", no_argument, NULL, OPT_MPI_RANK_ONLY},
		{"repeat", required_argument, NULL, OPT_REPEAT},
		{"verbose", no_argument, NULL, 'v'},
		{"mpi-calls", required_argument, NULL, OPT_MPI_CALLS},
		{"expect-status", required_argument, NULL, OPT_EXPECT_STATUS},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	memset(o, 0, sizeof *o);
	o->out_dir = "rlprof-out";
	o->backend = "auto";
	o->sim_timing = "native";
	o->compat = "auto";
	o->repeat = 1;
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, "+o:b:qvh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': o->out_dir = optarg; break;
		case 'b': o->backend = optarg; break;
		case 'q': o->quiet = true; break;
		case 'v': o->verbose = true; break;
		case OPT_EVENTS: o->events = optarg; break;
		case OPT_SIM_CACHES: o->sim_caches = optarg; break;
		case OPT_SIM_BOUNDS: o->sim_bounds = optarg; break;
		case OPT_SIM_TIMING: o->sim_timing = optarg; break;
		case OPT_COUNT_WITH: o->count_with = optarg; break;
		case OPT_TIMED_ISA: o->timed_isa = optarg; break;
		case OPT_SIM_AVX512: o->sim_avx512 = optarg; break;
		case OPT_COMPAT: o->compat = optarg; break;
		case OPT_NO_PROBE: o->no_probe = true; break;
		case OPT_NO_SELFTEST: o->no_selftest = true; break;
		case OPT_PLOT: o->plot = true; break;
		case OPT_PER_THREAD: o->per_thread = true; break;
		case OPT_LOOPS: o->loops = true; break;
		case OPT_LOOP_CALLS: o->loops = o->loop_calls = true; break;
		case OPT_MPI_RANK_ONLY: o->mpi_rank_only = true; break;
		case OPT_REPEAT: {
			char *end;
			long n = strtol(optarg, &end, 10);
			if (*end || end == optarg || n < 1 || n > RL_RUN_MAX_REPEAT)
				return usage_error("option '--repeat' takes a number of runs from 1 to 100, not '%s'",
						   optarg);
			o->repeat = (unsigned)n;
			o->repeat_given = true;
			break;
		}
		case OPT_MPI_CALLS: o->mpi_calls = optarg; break;
		case OPT_EXPECT_STATUS: {
			char *end;
			long n = strtol(optarg, &end, 10);
			if (*end || end == optarg || n < 0 || n > 255)
				return usage_error("option '--expect-status' takes an exit status from 0 to 255, not '%s'",
						   optarg);
			o->expect_status = (int)n;
			break;
		}
		case 'h': usage(stdout); return RL_EXIT_OK;
		default: {
			const char *arg = argv[optind - 1];
			bool is_long = arg[0] == '-' && arg[1] == '-';
			if (!is_long) {
				char flag[3] = {'-', (char)optopt, '\0'};
				/* getopt reports a missing value of -o/-b as '?' */
				if (optopt == 'o' || optopt == 'b')
					return usage_error("option '%s' needs a value",
							   flag);
				return usage_error("unknown option '%s'", flag);
			}
			if (optopt) /* a known long option without its value */
				return usage_error("option '%s' needs a value", arg);
			return usage_error("unknown option '%s'", arg);
		}
		}
	}
	if (optind >= argc)
		return usage_error("%s", "missing PROGRAM to run");
	if (!o->out_dir[0])
		return usage_error("%s", "option '-o' needs a directory, not ''");
	if (o->sim_bounds && strcmp(o->sim_bounds, "cause") != 0 &&
	    strcmp(o->sim_bounds, "region") != 0 &&
	    strcmp(o->sim_bounds, "raw") != 0)
		return usage_error("option '--sim-bounds' takes 'cause', 'region' or 'raw', not '%s'",
				   o->sim_bounds);
	if (strcmp(o->sim_timing, "native") != 0 &&
	    strcmp(o->sim_timing, "sim") != 0)
		return usage_error("option '--sim-timing' takes 'native' or 'sim', not '%s'",
				   o->sim_timing);
	if (o->sim_avx512 && strcmp(o->sim_avx512, "stop") != 0 &&
	    strcmp(o->sim_avx512, "run") != 0)
		return usage_error("option '--sim-avx512' takes 'stop' or 'run', not '%s'",
				   o->sim_avx512);
	if (o->mpi_calls && strcmp(o->mpi_calls, "out") != 0 &&
	    strcmp(o->mpi_calls, "in") != 0)
		return usage_error("option '--mpi-calls' takes 'out' or 'in', not '%s'",
				   o->mpi_calls);
	if (strcmp(o->compat, "auto") != 0 && strcmp(o->compat, "likwid") != 0 &&
	    strcmp(o->compat, "papi") != 0 && strcmp(o->compat, "none") != 0)
		return usage_error("option '--compat' takes 'auto', 'likwid', 'papi' or 'none', not '%s'",
				   o->compat);
	if (strcmp(o->backend, "auto") != 0 && !rl_backend_find(o->backend)) {
		char names[256];
		rl_backend_names(names, sizeof names);
		fprintf(stderr,
			"rlprof run: unknown backend '%s': choose auto, %s; "
			"see 'rlprof run --help'\n",
			o->backend, names);
		return RL_EXIT_USAGE;
	}
	o->argv = argv + optind;
	o->argc = argc - optind;
	return -1;
}

/* The program file: found, and of a kind that can run. */
static int check_program(struct rl_run_target *target,
			 const struct rl_run_options *opt)
{
	char msg[PATH_MAX + 256], err[1024];
	const char *slash;
	int rc;

	rc = rl_resolve_program(opt->argv[0], target->program,
				sizeof target->program, msg, sizeof msg);
	if (rc != 0) {
		fprintf(stderr, "rlprof: %s\n", msg);
		return rc;
	}
	slash = strrchr(target->program, '/');
	target->name = slash ? slash + 1 : target->program;
	if (rl_elf_inspect(target->program, &target->elf, err,
			   sizeof err) < 0) {
		fprintf(stderr, "rlprof: %s\n", err);
		return RL_EXIT_NOEXEC;
	}
	if (target->elf.kind == RL_FILE_OTHER) {
		fprintf(stderr,
			"rlprof: cannot run '%s': not an ELF executable or a "
			"script starting with '#!'; run it through its "
			"interpreter\n",
			target->program);
		return RL_EXIT_NOEXEC;
	}
	if (target->elf.damage)
		rl_run_warn("'%s' is damaged: %s: its declared regions may "
			    "not all be known; 'readelf -S' shows the errors",
			    target->program, target->elf.damage);
	if (target->elf.kind == RL_FILE_ELF_OTHER) {
		fprintf(stderr,
			"rlprof: cannot run '%s': an ELF file but not a "
			"program (an object file?); link it first\n",
			target->program);
		return RL_EXIT_NOEXEC;
	}
	return 0;
}

/* "; NAME: CAPABILITY (WHY)" at the end of buf, truncated to fit. */
static void append_other(char *buf, size_t len,
			 const struct rl_backend_probe *q)
{
	size_t used = strlen(buf);
	if (used + 1 < len)
		snprintf(buf + used, len - used, "; %s: %s%s%s%s",
			 q->backend->name, rl_capability_name(q->capability),
			 q->why[0] ? " (" : "", q->why, q->why[0] ? ")" : "");
}

/* A backend named with -b: probe only that one (probing LIKWID alone
 * costs about a second), and say why when it does not work. */
static int choose_named_backend(struct rl_run_backend *choice,
				const struct rl_run_options *opt)
{
	const struct rl_backend *b = rl_backend_find(opt->backend);
	const struct rl_backend_probe *p = &choice->probes[0];

	if (!b) /* checked by parse_options */
		return RL_EXIT_USAGE;
	rl_backend_probe_one(&choice->probes[0], b);
	choice->n_probes = 1;
	choice->chosen = 0;
	if (p->capability == RL_CAP_NONE) {
		fprintf(stderr,
			"rlprof: backend '%s' does not work here: %s; see "
			"'rlprof counters' or use '-b auto'\n",
			p->backend->name, p->why);
		return RL_EXIT_FAILURE;
	}
	snprintf(choice->reason, sizeof choice->reason,
		 "requested with -b %s; capability here: %s", p->backend->name,
		 rl_capability_name(p->capability));
	return 0;
}

/* -b auto: probe every backend and take the best; say so loudly when the
 * best is the simulator, which runs the program many times slower. */
static int choose_backend(struct rl_run_backend *choice,
			  const struct rl_run_options *opt)
{
	const struct rl_backend_probe *p;

	if (strcmp(opt->backend, "auto") != 0)
		return choose_named_backend(choice, opt);
	choice->n_probes =
		rl_backends_probe_all(choice->probes, RL_MAX_BACKENDS);
	choice->chosen = rl_backend_pick_auto(choice->probes, choice->n_probes);
	if (choice->chosen < 0) {
		fprintf(stderr, "rlprof: no counter backend works here, not even "
				"'time'; see 'rlprof counters'\n");
		return RL_EXIT_FAILURE;
	}
	p = &choice->probes[choice->chosen];
	snprintf(choice->reason, sizeof choice->reason,
		 "picked by -b auto: the best capability here (%s)",
		 rl_capability_name(p->capability));
	for (size_t i = 0; i < choice->n_probes; i++)
		if ((int)i != choice->chosen)
			append_other(choice->reason, sizeof choice->reason,
				     &choice->probes[i]);
	if (strcmp(p->backend->name, "sim") == 0 && !opt->quiet)
		fprintf(stderr,
			"rlprof: no hardware counters work here (see 'rlprof "
			"counters'): counting with the simulated PMU, which runs "
			"the program under Valgrind, 10-60x slower; '-b time' "
			"measures time only\n");
	return 0;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A point of the paired roof samples (run_roof_check.c) after timing
 * run after_run (0: before the first) of runs; the arrays freed after the
 * last. */
static void pair_point(struct rl_run *run, unsigned after_run, unsigned runs)
{
	rl_run_roof_check(&run->roof_check, &run->pair, &run->model,
			  &run->opt, &run->mpi, after_run,
			  rl_run_pair_points(runs));
	if (after_run >= runs)
		rl_run_pair_release(&run->pair);
}

/* Without --repeat, a short program that succeeded is timed
 * RL_RUN_DEFAULT_REPEAT times (run.h), where more runs can be made
 * (rl_run_repeat: not MPI, native region times). */
static void default_repeat(struct rl_run *run, double first_s, int ok)
{
	if (run->opt.repeat_given || run->mpi.mode != RL_MPI_NONE || !ok ||
	    !(first_s < RL_RUN_SHORT_S) ||
	    (strcmp(rl_run_backend_name(&run->backend), "sim") == 0 &&
	     !run->native.timing))
		return;
	run->opt.repeat = RL_RUN_DEFAULT_REPEAT;
}

int cmd_run(int argc, char **argv)
{
	struct rl_run *run;
	const char *backend;
	char err[2048];
	int rc;

	run = calloc(1, sizeof *run);
	if (run)
		run->place.dir_fd = -1;
	if (!run) {
		fprintf(stderr, "rlprof: out of memory\n");
		return RL_EXIT_FAILURE;
	}
	rc = parse_options(argc, argv, &run->opt);
	if (rc >= 0)
		goto out;
	if ((rc = rl_mpi_setup(&run->mpi, &run->opt)) != 0 ||
	    (rc = check_program(&run->target, &run->opt)) != 0 ||
	    (rc = choose_backend(&run->backend, &run->opt)) != 0)
		goto out;
	backend = rl_run_backend_name(&run->backend);
	run->native.timing = strcmp(backend, "sim") == 0 &&
			     strcmp(run->opt.sim_timing, "native") == 0 &&
			     run->mpi.mode != RL_MPI_RANK &&
			     run->mpi.mode != RL_MPI_RANK_ONLY;
	if ((rc = rl_run_check_count_with(&run->count, &run->target, &run->opt,
					  &run->backend, &run->native)) != 0 ||
	    (rc = rl_run_check_avx512(&run->opt, &run->target, &run->count,
					 &run->backend)) != 0)
		goto out;
	/* the machine model before the program: the cached one, never a
	 * probe (the simulator's caches, the paired roofs) */
	rl_run_model_cached(&run->model, &run->mpi);
	rl_run_model_refresh(&run->model, &run->opt, &run->mpi);
	if (rl_run_prepare_dir(&run->place, &run->opt, &run->native, err,
			       sizeof err) < 0 ||
	    rl_run_sim_geometry(&run->sim, &run->model, &run->opt,
				&run->backend, err, sizeof err) < 0 ||
	    rl_run_prepare_launch(run, err, sizeof err) < 0 ||
	    rl_mpi_launch(&run->mpi, &run->setup, &run->opt, &run->target,
			  &run->place, &run->backend, &run->native, err,
			  sizeof err) < 0) {
		fprintf(stderr, "rlprof: %s\n", err);
		rc = RL_EXIT_FAILURE;
		goto out;
	}
	rl_mpi_after_prepare(&run->mpi, &run->opt, &run->place, &run->backend);
	/* hardware counters: checked before use */
	rl_run_selftest(&run->selftest, &run->opt, &run->backend, &run->setup);
	rl_run_say(&run->opt, "profiling '%s' with backend '%s' (%s)",
		   run->target.name, backend,
		   strcmp(run->opt.backend, "auto") == 0 ? "picked by -b auto"
							 : "requested");
	/* the DRAM roofs sampled just before and after the timing run, and
	 * between the repetitions (rl_run_repeat): the paired roofs; the
	 * first point's share of the time as if the default repeat
	 * applied */
	pair_point(run, 0, run->opt.repeat_given ? run->opt.repeat
						 : RL_RUN_DEFAULT_REPEAT);
	double t0 = now_s();
	if (!run->native.timing) {
		rl_run_spawn_wait(run);
		default_repeat(run, now_s() - t0,
			       run->outcome.started &&
				       run->outcome.exit_status ==
					       run->opt.expect_status);
		pair_point(run, 1, run->opt.repeat);
	} else {
		rl_run_say(&run->opt, "timing run (native, backend time)...");
		int stopped = rl_run_native(run);
		default_repeat(run, now_s() - t0,
			       !stopped && run->native.exit_status ==
				       run->opt.expect_status &&
				       !run->native.signal);
		pair_point(run, 1, run->opt.repeat);
		if (stopped == 0) {
			rl_run_say(&run->opt, "counting run (simulator)...");
			rl_run_spawn_wait(run);
		}
	}
	rl_run_recover(&run->place, &run->native, &run->outcome);
	rl_run_repeat(run);
	rl_run_pair_release(&run->pair);
	if (rl_run_recheck_dir(&run->place, &run->opt, err, sizeof err) < 0) {
		fprintf(stderr, "rlprof: %s\n", err);
		run->no_files = true;
	} else if (rl_run_write_record(run, err, sizeof err) < 0) {
		rl_run_warn("%s", err);
		run->no_record = true;
	}
	rc = run->outcome.exit_status;
	rl_run_loops_collect(run, run->loops);
	if (!rl_mpi_reports(&run->mpi, &run->opt, &run->place))
		goto out;
	/* the machine model for the report: the cached one, else a quick
	 * probe now (unless --no-probe) */
	rl_run_model(&run->model, &run->opt, &run->mpi);
	if ((rl_run_report(&run->model, &run->opt, &run->target,
			   &run->outcome, &run->place, &run->setup,
			   &run->backend, &run->roof_check, run->no_files,
			   run->no_record) < 0 ||
	     run->no_files || run->no_record) &&
	    rc == 0)
		rc = RL_EXIT_FAILURE;
	rl_run_loops_report(run->loops);
out:
	if (run->place.dir_fd >= 0)
		close(run->place.dir_fd); /* the lock on DIR goes with it */
	rl_run_loops_release(&run->loops);
	rl_run_pair_release(&run->pair);
	rl_run_model_release(&run->model);
	rl_launch_release(&run->setup.launch);
	rl_launch_release(&run->setup.native_launch);
	rl_elf_info_release(&run->target.elf);
	rl_elf_info_release(&run->count.elf);
	free(run);
	return rc;
}
