/*
 * The analysis: results of every process + machine model -> report rows.
 *
 * Summed rows (one per region name, first-seen order over processes sorted
 * by pid, threads, regions): calls and counters summed, time = the longest
 * thread, n_threads = threads that ran the region. A counter is known on a
 * summed row only when every contributing process provided it (a partial
 * sum would be an undercount). Per-thread rows follow, one per process,
 * thread and region. Everything derived from an unknown figure is NAN.
 * Placement under the roofs: analysis_roof.c; method lines:
 * analysis_method.c. How each figure is derived: README.md.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/name_index.h"
#include "analysis/report.h"
#include "analysis/report_pack.h"
#include "analysis/roof_choice.h"
#include "common/rl_error.h"

#define BIT(c) (UINT64_C(1) << (c))

/* A row's counter sums (824 bytes: only made when some process provides
 * counters; 10^5 time-only regions made 90 MB of them). */
struct acc_counts {
	double scaled[RL_COUNTER_COUNT];
	uint64_t enabled_ns[RL_COUNTER_COUNT], running_ns[RL_COUNTER_COUNT];
};

/* A row under construction. */
struct acc {
	const char *name;
	long pid;
	long proc;           /* index into the results' processes, -1 */
	uint64_t tid;
	unsigned n_threads;
	uint64_t calls, time_ns;
	uint64_t provided;   /* intersection over contributions */
	struct acc_counts *k; /* the counters' sums; NULL in a run where no
				 process provides a counter */
	double ef, eb;       /* declared sums over contributions that declared */
	uint64_t expect_calls;
	uint64_t depth;      /* deepest recursion over contributions */
	uint64_t mpi_ns;     /* longest time in MPI calls, where measured */
	int mpi_known;
	int used;
	int time_native;     /* every contribution's time is native */
	int uncounted;       /* some contribution was never counted (the
				counting run stopped before it ended) */
	int work_differs;    /* some contribution did other work in the
				counting run than in the timing run */
};

/* A thread's row before it is filled: one region record of one process,
 * by reference (an accumulator per thread row was 900 bytes each, 270 MB
 * at 10^5 regions x 2 threads); its accumulator is made when filled. */
struct per_ref {
	const struct rl_region_stats *s;
	const struct rl_process_results *proc;
	const char *name;
	uint64_t tid;
	uint64_t counted;    /* the counters measured in it */
	size_t sum_ix;       /* its summed row */
};

/* The per-thread rows grouped by summed row (stable): order[j] is the
 * index in per of the j-th per-thread row, and count[k] (n_sum entries,
 * caller-allocated) the number of summed row k's threads. Linear (a
 * counting sort). */
static size_t *group_threads(const struct per_ref *per, size_t n_per,
			     size_t *count, size_t n_sum)
{
	size_t *order = malloc((n_per ? n_per : 1) * sizeof *order);
	size_t *next = calloc(n_sum + 1, sizeof *next);

	if (!order || !next) {
		free(order);
		free(next);
		return NULL;
	}
	for (size_t j = 0; j < n_per; j++)
		count[per[j].sum_ix]++;
	for (size_t k = 0, at = 0; k < n_sum; k++) {
		next[k] = at;
		at += count[k];
	}
	for (size_t j = 0; j < n_per; j++)
		order[next[per[j].sum_ix]++] = j;
	free(next);
	return order;
}

static void acc_add(struct acc *a, const struct rl_region_stats *s,
		    uint64_t provided)
{
	a->provided = a->used ? a->provided & provided : provided;
	a->time_native = (a->used ? a->time_native : 1) && s->time_native;
	a->uncounted |= s->uncounted;
	a->work_differs |= s->work_differs;
	a->used = 1;
	/* a call of process scope counts every thread that ran while it
	 * was open: its record stands for them all, and the row is placed
	 * against the roofs for that many threads (report_scope.c says how
	 * many were busy) */
	a->n_threads += s->scope_calls && s->scope_threads > 1
				? s->scope_threads
				: 1;
	a->calls += s->calls;
	if (s->depth > a->depth)
		a->depth = s->depth;
	if (s->time_ns > a->time_ns)
		a->time_ns = s->time_ns;
	if (s->mpi_known) {
		a->mpi_known = 1;
		if (s->mpi_ns > a->mpi_ns)
			a->mpi_ns = s->mpi_ns;
	}
	for (int c = 0; c < RL_COUNTER_COUNT; c++) {
		if (!(provided & BIT(c)))
			continue;
		/* time passed but the counter never ran (the backend could
		 * not count in this thread, or it was never scheduled): its
		 * 0 is not a measurement */
		if (s->time_ns > 0 && s->counters[c].running_ns == 0)
			a->k->scaled[c] = NAN;
		a->k->scaled[c] += s->counters[c].scaled;
		a->k->enabled_ns[c] += s->counters[c].enabled_ns;
		a->k->running_ns[c] += s->counters[c].running_ns;
	}
	if (s->expect_calls > 0) {
		a->ef = isnan(a->ef) ? s->expected_flops
				     : a->ef + s->expected_flops;
		a->eb = isnan(a->eb) ? s->expected_bytes
				     : a->eb + s->expected_bytes;
		a->expect_calls += s->expect_calls;
	}
}

static double cval(const struct acc *a, int c)
{
	return (a->provided & BIT(c)) ? a->k->scaled[c] : NAN;
}

/* Sum of the provided counters in [first, last]; NAN when none provided. */
static double csum(const struct acc *a, int first, int last)
{
	double s = NAN;

	for (int c = first; c <= last; c++)
		if (a->provided & BIT(c))
			s = isnan(s) ? a->k->scaled[c] : s + a->k->scaled[c];
	return s;
}

static double both(const struct acc *a, int rd, int wr)
{
	return cval(a, rd) + cval(a, wr); /* NAN unless both known */
}

/* NAN also when the quotient overflows (huge sums over a tiny time): an
 * infinite rate is no figure. */
static double ratio(double num, double den)
{
	double q;

	if (isnan(num) || isnan(den) || den <= 0)
		return NAN;
	q = num / den;
	return isfinite(q) ? q : NAN;
}

static const char *precision_of(double f64, double f32)
{
	if (!isnan(f64) && !isnan(f32)) {
		double tot = f64 + f32;
		if (tot <= 0)
			return NULL;
		if (f64 >= 0.9 * tot)
			return "f64";
		if (f32 >= 0.9 * tot)
			return "f32";
		return "mixed";
	}
	if (!isnan(f64) && f64 > 0)
		return "f64";
	if (!isnan(f32) && f32 > 0)
		return "f32";
	return NULL;
}

/* The figures of a row from its sums: flops per precision and width,
 * bytes per level and their write fractions, intensities, rates. */
static void row_figures(struct rl_region_row *row, const struct acc *a,
			int declared)
{
	row->pid = a->pid;
	row->proc = a->proc;
	row->tid = a->tid;
	row->n_threads = a->n_threads;
	row->calls = a->calls;
	row->depth = a->depth;
	row->time_s = (double)a->time_ns / 1e9;
	row->time_native = a->time_native != 0;
	row->uncounted = a->uncounted;
	row->mpi_known = a->mpi_known != 0;
	row->mpi_s = (double)a->mpi_ns / 1e9;

	row->flops_f64 = csum(a, RL_C_FLOPS_F64_SCALAR, RL_C_FLOPS_F64_512);
	row->flops_f32 = csum(a, RL_C_FLOPS_F32_SCALAR, RL_C_FLOPS_F32_512);
	row->flops = csum(a, RL_C_FLOPS_F64_SCALAR, RL_C_FLOPS_F16);
	if (isnan(row->flops))
		row->flops = cval(a, RL_C_FLOPS_ANY);
	row->precision = precision_of(row->flops_f64, row->flops_f32);

	row->dram_read_bytes = cval(a, RL_C_DRAM_READ_BYTES);
	row->dram_write_bytes = cval(a, RL_C_DRAM_WRITE_BYTES);
	row->dram_bytes = row->dram_read_bytes + row->dram_write_bytes;
	if (isnan(row->dram_bytes))
		row->dram_bytes = cval(a, RL_C_DRAM_BYTES);
	for (int l = 0; l < RL_LEVELS - 1; l++) {
		row->level_read_bytes[l] = cval(a, RL_C_L1_READ_BYTES + 2 * l);
		row->level_write_bytes[l] =
			cval(a, RL_C_L1_WRITE_BYTES + 2 * l);
	}
	row->level_read_bytes[3] = row->dram_read_bytes;
	row->level_write_bytes[3] = row->dram_write_bytes;
	for (int l = 0; l < RL_LEVELS; l++)
		row->write_frac[l] = ratio(row->level_write_bytes[l],
					   row->level_read_bytes[l] +
						   row->level_write_bytes[l]);
	for (int w = 0; w < 4; w++) {
		double f64 = cval(a, RL_C_FLOPS_F64_SCALAR + w),
		       f32 = cval(a, RL_C_FLOPS_F32_SCALAR + w);
		/* a width is known when either precision's counter is */
		row->flops_width[w] = isnan(f64) ? f32
				      : isnan(f32) ? f64
						   : f64 + f32;
	}
	/* flops_fma is a part of the flops, never added to them */
	row->fma_share = ratio(cval(a, RL_C_FLOPS_FMA), row->flops);
	if (rl_known(row->fma_share) && row->fma_share > 1)
		row->fma_share = 1;
	row->level_bytes[0] = both(a, RL_C_L1_READ_BYTES, RL_C_L1_WRITE_BYTES);
	row->level_bytes[1] = both(a, RL_C_L2_READ_BYTES, RL_C_L2_WRITE_BYTES);
	row->level_bytes[2] = both(a, RL_C_L3_READ_BYTES, RL_C_L3_WRITE_BYTES);
	row->level_bytes[3] = row->dram_bytes;
	row->ai = ratio(row->flops, row->dram_bytes);
	for (int l = 0; l < RL_LEVELS; l++)
		row->level_ai[l] = ratio(row->flops, row->level_bytes[l]);

	row->flops_expected = declared ? a->ef : NAN;
	row->bytes_expected = declared ? a->eb : NAN;
	row->ai_expected = ratio(row->flops_expected, row->bytes_expected);
	row->work_differs = a->work_differs != 0;
}

/* The rates: the counts over the row's time (with --repeat, the runs'
 * median: rl_row_repeat), none where the two runs did different work. */
static void row_rates(struct rl_region_row *row)
{
	double t = row->time_s;

	row->gflops = ratio(row->flops, t) / 1e9;
	row->gbs = ratio(row->dram_bytes, t) / 1e9;
	row->gflops_expected = ratio(row->flops_expected, t) / 1e9;
	if (row->work_differs) /* counts and time of different work */
		row->gflops = row->gbs = row->gflops_expected = NAN;
}

/* How the counts were taken: the lowest multiplexing ratio, and whether
 * a flop or byte counter was system-wide, a proxy or simulated. */
static void row_scopes(struct rl_region_row *row, const struct acc *a,
		       const unsigned char scope[])
{
	row->scaled_ratio = NAN;
	for (int c = 0; c < RL_COUNTER_COUNT; c++) {
		double q;
		if (!(a->provided & BIT(c)) || a->k->enabled_ns[c] == 0)
			continue;
		q = (double)a->k->running_ns[c] / (double)a->k->enabled_ns[c];
		if (q > 1)
			q = 1;
		if (isnan(row->scaled_ratio) || q < row->scaled_ratio)
			row->scaled_ratio = q;
	}
	for (int c = 0; c < RL_COUNTER_COUNT; c++) {
		enum rl_counter_kind k = rl_counter_kind_of(c);
		if (!(a->provided & BIT(c)) ||
		    (k != RL_KIND_FLOPS && k != RL_KIND_BYTES))
			continue;
		row->has_system_wide |= scope[c] == RL_SCOPE_SYSTEM;
		row->has_proxy |= scope[c] == RL_SCOPE_PROXY;
		row->simulated |= scope[c] == RL_SCOPE_SIMULATED;
	}
}

/* The width of the code the row's ceiling is chosen for: the timed
 * build's ISA under --count-with (its FMA use unknown unless its code has
 * none at that width), else the widest width the counters saw. */
static void row_code_width(const struct rl_report *rep,
			   struct rl_region_row *row, const struct acc *a)
{
	if (rep->count_with && a->time_native) {
		row->timed_isa = rep->timed_isa;
		row->code_width = rl_isa_width(rep->timed_isa);
		row->fma_share = rep->timed_isa && rep->timed_no_fma ? 0 : NAN;
		return;
	}
	/* a width no counter covers is taken as unused when it is narrower
	 * than the widest counted one, or under the simulator (Valgrind
	 * runs no AVX-512); a wider uncounted one leaves the width unknown
	 * (the best peak) */
	unsigned w = rl_code_width(row->flops_width);
	for (int i = 3; w && i >= 0 && !row->simulated; i--)
		if (isnan(row->flops_width[i]) && (64u << i) > w)
			w = 0;
	row->code_width = w;
}

/* The row against its roofs and ceilings, the ceiling it sits near, and
 * the self-check. */
static int row_place(struct rl_report *rep, struct rl_region_row *row)
{
	row->bound = RL_BOUND_UNKNOWN;
	row->basis = RL_BASIS_NONE;
	row->roof_gflops = row->roof_pct = NAN;
	row->roof_gbs = row->ceiling_gflops = NAN;
	if (rl_row_mpi_only(row)) /* no roofline advice (analysis_mpi.c) */
		return 0;
	if (row->work_differs) /* no rate to place (results_native.c) */
		return 0;
	if (rl_report_place(rep, row))
		return RL_ENOMEM;
	if (rep->machine && row->bound != RL_BOUND_UNKNOWN) {
		const char *prec = row->precision &&
					   strcmp(row->precision, "f32") == 0
				   ? "f32" : "f64";
		row->named_ceiling = rl_near_ceiling(row, rep->machine, prec);
	}
	if (rl_self_check(rep, row, rep->run_start_s))
		return RL_ENOMEM;
	return 0;
}

/* A row from its accumulated figures; a summed row k (repeat not NULL)
 * with the times of rlprof run --repeat's other runs (report_repeat.c). */
static int fill_row(struct rl_report *rep, struct rl_region_row *row,
		    const struct acc *a, char *const method[],
		    const unsigned char scope[], struct rl_scratch *scratch,
		    const struct rl_repeat_runs *repeat, size_t k)
{
	int declared = a->expect_calls > 0;

	memset(row, 0, sizeof *row);
	if (!(row->region = strdup(a->name)))
		return RL_ENOMEM;
	{	/* figures only from the counters that may be believed */
		struct acc trusted = *a;
		trusted.provided &= ~rl_trust_row(
			row, a->provided, a->k ? a->k->enabled_ns : NULL,
			a->k ? a->k->running_ns : NULL, rep->selftest);
		row_figures(row, &trusted, declared);
	}
	rl_row_repeat(rep, repeat, k, row);
	row_rates(row);
	row_scopes(row, a, scope);
	row_code_width(rep, row, a);
	if (row_place(rep, row) ||
	    rl_row_method(rep, row, a->provided, a->uncounted, method, scope,
			  declared))
		return RL_ENOMEM;
	if ((row->diagnosis = rl_trust_diagnosis(row)))
		return 0; /* unplaced for withheld counts: that is why */
	if (!(row->diagnosis = rl_row_mpi_only(row)
				       ? rl_mpi_diagnosis(row)
				       : rl_diagnose_in(scratch, row,
							rep->machine)))
		return RL_ENOMEM;
	return 0;
}

static void acc_init(struct acc *a, const char *name)
{
	memset(a, 0, sizeof *a);
	a->ef = a->eb = NAN;
	a->name = name;
	a->proc = -1;
}

static int build_report(const struct rl_run_results *res,
			const struct rl_machine *machine, struct rl_report *out,
			const struct rl_repeat_runs *repeat, char *err,
			size_t errlen, uint32_t refuted,
			char names[][RL_PAIR_NAME_LEN])
{
	struct acc *sum = NULL;
	struct acc_counts *sums = NULL; /* sum[k].k, when counters exist */
	uint64_t any = 0;               /* counters some process provides */
	struct per_ref *per = NULL;
	struct rl_scratch scratch = {0}; /* the rows' diagnoses */
	size_t n_sum = 0, n_per = 0, n_all = 0;
	struct rl_name_index by_name = {0}; /* region name -> index in sum */
	size_t *order = NULL;               /* per-thread rows by summed row */
	size_t *count = NULL;               /* threads of each summed row */
	const char **sum_names = NULL;      /* packed: the summed rows' names */
	int rc = RL_ENOMEM;

	memset(out, 0, sizeof *out);
	out->version = RL_REPORT_VERSION;
	out->machine = out->model = machine;
	out->roof_check = res->roof_check;
	/* issue 38: the rows placed against the roofs paired with the
	 * timing runs, where samples were taken, and against the compute
	 * ceilings at the core's clock around them (roof_choice.c) */
	out->clock_scale = 1;
	if (machine && (res->roof_check.n_samples ||
			res->roof_check.before_ghz > 0 ||
			res->roof_check.after_ghz > 0)) {
		struct rl_machine *pm = malloc(sizeof *pm);
		if (!pm)
			goto out;
		out->n_pair = rl_roof_pair(machine, &res->roof_check, pm,
					   out->pair, RL_PAIR_MAX_FIGURES,
					   refuted);
		for (size_t i = 0; i < out->n_pair && i < 32; i++)
			if (out->pair[i].use == RL_PAIR_KEPT_REFUTED)
				snprintf(out->pair[i].refuted_by,
					 sizeof out->pair[i].refuted_by, "%s",
					 names[i]);
		out->clock_scale = rl_roof_clock(pm, &res->roof_check);
		if (out->n_pair || out->clock_scale > 1)
			out->machine = out->paired_machine = pm;
		else
			free(pm);
	}
	if (res->selftest) {
		if (!(out->selftest = malloc(sizeof *out->selftest)))
			goto out;
		*out->selftest = *res->selftest;
	}
	out->count_with = res->count_with != NULL;
	if (res->timed_isa && !(out->timed_isa = strdup(res->timed_isa)))
		goto out;
	out->timed_no_fma = res->timed_no_fma;
	if ((res->count_with &&
	     !(out->counted_build = strdup(res->count_with))) ||
	    (res->timed_isa_source &&
	     !(out->timed_isa_source = strdup(res->timed_isa_source))))
		goto out;
	for (size_t p = 0; p < res->n_procs; p++) {
		double s = (double)res->procs[p].start_ns / 1e9;
		if (s > 0 && (out->run_start_s == 0 || s < out->run_start_s))
			out->run_start_s = s;
		if (!out->mpi_calls)
			out->mpi_calls = res->procs[p].mpi_calls;
	}
	if (res->mpi && !out->mpi_calls)
		out->mpi_calls = RL_MPI_CALLS_UNWRAPPED;
	if (rl_report_header(res, out))
		goto out;
	/* every region record is a thread's row, and at most a summed row:
	 * room for all at once (what is never used is never touched) */
	for (size_t p = 0; p < res->n_procs; p++) {
		any |= res->procs[p].provided;
		for (size_t t = 0; t < res->procs[p].n_threads; t++) {
			size_t n = res->procs[p].threads[t].n_regions;
			n_all += n;
			/* at least that many names: their index made once */
			if (rl_name_index_reserve(&by_name, n))
				goto out;
		}
	}
	sum = malloc((n_all ? n_all : 1) * sizeof *sum);
	per = malloc((n_all ? n_all : 1) * sizeof *per);
	if (!sum || !per ||
	    (any && !(sums = calloc(n_all ? n_all : 1, sizeof *sums))))
		goto out;
	for (size_t p = 0; p < res->n_procs; p++) {
		const struct rl_process_results *pr = &res->procs[p];
		for (size_t t = 0; t < pr->n_threads; t++) {
			const struct rl_thread_results *th = &pr->threads[t];
			/* threads mostly enter their regions in the same
			 * order: the summed row after the last one found is
			 * tried first, by name, before the index (10^6
			 * random probes of it were more than linear) */
			size_t next = 0;
			for (size_t i = 0; i < th->n_regions; i++) {
				const struct rl_region_stats *s =
					&th->regions[i];
				struct per_ref *ref = &per[n_per++];
				const char *name = s->name ? s->name : "";
				/* a region the counting run never finished
				 * has no counts, nor has a record without
				 * counters in a process that has them (a
				 * hot loop with its time alone, make fuzz):
				 * a summed row with it has none either
				 * (never a partial sum) */
				uint64_t counted =
					s->uncounted || !s->counters
						? 0 : pr->provided;
				size_t k = next;
				int seen = next < n_sum &&
					   strcmp(sum[next].name, name) == 0;

				if (!seen &&
				    (seen = rl_name_index_add(&by_name, name,
							      n_sum, &k)) < 0)
					goto out;
				if (!seen) {
					acc_init(&sum[k = n_sum++], name);
					sum[k].k = sums ? &sums[k] : NULL;
				}
				acc_add(&sum[k], s, counted);
				*ref = (struct per_ref){s, pr, name, th->tid,
							counted, k};
				next = k + 1;
			}
		}
	}
	/* a large report's rows are packed (report_pack.c) */
	if (rl_row_pack_open(out, n_sum, n_per, res->n_loops > 0) ||
	    (!out->packed &&
	     !(out->rows = calloc(n_sum + n_per + 1, sizeof *out->rows))))
		goto out;
	count = calloc(n_sum + 1, sizeof *count);
	if (!count || rl_report_repeat_open(out, repeat, n_sum) ||
	    !(order = group_threads(per, n_per, count, n_sum)) ||
	    (out->packed &&
	     !(sum_names = malloc((n_sum + 1) * sizeof *sum_names))))
		goto out;
	for (size_t k = 0, at = n_sum; k < n_sum + n_per; k++) {
		const struct acc *a = k < n_sum ? &sum[k] : NULL;
		char *const *method = out->method;
		const unsigned char *scope = out->scope;
		struct acc one;
		struct acc_counts one_k;
		struct rl_region_row packed_row,
			*row = out->packed ? &packed_row : &out->rows[k];
		const char *region = NULL; /* its summed row's name */

		if (k == n_sum) { /* the summed rows are done: less at once */
			free(sum);
			free(sums);
			sum = NULL, sums = NULL;
		}
		if (k >= n_sum) { /* a thread's own process decides methods */
			const struct per_ref *ref = &per[order[k - n_sum]];
			acc_init(&one, ref->name);
			if (ref->counted) {
				memset(&one_k, 0, sizeof one_k);
				one.k = &one_k;
			}
			one.pid = ref->proc->pid;
			one.proc = (long)(ref->proc - res->procs);
			one.tid = ref->tid;
			acc_add(&one, ref->s, ref->counted);
			a = &one;
			method = ref->proc->method;
			scope = ref->proc->scope;
			if (out->packed)
				region = sum_names[ref->sum_ix];
		}
		rc = fill_row(out, row, a, method, scope, &scratch,
			      k < n_sum ? repeat : NULL, k);
		if (!out->packed)
			out->n_rows = k + 1; /* its strings freed by release */
		else if (rc)
			rl_row_strings_free(row);
		if (rc)
			goto out;
		if (k < n_sum) {
			row->thread_first = at;
			row->thread_count = count[k];
			at += count[k];
			out->n_checks += row->check != NULL;
			if (sum_names) /* kept as it is by the pack */
				sum_names[k] = row->region;
		}
		if (out->packed && (rc = rl_row_pack_add(out, row, region)))
			goto out;
	}
	out->n_summed = n_sum;
	free(sum); /* the scratch, before what comes next: less at once */
	free(sums);
	free(per);
	sum = NULL, sums = NULL, per = NULL;
	if (!(rc = rl_report_run_warnings(res, out)) &&
	    !(rc = rl_report_trust_warnings(out)) &&
	    !(rc = rl_report_group_warnings(out, &by_name)))
		rc = rl_report_ranks_build(res, out);
	if (!rc)
		rc = rl_report_mpi_advice(out);
	if (!rc)
		rc = rl_report_scope_build(res, out, &by_name);
	if (!rc)
		rc = rl_report_loops_build(res, out);
	if (!rc)
		rl_report_choose_chart(out);
out:
	rl_name_index_release(&by_name);
	free(order);
	free(count);
	free(sum_names);
	rl_scratch_close(&scratch);
	free(sum);
	free(sums);
	free(per);
	if (rc) {
		rl_report_release(out);
		return rl_fail(err, errlen, rc, "cannot build the report: %s",
			       rl_strerror(rc));
	}
	return 0;
}

int rl_report_build(const struct rl_run_results *res,
		    const struct rl_machine *machine, struct rl_report *out,
		    char *err, size_t errlen)
{
	return rl_report_build_runs(res, machine, NULL, out, err, errlen);
}

int rl_report_build_runs(const struct rl_run_results *res,
			 const struct rl_machine *machine,
			 const struct rl_repeat_runs *repeat,
			 struct rl_report *out, char *err, size_t errlen)
{
	char names[32][RL_PAIR_NAME_LEN];
	uint32_t refuted = 0, more;
	int rc;

	/* a lowered paired roof that a region beat is built again with the
	 * model's figure (roof_choice.c); each pass refutes one figure or
	 * more, so this ends */
	while (!(rc = build_report(res, machine, out, repeat, err, errlen,
				   refuted, names)) &&
	       (more = rl_pair_refuted(out, names))) {
		rl_report_release(out);
		refuted |= more;
	}
	return rc;
}

void rl_report_release(struct rl_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n_rows; i++) {
		free(r->rows[i].region);
		free(r->rows[i].method);
		free(r->rows[i].diagnosis);
		free(r->rows[i].check);
	}
	free(r->rows);
	rl_row_pack_free(r->packed);
	free(r->repeat_times);
	for (size_t i = 0; i < r->n_warnings; i++) {
		free(r->warnings[i].kind);
		free(r->warnings[i].region);
		free(r->warnings[i].message);
	}
	free(r->warnings);
	free(r->row_warnings);
	free(r->backend);
	free(r->backend_reason);
	free(r->backend_note);
	free(r->command);
	free(r->timed_isa);
	free(r->counted_build);
	free(r->timed_isa_source);
	free(r->selftest);
	for (int c = 0; c < RL_COUNTER_COUNT; c++)
		free(r->method[c]);
	for (size_t i = 0; i < r->n_strings; i++)
		free(r->strings[i]);
	free(r->strings);
	rl_report_ranks_free(r->ranks);
	rl_report_scope_free(r->process_scope);
	rl_loop_meta_release(r->loops, r->n_loops);
	free(r->loops_rule);
	free(r->paired_machine);
	memset(r, 0, sizeof *r);
}
