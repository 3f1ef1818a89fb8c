/*
 * rlprof run --compat: programs annotated for LIKWID's marker API or PAPI's
 * high-level API run unchanged. Their imports (elf_imports.c) say which
 * API they call; the matching shim of profiler/compat/ is preloaded in
 * front of the real library, so each of their regions becomes an rlprof
 * region of the same name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/rl_error.h"
#include "cli/run/run.h"

#define LIKWID_SHIM "librlprof-likwid.so"
#define PAPIHL_SHIM "librlprof-papihl.so"
#define MPI_SHIM "librlprof-mpi.so"

/* A rank of an MPI job whose program calls MPI_Finalize: librlprof-mpi,
 * when installed (built with Open MPI), sends its results to rank 0 there,
 * for output directories that are not shared between nodes. Without it
 * (or with --compat none), a rank's results stay on its node. */
static void decide_mpi(struct rl_run_compat *compat,
		       const struct rl_run_target *target,
		       const struct rl_run_place *place,
		       const struct rl_mpi_run *mpi, const char *mode)
{
	char path[PATH_MAX + 32];

	compat->mpi_send = false;
	if (strcmp(mode, "none") == 0 || !compat->imports.mpi_finalize ||
	    (mpi->mode != RL_MPI_RANK && mpi->mode != RL_MPI_RANK_ONLY) ||
	    !target->elf.dynamic)
		return;
	snprintf(path, sizeof path, "%s/%s", place->lib_dir, MPI_SHIM);
	compat->mpi_send = access(path, R_OK) == 0;
}

/* The program holds LIKWID's marker API or PAPI's high-level API itself
 * (a static program, or the library linked from its archive) and does not
 * import it: no shim can take its place, said plainly. true when said. */
static bool say_inside(const struct rl_run_compat *compat,
		       const struct rl_run_target *target, const char *mode)
{
	bool lk = compat->imports.likwid_marker_inside &&
		  !compat->imports.likwid_marker;
	bool ph = compat->imports.papi_hl_inside && !compat->imports.papi_hl;
	const char *api, *lib;

	if (strcmp(mode, "likwid") == 0)
		ph = false;
	else if (strcmp(mode, "papi") == 0)
		lk = false;
	if (!lk && !ph)
		return false;
	api = lk ? "LIKWID's marker API" : "PAPI's high-level API";
	lib = lk ? "liblikwid" : "libpapi";
	if (!target->elf.dynamic)
		rl_run_warn(
			"'%s' is statically linked and holds %s itself, so "
			"rlprof cannot intercept its regions (a shim is "
			"preloaded only into a dynamically linked program): "
			"it is profiled as one region '<program>', and %s "
			"runs as it would without rlprof; link it with "
			"%s.so to see its regions",
			target->name, api, api, lib);
	else
		rl_run_warn("'%s' holds %s itself (%s.a linked in), so rlprof "
			    "cannot intercept its regions (a preloaded shim "
			    "replaces only functions the program imports from "
			    "%s.so): it is profiled as one region '<program>', "
			    "and %s runs as it would without rlprof; link it "
			    "with -l%s against %s.so to see its regions",
			    target->name, api, lib, lib, api, lib + 3, lib);
	return true;
}

static void decide(struct rl_run_compat *compat,
		   const struct rl_run_target *target,
		   const struct rl_run_options *opt,
		   const struct rl_run_place *place,
		   const struct rl_mpi_run *mpi)
{
	const char *mode = opt->compat ? opt->compat : "auto";
	char err[512];

	if (target->elf.kind != RL_FILE_SCRIPT &&
	    rl_elf_imports(target->program, &compat->imports, err,
			   sizeof err) < 0)
		memset(&compat->imports, 0, sizeof compat->imports);
	compat->imports_read = true;
	decide_mpi(compat, target, place, mpi, mode);
	if (strcmp(mode, "none") == 0)
		return;
	if (target->elf.kind != RL_FILE_SCRIPT &&
	    say_inside(compat, target, mode))
		return;
	compat->likwid =
		strcmp(mode, "likwid") == 0 ||
		(strcmp(mode, "auto") == 0 && compat->imports.likwid_marker);
	compat->papihl = strcmp(mode, "papi") == 0 ||
			 (strcmp(mode, "auto") == 0 && compat->imports.papi_hl);
	if (!compat->likwid && !compat->papihl)
		return;
	if (!target->elf.dynamic && target->elf.kind != RL_FILE_SCRIPT) {
		rl_run_warn("'%s' is statically linked, so no shim can be "
			    "preloaded into it: its %s regions are not seen "
			    "(link it dynamically)",
			    target->name,
			    compat->likwid ? "LIKWID marker"
					   : "PAPI "
					     "high-level");
		compat->likwid = compat->papihl = false;
		return;
	}
	if (compat->likwid)
		rl_run_say(opt,
			   "'%s' %s LIKWID's marker API: its regions are "
			   "rlprof regions (" LIKWID_SHIM " preloaded; "
			   "--compat none turns this off)",
			   target->name,
			   compat->imports.likwid_marker ? "calls"
							 : "is taken to "
							   "call");
	if (compat->papihl)
		rl_run_say(opt,
			   "'%s' %s PAPI's high-level API: its regions are "
			   "rlprof regions (" PAPIHL_SHIM " preloaded; "
			   "--compat none turns this off)",
			   target->name,
			   compat->imports.papi_hl ? "calls"
						   : "is taken to call");
}

bool rl_run_has_regions(const struct rl_run_compat *compat,
			const struct rl_run_target *target)
{
	return target->elf.n_sites > 0 || compat->imports.rl_regions ||
	       compat->likwid || compat->papihl;
}

/* dir/name, when readable, appended to buf with a ':' */
static int add_shim(const struct rl_run_place *place,
		    const struct rl_run_target *target, char *buf, size_t len,
		    const char *name, char *err, size_t errlen)
{
	char path[PATH_MAX + 32];
	size_t used = strlen(buf);

	snprintf(path, sizeof path, "%s/%s", place->lib_dir, name);
	if (access(path, R_OK) != 0)
		return rl_fail(err, errlen, RL_ENOENT,
			       "'%s' is missing, so '%s' cannot be profiled by "
			       "its own regions: reinstall rlprof, or run with "
			       "--compat none",
			       path, target->name);
	snprintf(buf + used, len - used, "%s%s", used ? ":" : "", path);
	return 0;
}

int rl_run_compat(struct rl_run_compat *compat,
		  const struct rl_run_target *target,
		  const struct rl_run_options *opt,
		  const struct rl_run_place *place,
		  const struct rl_mpi_run *mpi, struct rl_launch *l, char *err,
		  size_t errlen)
{
	char value[4 * PATH_MAX + 128] = "";
	const char *old = getenv("LD_PRELOAD");
	int rc;

	if (!compat->imports_read)
		decide(compat, target, opt, place, mpi);
	if (compat->likwid && (rc = add_shim(place, target, value, sizeof value,
					     LIKWID_SHIM, err, errlen)) < 0)
		return rc;
	if (compat->papihl && (rc = add_shim(place, target, value, sizeof value,
					     PAPIHL_SHIM, err, errlen)) < 0)
		return rc;
	if (compat->mpi_send &&
	    (rc = add_shim(place, target, value, sizeof value, MPI_SHIM, err,
			   errlen)) < 0)
		return rc;
	if (!value[0])
		return 0;
	if (old && *old) {
		size_t used = strlen(value);
		snprintf(value + used, sizeof value - used, ":%s", old);
	}
	if (rl_launch_setenv(l, "LD_PRELOAD", value) < 0)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	return 0;
}
