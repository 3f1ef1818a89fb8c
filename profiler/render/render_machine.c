/* The machine model as `rlprof probe` prints it (render_machine.c): the
 * table of roofs, doubts, cache levels, compute roofs and ridge points;
 * the same roofs as CSV; the sweeps of --levels. Layout unchanged from
 * when cmd_probe.c printed them. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/csv_cell.h"
#include "machine/machine_file.h"
#include "render/render_machine.h"

static void csv_row(FILE *o, const char *roof, const char *kind, const char *prec,
		    unsigned threads, double value, const char *unit,
		    const char *method)
{
	rl_csv_text(o, roof);
	fprintf(o, ",%s,%s,%u,%.1f,%s,", kind, prec, threads, value, unit);
	rl_csv_text(o, method);
	fputc('\n', o);
}

void rl_render_machine_csv(FILE *o, const struct rl_machine *m)
{
	char method[192];
	fputs("roof,kind,precision,threads,value,unit,method\n", o);
	for (size_t i = 0; i < m->n_bw; i++) {
		const struct rl_bw_roof *b = &m->bw[i];
		csv_row(o, b->level, "bandwidth", "", b->threads, b->stream_gbs,
			"GB/s", b->method);
		snprintf(method, sizeof method,
			 "stream x 32/24: write-allocate counted (%s)", b->method);
		csv_row(o, b->level, "bandwidth-moved", "", b->threads,
			b->moved_gbs, "GB/s", method);
		if (b->nt_gbs > 0) {
			snprintf(method, sizeof method,
				 "triad non-temporal stores 24 B/elem (%s)",
				 b->method);
			csv_row(o, b->level, "bandwidth-nt", "", b->threads,
				b->nt_gbs, "GB/s", method);
		}
		if (b->read_gbs > 0) {
			snprintf(method, sizeof method,
				 "read-only stream, bytes read (%s)", b->method);
			csv_row(o, b->level, "bandwidth-read", "", b->threads,
				b->read_gbs, "GB/s", method);
		}
		if (b->write_gbs > 0) {
			snprintf(method, sizeof method,
				 "fill, plain stores: written + write-allocate "
				 "bytes (%s)", b->method);
			csv_row(o, b->level, "bandwidth-write", "", b->threads,
				b->write_gbs, "GB/s", method);
		}
		if (b->write_nt_gbs > 0) {
			snprintf(method, sizeof method,
				 "fill, non-temporal stores: bytes written (%s)",
				 b->method);
			csv_row(o, b->level, "bandwidth-write-nt", "", b->threads,
				b->write_nt_gbs, "GB/s", method);
		}
		if (b->update_gbs > 0) {
			snprintf(method, sizeof method,
				 "in-place update a += s*b: bytes moved, no "
				 "write-allocate (%s)",
				 b->method);
			csv_row(o, b->level, "bandwidth-update", "", b->threads,
				b->update_gbs, "GB/s", method);
		}
	}
	for (size_t i = 0; i < m->n_compute; i++) {
		const struct rl_compute_roof *c = &m->compute[i];
		char kind[32];
		if (!strcmp(c->kind, "peak"))
			snprintf(kind, sizeof kind, "compute");
		else
			snprintf(kind, sizeof kind, "compute-%s", c->kind);
		csv_row(o, c->name, kind, c->precision, c->threads, c->gflops,
			"GFLOP/s", c->method);
		if (strcmp(c->kind, "peak") || !(c->theoretical_gflops > 0))
			continue;
		snprintf(method, sizeof method,
			 "%u core%s x %.2f GHz (scalar clock: dependent integer "
			 "adds alone) x units x lanes x 2",
			 c->threads, c->threads > 1 ? "s" : "", m->clock_ghz);
		csv_row(o, c->name, "theoretical", c->precision, c->threads,
			c->theoretical_gflops, "GFLOP/s", method);
		if (!(c->theoretical_load_gflops > 0))
			continue;
		snprintf(method, sizeof method,
			 "%u core%s x %.2f GHz (clock under %s load: dependent "
			 "integer adds beside fma chains on as many cores) x "
			 "units x lanes x 2",
			 c->threads, c->threads > 1 ? "s" : "",
			 c->load_clock_ghz, c->name);
		csv_row(o, c->name, "theoretical-load", c->precision, c->threads,
			c->theoretical_load_gflops, "GFLOP/s", method);
	}
}

static const struct rl_compute_roof *
find(const struct rl_machine *m, const char *name, const char *kind,
     const char *prec, unsigned threads)
{
	for (size_t i = 0; i < m->n_compute; i++) {
		const struct rl_compute_roof *c = &m->compute[i];
		if (!strcmp(c->name, name) && !strcmp(c->kind, kind) &&
		    !strcmp(c->precision, prec) && c->threads == threads)
			return c;
	}
	return NULL;
}

static void cell(FILE *o, double v, const char *fmt)
{
	if (v > 0)
		fprintf(o, fmt, v);
	else
		fprintf(o, "%9s", "-");
}

/* The peaks against the theoretical figure at both clocks: the scalar
 * one (dependent adds alone) and the one under the ISA's FMA load. */
static void print_load_clock(FILE *o, const struct rl_machine *m)
{
	int head = 0;
	for (size_t i = 0; i < m->n_compute; i++) {
		const struct rl_compute_roof *c = &m->compute[i];
		if (strcmp(c->kind, "peak") || !(c->theoretical_gflops > 0) ||
		    !(c->gflops > 0))
			continue;
		if (!head++)
			fprintf(o, "\nmeasured / theoretical at the scalar clock and "
			       "at the clock under the ISA's FMA load\n");
		fprintf(o, "%-11s %-4s %u core%s %7.1f: at %.2f GHz (scalar "
		       "clock) %3.0f%%",
		       c->name, c->precision, c->threads,
		       c->threads > 1 ? "s" : " ", c->gflops, m->clock_ghz,
		       100 * c->gflops / c->theoretical_gflops);
		if (c->theoretical_load_gflops > 0)
			fprintf(o, "; at %.2f GHz (clock under %s load) %3.0f%%",
			       c->load_clock_ghz, c->name,
			       100 * c->gflops / c->theoretical_load_gflops);
		else
			fprintf(o, "; clock under load not measured");
		fputc('\n', o);
	}
}

static void size_cell(FILE *o, uint64_t bytes)
{
	char h[32];
	if (!bytes)
		snprintf(h, sizeof h, "-");
	else if (bytes >= (1u << 20))
		snprintf(h, sizeof h, "%.3g MiB", bytes / 1048576.0);
	else
		snprintf(h, sizeof h, "%.3g KiB", bytes / 1024.0);
	fprintf(o, " %10s", h);
}

static void print_cache_levels(FILE *o, const struct rl_machine *m)
{
	if (!m->n_levels)
		return;
	fprintf(o, "\ncache levels: claimed (per instance) and effective (where "
	       "the triad bandwidth has fallen\nhalfway to the next level's: "
	       "one thread, and summed over %u threads; - not seen)\n",
	       m->cores);
	fprintf(o, "%-6s %10s %5s %5s %7s %-7s %10s %10s\n", "level", "claimed",
	       "ways", "line", "shared", "source", "effective", "all");
	for (size_t i = 0; i < m->n_levels; i++) {
		const struct rl_cache_level *l = &m->levels[i];
		fprintf(o, "%-6s", l->level);
		size_cell(o, l->claimed_bytes);
		if (l->ways)
			fprintf(o, " %5u", l->ways);
		else
			fprintf(o, " %5s", "-");
		if (l->line_bytes)
			fprintf(o, " %5u", l->line_bytes);
		else
			fprintf(o, " %5s", "-");
		if (l->shared_cpus)
			fprintf(o, " %7u", l->shared_cpus);
		else
			fprintf(o, " %7s", "-");
		fprintf(o, " %-7s", l->source);
		size_cell(o, l->effective_bytes);
		size_cell(o, l->effective_all_bytes);
		fputc('\n', o);
	}
	for (size_t i = 0; i < m->n_levels; i++)
		if (m->levels[i].note[0])
			fprintf(o, "%s: %s\n", m->levels[i].level, m->levels[i].note);
}

/* Roofs kept in doubt, each with its reason (the probe measured them
 * again and they stayed). */
static void print_doubts(FILE *o, const struct rl_machine *m)
{
	int head = 0;
	for (size_t i = 0; i < m->n_bw; i++) {
		const struct rl_bw_roof *b = &m->bw[i];
		if (!b->doubt[0])
			continue;
		if (!head++)
			fprintf(o, "in doubt (measured again, kept; the report's "
			       "self-check names them):\n");
		fprintf(o, "  %s %u thread%s: %s\n", b->level, b->threads,
		       b->threads > 1 ? "s" : "", b->doubt);
	}
	/* compute roofs share their reason (the core's rate around them):
	 * one line per reason, not one per roof */
	for (size_t i = 0; i < m->n_compute; i++) {
		const char *why = m->compute[i].doubt;
		int seen = 0;
		size_t n = 0;
		for (size_t k = 0; k < m->n_compute; k++)
			if (!strcmp(m->compute[k].doubt, why)) {
				seen |= k < i;
				n++;
			}
		if (!why[0] || seen)
			continue;
		if (!head++)
			fprintf(o, "in doubt (measured again, kept; the report's "
			       "self-check names them):\n");
		fprintf(o, "  %zu compute roof%s: %s\n", n, n > 1 ? "s" : "", why);
	}
}

void rl_render_machine_table(FILE *o, const struct rl_machine *m,
			     const char *path,
			     const struct rl_ridge_set *ridges)
{
	unsigned T = m->cores;
	if (m->clock_ghz > 0)
		fprintf(o, "%s, %u CPUs, %.1f GiB; clock %.2f GHz measured "
		       "(dependent integer adds), %.2f nominal\n",
		       m->cpu_model, m->cores, m->mem_bytes / 1073741824.0,
		       m->clock_ghz, m->nominal_ghz);
	else
		fprintf(o, "%s, %u CPUs, %.1f GiB; clock not measured\n",
		       m->cpu_model, m->cores, m->mem_bytes / 1073741824.0);
	fprintf(o, "caches %s\n", m->caches);
	fprintf(o, "probed %s in %.1f s%s", m->probed_at, m->probe_seconds,
	       m->quick ? " (--quick)" : "");
	if (m->loadavg1 >= 0)
		fprintf(o, ", load average %.2f", m->loadavg1);
	fprintf(o, "%s%s\n\n", path ? ", cached in " : "", path ? path : "");

	const char *const *levels = rl_ridge_levels;
	fprintf(o, "bandwidth (GB/s): triad 24 B/elem, moved = x 32/24 with "
	       "write-allocate, nt = non-temporal stores;\n"
	       "read-only stream; fill = plain stores, write-allocate "
	       "counted; fill nt = non-temporal stores;\n"
	       "update = a += s*b in place (daxpy's access), bytes moved\n");
	fprintf(o, "%-6s %-7s %9s %9s %9s %9s %9s %9s %9s\n", "level", "threads",
	       "triad", "moved", "nt", "read", "fill", "fill nt", "update");
	for (size_t l = 0; l < RL_RIDGE_LEVELS; l++) {
		int rows = T > 1 ? 2 : 1; /* 1 thread, then all threads */
		for (int all = 0; all < rows; all++) {
			const struct rl_bw_roof *b = NULL;
			for (size_t i = 0; i < m->n_bw; i++)
				if (!strcmp(m->bw[i].level, levels[l]) &&
				    m->bw[i].threads == (all ? T : 1))
					b = &m->bw[i];
			if (!b)
				continue;
			fprintf(o, "%-6s %-7u", levels[l], b->threads);
			cell(o, b->stream_gbs, " %9.1f");
			cell(o, b->moved_gbs, " %9.1f");
			cell(o, b->nt_gbs, " %9.1f");
			cell(o, b->read_gbs, " %9.1f");
			cell(o, b->write_gbs, " %9.1f");
			cell(o, b->write_nt_gbs, " %9.1f");
			cell(o, b->update_gbs, " %9.1f");
			fputc('\n', o);
		}
	}
	print_doubts(o, m);
	print_cache_levels(o, m);
	if (!m->n_compute)
		return;

	fprintf(o, "\ncompute (GFLOP/s): plateau of K independent chains; "
	       "theoretical (all cores) = cores x GHz x units x lanes x 2\n");
	fprintf(o, "%-11s %-12s %-4s %9s %9s %11s %6s %6s %6s %8s\n", "isa",
	       "kind", "prec", "1 core", T > 1 ? "all" : "", "theoretical",
	       "1c %", T > 1 ? "all %" : "", "chains", "latency");
	for (size_t i = 0; i < m->n_compute; i++) {
		const struct rl_compute_roof *c = &m->compute[i];
		if (c->threads != 1)
			continue;
		const struct rl_compute_roof *ct =
			T > 1 ? find(m, c->name, c->kind, c->precision, T) : NULL;
		const struct rl_compute_roof *top = ct ? ct : c;
		fprintf(o, "%-11s %-12s %-4s", c->name, c->kind, c->precision);
		cell(o, c->gflops, " %9.1f");
		if (T > 1)
			cell(o, ct ? ct->gflops : 0, " %9.1f");
		else
			fprintf(o, " %9s", "");
		if (top->theoretical_gflops > 0)
			fprintf(o, " %11.1f", top->theoretical_gflops);
		else
			fprintf(o, " %11s", "-");
		if (c->theoretical_gflops > 0)
			fprintf(o, " %5.0f%%", 100 * c->gflops / c->theoretical_gflops);
		else
			fprintf(o, " %6s", "-");
		if (ct && ct->theoretical_gflops > 0)
			fprintf(o, " %5.0f%%",
			       100 * ct->gflops / ct->theoretical_gflops);
		else
			fprintf(o, " %6s", T > 1 ? "-" : "");
		fprintf(o, " %6u", c->chains);
		if (c->latency_cycles > 0)
			fprintf(o, " %6.1f c", c->latency_cycles);
		fputc('\n', o);
	}

	print_load_clock(o, m);

	fprintf(o, "\nridge points (flop/B = peak / triad bandwidth, %u core%s)\n",
	       T, T > 1 ? "s" : "");
	for (int f32 = 0; f32 < 2; f32++) {
		const struct rl_compute_roof *p = ridges->peak[f32];
		if (!p)
			continue;
		fprintf(o, "%s %s %.1f GFLOP/s:", f32 ? "f32" : "f64", p->name,
			p->gflops);
		for (size_t l = 0; l < RL_RIDGE_LEVELS; l++) {
			const struct rl_bw_roof *b = ridges->bw[l];
			if (b)
				fprintf(o, "  %s %.2f", rl_ridge_levels[l],
				       rl_ridge(p->gflops, b->stream_gbs));
		}
		fputc('\n', o);
	}
}

void rl_render_probe_sweeps(FILE *o, const struct rl_probe_extra *x)
{
	for (size_t s = 0; s < x->n_sweeps; s++) {
		const struct rl_probe_sweep *sw = &x->sweeps[s];
		fprintf(o, "\ntriad sweep, %u thread%s (working set per thread, GB/s "
		       "per thread)\n", sw->threads, sw->threads > 1 ? "s" : "");
		for (size_t i = 0; i < sw->n; i++)
			fprintf(o, "  %10.1f KiB %9.1f  %s\n",
			       sw->pts[i].bytes / 1024.0, sw->pts[i].gbs,
			       sw->level[i][0] ? sw->level[i] : "(transition)");
	}
}
