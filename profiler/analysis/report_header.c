/*
 * The report's header and its warnings (rl_report_build, analysis.c): the
 * backends, command and counters' methods of the run; the warnings the
 * processes recorded, multiplexed counters, system-wide counts, the DRAM
 * triad and the core's clock read around the timing run
 * (results/roof_check.h); and each summed row's warnings grouped by its
 * region's name.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/report.h"
#include "analysis/report_pack.h"
#include "common/name_index.h"
#include "common/rl_error.h"

#define BIT(c) (UINT64_C(1) << (c))

static int add_warning(struct rl_report *r, const char *kind,
		       const char *region, uint64_t tid, const char *message)
{
	return rl_warning_append(&r->warnings, &r->n_warnings, kind, region,
				 tid, message);
}

static char *join_backends(const struct rl_run_results *res)
{
	size_t len = 1;
	char *s;

	for (size_t p = 0; p < res->n_procs; p++)
		len += (res->procs[p].backend ? strlen(res->procs[p].backend)
					      : 0) + 2;
	if (!(s = calloc(1, len)))
		return NULL;
	for (size_t p = 0; p < res->n_procs; p++) {
		const char *b = res->procs[p].backend ? res->procs[p].backend
						      : "";
		int dup = 0;
		for (size_t q = 0; q < p; q++)
			dup |= res->procs[q].backend &&
			       strcmp(res->procs[q].backend, b) == 0;
		if (dup)
			continue;
		if (*s)
			strcat(s, ", ");
		strcat(s, b);
	}
	return s;
}

/* A missing string reads as "": NULL here means out of memory. */
static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

int rl_report_header(const struct rl_run_results *res, struct rl_report *r)
{
	r->exit_status = res->exit_status;
	if (!(r->backend = join_backends(res)))
		return RL_ENOMEM;
	if ((res->backend_reason && !(r->backend_reason =
					      strdup(res->backend_reason))) ||
	    (res->command && !(r->command = strdup(res->command))))
		return RL_ENOMEM;
	if (res->n_procs &&
	    !(r->backend_note = dup_or_empty(res->procs[0].backend_note)))
		return RL_ENOMEM;
	for (size_t p = 0; p < res->n_procs; p++) {
		const struct rl_process_results *pr = &res->procs[p];
		for (int c = 0; c < RL_COUNTER_COUNT; c++) {
			if (!(pr->provided & BIT(c)) || (r->provided & BIT(c)))
				continue;
			r->provided |= BIT(c);
			r->scope[c] = pr->scope[c];
			if (!(r->method[c] = strdup(pr->method[c] ? pr->method[c]
								  : "")))
				return RL_ENOMEM;
		}
	}
	return 0;
}

/* The DRAM triad around the timing run against the roof placed against
 * (results/roof_check.h): stale when the machine moved more, busy when much
 * less. */
static int roof_check_warning(struct rl_report *r)
{
	const struct rl_roof_check *c = &r->roof_check;
	double hi = fmax(c->before_gbs, c->after_gbs), lo;
	char msg[512];

	if (!c->taken || !(c->roof_gbs > 0) || !r->machine)
		return 0;
	lo = c->before_gbs > 0 && c->after_gbs > 0
		     ? fmin(c->before_gbs, c->after_gbs) : hi;
	if (hi > RL_ROOF_CHECK_STALE * c->roof_gbs) {
		snprintf(msg, sizeof msg,
			 "the DRAM roof is stale: a DRAM triad on %u threads "
			 "around the timing run moved %.1f GB/s, %.0f%% above "
			 "the machine model's %.1f GB/s (probed %s): %s",
			 c->threads, hi, (hi / c->roof_gbs - 1) * 100,
			 c->roof_gbs, c->probed_at[0] ? c->probed_at : "?",
			 r->n_pair ? "the regions are placed against the DRAM "
				     "roofs paired with the timing runs (the "
				     "method line says which); 'rlprof probe "
				     "--force' on a quiet machine renews the "
				     "others"
				   : "regions may sit above their roof; run "
				     "'rlprof probe --force' on a quiet "
				     "machine, then 'rlprof report' on this "
				     "directory");
		return add_warning(r, "stale-roof", NULL, 0, msg);
	}
	if (lo < RL_ROOF_CHECK_BUSY * c->roof_gbs) {
		int lowered = 0;
		for (size_t i = 0; i < r->n_pair; i++)
			lowered |= r->pair[i].model > 0 &&
				   r->pair[i].use == RL_PAIR_LOWERED;
		snprintf(msg, sizeof msg,
			 "the machine was busy around the timing run: a DRAM "
			 "triad on %u threads moved %.1f GB/s, %.0f%% of the "
			 "machine model's roof (%.1f GB/s): times are longer "
			 "%s",
			 c->threads, lo, lo / c->roof_gbs * 100, c->roof_gbs,
			 lowered ? "than on a quiet machine, and the DRAM "
				   "roofs paired with the timing runs lower "
				   "with them"
				   : "and % of roof lower than on a quiet "
				     "machine");
		return add_warning(r, "busy", NULL, 0, msg);
	}
	return 0;
}

/* The core's clock around the timing run against the one the model's
 * compute ceilings were measured at (results/roof_check.h): above it,
 * compute-bound regions may sit above their ceiling; below it, they read
 * a lower share of it than the core gives at its probed clock. */
static int clock_check_warning(struct rl_report *r)
{
	const struct rl_roof_check *c = &r->roof_check;
	double hi = fmax(c->before_ghz, c->after_ghz), lo, at;
	char msg[512];

	/* against the model's own clock: the paired machine's is the clock
	 * read here where the ceilings were scaled to it (rl_roof_clock) */
	if (!(hi > 0) || !r->machine ||
	    !((at = (r->model ? r->model : r->machine)->clock_ghz) > 0))
		return 0;
	lo = c->before_ghz > 0 && c->after_ghz > 0
		     ? fmin(c->before_ghz, c->after_ghz) : hi;
	if (hi > (1 + RL_CLOCK_CHECK_MOVED) * at) {
		snprintf(msg, sizeof msg,
			 "the core's clock around the timing run read %.2f "
			 "GHz, %.0f%% above the %.2f GHz the machine model's "
			 "compute ceilings were measured at (probed %s; a "
			 "host's turbo or a frequency governor moves it): %s",
			 hi, (hi / at - 1) * 100, at,
			 *r->machine->probed_at ? r->machine->probed_at : "?",
			 r->clock_scale > 1
				 ? "the ceilings are scaled to it (the core "
				   "gave at least that); 'rlprof probe "
				   "--force' while the machine runs as it did "
				   "here measures them at it"
				 : "compute-bound regions may sit above their "
				   "ceiling; run 'rlprof probe --force' while "
				   "the machine runs as it did here, then "
				   "'rlprof report' on this directory");
		return add_warning(r, "clock-moved", NULL, 0, msg);
	}
	if (lo < (1 - RL_CLOCK_CHECK_MOVED) * at) {
		snprintf(msg, sizeof msg,
			 "the core's clock around the timing run read %.2f "
			 "GHz, %.0f%% below the %.2f GHz the machine model's "
			 "compute ceilings were measured at (probed %s): "
			 "compute-bound regions read a lower %% of their "
			 "ceiling than the core gives at its probed clock",
			 lo, (1 - lo / at) * 100, at,
			 *r->machine->probed_at ? r->machine->probed_at : "?");
		return add_warning(r, "clock-moved", NULL, 0, msg);
	}
	return 0;
}

int rl_report_run_warnings(const struct rl_run_results *res,
			   struct rl_report *r)
{
	char msg[512];
	int rc;

	for (size_t p = 0; p < res->n_procs; p++) {
		const struct rl_process_results *pr = &res->procs[p];
		int has_signal = 0;
		for (size_t i = 0; i < pr->n_warnings; i++) {
			const struct rl_warning *w = &pr->warnings[i];
			has_signal |= w->kind && strcmp(w->kind, "signal") == 0;
			if ((rc = add_warning(r, w->kind, w->region, w->tid,
					      w->message)))
				return rc;
		}
		if (!pr->complete && !has_signal) {
			snprintf(msg, sizeof msg,
				 "process %ld ('%s') stopped on signal %d: its "
				 "figures cover the run up to that point",
				 pr->pid, pr->program ? pr->program : "?",
				 pr->signal);
			if ((rc = add_warning(r, "signal", NULL, 0, msg)))
				return rc;
		}
	}
	for (size_t i = 0; i < r->n_summed; i++) {
		struct rl_region_row buf;
		const struct rl_region_row *row = rl_report_row(r, i, &buf);
		/* below RL_MIN_SHARE_PCT: withheld, not scaled (its own
		 * warning, analysis_trust.c) */
		if (!rl_known(row->scaled_ratio) || row->scaled_ratio >= 0.999 ||
		    row->scaled_ratio * 100 < RL_MIN_SHARE_PCT)
			continue;
		snprintf(msg, sizeof msg,
			 "counters were multiplexed in region '%s': figures are "
			 "scaled up from %.0f%% of the time; count fewer events "
			 "for exact figures",
			 row->region, row->scaled_ratio * 100);
		if ((rc = add_warning(r, "multiplexed", row->region, 0, msg)))
			return rc;
	}
	if (r->provided & (BIT(RL_C_DRAM_READ_BYTES) |
			   BIT(RL_C_DRAM_WRITE_BYTES) | BIT(RL_C_DRAM_BYTES))) {
		int sys = 0;
		for (int c = RL_C_DRAM_READ_BYTES; c <= RL_C_DRAM_BYTES; c++)
			sys |= (r->provided & BIT(c)) &&
			       r->scope[c] == RL_SCOPE_SYSTEM;
		if (sys && (rc = add_warning(r, "system-wide", NULL, 0,
					     "dram bytes are system-wide: they "
					     "include every process on the "
					     "socket")))
			return rc;
	}
	if ((rc = roof_check_warning(r)) || (rc = clock_check_warning(r)))
		return rc;
	for (int c = RL_C_FLOPS_F64_SCALAR; c <= RL_C_FLOPS_ANY; c++) {
		if ((r->provided & BIT(c)) && r->scope[c] == RL_SCOPE_SYSTEM)
			return add_warning(r, "system-wide", NULL, 0,
					   "flops are system-wide: they include "
					   "every process on the socket");
	}
	return 0;
}

/* Each summed row's warnings (by region name): their indices in
 * r->warnings grouped by row into r->row_warnings (warn_first and
 * warn_count of the rows that have some). */
int rl_report_group_warnings(struct rl_report *r,
			      const struct rl_name_index *by_name)
{
	size_t k, *next;
	struct rl_region_row buf, up;

	r->row_warnings = malloc((r->n_warnings ? r->n_warnings : 1) *
				 sizeof *r->row_warnings);
	next = calloc(r->n_summed + 1, sizeof *next);
	if (!r->row_warnings || !next) {
		free(next);
		return RL_ENOMEM;
	}
	for (size_t i = 0; i < r->n_warnings; i++)
		if (r->warnings[i].region &&
		    rl_name_index_get(by_name, r->warnings[i].region, &k))
			next[k]++;
	for (size_t i = 0, at = 0, n; i < r->n_summed; i++, at += n) {
		if (!(n = next[i]))
			continue;
		up = *rl_report_row(r, i, &buf);
		up.warn_first = next[i] = at;
		up.warn_count = n;
		if (rl_report_row_set(r, i, &up)) {
			free(next);
			return RL_ENOMEM;
		}
	}
	for (size_t i = 0; i < r->n_warnings; i++)
		if (r->warnings[i].region &&
		    rl_name_index_get(by_name, r->warnings[i].region, &k))
			r->row_warnings[next[k]++] = i;
	free(next);
	return 0;
}
