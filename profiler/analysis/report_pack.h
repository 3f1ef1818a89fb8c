/*
 * A large report's rows kept packed (issue 41, item 8): at 10^6 regions x
 * 2 threads the 2 x 10^6 per-thread rows of 744 bytes each were 1.5 GB,
 * their region, method and diagnosis strings 0.5 GB more, and the 10^6
 * summed rows 0.74 GB.
 *
 * Packed, a row is the 8-byte words in which it differs from the first
 * row of its kind (summed or per-thread) packed: a mask and those words,
 * 30-60 bytes where a row differs in its name, its time and its tid. Its
 * method, diagnosis and self-check strings are shared by every row with
 * the same text (one table of them, each text stored once); a summed
 * row's name is its own, a per-thread row's the name of its summed row.
 * rl_report_row() unpacks one into a caller's buffer, bit for bit the row
 * rl_report_build() filled: the renderers print the same bytes whether
 * packed or not.
 *
 * Only rl_report_build() packs, and only reports of rl_report_pack_from
 * per-thread rows or more and no rlprof run --loops rows (report_loops.c
 * changes its rows after they are built): rows[] is then NULL (n_rows 0),
 * and every row, summed (i < n_summed) or per-thread (thread_first and
 * thread_count keep their meaning), is read through rl_report_row() and
 * changed through rl_report_row_set(). Reports read back from report.json
 * (report_file.c) are never packed.
 */
#ifndef RL_REPORT_PACK_H
#define RL_REPORT_PACK_H

#include <stddef.h>

#include "analysis/report.h"

/* Per-thread rows from which rl_report_build() packs them (default 4096;
 * a test may set 0 to pack every report, or SIZE_MAX never to). */
extern size_t rl_report_pack_from;

/* How many rows a report has, summed and per-thread, packed or not. */
size_t rl_report_n_all(const struct rl_report *r);

/* Row i (0 .. rl_report_n_all(r) - 1): &r->rows[i] when it is there, else
 * the packed row unpacked into *buf (its strings belong to the report;
 * the row is good until the report is released). */
const struct rl_region_row *rl_report_row(const struct rl_report *r,
					  size_t i, struct rl_region_row *buf);
/* Row i becomes *row (read with rl_report_row and changed): kept as it is
 * when unpacked (copied into rows[i] unless it is that row), else packed
 * again. A string of *row other than row i's before (a new malloc'd
 * text) belongs to the report after; the one it replaced is the
 * caller's to drop with rl_report_text_drop. 0 or RL_ENOMEM (the new
 * strings freed, row i unchanged). */
int rl_report_row_set(struct rl_report *r, size_t i,
		      struct rl_region_row *row);
/* Frees a string a row of r held (method, diagnosis, check) once a
 * writer has replaced it: in a packed report the shared table keeps it
 * (other rows may hold it), else it is freed. */
void rl_report_text_drop(const struct rl_report *r, char *s);

/* Internal to the analysis (analysis.c). */
struct rl_row_pack;
/* A pack for a report of n_sum summed and n_per per-thread rows to come
 * (r->packed), or none when rl_report_build() should keep them as rows
 * (fewer than rl_report_pack_from per-thread rows, or --loops rows). 0
 * or RL_ENOMEM. */
int rl_row_pack_open(struct rl_report *r, size_t n_sum, size_t n_per,
		     int has_loops);
/* Appends a filled row to r's pack (the summed rows first, then the
 * per-thread rows), taking its strings (freed or kept): a summed row's
 * name (region NULL) as its own, a per-thread row's, when the same as
 * region, as that pointer (the name of its summed row, which lives as
 * long as the report). row is zeroed after. 0 or RL_ENOMEM (row's
 * strings freed). */
int rl_row_pack_add(struct rl_report *r, struct rl_region_row *row,
		    const char *region);
/* Frees what a filled row owns (its strings). */
void rl_row_strings_free(struct rl_region_row *row);
void rl_row_pack_free(struct rl_row_pack *p);

#endif
