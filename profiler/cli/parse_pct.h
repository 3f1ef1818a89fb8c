/* A percentage given on the command line (parse_pct.c). */
#ifndef RL_PARSE_PCT_H
#define RL_PARSE_PCT_H

/* s as a percentage >= 0 ("5", "2.5%"); -1 when it is not one. */
double rl_parse_pct(const char *s);

/* The same for option --NAME (e.g. "max-regression"): on failure says
 * so on stderr, with an example, and returns -1. */
double rl_parse_pct_option(const char *name, const char *s);

#endif
