/* A percentage given on the command line (parse_pct.c). */
#ifndef RL_PARSE_PCT_H
#define RL_PARSE_PCT_H

/* s as a percentage >= 0 ("5", "2.5%"); -1 when it is not one. */
double rl_parse_pct(const char *s);

#endif
