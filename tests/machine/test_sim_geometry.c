/* SPDX-License-Identifier: MIT */
/*
 * The sim backend's pure parts and its behaviour outside the simulator:
 * the cache geometry parser, the default geometry derived from hand-made
 * machine models (profiler/machine/sim_geometry.c), probe(), init() refusing
 * to run without Valgrind, explain_exit().
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "counters/backend.h"
#include "machine/sim_geometry.h"

/* counters/backend_sim_launch.c (not in a header: only these tests use
 * them) */
struct rl_sim_level {
	uint64_t size_bytes;
	unsigned ways;
};
int rl_sim_geometry_format(const struct rl_sim_level *lv, int n, char *buf,
			   size_t len);
int rl_sim_geometry_parse(const char *text, struct rl_sim_level *lv,
			  char *err, size_t errlen);

static const struct rl_backend *sim(void)
{
	const struct rl_backend *b = rl_backend_find("sim");
	cr_assert_not_null(b);
	return b;
}

Test(sim_geometry, parse_and_format_round_trip)
{
	struct rl_sim_level lv[3];
	char buf[64], err[256];
	cr_assert_eq(rl_sim_geometry_parse("48K:12,1M:8,32M:16", lv, err, sizeof err), 3);
	cr_assert_eq(lv[0].size_bytes, 48u << 10);
	cr_assert_eq(lv[0].ways, 12);
	cr_assert_eq(lv[2].size_bytes, 32u << 20);
	rl_sim_geometry_format(lv, 3, buf, sizeof buf);
	cr_assert_str_eq(buf, "48K:12,1M:8,32M:16");
	/* the command's help writes levels as L1=... */
	cr_assert_eq(rl_sim_geometry_parse("L1=32K:8,L2=2M:16", lv, err, sizeof err), 2);
	rl_sim_geometry_format(lv, 2, buf, sizeof buf);
	cr_assert_str_eq(buf, "32K:8,2M:16");
}

Test(sim_geometry, parse_rejects_bad_specs)
{
	struct rl_sim_level lv[3];
	char err[256];
	cr_assert_eq(rl_sim_geometry_parse("48K", lv, err, sizeof err), RL_EINVAL);
	cr_assert_not_null(strstr(err, "expected SIZE:WAYS"), "%s", err);
	cr_assert_eq(rl_sim_geometry_parse("1K:1,2K:2,4K:4,8K:8", lv, err, sizeof err),
		     RL_EINVAL);
	cr_assert_not_null(strstr(err, "more than 3 levels"), "%s", err);
	cr_assert_eq(rl_sim_geometry_parse("1000:3", lv, err, sizeof err), RL_EINVAL);
	cr_assert_not_null(strstr(err, "multiple of ways x 64 B"), "%s", err);
	cr_assert_eq(rl_sim_geometry_parse("", lv, err, sizeof err), RL_EINVAL);
}

/* A hand-made machine model: levels as the probe records them. */
static void level(struct rl_machine *m, const char *name, uint64_t claimed,
		  unsigned ways, const char *source, uint64_t effective)
{
	struct rl_cache_level *l = &m->levels[m->n_levels++];
	snprintf(l->level, sizeof l->level, "%s", name);
	l->claimed_bytes = claimed;
	l->ways = ways;
	l->line_bytes = 64;
	snprintf(l->source, sizeof l->source, "%s", source);
	l->effective_bytes = effective;
	l->effective_all_bytes = 2 * effective;
}

static struct rl_machine *model(void)
{
	struct rl_machine *m = calloc(1, sizeof *m);
	cr_assert_not_null(m);
	m->version = RL_MACHINE_VERSION;
	return m;
}

Test(sim_geometry, claimed_sizes_are_kept_when_the_plateaus_agree)
{
	struct rl_machine *m = model();
	struct rl_sim_geometry g;
	char err[256] = "";
	level(m, "L1", 48u << 10, 12, "sysfs", 40u << 10);
	level(m, "L2", 2u << 20, 16, "sysfs", 1u << 20); /* half: still kept */
	level(m, "L3", 32u << 20, 16, "sysfs", 24u << 20);
	cr_assert_eq(rl_sim_geometry_derive(m, &g, err, sizeof err), 0, "%s", err);
	cr_assert_eq(g.n, 3);
	cr_assert_str_eq(g.spec, "48K:12,2M:16,32M:16");
	cr_assert_str_eq(g.origin, "L1 48 KiB:12 (sysfs), L2 2 MiB:16 (sysfs), "
				   "L3 32 MiB:16 (sysfs)");
	free(m);
}

Test(sim_geometry, a_vm_share_of_the_host_l3_is_simulated_at_its_plateau)
{
	/* the Intel VM: sysfs L3 480 MiB 16-way, plateau ends near 68 MiB */
	struct rl_machine *m = model();
	struct rl_sim_geometry g;
	char err[256] = "", buf[64];
	level(m, "L1", 48u << 10, 12, "sysfs", 48u << 10);
	level(m, "L2", 2u << 20, 16, "sysfs", 1u << 20);
	level(m, "L3", 480ull << 20, 16, "sysfs", 68ull << 20);
	cr_assert_eq(rl_sim_geometry_derive(m, &g, err, sizeof err), 0, "%s", err);
	cr_assert_str_eq(g.spec, "48K:12,2M:16,64M:16");
	cr_assert_not_null(strstr(g.origin, "L3 64 MiB:16 (measured plateau 68 "
					    "MiB, sysfs claims 480 MiB)"),
			   "%s", g.origin);
	cr_assert_null(strchr(g.origin, ';'), "%s", g.origin);
	/* the spec is what --sim-caches reads */
	struct rl_sim_level lv[3];
	cr_assert_eq(rl_sim_geometry_parse(g.spec, lv, err, sizeof err), 3);
	rl_sim_geometry_format(lv, 3, buf, sizeof buf);
	cr_assert_str_eq(buf, g.spec);
	cr_assert_eq(lv[2].size_bytes, 64ull << 20);
	free(m);
}

/* Two probes of one guest measured the L3 plateau at 61 and 67 MiB: both
 * are simulated at 64 MiB (the nearer power of two of sets by ratio),
 * so the counted DRAM bytes do not hang on which side of 64 MiB a probe
 * fell; 45 MiB (below sqrt(2) x 32) stays 32 MiB. */
Test(sim_geometry, a_plateau_is_simulated_at_the_nearest_size)
{
	static const struct {
		uint64_t plateau_mib, simulated_mib;
	} cases[] = {{61, 64}, {67, 64}, {53, 64}, {45, 32}, {91, 128}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct rl_machine *m = model();
		struct rl_sim_geometry g;
		char err[256] = "", want[64];
		level(m, "L1", 48u << 10, 12, "sysfs", 48u << 10);
		level(m, "L2", 2u << 20, 16, "sysfs", 2u << 20);
		level(m, "L3", 480ull << 20, 16, "sysfs",
		      cases[i].plateau_mib << 20);
		cr_assert_eq(rl_sim_geometry_derive(m, &g, err, sizeof err), 0,
			     "%s", err);
		snprintf(want, sizeof want, "48K:12,2M:16,%" PRIu64 "M:16",
			 cases[i].simulated_mib);
		cr_assert_str_eq(g.spec, want, "plateau %" PRIu64 " MiB",
				 cases[i].plateau_mib);
		free(m);
	}
}

Test(sim_geometry, large_real_l3_is_not_capped)
{
	/* bare metal: a 480 MiB L3 whose plateau is seen (Granite Rapids) */
	struct rl_machine *m = model();
	struct rl_sim_geometry g;
	char err[256] = "";
	level(m, "L1", 48u << 10, 12, "sysfs", 48u << 10);
	level(m, "L2", 2u << 20, 16, "sysfs", 2u << 20);
	level(m, "L3", 480ull << 20, 16, "sysfs", 300ull << 20);
	cr_assert_eq(rl_sim_geometry_derive(m, &g, err, sizeof err), 0, "%s", err);
	cr_assert_str_eq(g.spec, "48K:12,2M:16,480M:16");
	free(m);
}

Test(sim_geometry, one_way_claim_and_unmeasured_levels_are_said)
{
	/* the AMD VM's CPUID: L3 508 MiB 1-way, one CCD's 32 MiB measured;
	 * an L2 whose plateau was not seen */
	struct rl_machine *m = model();
	struct rl_sim_geometry g;
	char err[256] = "";
	level(m, "L1", 48u << 10, 12, "cpuid", 48u << 10);
	level(m, "L2", 1u << 20, 8, "cpuid", 0);
	level(m, "L3", 508ull << 20, 1, "cpuid", 32ull << 20);
	cr_assert_eq(rl_sim_geometry_derive(m, &g, err, sizeof err), 0, "%s", err);
	cr_assert_str_eq(g.spec, "48K:12,1M:8,32M:16");
	cr_assert_not_null(strstr(g.origin, "L2 1 MiB:8 (cpuid, no plateau measured)"),
			   "%s", g.origin);
	cr_assert_not_null(strstr(g.origin, "L3 32 MiB:16 (measured plateau 32 MiB, "
					    "cpuid claims 508 MiB, 16 ways assumed "
					    "(1-way claimed))"),
			   "%s", g.origin);
	free(m);
}

Test(sim_geometry, levels_that_cannot_be_simulated_are_dropped_and_said)
{
	struct rl_machine *m = model();
	struct rl_sim_geometry g;
	char err[256] = "";
	/* measured L3 not larger than L2; an L4 beyond the simulator's 3 */
	level(m, "L1", 32u << 10, 8, "sysfs", 0);
	level(m, "L2", 1u << 20, 16, "sysfs", 0);
	level(m, "L3", 64ull << 20, 16, "sysfs", 1u << 20);
	level(m, "L4", 128ull << 20, 16, "sysfs", 0);
	cr_assert_eq(rl_sim_geometry_derive(m, &g, err, sizeof err), 0, "%s", err);
	cr_assert_str_eq(g.spec, "32K:8,1M:16,128M:16");
	cr_assert_not_null(strstr(g.origin, "L3 not simulated (1 MiB, not larger "
					    "than the level above)"), "%s", g.origin);
	free(m);
	/* a level with no size at all ends the hierarchy there */
	m = model();
	level(m, "L1", 32u << 10, 8, "sysfs", 0);
	level(m, "L2", 0, 0, "none", 0);
	level(m, "L3", 32ull << 20, 16, "sysfs", 0);
	cr_assert_eq(rl_sim_geometry_derive(m, &g, err, sizeof err), 0, "%s", err);
	cr_assert_str_eq(g.spec, "32K:8");
	cr_assert_not_null(strstr(g.origin, "L2 and below not simulated (L2 size "
					    "unknown)"), "%s", g.origin);
	free(m);
}

Test(sim_geometry, nothing_known_is_an_error)
{
	struct rl_machine *m = model();
	struct rl_sim_geometry g;
	char err[256] = "";
	cr_assert_eq(rl_sim_geometry_derive(NULL, &g, err, sizeof err), RL_ENOENT);
	cr_assert_str_eq(err, "no machine model");
	cr_assert_eq(rl_sim_geometry_derive(m, &g, err, sizeof err), RL_ENOENT);
	cr_assert_str_eq(err, "the machine model has no cache levels");
	level(m, "L1", 0, 0, "none", 0);
	cr_assert_eq(rl_sim_geometry_derive(m, &g, err, sizeof err), RL_ENOENT);
	cr_assert_str_eq(err, "the machine model knows no size for L1");
	free(m);
}

Test(sim_geometry, init_outside_the_simulator_says_how_to_run)
{
	struct rl_backend_setup setup;
	char err[256] = "";
	memset(&setup, 0, sizeof setup);
	cr_assert_lt(sim()->init("", &setup, err, sizeof err), 0);
	cr_assert_not_null(strstr(err, "rlprof run -b sim"), "%s", err);
	cr_assert_eq(setup.provided, 0);
}

Test(sim_geometry, probe_finds_the_tool_or_says_why)
{
	char why[512] = "";
	int cap = sim()->probe(why, sizeof why);
	if (system("command -v valgrind >/dev/null 2>&1") != 0) {
		cr_assert_eq(cap, RL_CAP_NONE);
		cr_assert_not_null(strstr(why, "install valgrind"), "%s", why);
	} else if (access(RL_BUILD_DIR "/libexec/rlprof/rlprofsim-amd64-linux", X_OK) != 0) {
		cr_assert_eq(cap, RL_CAP_NONE);
		cr_assert_not_null(strstr(why, "the simulator was not built"), "%s", why);
	} else {
		cr_assert_eq(cap, RL_CAP_FLOPS_BYTES, "why: %s", why);
	}
}

Test(sim_geometry, explain_exit_needs_sigill_and_the_log_line)
{
	char dir[] = "/tmp/rlprof-simlog-XXXXXX", path[128], msg[512] = "";
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/valgrind-42.log", dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("vex amd64->IR: unhandled instruction bytes: 0x62 0xF1 0xFD\n", f);
	fclose(f);
	int sigill = SIGILL; /* wait status of a death by SIGILL */
	cr_assert_eq(sim()->explain_exit(dir, sigill, msg, sizeof msg), 1);
	cr_assert_not_null(strstr(msg, "the program uses AVX-512 instructions"), "%s", msg);
	cr_assert_eq(sim()->explain_exit(dir, 0x0100 /* exit 1 */, msg, sizeof msg), 0);
	cr_assert_eq(sim()->explain_exit(dir, (132 << 8), msg, sizeof msg), 1);
	remove(path);
	cr_assert_eq(sim()->explain_exit(dir, sigill, msg, sizeof msg), 0);
	rmdir(dir);
}

Test(sim_geometry, explain_exit_names_unreadable_dwarf5)
{
	char dir[] = "/tmp/rlprof-simlog-XXXXXX", path[128], msg[512] = "";
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/valgrind-7.log", dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("==7== Valgrind: debuginfo reader: ensure_valid failed:\n"
	      "==7== Valgrind:   valid image size of 206768 for image:\n"
	      "==7== Valgrind:   \"/x/lib/librlprof.so.0\"\n", f);
	fclose(f);
	cr_assert_eq(sim()->explain_exit(dir, 1 << 8, msg, sizeof msg), 1);
	cr_assert_not_null(strstr(msg, "debug information of '/x/lib/librlprof.so.0'"),
			   "%s", msg);
	cr_assert_not_null(strstr(msg, "-gdwarf-4"), "%s", msg);
	remove(path);
	rmdir(dir);
}
