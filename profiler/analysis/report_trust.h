/*
 * Which counted figures a report may believe (analysis_trust.c): a counter
 * that counted less than RL_MIN_SHARE_PCT of a region's time (perf's
 * running/enabled: multiplexed) or that read outside tolerance in the
 * run's known-answer check (formats/selftest.h) is withheld: the figures
 * made from it are unknown (NAN), so the region is not placed on them,
 * and a warning says which counter, why, and by what share or factor.
 * Scaled figures above the threshold stay, marked with their share.
 */
#ifndef RL_REPORT_TRUST_H
#define RL_REPORT_TRUST_H

#include <stddef.h>
#include <stdint.h>

#include "formats/selftest.h"

#define RL_MIN_SHARE_PCT 50   /* below it a scaled figure is a guess */

struct rl_region_row;
struct rl_report;

/* Fills row->share_pct and share_known from the row's sums and returns the counters to
 * withhold (also in row->withheld): those below RL_MIN_SHARE_PCT and those
 * the check caught; all flops counters when one of them is (a total
 * without it would be an undercount). provided: the row's counters. */
uint64_t rl_trust_row(struct rl_region_row *row, uint64_t provided,
		      const uint64_t enabled_ns[], const uint64_t running_ns[],
		      const struct rl_selftest *st);

/* The warnings: one per counter the check caught ("DRAM bytes read 2.98x
 * the known answer: not used for placement"), one per summed row with a
 * counter withheld for its share. 0 or RL_ENOMEM. */
int rl_report_trust_warnings(struct rl_report *r);

/* One line of a row's marks for the CSV ("f64 256-bit flops counted 62%
 * of the time: scaled; DRAM bytes read 2.98x the known answer: not used
 * for placement"), "" when it has none. */
void rl_row_marks(const struct rl_report *r, const struct rl_region_row *row,
		  char *buf, size_t len);

/* The diagnosis of a row left unplaced because counts were withheld
 * (malloc'd), NULL when that is not why. */
char *rl_trust_diagnosis(const struct rl_region_row *row);

#endif
