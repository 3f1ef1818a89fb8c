/*
 * rlprof run, after the program: results (or one synthesised process when
 * none appeared), the machine model, the table on stdout and the report
 * files in DIR.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "machine/machine_stored.h"
#include "render/render.h"
#include "cli/render_file.h"
#include "analysis/report.h"
#include "cli/run/run.h"
#include "common/shell_quote.h"
#include "common/term_color.h"
#include "common/term_text.h"

/* The parts of the run the report reads. */
struct report_in {
	const struct rl_run_options *opt;
	const struct rl_run_target *target;
	const struct rl_run_outcome *outcome;
	const struct rl_run_place *place;
	const struct rl_run_setup *setup;
	const struct rl_run_backend *backend;
	const struct rl_roof_check *roof_check;
	const struct rl_run_model *model;
	bool no_files;  /* DIR unusable after the run: table only */
	bool no_record; /* DIR/run.json could not be written */
};

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

/* Why librlprof left no results file (or why they are not shown: unread,
 * when not NULL, says why they could not be read). */
static void no_results_why(const struct report_in *in, const char *unread,
			   char *buf, size_t len)
{
	int st = in->outcome->wait_status;

	if (unread)
		snprintf(buf, len,
			 "no counts for '%s': its results could not "
			 "be read (%s); only its wall time is shown, by "
			 "rlprof's clock",
			 in->target->name, unread);
	else if (!in->outcome->started)
		snprintf(buf, len,
			 "'%s' could not be started (%s): only "
			 "rlprof's own clock measured the attempt",
			 in->target->name, strerror(in->outcome->spawn_errno));
	else if (in->no_files)
		snprintf(buf, len,
			 "no counts for '%s': its results could not "
			 "be written (the output directory changed while it "
			 "ran); only its wall time was measured, by rlprof's "
			 "clock",
			 in->target->name);
	else if (in->setup->whole_program && in->setup->no_preload_why[0])
		snprintf(buf, len,
			 "no counts for '%s': %s; only its wall time "
			 "was measured, by rlprof's clock (link it with "
			 "librlprof and mark regions to count)",
			 in->target->name, in->setup->no_preload_why);
	else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
		snprintf(buf, len,
			 "no counts for '%s': it was killed by "
			 "SIGKILL (kill -9, or the kernel's out-of-memory "
			 "killer), which no program can catch, so librlprof "
			 "wrote nothing; only its wall time was measured, by "
			 "rlprof's clock; stop a program with SIGTERM or "
			 "Ctrl-C to keep the regions measured so far",
			 in->target->name);
	else if (WIFSIGNALED(st))
		snprintf(buf, len,
			 "no counts for '%s': it died of signal %d "
			 "before librlprof wrote its results; only its wall "
			 "time was measured, by rlprof's clock",
			 in->target->name, WTERMSIG(st));
	else
		snprintf(
			buf, len,
			"no counts for '%s': librlprof wrote no "
			"results file into '%s' (it was not loaded, or the "
			"program left through _exit(), as dash does); only its "
			"wall time was measured, by rlprof's clock",
			in->target->name, in->place->raw_dir);
}

/* The command line as a shell would show it. */
static char *join_argv(char *const *argv, int argc)
{
	size_t len = 1;
	char *s, *p;

	for (int i = 0; i < argc; i++)
		len += rl_shell_quote_len(argv[i]) + 1;
	s = p = malloc(len);
	if (!s)
		return NULL;
	for (int i = 0; i < argc; i++) {
		if (i)
			*p++ = ' ';
		p = rl_shell_quote(p, argv[i]);
	}
	*p = '\0';
	return s;
}

/* One process, one thread, region "<program>", calls 1, rlprof's time. */
static int synthesise(const struct report_in *in, const char *unread,
		      struct rl_run_results *res)
{
	struct rl_process_results *p;
	struct rl_thread_results *t;
	struct rl_region_stats *r;
	char why[PATH_MAX + 2048];

	memset(res, 0, sizeof *res);
	res->exit_status = in->outcome->exit_status;
	res->procs = calloc(1, sizeof *res->procs);
	if (!res->procs)
		return RL_ENOMEM;
	res->n_procs = 1;
	p = res->procs;
	p->version = RL_RESULTS_VERSION;
	p->pid = in->outcome->pid;
	p->ppid = (long)getpid();
	p->program = dup_or_empty(in->target->program);
	p->backend = dup_or_empty("time");
	p->backend_note = dup_or_empty("");
	p->start_ns = in->outcome->start_ns;
	p->end_ns = in->outcome->end_ns;
	/* a program that never started was not cut short either */
	p->complete =
		!in->outcome->started || WIFEXITED(in->outcome->wait_status);
	p->signal =
		in->outcome->started && WIFSIGNALED(in->outcome->wait_status)
			? WTERMSIG(in->outcome->wait_status)
			: 0;
	p->threads = t = calloc(1, sizeof *t);
	p->warnings = calloc(1, sizeof *p->warnings);
	if (!t || !p->warnings)
		return RL_ENOMEM;
	p->n_threads = 1;
	t->tid = (uint64_t)in->outcome->pid;
	t->regions = r = calloc(1, sizeof *r);
	if (!r)
		return RL_ENOMEM;
	t->n_regions = 1;
	r->name = dup_or_empty("<program>");
	r->calls = 1;
	r->time_ns = in->outcome->elapsed_ns;
	r->expected_flops = r->expected_bytes = 0;
	no_results_why(in, unread, why, sizeof why);
	p->n_warnings = 1;
	p->warnings[0].kind = dup_or_empty("backend");
	p->warnings[0].message = dup_or_empty(why);
	res->backend_requested = dup_or_empty(in->opt->backend);
	res->backend_reason = dup_or_empty(in->backend->reason);
	res->command = join_argv(in->opt->argv, in->opt->argc);
	if (!p->program || !p->backend || !p->backend_note || !r->name ||
	    !p->warnings[0].kind || !p->warnings[0].message ||
	    !res->backend_requested || !res->backend_reason || !res->command)
		return RL_ENOMEM;
	return 0;
}

/* What run.json would have said, when it could not be written. */
static int fill_from_run(const struct report_in *in, struct rl_run_results *res)
{
	if (!res->backend_requested &&
	    !(res->backend_requested = dup_or_empty(in->opt->backend)))
		return RL_ENOMEM;
	if (!res->backend_reason &&
	    !(res->backend_reason = dup_or_empty(in->backend->reason)))
		return RL_ENOMEM;
	if (!res->command &&
	    !(res->command = join_argv(in->opt->argv, in->opt->argc)))
		return RL_ENOMEM;
	if (res->exit_status < 0)
		res->exit_status = in->outcome->exit_status;
	return 0;
}

/* The results in DIR. Only when there are none is the run shown as one
 * synthesised '<program>'; results that cannot be read are said so in its
 * warning, and make the return 1 (the report is not the program's).
 * -1: out of memory (said). */
static int load_results(const struct report_in *in, struct rl_run_results *res)
{
	char err[1024];
	const char *unread = NULL;
	int rc;

	if (in->no_files) {
		/* the directory is unusable (already said): nothing to read */
	} else {
		/* a run.json rlprof could not write is not this run's record:
		 * the results do not depend on it */
		rc = rl_results_load_dir_flags(
			in->place->out_dir,
			in->no_record ? RL_LOAD_NO_RUN_RECORD : 0,
			in->place->run_id, res, err, sizeof err);
		if (rc == 0 && res->n_procs > 0) {
			if (!in->no_record || fill_from_run(in, res) == 0)
				return 0;
			goto oom;
		}
		if (rc == 0)
			rl_run_results_release(res);
		else if (rc == RL_ENOMEM)
			goto oom;
		else if (rc != RL_ENOENT)
			unread = err;
	}
	if (synthesise(in, unread, res) == 0)
		return unread ? 1 : 0;
oom:
	fprintf(stderr, "rlprof: out of memory\n");
	rl_run_results_release(res);
	return -1;
}

/* The model run_model.c obtained for the run (cached, else a quick probe
 * after the program unless --no-probe). A copy: the report may replace it
 * with the stored one. */
static const struct rl_machine *copy_machine(const struct report_in *in,
					     struct rl_machine *m)
{
	if (!in->model->machine)
		return NULL;
	*m = *in->model->machine;
	return m;
}

/* No model: the counts and AI stand, every roof is "not measured", and a
 * warning of the report (table, HTML, JSON) says why and what to do. It
 * goes with the first process's warnings, which the report copies. */
static int warn_no_roofs(const struct report_in *in, struct rl_run_results *res)
{
	struct rl_process_results *p = res->n_procs ? &res->procs[0] : NULL;
	char msg[PATH_MAX + 2048];

	snprintf(msg, sizeof msg,
		 "roofs not measured: %s; the counts and arithmetic "
		 "intensities stand, placed against no roof; run 'rlprof "
		 "probe' on a quiet machine, then 'rlprof report %s'",
		 in->model->why[0] ? in->model->why : "no machine model",
		 in->place->out_dir);
	return p ? rl_results_add_warning(p, "roofs", msg) : 0;
}

/* The model goes into DIR beside the results, so that rlprof report DIR
 * places against the same roofs later (whatever rlprof probe --force does
 * to the cache). The report is then built from the stored copy: the
 * table printed now and every later rlprof report agree to the digit. */
static void store_machine(const struct report_in *in, struct rl_machine *m)
{
	struct rl_machine *back;
	char err[1024];

	if (rl_machine_store(in->place->out_dir, m, err, sizeof err)) {
		rl_run_warn("cannot store the machine model with the results "
			    "(%s): rlprof report will use the cached one", err);
		return;
	}
	if (!(back = malloc(sizeof *back)))
		return;
	if (rl_machine_load_stored(in->place->out_dir, back, err,
				   sizeof err) == 0)
		*m = *back;
	free(back);
}

/* Every report file into DIR; -1 when one could not be written. */
static int write_files(const struct report_in *in, const struct rl_report *rep,
		       const struct rl_render_options *ropt)
{
	char written[512] = "";
	int failed = 0;

	for (size_t i = 0; i < rl_renderer_count(); i++) {
		const struct rl_renderer *r = rl_renderer_at(i);
		char path[PATH_MAX + 64], err[PATH_MAX + 1024] = "";

		if (!r || !r->file_name)
			continue;
		snprintf(path, sizeof path, "%s/%s", in->place->out_dir,
			 r->file_name);
		if (rl_render_file(r, path, true, rep, ropt, err, sizeof err) < 0) {
			rl_run_warn("%s", err);
			failed = 1;
			continue;
		}
		size_t used = strlen(written);
		snprintf(written + used, sizeof written - used, " %s",
			 r->file_name);
	}
	if (written[0])
		rl_run_say(in->opt, "report in '%s':%s", in->place->out_dir,
			   written);
	return failed ? -1 : 0;
}

/* The warnings hold user strings (region names): escaped for the
 * terminal like the table. */
static void print_warnings(const struct rl_report *rep)
{
	for (size_t i = 0; i < rep->n_warnings; i++) {
		if (!rep->warnings[i].message)
			continue;
		fputs("rlprof: warning: ", stderr);
		rl_term_put(stderr, rep->warnings[i].message);
		fputc('\n', stderr);
	}
}

int rl_run_report(const struct rl_run_model *model,
		  const struct rl_run_options *opt,
		  const struct rl_run_target *target,
		  const struct rl_run_outcome *outcome,
		  const struct rl_run_place *place,
		  const struct rl_run_setup *setup,
		  const struct rl_run_backend *backend,
		  const struct rl_roof_check *roof_check, bool no_files,
		  bool no_record)
{
	struct rl_run_results res;
	struct rl_machine *m;
	const struct rl_machine *machine;
	struct rl_report rep;
	struct rl_repeat_runs runs;
	struct rl_render_options ropt = {0};
	const struct rl_renderer *table;
	char err[1024];
	int rc = -1, loaded, built;
	const struct report_in parts = {
		.opt = opt, .target = target, .outcome = outcome,
		.place = place, .setup = setup, .backend = backend,
		.roof_check = roof_check, .model = model,
		.no_files = no_files, .no_record = no_record};
	const struct report_in *in = &parts;

	/* stdout may be a pipe its reader closed (`rlprof run ./app | head`,
	 * which also stopped the program): a failed print must not kill
	 * rlprof before it writes the report files */
	signal(SIGPIPE, SIG_IGN);
	memset(&res, 0, sizeof res);
	if ((loaded = load_results(in, &res)) < 0)
		return -1;
	/* run.json could not be written or read: this run's own check */
	if (!res.roof_check.taken && in->roof_check->taken)
		res.roof_check = *in->roof_check;
	m = calloc(1, sizeof *m);
	if (!m) {
		rl_run_results_release(&res);
		fprintf(stderr, "rlprof: out of memory\n");
		return -1;
	}
	machine = copy_machine(in, m);
	if (machine && !in->no_files)
		store_machine(in, m);
	if (!machine && warn_no_roofs(in, &res) < 0) {
		fprintf(stderr, "rlprof: out of memory\n");
		goto out_res;
	}
	memset(&rep, 0, sizeof rep);
	memset(&runs, 0, sizeof runs);
	if (!in->no_files && rl_repeat_runs_read(&runs, in->place->out_dir))
		rl_run_warn("out of memory: the --repeat timing runs are left "
			    "out of the report");
	built = rl_report_build_runs(&res, machine, &runs, &rep, err,
				     sizeof err);
	rl_repeat_runs_release(&runs);
	if (built < 0) {
		fprintf(stderr, "rlprof: cannot build the report: %s\n", err);
		goto out_res;
	}
	/* the report holds copies of what it shows: the results read back
	 * (0.37 GB at 10^6 regions x 2 threads) go before the files are
	 * written */
	rl_run_results_release(&res);
	ropt.plot = in->opt->plot;
	ropt.per_thread = in->opt->per_thread;
	ropt.color = rl_term_color_auto(STDOUT_FILENO);
	ropt.width = rl_render_term_width();
	ropt.verbose = in->opt->verbose;
	table = rl_renderer_find("table");
	if (table) {
		err[0] = '\0';
		if (table->render(stdout, &rep, &ropt, err, sizeof err) < 0)
			rl_run_warn("cannot print the table: %s", err);
		fflush(stdout);
	}
	ropt.color = 0;
	rc = loaded ? -1 : 0;
	if (!in->no_files && write_files(in, &rep, &ropt) < 0)
		rc = -1;
	print_warnings(&rep);
	rl_report_release(&rep);
out_res:
	rl_run_results_release(&res);
	free(m);
	return rc;
}
