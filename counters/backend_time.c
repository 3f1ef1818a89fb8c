/*
 * The `time` backend: no counters. The runtime always measures each
 * region's wall time (CLOCK_MONOTONIC); with this backend that, the calls
 * and the declared RL_REGION_EXPECT counts are all a report has. It works
 * everywhere and is the fallback when another backend cannot start.
 */
#include "counters/backend.h"

#include <string.h>

static int time_probe(char *why, size_t whylen)
{
	rl_fail(why, whylen, 0,
		"wall time only: no counters, flops and bytes come from "
		"RL_REGION_EXPECT");
	return RL_CAP_TIME;
}

static int time_init(const char *options, struct rl_backend_setup *setup,
		     char *err, size_t errlen)
{
	(void)options;
	(void)err;
	(void)errlen;
	memset(setup, 0, sizeof *setup);
	return 0;
}

static int time_read(void *state, struct rl_counter_value *values)
{
	(void)state;
	(void)values;
	return 0;
}

const struct rl_backend rl_backend_time = {
	.abi = RL_BACKEND_ABI,
	.name = "time",
	.summary = "wall time per region; flops and bytes only as declared "
		   "with RL_REGION_EXPECT",
	.thread_state_size = 0,
	.probe = time_probe,
	.init = time_init,
	.read = time_read,
};
