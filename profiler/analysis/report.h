/*
 * The analysis: results + machine model -> one row per region (summed over
 * threads and processes) and one per region and thread, with the roofline
 * arithmetic done once here. Renderers (render.h) only format these rows.
 *
 * A figure that was not measured is NAN (rl_known() is false): renderers
 * print it as empty (CSV), null (JSON) or "-" (table), never 0.
 *
 * Ownership: rl_report_build() allocates rows and strings inside the report;
 * rl_report_release() frees them. The report points into (does not copy)
 * the machine model, which must outlive it; it keeps nothing of the
 * results it was built from, which may be released once it is built.
 */
#ifndef RL_REPORT_H
#define RL_REPORT_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "machine/machine_file.h"
#include "results/roof_check.h"
#include "analysis/report_ranks.h"
#include "analysis/report_scope.h"
#include "results/run_results.h"
#include "analysis/report_trust.h"
#include "common/name_index.h"

/* 2: in "regions", a figure not measured (or that does not apply) is left
 * out instead of written null, a flag only when true; a thread's row has
 * no "region", and its "method" and "diagnosis" only where they differ from
 * its region's. Version 1 reports still read (report_file.c). */
#define RL_REPORT_VERSION 2

static inline bool rl_known(double x) { return !isnan(x); }

enum rl_bound {
	RL_BOUND_UNKNOWN = 0,
	RL_BOUND_MEMORY,   /* AI x BW < peak: left of the ridge */
	RL_BOUND_COMPUTE,  /* right of the ridge */
};

enum rl_basis {         /* what bound/roof_pct were computed from */
	RL_BASIS_NONE = 0,
	RL_BASIS_COUNTED,  /* counted flops and bytes */
	RL_BASIS_DECLARED, /* RL_REGION_EXPECT figures (no counts here) */
};

#define RL_LEVELS 4 /* L1, L2, L3, DRAM: index of per-level figures */

struct rl_region_row {
	char *region;
	uint64_t tid;          /* 0 on a summed row */
	long pid;              /* 0 on a summed row */
	long proc;             /* the process's index in the results: two
				  ranks' processes may share a pid (separate
				  nodes or pid namespaces); -1 summed row */
	unsigned n_threads;    /* threads that ran it (summed row) */
	uint64_t calls;
	double time_s;         /* summed row: the longest thread */
	double flops;          /* counted, all precisions */
	double flops_f32, flops_f64; /* NAN when no split (e.g. Zen 2-4) */
	double dram_read_bytes, dram_write_bytes; /* NAN unless split known */
	double dram_bytes;     /* read + write (or combined counter) */
	double level_bytes[RL_LEVELS]; /* bytes per boundary, sim mostly */
	double ai;             /* flops / dram_bytes */
	double level_ai[RL_LEVELS];
	double flops_expected, bytes_expected, ai_expected;
	double gflops, gbs;    /* counted / time */
	double gflops_expected;/* declared flops / measured time */
	const char *precision; /* "f64", "f32", "mixed", NULL unknown */
	enum rl_bound bound;
	enum rl_basis basis;
	const char *bound_roof;/* name of the binding roof, e.g. "DRAM" or
				  "avx512-fma f64" (points into the model) */
	double roof_gflops;    /* min(peak, AI x BW) */
	double roof_pct;       /* attained / roof_gflops x 100 */
	double scaled_ratio;   /* min running/enabled over counters; 1 = not
				  multiplexed, NAN unknown */
	char *method;          /* how each figure was obtained, one line */
	char *diagnosis;       /* one line, what the numbers mean */
	bool has_system_wide;  /* some figure counts the whole socket */
	bool has_proxy, simulated;
	bool time_native;      /* simulated counts, time from a native run
				  (rlprof run -b sim --sim-timing native) */
	bool uncounted;        /* calls and time from the native run, no
				  counts: the counting run stopped (signal)
				  before this region ended */
	/* appended: true placement (README "Mix roofs, ISA ceilings and the
	 * self-check") */
	double level_read_bytes[RL_LEVELS], level_write_bytes[RL_LEVELS];
	double write_frac[RL_LEVELS]; /* written / (read + written) bytes at
				  each level; NAN unknown */
	const char *roof_label;/* the roof the region was held against, with
				  its mix: "DRAM 37% write", "DRAM triad",
				  "avx2 f64" (interned; NULL unplaced) */
	double roof_gbs;       /* the bandwidth of that roof, NAN when the
				  compute ceiling binds */
	bool mix_clamped;      /* the binding level's mix lies outside the
				  probed points (nearest point used) */
	double flops_width[4]; /* flops per vector width: scalar, 128, 256,
				  512 bits (both precisions); NAN unknown */
	unsigned code_width;   /* the widest width the flops used (64..512),
				  0 unknown (see analysis_ceiling.c) */
	double fma_share;      /* flops_fma / flops; NAN not counted */
	const struct rl_compute_roof *ceiling_roof; /* held against */
	const char *ceiling;   /* its name with precision, "avx2 f64"; with
				  the FMA share when between its FMA and
				  no-FMA ceilings: "avx2 f64 40% FMA" */
	double ceiling_gflops; /* that ceiling (harmonic mix for a partial
				  FMA share) */
	const struct rl_compute_roof *fma_pair; /* the other ceiling of a
				  partial FMA share, else NULL */
	const struct rl_compute_roof *named_ceiling; /* the single-chain,
				  add-only or scalar ceiling the diagnosis
				  names (same width as the flops), or NULL */
	const struct rl_compute_roof *best_peak; /* machine's best of the
				  precision, for the ISA advice */
	char *check;           /* self-check finding (above the bound roof by
				  more than RL_CHECK_PCT - 100 %), or NULL */
	const char *timed_isa; /* --count-with: the ISA of the timed build,
				  whose ceiling applies (into the report);
				  NULL otherwise */
	const char *place_note; /* how the roofs and the ceiling were
				  chosen (interned), appended to method */
	const char *check_cause; /* "short-region", "cache-capacity",
				  "mix-outside-probe", "probe-load",
				  "unexplained"; NULL when no finding */
	/* summed row: its per-thread rows are rows[thread_first ..
	 * thread_first + thread_count), its warnings (by region name)
	 * warnings[row_warnings[warn_first .. warn_first + warn_count)];
	 * 0 on a per-thread row */
	size_t thread_first, thread_count;
	size_t warn_first, warn_count;
	uint64_t depth;        /* recursion: most calls open at once on one
				  thread (0: never entered while open); the
				  work counts once, in the outermost call */
	/* The roofs a placed row was held against are all of one thread
	 * count, chosen once here (rl_roof_threads): its bandwidth roofs,
	 * ceiling and best peak; renderers draw these and choose nothing.
	 * 0 when the row was not placed. roof_bw: the binding bandwidth
	 * roof (NULL when the ceiling binds). */
	unsigned roof_threads;
	const struct rl_bw_roof *roof_bw;
	/* no flops, bytes moved (copy, fill): roof_pct is the attained GB/s
	 * of the binding level over its bandwidth roof for the row's
	 * read/write mix (roof_gbs); roof_gflops stays unknown */
	bool data_movement;
	/* rlprof run --repeat N (report_repeat.c): the region's time in each
	 * of the N timing runs that ran it, as fastest, median and spread
	 * ((slowest - fastest) / fastest x 100); repeat_runs 0 without */
	unsigned repeat_runs;
	double time_min_s, time_median_s, time_spread_pct;
	/* each run's time in run order (the profiling run's first), NAN
	 * where a run did not time the region; repeat_n_times of them,
	 * pointing into the report's repeat_times (NULL without) */
	const double *repeat_times_s;
	unsigned repeat_n_times;
	/* time inside MPI calls made while the region was open (summed row:
	 * the longest thread's, like time_s), when mpi_known (a zeroed row
	 * has none: read it with rl_row_mpi_s) */
	bool mpi_known;
	double mpi_s;
	/* rlprof run --loops: the hot loop this row is (report_loops.c),
	 * NULL for a region; time_error_s its sampling error (one standard
	 * error), NAN when not sampled */
	const struct rl_loop_meta *loop;
	double time_error_s;
	/* the timing run and the counting run did different work in this
	 * region with the same calls (results_native.c): its rates are
	 * withheld (NAN), the method and diagnosis say why */
	bool work_differs;
	/* report_trust.h: the share of the row's time each counter was
	 * counting, in percent, where bit c of share_known is set (not for
	 * a counter not provided, nor a backend without times), and the
	 * counters whose figures were withheld (below RL_MIN_SHARE_PCT, or
	 * caught by the known-answer check) */
	unsigned char share_pct[RL_COUNTER_COUNT];
	uint64_t share_known, withheld;
	/* the floating-point chains found in the row's code (a loop's:
	 * report_loops.c); known false for a region: no chain is named */
	struct rl_chain_evidence chains;
};

/* A row's MPI time, NAN when not measured. */
static inline double rl_row_mpi_s(const struct rl_region_row *row)
{
	return row->mpi_known ? row->mpi_s : NAN;
}

/* The one thread count of the roofs a row of `threads` threads is held
 * against (analysis_threads.c): the count the model has a DRAM roof for
 * nearest to min(threads, cores), fewer on a tie (peaks when there is no
 * DRAM roof); 0 when the model has neither. Every roof and ceiling of the
 * row is then taken at exactly that count: a level without a roof there
 * is not used, never borrowed from another count. */
unsigned rl_roof_threads(const struct rl_machine *m, unsigned threads);

/* Chooses r->chart from r's summed rows and machine (roof_choice.c);
 * rl_report_build calls it, and so must whoever changes the rows of a
 * report after that and then renders its chart. */
void rl_report_choose_chart(struct rl_report *r);

/* The intensity of a row's counted point on the chart (roof_choice.c),
 * at the level of the roof the table holds the row against, so that the
 * point sits at its % of that roof: a row bound by a bandwidth roof at
 * that level's intensity (a loop in cache that moved no DRAM bytes is
 * drawn at its L1, L2 or L3 intensity, as the table places it); a row
 * bound by its ceiling, or not placed, at its DRAM intensity, else at
 * that of the outermost level its bytes crossed. *level gets the index
 * of that level (0 L1 .. RL_LEVELS - 1 DRAM), -1 with NAN when the row
 * has no counted point. */
double rl_chart_point_ai(const struct rl_region_row *row, int *level);
/* "L1", "L2", "L3" or "DRAM": the name of a level index. */
const char *rl_chart_level_name(int level);
/* Whether a row has a counted point / a declared point on the chart's
 * log axes (positive, finite intensity and rate). */
int rl_chart_has_counted(const struct rl_region_row *row);
int rl_chart_has_declared(const struct rl_region_row *row);
/* Why a row has no point on the chart (neither counted nor declared),
 * in a word or two for the legend ("no flops", "no rate", "no bytes"),
 * and, into *why when not NULL, in a sentence; NULL when it has one. */
const char *rl_chart_no_point(const struct rl_region_row *row,
			      const char **why);

/* rlprof run --repeat N (report_repeat.c): the times of the timing runs
 * besides the profiling run, DIR/repeat/K/raw (K = 2..), per region name
 * (each run reduced to summed rows as a report is: the longest thread's
 * time), read before the report is built (rl_report_build_runs). A run
 * that cannot be read is left out. Then each summed row gets
 * repeat_runs, time_min_s, time_median_s, time_spread_pct and its runs'
 * times, and its time is the runs' median: its rates, its place under
 * the roofs, its self-check and its diagnosis are those of the median,
 * the figure the table prints with its interval around it. */
struct rl_repeat_runs {
	size_t n_runs;       /* timing runs read (0: none) */
	size_t n_regions, cap;
	char **names;        /* owned, n_regions */
	struct rl_name_index ix; /* name -> index into names */
	double *times;       /* [region * n_runs + run], NAN not timed */
};
/* 0 (nothing read when there are no runs) or RL_ENOMEM. */
int rl_repeat_runs_read(struct rl_repeat_runs *rr, const char *out_dir);
void rl_repeat_runs_release(struct rl_repeat_runs *rr);
/* The build's part (analysis.c): room for the runs' times of n_summed
 * rows (0 or RL_ENOMEM), then each summed row k's figures over them. */
int rl_report_repeat_open(struct rl_report *rep,
			  const struct rl_repeat_runs *rr, size_t n_summed);
void rl_row_repeat(const struct rl_report *rep,
		   const struct rl_repeat_runs *rr, size_t k,
		   struct rl_region_row *row);

/* A timed figure's spread over the runs of rlprof run --repeat
 * (row_interval.c): the median and a distribution-free 90% confidence
 * interval of the median from the runs' order statistics (the k-th
 * fastest and slowest, k from the binomial distribution: with 5 runs the
 * fastest and slowest, with 10 the second of each), or, with fewer than
 * 5 runs, where no such interval exists, their range (fastest to
 * slowest). GFLOP/s, GB/s and % of roof are the row's counts over each
 * time, so their bounds are those of the time, reversed. */
enum rl_interval_kind {
	RL_INTERVAL_NONE = 0, /* one run: no interval */
	RL_INTERVAL_MEDIAN90, /* median, 90% interval of the median */
	RL_INTERVAL_RANGE,    /* median, fastest to slowest (2-4 runs) */
};
struct rl_figure_interval {
	double median, lo, hi; /* NAN when the figure is unknown */
};
struct rl_row_interval {
	enum rl_interval_kind kind;
	unsigned runs;
	struct rl_figure_interval time_s, gflops, gbs, roof_pct;
};
/* The row's interval from its repeat_times_s (kind NONE without). */
void rl_row_interval(const struct rl_region_row *row,
		     struct rl_row_interval *out);
/* "median90" or "range" (NULL for none), as JSON and CSV write it. */
const char *rl_interval_kind_word(enum rl_interval_kind k);

/* The roofs paired with the timing runs (issue 38, results/roof_check.h):
 * per operation and thread count, the best of the samples taken around
 * the timing runs (a roof is an upper bound), their lowest, and the
 * model's figure for the same operation. */
/* What a figure did to the model's roof (rl_roof_pair): a paired figure
 * at or above the model's replaces it (the machine gives at least that
 * now); one below it lowers the roof only on enough agreeing samples,
 * and never where a region of the same run beat it. */
#define RL_PAIR_NAME_LEN 64
enum rl_pair_use {
	RL_PAIR_RAISED,       /* the best sample, at or above the model's */
	RL_PAIR_LOWERED,      /* below the model's, on enough agreeing samples */
	RL_PAIR_KEPT_FEW,     /* below it on too few samples: the model's kept */
	RL_PAIR_KEPT_SPREAD,  /* below it on samples that disagree: kept */
	RL_PAIR_KEPT_REFUTED, /* lowered, but a region of the run beat it */
	RL_PAIR_KEPT_CLOSE,   /* below it by less than RL_PAIR_AGREE: kept */
};
struct rl_pair_figure {
	enum rl_pair_op op;
	unsigned threads;
	unsigned n;          /* samples */
	double best, lo;     /* GB/s, 24 B/element */
	double model;        /* the model's (stream_gbs, read_gbs), 0 none */
	enum rl_pair_use use; /* meaningful where model > 0 */
	char refuted_by[RL_PAIR_NAME_LEN]; /* RL_PAIR_KEPT_REFUTED: the region
					      that beat it */
};
#define RL_PAIR_MAX_FIGURES 16

#define RL_CHECK_PCT 105.0 /* a region above this % of its roof: finding */

/* The roofs the chart draws for a report (rl_report_choose_chart, in
 * roof_choice.c): T, the roof thread count most placed rows were held
 * against (fewer on a tie), and only roofs measured with exactly T; per
 * precision shown, its best peak and, under it, the ceilings of the
 * precision most regions use; every ceiling a row is held against or its
 * diagnosis names. Renderers draw these and choose nothing. */
#define RL_CHART_MAX_FLAT 16
struct rl_chart_roofs {
	bool chosen;                     /* rl_report_choose_chart ran */
	unsigned threads;                /* T */
	int show_f64, show_f32;          /* precisions drawn */
	int precision_assumed;           /* some row's precision unknown */
	const struct rl_bw_roof *slope[RL_LEVELS]; /* DRAM first */
	size_t n_slope;
	struct {
		const struct rl_compute_roof *roof;
		int is_peak;             /* the peak of its precision */
	} flat[RL_CHART_MAX_FLAT];       /* peaks first */
	size_t n_flat;
};

struct rl_report {
	int version;
	const struct rl_machine *machine; /* NULL: no model, no bounds */
	char *backend;          /* which backend ran */
	char *backend_reason;   /* why (auto) */
	char *backend_note;
	char *command;
	int exit_status;
	struct rl_region_row *rows; /* summed rows first, in first-seen order,
				       then per-thread rows grouped by summed
				       row (see thread_first); NULL when
				       packed (read every row with
				       rl_report_row, report_pack.h) */
	size_t n_rows, n_summed;
	struct rl_warning *warnings; /* copies, owned */
	size_t n_warnings;
	size_t *row_warnings;   /* indices into warnings, grouped by summed
				   row (see warn_first); owned */
	uint64_t provided;      /* union over processes */
	char *method[RL_COUNTER_COUNT];
	unsigned char scope[RL_COUNTER_COUNT];
	char **strings;         /* owned names rows' bound_roof may point to
				   (e.g. "avx512-fma f64"), freed by release */
	size_t n_strings;	/* appended */
	double run_start_s;     /* when the earliest process began, seconds
				   since the epoch; 0 unknown (self-check) */
	size_t n_checks;        /* summed rows with a self-check finding */
	bool count_with;        /* rlprof run --count-with: the counts come
				   from another build than the timed one */
	char *timed_isa;        /* that timed build's ISA ("avx2"), NULL
				   unknown; owned */
	bool timed_no_fma;      /* its code has no FMA at its widest width
				   (read by rlprof run): the no-FMA ceiling */
	char *counted_build;    /* --count-with: the counted build's path,
				   NULL when not said; owned */
	char *timed_isa_source; /* where timed_isa came from, or why it is
				   unknown (run.json); NULL when not said;
				   owned */
	struct rl_report_ranks *ranks; /* MPI ranks (report_ranks.h), NULL
					  when the run had none */
	struct rl_chart_roofs chart; /* what the chart draws (set by
					rl_report_build) */
	struct rl_report_scope *process_scope; /* per summed row
					  (report_scope.h) */
	struct {               /* rl_report_place's last roofs looked up:
				  rows of one precision and thread count
				  share them (a search per row was a tenth of
				  the report at 10^5 regions) */
		char prec[4];
		unsigned threads;
		const struct rl_compute_roof *peak;
		const struct rl_bw_roof *dram;
	} place_memo;
	struct rl_roof_check roof_check; /* the DRAM triad around the timing
					    run (run.json), zero when none */
	/* issue 38: the roofs paired with the timing runs (roof_choice.h):
	 * machine is then paired_machine, the model's own kept in model */
	struct rl_pair_figure pair[RL_PAIR_MAX_FIGURES];
	size_t n_pair;
	struct rl_machine *paired_machine; /* owned, NULL none */
	double clock_scale;     /* the compute ceilings scaled to the core's
				   clock around the timing run by this
				   factor (rl_roof_clock); 1 not scaled */
	const struct rl_machine *model;    /* the model as given */
	int mpi_calls;          /* enum rl_mpi_calls of the processes (the
				   first that says), RL_MPI_CALLS_UNWRAPPED
				   for ranks without the PMPI wrapper */
	struct rl_loop_meta *loops; /* rlprof run --loops: the hot loops'
				       rows (report_loops.c), owned */
	size_t n_loops;
	char *loops_rule;       /* which loops are rows, NULL none */
	struct rl_loop_time loops_time; /* where the sampled time went */
	struct rl_selftest *selftest; /* the run's known-answer check
					 (run.json), NULL when none; owned */
	double *repeat_times;   /* rlprof run --repeat: the rows' run times
				   (repeat_times_s), owned */
	struct rl_row_pack *packed; /* a large report's rows, summed and
					  per-thread, packed
					  (report_pack.h: read them with
					  rl_report_row), NULL when they
					  are rows[] */
};

/* MPI calls (analysis_mpi.c). A region whose work is all MPI: its MPI
 * time is RL_MPI_ONLY_SHARE of its time or more and it counted no flops;
 * it gets no roofline placement, its MPI time as diagnosis and, across
 * ranks, the imbalance when max/mean is RL_MPI_WAITED or more. */
#define RL_MPI_ONLY_SHARE 0.5
#define RL_MPI_CALLS_UNWRAPPED 3 /* beside enum rl_mpi_calls: an MPI run
				    whose ranks had no wrapper */
#define RL_MPI_WAITED 1.1
bool rl_row_mpi_only(const struct rl_region_row *row);
/* The method line's part on MPI calls, NULL when not measured. */
const char *rl_mpi_method(int mpi_calls, uint64_t provided);
char *rl_mpi_diagnosis(const struct rl_region_row *row); /* malloc'd */
/* After the ranks: the imbalance into the MPI-only rows' diagnoses. */
int rl_report_mpi_advice(struct rl_report *r);

/* rlprof run --loops (report_loops.c): the rows of res's hot loops
 * marked (row->loop), their time's sampling error and method; a row of
 * fewer than RL_LOOP_MIN_SAMPLES samples gets no % of roof, and its
 * diagnosis says why. 0 or RL_ENOMEM. */
/* Where the sampled time went, for the table, the HTML and the CSV:
 * "of 1234 samples (1.23 s of CPU time, every thread): 5.0% (61.7 ms) in
 * the program's code outside its loops, 30.1% (371 ms) in other code
 * (shared libraries, the loader)"; "" when not sampled. */
void rl_report_loops_time_text(const struct rl_loop_time *t, char *buf,
			       size_t len);
int rl_report_loops_build(const struct rl_run_results *res,
			  struct rl_report *rep);

int rl_report_build(const struct rl_run_results *res,
		    const struct rl_machine *machine, struct rl_report *out,
		    char *err, size_t errlen);
/* The same with rlprof run --repeat's other timing runs (NULL: none). */
int rl_report_build_runs(const struct rl_run_results *res,
			 const struct rl_machine *machine,
			 const struct rl_repeat_runs *repeat,
			 struct rl_report *out, char *err, size_t errlen);
void rl_report_release(struct rl_report *r);

/* rlprof run --count-with, in one line for a report's header: the counted
 * build and the timed build's ceiling, with where its ISA came from
 * ("--count-with: counted build ./app-portable; the timed build's
 * ceiling: avx512, from ..."); "" when the run was not one. Not
 * escaped. */
#define RL_COUNT_WITH_TEXT_MAX 16384 /* room for two paths and the text */
void rl_report_count_with_text(char *buf, size_t len,
			       const struct rl_report *r);

/* One line saying what a row's numbers mean (diagnosis.c), following the
 * seeds; malloc'd, never NULL. */
char *rl_diagnose(const struct rl_region_row *row,
		  const struct rl_machine *machine);
/* The same through a stream kept open across rows, as rl_report_build()
 * does for each row (a stream per row was a sixth of a report of 10^5
 * regions); NULL when out of memory. A zeroed struct rl_scratch is ready;
 * rl_scratch_close() frees it. */
struct rl_scratch {
	FILE *f;
	char *text;
	size_t len;
};
char *rl_diagnose_in(struct rl_scratch *s, const struct rl_region_row *row,
		     const struct rl_machine *machine);
void rl_scratch_close(struct rl_scratch *s);

/* Roofline arithmetic, pure. */
double rl_attainable_gflops(double peak_gflops, double bw_gbs, double ai);
enum rl_bound rl_bound_of(double peak_gflops, double bw_gbs, double ai);

#endif
