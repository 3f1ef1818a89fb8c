/*
 * The PAPI backend, as a plugin (rlprof-papi.so, links -lpapi). Per thread
 * (PAPI_thread_init + one event set per thread): cycles, instructions and
 * reference cycles from presets; flops from the native events of the CPU's
 * table (counters/events/uarch.c: the same libpfm4 names PAPI's perf_event
 * component takes), weighted by lanes; when none of them adds, the
 * PAPI_FP_OPS preset as flops_any. DRAM bytes are not counted through PAPI
 * (its uncore component needs system-wide access: use -b perf).
 */
#include <papi.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "counters/backend.h"
#include "counters/events/events.h"
#include "counters/plugins/plugin.h"

#define MAX_EV 16

struct papi_thread {
	int eventset;
	int started;
	uint64_t t0_ns;
};

/* Chosen once in init(), identical in every thread. */
static struct {
	int n;
	char name[MAX_EV][96];
	int counter[MAX_EV];
	double weight[MAX_EV];
	char left_out[512]; /* events that did not fit */
} chosen;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static unsigned long thread_id(void)
{
	return (unsigned long)syscall(SYS_gettid);
}

static int lib_init(char *err, size_t len)
{
	int r;

	if (PAPI_is_initialized() != PAPI_NOT_INITED)
		return 0;
	r = PAPI_library_init(PAPI_VER_CURRENT);
	if (r != PAPI_VER_CURRENT) {
		snprintf(err, len, "PAPI does not initialise: %s",
			 r < 0 ? PAPI_strerror(r) : "version mismatch");
		return RL_ENOTSUP;
	}
	r = PAPI_thread_init(thread_id);
	if (r != PAPI_OK) {
		snprintf(err, len, "PAPI_thread_init fails: %s",
			 PAPI_strerror(r));
		return RL_ENOTSUP;
	}
	return 0;
}

/* Can one event set with this event start here? */
static int try_event(const char *name, char *err, size_t len)
{
	int es = PAPI_NULL, r;
	long long v;

	if ((r = PAPI_create_eventset(&es)) != PAPI_OK)
		goto fail;
	if ((r = PAPI_add_named_event(es, name)) != PAPI_OK)
		goto out;
	if ((r = PAPI_start(es)) == PAPI_OK)
		PAPI_stop(es, &v);
out:
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
fail:
	if (r != PAPI_OK)
		snprintf(err, len, "%s: %s", name, PAPI_strerror(r));
	return r == PAPI_OK ? 0 : -1;
}

/* Adds name to the trial event set if the whole set still starts; PAPI
 * does not multiplex here, so what does not fit is left out (and said). */
static void pick(int es, const char *name, int counter, double weight)
{
	long long v[MAX_EV];
	size_t used = strlen(chosen.left_out);

	if (chosen.n < MAX_EV && counter >= 0 &&
	    PAPI_add_named_event(es, name) == PAPI_OK) {
		if (PAPI_start(es) == PAPI_OK) {
			PAPI_stop(es, v);
			snprintf(chosen.name[chosen.n], 96, "%s", name);
			chosen.counter[chosen.n] = counter;
			chosen.weight[chosen.n++] = weight;
			return;
		}
		PAPI_remove_named_event(es, name);
	}
	if (used + 2 < sizeof chosen.left_out)
		snprintf(chosen.left_out + used, sizeof chosen.left_out - used,
			 "%s%s", used ? ", " : "", name);
}

/* The events every thread counts: the CPU's flops events first (natives,
 * weighted by lanes), PAPI_FP_OPS when none of them adds, then cycles,
 * instructions and reference cycles, as far as the counters go. */
static void choose(void)
{
	struct rl_cpu_id cpu;
	const struct rl_uarch *u = NULL;
	char err[200];
	int es = PAPI_NULL, flops = 0;

	chosen.n = 0;
	chosen.left_out[0] = '\0';
	if (PAPI_create_eventset(&es) != PAPI_OK)
		return;
	if (rl_cpu_id_read("/proc/cpuinfo", &cpu, err, sizeof err) == 0)
		u = rl_uarch_of(&cpu);
	for (size_t i = 0; u && i < u->n_flops; i++) {
		const struct rl_event_row *r = &u->flops[i];
		if (r->pfm)
			pick(es, r->pfm, rl_counter_from_name(r->counter),
			     r->weight);
	}
	for (int i = 0; i < chosen.n; i++)
		flops += rl_counter_kind_of(chosen.counter[i]) == RL_KIND_FLOPS;
	if (!flops)
		pick(es, "PAPI_FP_OPS", RL_C_FLOPS_ANY, 1);
	pick(es, "PAPI_TOT_CYC", RL_C_CYCLES, 1);
	pick(es, "PAPI_TOT_INS", RL_C_INSTRUCTIONS, 1);
	pick(es, "PAPI_REF_CYC", RL_C_REF_CYCLES, 1);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

static int papi_probe(char *why, size_t len)
{
	char err[300] = "";
	int n, cap = RL_CAP_NONE;

	if (lib_init(why, len) < 0)
		return RL_CAP_NONE;
	n = PAPI_num_cmp_hwctrs(0);
	if (n <= 0) {
		snprintf(why, len, "PAPI finds no hardware counters (%d "
				   "counters): PAPI counts through "
				   "perf_event, so what blocks perf (its line) "
				   "blocks PAPI",
			 n < 0 ? 0 : n);
		goto out;
	}
	if (try_event("PAPI_TOT_CYC", err, sizeof err) < 0 &&
	    try_event("PAPI_TOT_INS", err, sizeof err) < 0) {
		snprintf(why, len, "PAPI finds no hardware counters (it "
				   "lists %d, but %s): PAPI counts through "
				   "perf_event, so what blocks perf (its line) "
				   "blocks PAPI",
			 n, err);
		goto out;
	}
	choose();
	cap = RL_CAP_SOFTWARE;
	for (int i = 0; i < chosen.n; i++)
		if (rl_counter_kind_of(chosen.counter[i]) == RL_KIND_FLOPS)
			cap = RL_CAP_FLOPS;
	if (cap == RL_CAP_FLOPS)
		snprintf(why, len, "PAPI counts flops; DRAM bytes are not "
				   "counted through PAPI (use -b perf)");
	else
		snprintf(why, len, "PAPI counts cycles but no flops event "
				   "adds on this CPU");
out:
	PAPI_shutdown();
	return cap;
}

static int papi_init(const char *options, struct rl_backend_setup *setup,
		     char *err, size_t errlen)
{
	int r;

	(void)options;
	if ((r = lib_init(err, errlen)) < 0)
		return r;
	choose();
	if (chosen.n == 0)
		return rl_fail(err, errlen, RL_ENOCOUNTERS,
			       "PAPI cannot start any hardware event here");
	for (int i = 0; i < chosen.n; i++) {
		int c = chosen.counter[i];
		size_t used;
		if (c < 0)
			continue;
		used = strlen(setup->method[c]);
		if (!(setup->provided >> c & 1))
			snprintf(setup->method[c], RL_METHOD_MAX, "papi %s x%g",
				 chosen.name[i], chosen.weight[i]);
		else if (used + 4 < RL_METHOD_MAX)
			snprintf(setup->method[c] + used, RL_METHOD_MAX - used,
				 " + %s x%g", chosen.name[i], chosen.weight[i]);
		setup->provided |= 1ULL << c;
		setup->scope[c] = RL_SCOPE_THREAD;
	}
	snprintf(setup->note, sizeof setup->note,
		 "PAPI %d.%d.%d, one event set per thread, not multiplexed; "
		 "DRAM bytes not counted through PAPI%s%.300s",
		 PAPI_VERSION_MAJOR(PAPI_VERSION),
		 PAPI_VERSION_MINOR(PAPI_VERSION),
		 PAPI_VERSION_REVISION(PAPI_VERSION),
		 chosen.left_out[0] ? "; left out (no counter free or not "
				      "supported): "
				    : "",
		 chosen.left_out);
	return 0;
}

static int papi_thread_open(void *state, char *err, size_t errlen)
{
	struct papi_thread *t = state;
	int r;

	t->eventset = PAPI_NULL;
	if ((r = PAPI_register_thread()) != PAPI_OK ||
	    (r = PAPI_create_eventset(&t->eventset)) != PAPI_OK)
		return rl_fail(err, errlen, RL_ENOCOUNTERS,
			       "PAPI cannot make an event set: %s",
			       PAPI_strerror(r));
	for (int i = 0; i < chosen.n; i++)
		if ((r = PAPI_add_named_event(t->eventset, chosen.name[i])) !=
		    PAPI_OK)
			return rl_fail(err, errlen, RL_ENOCOUNTERS,
				       "PAPI cannot add '%s': %s",
				       chosen.name[i], PAPI_strerror(r));
	if ((r = PAPI_start(t->eventset)) != PAPI_OK)
		return rl_fail(err, errlen, RL_ENOCOUNTERS,
			       "PAPI_start fails: %s", PAPI_strerror(r));
	t->started = 1;
	t->t0_ns = now_ns();
	return 0;
}

static int papi_read(void *state, struct rl_counter_value *values)
{
	struct papi_thread *t = state;
	long long v[MAX_EV];
	uint64_t dt;
	int r;

	if (!t->started)
		return RL_EINVAL;
	if ((r = PAPI_read(t->eventset, v)) != PAPI_OK)
		return RL_EIO;
	dt = now_ns() - t->t0_ns;
	for (int i = 0; i < chosen.n; i++)
		if (chosen.counter[i] >= 0)
			values[chosen.counter[i]].value = 0;
	for (int i = 0; i < chosen.n; i++) {
		struct rl_counter_value *cv;
		if (chosen.counter[i] < 0)
			continue;
		cv = &values[chosen.counter[i]];
		cv->value += (uint64_t)((double)(v[i] < 0 ? 0 : v[i]) *
					chosen.weight[i]);
		/* PAPI does not multiplex here: counted all the time */
		cv->enabled_ns = cv->running_ns = dt;
	}
	return 0;
}

static void papi_thread_close(void *state)
{
	struct papi_thread *t = state;
	long long v[MAX_EV];

	if (t->started)
		PAPI_stop(t->eventset, v);
	if (t->eventset != PAPI_NULL) {
		PAPI_cleanup_eventset(t->eventset);
		PAPI_destroy_eventset(&t->eventset);
	}
	PAPI_unregister_thread();
	t->started = 0;
}

static void papi_fini(void) { PAPI_shutdown(); }

static const struct rl_backend papi_plugin = {
	.abi = RL_BACKEND_ABI,
	.name = "papi",
	.summary = "PAPI: presets and native events, per thread",
	.thread_state_size = sizeof(struct papi_thread),
	.probe = papi_probe,
	.init = papi_init,
	.thread_open = papi_thread_open,
	.read = papi_read,
	.thread_close = papi_thread_close,
	.fini = papi_fini,
};

const struct rl_backend *rl_plugin_backend(unsigned abi);
const struct rl_backend *rl_plugin_backend(unsigned abi)
{
	return abi == RL_BACKEND_ABI ? &papi_plugin : NULL;
}
