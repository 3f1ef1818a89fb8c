/*
 * One CSV text cell, the one way report.csv and `rlprof diff -f csv` write
 * text that came from a program or a file (RFC 4180: a cell with a comma,
 * quote or line break is quoted, quotes doubled). A cell a spreadsheet
 * would read as a formula (beginning with =, +, -, @, tab or carriage
 * return: OWASP "CSV injection") gets a leading single quote; numbers
 * rlprof writes are never written through it.
 */
#ifndef RL_CSV_CELL_H
#define RL_CSV_CELL_H

#include <stdio.h>

/* s as one cell (nothing for NULL: an empty cell). */
void rl_csv_text(FILE *out, const char *s);

#endif
