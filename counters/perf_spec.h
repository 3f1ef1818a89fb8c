/*
 * Encoded perf events handed from the rlprof command to the runtime.
 *
 * The command resolves event names to perf_event_attr encodings (libpfm4,
 * the kernel's sysfs PMU descriptions, a small cited raw table) and passes
 * them in the environment variable RLPROF_PERF_EVENTS, so the runtime that
 * runs inside the user's program needs no event library at all.
 *
 * Text format, one event per ';'-separated item, fields ','-separated:
 *   c=<counter json name>   which rl_counter the event adds to
 *   t=<perf type>           perf_event_attr.type (decimal)
 *   cfg=<hex> cfg1=<hex> cfg2=<hex>   config, config1, config2
 *   w=<double>              weight: lanes x ops for flops, 64 for CAS x 64 B
 *   cpu=<n>                 system-wide (uncore) event on cpu n; absent or
 *                           -1 for a per-thread event
 *   g=<n>                   group number (events of a group are read
 *                           together; group leader is its first event)
 *   name=<text>             the event's name for the report (no ',' ';')
 * Example:
 *   c=flops_f64_256,t=4,cfg=0x10c7,w=4,g=0,name=FP_ARITH_INST_RETIRED.256B_PACKED_DOUBLE
 * Several events may add to one counter (iMC channels, weights per width).
 */
#ifndef RL_PERF_SPEC_H
#define RL_PERF_SPEC_H

#include <stddef.h>
#include <stdint.h>

#define RL_PERF_EVENTS_MAX 64
#define RL_PERF_ENV "RLPROF_PERF_EVENTS"

struct rl_perf_event_spec {
	int counter;       /* enum rl_counter */
	uint32_t type;
	uint64_t config, config1, config2;
	double weight;     /* multiplies the raw count */
	int cpu;           /* -1: per thread; >= 0: system-wide on that cpu */
	int group;
	char name[96];
};

/* Parse text into specs[0..*n). Returns 0 or RL_EFORMAT with the offending
 * item quoted in err. */
int rl_perf_spec_parse(const char *text, struct rl_perf_event_spec *specs,
		       size_t max, size_t *n, char *err, size_t errlen);
/* The command's event resolution (counters/events/, linked into rlprof
 * with -lpfm): the events rlprof counts on this machine for these backend
 * options, as rl_perf_events_resolve() of counters/events/events.h. It
 * installs itself when it is linked in (a constructor in
 * counters/events/resolve.c); in a profiled program, whose librlprof needs
 * no event library, there is none and rl_perf_resolver() is NULL. */
typedef int rl_perf_resolve_fn(const char *options,
			       struct rl_perf_event_spec *specs, size_t max,
			       size_t *n, char *note, size_t notelen);
void rl_perf_set_resolver(rl_perf_resolve_fn *fn);
rl_perf_resolve_fn *rl_perf_resolver(void);

/* Format specs into buf (NUL-terminated). RL_ELIMIT when it does not fit. */
int rl_perf_spec_format(const struct rl_perf_event_spec *specs, size_t n,
			char *buf, size_t buflen);

#endif
