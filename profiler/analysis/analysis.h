/*
 * Internal to the analysis (analysis.c, analysis_roof.c,
 * analysis_method.c); the public interface is report.h.
 */
#ifndef RL_ANALYSIS_H
#define RL_ANALYSIS_H

#include <stdint.h>

#include "analysis/report.h"

/* Sets bound, basis, bound_roof, roof_gflops and roof_pct of a row whose
 * measured and declared figures are filled (nothing when rep->machine is
 * NULL). Returns 0 or RL_ENOMEM. */
int rl_report_place(struct rl_report *rep, struct rl_region_row *row);

/* The report's header and run-wide warnings (report_header.c), each 0 or
 * RL_ENOMEM: the backends, command and counters' methods of res into r;
 * res's warnings, multiplexed counters, system-wide counts and the checks
 * of the DRAM roof and the core's clock around the timing run, appended
 * to r's warnings (after the rows are filled); each summed row's warnings
 * (by_name: region name -> summed row) into r->row_warnings. */
struct rl_run_results;
struct rl_name_index;
int rl_report_header(const struct rl_run_results *res, struct rl_report *r);
int rl_report_run_warnings(const struct rl_run_results *res,
			   struct rl_report *r);
int rl_report_group_warnings(struct rl_report *r,
			     const struct rl_name_index *by_name);


/* Mix roofs (analysis_mix.c). */
struct rl_mix {
	double w;       /* the mix asked for, NAN unknown */
	double gbs;     /* the bandwidth for it ("moved" convention) */
	int clamped;    /* outside the probed points: the nearest one */
	int triad_only; /* the model has only the triad point */
};
#define RL_MIX_POINTS 5 /* read, triad, update, fill, nt fill */
int rl_mix_points(const struct rl_bw_roof *b, double w[RL_MIX_POINTS],
		  double gbs[RL_MIX_POINTS]);
void rl_mix_roof(const struct rl_bw_roof *b, double w, struct rl_mix *out);
void rl_mix_label(char *buf, size_t len, const char *level,
		  const struct rl_mix *mix);

/* ISA ceilings (analysis_ceiling.c). */
struct rl_ceiling {
	const struct rl_compute_roof *roof; /* NULL: none in the model */
	const struct rl_compute_roof *pair; /* no-FMA roof of a partial
					       FMA share, else NULL */
	double share;   /* that share, NAN otherwise */
	double gflops;  /* the ceiling (harmonic for a partial share) */
	const char *note; /* how it was chosen, for the method line */
};
unsigned rl_roof_width(const struct rl_compute_roof *c);
int rl_roof_fma(const struct rl_compute_roof *c);
unsigned rl_code_width(const double flops_width[4]);
/* The vector width of an ISA name of --timed-isa ("scalar" 64, "sse2" and
 * "sse" 128, "avx2" 256, "avx512" 512); 0 for NULL or unknown. */
unsigned rl_isa_width(const char *isa);
void rl_pick_ceiling(const struct rl_machine *m, const char *prec,
		     unsigned threads, unsigned width, double fma_share,
		     const struct rl_compute_roof *best_peak,
		     struct rl_ceiling *out);
void rl_ceiling_label(char *buf, size_t len, const struct rl_ceiling *c);
const struct rl_compute_roof *rl_near_ceiling(const struct rl_region_row *row,
					      const struct rl_machine *m,
					      const char *prec);

/* The self-check (analysis_check.c): sets row->check and check_cause
 * when the row is above its bound roof by more than RL_CHECK_PCT.
 * run_start_s: when the run began (seconds since the epoch), 0 unknown.
 * Returns 0 or RL_ENOMEM. */
int rl_self_check(const struct rl_report *rep, struct rl_region_row *row,
		  double run_start_s);

/* One line saying where a row's figures come from; malloc'd, NULL when out
 * of memory. declared: the row has RL_REGION_EXPECT figures. */
char *rl_method_line(uint64_t provided, char *const method[],
		     const unsigned char scope[], int declared);

/* row->method: the method line of a filled and placed row (provided: the
 * counters summed into it; uncounted: the counting run stopped before a
 * contribution ended), then recursion, the placement's note, MPI calls,
 * withheld rates and native timing under the simulator. 0 or
 * RL_ENOMEM. */
int rl_row_method(const struct rl_report *rep, struct rl_region_row *row,
		  uint64_t provided, int uncounted, char *const method[],
		  const unsigned char scope[], int declared);

#endif
