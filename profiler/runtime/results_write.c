/*
 * rl_results_write_fd(): one struct rl_process_results as a JSON document
 * (schema "rlprof-results" version 2, documented in README.md).
 *
 * Runs from a fatal-signal handler too, so: libc only, no malloc, no stdio
 * streams. Output goes through the JSON writer's buffer on the stack
 * (json_writer.h: escaping, U+FFFD for bytes that are not UTF-8, null for
 * a non-finite number) and write(2).
 */
#include "common/json_writer.h"
#include "runtime/results_write.h"
#include "common/rl_error.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The runtime's sink: write(2), retried on EINTR. */
static int fd_sink(void *ctx, const char *p, size_t n)
{
	int fd = *(const int *)ctx;

	while (n > 0) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static void write_counter_defs(struct rl_jw *w, const struct rl_process_results *r)
{
	int first = 1;
	rl_jw_raw(w, "[");
	for (int c = 0; c < RL_COUNTER_COUNT; c++) {
		if (!(r->provided >> c & 1))
			continue;
		rl_jw_raw(w, first ? "\n  {" : ",\n  {");
		first = 0;
		rl_jw_field_str(w, "name", 1, rl_counter_name((enum rl_counter)c));
		rl_jw_field_str(w, "unit", 0, rl_counter_unit((enum rl_counter)c));
		rl_jw_field_str(w, "scope", 0, rl_scope_name((enum rl_scope)r->scope[c]));
		rl_jw_field_str(w, "method", 0, r->method[c]);
		if (c >= RL_C_EXTRA0 && c < RL_C_EXTRA0 + RL_EXTRA_MAX) {
			rl_jw_field_str(w, "extra_name", 0, r->extra_name[c - RL_C_EXTRA0]);
		}
		rl_jw_raw(w, "}");
	}
	rl_jw_raw(w, "]");
}


/* {"value", "enabled_ns", "running_ns"} of one counter */
static void put_total(struct rl_jw *w, const struct rl_counter_total *t)
{
	rl_jw_raw(w, "{");
	rl_jw_field_u64(w, "value", 1, t->value);
	rl_jw_field_u64(w, "enabled_ns", 0, t->enabled_ns);
	rl_jw_field_u64(w, "running_ns", 0, t->running_ns);
	rl_jw_raw(w, "}");
}

/* "scope" of a region measured in process scope, the other threads' share
 * of its counters ("others") only when some cover every thread */
static void write_scope(struct rl_jw *w, const struct rl_region_stats *s)
{
	rl_jw_key(w, "scope", 0);
	rl_jw_raw(w, "{");
	rl_jw_field_u64(w, "calls", 1, s->scope_calls);
	rl_jw_field_u64(w, "time_ns", 0, s->scope_time_ns);
	rl_jw_field_u64(w, "cpu_ns", 0, s->scope_cpu_ns);
	rl_jw_field_u64(w, "cpu_unknown_ns", 0, s->scope_cpu_unknown_ns);
	rl_jw_field_u64(w, "threads", 0, s->scope_threads);
	if (s->scope_cpus)
		rl_jw_field_u64(w, "cpus", 0, s->scope_cpus);
	if (!s->scope_all) {
		rl_jw_raw(w, "}");
		return;
	}
	rl_jw_key(w, "all_threads", 0);
	rl_jw_raw(w, "[");
	for (int c = 0, n = 0; c < RL_COUNTER_COUNT; c++)
		if (s->scope_all >> c & 1) {
			rl_jw_raw(w, n++ ? ",\"" : "\"");
			rl_jw_raw(w, rl_counter_name((enum rl_counter)c));
			rl_jw_raw(w, "\"");
		}
	rl_jw_raw(w, "]");
	rl_jw_key(w, "others", 0); /* the other threads' share */
	rl_jw_raw(w, "{");
	for (int c = 0, n = 0; s->scope_counters && c < RL_COUNTER_COUNT;
	     c++) {
		const struct rl_counter_total *t = &s->scope_counters[c];
		if (!(s->scope_all >> c & 1))
			continue;
		rl_jw_key(w, rl_counter_name((enum rl_counter)c), !n++);
		put_total(w, t);
	}
	rl_jw_raw(w, "}}");
}

static void write_region(struct rl_jw *w, const struct rl_process_results *r,
			 const struct rl_region_stats *s)
{
	rl_jw_raw(w, "{");
	rl_jw_field_str(w, "name", 1, s->name);
	rl_jw_field_u64(w, "calls", 0, s->calls);
	rl_jw_field_u64(w, "time_ns", 0, s->time_ns);
	/* what is 0 (nothing declared, nothing left open, no counter, no
	 * process-scope counter) is left out: the reader's default, and at
	 * 10^5 regions the zeros and empty objects were most of the file
	 * and of the time jansson took to read it back */
	if (s->expect_calls) {
		rl_jw_field_double(w, "expected_flops", 0, s->expected_flops);
		rl_jw_field_double(w, "expected_bytes", 0, s->expected_bytes);
		rl_jw_field_u64(w, "expect_calls", 0, s->expect_calls);
	}
	if (s->open_at_exit)
		rl_jw_field_u64(w, "open_at_exit", 0, s->open_at_exit);
	if (s->depth > 1) /* entered again while open (recursion) */
		rl_jw_field_u64(w, "depth", 0, s->depth);
	if (s->mpi_known) /* time inside MPI calls (rl_mpi_calls.h) */
		rl_jw_field_u64(w, "mpi_ns", 0, s->mpi_ns);
	if (s->clock_reads) /* the program's (rt_clock_reads.c) */
		rl_jw_field_u64(w, "clock_reads", 0, s->clock_reads);
	if (s->scope_calls) /* process scope (rt_scope.h) */
		write_scope(w, s);
	if (!r->provided) {
		rl_jw_raw(w, "}");
		return;
	}
	rl_jw_key(w, "counters", 0);
	rl_jw_raw(w, "{");
	int first = 1;
	for (int c = 0; c < RL_COUNTER_COUNT; c++) {
		if (!(r->provided >> c & 1))
			continue;
		rl_jw_key(w, rl_counter_name((enum rl_counter)c), first);
		first = 0;
		/* No "scaled": readers compute it from the sums. A count
		 * known to be unknown (NAN), or never made, is null. */
		if (!s->counters || isnan(s->counters[c].scaled)) {
			rl_jw_raw(w, "null");
			continue;
		}
		put_total(w, &s->counters[c]);
	}
	rl_jw_raw(w, "}}");
}

static void write_threads(struct rl_jw *w, const struct rl_process_results *r)
{
	rl_jw_raw(w, "[");
	for (size_t i = 0; i < r->n_threads; i++) {
		const struct rl_thread_results *t = &r->threads[i];
		rl_jw_raw(w, i ? ",\n  {" : "\n  {");
		rl_jw_field_u64(w, "tid", 1, t->tid);
		rl_jw_field_u64(w, "index", 0, t->index);
		rl_jw_key(w, "regions", 0);
		rl_jw_raw(w, "[");
		for (size_t k = 0; k < t->n_regions; k++) {
			struct rl_counter_total room[RL_COUNTER_COUNT];
			struct rl_region_stats tmp = {.counters = room};
			const struct rl_region_stats *s = &tmp;
			rl_jw_raw(w, k ? ",\n   " : "\n   ");
			if (t->regions)
				s = &t->regions[k];
			else
				t->region_at(t->ctx, k, &tmp);
			write_region(w, r, s);
		}
		rl_jw_raw(w, "]}");
	}
	rl_jw_raw(w, "]");
}

static void write_warnings(struct rl_jw *w, const struct rl_process_results *r)
{
	rl_jw_raw(w, "[");
	for (size_t i = 0; i < r->n_warnings; i++) {
		const struct rl_warning *x = &r->warnings[i];
		rl_jw_raw(w, i ? ",\n  {" : "\n  {");
		rl_jw_field_str(w, "kind", 1, x->kind);
		rl_jw_key(w, "region", 0);
		if (x->region)
			rl_jw_str(w, x->region);
		else
			rl_jw_raw(w, "null");
		rl_jw_field_u64(w, "tid", 0, x->tid);
		rl_jw_field_str(w, "message", 0, x->message);
		rl_jw_raw(w, "}");
	}
	rl_jw_raw(w, "]");
}

int rl_results_write_fd(int fd, const struct rl_process_results *r)
{
	struct rl_jw w;
	rl_jw_init(&w, fd_sink, &fd);

	rl_jw_raw(&w, "{");
	rl_jw_key(&w, "format", 1);
	rl_jw_str(&w, RL_RESULTS_FORMAT);
	rl_jw_key(&w, "version", 0);
	rl_jw_i64(&w, RL_RESULTS_VERSION);
	rl_jw_key(&w, "pid", 0);
	rl_jw_i64(&w, r->pid);
	rl_jw_key(&w, "ppid", 0);
	rl_jw_i64(&w, r->ppid);
	if (r->run_id[0]) {
		rl_jw_key(&w, "run_id", 0);
		rl_jw_str(&w, r->run_id);
	}
	rl_jw_key(&w, "program", 0);
	rl_jw_str(&w, r->program);
	rl_jw_key(&w, "backend", 0);
	rl_jw_str(&w, r->backend);
	rl_jw_key(&w, "backend_note", 0);
	rl_jw_str(&w, r->backend_note);
	rl_jw_key(&w, "start_ns", 0);
	rl_jw_u64(&w, r->start_ns);
	rl_jw_key(&w, "end_ns", 0);
	rl_jw_u64(&w, r->end_ns);
	rl_jw_key(&w, "complete", 0);
	rl_jw_raw(&w, r->complete ? "true" : "false");
	rl_jw_key(&w, "signal", 0);
	rl_jw_i64(&w, r->signal);
	if (r->clock_reads_counted) { /* a region left out read none */
		rl_jw_key(&w, "clock_reads_counted", 0);
		rl_jw_raw(&w, "true");
	}
	if (r->mpi_calls) { /* librlprof-mpi's wrappers were loaded */
		rl_jw_key(&w, "mpi_calls", 0);
		rl_jw_str(&w, r->mpi_calls == RL_MPI_CALLS_IN ? "in" : "out");
	}
	rl_jw_raw(&w, ",\n\"counters\":");
	write_counter_defs(&w, r);
	rl_jw_raw(&w, ",\n\"threads\":");
	write_threads(&w, r);
	rl_jw_raw(&w, ",\n\"warnings\":");
	write_warnings(&w, r);
	rl_jw_raw(&w, "}\n");
	rl_jw_flush(&w);
	return w.failed ? RL_EIO : 0;
}
