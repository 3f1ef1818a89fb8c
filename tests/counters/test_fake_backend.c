/* A fault-injecting fake backend drives the report: proxy, system-wide,
 * multiplexed (scaled) and missing figures, and backend errors, must come
 * out of rl_report_build() as such and never as invented numbers. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "counters/backend.h"
#include "analysis/report.h"

#define BIT(c) (UINT64_C(1) << (c))

/* What the fake counts, chosen per test. */
static struct {
	uint64_t provided;
	unsigned char scope[RL_COUNTER_COUNT];
	uint64_t per_call[RL_COUNTER_COUNT]; /* counted per begin/end pair */
	double running_frac;                 /* running / enabled */
	int fail_init, fail_open;
} fake;

struct fake_thread {
	uint64_t reads;
};

static int fake_init(const char *options, struct rl_backend_setup *setup,
		     char *err, size_t errlen)
{
	(void)options;
	if (fake.fail_init)
		return rl_fail(err, errlen, RL_ENOCOUNTERS,
			       "fake: no hardware counters");
	setup->provided = fake.provided;
	for (int c = 0; c < RL_COUNTER_COUNT; c++) {
		setup->scope[c] = fake.scope[c];
		if (fake.provided & BIT(c))
			snprintf(setup->method[c], RL_METHOD_MAX, "fake %s",
				 rl_counter_name(c));
	}
	return 0;
}

static int fake_thread_open(void *state, char *err, size_t errlen)
{
	(void)state;
	return fake.fail_open ? rl_fail(err, errlen, RL_EPERM,
					"fake: thread counters not allowed")
			      : 0;
}

static int fake_read(void *state, struct rl_counter_value *v)
{
	struct fake_thread *t = state;
	uint64_t pairs = t->reads / 2; /* ends seen so far */

	t->reads++;
	for (int c = 0; c < RL_COUNTER_COUNT; c++) {
		if (!(fake.provided & BIT(c)))
			continue;
		v[c].enabled_ns = t->reads * 1000;
		v[c].running_ns =
			(uint64_t)((double)v[c].enabled_ns * fake.running_frac);
		/* counts arrive between a begin (odd read) and its end */
		v[c].value = (pairs + (t->reads % 2 == 0)) * fake.per_call[c];
		v[c].value = (uint64_t)((double)v[c].value * fake.running_frac);
	}
	return 0;
}

static void fake_close(void *state) { (void)state; }
static void fake_fini(void) {}

static const struct rl_backend fake_backend = {
	.abi = RL_BACKEND_ABI,
	.name = "fake",
	.summary = "fault-injecting test backend",
	.thread_state_size = sizeof(struct fake_thread),
	.init = fake_init,
	.thread_open = fake_thread_open,
	.read = fake_read,
	.thread_close = fake_close,
	.fini = fake_fini,
};

/* The runtime's job in miniature: run `calls` begin/end pairs of one
 * region through the backend and fill one process's results. */
struct run {
	struct rl_run_results res;
	struct rl_process_results proc;
	struct rl_thread_results thread;
	struct rl_region_stats region;
	struct rl_counter_total counts[RL_COUNTER_COUNT]; /* region's */
	struct rl_warning warning;
	struct rl_backend_setup setup;
	char *methods[RL_COUNTER_COUNT];
	char err[256];
};

static void drive(struct run *r, const struct rl_backend *be, unsigned calls)
{
	struct fake_thread st = {0};
	struct rl_counter_value b[RL_COUNTER_COUNT], e[RL_COUNTER_COUNT];
	int rc;

	memset(r, 0, sizeof *r);
	r->proc.version = RL_RESULTS_VERSION;
	r->proc.pid = 4242;
	r->proc.program = "fake-app";
	r->proc.backend = (char *)be->name;
	r->proc.backend_note = r->setup.note; /* "" unless init sets it */
	r->proc.complete = true;
	r->region.name = "kernel";
	r->region.counters = r->counts;
	r->thread.tid = 4243;
	r->thread.regions = &r->region;
	r->thread.n_regions = 1;
	r->proc.threads = &r->thread;
	r->proc.n_threads = 1;
	r->res.procs = &r->proc;
	r->res.n_procs = 1;
	r->res.exit_status = 0;
	rc = be->init("", &r->setup, r->err, sizeof r->err);
	if (rc == 0)
		rc = be->thread_open(&st, r->err, sizeof r->err);
	if (rc < 0) { /* the runtime keeps timing and reports the backend */
		r->warning.kind = "backend";
		r->warning.message = r->err;
		r->proc.warnings = &r->warning;
		r->proc.n_warnings = 1;
		r->region.calls = calls;
		r->region.time_ns = calls * 1000000ull;
		return;
	}
	r->proc.provided = r->setup.provided;
	memcpy(r->proc.scope, r->setup.scope, sizeof r->proc.scope);
	for (int c = 0; c < RL_COUNTER_COUNT; c++)
		r->proc.method[c] = (r->setup.provided & BIT(c))
					    ? r->setup.method[c]
					    : NULL;
	for (unsigned k = 0; k < calls; k++) {
		memset(b, 0, sizeof b);
		memset(e, 0, sizeof e);
		cr_assert_eq(be->read(&st, b), 0);
		cr_assert_eq(be->read(&st, e), 0);
		for (int c = 0; c < RL_COUNTER_COUNT; c++) {
			struct rl_counter_total *t = &r->region.counters[c];
			uint64_t dv = e[c].value - b[c].value;
			uint64_t de = e[c].enabled_ns - b[c].enabled_ns;
			uint64_t dr = e[c].running_ns - b[c].running_ns;
			if (!(r->setup.provided & BIT(c)))
				continue;
			t->value += dv;
			t->enabled_ns += de;
			t->running_ns += dr;
			t->scaled += dr ? (double)dv * (double)de / (double)dr
					: 0;
		}
	}
	r->region.calls = calls;
	r->region.time_ns = calls * 1000000ull; /* 1 ms per call */
	be->thread_close(&st);
	be->fini();
}

static const struct rl_region_row *summed(const struct rl_report *rep)
{
	cr_assert_geq(rep->n_summed, 1);
	cr_assert_str_eq(rep->rows[0].region, "kernel");
	return &rep->rows[0];
}

static int has_warning(const struct rl_report *rep, const char *kind)
{
	for (size_t i = 0; i < rep->n_warnings; i++)
		if (strcmp(rep->warnings[i].kind, kind) == 0)
			return 1;
	return 0;
}

static void reset(void)
{
	memset(&fake, 0, sizeof fake);
	fake.running_frac = 1.0;
}

Test(fake_backend, exact_thread_counts_pass_through)
{
	struct run r;
	struct rl_report rep;
	char err[256];
	const struct rl_region_row *row;

	reset();
	fake.provided = BIT(RL_C_FLOPS_F64_256) | BIT(RL_C_DRAM_READ_BYTES) |
			BIT(RL_C_DRAM_WRITE_BYTES);
	fake.per_call[RL_C_FLOPS_F64_256] = 4000;
	fake.per_call[RL_C_DRAM_READ_BYTES] = 16000;
	fake.per_call[RL_C_DRAM_WRITE_BYTES] = 8000;
	drive(&r, &fake_backend, 10);
	cr_assert_eq(rl_report_build(&r.res, NULL, &rep, err, sizeof err), 0,
		     "%s", err);
	row = summed(&rep);
	cr_assert_float_eq(row->flops, 40000, 1e-6);
	cr_assert_float_eq(row->flops_f64, 40000, 1e-6);
	cr_assert_float_eq(row->dram_bytes, 240000, 1e-6);
	cr_assert_float_eq(row->ai, 40000.0 / 240000.0, 1e-12);
	cr_assert_float_eq(row->scaled_ratio, 1.0, 1e-12);
	cr_assert(!row->has_proxy && !row->has_system_wide);
	cr_assert(!has_warning(&rep, "multiplexed"));
	rl_report_release(&rep);
}

Test(fake_backend, proxy_bytes_are_marked_and_half_known_is_unknown)
{
	struct run r;
	struct rl_report rep;
	char err[256];
	const struct rl_region_row *row;

	reset();
	fake.provided = BIT(RL_C_FLOPS_F64_SCALAR) | BIT(RL_C_DRAM_READ_BYTES);
	fake.scope[RL_C_DRAM_READ_BYTES] = RL_SCOPE_PROXY;
	fake.per_call[RL_C_FLOPS_F64_SCALAR] = 100;
	fake.per_call[RL_C_DRAM_READ_BYTES] = 6400;
	drive(&r, &fake_backend, 3);
	cr_assert_eq(rl_report_build(&r.res, NULL, &rep, err, sizeof err), 0,
		     "%s", err);
	row = summed(&rep);
	cr_assert(row->has_proxy);
	cr_assert_float_eq(row->dram_read_bytes, 19200, 1e-6);
	/* writes not counted: total bytes and AI stay unknown, never 0 */
	cr_assert(!rl_known(row->dram_write_bytes));
	cr_assert(!rl_known(row->dram_bytes));
	cr_assert(!rl_known(row->ai));
	cr_assert(strstr(row->method, "proxy"), "%s", row->method);
	rl_report_release(&rep);
}

Test(fake_backend, system_wide_dram_is_flagged)
{
	struct run r;
	struct rl_report rep;
	char err[256];

	reset();
	fake.provided = BIT(RL_C_FLOPS_ANY) | BIT(RL_C_DRAM_READ_BYTES) |
			BIT(RL_C_DRAM_WRITE_BYTES);
	fake.scope[RL_C_DRAM_READ_BYTES] = RL_SCOPE_SYSTEM;
	fake.scope[RL_C_DRAM_WRITE_BYTES] = RL_SCOPE_SYSTEM;
	fake.per_call[RL_C_FLOPS_ANY] = 10;
	fake.per_call[RL_C_DRAM_READ_BYTES] = 64;
	fake.per_call[RL_C_DRAM_WRITE_BYTES] = 64;
	drive(&r, &fake_backend, 5);
	cr_assert_eq(rl_report_build(&r.res, NULL, &rep, err, sizeof err), 0,
		     "%s", err);
	cr_assert(summed(&rep)->has_system_wide);
	cr_assert(has_warning(&rep, "system-wide"));
	/* flops_any: no precision split, so none is claimed */
	cr_assert_float_eq(summed(&rep)->flops, 50, 1e-9);
	cr_assert(!rl_known(summed(&rep)->flops_f64));
	cr_assert(!rl_known(summed(&rep)->flops_f32));
	rl_report_release(&rep);
}

Test(fake_backend, multiplexed_counts_are_scaled_and_warned)
{
	struct run r;
	struct rl_report rep;
	char err[256];
	const struct rl_region_row *row;

	reset();
	fake.provided = BIT(RL_C_FLOPS_F32_512);
	fake.per_call[RL_C_FLOPS_F32_512] = 1600;
	fake.running_frac = 0.75; /* counted three quarters of the time */
	drive(&r, &fake_backend, 4);
	cr_assert_eq(rl_report_build(&r.res, NULL, &rep, err, sizeof err), 0,
		     "%s", err);
	row = summed(&rep);
	cr_assert_eq(r.region.counters[RL_C_FLOPS_F32_512].value, 4800);
	cr_assert_float_eq(row->flops, 6400, 1e-6);
	cr_assert_float_eq(row->scaled_ratio, 0.75, 1e-9);
	cr_assert_eq(row->share_pct[RL_C_FLOPS_F32_512], 75);
	cr_assert(has_warning(&rep, "multiplexed"));
	cr_assert(!has_warning(&rep, "withheld"));
	rl_report_release(&rep);
	/* a quarter of the time is too little: withheld, not scaled x4
	 * (report_trust.h; test_fault_injector.c covers the outputs) */
	fake.running_frac = 0.25;
	drive(&r, &fake_backend, 4);
	cr_assert_eq(rl_report_build(&r.res, NULL, &rep, err, sizeof err), 0,
		     "%s", err);
	cr_assert(!rl_known(summed(&rep)->flops));
	cr_assert(has_warning(&rep, "withheld"));
	rl_report_release(&rep);
}

Test(fake_backend, missing_counters_stay_unknown)
{
	struct run r;
	struct rl_report rep;
	char err[256];
	const struct rl_region_row *row;

	reset();
	fake.provided = BIT(RL_C_CYCLES) | BIT(RL_C_INSTRUCTIONS);
	fake.per_call[RL_C_CYCLES] = 1000;
	fake.per_call[RL_C_INSTRUCTIONS] = 900;
	drive(&r, &fake_backend, 2);
	cr_assert_eq(rl_report_build(&r.res, NULL, &rep, err, sizeof err), 0,
		     "%s", err);
	row = summed(&rep);
	cr_assert(!rl_known(row->flops));
	cr_assert(!rl_known(row->dram_bytes));
	cr_assert(!rl_known(row->gflops));
	cr_assert(!rl_known(row->gbs));
	cr_assert(!rl_known(row->ai));
	cr_assert_eq(row->bound, RL_BOUND_UNKNOWN);
	cr_assert_eq(row->calls, 2);
	rl_report_release(&rep);
}

Test(fake_backend, backend_errors_become_warnings_not_numbers)
{
	struct run r;
	struct rl_report rep;
	char err[256];
	const struct rl_region_row *row;

	reset();
	fake.provided = BIT(RL_C_FLOPS_F64_SCALAR);
	fake.per_call[RL_C_FLOPS_F64_SCALAR] = 7;
	fake.fail_open = 1;
	drive(&r, &fake_backend, 3);
	cr_assert_eq(rl_report_build(&r.res, NULL, &rep, err, sizeof err), 0,
		     "%s", err);
	row = summed(&rep);
	cr_assert(!rl_known(row->flops), "no counts after a failed open");
	cr_assert_eq(row->calls, 3);
	cr_assert(has_warning(&rep, "backend"));
	cr_assert(strstr(rep.warnings[0].message, "not allowed"));
	rl_report_release(&rep);

	reset();
	fake.fail_init = 1;
	drive(&r, &fake_backend, 1);
	cr_assert_eq(rl_report_build(&r.res, NULL, &rep, err, sizeof err), 0,
		     "%s", err);
	cr_assert_eq(rep.provided, 0);
	cr_assert(strstr(rep.warnings[0].message, "no hardware counters"));
	rl_report_release(&rep);
}

Test(fake_backend, a_process_without_a_counter_unknowns_the_sum)
{
	struct run a, b;
	struct rl_process_results procs[2];
	struct rl_run_results res;
	struct rl_report rep;
	char err[256];

	reset();
	fake.provided = BIT(RL_C_FLOPS_F64_SCALAR);
	fake.per_call[RL_C_FLOPS_F64_SCALAR] = 5;
	drive(&a, &fake_backend, 2);
	reset();
	fake.provided = BIT(RL_C_CYCLES);
	fake.per_call[RL_C_CYCLES] = 5;
	drive(&b, &fake_backend, 2);
	procs[0] = a.proc;
	procs[1] = b.proc;
	procs[1].pid = 4343;
	procs[0].threads = &a.thread;
	procs[1].threads = &b.thread;
	memset(&res, 0, sizeof res);
	res.procs = procs;
	res.n_procs = 2;
	cr_assert_eq(rl_report_build(&res, NULL, &rep, err, sizeof err), 0);
	/* a partial sum would undercount: the summed row says unknown */
	cr_assert(!rl_known(summed(&rep)->flops));
	cr_assert_eq(summed(&rep)->calls, 4);
	rl_report_release(&rep);
}
