/* Event tables, libpfm4 encodings, sysfs PMU parsing and the resolver, for
 * every supported microarchitecture (no PMU needed: libpfm4 encodes the
 * events of other CPUs, and sysfs trees are test data). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "formats/counter_ids.h"
#include "counters/events/events.h"
#include "common/rl_error.h"

#define SYSFS RL_SOURCE_DIR "/tests/data/sysfs"

/* The core PMU layout of each vendor, from the test trees. */
static void core_of(const struct rl_uarch *u, struct rl_sysfs_pmu *p)
{
	char err[200];
	const char *dir = strncmp(u->id, "zen", 3) == 0 ? SYSFS "/zen4/cpu"
							: SYSFS "/skx/cpu";
	cr_assert_eq(rl_sysfs_pmu_load(dir, p, err, sizeof err), 0, "%s", err);
}

/* Lanes of a counter by its name: width / element size (the vendor rule:
 * FP_ARITH counts one per lane, FMA twice by the event itself). */
static double lanes_of(const struct rl_event_row *r)
{
	const char *c = r->counter;
	double elem = strstr(c, "f64") ? 64 : strstr(c, "f32") ? 32 : 16;
	const char *n = r->name;

	if (strstr(c, "_scalar") || strstr(n, "SCALAR"))
		return 1;
	if (strstr(c, "_128") || strstr(n, "128B"))
		return 128 / elem;
	if (strstr(c, "_256") || strstr(n, "256B"))
		return 256 / elem;
	if (strstr(c, "_512") || strstr(n, "512B"))
		return 512 / elem;
	return 1; /* AMD: the event counts flops */
}

static void check_row(const struct rl_uarch *u, const struct rl_event_row *r,
		      const struct rl_sysfs_pmu *core)
{
	char err[300];
	uint64_t cfg[3];

	cr_assert(r->pfm || r->terms, "%s: row '%s' has no encoding", u->id,
		  r->name);
	if (!r->pfm || (!u->pfm_pmu && !strstr(r->pfm, "::")))
		cr_assert(r->terms && r->cite && strlen(r->cite) > 10,
			  "%s: raw row '%s' must cite its vendor document",
			  u->id, r->name);
	if (r->terms)
		cr_assert_eq(rl_sysfs_encode(core, r->terms, cfg, err,
					     sizeof err),
			     0, "%s: %s", u->id, err);
	if (r->pfm && (u->pfm_pmu || strstr(r->pfm, "::"))) {
		struct rl_perf_event_spec s;
		memset(&s, 0, sizeof s);
		cr_assert_eq(rl_pfm_encode(u->pfm_pmu, r->pfm, &s, err,
					   sizeof err),
			     0, "%s: %s", u->id, err);
		if (strncmp(r->pfm, "perf::", 6) == 0) {
			cr_assert_eq(s.type, 0, "generic events are type 0");
			return;
		}
		cr_assert_eq(s.type, 4, "%s %s: type %u", u->id, r->pfm, s.type);
		if (r->terms)
			cr_assert_eq(s.config & 0xf0000ffffULL, cfg[0],
				     "%s %s: libpfm4 0x%llx, table 0x%llx",
				     u->id, r->pfm,
				     (unsigned long long)s.config,
				     (unsigned long long)cfg[0]);
	}
}

Test(events, skx_scalar_double_encodes_like_the_notes)
{
	struct rl_perf_event_spec s;
	char err[200];

	memset(&s, 0, sizeof s);
	cr_assert_eq(rl_pfm_encode("skx", "FP_ARITH:SCALAR_DOUBLE", &s, err,
				   sizeof err),
		     0, "%s", err);
	cr_assert_eq(s.type, 4);
	cr_assert_eq(s.config, 0x1c7);
}

Test(events, every_table_row_resolves_or_is_cited)
{
	for (size_t i = 0; i < rl_uarch_count(); i++) {
		const struct rl_uarch *u = rl_uarch_at(i);
		struct rl_sysfs_pmu core;
		core_of(u, &core);
		cr_assert(u->n_flops > 0, "%s has no flops events", u->id);
		for (size_t k = 0; k < u->n_flops; k++)
			check_row(u, &u->flops[k], &core);
		for (size_t k = 0; k < u->n_flops_fallback; k++)
			check_row(u, &u->flops_fallback[k], &core);
		for (size_t k = 0; k < u->n_proxy; k++)
			check_row(u, &u->proxy[k], &core);
		for (size_t k = 0; k < u->n_dram; k++) {
			const struct rl_dram_row *d = &u->dram[k];
			cr_assert(d->sysfs_event || d->terms, "%s: %s", u->id,
				  d->name);
			cr_assert(d->cite && strlen(d->cite) > 10);
			cr_assert_eq(d->weight, 64, "%s: a CAS moves 64 B",
				     u->id);
			cr_assert_geq(rl_counter_from_name(d->counter), 0);
		}
	}
}

Test(events, weights_are_the_vendor_lane_counts)
{
	for (size_t i = 0; i < rl_uarch_count(); i++) {
		const struct rl_uarch *u = rl_uarch_at(i);
		for (size_t k = 0; k < u->n_flops; k++) {
			const struct rl_event_row *r = &u->flops[k];
			double want = strncmp(u->id, "zen", 3) == 0
					      ? 1
					      : lanes_of(r);
			cr_assert_eq(r->weight, want, "%s %s: weight %g, %g lanes",
				     u->id, r->name, r->weight, want);
		}
	}
	/* spot checks against the SDM text */
	const struct rl_uarch *spr = rl_uarch_find("spr");
	int seen = 0;
	for (size_t k = 0; k < spr->n_flops; k++) {
		const struct rl_event_row *r = &spr->flops[k];
		if (strcmp(r->name, "FP_ARITH_INST_RETIRED.512B_PACKED_SINGLE") == 0)
		{
			cr_assert_eq(r->weight, 16);
			seen++;
		}
		if (strcmp(r->name, "FP_ARITH_INST_RETIRED.256B_PACKED_DOUBLE") == 0)
		{
			cr_assert_eq(r->weight, 4);
			seen++;
		}
		if (strcmp(r->name, "FP_ARITH_INST_RETIRED2.512B_PACKED_HALF") == 0)
		{
			cr_assert_eq(r->weight, 32);
			seen++;
		}
	}
	cr_assert_eq(seen, 3);
}

Test(events, cpu_models_map_to_tables)
{
	static const struct {
		const char *vendor;
		unsigned family, model, stepping;
		const char *id;
	} cases[] = {
		{"GenuineIntel", 6, 0x55, 4, "skx"},
		{"GenuineIntel", 6, 0x55, 7, "clx"},
		{"GenuineIntel", 6, 0x6a, 6, "icx"},
		{"GenuineIntel", 6, 0x8f, 8, "spr"},
		{"GenuineIntel", 6, 0xcf, 2, "spr"},
		{"GenuineIntel", 6, 0xad, 1, "gnr"},
		{"GenuineIntel", 6, 0x9e, 10, "skl"},
		{"GenuineIntel", 6, 0xa7, 1, "icl"},
		{"GenuineIntel", 6, 0xb7, 1, "adl"},
		{"AuthenticAMD", 0x17, 0x31, 0, "zen2"},
		{"AuthenticAMD", 0x19, 0x01, 1, "zen3"},
		{"AuthenticAMD", 0x19, 0x11, 1, "zen4"},
		{"AuthenticAMD", 0x1a, 0x02, 0, "zen5"},
		{"AuthenticAMD", 0x17, 0x01, 0, NULL}, /* Zen 1: no table */
		{"GenuineIntel", 6, 0x3f, 2, NULL},    /* Haswell: no FP_ARITH */
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct rl_cpu_id c = {"", cases[i].family, cases[i].model,
				      cases[i].stepping};
		const struct rl_uarch *u;
		strcpy(c.vendor, cases[i].vendor);
		u = rl_uarch_of(&c);
		if (!cases[i].id)
			cr_assert_null(u, "model 0x%x", cases[i].model);
		else
			cr_assert(u && strcmp(u->id, cases[i].id) == 0,
				  "model 0x%x -> %s, want %s", cases[i].model,
				  u ? u->id : "none", cases[i].id);
	}
}

Test(events, cpuinfo_is_parsed)
{
	struct rl_cpu_id c;
	char err[200];

	cr_assert_eq(rl_cpu_id_read(SYSFS "/cpuinfo-skx", &c, err, sizeof err),
		     0, "%s", err);
	cr_assert_str_eq(c.vendor, "GenuineIntel");
	cr_assert_eq(c.family, 6);
	cr_assert_eq(c.model, 85);
	cr_assert_eq(c.stepping, 4);
	cr_assert_eq(rl_cpu_id_read(SYSFS "/nope", &c, err, sizeof err),
		     RL_EIO);
	cr_assert(strstr(err, "nope"));
}

Test(sysfs, skx_imc_tree_parses_with_scale_and_unit)
{
	struct rl_sysfs_pmu p;
	char err[200], terms[128], unit[16];
	double scale;
	uint64_t cfg[3];

	cr_assert_eq(rl_sysfs_pmu_load(SYSFS "/skx/uncore_imc_0", &p, err,
				       sizeof err),
		     0, "%s", err);
	cr_assert_str_eq(p.name, "uncore_imc_0");
	cr_assert_eq(p.type, 14);
	cr_assert_eq(p.n_cpus, 2);
	cr_assert_eq(p.cpus[0], 0);
	cr_assert_eq(p.cpus[1], 20);
	cr_assert_eq(rl_sysfs_event_read(&p, "cas_count_read", terms,
					 sizeof terms, &scale, unit,
					 sizeof unit, err, sizeof err),
		     0, "%s", err);
	cr_assert_str_eq(terms, "event=0x04,umask=0x03");
	cr_assert_float_eq(scale, 6.103515625e-5, 1e-15);
	cr_assert_str_eq(unit, "MiB");
	cr_assert_float_eq(scale * rl_sysfs_unit_bytes(unit), 64.0, 1e-9);
	cr_assert_eq(rl_sysfs_encode(&p, terms, cfg, err, sizeof err), 0);
	cr_assert_eq(cfg[0], 0x304);
	cr_assert_eq(rl_sysfs_event_read(&p, "clockticks", terms, sizeof terms,
					 &scale, unit, sizeof unit, err,
					 sizeof err),
		     0);
	cr_assert_eq(scale, 1.0);
	cr_assert_str_eq(unit, "");
	cr_assert_eq(rl_sysfs_event_read(&p, "nope", terms, sizeof terms,
					 &scale, unit, sizeof unit, err,
					 sizeof err),
		     RL_ENOENT);
}

Test(sysfs, split_fields_and_bad_terms)
{
	struct rl_sysfs_pmu p;
	char err[200];
	uint64_t cfg[3];

	cr_assert_eq(rl_sysfs_pmu_load(SYSFS "/zen2/amd_df", &p, err,
				       sizeof err),
		     0, "%s", err);
	/* DF channel 4: event 0x107 spreads over config:0-7,32-35 */
	cr_assert_eq(rl_sysfs_encode(&p, "event=0x107,umask=0x38", cfg, err,
				     sizeof err),
		     0, "%s", err);
	cr_assert_eq(cfg[0], (1ULL << 32) | 0x3807);
	cr_assert_eq(rl_sysfs_encode(&p, "event=0x04,color=1", cfg, err,
				     sizeof err),
		     RL_ENOENT);
	cr_assert(strstr(err, "'color'"), "%s", err);
	cr_assert_eq(rl_sysfs_encode(&p, "umask=0x1ff", cfg, err, sizeof err),
		     RL_EFORMAT);
	cr_assert_eq(rl_sysfs_pmu_load(SYSFS "/vm/cpu", &p, err, sizeof err),
		     RL_ENOENT);
}

Test(sysfs, cpulists)
{
	int cpus[8];

	cr_assert_eq(rl_cpulist_parse("0-3,8\n", cpus, 8), 5);
	cr_assert_eq(cpus[4], 8);
	cr_assert_eq(rl_cpulist_parse("0,20", cpus, 8), 2);
	cr_assert_eq(rl_cpulist_parse("0-9", cpus, 8), RL_ELIMIT);
	cr_assert_eq(rl_cpulist_parse("x", cpus, 8), RL_EFORMAT);
	cr_assert_eq(rl_sysfs_unit_bytes("MiB"), 1048576.0);
	cr_assert_eq(rl_sysfs_unit_bytes("furlongs"), 0);
}

static struct rl_events_host host(const char *vendor, unsigned fam,
				  unsigned model, const char *tree, int major,
				  int minor, bool system)
{
	struct rl_events_host h;
	memset(&h, 0, sizeof h);
	strcpy(h.cpu.vendor, vendor);
	h.cpu.family = fam;
	h.cpu.model = model;
	h.sysfs_root = tree;
	h.kernel_major = major;
	h.kernel_minor = minor;
	h.system_allowed = system;
	h.system_why = "uncore not allowed: kernel.perf_event_paranoid is 2";
	return h;
}

static size_t count_of(const struct rl_perf_event_spec *s, size_t n,
		       const char *counter)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += s[i].counter == rl_counter_from_name(counter);
	return k;
}

static const struct rl_perf_event_spec *find(const struct rl_perf_event_spec *s,
					     size_t n, const char *counter)
{
	for (size_t i = 0; i < n; i++)
		if (s[i].counter == rl_counter_from_name(counter))
			return &s[i];
	return NULL;
}

Test(resolve, skx_with_uncore_counts_imc_system_wide)
{
	struct rl_events_host h =
		host("GenuineIntel", 6, 0x55, SYSFS "/skx", 6, 1, true);
	struct rl_perf_event_spec s[RL_PERF_EVENTS_MAX];
	char note[2048];
	size_t n;
	const struct rl_perf_event_spec *e;

	cr_assert_eq(rl_events_resolve_host(&h, "", s, RL_PERF_EVENTS_MAX, &n,
					    note, sizeof note),
		     0, "%s", note);
	cr_assert_eq(count_of(s, n, "cycles"), 1);
	cr_assert_eq(count_of(s, n, "ref_cycles"), 1);
	cr_assert_eq(count_of(s, n, "flops_f64_512"), 1);
	/* 2 iMC instances x 2 sockets (cpumask 0,20) */
	cr_assert_eq(count_of(s, n, "dram_read_bytes"), 4);
	cr_assert_eq(count_of(s, n, "dram_write_bytes"), 4);
	e = find(s, n, "dram_read_bytes");
	cr_assert_eq(e->type, 14);
	cr_assert_eq(e->config, 0x304);
	cr_assert_float_eq(e->weight, 64.0, 1e-9);
	cr_assert_eq(e->cpu, 0);
	cr_assert_eq(s[n - 1].cpu, 20);
	cr_assert_str_eq(e->name, "uncore_imc_0/cas_count_read/");
	e = find(s, n, "flops_f32_256");
	cr_assert_eq(e->config, 0x20c7);
	cr_assert_eq(e->weight, 8);
	cr_assert_eq(e->cpu, -1);
	cr_assert(strstr(note, "system-wide"), "%s", note);
	/* groups: at most 4 core events each, uncore events alone */
	for (size_t i = 0; i < n; i++) {
		size_t same = 0;
		for (size_t k = 0; k < n; k++)
			same += s[k].group == s[i].group;
		cr_assert(s[i].cpu >= 0 ? same == 1 : same <= 4,
			  "group %d has %zu events", s[i].group, same);
	}
}

Test(resolve, no_uncore_permission_gives_a_per_thread_proxy)
{
	struct rl_events_host h =
		host("GenuineIntel", 6, 0x55, SYSFS "/skx", 6, 1, false);
	struct rl_perf_event_spec s[RL_PERF_EVENTS_MAX];
	char note[2048];
	size_t n;
	const struct rl_perf_event_spec *e;

	cr_assert_eq(rl_events_resolve_host(&h, "", s, RL_PERF_EVENTS_MAX, &n,
					    note, sizeof note),
		     0);
	e = find(s, n, "dram_read_bytes");
	cr_assert_not_null(e);
	cr_assert_eq(e->cpu, -1);
	cr_assert_eq(e->config, 0x412e);
	cr_assert_eq(e->weight, 64);
	cr_assert(strstr(note, "per-thread proxy"), "%s", note);
	cr_assert(strstr(note, "perf_event_paranoid is 2"), "%s", note);
	/* dram=uncore refuses the proxy */
	cr_assert_eq(rl_events_resolve_host(&h, "dram=uncore", s,
					    RL_PERF_EVENTS_MAX, &n, note,
					    sizeof note),
		     0);
	cr_assert_null(find(s, n, "dram_read_bytes"));
	cr_assert(strstr(note, "DRAM bytes not counted"), "%s", note);
}

Test(resolve, vm_without_uncore_pmu_says_so)
{
	struct rl_events_host h =
		host("GenuineIntel", 6, 0x8f, SYSFS "/vm", 6, 1, true);
	struct rl_perf_event_spec s[RL_PERF_EVENTS_MAX];
	char note[2048];
	size_t n;

	cr_assert_eq(rl_events_resolve_host(&h, "dram=uncore", s,
					    RL_PERF_EVENTS_MAX, &n, note,
					    sizeof note),
		     0);
	cr_assert(strstr(note, "no uncore_imc_* PMU"), "%s", note);
	cr_assert_eq(count_of(s, n, "flops_f16"), 4, "SPR has FP16 events");
}

Test(resolve, zen2_needs_linux_5_6_for_merge)
{
	struct rl_events_host old =
		host("AuthenticAMD", 0x17, 0x31, SYSFS "/zen2", 5, 4, true);
	struct rl_events_host now =
		host("AuthenticAMD", 0x17, 0x31, SYSFS "/zen2", 6, 1, true);
	struct rl_perf_event_spec s[RL_PERF_EVENTS_MAX];
	char note[2048];
	size_t n;
	const struct rl_perf_event_spec *e;

	cr_assert_eq(rl_events_resolve_host(&old, "", s, RL_PERF_EVENTS_MAX,
					    &n, note, sizeof note),
		     0);
	cr_assert_null(find(s, n, "flops_any"));
	cr_assert(strstr(note, "Linux 5.4") && strstr(note, "5.6"), "%s",
		  note);
	cr_assert_eq(rl_events_resolve_host(&now, "", s, RL_PERF_EVENTS_MAX,
					    &n, note, sizeof note),
		     0);
	e = find(s, n, "flops_any");
	cr_assert_not_null(e);
	cr_assert_eq(e->config, 0xf03);
	cr_assert_null(find(s, n, "flops_f64_scalar"), "no split on Zen 2");
	/* 8 DF channels x 2 dies (cpumask 0,64), read+write together */
	cr_assert_eq(count_of(s, n, "dram_bytes"), 16);
	cr_assert_eq(find(s, n, "dram_bytes")->config, 0x3807);
	cr_assert(strstr(note, "NPS1"), "%s", note);
}

Test(resolve, zen4_umc_and_zen5_raw)
{
	struct rl_events_host z4 =
		host("AuthenticAMD", 0x19, 0x11, SYSFS "/zen4", 6, 10, true);
	struct rl_events_host z5 =
		host("AuthenticAMD", 0x1a, 0x02, SYSFS "/zen4", 6, 10, true);
	struct rl_perf_event_spec s[RL_PERF_EVENTS_MAX];
	char note[2048];
	size_t n;
	const struct rl_perf_event_spec *e;

	cr_assert_eq(rl_events_resolve_host(&z4, "", s, RL_PERF_EVENTS_MAX, &n,
					    note, sizeof note),
		     0);
	cr_assert_eq(find(s, n, "flops_any")->config, 0x1f03);
	e = find(s, n, "dram_write_bytes");
	cr_assert_not_null(e, "%s", note);
	cr_assert_eq(e->type, 20);
	cr_assert_eq(e->config, 0x20a);
	cr_assert_eq(count_of(s, n, "dram_read_bytes"), 2);
	cr_assert_eq(rl_events_resolve_host(&z5, "", s, RL_PERF_EVENTS_MAX, &n,
					    note, sizeof note),
		     0);
	e = find(s, n, "flops_f64_scalar");
	if (rl_counter_from_name("flops_f64_packed") >= 0) {
		cr_assert_not_null(e);
		cr_assert_eq(e->config, 0x8f03);
	} else {
		cr_assert_null(e, "no half split without packed counters");
		cr_assert_eq(find(s, n, "flops_any")->config, 0x0f03);
		cr_assert(strstr(note, "flops_f64_packed"), "%s", note);
	}
}

#define E1 "skx::INST_RETIRED:ANY_P"
#define E9 E1 "," E1 "," E1 "," E1 "," E1 "," E1 "," E1 "," E1 "," E1

Test(resolve, extra_events_and_bad_options)
{
	struct rl_events_host h =
		host("GenuineIntel", 6, 0x55, SYSFS "/skx", 6, 1, true);
	struct rl_perf_event_spec s[RL_PERF_EVENTS_MAX];
	char note[2048];
	size_t n;
	const struct rl_perf_event_spec *e;

	cr_assert_eq(rl_events_resolve_host(
			     &h,
			     "dram=none;events=skx::INST_RETIRED:ANY_P,"
			     "uncore_imc_1/event=0x01,umask=0x02/",
			     s, RL_PERF_EVENTS_MAX, &n, note, sizeof note),
		     0, "%s", note);
	e = find(s, n, "extra0");
	cr_assert_not_null(e);
	cr_assert_eq(e->cpu, -1);
	cr_assert_str_eq(e->name, "skx::INST_RETIRED:ANY_P");
	cr_assert_eq(count_of(s, n, "extra1"), 2, "one per socket");
	e = find(s, n, "extra1");
	cr_assert_eq(e->type, 15);
	cr_assert_eq(e->config, 0x201);
	cr_assert_null(strchr(e->name, ','), "names carry no ','");
	cr_assert_null(find(s, n, "dram_read_bytes"));
	cr_assert_eq(rl_events_resolve_host(&h, "dram=maybe", s,
					    RL_PERF_EVENTS_MAX, &n, note,
					    sizeof note),
		     RL_EINVAL);
	cr_assert(strstr(note, "dram=maybe"), "%s", note);
	cr_assert_eq(rl_events_resolve_host(&h, "events=NOT_AN_EVENT_AT_ALL",
					    s, RL_PERF_EVENTS_MAX, &n, note,
					    sizeof note),
		     RL_ENOENT);
	cr_assert(strstr(note, "NOT_AN_EVENT_AT_ALL"), "%s", note);
	cr_assert_eq(rl_events_resolve_host(
			     &h, "events=" E9,
			     s, RL_PERF_EVENTS_MAX, &n, note, sizeof note),
		     RL_ELIMIT);
}

Test(resolve, unknown_cpu_counts_cycles_only_and_says_why)
{
	struct rl_events_host h =
		host("GenuineIntel", 6, 0x3f, SYSFS "/vm", 6, 1, true);
	struct rl_perf_event_spec s[RL_PERF_EVENTS_MAX];
	char note[2048];
	size_t n;

	cr_assert_eq(rl_events_resolve_host(&h, NULL, s, RL_PERF_EVENTS_MAX,
					    &n, note, sizeof note),
		     0);
	cr_assert_eq(n, 3);
	cr_assert(strstr(note, "no event table") && strstr(note, "0x3f") &&
			  strstr(note, "unknown CPU model: try -b papi"),
		  "%s", note);
}

Test(resolve, spec_list_fits_the_format_limit)
{
	struct rl_events_host h =
		host("GenuineIntel", 6, 0x55, SYSFS "/skx", 6, 1, true);
	struct rl_perf_event_spec s[8];
	char note[2048];
	size_t n;

	cr_assert_eq(rl_events_resolve_host(&h, "", s, 8, &n, note,
					    sizeof note),
		     0);
	cr_assert_eq(n, 8);
	cr_assert(strstr(note, "left out"), "%s", note);
}

/* The contract with the runtime: what the command resolves survives the
 * RLPROF_PERF_EVENTS text format unchanged. */
Test(resolve, specs_round_trip_through_the_env_format)
{
	struct rl_events_host h =
		host("GenuineIntel", 6, 0x8f, SYSFS "/skx", 6, 1, false);
	struct rl_perf_event_spec s[RL_PERF_EVENTS_MAX], back[RL_PERF_EVENTS_MAX];
	char note[2048], text[RL_PERF_EVENTS_MAX * 200], err[256];
	size_t n, m;

	cr_assert_eq(rl_events_resolve_host(&h, "events=" E1, s,
					    RL_PERF_EVENTS_MAX, &n, note,
					    sizeof note),
		     0, "%s", note);
	cr_assert_eq(rl_perf_spec_format(s, n, text, sizeof text), 0);
	cr_assert_eq(rl_perf_spec_parse(text, back, RL_PERF_EVENTS_MAX, &m, err,
					sizeof err),
		     0, "%s in %s", err, text);
	cr_assert_eq(m, n);
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(back[i].counter, s[i].counter);
		cr_assert_eq(back[i].type, s[i].type);
		cr_assert_eq(back[i].config, s[i].config, "%s", s[i].name);
		cr_assert_eq(back[i].config1, s[i].config1);
		cr_assert_float_eq(back[i].weight, s[i].weight, 1e-12);
		cr_assert_eq(back[i].cpu, s[i].cpu);
		cr_assert_eq(back[i].group, s[i].group);
		cr_assert_str_eq(back[i].name, s[i].name);
	}
}

Test(resolve, zen_groups_leave_room_for_merge_counters)
{
	struct rl_events_host h =
		host("AuthenticAMD", 0x1a, 0x02, SYSFS "/zen4", 6, 10, true);
	struct rl_perf_event_spec s[RL_PERF_EVENTS_MAX];
	char note[2048];
	size_t n;

	cr_assert_eq(rl_events_resolve_host(&h, "dram=proxy", s,
					    RL_PERF_EVENTS_MAX, &n, note,
					    sizeof note),
		     0);
	cr_assert_null(find(s, n, "ref_cycles"), "AMD has no ref-cycles");
	for (size_t i = 0; i < n; i++) {
		size_t same = 0;
		for (size_t k = 0; k < n; k++)
			same += s[k].group == s[i].group;
		if (rl_counter_kind_of(s[i].counter) == RL_KIND_FLOPS)
			cr_assert_leq(same, 2, "group %d: %zu events",
				      s[i].group, same);
	}
}

Test(resolve, hybrid_client_uses_the_p_core_pmu_and_free_running_imc)
{
	struct rl_events_host h =
		host("GenuineIntel", 6, 0x97, SYSFS "/adl", 6, 1, true);
	struct rl_perf_event_spec s[RL_PERF_EVENTS_MAX];
	char note[2048];
	size_t n;
	const struct rl_perf_event_spec *e;

	cr_assert_eq(rl_events_resolve_host(&h, "", s, RL_PERF_EVENTS_MAX, &n,
					    note, sizeof note),
		     0, "%s", note);
	e = find(s, n, "flops_f64_256");
	cr_assert_not_null(e);
	cr_assert_eq(e->type, 8, "cpu_core's type from sysfs");
	cr_assert_eq(e->config, 0x10c7);
	cr_assert_null(find(s, n, "flops_f64_512"), "no AVX-512 on ADL");
	e = find(s, n, "dram_read_bytes");
	cr_assert_not_null(e, "%s", note);
	cr_assert_eq(e->type, 20);
	cr_assert_eq(e->config, 0x20ff);
	cr_assert_eq(e->cpu, 0);
	cr_assert_float_eq(e->weight, 64.0, 1e-9);
	cr_assert(strstr(note, "P-core"), "%s", note);
}
