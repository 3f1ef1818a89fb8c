/*
 * MPI calls in the report (report.h): the method line's word on them, the
 * regions whose work is all MPI (no roofline advice: their MPI time, and
 * where ranks waited, the imbalance and the rank), see docs/parallel.md
 * "MPI calls are not the program's work".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fmt_seconds.h"
#include "analysis/report.h"
#include "analysis/report_pack.h"
#include "common/rl_error.h"

bool rl_row_mpi_only(const struct rl_region_row *row)
{
	return row->mpi_known && row->time_s > 0 &&
	       row->mpi_s >= RL_MPI_ONLY_SHARE * row->time_s &&
	       !(row->flops > 0);
}

const char *rl_mpi_method(int mpi_calls, uint64_t provided)
{
	bool work = false; /* flops or bytes counted */

	for (int c = 0; c < RL_COUNTER_COUNT; c++)
		if (provided >> c & 1) {
			enum rl_counter_kind k = rl_counter_kind_of(c);
			work |= k == RL_KIND_FLOPS || k == RL_KIND_BYTES;
		}
	switch (mpi_calls) {
	case RL_MPI_CALLS_OUT:
		return work ? "MPI calls: kept out of flops and bytes, their "
			      "time shown as mpi_s"
		       : provided ? "MPI calls: kept out of the counts, their "
				    "time shown as mpi_s"
				  : "MPI calls: their time shown as mpi_s";
	case RL_MPI_CALLS_IN:
		return "MPI calls: kept in (--mpi-calls in), their time shown "
		       "as mpi_s";
	case RL_MPI_CALLS_UNWRAPPED:
		return "MPI calls: in the counts, their time not measured (no "
		       "PMPI wrapper in the ranks: a static or Fortran "
		       "program, or --compat none)";
	default:
		return NULL;
	}
}

char *rl_mpi_diagnosis(const struct rl_region_row *row)
{
	char a[32], b[32], *d;
	size_t n = 256;

	if (!(d = malloc(n)))
		return NULL;
	rl_fmt_seconds(a, sizeof a, row->mpi_s);
	rl_fmt_seconds(b, sizeof b, row->time_s);
	snprintf(d, n,
		 "its work is MPI: %.0f%% of its time in MPI calls (mpi_s %s "
		 "of %s), %s: no roofline advice",
		 100 * row->mpi_s / row->time_s, a, b,
		 rl_known(row->flops) ? "no floating-point work of its own"
				      : "no flops counted");
	return d;
}

/* The imbalance across ranks of a region whose work is all MPI, added
 * to its diagnosis: the MPI wait time's max/mean, the rank that waited
 * longest and the one that arrived last (the least MPI time); else, when
 * the ranks' own (non-MPI) time is a tenth of their time or more, its
 * max/mean and the rank where it is longest. */
static int add_imbalance(const struct rl_report *r, struct rl_region_row *row,
			 const struct rl_rank_agg *g)
{
	char more[256], *d;
	size_t n;

	if (g->n_ranks < 2)
		return 0;
	if (rl_known(g->mpi_imbalance) && g->mpi_imbalance >= RL_MPI_WAITED)
		snprintf(more, sizeof more,
			 "; ranks waited: MPI time max/mean %.2f, rank %ld "
			 "waited longest, rank %ld least (it arrived last)",
			 g->mpi_imbalance, g->mpi_max_rank, g->mpi_min_rank);
	else if (rl_known(g->work_imbalance) &&
		 g->work_imbalance >= RL_MPI_WAITED &&
		 g->work_mean_s >= 0.1 * g->time_mean_s)
		snprintf(more, sizeof more,
			 "; ranks waited: its own (non-MPI) time max/mean "
			 "%.2f, longest on rank %ld",
			 g->work_imbalance, g->work_max_rank);
	else
		return 0;
	n = strlen(row->diagnosis) + strlen(more) + 1;
	if (!(d = malloc(n)))
		return RL_ENOMEM;
	snprintf(d, n, "%s%s", row->diagnosis, more);
	rl_report_text_drop(r, row->diagnosis);
	row->diagnosis = d;
	return 0;
}

int rl_report_mpi_advice(struct rl_report *r)
{
	int rc;

	if (!r->ranks)
		return 0;
	for (size_t i = 0; i < r->n_summed && i < r->ranks->n_aggs; i++) {
		struct rl_region_row buf, up;
		char *was;
		up = *rl_report_row(r, i, &buf);
		was = up.diagnosis;
		if (!rl_row_mpi_only(&up))
			continue;
		if ((rc = add_imbalance(r, &up, &r->ranks->aggs[i])))
			return rc;
		if (up.diagnosis != was &&
		    (rc = rl_report_row_set(r, i, &up)))
			return rc;
	}
	return 0;
}
