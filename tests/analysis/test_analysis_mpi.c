/*
 * analysis_mpi.c and the MPI figures of report_ranks.c: a region's MPI
 * time (mpi_s) through the report, the method line's word on MPI calls,
 * and a region whose work is all MPI: not placed, its MPI time and the
 * rank that waited as diagnosis. Two hand-made ranks, exact figures.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "analysis/report.h"
#include "results/results_ranks.h"
#include "tests/lib/machine.h"

#define BIT(c) (UINT64_C(1) << (c))

/* rank q's process: "sync" (time and MPI time in us, no flops) and "dot"
 * (2000 us, 1000 us of it in MPI calls, 2e6 flops, 16e6 DRAM bytes) */
struct rank {
	struct rl_process_results p;
	struct rl_thread_results t;
	struct rl_region_stats r[2];
	struct rl_counter_total c[2][RL_COUNTER_COUNT];
};

static void make_rank(struct rank *k, long q, double sync_us,
		      double sync_mpi_us, int mpi_calls, bool measured)
{
	memset(k, 0, sizeof *k);
	k->r[0].name = (char *)"sync";
	k->r[0].calls = 1;
	k->r[0].time_ns = (uint64_t)(sync_us * 1000);
	k->r[0].mpi_known = measured;
	k->r[0].mpi_ns = (uint64_t)(sync_mpi_us * 1000);
	k->r[0].counters = k->c[0];
	k->r[1].name = (char *)"dot";
	k->r[1].calls = 1;
	k->r[1].time_ns = 2000000;
	k->r[1].mpi_known = measured;
	k->r[1].mpi_ns = 1000000;
	k->r[1].counters = k->c[1];
	k->c[1][RL_C_FLOPS_F64_SCALAR].value = 2000000;
	k->c[1][RL_C_DRAM_BYTES].value = 16000000;
	for (int i = 0; i < 2; i++) {
		k->r[i].expected_flops = k->r[i].expected_bytes = NAN;
		for (int c = 0; c < RL_COUNTER_COUNT; c++) {
			/* counting the whole time: never multiplexed */
			k->c[i][c].enabled_ns = k->c[i][c].running_ns =
				k->r[i].time_ns;
			k->c[i][c].scaled = (double)k->c[i][c].value;
		}
	}
	k->t.tid = (uint64_t)(100 + q);
	k->t.regions = k->r;
	k->t.n_regions = 2;
	k->p.version = RL_RESULTS_VERSION;
	k->p.pid = 100 + q;
	k->p.program = (char *)"app";
	k->p.backend = (char *)"perf";
	k->p.backend_note = (char *)"";
	k->p.provided = BIT(RL_C_FLOPS_F64_SCALAR) | BIT(RL_C_DRAM_BYTES);
	k->p.method[RL_C_FLOPS_F64_SCALAR] = (char *)"fake flops";
	k->p.method[RL_C_DRAM_BYTES] = (char *)"fake dram";
	k->p.complete = true;
	k->p.threads = &k->t;
	k->p.n_threads = 1;
	k->p.mpi_calls = (uint8_t)mpi_calls;
}

/* rank 0 arrives last at "sync" (100 us, 90 of them in the call); rank
 * 1 waits there 9900 of its 10000 us */
static void build(struct rank k[2], struct rl_report *rep, int mpi_calls,
		  bool measured, struct rl_machine **m)
{
	static struct rl_process_results procs[2];
	static struct rl_rank_info info[2];
	static long proc_rank[2] = {0, 1};
	static struct rl_mpi_results mpi;
	struct rl_run_results run = {0};
	char err[256] = "";

	make_rank(&k[0], 0, 100, 90, mpi_calls, measured);
	make_rank(&k[1], 1, 10000, 9900, mpi_calls, measured);
	procs[0] = k[0].p;
	procs[1] = k[1].p;
	for (long q = 0; q < 2; q++)
		info[q] = (struct rl_rank_info){q, NULL, true, 0, 0, NULL};
	mpi = (struct rl_mpi_results){2, info, proc_rank, 0};
	run.procs = procs;
	run.n_procs = 2;
	run.exit_status = 0;
	run.mpi = &mpi;
	*m = rl_test_machine_default();
	cr_assert_eq(rl_report_build(&run, *m, rep, err, sizeof err), 0,
		     "%s", err);
}

Test(analysis_mpi, all_mpi_region_is_not_placed_and_names_who_waited)
{
	struct rank k[2];
	struct rl_report rep;
	struct rl_machine *m;
	const struct rl_region_row *sync, *dot;
	const struct rl_rank_agg *g;

	build(k, &rep, RL_MPI_CALLS_OUT, true, &m);
	sync = &rep.rows[0];
	dot = &rep.rows[1];
	/* the longest thread's MPI time, like the time */
	cr_assert(sync->mpi_known);
	cr_assert_float_eq(sync->mpi_s, 9900e-6, 1e-12);
	cr_assert_float_eq(dot->mpi_s, 1000e-6, 1e-12);
	/* all MPI: no placement, no roofline advice */
	cr_assert(rl_row_mpi_only(sync));
	cr_assert_eq(sync->bound, RL_BOUND_UNKNOWN);
	cr_assert_eq(sync->basis, RL_BASIS_NONE);
	cr_assert(isnan(sync->roof_pct));
	cr_assert_str_eq(sync->diagnosis,
			 "its work is MPI: 99% of its time in MPI calls "
			 "(mpi_s 9.9 ms of 10 ms), no floating-point work "
			 "of its own: no roofline advice; ranks waited: MPI "
			 "time max/mean 1.98, rank 1 waited longest, rank 0 "
			 "least (it arrived last)");
	/* its own flops: placed, the MPI time beside them */
	cr_assert_not(rl_row_mpi_only(dot));
	cr_assert_neq(dot->bound, RL_BOUND_UNKNOWN);
	cr_assert(strstr(dot->method, "; MPI calls: kept out of flops and "
				      "bytes, their time shown as mpi_s"),
		  "%s", dot->method);
	/* the ranks' aggregate: (9900 + 90) / 2 us mean, 9900 max */
	g = &rep.ranks->aggs[0];
	cr_assert_float_eq(g->mpi_mean_s, 4995e-6, 1e-12);
	cr_assert_float_eq(g->mpi_max_s, 9900e-6, 1e-12);
	cr_assert_eq(g->mpi_max_rank, 1);
	cr_assert_eq(g->mpi_min_rank, 0);
	/* own time: 10 us and 100 us */
	cr_assert_float_eq(g->work_mean_s, 55e-6, 1e-12);
	cr_assert_eq(g->work_max_rank, 1);
	cr_assert_float_eq(rep.ranks->rows[1].mpi_s, 9900e-6, 1e-12);
	rl_report_release(&rep);
	free(m);
}

Test(analysis_mpi, kept_in_is_said_and_unwrapped_ranks_are_named)
{
	struct rank k[2];
	struct rl_report rep;
	struct rl_machine *m;

	build(k, &rep, RL_MPI_CALLS_IN, true, &m);
	cr_assert(strstr(rep.rows[1].method,
			 "MPI calls: kept in (--mpi-calls in), their time "
			 "shown as mpi_s"),
		  "%s", rep.rows[1].method);
	rl_report_release(&rep);
	free(m);

	/* no wrapper in the ranks: nothing measured, and the method says
	 * MPI calls stay in the counts; nothing is held back as "MPI" */
	build(k, &rep, RL_MPI_CALLS_NONE, false, &m);
	cr_assert_not(rep.rows[0].mpi_known);
	cr_assert(isnan(rl_row_mpi_s(&rep.rows[0])));
	cr_assert_not(rl_row_mpi_only(&rep.rows[0]));
	cr_assert(isnan(rep.ranks->aggs[0].mpi_mean_s));
	cr_assert(strstr(rep.rows[1].method,
			 "MPI calls: in the counts, their time not measured"),
		  "%s", rep.rows[1].method);
	rl_report_release(&rep);
	free(m);
}
