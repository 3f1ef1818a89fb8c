/*
 * Puts the tables, libpfm4 and sysfs together: the list of encoded events
 * rlprof's perf backend opens on a host, with a note saying what was
 * chosen and what is missing.
 *
 * Groups: 0 holds cycles, instructions and ref-cycles (fixed counters on
 * Intel); core events follow in groups of four (two on AMD Zen, where the
 * flops event pairs with a MERGE counter) so the kernel multiplexes whole
 * groups that fit; every system-wide event is a group of its own.
 * A per-thread event adding to a dram_* counter is a proxy (the runtime
 * marks it RL_SCOPE_PROXY); one with cpu >= 0 is system-wide.
 */
#include "counters/events/events.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/counter_ids.h"
#include "counters/perf_probe.h"
#include "common/rl_error.h"

#define CORE_GROUP_SIZE 4

struct ctx {
	const struct rl_events_host *h;
	const struct rl_uarch *u;
	struct rl_perf_event_spec *specs;
	size_t max, *n;
	char *note;
	size_t notelen;
	int next_group;   /* next free group number */
	int core_group;   /* current core group, -1 none */
	int core_in_group;
	int group_size;   /* core events per group */
	int full;         /* ran out of spec slots */
};

static void note_add(struct ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note_add(struct ctx *c, const char *fmt, ...)
{
	size_t used = strlen(c->note);
	va_list ap;

	if (!c->notelen || used + 3 >= c->notelen)
		return;
	if (used) {
		strcpy(c->note + used, "; ");
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(c->note + used, c->notelen - used, fmt, ap);
	va_end(ap);
}

static void set_name(struct rl_perf_event_spec *s, const char *name)
{
	snprintf(s->name, sizeof s->name, "%s", name);
	for (char *p = s->name; *p; p++)
		if (*p == ',' || *p == ';' || *p == '=')
			*p = *p == '=' ? ':' : '+';
}

static struct rl_perf_event_spec *slot(struct ctx *c)
{
	struct rl_perf_event_spec *s;

	if (*c->n >= c->max) {
		if (!c->full)
			note_add(c, "more than %zu events: the rest is left out",
				 c->max);
		c->full = 1;
		return NULL;
	}
	s = &c->specs[*c->n];
	memset(s, 0, sizeof *s);
	s->cpu = -1;
	s->weight = 1;
	return s;
}

static int core_group(struct ctx *c)
{
	if (c->core_group < 0 || c->core_in_group == c->group_size) {
		c->core_group = c->next_group++;
		c->core_in_group = 0;
	}
	c->core_in_group++;
	return c->core_group;
}

/* The core PMU as the kernel describes it ("cpu", or "cpu_core" on
 * hybrid parts); fills a built-in x86 layout when sysfs has none. */
static void core_pmu(const struct rl_events_host *h, struct rl_sysfs_pmu *p)
{
	static const char *const names[] = {"cpu", "cpu_core"};
	char dir[600], err[160];

	for (size_t i = 0; i < 2; i++) {
		snprintf(dir, sizeof dir, "%s/%s", h->sysfs_root, names[i]);
		if (rl_sysfs_pmu_load(dir, p, err, sizeof err) == 0 &&
		    p->n_fields)
			return;
	}
	/* arch/x86/events/{intel,amd}/core.c format attributes */
	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "cpu");
	p->type = 4; /* PERF_TYPE_RAW */
	p->n_fields = 2;
	snprintf(p->fields[0].name, sizeof p->fields[0].name, "event");
	p->fields[0].lo[0] = 0;
	p->fields[0].hi[0] = 7;
	p->fields[0].n_ranges = 1;
	if (strcmp(h->cpu.vendor, "AuthenticAMD") == 0) {
		p->fields[0].lo[1] = 32;
		p->fields[0].hi[1] = 35;
		p->fields[0].n_ranges = 2;
	}
	snprintf(p->fields[1].name, sizeof p->fields[1].name, "umask");
	p->fields[1].lo[0] = 8;
	p->fields[1].hi[0] = 15;
	p->fields[1].n_ranges = 1;
}

/* One table row for this thread: libpfm4 first, the cited terms else. */
static int add_core_row(struct ctx *c, const struct rl_event_row *r,
			const struct rl_sysfs_pmu *core)
{
	struct rl_perf_event_spec tmp;
	char err[200] = "";
	int counter = rl_counter_from_name(r->counter);
	struct rl_perf_event_spec *s;

	if (counter < 0) {
		note_add(c, "'%s' not counted: this rlprof has no counter '%s'",
			 r->name, r->counter);
		return RL_ENOENT;
	}
	memset(&tmp, 0, sizeof tmp);
	if (!r->pfm || rl_pfm_encode(c->u ? c->u->pfm_pmu : NULL, r->pfm,
				     &tmp, err, sizeof err) < 0) {
		uint64_t cfg[3];
		if (!r->terms) {
			note_add(c, "'%s' not counted: %s", r->name, err);
			return RL_ENOENT;
		}
		if (rl_sysfs_encode(core, r->terms, cfg, err, sizeof err) < 0) {
			note_add(c, "'%s' not counted: %s", r->name, err);
			return RL_ENOENT;
		}
		tmp.type = core->type;
		tmp.config = cfg[0];
		tmp.config1 = cfg[1];
		tmp.config2 = cfg[2];
	}
	if (!(s = slot(c)))
		return RL_ELIMIT;
	s->counter = counter;
	s->type = tmp.type;
	s->config = tmp.config;
	s->config1 = tmp.config1;
	s->config2 = tmp.config2;
	s->weight = r->weight;
	s->group = core_group(c);
	set_name(s, r->name);
	(*c->n)++;
	return 0;
}

static void add_generic(struct ctx *c)
{
	static const struct {
		const char *counter, *name;
		uint64_t config;
	} gen[] = {{"cycles", "cycles", 0},
		   {"instructions", "instructions", 1},
		   {"ref_cycles", "ref-cycles", 9}}; /* PERF_COUNT_HW_* */
	int g = c->next_group++;

	for (size_t i = 0; i < sizeof gen / sizeof *gen; i++) {
		struct rl_perf_event_spec *s;
		/* AMD's kernel driver has no reference cycles */
		if (gen[i].config == 9 &&
		    strcmp(c->h->cpu.vendor, "GenuineIntel") != 0)
			continue;
		s = slot(c);
		if (!s)
			return;
		s->counter = rl_counter_from_name(gen[i].counter);
		s->type = 0; /* PERF_TYPE_HARDWARE */
		s->config = gen[i].config;
		s->group = g;
		set_name(s, gen[i].name);
		(*c->n)++;
	}
}

static void add_flops(struct ctx *c, const struct rl_sysfs_pmu *core)
{
	const struct rl_uarch *u = c->u;
	const struct rl_event_row *rows = u->flops;
	size_t nrows = u->n_flops, added = 0;

	if (u->amd_merge) {
		if (c->h->kernel_major < 5 ||
		    (c->h->kernel_major == 5 && c->h->kernel_minor < 6)) {
			note_add(c,
				 "flops not counted: Linux %d.%d does not pair "
				 "RETIRED_SSE_AVX_FLOPS with its MERGE counter "
				 "(needs 5.6 or later), so counts above 15 per "
				 "cycle are lost",
				 c->h->kernel_major, c->h->kernel_minor);
			return;
		}
		note_add(c, "the kernel (Linux %d.%d) pairs RETIRED_SSE_AVX_FLOPS "
			    "with the MERGE counter",
			 c->h->kernel_major, c->h->kernel_minor);
	}
	for (size_t i = 0; i < nrows; i++)
		if (rl_counter_from_name(rows[i].counter) < 0 &&
		    u->flops_fallback) {
			note_add(c, "counter '%s' missing from this rlprof: "
				    "counting all precisions as flops_any",
				 rows[i].counter);
			rows = u->flops_fallback;
			nrows = u->n_flops_fallback;
			break;
		}
	for (size_t i = 0; i < nrows; i++)
		if (add_core_row(c, &rows[i], core) == 0)
			added++;
	if (!added)
		note_add(c, "flops not counted: no flops event encodes here");
}

/* "uncore_imc_" matches uncore_imc_0 but not uncore_imc_free_running_0;
 * a prefix without '_' at its end ("uncore_imc", "amd_df") matches the
 * name itself and numbered instances. */
static int pmu_matches(const char *name, const char *prefix)
{
	size_t len = strlen(prefix);
	const char *rest = name + len;

	if (strncmp(name, prefix, len) != 0)
		return 0;
	if (!*rest)
		return 1;
	if (prefix[len - 1] != '_' && *rest == '_')
		rest++;
	for (; *rest; rest++)
		if (*rest < '0' || *rest > '9')
			return 0;
	return rest != name + len;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds one DRAM row over every matching PMU instance; returns the number
 * of events added. */
static size_t add_dram_row(struct ctx *c, const struct rl_dram_row *r)
{
	DIR *d = opendir(c->h->sysfs_root);
	struct dirent *e;
	char *names[64];
	size_t nn = 0, added = 0;
	int counter = rl_counter_from_name(r->counter);

	if (!d || counter < 0) {
		if (d)
			closedir(d);
		return 0;
	}
	while ((e = readdir(d)) && nn < 64)
		if (pmu_matches(e->d_name, r->pmu_prefix))
			names[nn++] = strdup(e->d_name);
	closedir(d);
	qsort(names, nn, sizeof *names, cmp_str);
	for (size_t i = 0; i < nn; i++) {
		struct rl_sysfs_pmu p;
		char dir[600], err[200], terms[256], unit[32];
		double scale = 1, weight = r->weight;
		uint64_t cfg[3];

		if (!names[i])
			continue;
		snprintf(dir, sizeof dir, "%s/%s", c->h->sysfs_root, names[i]);
		if (rl_sysfs_pmu_load(dir, &p, err, sizeof err) < 0)
			continue;
		if (r->sysfs_event &&
		    rl_sysfs_event_read(&p, r->sysfs_event, terms, sizeof terms,
					&scale, unit, sizeof unit, err,
					sizeof err) == 0) {
			double ub = rl_sysfs_unit_bytes(unit);
			if (ub > 0)
				weight = scale * ub;
			else if (scale != 1)
				weight = scale;
		} else if (r->terms) {
			snprintf(terms, sizeof terms, "%s", r->terms);
		} else {
			continue;
		}
		if (rl_sysfs_encode(&p, terms, cfg, err, sizeof err) < 0) {
			note_add(c, "'%s' not counted on %s: %s", r->name,
				 p.name, err);
			continue;
		}
		for (size_t k = 0; k < (p.n_cpus ? p.n_cpus : 1); k++) {
			struct rl_perf_event_spec *s = slot(c);
			char nm[400];
			if (!s)
				break;
			s->counter = counter;
			s->type = p.type;
			s->config = cfg[0];
			s->config1 = cfg[1];
			s->config2 = cfg[2];
			s->weight = weight;
			s->cpu = p.n_cpus ? p.cpus[k] : 0;
			s->group = c->next_group++;
			snprintf(nm, sizeof nm, "%s/%s/", p.name,
				 r->sysfs_event ? r->sysfs_event : terms);
			set_name(s, nm);
			(*c->n)++;
			added++;
		}
	}
	for (size_t i = 0; i < nn; i++)
		free(names[i]);
	return added;
}

static void add_proxy(struct ctx *c, const struct rl_sysfs_pmu *core,
		      const char *why)
{
	size_t added = 0;

	for (size_t i = 0; i < c->u->n_proxy; i++)
		if (add_core_row(c, &c->u->proxy[i], core) == 0)
			added++;
	if (added) {
		char names[256] = "";
		for (size_t i = 0; i < c->u->n_proxy; i++)
			snprintf(names + strlen(names),
				 sizeof names - strlen(names), "%s%s x 64 B",
				 i ? " + " : "", c->u->proxy[i].name);
		note_add(c, "DRAM bytes from a per-thread proxy (%s): %s; "
			    "proxy: %s",
			 why, names,
			 strcmp(c->h->cpu.vendor, "AuthenticAMD") == 0
				 ? "the kernel's cache-misses counts L2 misses "
				   "on Zen (L3 hits included): an upper bound"
				 : "LLC misses include write-allocate reads; L2 "
				   "write-backs are an upper bound of DRAM "
				   "writes");
	}
	else
		note_add(c, "DRAM bytes not counted (%s)", why);
}

static void add_dram(struct ctx *c, const struct rl_sysfs_pmu *core,
		     const char *mode)
{
	const struct rl_uarch *u = c->u;
	uint64_t done = 0;
	size_t total = 0;
	char why[300];

	if (strcmp(mode, "none") == 0) {
		note_add(c, "DRAM bytes not counted (dram=none)");
		return;
	}
	if (strcmp(mode, "proxy") == 0) {
		add_proxy(c, core, "dram=proxy");
		return;
	}
	if (!c->h->system_allowed) {
		snprintf(why, sizeof why, "%s",
			 c->h->system_why ? c->h->system_why
					  : "system-wide events not allowed");
		if (strcmp(mode, "uncore") == 0)
			note_add(c, "DRAM bytes not counted: %s", why);
		else
			add_proxy(c, core, why);
		return;
	}
	for (size_t i = 0; i < u->n_dram; i++) {
		int ctr = rl_counter_from_name(u->dram[i].counter);
		size_t k;
		if (ctr < 0 || (done >> ctr & 1))
			continue;
		k = add_dram_row(c, &u->dram[i]);
		if (k) {
			/* one counter may take several rows (DF channels) */
			if (strcmp(u->dram[i].pmu_prefix, "amd_df") != 0)
				done |= 1ULL << ctr;
			total += k;
		}
	}
	if (total) {
		note_add(c, "DRAM bytes system-wide from %s* (%zu events, every "
			    "process on the socket counts)",
			 u->dram[0].pmu_prefix, total);
		return;
	}
	snprintf(why, sizeof why, "no %s* PMU in %s", u->dram[0].pmu_prefix,
		 c->h->sysfs_root);
	if (strcmp(mode, "uncore") == 0)
		note_add(c, "DRAM bytes not counted: %s", why);
	else
		add_proxy(c, core, why);
}

/* events=A,B: libpfm4 names, or pmu/terms/ as perf writes them. */
static int add_extras(struct ctx *c, const char *list)
{
	const char *p = list;
	int k = 0;

	while (*p) {
		char item[256], err[200] = "";
		size_t len = 0;
		int slash = 0;
		struct rl_perf_event_spec tmp;
		struct rl_sysfs_pmu pmu;
		int cpus_n = 1;

		while (p[len] && (p[len] != ',' || slash % 2 == 1)) {
			if (p[len] == '/')
				slash++;
			len++;
		}
		if (len == 0 || len >= sizeof item) {
			snprintf(c->note, c->notelen, "bad event list '%s'", list);
			return RL_EINVAL;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		p += len + (p[len] == ',');
		if (k == RL_EXTRA_MAX) {
			snprintf(c->note, c->notelen,
				 "too many events in '%s': at most %d", list,
				 RL_EXTRA_MAX);
			return RL_ELIMIT;
		}
		memset(&tmp, 0, sizeof tmp);
		memset(&pmu, 0, sizeof pmu);
		tmp.cpu = -1;
		if (strchr(item, '/')) {
			char dir[600], terms[256], unit[32];
			char *t = strchr(item, '/');
			uint64_t cfg[3];
			double scale = 1;
			*t++ = '\0';
			t[strcspn(t, "/")] = '\0';
			snprintf(dir, sizeof dir, "%s/%s", c->h->sysfs_root, item);
			if (rl_sysfs_pmu_load(dir, &pmu, err, sizeof err) < 0 ||
			    (!strchr(t, '=') &&
			     rl_sysfs_event_read(&pmu, t, terms, sizeof terms,
						 &scale, unit, sizeof unit, err,
						 sizeof err) < 0) ||
			    rl_sysfs_encode(&pmu, strchr(t, '=') ? t : terms,
					    cfg, err, sizeof err) < 0) {
				snprintf(c->note, c->notelen,
					 "unknown event '%s/%s/': %s", item, t,
					 err);
				return RL_ENOENT;
			}
			tmp.type = pmu.type;
			tmp.config = cfg[0];
			tmp.config1 = cfg[1];
			tmp.config2 = cfg[2];
			if (pmu.n_cpus)
				cpus_n = (int)pmu.n_cpus;
			*--t = '/';
		} else if (rl_pfm_encode(c->u ? c->u->pfm_pmu : NULL, item, &tmp,
					 err, sizeof err) < 0 &&
			   rl_pfm_encode(NULL, item, &tmp, err, sizeof err) < 0) {
			snprintf(c->note, c->notelen, "unknown event '%s': %s",
				 item, err);
			return RL_ENOENT;
		}
		for (int i = 0; i < cpus_n; i++) {
			struct rl_perf_event_spec *s = slot(c);
			if (!s)
				return RL_ELIMIT;
			*s = tmp;
			s->counter = RL_C_EXTRA0 + k;
			s->weight = 1;
			s->cpu = pmu.n_cpus ? pmu.cpus[i] : -1;
			s->group = s->cpu >= 0 ? c->next_group++ : core_group(c);
			set_name(s, item);
			(*c->n)++;
		}
		k++;
	}
	return 0;
}

/* Value of key in "k=v;k=v" (';' or whitespace separated) into buf. */
static int option(const char *options, const char *key, char *buf,
		  size_t len)
{
	size_t klen = strlen(key);
	const char *p = options;

	while (p && *p) {
		p += strspn(p, "; \t");
		if (strncmp(p, key, klen) == 0 && p[klen] == '=') {
			size_t vlen = strcspn(p + klen + 1, "; \t");
			if (vlen >= len)
				return RL_ELIMIT;
			memcpy(buf, p + klen + 1, vlen);
			buf[vlen] = '\0';
			return 1;
		}
		p += strcspn(p, "; \t");
	}
	return 0;
}

int rl_events_resolve_host(const struct rl_events_host *h,
			   const char *options,
			   struct rl_perf_event_spec *specs, size_t max,
			   size_t *n, char *note, size_t notelen)
{
	struct ctx c = {h, NULL, specs, max, n, note, notelen, 0, -1, 0,
			CORE_GROUP_SIZE, 0};
	struct rl_sysfs_pmu core;
	char events[1024] = "", mode[16] = "auto";
	int r;

	*n = 0;
	if (notelen)
		note[0] = '\0';
	if (!options)
		options = "";
	if (option(options, "events", events, sizeof events) < 0 ||
	    option(options, "dram", mode, sizeof mode) < 0) {
		snprintf(note, notelen, "option value too long in '%s'", options);
		return RL_EINVAL;
	}
	if (strcmp(mode, "auto") && strcmp(mode, "uncore") &&
	    strcmp(mode, "proxy") && strcmp(mode, "none")) {
		snprintf(note, notelen,
			 "bad value 'dram=%s': use auto, uncore, proxy or none",
			 mode);
		return RL_EINVAL;
	}
	c.u = rl_uarch_of(&h->cpu);
	/* AMD's large-increment flops event takes a MERGE counter beside it:
	 * two of them fill four of the six counters */
	if (c.u && c.u->amd_merge)
		c.group_size = 2;
	core_pmu(h, &core);
	add_generic(&c);
	if (!c.u) {
		note_add(&c, "no event table for %s family 0x%x model 0x%x: "
			     "flops and DRAM bytes not counted (an unknown "
			     "CPU model: try -b papi or -b likwid, which may "
			     "know it, or -b sim)",
			 h->cpu.vendor[0] ? h->cpu.vendor : "this CPU",
			 h->cpu.family, h->cpu.model);
	} else {
		note_add(&c, "%s (%s)", c.u->pretty, c.u->note);
		add_flops(&c, &core);
		add_dram(&c, &core, mode);
	}
	if (events[0] && (r = add_extras(&c, events)) < 0)
		return r;
	return 0;
}

int rl_events_host_detect(struct rl_events_host *h, char *err,
			  size_t errlen)
{
	static char why[300];
	int r;

	memset(h, 0, sizeof *h);
	if ((r = rl_cpu_id_read("/proc/cpuinfo", &h->cpu, err, errlen)) < 0)
		return r;
	h->sysfs_root = "/sys/bus/event_source/devices";
	rl_kernel_version(&h->kernel_major, &h->kernel_minor);
	h->system_allowed = rl_perf_system_allowed(why, sizeof why);
	h->system_why = why;
	return 0;
}

static void __attribute__((constructor)) install_resolver(void)
{
	rl_perf_set_resolver(rl_perf_events_resolve);
}

int rl_perf_events_resolve(const char *options,
			   struct rl_perf_event_spec *specs, size_t max,
			   size_t *n, char *note, size_t notelen)
{
	struct rl_events_host h;
	int r;

	*n = 0;
	if ((r = rl_events_host_detect(&h, note, notelen)) < 0)
		return r;
	return rl_events_resolve_host(&h, options, specs, max, n, note,
				      notelen);
}
