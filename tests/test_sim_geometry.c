/* SPDX-License-Identifier: MIT */
/*
 * The sim backend's pure parts and its behaviour outside the simulator:
 * the cache geometry parser and sanity check, probe(), init() refusing to
 * run without Valgrind, explain_exit().
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"

/* counters/backend_sim.c (not in a header: only these tests use them) */
struct rl_sim_level {
	uint64_t size_bytes;
	unsigned ways;
};
int rl_sim_geometry_check(struct rl_sim_level *lv, int n, char *why,
			  size_t whylen);
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

Test(sim_geometry, plausible_geometry_is_kept)
{
	struct rl_sim_level lv[3] = {{48u << 10, 12}, {2u << 20, 16}, {32u << 20, 16}};
	char why[256];
	cr_assert_eq(rl_sim_geometry_check(lv, 3, why, sizeof why), 0);
	cr_assert_str_eq(why, "");
	cr_assert_eq(lv[1].size_bytes, 2u << 20);
}

Test(sim_geometry, host_l3_of_a_vm_is_replaced)
{
	/* this Intel VM's sysfs: L3 480 MiB 16-way (the host's) */
	struct rl_sim_level lv[3] = {{48u << 10, 12}, {2u << 20, 16}, {480ull << 20, 16}};
	char why[256], buf[64];
	cr_assert_eq(rl_sim_geometry_check(lv, 3, why, sizeof why), 1);
	rl_sim_geometry_format(lv, 3, buf, sizeof buf);
	cr_assert_str_eq(buf, "48K:12,2M:16,32M:16");
	cr_assert_not_null(strstr(why, "L3 480M:16 implausibly large"), "%s", why);
}

Test(sim_geometry, one_way_and_missing_levels_take_the_default)
{
	/* the AMD VM's CPUID: L3 508 MiB 1-way; and a machine with 2 levels */
	struct rl_sim_level lv[3] = {{48u << 10, 12}, {1u << 20, 8}, {508ull << 20, 1}};
	struct rl_sim_level two[3] = {{32u << 10, 8}, {256u << 10, 4}, {0, 0}};
	char why[256], buf[64];
	cr_assert_eq(rl_sim_geometry_check(lv, 3, why, sizeof why), 1);
	cr_assert_not_null(strstr(why, "fewer than 2 ways"), "%s", why);
	rl_sim_geometry_format(lv, 3, buf, sizeof buf);
	cr_assert_str_eq(buf, "48K:12,1M:8,32M:16");
	cr_assert_eq(rl_sim_geometry_check(two, 2, why, sizeof why), 1);
	cr_assert_not_null(strstr(why, "L3 not found"), "%s", why);
	cr_assert_eq(rl_sim_geometry_check(two, 0, why, sizeof why), 3);
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
