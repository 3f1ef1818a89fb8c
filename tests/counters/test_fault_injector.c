/* The known-answer check and the multiplexing marks, driven by a
 * FAULT-INJECTING TEST BACKEND: it counts nothing; it returns what the
 * known-answer kernels did (their own tally of the truth) times a factor
 * chosen per counter (x0.5, x2, x3, 0), with enabled/running times chosen
 * per counter. It proves that each wrong factor is caught, marked in the
 * table, JSON, CSV and HTML and kept out of placement, that a share of
 * counting time below 50% is withheld with its reason, and that a correct
 * backend passes without a mark. Its figures are never hardware counts. */
#include <criterion/criterion.h>
#include <sched.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/report.h"
#include "counters/backend.h"
#include "counters/selftest/kat_kernels.h"
#include "results/selftest_run.h"
#include "render/render.h"
#include "tests/lib/machine.h"
#include "tests/lib/report.h"

#define BIT(c) (UINT64_C(1) << (c))

/* The fault injector's settings, per counter. */
static struct {
	uint64_t provided;
	double factor[RL_COUNTER_COUNT];  /* counts the truth x this */
	double running[RL_COUNTER_COUNT]; /* running / enabled */
	unsigned char scope[RL_COUNTER_COUNT];
	bool pin;                         /* pins the thread it opens */
} inj;

struct inj_thread {
	uint64_t reads;
};

static int inj_init(const char *options, struct rl_backend_setup *setup,
		    char *err, size_t errlen)
{
	(void)options, (void)err, (void)errlen;
	setup->provided = inj.provided;
	for (int c = 0; c < RL_COUNTER_COUNT; c++) {
		setup->scope[c] = inj.scope[c];
		if (inj.provided & BIT(c))
			snprintf(setup->method[c], RL_METHOD_MAX,
				 "fault injector x%g", inj.factor[c]);
	}
	return 0;
}

static int inj_thread_open(void *state, char *err, size_t errlen)
{
	(void)state, (void)err, (void)errlen;
	if (inj.pin) { /* as the likwid backend pins the thread it counts */
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(sched_getcpu(), &one);
		sched_setaffinity(0, sizeof one, &one);
	}
	return 0;
}

static int inj_read(void *state, struct rl_counter_value *v)
{
	struct inj_thread *t = state;
	double truth[RL_COUNTER_COUNT];

	rl_kat_truth(truth);
	t->reads++;
	for (int c = 0; c < RL_COUNTER_COUNT; c++) {
		if (!(inj.provided & BIT(c)))
			continue;
		v[c].enabled_ns = t->reads * 1000;
		v[c].running_ns = (uint64_t)((double)v[c].enabled_ns *
					     inj.running[c]);
		/* a multiplexed counter holds its share of the count */
		v[c].value = (uint64_t)llround(truth[c] * inj.factor[c] *
					       inj.running[c]);
	}
	return 0;
}

static void inj_close(void *state) { (void)state; }
static void inj_fini(void) {}

static const struct rl_backend fault_injector = {
	.abi = RL_BACKEND_ABI,
	.name = "fault-injector",
	.summary = "fault-injecting test backend: the truth times a factor",
	.thread_state_size = sizeof(struct inj_thread),
	.init = inj_init,
	.thread_open = inj_thread_open,
	.read = inj_read,
	.thread_close = inj_close,
	.fini = inj_fini,
};

static const int checked[] = {
	RL_C_FLOPS_F64_SCALAR, RL_C_FLOPS_F64_128, RL_C_FLOPS_F64_256,
	RL_C_FLOPS_F32_SCALAR, RL_C_FLOPS_F32_128, RL_C_FLOPS_F32_256,
	RL_C_FLOPS_FMA, RL_C_DRAM_READ_BYTES, RL_C_DRAM_WRITE_BYTES,
};

/* Every counter counts the truth exactly, all the time. */
static void honest(void)
{
	memset(&inj, 0, sizeof inj);
	for (size_t i = 0; i < sizeof checked / sizeof *checked; i++)
		inj.provided |= BIT(checked[i]);
	for (int c = 0; c < RL_COUNTER_COUNT; c++)
		inj.factor[c] = inj.running[c] = 1;
	rl_kat_set_array_bytes(1 << 20); /* small: the truth is exact */
}

static struct rl_selftest check(void)
{
	struct rl_selftest st;
	char err[256] = "";

	cr_assert_eq(rl_selftest_run(&fault_injector, "", &st, err, sizeof err),
		     0, "%s", err);
	cr_assert(st.ran, "%s", st.why);
	return st;
}

static const struct rl_selftest_item *item(const struct rl_selftest *st,
					   int c)
{
	const struct rl_selftest_item *it = rl_selftest_find(st, c);

	cr_assert_not_null(it, "%s not checked (%s)", rl_counter_name(c),
			   st->why);
	return it;
}

Test(fault_injector, a_correct_backend_passes_every_event)
{
	struct rl_selftest st;

	honest();
	st = check();
	for (size_t i = 0; i < sizeof checked / sizeof *checked; i++) {
		const struct rl_selftest_item *it = item(&st, checked[i]);
		cr_assert(it->ok, "%s read %gx", rl_counter_name(checked[i]),
			  it->factor);
		cr_assert_float_eq(it->factor, 1, 1e-9);
		cr_assert_gt(it->expected, 0);
	}
	/* scalar f64: 4 chains x 20000 steps, add (1) and FMA (2) */
	cr_assert_float_eq(item(&st, RL_C_FLOPS_F64_SCALAR)->expected, 240000,
			   1e-6);
	/* reads: b, c and a's lines in one triad, b and c in the other */
	cr_assert_float_eq(item(&st, RL_C_DRAM_READ_BYTES)->expected,
			   5.0 * (1 << 20), 1);
	cr_assert_float_eq(item(&st, RL_C_DRAM_WRITE_BYTES)->expected,
			   2.0 * (1 << 20), 1);
}

Test(fault_injector, each_wrong_factor_is_caught_with_its_factor)
{
	static const double factors[] = {0.5, 2, 3, 0};

	for (size_t f = 0; f < sizeof factors / sizeof *factors; f++) {
		struct rl_selftest st;
		honest();
		inj.factor[RL_C_DRAM_READ_BYTES] = factors[f];
		inj.factor[RL_C_FLOPS_F64_256] = factors[f];
		st = check();
		cr_assert(!item(&st, RL_C_DRAM_READ_BYTES)->ok);
		cr_assert_float_eq(item(&st, RL_C_DRAM_READ_BYTES)->factor,
				   factors[f], 1e-6);
		cr_assert(!item(&st, RL_C_FLOPS_F64_256)->ok);
		cr_assert_float_eq(item(&st, RL_C_FLOPS_F64_256)->factor,
				   factors[f], 1e-6);
		cr_assert(item(&st, RL_C_DRAM_WRITE_BYTES)->ok);
		cr_assert(item(&st, RL_C_FLOPS_F32_256)->ok);
	}
}

Test(fault_injector, tolerances_are_one_percent_flops_ten_percent_bytes)
{
	struct rl_selftest st;

	honest();
	inj.factor[RL_C_DRAM_READ_BYTES] = 1.08; /* within 10% */
	inj.factor[RL_C_DRAM_WRITE_BYTES] = 1.15;
	inj.factor[RL_C_FLOPS_F64_128] = 1.005;  /* within 1% */
	inj.factor[RL_C_FLOPS_F32_128] = 1.02;
	st = check();
	cr_assert(item(&st, RL_C_DRAM_READ_BYTES)->ok);
	cr_assert(!item(&st, RL_C_DRAM_WRITE_BYTES)->ok);
	cr_assert(item(&st, RL_C_FLOPS_F64_128)->ok);
	cr_assert(!item(&st, RL_C_FLOPS_F32_128)->ok);
}

Test(fault_injector, multiplexed_events_are_scaled_before_the_check)
{
	struct rl_selftest st;

	honest();
	inj.running[RL_C_FLOPS_F64_SCALAR] = 0.5;
	inj.running[RL_C_DRAM_READ_BYTES] = 0.25;
	st = check();
	cr_assert(item(&st, RL_C_FLOPS_F64_SCALAR)->ok, "%g",
		  item(&st, RL_C_FLOPS_F64_SCALAR)->factor);
	cr_assert(item(&st, RL_C_DRAM_READ_BYTES)->ok);
}

Test(fault_injector, a_backend_that_pins_the_thread_leaves_its_cpus_as_they_were)
{
	cpu_set_t before, after;

	cr_assert_eq(sched_getaffinity(0, sizeof before, &before), 0);
	if (CPU_COUNT(&before) < 2)
		cr_skip_test("one cpu allowed here: a pin would change nothing");
	honest();
	inj.pin = true;
	check();
	cr_assert_eq(sched_getaffinity(0, sizeof after, &after), 0);
	cr_assert(CPU_EQUAL(&before, &after),
		  "the program started after the check would run on %d of "
		  "the %d cpus",
		  CPU_COUNT(&after), CPU_COUNT(&before));
}

Test(fault_injector, proxies_are_not_held_to_the_answer)
{
	struct rl_selftest st;

	honest();
	inj.scope[RL_C_DRAM_READ_BYTES] = RL_SCOPE_PROXY;
	inj.factor[RL_C_DRAM_READ_BYTES] = 3;
	st = check();
	cr_assert_null(rl_selftest_find(&st, RL_C_DRAM_READ_BYTES));
	cr_assert(strstr(st.why, "dram_read_bytes not held to it (proxy)"),
		  "%s", st.why);
}

Test(fault_injector, the_result_is_cached_per_event_set)
{
	char dir[] = "/tmp/rlprof-selftest-XXXXXX", err[256] = "", cmd[300];
	struct rl_selftest st;

	cr_assert_not_null(mkdtemp(dir));
	honest();
	cr_assert_eq(rl_selftest_cached(&fault_injector, "", dir, &st, err,
					sizeof err),
		     0, "%s", err);
	cr_assert(st.ran && !st.cached);
	cr_assert_eq(rl_selftest_cached(&fault_injector, "", dir, &st, err,
					sizeof err),
		     0, "%s", err);
	cr_assert(st.ran && st.cached, "the second run reads the cache");
	cr_assert(item(&st, RL_C_DRAM_READ_BYTES)->ok);
	/* another event set (here: another method line) is checked anew */
	inj.factor[RL_C_DRAM_READ_BYTES] = 2;
	cr_assert_eq(rl_selftest_cached(&fault_injector, "", dir, &st, err,
					sizeof err),
		     0, "%s", err);
	cr_assert(!st.cached);
	cr_assert(!item(&st, RL_C_DRAM_READ_BYTES)->ok);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

/* ---- the report: marks in every output, placement without them ---- */

/* A region counted by the fault injector: 1e9 f64 256-bit flops, 1e9
 * bytes read and 0.5e9 written in 0.1 s, each counter running `share`
 * of the time; the check's result attached. */
static void build(struct rl_report *rep, const struct rl_selftest *st,
		  double share)
{
	static struct rl_test_one o;
	static struct rl_selftest copy;
	struct rl_run_results run;
	char err[256] = "";
	uint64_t p = BIT(RL_C_FLOPS_F64_256) | BIT(RL_C_DRAM_READ_BYTES) |
		     BIT(RL_C_DRAM_WRITE_BYTES);

	rl_test_one_init(&o, 4242, p, "kernel", 0.1);
	rl_test_one_set(&o, RL_C_FLOPS_F64_256, 1e9);
	rl_test_one_set(&o, RL_C_DRAM_READ_BYTES, 1e9);
	rl_test_one_set(&o, RL_C_DRAM_WRITE_BYTES, 0.5e9);
	for (int c = 0; c < RL_COUNTER_COUNT; c++)
		if (p & BIT(c)) { /* as the runtime stores a scaled count */
			o.counts[c].running_ns = (uint64_t)(1000 * share);
			o.counts[c].scaled = (double)o.counts[c].value / share;
		}
	memset(&run, 0, sizeof run);
	run.procs = &o.proc;
	run.n_procs = 1;
	run.exit_status = 0;
	if (st) {
		copy = *st;
		run.selftest = &copy;
	}
	cr_assert_eq(rl_report_build(&run, rl_test_machine_default(), rep, err,
				     sizeof err),
		     0, "%s", err);
}

static char *render(const struct rl_report *rep, const char *format)
{
	const struct rl_renderer *rd = rl_renderer_find(format);
	struct rl_render_options opt = {0};
	char *text = NULL, err[256] = "";
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(rd);
	cr_assert_eq(rd->render(f, rep, &opt, err, sizeof err), 0, "%s", err);
	fclose(f);
	return text;
}

static const char *const formats[] = {"table", "json", "csv", "html"};

static struct rl_selftest dram_read_wrong(double factor)
{
	honest();
	inj.factor[RL_C_DRAM_READ_BYTES] = factor;
	return check();
}

Test(fault_injector, a_caught_factor_is_marked_everywhere_and_not_placed)
{
	static const double factors[] = {0.5, 2, 3, 0};

	for (size_t f = 0; f < sizeof factors / sizeof *factors; f++) {
		struct rl_selftest st = dram_read_wrong(factors[f]);
		struct rl_report rep;
		char want[96];
		build(&rep, &st, 1);
		cr_assert(!rl_known(rep.rows[0].dram_read_bytes));
		cr_assert(!rl_known(rep.rows[0].ai), "no AI from it");
		cr_assert_eq(rep.rows[0].basis, RL_BASIS_NONE,
			     "not placed on a wrong count");
		cr_assert(rl_known(rep.rows[0].flops), "the flops stand");
		snprintf(want, sizeof want,
			 "DRAM bytes read %.2fx the known answer: not used "
			 "for placement",
			 factors[f]);
		for (size_t k = 0; k < 4; k++) {
			char *text = render(&rep, formats[k]);
			cr_assert(strstr(text, want), "%s lacks '%s':\n%s",
				  formats[k], want, text);
			free(text);
		}
		{
			char *csv = render(&rep, "csv");
			cr_assert(strstr(csv, ",counter_marks\n"), "%s", csv);
			cr_assert(strstr(csv, "its counts were withheld"),
				  "the diagnosis says why: %s", csv);
			free(csv);
		}
		rl_report_release(&rep);
	}
}

Test(fault_injector, a_correct_backend_is_placed_without_a_mark)
{
	struct rl_selftest st;
	struct rl_report rep;

	honest();
	st = check();
	build(&rep, &st, 1);
	cr_assert_float_eq(rep.rows[0].dram_read_bytes, 1e9, 1);
	cr_assert_eq(rep.rows[0].basis, RL_BASIS_COUNTED);
	cr_assert_eq(rep.rows[0].withheld, 0);
	for (size_t k = 0; k < 4; k++) {
		char *text = render(&rep, formats[k]);
		cr_assert_null(strstr(text, "known answer"), "%s:\n%s",
			       formats[k], text);
		cr_assert_null(strstr(text, "withheld"), "%s", text);
		cr_assert_null(strstr(text, "counter_marks"), "%s", text);
		free(text);
	}
	rl_report_release(&rep);
}

Test(fault_injector, a_share_below_half_is_withheld_with_its_reason)
{
	struct rl_report rep;
	const char *want = "f64 256-bit flops 40%, DRAM bytes read 40%, DRAM "
			   "bytes written 40% of the time in region";
	const char *reason = "(multiplexed): withheld, below the 50% a scaled "
			     "figure needs";

	build(&rep, NULL, 0.4);
	cr_assert(!rl_known(rep.rows[0].flops));
	cr_assert(!rl_known(rep.rows[0].dram_bytes));
	cr_assert_eq(rep.rows[0].basis, RL_BASIS_NONE);
	for (size_t k = 0; k < 4; k++) {
		char *text = render(&rep, formats[k]);
		cr_assert(strstr(text, k == 2 ? "f64 256-bit flops counted 40% "
						"of the time: withheld (below "
						"50%)"
					      : want),
			  "%s lacks it:\n%s", formats[k], text);
		cr_assert(k == 2 || strstr(text, reason), "%s", text);
		cr_assert_null(strstr(text, "scaled up from 40%"), "%s", text);
		free(text);
	}
	{
		char *json = render(&rep, "json"), *csv = render(&rep, "csv");
		cr_assert(strstr(json, "\"counting_pct\":{\"flops_f64_256\":40"),
			  "%s", json);
		cr_assert(strstr(json, "\"withheld\":[\"flops_f64_256\""),
			  "%s", json);
		cr_assert(strstr(csv, "its counts were withheld"), "%s", csv);
		free(json);
		free(csv);
	}
	rl_report_release(&rep);
}

Test(fault_injector, a_share_above_half_is_scaled_and_marked)
{
	struct rl_report rep;

	build(&rep, NULL, 0.8);
	/* the counts hold 80% of the time: scaled up by 1/0.8 */
	cr_assert_float_eq(rep.rows[0].flops, 1e9 / 0.8, 1e3);
	cr_assert_eq(rep.rows[0].basis, RL_BASIS_COUNTED);
	cr_assert_eq(rep.rows[0].withheld, 0);
	{
		char *json = render(&rep, "json"), *csv = render(&rep, "csv"),
		     *table = render(&rep, "table"), *html = render(&rep, "html");
		cr_assert(strstr(json, "\"counting_pct\":{\"flops_f64_256\":80"),
			  "%s", json);
		cr_assert_null(strstr(json, "\"withheld\""), "%s", json);
		cr_assert(strstr(csv, "f64 256-bit flops counted 80% of the "
				      "time: scaled; DRAM bytes read counted "
				      "80%"),
			  "%s", csv);
		cr_assert(strstr(table, "scaled up from 80%"), "%s", table);
		cr_assert(strstr(html, "counted 80%"), "%s", html);
		free(json);
		free(csv);
		free(table);
		free(html);
	}
	rl_report_release(&rep);
}
