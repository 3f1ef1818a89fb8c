/*
 * Process scope in the results file (results_scope.c): the other threads'
 * share ("others") of a region's process-scope calls is added to the
 * calling thread's own counts, whoever else has a region of that name; a
 * file written before "others" (scope "counters": the process's totals)
 * is read as it was; a recursive region's "depth" is read.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "results/run_results.h"

#define HEAD                                                                \
	"{\"format\":\"rlprof-results\",\"version\":2,\"pid\":1,"            \
	"\"program\":\"p\",\"backend\":\"sim\",\"counters\":["               \
	"{\"name\":\"flops_f64_scalar\",\"scope\":\"simulated\"}],"

static void load(const char *text, struct rl_process_results *r)
{
	char path[] = "/tmp/rlprof-rs-XXXXXX", err[512] = "";
	int fd = mkstemp(path);
	FILE *f;

	cr_assert_geq(fd, 0);
	cr_assert_not_null(f = fdopen(fd, "w"));
	fputs(text, f);
	fclose(f);
	cr_assert_eq(rl_results_load(path, r, err, sizeof err), 0, "%s", err);
	unlink(path);
}

static uint64_t flops(const struct rl_process_results *r, size_t t)
{
	return r->threads[t].regions[0].counters[RL_C_FLOPS_F64_SCALAR].value;
}

/* main: 100 of its own + 50 by the workers during its process-scope
 * calls; a worker also has calls of "k" elsewhere (30): 150 and 30 */
Test(results_scope, others_added_to_the_calling_threads_counts)
{
	struct rl_process_results r;

	load(HEAD "\"threads\":["
		  "{\"tid\":1,\"regions\":[{\"name\":\"k\",\"calls\":4,"
		  "\"time_ns\":9,\"depth\":3,\"scope\":{\"calls\":2,"
		  "\"threads\":2,\"cpus\":2,"
		  "\"all_threads\":[\"flops_f64_scalar\"],\"others\":{"
		  "\"flops_f64_scalar\":{\"value\":50}}},\"counters\":{"
		  "\"flops_f64_scalar\":{\"value\":100}}}]},"
		  "{\"tid\":2,\"regions\":[{\"name\":\"k\",\"calls\":1,"
		  "\"time_ns\":5,\"counters\":{"
		  "\"flops_f64_scalar\":{\"value\":30}}}]}]}",
	     &r);
	cr_assert_eq(flops(&r, 0), 150);
	cr_assert_float_eq(
		r.threads[0].regions[0].counters[RL_C_FLOPS_F64_SCALAR].scaled,
		150, 1e-9);
	cr_assert_eq(flops(&r, 1), 30, "the worker's own calls stay");
	cr_assert_eq(r.threads[0].regions[0].scope_calls, 2);
	cr_assert_eq(r.threads[0].regions[0].scope_cpus, 2);
	cr_assert_eq(r.threads[0].regions[0].depth, 3);
	rl_results_release(&r);
}

/* before "others": the totals replace the thread's own counts when the
 * name is the main thread's only, and are dropped when a worker has it */
Test(results_scope, totals_of_an_older_file_read_as_before)
{
	struct rl_process_results r;

	load(HEAD "\"threads\":["
		  "{\"tid\":1,\"regions\":[{\"name\":\"k\",\"calls\":2,"
		  "\"time_ns\":9,\"scope\":{\"calls\":2,\"threads\":2,"
		  "\"all_threads\":[\"flops_f64_scalar\"],\"counters\":{"
		  "\"flops_f64_scalar\":{\"value\":150}}},\"counters\":{"
		  "\"flops_f64_scalar\":{\"value\":100}}}]}]}",
	     &r);
	cr_assert_eq(flops(&r, 0), 150);
	cr_assert_eq(r.threads[0].regions[0].depth, 0);
	rl_results_release(&r);
	load(HEAD "\"threads\":["
		  "{\"tid\":1,\"regions\":[{\"name\":\"k\",\"calls\":2,"
		  "\"time_ns\":9,\"scope\":{\"calls\":2,\"threads\":2,"
		  "\"all_threads\":[\"flops_f64_scalar\"],\"counters\":{"
		  "\"flops_f64_scalar\":{\"value\":150}}},\"counters\":{"
		  "\"flops_f64_scalar\":{\"value\":100}}}]},"
		  "{\"tid\":2,\"regions\":[{\"name\":\"k\",\"calls\":1,"
		  "\"time_ns\":5,\"counters\":{"
		  "\"flops_f64_scalar\":{\"value\":30}}}]}]}",
	     &r);
	cr_assert_eq(flops(&r, 0), 100);
	cr_assert_eq(r.threads[0].regions[0].scope_calls, 0);
	rl_results_release(&r);
}
