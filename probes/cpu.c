/* What the CPU claims: CPUID features (checked against the OS's XSAVE
 * state), model name, CPUs, memory, nominal clock and cache geometry
 * (sysfs, else CPUID leaf 4 / 0x8000001D). The probes treat the cache
 * sizes as hints only: the plateaus of the triad sweep decide. */
#include <cpuid.h>
#include <ctype.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probes/probe.h"
#include "common/rl_error.h"

static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

void rl_cpu_features(struct rl_cpu *cpu)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return;
	cpu->sse2 = (d >> 26) & 1;
	int osxsave = (c >> 27) & 1;
	int avx = (c >> 28) & 1, fma = (c >> 12) & 1;
	uint64_t xcr0 = osxsave ? xgetbv0() : 0;
	int ymm_os = (xcr0 & 0x6) == 0x6;
	int zmm_os = (xcr0 & 0xe6) == 0xe6;
	cpu->avx = avx && ymm_os;
	cpu->fma = fma && ymm_os;
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
		cpu->avx2 = ((b >> 5) & 1) && ymm_os;
		cpu->avx512f = ((b >> 16) & 1) && zmm_os;
	}
}

static void trim(char *s)
{
	size_t n = strlen(s), i = 0;
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	while (isspace((unsigned char)s[i]))
		i++;
	memmove(s, s + i, n - i + 1);
}

static void detect_model(struct rl_cpu *cpu)
{
	unsigned r[12];
	unsigned a, b, c, d;
	if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000004) {
		for (unsigned i = 0; i < 3; i++)
			__get_cpuid(0x80000002 + i, &r[4 * i], &r[4 * i + 1],
				    &r[4 * i + 2], &r[4 * i + 3]);
		char brand[49];
		memcpy(brand, r, 48);
		brand[48] = 0;
		trim(brand);
		snprintf(cpu->model, sizeof cpu->model, "%s", brand);
	}
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	char line[512];
	double mhz = 0;
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		if (!cpu->model[0] && !strncmp(line, "model name", 10)) {
			snprintf(cpu->model, sizeof cpu->model, "%s", colon + 1);
			trim(cpu->model);
		}
		if (!mhz && !strncmp(line, "cpu MHz", 7))
			mhz = strtod(colon + 1, NULL);
	}
	fclose(f);
	/* "... @ 2.10GHz" in the brand string is the nominal clock; else
	 * CPUID leaf 0x16; else what cpuinfo says (in a VM: the TSC). */
	const char *at = strstr(cpu->model, "GHz");
	if (at) {
		const char *p = at;
		while (p > cpu->model && (isdigit((unsigned char)p[-1]) ||
					  p[-1] == '.'))
			p--;
		cpu->nominal_ghz = strtod(p, NULL);
	}
	if (!cpu->nominal_ghz && __get_cpuid(0, &a, &b, &c, &d) && a >= 0x16 &&
	    __get_cpuid(0x16, &a, &b, &c, &d) && (a & 0xffff))
		cpu->nominal_ghz = (a & 0xffff) / 1000.0;
	if (!cpu->nominal_ghz)
		cpu->nominal_ghz = mhz / 1000.0;
}

static unsigned count_cpu_list(const char *s)
{
	unsigned n = 0;
	while (*s && *s != '\n') {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;
		if (end == s)
			break;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (hi >= lo)
			n += (unsigned)(hi - lo + 1);
		s = *end == ',' ? end + 1 : end;
	}
	return n;
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	return ok ? 0 : -1;
}

static void caches_sysfs(struct rl_cpu *cpu)
{
	char path[128], buf[256];
	int first = cpu->logical_cpus ? cpu->cpus[0] : 0;
	for (int i = 0; i < 16 && cpu->n_caches < RL_CPU_MAX_CACHES; i++) {
		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/type",
			 first, i);
		if (read_line(path, buf, sizeof buf))
			break;
		if (!strncmp(buf, "Instruction", 11))
			continue;
		struct rl_cache_info *ci = &cpu->caches[cpu->n_caches];
		ci->type = buf[0] == 'D' ? 'D' : 'U';
		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/level",
			 first, i);
		if (read_line(path, buf, sizeof buf))
			continue;
		ci->level = atoi(buf);
		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/size",
			 first, i);
		if (read_line(path, buf, sizeof buf))
			continue;
		char *end;
		uint64_t sz = strtoull(buf, &end, 10);
		if (*end == 'K')
			sz <<= 10;
		else if (*end == 'M')
			sz <<= 20;
		ci->size_bytes = sz;
		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/"
			 "shared_cpu_list",
			 first, i);
		if (!read_line(path, buf, sizeof buf))
			ci->shared_cpus = count_cpu_list(buf);
		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/"
			 "ways_of_associativity",
			 first, i);
		if (!read_line(path, buf, sizeof buf))
			ci->ways = (unsigned)atoi(buf);
		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/"
			 "coherency_line_size",
			 first, i);
		if (!read_line(path, buf, sizeof buf))
			ci->line_bytes = (unsigned)atoi(buf);
		if (ci->size_bytes)
			cpu->n_caches++;
	}
	if (cpu->n_caches)
		snprintf(cpu->cache_source, sizeof cpu->cache_source, "sysfs");
}

/* Deterministic cache parameters: leaf 4 (Intel), else 0x8000001D
 * (AMD, where leaf 4 reads as zeros). */
static void caches_leaf(struct rl_cpu *cpu, unsigned leaf)
{
	unsigned a, b, c, d;
	for (unsigned i = 0; i < 16 && cpu->n_caches < RL_CPU_MAX_CACHES; i++) {
		__cpuid_count(leaf, i, a, b, c, d);
		unsigned type = a & 0x1f;
		if (type == 0)
			break;
		if (type == 2)
			continue;
		struct rl_cache_info *ci = &cpu->caches[cpu->n_caches++];
		ci->type = type == 1 ? 'D' : 'U';
		ci->level = (a >> 5) & 7;
		ci->shared_cpus = ((a >> 14) & 0xfff) + 1;
		ci->ways = ((b >> 22) & 0x3ff) + 1;
		ci->line_bytes = (b & 0xfff) + 1;
		ci->size_bytes = (uint64_t)ci->ways *
				 (((b >> 12) & 0x3ff) + 1) * ci->line_bytes *
				 ((uint64_t)c + 1);
	}
}

static void caches_cpuid(struct rl_cpu *cpu)
{
	unsigned b, c, d, max = 0;
	__get_cpuid(0, &max, &b, &c, &d);
	if (max >= 4)
		caches_leaf(cpu, 4);
	if (!cpu->n_caches && __get_cpuid(0x80000000, &max, &b, &c, &d) &&
	    max >= 0x8000001d)
		caches_leaf(cpu, 0x8000001d);
	if (cpu->n_caches)
		snprintf(cpu->cache_source, sizeof cpu->cache_source, "cpuid");
}

int rl_cpu_detect(struct rl_cpu *cpu, char *err, size_t errlen)
{
	memset(cpu, 0, sizeof *cpu);
	cpu_set_t set;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof set, &set))
		return rl_fail(err, errlen, RL_EIO,
			       "cannot read this process's CPU affinity");
	for (int i = 0; i < CPU_SETSIZE && cpu->logical_cpus < RL_CPU_MAX_CPUS;
	     i++)
		if (CPU_ISSET(i, &set))
			cpu->cpus[cpu->logical_cpus++] = i;
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	if (pages > 0 && psz > 0)
		cpu->mem_bytes = (uint64_t)pages * (uint64_t)psz;
	rl_cpu_features(cpu);
	detect_model(cpu);
	if (!cpu->model[0])
		snprintf(cpu->model, sizeof cpu->model, "unknown CPU");
	caches_sysfs(cpu);
	if (!cpu->n_caches)
		caches_cpuid(cpu);
	if (!cpu->n_caches)
		snprintf(cpu->cache_source, sizeof cpu->cache_source, "none");
	return 0;
}
