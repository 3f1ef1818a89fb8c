/*
 * The LIKWID backend, as a plugin (rlprof-likwid.so, links -llikwid).
 * LIKWID's marker API keeps per-region results per thread in its own
 * files; rlprof needs cumulative values at every region bound, so this
 * uses the perfmon_* calls directly: one performance group (option
 * group=NAME, default FLOPS_DP; FLOPS_SP and MEM are the others rlprof
 * maps) on every hardware thread, each profiled thread pinned to the cpu
 * it first runs a region on, and read() reading that cpu.
 *
 * LIKWID counts cpus, not threads: a core event includes whatever else
 * ran on that cpu, and memory-controller events count the whole socket
 * (RL_SCOPE_SYSTEM). The method text says so.
 */
#include <likwid.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <errno.h>
#include <unistd.h>
#include <time.h>
#include <unistd.h>

#include "counters/backend.h"
#include "counters/plugins/plugin.h"
#include "counters/events/msr_why.h"

#define MAX_EV 32
#define MAX_CPUS 1024

struct likwid_thread {
	int cpu_index; /* index into cpus[] (LIKWID's thread id) */
	int cpu;
	uint64_t t0_ns;
};

/* LIKWID event name -> rlprof counter, weight (lanes, or 64 B per CAS),
 * scope. Names as in LIKWID's perfmon_<arch>_events.txt. */
static const struct {
	const char *event;
	const char *counter;
	double weight;
	int scope;
} event_map[] = {
	{"FP_ARITH_INST_RETIRED_SCALAR_DOUBLE", "flops_f64_scalar", 1, 0},
	{"FP_ARITH_INST_RETIRED_128B_PACKED_DOUBLE", "flops_f64_128", 2, 0},
	{"FP_ARITH_INST_RETIRED_256B_PACKED_DOUBLE", "flops_f64_256", 4, 0},
	{"FP_ARITH_INST_RETIRED_512B_PACKED_DOUBLE", "flops_f64_512", 8, 0},
	{"FP_ARITH_INST_RETIRED_SCALAR_SINGLE", "flops_f32_scalar", 1, 0},
	{"FP_ARITH_INST_RETIRED_128B_PACKED_SINGLE", "flops_f32_128", 4, 0},
	{"FP_ARITH_INST_RETIRED_256B_PACKED_SINGLE", "flops_f32_256", 8, 0},
	{"FP_ARITH_INST_RETIRED_512B_PACKED_SINGLE", "flops_f32_512", 16, 0},
	{"RETIRED_SSE_AVX_FLOPS_ALL", "flops_any", 1, 0},
	{"RETIRED_SSE_AVX_FLOPS_ALL_DP_SCALAR", "flops_f64_scalar", 1, 0},
	{"RETIRED_SSE_AVX_FLOPS_ALL_SP_SCALAR", "flops_f32_scalar", 1, 0},
	{"CAS_COUNT_RD", "dram_read_bytes", 64, RL_SCOPE_SYSTEM},
	{"CAS_COUNT_WR", "dram_write_bytes", 64, RL_SCOPE_SYSTEM},
	{"CAS_CMD_RD", "dram_read_bytes", 64, RL_SCOPE_SYSTEM},
	{"CAS_CMD_WR", "dram_write_bytes", 64, RL_SCOPE_SYSTEM},
	{"DRAM_CHANNEL_", "dram_bytes", 64, RL_SCOPE_SYSTEM}, /* prefix */
	{"INSTR_RETIRED_ANY", "instructions", 1, 0},
	{"RETIRED_INSTRUCTIONS", "instructions", 1, 0},
	{"CPU_CLK_UNHALTED_CORE", "cycles", 1, 0},
	{"ACTUAL_CPU_CLOCK", "cycles", 1, 0},
	{"CPU_CLK_UNHALTED_REF", "ref_cycles", 1, 0},
};

static struct {
	int gid;
	int ncpus;
	int cpus[MAX_CPUS];
	int nev;
	int counter[MAX_EV];
	double weight[MAX_EV];
	pthread_mutex_t lock;
} lw = {.lock = PTHREAD_MUTEX_INITIALIZER};

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int map_event(const char *name, double *weight, int *scope)
{
	for (size_t i = 0; i < sizeof event_map / sizeof *event_map; i++) {
		size_t len = strlen(event_map[i].event);
		int prefix = event_map[i].event[len - 1] == '_';
		if (prefix ? strncmp(name, event_map[i].event, len) == 0
			   : strcmp(name, event_map[i].event) == 0) {
			*weight = event_map[i].weight;
			*scope = event_map[i].scope;
			return rl_counter_from_name(event_map[i].counter);
		}
	}
	return -1;
}

static void cpu_text(char *buf, size_t len)
{
	CpuInfo_t ci = get_cpuInfo();

	if (ci)
		snprintf(buf, len, "%s, family %u model 0x%x",
			 ci->name ? ci->name : "unknown", ci->family, ci->model);
	else
		snprintf(buf, len, "unknown CPU");
}

static void init_failure(int r, char *why, size_t len)
{
	char cpu[160], msr[400];

	cpu_text(cpu, sizeof cpu);
	if (r == -13 && rl_msr_why("", msr, sizeof msr))
		snprintf(why, len,
			 "LIKWID cannot count on this CPU (%s): perfmon_init "
			 "fails (%d): %s",
			 cpu, r, msr);
	else if (r == -13)
		snprintf(why, len,
			 "LIKWID cannot count on this CPU (%s): perfmon_init "
			 "fails (%d): no access to the MSRs (run as root or "
			 "start likwid-accessD)",
			 cpu, r);
	else
		snprintf(why, len,
			 "LIKWID does not support this CPU model (%s): "
			 "perfmon_init fails (%d)",
			 cpu, r);
}

static int likwid_probe(char *why, size_t len)
{
	int cpu0, r, gid, cap = RL_CAP_NONE;
	char cpu[160], msr[400];
	CpuTopology_t topo;

	if (topology_init() != 0) {
		snprintf(why, len, "LIKWID cannot read the topology");
		return RL_CAP_NONE;
	}
	topo = get_cpuTopology();
	cpu0 = topo && topo->threadPool ? (int)topo->threadPool[0].apicId : 0;
	/* liblikwid calls exit() from perfmon_init on a CPU it does not
	 * know: these are the words the probe's caller reads then. */
	cpu_text(cpu, sizeof cpu);
	if (rl_msr_why("", msr, sizeof msr))
		snprintf(why, len,
			 "LIKWID cannot count on this CPU (%s): liblikwid "
			 "exited during perfmon_init: %s",
			 cpu, msr);
	else
		snprintf(why, len,
			 "LIKWID cannot count on this CPU (%s): liblikwid "
			 "exited during perfmon_init (unsupported processor, "
			 "or no access to the MSRs)",
			 cpu);
	r = perfmon_init(1, &cpu0);
	if (r < 0) {
		init_failure(r, why, len);
		goto out_topo;
	}
	gid = perfmon_addEventSet("FLOPS_DP");
	if (gid < 0) {
		snprintf(why, len, "LIKWID does not support this CPU model "
				   "(%s): no FLOPS_DP group",
			 cpu);
		goto out;
	}
	if (perfmon_setupCounters(gid) < 0) {
		snprintf(why, len, "LIKWID cannot set up the FLOPS_DP counters "
				   "on this CPU (%s)",
			 cpu);
		goto out;
	}
	cap = RL_CAP_FLOPS;
	snprintf(why, len, "LIKWID counts one group at a time (group=FLOPS_DP, "
			   "FLOPS_SP or MEM): flops and DRAM bytes not together");
out:
	perfmon_finalize();
out_topo:
	topology_finalize();
	return cap;
}

static pid_t trial_pid;

/* perfmon_init called exit() in the trial child: end it at once, before
 * the handlers it inherited from its parent run there (a test runner's
 * would report for the parent). Registered last, so it runs first. */
static void trial_exit(void)
{
	if (getpid() == trial_pid)
		_exit(1);
}

/* liblikwid calls exit() from perfmon_init on a CPU it does not know:
 * try it in a child first, so the profiled program is never ended by it.
 * Returns 1 when perfmon_init returned (whatever its result). */
static int perfmon_init_returns(void)
{
	int status = 0;
	pid_t pid = fork();

	if (pid < 0)
		return 1; /* cannot tell: try for real */
	if (pid == 0) {
		trial_pid = getpid();
		atexit(trial_exit);
		perfmon_init(lw.ncpus, lw.cpus);
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int likwid_init(const char *options, struct rl_backend_setup *setup,
		       char *err, size_t errlen)
{
	char group[64] = "FLOPS_DP", why[300];
	const char *g = options ? strstr(options, "group=") : NULL;
	CpuTopology_t topo;
	int r, covered = 0;

	if (g)
		sscanf(g + 6, "%63[A-Za-z0-9_]", group);
	if (topology_init() != 0)
		return rl_fail(err, errlen, RL_ENOTSUP,
			       "LIKWID cannot read the topology");
	topo = get_cpuTopology();
	lw.ncpus = 0;
	for (unsigned i = 0; i < topo->numHWThreads && lw.ncpus < MAX_CPUS; i++)
		if (topo->threadPool[i].inCpuSet)
			lw.cpus[lw.ncpus++] = (int)topo->threadPool[i].apicId;
	if (!perfmon_init_returns()) {
		char cpu[160];
		cpu_text(cpu, sizeof cpu);
		return rl_fail(err, errlen, RL_ENOCOUNTERS,
			       "LIKWID cannot count on this CPU (%s): liblikwid "
			       "exits during perfmon_init (unsupported "
			       "processor, or no access to the MSRs)",
			       cpu);
	}
	if ((r = perfmon_init(lw.ncpus, lw.cpus)) < 0) {
		init_failure(r, why, sizeof why);
		return rl_fail(err, errlen, RL_ENOCOUNTERS, "%s", why);
	}
	if ((lw.gid = perfmon_addEventSet(group)) < 0)
		return rl_fail(err, errlen, RL_EINVAL,
			       "LIKWID has no group '%s' on this CPU", group);
	if (perfmon_setupCounters(lw.gid) < 0 || perfmon_startCounters() < 0)
		return rl_fail(err, errlen, RL_ENOCOUNTERS,
			       "LIKWID cannot start group '%s'", group);
	lw.nev = perfmon_getNumberOfEvents(lw.gid);
	if (lw.nev > MAX_EV)
		lw.nev = MAX_EV;
	for (int e = 0; e < lw.nev; e++) {
		const char *name = perfmon_getEventName(lw.gid, e);
		int scope = 0, c = map_event(name ? name : "", &lw.weight[e],
					     &scope);
		size_t used;
		lw.counter[e] = c;
		if (c < 0)
			continue;
		covered++;
		used = strlen(setup->method[c]);
		if (!(setup->provided >> c & 1))
			snprintf(setup->method[c], RL_METHOD_MAX,
				 "likwid %s x%g%s", name, lw.weight[e],
				 scope ? " (socket)" : " (thread's cpu)");
		else if (used + 4 < RL_METHOD_MAX)
			snprintf(setup->method[c] + used, RL_METHOD_MAX - used,
				 " + %s", name);
		setup->provided |= 1ULL << c;
		setup->scope[c] = (unsigned char)scope;
	}
	snprintf(setup->note, sizeof setup->note,
		 "LIKWID group %s on %d cpus; each profiled thread is pinned "
		 "to its cpu and counts everything that runs there",
		 group, lw.ncpus);
	return covered ? 0
		       : rl_fail(err, errlen, RL_ENOCOUNTERS,
				 "LIKWID group '%s' has no event rlprof maps",
				 group);
}

static int likwid_thread_open(void *state, char *err, size_t errlen)
{
	struct likwid_thread *t = state;
	int cpu = sched_getcpu();
	cpu_set_t set;

	t->cpu_index = -1;
	for (int i = 0; i < lw.ncpus; i++)
		if (lw.cpus[i] == cpu)
			t->cpu_index = i;
	if (cpu < 0 || t->cpu_index < 0)
		return rl_fail(err, errlen, RL_ENOTSUP,
			       "thread runs on cpu %d, which LIKWID does not "
			       "count",
			       cpu);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) < 0)
		return rl_fail(err, errlen, RL_EPERM,
			       "cannot pin the thread to cpu %d", cpu);
	t->cpu = cpu;
	t->t0_ns = now_ns();
	return 0;
}

static int likwid_read(void *state, struct rl_counter_value *values)
{
	struct likwid_thread *t = state;
	uint64_t dt = now_ns() - t->t0_ns;

	pthread_mutex_lock(&lw.lock);
	if (perfmon_readCountersCpu(t->cpu) < 0) {
		pthread_mutex_unlock(&lw.lock);
		return RL_EIO;
	}
	for (int e = 0; e < lw.nev; e++)
		if (lw.counter[e] >= 0)
			values[lw.counter[e]].value = 0;
	for (int e = 0; e < lw.nev; e++) {
		double v;
		if (lw.counter[e] < 0)
			continue;
		v = perfmon_getResult(lw.gid, e, t->cpu_index);
		values[lw.counter[e]].value +=
			(uint64_t)(v > 0 ? v * lw.weight[e] : 0);
		values[lw.counter[e]].enabled_ns = dt;
		values[lw.counter[e]].running_ns = dt;
	}
	pthread_mutex_unlock(&lw.lock);
	return 0;
}

static void likwid_thread_close(void *state) { (void)state; }

static void likwid_fini(void)
{
	perfmon_stopCounters();
	perfmon_finalize();
	topology_finalize();
}

static const struct rl_backend likwid_plugin = {
	.abi = RL_BACKEND_ABI,
	.name = "likwid",
	.summary = "LIKWID perfmon groups, per cpu",
	.thread_state_size = sizeof(struct likwid_thread),
	.probe = likwid_probe,
	.init = likwid_init,
	.thread_open = likwid_thread_open,
	.read = likwid_read,
	.thread_close = likwid_thread_close,
	.fini = likwid_fini,
};

const struct rl_backend *rl_plugin_backend(unsigned abi);
const struct rl_backend *rl_plugin_backend(unsigned abi)
{
	return abi == RL_BACKEND_ABI ? &likwid_plugin : NULL;
}
