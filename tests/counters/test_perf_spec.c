/* RLPROF_PERF_EVENTS: parse, format, round trip, errors. */
#include <criterion/criterion.h>
#include <string.h>

#include "formats/counter_ids.h"
#include "counters/perf_spec.h"
#include "common/rl_error.h"

Test(perf_spec, parses_the_documented_example)
{
	struct rl_perf_event_spec s[4];
	size_t n;
	char err[256];
	int rc = rl_perf_spec_parse(
		"c=flops_f64_256,t=4,cfg=0x10c7,w=4,g=0,"
		"name=FP_ARITH_INST_RETIRED.256B_PACKED_DOUBLE;"
		"c=dram_read_bytes,t=13,cfg=304,cfg1=0x1,w=64,cpu=0,g=1",
		s, 4, &n, err, sizeof err);
	cr_assert_eq(rc, 0, "%s", err);
	cr_assert_eq(n, 2);
	cr_assert_eq(s[0].counter, RL_C_FLOPS_F64_256);
	cr_assert_eq(s[0].type, 4);
	cr_assert_eq(s[0].config, 0x10c7);
	cr_assert_float_eq(s[0].weight, 4.0, 0);
	cr_assert_eq(s[0].cpu, -1);
	cr_assert_eq(s[0].group, 0);
	cr_assert_str_eq(s[0].name, "FP_ARITH_INST_RETIRED.256B_PACKED_DOUBLE");
	cr_assert_eq(s[1].counter, RL_C_DRAM_READ_BYTES);
	cr_assert_eq(s[1].config, 0x304);
	cr_assert_eq(s[1].config1, 1);
	cr_assert_eq(s[1].cpu, 0);
	cr_assert_eq(s[1].group, 1);
	cr_assert_str_eq(s[1].name, "");
}

Test(perf_spec, defaults_and_empty_items)
{
	struct rl_perf_event_spec s[2];
	size_t n = 99;
	cr_assert_eq(rl_perf_spec_parse("", s, 2, &n, NULL, 0), 0);
	cr_assert_eq(n, 0);
	cr_assert_eq(rl_perf_spec_parse(";c=cycles,t=0;", s, 2, &n, NULL, 0), 0);
	cr_assert_eq(n, 1);
	cr_assert_eq(s[0].group, -1);
	cr_assert_eq(s[0].cpu, -1);
	cr_assert_float_eq(s[0].weight, 1.0, 0);
	cr_assert_eq(s[0].config, 0);
}

Test(perf_spec, format_round_trips)
{
	struct rl_perf_event_spec in[3] = {
		{.counter = RL_C_FLOPS_F32_512, .type = 4, .config = 0x80c7,
		 .weight = 16, .cpu = -1, .group = 2, .name = "FP.512B_SINGLE"},
		{.counter = RL_C_DRAM_BYTES, .type = 17, .config = 0xff04,
		 .config1 = 0x3, .config2 = 0xabc, .weight = 0.1, .cpu = 3,
		 .group = -1, .name = ""},
		{.counter = RL_C_EXTRA7, .type = 1, .config = 2, .weight = 1,
		 .cpu = -1, .group = 0, .name = "x=y"},
	};
	char buf[1024], err[128];
	cr_assert_eq(rl_perf_spec_format(in, 3, buf, sizeof buf), 0);
	cr_assert_str_eq(buf,
			 "c=flops_f32_512,t=4,cfg=0x80c7,w=16,g=2,"
			 "name=FP.512B_SINGLE;"
			 "c=dram_bytes,t=17,cfg=0xff04,cfg1=0x3,cfg2=0xabc,"
			 "w=0.1,cpu=3;"
			 "c=extra7,t=1,cfg=0x2,g=0,name=x=y");
	struct rl_perf_event_spec out[3];
	size_t n;
	cr_assert_eq(rl_perf_spec_parse(buf, out, 3, &n, err, sizeof err), 0,
		     "%s", err);
	cr_assert_eq(n, 3);
	for (size_t i = 0; i < 3; i++) {
		cr_assert_eq(out[i].counter, in[i].counter);
		cr_assert_eq(out[i].type, in[i].type);
		cr_assert_eq(out[i].config, in[i].config);
		cr_assert_eq(out[i].config1, in[i].config1);
		cr_assert_eq(out[i].config2, in[i].config2);
		cr_assert_eq(out[i].weight, in[i].weight);
		cr_assert_eq(out[i].cpu, in[i].cpu);
		cr_assert_eq(out[i].group, in[i].group);
		cr_assert_str_eq(out[i].name, in[i].name);
	}
	cr_assert_eq(rl_perf_spec_format(in, 3, buf, 40), RL_ELIMIT);
	struct rl_perf_event_spec bad = in[0];
	strcpy(bad.name, "a,b");
	cr_assert_eq(rl_perf_spec_format(&bad, 1, buf, sizeof buf), RL_EINVAL);
}

Test(perf_spec, errors_quote_the_item)
{
	struct rl_perf_event_spec s[2];
	size_t n;
	char err[256];
	cr_assert_eq(rl_perf_spec_parse("c=cycles,t=0;c=nope,t=0", s, 2, &n,
					err, sizeof err),
		     RL_EFORMAT);
	cr_assert_str_eq(err, "unknown counter in perf event 'c=nope,t=0'");
	rl_perf_spec_parse("c=cycles", s, 2, &n, err, sizeof err);
	cr_assert_str_eq(err, "no type (t=) in perf event 'c=cycles'");
	rl_perf_spec_parse("c=cycles,t=0,cfg=zz", s, 2, &n, err, sizeof err);
	cr_assert_str_eq(err,
			 "bad hex config (cfg=) in perf event 'c=cycles,t=0,cfg=zz'");
	rl_perf_spec_parse("c=cycles,t=0,w=-2", s, 2, &n, err, sizeof err);
	cr_assert_str_eq(err, "bad weight (w=) in perf event 'c=cycles,t=0,w=-2'");
	rl_perf_spec_parse("c=cycles,t=0,bogus", s, 2, &n, err, sizeof err);
	cr_assert_str_eq(err,
			 "field without '=' in perf event 'c=cycles,t=0,bogus'");
	rl_perf_spec_parse("c=cycles,t=0,x=1", s, 2, &n, err, sizeof err);
	cr_assert_str_eq(err, "unknown field in perf event 'c=cycles,t=0,x=1'");
	cr_assert_eq(rl_perf_spec_parse("c=cycles,t=0;c=cycles,t=0;c=cycles,t=0",
					s, 2, &n, err, sizeof err),
		     RL_ELIMIT);
	cr_assert_str_eq(err, "more than 2 perf events in RLPROF_PERF_EVENTS");
}
