/*
 * report.html: one self-contained page (no network, opens from disk): the
 * roofline chart inline (render_svg.c), a sortable table of regions with
 * per-thread rows in <details>, the machine model and how each roof and
 * counter was measured, the warnings. Every user string is escaped; the
 * small inline script only sorts the table and reads no user data.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/counter_ids.h"
#include "analysis/report_pack.h"
#include "render/render.h"
#include "render/render_loops.h"
#include "render/render_ranks.h"
#include "common/rl_error.h"
#include "render/svg_chart.h"

static const char css[] =
	"body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;"
	"margin:24px;color:#111;font-size:14px}\n"
	"h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;"
	"border-bottom:1px solid #ccc}\n"
	".run{color:#444;margin:0 0 12px}code{font-size:13px}\n"
	"table{border-collapse:collapse;font-size:12.5px}\n"
	"th,td{border:1px solid #ddd;padding:3px 6px;text-align:right;"
	"vertical-align:top}\n"
	"td.t,th.t{text-align:left}td.diag{text-align:left;min-width:220px}\n"
	/* fits the window (1400 px and up, with no sideways scroll): a
	 * name, method or diagnosis without a space (a demangled C++ loop)
	 * breaks anywhere, numbers never */
	"td.t b,td.diag,td.warn,.method,dd,code,pre{overflow-wrap:anywhere}\n"
	"pre{white-space:pre-wrap}table{max-width:100%}\n"
	"#rl-regions thead th{background:#f2f2f2;cursor:pointer;"
	"position:sticky;top:0;user-select:none}\n"
	"#rl-regions thead th[aria-sort=ascending]::after{content:' \\25B2'}\n"
	"#rl-regions thead th[aria-sort=descending]::after{content:' \\25BC'}\n"
	"tr.summed:hover{background:#f7f7ff}\n"
	"tr.threads td{border-top:none;background:#fafafa;text-align:left}\n"
	"details summary{cursor:pointer;color:#335}\n"
	".warn{color:#a40}.muted{color:#777}.method{font-size:11.5px;color:#444;"
	"text-align:left;max-width:280px}\n"
	".chart svg{max-width:100%;height:auto;border:1px solid #eee}\n"
	".region.hl circle,.region.hl rect,.region.hl path{stroke:#000;"
	"stroke-width:3}\n"
	"dl{display:grid;grid-template-columns:max-content auto;gap:2px 14px}"
	"dt{color:#555}dd{margin:0}\n"
	"pre.src{background:#f8f8f8;padding:4px 8px;font-size:12px}"
	"pre.src .here{font-weight:bold;background:#fff3c4}\n";

static const char script[] =
	"(function(){\n"
	"var t=document.getElementById('rl-regions');if(!t)return;\n"
	"var ths=t.tHead.rows[0].cells;\n"
	"function key(b,i){var v=b.rows[0].cells[i].getAttribute('data-v');"
	"return v===null?'':v;}\n"
	"function sortBy(i){var th=ths[i];"
	"var asc=th.getAttribute('aria-sort')!=='ascending';\n"
	"for(var k=0;k<ths.length;k++)ths[k].removeAttribute('aria-sort');\n"
	"th.setAttribute('aria-sort',asc?'ascending':'descending');\n"
	"var num=th.getAttribute('data-type')==='num';\n"
	"var bs=Array.prototype.slice.call(t.tBodies);\n"
	"bs.sort(function(a,b){var x=key(a,i),y=key(b,i);\n"
	"if(num){if(x===''||y==='')return (x==='')-(y==='');"
	"x=parseFloat(x);y=parseFloat(y);return asc?x-y:y-x;}\n"
	"return asc?x.localeCompare(y):y.localeCompare(x);});\n"
	"bs.forEach(function(b){t.appendChild(b);});}\n"
	"for(var i=0;i<ths.length;i++)ths[i].addEventListener('click',"
	"sortBy.bind(null,i));\n"
	/* report.html#sort=3 or #sort=3d opens sorted by column 3 */
	"var m=/sort=(\\d+)(d?)/.exec(location.hash);\n"
	"if(m&&ths[+m[1]]){sortBy(+m[1]);if(m[2])sortBy(+m[1]);}\n"
	/* hovering a table row rings its point in the chart */
	"function hl(n,on){var g=document.querySelector("
	"'svg .region[data-index=\"'+n+'\"]');if(g)g.classList.toggle('hl',on);}\n"
	"Array.prototype.forEach.call(t.tBodies,function(b){"
	"var n=b.getAttribute('data-index');"
	"b.addEventListener('mouseenter',function(){hl(n,true);});"
	"b.addEventListener('mouseleave',function(){hl(n,false);});});\n"
	"t.setAttribute('data-sortable','1');\n"
	"})();\n";

static void esc(FILE *out, const char *s)
{
	rl_xml_escape(out, s ? s : "");
}

/* <td> holding a number, data-v for sorting, "-" when unknown. */
static void td_num(FILE *out, double v, const char *fmt)
{
	char buf[48];
	if (!rl_known(v) || !isfinite(v)) { /* inf: a sum that overflowed */
		fputs("<td data-v=\"\" class=\"muted\">-</td>", out);
		return;
	}
	if (fmt)
		snprintf(buf, sizeof buf, fmt, v);
	else
		rl_chart_num(buf, sizeof buf, v);
	fprintf(out, "<td data-v=\"%.17g\">%s</td>", v, buf);
}

static void td_text(FILE *out, const char *cls, const char *s)
{
	fprintf(out, "<td class=\"%s\" data-v=\"", cls);
	esc(out, s);
	fputs("\">", out);
	esc(out, s);
	fputs("</td>", out);
}

static const char *bound_name(enum rl_bound b)
{
	return b == RL_BOUND_MEMORY ? "memory" : b == RL_BOUND_COMPUTE ? "compute"
								   : "-";
}

static void td_bound(FILE *out, const struct rl_region_row *row)
{
	fprintf(out, "<td class=\"t\" data-v=\"%s\">%s", bound_name(row->bound),
		bound_name(row->bound));
	if (row->basis == RL_BASIS_DECLARED)
		fputs(" <span class=\"muted\">(declared)</span>", out);
	fputs("</td>", out);
	char buf[32];
	if (!rl_known(row->roof_pct) || !isfinite(row->roof_pct)) {
		fputs("<td data-v=\"\" class=\"muted\">-</td>", out);
		return;
	}
	fprintf(out, "<td data-v=\"%.17g\">%s%%", row->roof_pct,
		rl_chart_num(buf, sizeof buf, row->roof_pct));
	if (row->roof_label || row->bound_roof) {
		fputs(" <span class=\"muted\">of ", out);
		esc(out, row->roof_label ? row->roof_label : row->bound_roof);
		fputs("</span>", out);
	}
	if (row->ceiling && row->bound == RL_BOUND_MEMORY) {
		fputs(" <span class=\"muted\">(ceiling ", out);
		esc(out, row->ceiling);
		fputs(")</span>", out);
	}
	if (row->check) {
		fputs(" <span class=\"warn check\" title=\"", out);
		esc(out, row->check);
		fputs("\">above its roof</span>", out);
	}
	fputs("</td>", out);
}

static double ratio(double a, double b)
{
	return rl_known(a) && rl_known(b) && b > 0 ? a / b : NAN;
}

static void figures(FILE *out, const struct rl_region_row *row)
{
	fprintf(out, "<td data-v=\"%llu\">%llu</td>",
		(unsigned long long)row->calls, (unsigned long long)row->calls);
	td_num(out, row->time_s, "%.4g");
	td_num(out, row->gflops, NULL);
	td_num(out, row->gbs, NULL);
	td_num(out, row->ai, NULL);
	td_num(out, row->ai_expected, NULL);
	td_num(out, ratio(row->ai, row->ai_expected), "%.2f");
	td_bound(out, row);
}

static void td_backend(FILE *out, const struct rl_report *r,
		       const struct rl_region_row *row)
{
	fputs("<td class=\"method\" data-v=\"", out);
	esc(out, r->backend);
	fputs("\"><b>", out);
	esc(out, r->backend ? r->backend : "?");
	fputs("</b>", out);
	if (row->simulated)
		fputs(row->time_native ? " simulated, native time" : " simulated",
		      out);
	if (row->has_system_wide)
		fputs(" <span class=\"warn\">system-wide</span>", out);
	if (row->has_proxy)
		fputs(" proxy", out);
	if (rl_known(row->scaled_ratio) && row->scaled_ratio < 1)
		fprintf(out, " <span class=\"warn\">multiplexed, counted %.0f%% of "
			"the time</span>", 100 * row->scaled_ratio);
	if (row->method && *row->method) {
		fputs("<details><summary>method</summary>", out);
		esc(out, row->method);
		fputs("</details>", out);
	}
	fputs("</td>", out);
}

static void td_warnings(FILE *out, const struct rl_report *r,
			const struct rl_region_row *row)
{
	fputs("<td class=\"t warn\">", out);
	for (size_t k = 0; k < row->warn_count; k++) {
		const struct rl_warning *w =
			&r->warnings[r->row_warnings[row->warn_first + k]];
		if (k)
			fputs("<br>", out);
		esc(out, w->message);
	}
	fputs("</td>", out);
}

static void thread_table(FILE *out, const struct rl_report *r,
			 const struct rl_region_row *summed)
{
	size_t n = summed->thread_count;
	if (n < 2) /* one thread: the same figures as the region's row */
		return;
	fprintf(out, "<tr class=\"threads\"><td colspan=\"13\"><details><summary>"
		"per thread (%zu)</summary><table><thead><tr><th>pid</th><th>tid"
		"</th><th>calls</th><th>time (s)</th><th>GFLOP/s</th><th>GB/s</th>"
		"<th>AI counted</th><th>AI declared</th><th>ratio</th><th>bound</th>"
		"<th>%% of roof</th><th class=\"t\">diagnosis</th></tr></thead>"
		"<tbody>\n", n);
	for (size_t i = summed->thread_first;
	     i < summed->thread_first + summed->thread_count; i++) {
		struct rl_region_row buf;
		const struct rl_region_row *row = rl_report_row(r, i, &buf);
		fprintf(out, "<tr class=\"thread\"><td>%ld</td><td>%llu</td>",
			row->pid, (unsigned long long)row->tid);
		figures(out, row);
		td_text(out, "diag", row->diagnosis);
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table></details></td></tr>\n", out);
}

/* Regions the table lists at most: a page of 10^5 regions (250 MB at
 * 2 threads) is more than a browser opens; report.json and report.csv
 * keep every one. */
#define RL_HTML_MAX_REGIONS 2000

static int cmp_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* The time at or above which a summed row is listed (the longest
 * RL_HTML_MAX_REGIONS; -1: all), and how many rows that lists at most. */
static double listed_from(const struct rl_report *r)
{
	double *t, cut;

	if (r->n_summed <= RL_HTML_MAX_REGIONS ||
	    !(t = malloc(r->n_summed * sizeof *t)))
		return -1;
	for (size_t i = 0; i < r->n_summed; i++) {
		struct rl_region_row buf;
		t[i] = rl_report_row(r, i, &buf)->time_s;
	}
	qsort(t, r->n_summed, sizeof *t, cmp_desc);
	cut = t[RL_HTML_MAX_REGIONS - 1];
	free(t);
	return cut;
}

static void regions_table(FILE *out, const struct rl_report *r)
{
	double from = listed_from(r);
	size_t listed = 0;

	static const struct {
		const char *name, *type;
	} cols[] = {
		{"region", "text"},   {"calls", "num"},      {"time (s)", "num"},
		{"GFLOP/s", "num"},   {"GB/s", "num"},       {"AI counted", "num"},
		{"AI declared", "num"}, {"counted / declared", "num"},
		{"bound", "text"},    {"% of roof", "num"},  {"backend, method", "text"},
		{"diagnosis", "text"}, {"warnings", "text"},
	};
	fputs("<h2>Regions</h2>\n<p class=\"muted\">Click a header to sort. "
	      "AI in flop/byte; counted bytes are DRAM traffic as the "
	      "hardware moves it, declared ones come from RL_REGION_EXPECT. "
	      "\"-\" = not measured.</p>\n<table id=\"rl-regions\"><thead><tr>",
	      out);
	for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++)
		fprintf(out, "<th data-type=\"%s\"%s>%s</th>", cols[i].type,
			strcmp(cols[i].type, "text") == 0 ? " class=\"t\"" : "",
			cols[i].name);
	fputs("</tr></thead>\n", out);
	for (size_t i = 0; i < r->n_summed; i++) {
		struct rl_region_row row_buf;
		const struct rl_region_row *row =
			rl_report_row(r, i, &row_buf);
		if (from >= 0 &&
		    (listed == RL_HTML_MAX_REGIONS || !(row->time_s >= from)))
			continue;
		listed++;
		fprintf(out, "<tbody class=\"rl-region\" data-index=\"%zu\">"
			"<tr class=\"summed\">", i + 1);
		fprintf(out, "<td class=\"t\" data-v=\"");
		esc(out, row->region);
		fprintf(out, "\"><span class=\"muted\">%zu</span> <b>", i + 1);
		esc(out, row->region);
		fputs("</b>", out);
		if (row->precision) {
			fputs(" <span class=\"muted\">", out);
			esc(out, row->precision);
			fputs("</span>", out);
		}
		if (row->n_threads > 1)
			fprintf(out, " <span class=\"muted\">%u threads</span>",
				row->n_threads);
		fputs("</td>", out);
		figures(out, row);
		td_backend(out, r, row);
		td_text(out, "diag", row->diagnosis);
		td_warnings(out, r, row);
		fputs("</tr>\n", out);
		thread_table(out, r, row);
		fputs("</tbody>\n", out);
	}
	fputs("</table>\n", out);
	if (from >= 0)
		fprintf(out, "<p class=\"warn\">%zu of %zu regions listed: the "
			"longest by time. report.json and report.csv have every "
			"region.</p>\n", listed, r->n_summed);
}

static void machine_section(FILE *out, const struct rl_machine *m)
{
	char a[32], b[32], c[32];
	fputs("<h2>Machine</h2>\n", out);
	if (!m) {
		fputs("<p class=\"warn\">no machine model: run rlprof probe</p>\n",
		      out);
		return;
	}
	fputs("<dl><dt>CPU</dt><dd>", out);
	esc(out, m->cpu_model);
	fprintf(out, "</dd><dt>ISA</dt><dd>");
	esc(out, m->isa);
	fprintf(out, "</dd><dt>logical CPUs</dt><dd>%u</dd><dt>clock</dt><dd>"
		"%s GHz measured (dependent add chain), %s GHz nominal</dd>",
		m->cores, rl_chart_num(a, sizeof a, m->clock_ghz),
		m->nominal_ghz > 0 ? rl_chart_num(b, sizeof b, m->nominal_ghz) : "?");
	fprintf(out, "<dt>memory</dt><dd>%.1f GiB</dd><dt>caches</dt><dd>",
		(double)m->mem_bytes / (1024.0 * 1024 * 1024));
	esc(out, m->caches);
	fputs("</dd><dt>probed</dt><dd>", out);
	esc(out, m->probed_at);
	fprintf(out, "%s, %s s</dd></dl>\n", m->quick ? " (quick)" : "",
		rl_chart_num(a, sizeof a, m->probe_seconds));

	fputs("<h3>Bandwidth roofs</h3>\n<table><thead><tr><th class=\"t\">level"
	      "</th><th>threads</th><th>moved GB/s (32 B/elem)</th><th>stream "
	      "GB/s (24 B/elem)</th><th>non-temporal GB/s</th><th>spread %</th>"
	      "<th>working set</th><th class=\"t\">method</th></tr></thead><tbody>\n",
	      out);
	for (size_t i = 0; i < m->n_bw && i < RL_MACHINE_MAX_BW; i++) {
		const struct rl_bw_roof *w = &m->bw[i];
		fputs("<tr>", out);
		td_text(out, "t", w->level);
		fprintf(out, "<td>%u</td>", w->threads);
		td_num(out, w->moved_gbs, NULL);
		td_num(out, w->stream_gbs, NULL);
		td_num(out, w->nt_gbs > 0 ? w->nt_gbs : NAN, NULL);
		td_num(out, w->spread_pct, "%.1f");
		if (!w->working_set_bytes)
			fputs("<td class=\"muted\">-</td>", out);
		else if (w->working_set_bytes < 1024 * 1024) /* L1: KiB */
			fprintf(out, "<td>%.1f KiB</td>",
				(double)w->working_set_bytes / 1024.0);
		else
			fprintf(out, "<td>%.1f MiB</td>",
				(double)w->working_set_bytes / (1024.0 * 1024));
		td_text(out, "method", w->method);
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n<h3>Compute roofs</h3>\n<table><thead><tr>"
	      "<th class=\"t\">ISA</th><th class=\"t\">kind</th><th>precision</th>"
	      "<th>threads</th><th>GFLOP/s measured</th><th>theoretical</th>"
	      "<th>chains</th><th>FMA latency (cycles)</th><th class=\"t\">method"
	      "</th></tr></thead><tbody>\n", out);
	for (size_t i = 0; i < m->n_compute && i < RL_MACHINE_MAX_COMPUTE; i++) {
		const struct rl_compute_roof *k = &m->compute[i];
		fputs("<tr>", out);
		td_text(out, "t", k->name);
		td_text(out, "t", k->kind);
		td_text(out, "", k->precision);
		fprintf(out, "<td>%u</td>", k->threads);
		td_num(out, k->gflops, NULL);
		td_num(out, k->theoretical_gflops > 0 ? k->theoretical_gflops : NAN,
		       NULL);
		snprintf(c, sizeof c, "%u", k->chains);
		fprintf(out, "<td>%s</td>", k->chains ? c : "-");
		td_num(out, k->latency_cycles > 0 ? k->latency_cycles : NAN, "%.1f");
		td_text(out, "method", k->method);
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
}

static void counters_section(FILE *out, const struct rl_report *r)
{
	fputs("<h2>How each figure was counted</h2>\n", out);
	if (!r->provided) {
		fputs("<p>No counters: flops and bytes come only from "
		      "RL_REGION_EXPECT declarations; time from the clock.</p>\n",
		      out);
		return;
	}
	fputs("<table><thead><tr><th class=\"t\">counter</th><th class=\"t\">"
	      "scope</th><th class=\"t\">method</th></tr></thead><tbody>\n", out);
	for (int c = 0; c < RL_COUNTER_COUNT; c++) {
		if (!(r->provided & (UINT64_C(1) << c)))
			continue;
		fputs("<tr>", out);
		td_text(out, "t", rl_counter_name((enum rl_counter)c));
		td_text(out, "t", rl_scope_name((enum rl_scope)r->scope[c]));
		td_text(out, "method", r->method[c] ? r->method[c] : "");
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
}

/* Warnings listed at most (one per region and thread can be 10^5); the
 * rest are counted, and all are in report.json. */
#define HTML_MAX_WARNINGS 500

static void warnings_section(FILE *out, const struct rl_report *r)
{
	size_t n = r->n_warnings < HTML_MAX_WARNINGS ? r->n_warnings
						     : HTML_MAX_WARNINGS;

	if (!r->n_warnings)
		return;
	fputs("<h2>Warnings</h2>\n<ul class=\"warn\">\n", out);
	for (size_t i = 0; i < n; i++) {
		fputs("<li>", out);
		esc(out, r->warnings[i].message);
		fputs("</li>\n", out);
	}
	if (n < r->n_warnings)
		fprintf(out, "<li>\xe2\x80\xa6 and %zu more warnings: "
			"report.json has every one</li>\n", r->n_warnings - n);
	fputs("</ul>\n", out);
}

static int render_html(FILE *out, const struct rl_report *r,
		       const struct rl_render_options *opt, char *err,
		       size_t errlen)
{
	(void)opt;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">"
	      "\n<meta name=\"generator\" content=\"rlprof\">\n<title>rlprof "
	      "report", out);
	if (r->command) {
		fputs(": ", out);
		esc(out, r->command);
	}
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>rlprof "
		"roofline report</h1>\n<p class=\"run\">", css);
	if (r->command) {
		fputs("command <code>", out);
		esc(out, r->command);
		fprintf(out, "</code>, exit status %d \xc2\xb7 ", r->exit_status);
	}
	/* one line: what ran and the backend; why that backend, the
	 * simulator's note and --count-with folded under it */
	fputs("backend <b>", out);
	esc(out, r->backend ? r->backend : "?");
	fputs("</b></p>\n", out);
	if ((r->backend_reason && *r->backend_reason) ||
	    (r->backend_note && *r->backend_note) || r->count_with) {
		fputs("<details class=\"run\"><summary>how it was measured"
		      "</summary>\n", out);
		if (r->backend_reason && *r->backend_reason) {
			fputs("<p>backend: ", out);
			esc(out, r->backend_reason);
			fputs("</p>\n", out);
		}
		if (r->backend_note && *r->backend_note) {
			fputs("<p>note: ", out);
			esc(out, r->backend_note);
			fputs("</p>\n", out);
		}
		if (r->count_with) {
			char cw[RL_COUNT_WITH_TEXT_MAX];
			rl_report_count_with_text(cw, sizeof cw, r);
			fputs("<p>", out);
			esc(out, cw);
			fputs("</p>\n", out);
		}
		fputs("</details>\n", out);
	}
	fputs("<div class=\"chart\">\n", out);
	int rc = rl_svg_write_chart(out, r, 0, err, errlen);
	if (rc)
		return rc;
	fputs("</div>\n", out);
	regions_table(out, r);
	rl_loops_html(out, r);
	rl_ranks_html(out, r);
	machine_section(out, r->machine);
	counters_section(out, r);
	warnings_section(out, r);
	fprintf(out, "<script>\n%s</script>\n</body>\n</html>\n", script);
	if (ferror(out))
		return rl_fail(err, errlen, RL_EIO, "cannot write the html report: %s",
			       rl_strerror(RL_EIO));
	return 0;
}

const struct rl_renderer rl_renderer_html = {"html", "report.html",
					     render_html};
